// Spatial span memory (Corsi): nine squares; some light up one at a time, then the participant taps them in the same
// order (or reversed). The span grows after a success and shrinks after a failure; the test ends after its games or
// after too many failures in a row. Every touch keeps its pointer event's own timeStamp, its square and its place.
import { step, format, onset, finish, seconds, px, statusLine, stopBar } from './active.js';

const s = step();
const rules = { initialSpan: 3, minimumSpan: 2, maximumSpan: 9, playSpeed: 1, maximumTests: 12, maximumConsecutiveFailures: 3,
                requireReversal: false, ...s.settings };
const { bar, label: progress, stop } = stopBar(s);
const board = document.createElement('div');
board.className = 'span-board';
const squares = [];
for (let index = 0; index < 9; index++) {
  const square = document.createElement('div');
  square.className = 'span-target';
  board.append(square);
  squares.push(square);
}
const status = statusLine();
s.root.append(bar, board, status);

const games = [];
let span = rules.initialSpan, failuresInARow = 0, origin = 0, box, game = null, done = false;
const wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
function random(n) { return crypto.getRandomValues(new Uint32Array(1))[0] % n; }
function rect(element) {
  const r = element.getBoundingClientRect();
  return { x: px(r.left - box.left), y: px(r.top - box.top), width: px(r.width), height: px(r.height) };
}
function inside(r, x, y) { return x >= r.x && x <= r.x + r.width && y >= r.y && y <= r.y + r.height; }

async function play() {
  if (done) return;
  if (games.length >= rules.maximumTests || failuresInARow >= rules.maximumConsecutiveFailures) { end(true); return; }
  const sequence = [];
  while (sequence.length < span) { const target = random(9); if (!sequence.includes(target)) sequence.push(target); }
  progress.textContent = format(s.texts.trial, { current: games.length + 1, total: rules.maximumTests });
  status.textContent = s.texts.watch;
  board.classList.remove('input');
  await wait(600);
  for (const target of sequence) {
    squares[target].classList.add('lit');
    await wait(rules.playSpeed * 800);
    squares[target].classList.remove('lit');
    await wait(rules.playSpeed * 200);
  }
  if (done) return;
  game = { sequence, touchSamples: [] };
  board.classList.add('input');
  status.textContent = s.texts.yourTurn;
}

board.addEventListener('pointerdown', (event) => {
  event.preventDefault();
  box = board.getBoundingClientRect(); // the page may have scrolled since the step showed
  if (!game || done) return;
  const x = px(event.clientX - box.left), y = px(event.clientY - box.top);
  const rects = squares.map(rect);
  const targetIndex = rects.findIndex((r) => inside(r, x, y));
  game.touchSamples.push({ timestamp: seconds(event.timeStamp - origin), targetIndex, location: { x, y } });
  const expected = rules.requireReversal ? [...game.sequence].reverse() : game.sequence;
  const position = game.touchSamples.length - 1;
  if (targetIndex !== expected[position] || game.touchSamples.length === expected.length) {
    const won = targetIndex === expected[position];
    games.push(game);
    game = null;
    if (won) { span = Math.min(span + 1, rules.maximumSpan); failuresInARow = 0; } else { span = Math.max(span - 1, rules.minimumSpan); failuresInARow += 1; }
    play();
  }
});

function end(complete) {
  if (done) return;
  done = true;
  if (!complete && game) games.push(game);
  finish(s, { stepViewSize: { width: px(box.width), height: px(box.height) }, targetRects: squares.map(rect), gameRecords: games, complete });
}
stop.addEventListener('click', () => end(false));
origin = await onset(() => { box = board.getBoundingClientRect(); });
play();
