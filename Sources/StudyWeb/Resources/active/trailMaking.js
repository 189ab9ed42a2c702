// Trail making: thirteen circles tapped in order (part A: 1–13; part B: 1, A, 2, B … 7). As in ResearchKit, each run
// takes one of a few fixed layouts (fractions of the area, in label order), mirrored left to right and top to bottom
// and reversed at random, so that every trail is about as long. These four layouts are StudyKit's own: trails of 3.2 to
// 3.5 area widths that never cross themselves. Every tap on a circle keeps its pointer event's own timeStamp.
import { step, onset, finish, seconds, px, statusLine, stopBar } from './active.js';

const LAYOUTS = [
  [[0.285, 0.717], [0.122, 0.663], [0.182, 0.858], [0.487, 0.803], [0.686, 0.737], [0.85, 0.784], [0.702, 0.541], [0.88, 0.374], [0.917, 0.125], [0.565, 0.124], [0.408, 0.581], [0.234, 0.189], [0.16, 0.429]],
  [[0.188, 0.113], [0.365, 0.265], [0.504, 0.367], [0.407, 0.582], [0.225, 0.394], [0.189, 0.86], [0.607, 0.822], [0.4, 0.867], [0.774, 0.92], [0.734, 0.516], [0.75, 0.317], [0.485, 0.129], [0.651, 0.177]],
  [[0.152, 0.632], [0.307, 0.756], [0.484, 0.735], [0.701, 0.906], [0.915, 0.861], [0.894, 0.486], [0.683, 0.608], [0.481, 0.421], [0.194, 0.418], [0.085, 0.124], [0.29, 0.197], [0.727, 0.304], [0.604, 0.138]],
  [[0.441, 0.395], [0.539, 0.254], [0.431, 0.084], [0.309, 0.255], [0.299, 0.576], [0.171, 0.378], [0.151, 0.867], [0.556, 0.813], [0.602, 0.642], [0.728, 0.321], [0.705, 0.111], [0.919, 0.283], [0.87, 0.587]],
];

const s = step();
const letters = (s.texts.trailLetters || 'A B C D E F').split(' ');
const labels = Array.from({ length: 13 }, (_, i) => (s.settings.trailType === 'B' ? (i % 2 === 0 ? String(i / 2 + 1) : letters[(i - 1) / 2]) : String(i + 1)));
function random(n) { return crypto.getRandomValues(new Uint32Array(1))[0] % n; }
// One choice per run, applied to every circle alike (a choice per circle would scramble the layout).
const [mirrorX, mirrorY, reversed] = [random(2), random(2), random(2)];
const points = LAYOUTS[random(LAYOUTS.length)].map(([x, y]) => [mirrorX ? 1 - x : x, mirrorY ? 1 - y : y]);
if (reversed) points.reverse();

const { bar, label: errors, stop } = stopBar(s);
const area = document.createElement('div');
area.className = 'tap-area trail';
const lines = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
lines.setAttribute('aria-hidden', 'true');
area.append(lines);
const circles = labels.map((label, index) => {
  const circle = document.createElement('div');
  circle.className = 'trail-circle';
  circle.textContent = label;
  circle.style.left = `calc(${points[index][0] * 100}% - 1.4rem)`;
  circle.style.top = `calc(${points[index][1] * 100}% - 1.4rem)`;
  area.append(circle);
  return circle;
});
const status = statusLine();
s.root.append(bar, area, status);

const taps = [];
let next = 0, wrong = 0, origin = 0, box, done = false;
function rect(element) {
  const r = element.getBoundingClientRect();
  return { x: px(r.left - box.left), y: px(r.top - box.top), width: px(r.width), height: px(r.height) };
}
area.addEventListener('pointerdown', (event) => {
  event.preventDefault();
  box = area.getBoundingClientRect(); // the page may have scrolled since the step showed
  const circle = event.target.closest('.trail-circle');
  if (!circle || done) return;
  const index = circles.indexOf(circle);
  taps.push({ timestamp: seconds(event.timeStamp - origin), index, location: { x: px(event.clientX - box.left), y: px(event.clientY - box.top) } });
  for (const c of circles) c.classList.remove('wrong');
  if (index !== next) {
    wrong += 1;
    circle.classList.add('wrong');
    errors.textContent = `✗ ${wrong}`;
    return;
  }
  circle.classList.add('done');
  if (next > 0) {
    const a = rect(circles[next - 1]), b = rect(circle);
    const line = document.createElementNS('http://www.w3.org/2000/svg', 'line');
    line.setAttribute('x1', a.x + a.width / 2); line.setAttribute('y1', a.y + a.height / 2);
    line.setAttribute('x2', b.x + b.width / 2); line.setAttribute('y2', b.y + b.height / 2);
    lines.append(line);
  }
  next += 1;
  if (next === circles.length) end(true);
});
function end(complete) {
  if (done) return;
  done = true;
  finish(s, { stepViewSize: { width: px(box.width), height: px(box.height) }, circleRects: circles.map(rect), taps, complete });
}
stop.addEventListener('click', () => end(false));
origin = await onset(() => { area.classList.add('shown'); box = area.getBoundingClientRect(); });
