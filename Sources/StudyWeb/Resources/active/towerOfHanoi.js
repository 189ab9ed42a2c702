// Tower of Hanoi: every disk starts on the first tower; tap a tower to pick up its top disk and another to put it
// down. Only legal moves are made and kept, each with its event's own timeStamp, counted from the first move as
// ResearchKit counts them. The towers are buttons, so the puzzle works by keyboard as well as by touch.
import { step, format, onset, finish, seconds, statusLine, stopBar } from './active.js';

const s = step();
const disks = s.settings.numberOfDisks || 3;
const { bar, label: count, stop } = stopBar(s);
const board = document.createElement('div');
board.className = 'hanoi';
const towers = [[], [], []];
for (let size = disks; size >= 1; size--) towers[0].push(size);
const buttons = towers.map((_, index) => {
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'hanoi-tower' + (index === 2 ? ' target' : '');
  board.append(button);
  return button;
});
const status = statusLine();
s.root.append(bar, board, status);

const moves = [];
let selected = null, first = null, origin = 0, done = false;
function draw() {
  towers.forEach((tower, index) => {
    const button = buttons[index];
    button.replaceChildren(...tower.map((size) => {
      const disk = document.createElement('span');
      disk.className = 'hanoi-disk';
      disk.style.width = `${30 + (70 * size) / disks}%`;
      return disk;
    }));
    button.setAttribute('aria-label', format(s.texts.tower, { number: index + 1, disks: tower.length }));
    button.setAttribute('aria-pressed', String(selected === index));
  });
  count.textContent = format(s.texts.moves, { count: moves.length });
}
board.addEventListener('click', (event) => {
  const button = event.target.closest('.hanoi-tower');
  if (!button || done) return;
  const index = buttons.indexOf(button);
  if (selected === null) {
    if (towers[index].length) selected = index;
  } else if (selected === index) {
    selected = null;
  } else {
    const disk = towers[selected][towers[selected].length - 1];
    const top = towers[index][towers[index].length - 1];
    if (top === undefined || top > disk) {
      if (first === null) first = event.timeStamp;
      towers[index].push(towers[selected].pop());
      moves.push({ timestamp: seconds(event.timeStamp - first), donorTowerIndex: selected, recipientTowerIndex: index });
      selected = null;
      if (towers[2].length === disks) { draw(); end(true); return; }
    }
  }
  draw();
});
function end(complete) {
  if (done) return;
  done = true;
  finish(s, { firstMoveTime: first === null ? null : seconds(first - origin), moves, complete });
}
stop.addEventListener('click', () => end(false));
draw();
origin = await onset(() => board.classList.add('shown'));
