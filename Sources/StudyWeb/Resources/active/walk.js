// Walking: a leg of a walk, a rest, a timed walk or a turn. A touch asks for the motion sensors (iOS asks only from a
// tap) and starts the recorders; a walk or a rest ends by itself after the step's duration, a timed walk or a turn at
// the participant's next touch (or, incomplete, when its time limit runs out). The server counts the steps, the
// cadence and the distance from the recorded readings; a sensor that is refused or absent is said on the page and
// recorded as unavailable, and the walk is still timed.
import { step, format, onset, finish, seconds } from './active.js';
import { MotionRecorders, motionPage, requestMotion } from './motion.js';

const s = step();
const phase = s.settings.phase || 'walk';
const touchEnds = phase === 'timed' || phase === 'turnAround';
const { area, prompt, label, stop, status } = motionPage(s, s.texts.touchToStart);

const names = (s.settings.recorders || 'accelerometer,deviceMotion').split(',');
let origin = 0, recorders = null, startAt = null, done = false, waiting = false;

function end(endAt, complete) {
  if (done) return;
  done = true;
  recorders?.stop();
  navigator.vibrate?.(200);
  finish(s, {
    recorders: (recorders ?? new MotionRecorders(names, s.settings.frequency || 60, origin)).document(),
    start: startAt === null ? null : seconds(startAt - origin),
    end: startAt === null || endAt === null ? null : seconds(endAt - origin),
    complete,
  });
}

function tick(now) {
  if (done) return;
  const limit = startAt + s.duration * 1000;
  if (now >= limit) { end(limit, !touchEnds); return; }
  const text = format(s.texts.secondsLeft, { seconds: Math.max(0, Math.ceil((limit - now) / 1000)) });
  if (label.textContent !== text) label.textContent = text;
  requestAnimationFrame(tick);
}

area.addEventListener('pointerdown', async (event) => {
  event.preventDefault();
  if (done || waiting) return;
  const time = event.timeStamp;
  if (startAt !== null) {
    if (touchEnds) end(Math.min(time, startAt + s.duration * 1000), time <= startAt + s.duration * 1000);
    return;
  }
  waiting = true;
  const access = await requestMotion();
  waiting = false;
  recorders = new MotionRecorders(names, s.settings.frequency || 60, origin);
  recorders.start(access);
  startAt = time;
  area.dataset.state = access === 'granted' ? 'recording' : 'unavailable';
  prompt.textContent = touchEnds ? s.texts.touchWhenDone : s.texts.walkUnderway;
  if (access !== 'granted') {
    // Nothing is measured but the time: the participant reads why.
    status.textContent = access === 'denied' ? s.texts.motionDenied : s.texts.motionAbsent;
  } else {
    // A device that gives no readings at all is said so while the participant can still read it.
    setTimeout(() => { if (!done && !recorders.hasReadings) status.textContent = s.texts.motionNoReadings; }, 3000);
  }
  requestAnimationFrame(tick);
});
area.addEventListener('contextmenu', (event) => event.preventDefault());
stop.addEventListener('click', () => end(startAt === null ? null : performance.now(), false));
label.textContent = format(s.texts.secondsLeft, { seconds: s.duration });

origin = await onset(() => { area.classList.add('shown'); });
area.dataset.state = 'ready';
