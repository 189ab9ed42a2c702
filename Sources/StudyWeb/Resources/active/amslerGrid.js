// Amsler grid: a square grid with a dot in the middle. Looking at the dot with one eye, the participant marks where
// lines look wavy, blurred or missing, with a finger, a pen or the mouse, then presses Done (with no marks: nothing
// seen). Every point of a mark keeps its place on the grid and its pointer event's own timeStamp.
import { step, onset, finish, seconds, px, button, statusLine } from './active.js';

const s = step();
const canvas = document.createElement('canvas');
canvas.className = 'amsler';
canvas.setAttribute('role', 'img');
canvas.setAttribute('aria-label', s.texts.amsler);
const bar = document.createElement('div');
bar.className = 'tap-bar';
const clear = button(s.texts.clear, 'small');
const done = button(s.texts.done, 'primary');
bar.append(clear, done);
const status = statusLine();
s.root.append(canvas, bar, status);

const paths = [];
let current = null, origin = 0, side = 0, finished = false;
const context = canvas.getContext('2d');
function draw() {
  const scale = devicePixelRatio || 1;
  canvas.width = side * scale;
  canvas.height = side * scale;
  context.setTransform(scale, 0, 0, scale, 0, 0);
  context.fillStyle = '#fff';
  context.fillRect(0, 0, side, side);
  context.strokeStyle = '#000';
  context.lineWidth = 1;
  for (let i = 0; i <= 10; i++) {
    const at = Math.round((i * side) / 10) + 0.5;
    context.beginPath(); context.moveTo(at, 0); context.lineTo(at, side); context.stroke();
    context.beginPath(); context.moveTo(0, at); context.lineTo(side, at); context.stroke();
  }
  context.fillStyle = '#000';
  context.beginPath(); context.arc(side / 2, side / 2, side / 75, 0, 2 * Math.PI); context.fill();
  context.strokeStyle = 'rgba(200, 40, 40, 0.6)';
  context.lineWidth = side / 25;
  context.lineCap = 'round';
  context.lineJoin = 'round';
  for (const path of paths) {
    context.beginPath();
    path.forEach((p, i) => (i ? context.lineTo(p.x, p.y) : context.moveTo(p.x, p.y)));
    if (path.length === 1) context.lineTo(path[0].x + 0.1, path[0].y);
    context.stroke();
  }
}
function point(event) {
  const r = canvas.getBoundingClientRect();
  return { x: px(Math.min(Math.max(event.clientX - r.left, 0), side)), y: px(Math.min(Math.max(event.clientY - r.top, 0), side)), t: seconds(event.timeStamp - origin) };
}
canvas.addEventListener('pointerdown', (event) => {
  if (finished) return;
  event.preventDefault();
  canvas.setPointerCapture(event.pointerId);
  current = [point(event)];
  paths.push(current);
  draw();
});
canvas.addEventListener('pointermove', (event) => {
  if (!current) return;
  for (const e of event.getCoalescedEvents ? event.getCoalescedEvents() : [event]) current.push(point(e));
  draw();
});
function up() { current = null; }
canvas.addEventListener('pointerup', up);
canvas.addEventListener('pointercancel', up);
clear.addEventListener('click', () => { paths.length = 0; draw(); });
done.addEventListener('click', () => {
  if (finished) return;
  finished = true;
  finish(s, { gridSize: side, paths, complete: true });
});
side = Math.floor(Math.min(s.root.clientWidth, innerHeight * 0.7));
canvas.style.width = canvas.style.height = `${side}px`;
origin = await onset(draw);
