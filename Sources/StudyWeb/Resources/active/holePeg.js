// Hole peg: a peg picked up with two fingers, as it would be pinched (or dragged with a mouse on a computer), and
// moved into the hole (place) or out past the line (remove), once per peg. Each attempt keeps when the peg was picked
// up and let go, from the pointer events' own timeStamps, and where its centre was then.
import { step, format, onset, finish, seconds, px, statusLine, stopBar } from './active.js';

const s = step();
const place = s.settings.action !== 'remove';
const fromLeft = s.settings.direction !== 'left';
const pegs = s.settings.numberOfPegs || 9;
const threshold = s.settings.threshold || 0.2;
const limit = (s.duration || 300) * 1000;
const { bar, label: count, stop } = stopBar(s);
const area = document.createElement('div');
area.className = 'tap-area pegs';
const peg = document.createElement('div');
peg.className = 'peg';
const target = document.createElement('div');
target.className = place ? 'hole' : 'peg-line';
area.append(target, peg);
const status = statusLine();
s.root.append(bar, area, status);

const attempts = [];
const pointers = new Map();
let box, size, home, centre, hold = null, first = null, origin = 0, done = false, successes = 0;
function layout() {
  box = area.getBoundingClientRect();
  size = peg.getBoundingClientRect().width;
  home = { x: fromLeft ? size * 0.75 : box.width - size * 0.75, y: box.height / 2 };
  if (!hold) centre = { ...home };
  draw();
}
function draw() {
  peg.style.transform = `translate(${centre.x - size / 2}px, ${centre.y - size / 2}px)`;
  count.textContent = format(s.texts.pegs, { done: successes, total: pegs });
}
function targetGeometry() {
  const r = target.getBoundingClientRect();
  return place ? { x: px(r.left - box.left), y: px(r.top - box.top), width: px(r.width), height: px(r.height) }
               : px(r.left - box.left + r.width / 2);
}
function succeeds(point) {
  const t = targetGeometry();
  if (place) {
    const half = (threshold * size) / 2;
    return Math.abs(point.x - (t.x + t.width / 2)) <= half && Math.abs(point.y - (t.y + t.height / 2)) <= half;
  }
  return fromLeft ? point.x - size / 2 > t : point.x + size / 2 < t;
}
function local(event) {
  box = area.getBoundingClientRect(); // the page may have scrolled since the step showed
  return { x: event.clientX - box.left, y: event.clientY - box.top };
}
function midpoint() {
  const points = [...pointers.values()];
  return { x: (points[0].x + points[1].x) / 2, y: (points[0].y + points[1].y) / 2 };
}

area.addEventListener('pointerdown', (event) => {
  event.preventDefault();
  if (done) return;
  pointers.set(event.pointerId, local(event));
  area.setPointerCapture?.(event.pointerId);
  if (hold) return;
  const mouse = event.pointerType === 'mouse';
  if (!mouse && pointers.size !== 2) return;
  const grip = mouse ? local(event) : midpoint();
  if (!mouse) {
    const [a, b] = [...pointers.values()];
    if (Math.hypot(a.x - b.x, a.y - b.y) > 3 * size) return;
  }
  if (Math.hypot(grip.x - centre.x, grip.y - centre.y) > size / 2) return;
  if (first === null) first = event.timeStamp;
  hold = { at: event.timeStamp, grip, from: { ...centre }, mouse };
});
area.addEventListener('pointermove', (event) => {
  if (!pointers.has(event.pointerId)) return;
  pointers.set(event.pointerId, local(event));
  if (!hold || (!hold.mouse && pointers.size < 2)) return;
  const grip = hold.mouse ? local(event) : midpoint();
  // The peg stays on the board, as a real one would.
  const clamp = (value, high) => Math.min(Math.max(value, size / 2), high - size / 2);
  centre = { x: clamp(hold.from.x + grip.x - hold.grip.x, box.width), y: clamp(hold.from.y + grip.y - hold.grip.y, box.height) };
  draw();
});
function lift(event) {
  if (!pointers.delete(event.pointerId) || !hold) return;
  const to = { x: px(centre.x), y: px(centre.y) };
  attempts.push({ start: seconds(hold.at - origin), end: seconds(event.timeStamp - origin), from: { x: px(hold.from.x), y: px(hold.from.y) }, to });
  hold = null;
  if (succeeds(to)) successes += 1;
  centre = { ...home };
  draw();
  if (successes >= pegs) end(true, false);
}
area.addEventListener('pointerup', lift);
area.addEventListener('pointercancel', lift);
area.addEventListener('contextmenu', (event) => event.preventDefault());

function end(complete, timedOut) {
  if (done) return;
  done = true;
  const document_ = { stepViewSize: { width: px(box.width), height: px(box.height) }, pegSize: px(size), attempts, timedOut, complete };
  document_[place ? 'holeRect' : 'lineX'] = targetGeometry();
  finish(s, document_);
}
stop.addEventListener('click', () => end(false, false));
function tick(now) {
  if (done) return;
  if (first !== null && now - first >= limit) { end(true, true); return; }
  requestAnimationFrame(tick);
}
addEventListener('resize', layout);
origin = await onset(() => { area.classList.add('shown', fromLeft ? 'from-left' : 'from-right'); layout(); });
requestAnimationFrame(tick);
