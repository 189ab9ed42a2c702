// Range of motion: the phone is held on the shin or the upper arm. The first touch asks for the motion sensors (iOS
// asks only from a tap) and starts recording device motion; the participant moves the joint as far as it goes and
// back; the second touch finishes. The server computes the angles from the recorded attitudes.
import { step, onset, finish, seconds } from './active.js';
import { MotionRecorders, motionPage, requestMotion } from './motion.js';

const s = step();
const { area, prompt, label, stop, status } = motionPage(s, s.texts.touchToStart);

let origin = 0, recorders = null, startTouch = null, done = false, waitingForAccess = false;
const landscape = () => (screen.orientation?.type || '').startsWith('landscape');

function end(finishTouch) {
  if (done) return;
  done = true;
  recorders?.stop();
  const complete = finishTouch !== null && recorders !== null && !Object.keys(recorders.unavailable).length;
  finish(s, {
    recorders: (recorders ?? new MotionRecorders(names(), 60, origin)).document(),
    startTouch, finishTouch, landscape: landscape(), complete,
  });
}
function names() { return (s.settings.recorders || 'deviceMotion').split(','); }

area.addEventListener('pointerdown', async (event) => {
  event.preventDefault();
  if (done || waitingForAccess) return;
  const time = event.timeStamp;
  if (startTouch === null) {
    waitingForAccess = true;
    const access = await requestMotion();
    waitingForAccess = false;
    recorders = new MotionRecorders(names(), s.settings.frequency || 60, origin);
    recorders.start(access);
    if (access !== 'granted') {
      // Nothing is measured: the participant reads why, then moves on with Stop.
      prompt.textContent = access === 'denied' ? s.texts.motionDenied : s.texts.motionAbsent;
      area.dataset.state = 'unavailable';
      return;
    }
    startTouch = seconds(time - origin);
    prompt.textContent = s.texts.touchToFinish;
    area.dataset.state = 'recording';
    // A device that gives no readings at all is said so while the participant can still read it.
    setTimeout(() => { if (!done && !recorders.hasReadings) status.textContent = s.texts.motionNoReadings; }, 3000);
  } else if (recorders && !Object.keys(recorders.unavailable).length) {
    end(seconds(time - origin));
  }
});
area.addEventListener('contextmenu', (event) => event.preventDefault());
stop.addEventListener('click', () => end(null));
label.textContent = '';

origin = await onset(() => { area.classList.add('shown'); });
area.dataset.state = 'ready';
