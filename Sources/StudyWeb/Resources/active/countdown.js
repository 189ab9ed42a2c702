// The countdown before a measurement: counts down the step's seconds, then moves on by itself.
import { step, format, onset, finish, seconds } from './active.js';

const s = step();
const label = document.createElement('p');
label.className = 'countdown';
label.setAttribute('role', 'timer');
s.root.append(label);
const start = await onset(() => { label.textContent = format(s.texts.startsIn, { seconds: Math.ceil(s.duration) }); });
function tick(now) {
  const left = s.duration - (now - start) / 1000;
  if (left <= 0) {
    finish(s, { elapsed: seconds(now - start), complete: true });
    return;
  }
  label.textContent = format(s.texts.startsIn, { seconds: Math.ceil(left) });
  requestAnimationFrame(tick);
}
requestAnimationFrame(tick);
