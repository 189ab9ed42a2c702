// Tapping: two buttons tapped in turn (or one, as fast as possible) for the step's duration from the first tap on a
// button. Every touch is kept, on a button or beside: where it began (CSS pixels in the tapping area), when (seconds
// from the frame that first showed the buttons, from the pointer event's own timeStamp) and how long it lasted.
import { step, format, onset, finish, seconds, px, statusLine, stopBar } from './active.js';

const s = step();
const targets = s.settings.targets === 1 ? 1 : 2;
const area = document.createElement('div');
area.className = 'tap-area';
const left = document.createElement('div');
left.className = 'tap-target';
left.textContent = s.texts.tap;
const right = targets === 2 ? left.cloneNode(true) : null;
if (right) { left.classList.add('left'); right.classList.add('right'); } else { left.classList.add('only'); }
const { bar, label: timeLeft, stop } = stopBar(s);
const status = statusLine();
area.append(...[left, right].filter(Boolean));
s.root.append(bar, area, status);

const samples = [];
const down = new Map();
let origin = 0;
let endAt = null;
let done = false;

function rect(element, box) {
  const r = element.getBoundingClientRect();
  return { x: px(r.left - box.left), y: px(r.top - box.top), width: px(r.width), height: px(r.height) };
}
function inside(r, x, y) { return x >= r.x && x <= r.x + r.width && y >= r.y && y <= r.y + r.height; }

let box, rect1, rect2;
function measureLayout() {
  box = area.getBoundingClientRect();
  rect1 = rect(left, box);
  rect2 = right ? rect(right, box) : null;
}

area.addEventListener('pointerdown', (event) => {
  event.preventDefault();
  if (done || (endAt !== null && event.timeStamp > endAt)) return;
  measureLayout(); // the page may have scrolled since the buttons showed
  const x = px(event.clientX - box.left), y = px(event.clientY - box.top);
  const button = inside(rect1, x, y) ? 'left' : (rect2 && inside(rect2, x, y) ? 'right' : 'none');
  const sample = { timestamp: seconds(event.timeStamp - origin), duration: 0, buttonIdentifier: button, location: { x, y } };
  samples.push(sample);
  down.set(event.pointerId, { sample, at: event.timeStamp });
  area.setPointerCapture?.(event.pointerId);
  if (button !== 'none' && endAt === null) endAt = event.timeStamp + s.duration * 1000;
});
function release(event) {
  const touch = down.get(event.pointerId);
  if (!touch) return;
  down.delete(event.pointerId);
  touch.sample.duration = seconds(Math.max(0, event.timeStamp - touch.at));
}
area.addEventListener('pointerup', release);
area.addEventListener('pointercancel', release);
area.addEventListener('contextmenu', (event) => event.preventDefault());

function end(complete, now) {
  if (done) return;
  done = true;
  for (const touch of down.values()) touch.sample.duration = seconds(Math.max(0, (endAt ?? now) - touch.at));
  const document_ = { stepViewSize: { width: px(box.width), height: px(box.height) }, buttonRect1: rect1, samples, complete };
  if (rect2) document_.buttonRect2 = rect2;
  finish(s, document_);
}
stop.addEventListener('click', () => end(false, performance.now()));

function tick(now) {
  if (done) return;
  if (endAt !== null && now >= endAt) { end(true, now); return; }
  const leftSeconds = endAt === null ? s.duration : Math.max(0, Math.ceil((endAt - now) / 1000));
  const text = format(s.texts.secondsLeft, { seconds: leftSeconds });
  if (timeLeft.textContent !== text) timeLeft.textContent = text;
  requestAnimationFrame(tick);
}
origin = await onset(() => { area.classList.add('shown'); measureLayout(); });
addEventListener('resize', measureLayout);
requestAnimationFrame(tick);
