// Normalized reaction time: hold the button; after a random delay a circle shows; let go and tap it. Each trial keeps
// when the hold began, the delay, the onset of the circle (the timestamp of the animation frame that showed it), when
// the finger let go and when and where it touched again, each from its pointer event's own timeStamp.
import { step, format, onset, finish, seconds, px, statusLine, stopBar } from './active.js';

const s = step();
const trialCount = s.settings.trials || 5;
const minimumDelay = s.settings.minimumDelay ?? 2, maximumDelay = s.settings.maximumDelay ?? 5, timeout = s.settings.timeout ?? 3;
const area = document.createElement('div');
area.className = 'tap-area';
const hold = document.createElement('div');
hold.className = 'tap-target only hold';
hold.textContent = s.texts.hold;
const stimulus = document.createElement('div');
stimulus.className = 'stimulus';
const { bar, label: progress, stop } = stopBar(s);
const status = statusLine();
area.append(stimulus, hold);
s.root.append(bar, area, status);

const trials = [];
let trial = null;        // the trial under way
let holding = null;      // the pointer holding the button
let done = false;
let origin = 0, box;

function rect(element) {
  const r = element.getBoundingClientRect();
  return { x: px(r.left - box.left), y: px(r.top - box.top), width: px(r.width), height: px(r.height) };
}
function delay() {
  const random = crypto.getRandomValues(new Uint32Array(1))[0] / 2 ** 32;
  return Math.round((minimumDelay + random * (maximumDelay - minimumDelay)) * 1000) / 1000;
}
function showProgress() { progress.textContent = format(s.texts.trial, { current: Math.min(trials.length + 1, trialCount), total: trialCount }); }

function endTrial() {
  trials.push(trial.record);
  trial = null;
  stimulus.classList.remove('shown');
  if (trials.length >= trialCount) { end(true); return; }
  showProgress();
}

area.addEventListener('pointerdown', (event) => {
  event.preventDefault();
  if (done) return;
  box = area.getBoundingClientRect(); // the page may have scrolled since the step showed
  const t = seconds(event.timeStamp - origin);
  if (!trial && hold.contains(event.target)) {
    holding = event.pointerId;
    trial = { interval: delay(), startedAt: event.timeStamp, shownAt: null, releasedAt: null,
              record: { holdStart: t, currentInterval: 0, stimulusStart: null, release: null, reaction: null, location: null } };
    trial.record.currentInterval = trial.interval;
    const started = trial;
    requestAnimationFrame((now) => waitForDelay(now, started));
  } else if (trial && trial.releasedAt !== null && trial.shownAt !== null) {
    trial.record.reaction = t;
    trial.record.location = { x: px(event.clientX - box.left), y: px(event.clientY - box.top) };
    endTrial();
  }
});
function letGo(event) {
  if (!trial || event.pointerId !== holding || trial.releasedAt !== null) return;
  holding = null;
  trial.releasedAt = event.timeStamp;
  trial.record.release = seconds(event.timeStamp - origin);
  if (trial.shownAt === null) endTrial(); // let go before the circle: an anticipation
}
area.addEventListener('pointerup', letGo);
area.addEventListener('pointercancel', letGo);
area.addEventListener('contextmenu', (event) => event.preventDefault());

// Each frame loop belongs to its trial (`own`) and stops when that trial is no longer the one under way: a trial can
// end and the next begin (tap on the circle, press on the button) before the loop's next frame, which must then not
// act on the new trial (it would take its missing onset for time zero and time it out as a let-go at once).
function waitForDelay(now, own) {
  if (trial !== own || done || own.releasedAt !== null) return;
  if (now - own.startedAt >= own.interval * 1000) {
    stimulus.classList.add('shown');
    own.shownAt = now;
    own.record.stimulusStart = seconds(now - origin);
    requestAnimationFrame((next) => waitForReaction(next, own));
    return;
  }
  requestAnimationFrame((next) => waitForDelay(next, own));
}
function waitForReaction(now, own) {
  if (trial !== own || done || own.record.reaction !== null) return;
  if (now - own.shownAt > timeout * 1000) {
    if (own.releasedAt === null) { own.releasedAt = now; own.record.release = seconds(now - origin); }
    endTrial();
    return;
  }
  requestAnimationFrame((next) => waitForReaction(next, own));
}

function end(complete) {
  if (done) return;
  done = true;
  finish(s, { stepViewSize: { width: px(box.width), height: px(box.height) }, buttonRect: rect(hold), stimulusRect: rect(stimulus), trials, complete });
}
stop.addEventListener('click', () => end(false));

showProgress();
origin = await onset(() => { area.classList.add('shown'); box = area.getBoundingClientRect(); });
