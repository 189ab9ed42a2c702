// Reaction time by shaking (ResearchKit's reactionTime): after a random delay a circle shows; the participant shakes
// the phone. Device motion is recorded for the whole step, and every reading kept is judged as it comes, by its own
// timestamp, with the rules the server applies to the same readings: one whose user acceleration is above the
// threshold before the circle's onset (the frame that showed it) is a false start, and the attempt runs again; the
// first within the timeout after the onset is the reaction; none is a timeout.
import { step, format, onset, finish, seconds } from './active.js';
import { MotionRecorders, askForMotion, motionPage } from './motion.js';

const s = step();
const attempts = s.settings.numberOfAttempts || 3;
const minimum = s.settings.minimumStimulusInterval ?? 4, maximum = s.settings.maximumStimulusInterval ?? 10;
const threshold = s.settings.thresholdAcceleration ?? 0.5, timeout = s.settings.timeout ?? 3, pause = s.settings.pause ?? 1;
const maximumFalseStarts = 2 * attempts;
const stimulus = document.createElement('div');
stimulus.className = 'stimulus';
const { area, prompt, label, stop, status } = motionPage(s, '', [stimulus]);

const trials = [];
let trial = null, begun = false, done = false, origin = 0, recorders = null, counted = 0, falseStarts = 0;

function delay() {
  const random = crypto.getRandomValues(new Uint32Array(1))[0] / 2 ** 32;
  return Math.round((minimum + random * (maximum - minimum)) * 1000) / 1000;
}
function showProgress() { label.textContent = format(s.texts.trial, { current: Math.min(counted + 1, attempts), total: attempts }); }

function startTrial(now) {
  if (done) return;
  trial = { start: seconds(now - origin), delay: delay(), stimulusStart: null, end: null };
  area.dataset.state = 'waiting';
  const own = trial;
  requestAnimationFrame((next) => waitForDelay(next, own));
}
// Each frame loop belongs to its trial (`own`) and stops when that trial is no longer the one under way.
function waitForDelay(now, own) {
  if (trial !== own || done) return;
  const time = seconds(now - origin);
  if (time >= own.start + own.delay) {
    stimulus.classList.add('shown');
    own.stimulusStart = time;
    area.dataset.onset = String(now);
    area.dataset.state = 'stimulus';
    requestAnimationFrame((next) => waitForTimeout(next, own));
    return;
  }
  requestAnimationFrame((next) => waitForDelay(next, own));
}
// The timeout is decided by the first reading after it; a device that stops giving readings is timed out by frames.
function waitForTimeout(now, own) {
  if (trial !== own || done) return;
  if (seconds(now - origin) > own.stimulusStart + timeout + 1) { own.end = seconds(now - origin); endTrial('timeout'); return; }
  requestAnimationFrame((next) => waitForTimeout(next, own));
}

function judge(name, item) {
  if (name !== 'deviceMotion' || done) return;
  if (!begun) { begun = true; prompt.textContent = ''; requestAnimationFrame(startTrial); return; }
  const own = trial;
  if (!own || item.timestamp < own.start) return;
  const a = item.userAcceleration;
  const moving = Math.sqrt(a.x * a.x + a.y * a.y + a.z * a.z) > threshold;
  if (own.stimulusStart === null || item.timestamp < own.stimulusStart) {
    if (moving) { own.end = item.timestamp; endTrial('falseStart'); }
  } else if (item.timestamp <= own.stimulusStart + timeout) {
    if (moving) { own.end = item.timestamp; endTrial('reaction'); }
  } else {
    own.end = seconds((own.stimulusStart + timeout) * 1000);
    endTrial('timeout');
  }
}

function endTrial(outcome) {
  const own = trial;
  trial = null;
  trials.push({ start: own.start, delay: own.delay, stimulusStart: own.stimulusStart, end: own.end });
  stimulus.classList.remove('shown');
  if (outcome === 'falseStart') falseStarts += 1; else counted += 1;
  status.textContent = outcome === 'falseStart' ? s.texts.tooEarly : outcome === 'timeout' ? s.texts.tooSlow : '';
  area.dataset.state = outcome;
  area.dataset.trials = String(trials.length);
  if (counted >= attempts || falseStarts >= maximumFalseStarts) { end(true); return; }
  showProgress();
  // The next attempt's delay begins `pause` seconds after this one ended, at a frame.
  const next = (now) => {
    if (done) return;
    if ((now - origin) / 1000 >= own.end + pause) startTrial(now); else requestAnimationFrame(next);
  };
  requestAnimationFrame(next);
}

function end(complete) {
  if (done) return;
  done = true;
  recorders?.stop();
  const document_ = (recorders ?? new MotionRecorders(['deviceMotion'], 60, origin)).document();
  finish(s, { recorders: document_, trials, end: seconds(Math.max(performance.now() - origin, 0)), complete });
}
stop.addEventListener('click', () => end(false));

async function begin(access) {
  recorders = new MotionRecorders(['deviceMotion'], s.settings.frequency || 60, origin);
  recorders.onKeep = judge;
  recorders.start(access);
  if (access !== 'granted') {
    // Nothing is measured: the participant reads why, then moves on with Stop.
    prompt.textContent = access === 'denied' ? s.texts.motionDenied : s.texts.motionAbsent;
    area.dataset.state = 'unavailable';
    return;
  }
  area.dataset.state = 'starting';
  const started = performance.now();
  const watch = (now) => {
    if (done || begun) return;
    if (now - started >= 3000) { status.textContent = s.texts.motionNoReadings; area.dataset.state = 'noReadings'; return; }
    requestAnimationFrame(watch);
  };
  requestAnimationFrame(watch);
}

showProgress();
origin = await onset(() => { area.classList.add('shown'); });
await askForMotion(s, area, prompt, begin);
