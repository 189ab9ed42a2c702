// Stroop: a colour's name printed in a colour; the participant taps the button of the ink's colour. Each attempt keeps
// the word, the ink, the colour tapped, the word's onset (the timestamp of the animation frame that showed it) and the
// touch's own timeStamp. Half the words, drawn at random, name their own ink.
import { step, format, onset, finish, seconds, statusLine, stopBar } from './active.js';

const s = step();
const count = s.settings.attempts || 15;
const colors = ['red', 'green', 'blue', 'yellow'];
// Light inks on a dark panel, and dark text on the buttons: every pair has a contrast of at least 4.5:1.
const inks = { red: '#ef5350', green: '#66bb6a', blue: '#42a5f5', yellow: '#ffee58' };
const { bar, label: progress, stop } = stopBar(s);
const word = document.createElement('p');
word.className = 'stroop-word';
word.setAttribute('aria-live', 'off');
const buttons = document.createElement('div');
buttons.className = 'stroop-buttons';
for (const color of colors) {
  const button = document.createElement('button');
  button.type = 'button';
  button.dataset.color = color;
  button.style.background = inks[color];
  button.textContent = s.texts[color];
  buttons.append(button);
}
const status = statusLine();
s.root.append(bar, word, buttons, status);

const attempts = [];
let current = null, origin = 0, done = false;
function random(n) { return crypto.getRandomValues(new Uint32Array(1))[0] % n; }

async function next() {
  if (attempts.length >= count) { end(true); return; }
  progress.textContent = format(s.texts.trial, { current: attempts.length + 1, total: count });
  const text = colors[random(colors.length)];
  const color = random(2) === 0 ? text : colors.filter((c) => c !== text)[random(colors.length - 1)];
  const pending = { text, color, startTime: null };
  const shownAt = await onset(() => { word.textContent = s.texts[text]; word.style.color = inks[color]; });
  pending.startTime = seconds(shownAt - origin);
  current = pending;
}
buttons.addEventListener('pointerdown', (event) => {
  const button = event.target.closest('button');
  if (!button || !current || done) return;
  event.preventDefault();
  attempts.push({ startTime: current.startTime, endTime: seconds(event.timeStamp - origin), text: current.text, color: current.color,
                  colorSelected: button.dataset.color });
  current = null;
  word.textContent = '';
  setTimeout(next, 400);
});
function end(complete) {
  if (done) return;
  done = true;
  finish(s, { attempts, complete });
}
stop.addEventListener('click', () => end(false));
origin = await onset(() => {});
setTimeout(next, 1500); // a moment to look at the buttons before the first word
