// Tremor: the participant holds the phone in one pose for the step's seconds while the accelerometer and device motion
// are recorded from the first frame of the recording (where the browser asks for the sensors only from a tap, from
// the frame after that tap). The server reads the tremor's frequency and amplitude from the readings.
import { step, format, onset, finish, seconds } from './active.js';
import { MotionRecorders, askForMotion, motionPage } from './motion.js';

const s = step();
const duration = s.duration || 10;
const frequency = s.settings.frequency || 60;
const names = (s.settings.recorders || 'accelerometer,deviceMotion').split(',');
const { area, prompt, label, stop, status } = motionPage(s);

let origin = 0, recorders = null, recording = false, done = false;

function end(complete, at) {
  if (done) return;
  done = true;
  recorders?.stop();
  const elapsed = seconds(recording ? Math.min(Math.max(at - origin, 0), (duration + 1) * 1000) : 0);
  finish(s, { recorders: (recorders ?? new MotionRecorders(names, frequency, origin)).document(elapsed), end: elapsed, complete });
}

function tick(now) {
  if (done) return;
  const elapsed = (now - origin) / 1000;
  if (elapsed >= duration) { end(true, now); return; }
  label.textContent = format(s.texts.secondsLeft, { seconds: Math.ceil(duration - elapsed) });
  // A device that gives no readings at all is said so while the participant can still read it.
  if (elapsed >= 3 && !recorders.hasReadings) status.textContent = s.texts.motionNoReadings;
  requestAnimationFrame(tick);
}

async function begin(access) {
  if (access !== 'granted') {
    // Nothing is measured: the participant reads why, then moves on with Stop.
    recorders = new MotionRecorders(names, frequency, origin);
    recorders.start(access);
    prompt.textContent = access === 'denied' ? s.texts.motionDenied : s.texts.motionAbsent;
    area.dataset.state = 'unavailable';
    return;
  }
  origin = await onset(() => { prompt.textContent = ''; area.dataset.state = 'recording'; });
  recorders = new MotionRecorders(names, frequency, origin);
  recorders.start(access);
  recording = true;
  requestAnimationFrame(tick);
}

stop.addEventListener('click', (event) => end(false, event.timeStamp));
await onset(() => { area.classList.add('shown'); });
await askForMotion(s, area, prompt, begin);
