// Motion recorders: device motion, the accelerometer and orientation from the browser's events, location from the
// Geolocation API. Each reading is kept with ResearchKit's field names and Core Motion's conventions (accelerations in
// g with gravity pointing down, rotation in radians a second, the attitude as a quaternion), timed by its event's own
// timeStamp on the step's clock (seconds from `origin`, the frame that first showed the step's test).
import { seconds, statusLine, stopBar } from './active.js';

const G = 9.80665;
const RADIANS = Math.PI / 180;

/** Asks for the motion sensors where the browser asks the user (iOS Safari: only from a tap); resolves with
 *  'granted', 'denied' or 'absent'. */
export async function requestMotion() {
  if (typeof DeviceMotionEvent === 'undefined') return 'absent';
  for (const kind of [DeviceMotionEvent, typeof DeviceOrientationEvent === 'undefined' ? null : DeviceOrientationEvent]) {
    if (!kind || typeof kind.requestPermission !== 'function') continue;
    try {
      if (await kind.requestPermission() !== 'granted') return 'denied';
    } catch {
      return 'denied';
    }
  }
  return 'granted';
}

/** Asks for the motion sensors without a tap: resolves as `requestMotion` does, or with null where the browser
 *  refuses to ask but from a tap (iOS Safari; Chromium's `requestPermission` grants at once). */
export async function requestMotionWithoutTap() {
  const access = await requestMotion();
  return access === 'denied' && typeof DeviceMotionEvent.requestPermission === 'function' ? null : access;
}

/** The page of a motion step: the area the participant touches (`extra` elements above its prompt), the bar with its
 *  label and Stop, and the status line below. */
export function motionPage(s, promptText = '', extra = []) {
  const area = document.createElement('div');
  area.className = 'tap-area motion-area';
  const prompt = document.createElement('p');
  prompt.className = 'motion-prompt';
  prompt.textContent = promptText;
  area.append(...extra, prompt);
  const { bar, label, stop } = stopBar(s);
  const status = statusLine();
  s.root.append(bar, area, status);
  return { area, prompt, label, stop, status };
}

/** Asks for the motion sensors and calls `begin` with the answer: at once where the browser asks without a tap, else
 *  from the participant's touch on `area`, whose prompt says to touch. */
export async function askForMotion(s, area, prompt, begin) {
  const access = await requestMotionWithoutTap();
  if (access !== null) { begin(access); return; }
  prompt.textContent = s.texts.touchToStart;
  area.dataset.state = 'ready';
  area.addEventListener('pointerdown', async (event) => {
    event.preventDefault();
    if (area.dataset.state !== 'ready') return;
    area.dataset.state = 'asking';
    begin(await requestMotion());
  });
}

/** The quaternion of DeviceOrientationEvent's angles (degrees, intrinsic Z-X'-Y''), as the W3C's conversion gives it. */
export function quaternion(alpha, beta, gamma) {
  const [c1, s1] = [Math.cos(alpha * RADIANS / 2), Math.sin(alpha * RADIANS / 2)];
  const [c2, s2] = [Math.cos(beta * RADIANS / 2), Math.sin(beta * RADIANS / 2)];
  const [c3, s3] = [Math.cos(gamma * RADIANS / 2), Math.sin(gamma * RADIANS / 2)];
  return { x: round(c1 * s2 * c3 - s1 * c2 * s3), y: round(c1 * c2 * s3 + s1 * s2 * c3), z: round(s1 * c2 * c3 + c1 * s2 * s3), w: round(c1 * c2 * c3 - s1 * s2 * s3) };
}

function round(value, digits = 1e6) { return Math.round(value * digits) / digits; }
function vector(x, y, z) { return { x: round(x), y: round(y), z: round(z) }; }

/** Records the named recorders (accelerometer, deviceMotion, orientation, location) at most `frequency` times a second. */
export class MotionRecorders {
  constructor(names, frequency, origin) {
    this.names = names;
    this.origin = origin;
    this.spacing = 800 / frequency; // milliseconds: a reading sooner than 0.8 of the rate's spacing is not kept
    this.items = Object.fromEntries(names.map((name) => [name, []]));
    this.unavailable = {};
    this.orientation = null;
    this.last = {};
    this.listeners = [];
    this.onKeep = null; // called with (name, item) for each reading kept, in the order they came
  }

