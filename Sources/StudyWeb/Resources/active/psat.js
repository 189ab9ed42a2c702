// PSAT: a digit every interStimulusInterval seconds, shown (PVSAT), spoken through the Web Speech API (PASAT) or both;
// after each, the participant taps the sum of it and the digit before. A digit is presented in the first animation
// frame at or after its time in the pace, and that frame's timestamp is its onset; an answer is timed by its event's
// own timeStamp, and the last key pressed in a digit's window is its answer.
import { step, onset, finish, seconds, statusLine, stopBar } from './active.js';

const s = step();
const mode = s.settings.presentationMode || 'visual';
const interval = (s.settings.interStimulusInterval || 3) * 1000;
const shown = (s.settings.stimulusDuration || 0) * 1000;
const length = s.settings.seriesLength || 60;
const { bar, label: progress, stop } = stopBar(s);
const digitView = document.createElement('p');
digitView.className = 'psat-digit';
digitView.setAttribute('aria-live', mode === 'auditory' ? 'off' : 'assertive');
const keypad = document.createElement('div');
keypad.className = 'psat-keys';
for (let sum = 3; sum <= 17; sum++) {
  const key = document.createElement('button');
  key.type = 'button';
  key.dataset.sum = sum;
  key.textContent = sum.toLocaleString(document.documentElement.lang);
  keypad.append(key);
}
const status = statusLine();
s.root.append(bar, digitView, keypad, status);

function random(n) { return crypto.getRandomValues(new Uint32Array(1))[0] % n; }
const digits = [1 + random(9)];
while (digits.length <= length) { const d = 1 + random(9); if (d !== digits[digits.length - 1]) digits.push(d); }
const samples = [];
let origin = 0, presented = 0, current = null, done = false;

function present(index, now) {
  const digit = digits[index];
  if (mode !== 'auditory') digitView.textContent = digit.toLocaleString(document.documentElement.lang);
  if (mode !== 'visual' && 'speechSynthesis' in window) {
    const utterance = new SpeechSynthesisUtterance(String(digit));
    utterance.lang = document.documentElement.lang;
    speechSynthesis.speak(utterance);
  }
  if (index > 0) current = { digit, onset: now, answer: -1, time: interval / 1000 };
  progress.textContent = `${index} / ${length}`;
}
function close() {
  if (!current) return;
  samples.push({ digit: current.digit, onset: seconds(current.onset - origin), answer: current.answer, time: current.time });
  current = null;
}
function answer(sum, at) {
  if (!current || done) return;
  current.answer = sum;
  current.time = seconds(at - current.onset);
  for (const key of keypad.children) key.setAttribute('aria-pressed', String(Number(key.dataset.sum) === sum));
}
keypad.addEventListener('pointerdown', (event) => {
  const key = event.target.closest('button');
  if (key) { event.preventDefault(); answer(Number(key.dataset.sum), event.timeStamp); }
});
keypad.addEventListener('click', (event) => {
  const key = event.target.closest('button');
  if (key && event.detail === 0) answer(Number(key.dataset.sum), event.timeStamp); // a key pressed from the keyboard
});

function tick(now) {
  if (done) return;
  if (shown > 0 && shown < interval - 50 && now - origin - (presented - 1) * interval >= shown) digitView.textContent = '–';
  if (now - origin >= presented * interval) {
    close();
    for (const key of keypad.children) key.setAttribute('aria-pressed', 'false');
    if (presented > length) { end(true); return; }
    present(presented, now);
    presented += 1;
  }
  requestAnimationFrame(tick);
}
function end(complete) {
  if (done) return;
  done = true;
  if (!complete) current = null;
  finish(s, { initialDigit: digits[0], samples, complete });
}
stop.addEventListener('click', () => end(false));
origin = await onset(() => { present(0, 0); presented = 1; });
requestAnimationFrame(tick);
