// StudyKit active steps: what every task's module shares. The step's element carries its settings and texts; the
// module measures, and `finish` puts its JSON document in the form's hidden field and submits the form.
//
// Timing: a response is timed by its input event's own timeStamp, never by when a handler ran; a stimulus's onset
// is the timestamp of the animation frame whose callback made it visible (the frame that first painted it). Both are
// on the page's performance clock (milliseconds since the page's time origin).

/** The step's element, settings, texts and form. */
export function step() {
  const root = document.querySelector('[data-active]');
  // A swipe during a test (two fingers moving a peg, a finger drawing) must never scroll the page or go back a page.
  document.documentElement.style.overscrollBehavior = 'none';
  const form = root.closest('form');
  return {
    root,
    form,
    duration: parseFloat(root.dataset.duration || '0'),
    settings: JSON.parse(root.dataset.settings || '{}'),
    texts: JSON.parse(root.dataset.texts || '{}'),
  };
}

/** A `<button type=button>` with `text` and the class `className`. */
export function button(text, className) {
  const element = document.createElement('button');
  element.type = 'button';
  element.className = className;
  element.textContent = text;
  return element;
}

/** The bar above a test: a label (time left, progress, errors) and its Stop button. */
export function stopBar(s) {
  const bar = document.createElement('div');
  bar.className = 'tap-bar';
  const label = document.createElement('span');
  const stop = button(s.texts.stop, 'small');
  bar.append(label, stop);
  return { bar, label, stop };
}

/** The live status line under a test, which `finish` fills with "Sending…". */
export function statusLine() {
  const status = document.createElement('p');
  status.setAttribute('data-status', '');
  status.setAttribute('role', 'status');
  return status;
}

/** `text` with each {name} replaced by values[name]. */
export function format(text, values) {
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in values ? String(values[name]) : whole));
}

/** Runs `show` in the next animation frame and resolves with that frame's timestamp: the onset of what it showed. */
export function onset(show) {
  return new Promise((resolve) => requestAnimationFrame((time) => { show(); resolve(time); }));
}

/** Seconds, rounded to the microsecond. */
export function seconds(milliseconds) {
  return Math.round(milliseconds * 1000) / 1e6;
}

/** A number rounded to 1/1000 of a pixel. */
export function px(value) {
  return Math.round(value * 1000) / 1000;
}

/** Puts `document` in the step's hidden field and submits the form as Next. */
export function finish(s, document_) {
  const field = s.form.querySelector('input[name="samples"]');
  field.value = JSON.stringify(document_);
  const status = s.root.querySelector('[data-status]');
  if (status) status.textContent = s.texts.sending || '';
  s.form.requestSubmit(s.form.querySelector('button[data-active-next]'));
}