  /** Starts listening; `denied` or `absent` records every recorder as unavailable for that reason instead. */
  start(access) {
    if (access === 'granted') this.listenToMotion();
    // Refused or absent motion sensors leave location alone: the browser asks for it apart.
    else for (const name of this.names) if (name !== 'location') this.unavailable[name] = access;
    if (this.names.includes('location')) this.listenToLocation();
  }

  listenToMotion() {
    const listen = (type, handler) => { addEventListener(type, handler); this.listeners.push([type, handler]); };
    listen('deviceorientation', (event) => {
      if (event.beta === null || event.gamma === null) return;
      this.orientation = { alpha: event.alpha ?? 0, beta: event.beta, gamma: event.gamma };
      this.keep('orientation', event.timeStamp, () => ({ alpha: round(this.orientation.alpha, 1e4), beta: round(event.beta, 1e4), gamma: round(event.gamma, 1e4) }));
    });
    listen('devicemotion', (event) => {
      const a = event.acceleration, g = event.accelerationIncludingGravity, r = event.rotationRate;
      if (g && g.x !== null) this.keep('accelerometer', event.timeStamp, () => vector(-g.x / G, -g.y / G, -g.z / G));
      if (!this.orientation || !a || a.x === null || !g || g.x === null || !r || r.alpha === null) return;
      const o = this.orientation;
      this.keep('deviceMotion', event.timeStamp, () => ({
        attitude: quaternion(o.alpha, o.beta, o.gamma),
        // The specification (and every browser) gives the rate about x as alpha, about y as beta, about z as gamma.
        rotationRate: vector(r.alpha * RADIANS, r.beta * RADIANS, r.gamma * RADIANS),
        userAcceleration: vector(-a.x / G, -a.y / G, -a.z / G),
        gravity: vector(-(g.x - a.x) / G, -(g.y - a.y) / G, -(g.z - a.z) / G),
      }));
    });
  }

  listenToLocation() {
    if (!navigator.geolocation) {
      this.unavailable.location = 'absent';
      return;
    }
    this.watch = navigator.geolocation.watchPosition((position) => {
      const c = position.coords;
      this.keep('location', position.timestamp - performance.timeOrigin, () => ({
        coordinate: { latitude: c.latitude, longitude: c.longitude }, altitude: c.altitude, horizontalAccuracy: c.accuracy,
        speed: c.speed, course: Number.isFinite(c.heading) ? c.heading : null,
      }));
    }, (error) => { if (error.code === error.PERMISSION_DENIED) this.unavailable.location = 'denied'; }, { enableHighAccuracy: true });
  }

  keep(name, time, reading) {
    const list = this.items[name];
    if (!list || this.stopped || time < this.origin) return;
    const last = this.last[name];
    if (last !== undefined && time - last < (name === 'location' ? 800 : this.spacing)) return;
    this.last[name] = time;
    const item = { timestamp: seconds(time - this.origin), ...reading() };
    list.push(item);
    if (this.onKeep) this.onKeep(name, item);
  }

  /** Whether any recorder has a reading yet. */
  get hasReadings() { return this.names.some((name) => this.items[name].length > 0); }

  /** Stops listening. */
  stop() {
    this.stopped = true;
    for (const [type, handler] of this.listeners) removeEventListener(type, handler);
    if (this.watch !== undefined) navigator.geolocation.clearWatch(this.watch);
  }

  /** What the step posts as `recorders`: each recorder's items (those stamped by `until`, seconds on the step's clock,
   *  when given: an event stamped after the frame that ended the step may still have come), or why it has none. */
  document(until = Infinity) {
    return Object.fromEntries(this.names.map((name) => [name, this.unavailable[name] ? { unavailable: this.unavailable[name] }
      : { items: this.items[name].filter((item) => item.timestamp <= until) }]));
  }
}
