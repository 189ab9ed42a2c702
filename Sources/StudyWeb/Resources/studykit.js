// StudyKit participant pages: progressive enhancement only. Every page works without this script, except
// drawing a signature. No dependencies.
(function () {
  'use strict';
  var doc = document;
  function all(selector, root) { return Array.prototype.slice.call((root || doc).querySelectorAll(selector)); }

  // Signature pad: pointer events (mouse, touch, pen); strokes of {x, y, t}, t in ms since the first touch.
  all('[data-pad]').forEach(function (pad) {
    var canvas = pad.querySelector('canvas'), field = pad.querySelector('input[type=hidden]');
    var context = canvas.getContext('2d'), strokes = [], current = null, start = null, width = 0, height = 0;
    pad.hidden = false;
    function size() {
      var box = canvas.getBoundingClientRect(), ratio = window.devicePixelRatio || 1;
      width = box.width; height = box.height;
      canvas.width = Math.round(width * ratio); canvas.height = Math.round(height * ratio);
      context.setTransform(ratio, 0, 0, ratio, 0, 0);
      context.lineWidth = 2; context.lineCap = 'round'; context.lineJoin = 'round'; context.strokeStyle = '#1b1f23';
      draw();
    }
    function draw() {
      context.clearRect(0, 0, width, height);
      strokes.forEach(function (stroke) {
        context.beginPath();
        stroke.forEach(function (p, i) { if (i) context.lineTo(p.x, p.y); else context.moveTo(p.x, p.y); });
        if (stroke.length === 1) context.lineTo(stroke[0].x + 0.1, stroke[0].y);
        context.stroke();
      });
    }
    function save() {
      field.value = strokes.length ? JSON.stringify({ width: Math.round(width * 100) / 100, height: Math.round(height * 100) / 100, strokes: strokes }) : '';
    }
    function point(event) {
      var box = canvas.getBoundingClientRect(), now = event.timeStamp || performance.now();
      if (start === null) start = now;
      var round = function (v, limit) { return Math.round(Math.min(Math.max(v, 0), limit) * 100) / 100; };
      return { x: round(event.clientX - box.left, width), y: round(event.clientY - box.top, height), t: Math.max(0, Math.round(now - start)) };
    }
    canvas.addEventListener('pointerdown', function (event) {
      event.preventDefault();
      if (canvas.setPointerCapture) canvas.setPointerCapture(event.pointerId);
      current = [point(event)]; strokes.push(current); draw();
    });
    canvas.addEventListener('pointermove', function (event) {
      if (!current) return;
      var events = event.getCoalescedEvents ? event.getCoalescedEvents() : [event];
      (events.length ? events : [event]).forEach(function (e) { current.push(point(e)); });
      draw();
    });
    function end() { if (current) { current = null; save(); } }
    canvas.addEventListener('pointerup', end);
    canvas.addEventListener('pointercancel', end);
    pad.querySelector('[data-clear]').addEventListener('click', function () { strokes = []; start = null; save(); draw(); });
    window.addEventListener('resize', size);
    size();
  });

  // Exclusive choices clear the others; another choice clears the exclusive ones. Typing an "other" text picks its choice.
  doc.addEventListener('change', function (event) {
    var input = event.target;
    if (input.type === 'checkbox' && input.checked && input.name && !input.hasAttribute('data-dk')) {
      all('input[type=checkbox][name="' + input.name + '"]').forEach(function (other) {
        if (other !== input && (input.hasAttribute('data-exclusive') || other.hasAttribute('data-exclusive'))) other.checked = false;
      });
    }
    var dk = input.getAttribute('data-dk');
    if (dk && input.checked) {
      all('[name="' + dk + '"], [name^="' + dk + '-"]').forEach(function (field) {
        if (field === input) return;
        if (field.type === 'radio' || field.type === 'checkbox') field.checked = false; else field.value = '';
      });
    } else if (input.name && !dk) {
      var box = doc.querySelector('[data-dk="' + input.name.split('-')[0] + '"]');
      if (box && (input.value || input.checked)) box.checked = false;
    }
  });
  doc.addEventListener('input', function (event) {
    var input = event.target, choice = input.getAttribute('data-for') && doc.getElementById(input.getAttribute('data-for'));
    if (input.classList.contains('other') && choice && input.value) { choice.checked = true; }
    if (input.type === 'range') {
      var number = doc.getElementById(input.getAttribute('data-for'));
      number.value = input.value; readout(number);
    } else if (input.type === 'number') { syncRange(input); }
  });

  // Continuous scales: the number field gets a slider with a readout.
  function readout(number) {
    var output = doc.querySelector('output[data-for="' + number.id + '"]');
    var unit = number.parentNode.querySelector('span[aria-hidden]');
    if (output) output.textContent = number.value === '' ? '–' : number.value + (unit ? ' ' + unit.textContent : '');
  }
  function syncRange(number) {
    var range = doc.querySelector('input[type=range][data-for="' + number.id + '"]');
    if (range && number.value !== '') range.value = number.value;
    readout(number);
  }
  all('input[type=range][data-for]').forEach(function (range) {
    range.parentNode.hidden = false;
    syncRange(doc.getElementById(range.getAttribute('data-for')));
  });

  // Live validation: the server's rules where they are cheap. It shows messages; it never blocks a post.
  function check(input) {
    var message = '';
    if (input.validity && !input.validity.valid) message = input.validationMessage;
    var pattern = input.getAttribute('data-pattern');
    if (!message && pattern && input.value) {
      try { if (!new RegExp('^(?:' + pattern + ')$', 'u').test(input.value)) message = input.getAttribute('data-pattern-message') || ''; } catch (e) { message = ''; }
    }
    var question = input.name.split('-')[0], error = doc.getElementById(question + '-err');
    if (!error || error.getAttribute('data-server')) return;
    error.textContent = message; error.hidden = !message;
    if (message) input.setAttribute('aria-invalid', 'true'); else input.removeAttribute('aria-invalid');
  }
  all('.err:not([hidden])').forEach(function (error) { error.setAttribute('data-server', '1'); });
  // Pressing a button moves the focus out of the field before the click lands: a message shown or hidden then
  // would move the button from under the pointer and swallow the click. The post's own checks answer instead.
  var pressing = false;
  doc.addEventListener('pointerdown', function (event) { pressing = !!(event.target.closest && event.target.closest('button')); }, true);
  doc.addEventListener('click', function () { pressing = false; }, true);
  doc.addEventListener('keydown', function () { pressing = false; }, true);
  doc.addEventListener('focusout', function (event) {
    var input = event.target;
    if (!pressing && input.matches && input.matches('input[type=number], input[type=text], input[type=email], textarea')) check(input);
  });

  // "Use my location" fills in the coordinates from the browser, when the participant allows it.
  all('[data-locate]').forEach(function (button) {
    if (!navigator.geolocation) return;
    button.hidden = false;
    button.addEventListener('click', function () {
      navigator.geolocation.getCurrentPosition(function (position) {
        var id = button.getAttribute('data-locate');
        doc.getElementById(id + '-lat').value = position.coords.latitude.toFixed(5);
        doc.getElementById(id + '-lon').value = position.coords.longitude.toFixed(5);
      });
    });
  });

  // A wait step with a duration moves on by itself.
  all('[data-wait]').forEach(function (wait) {
    var seconds = parseFloat(wait.getAttribute('data-wait'));
    var next = doc.querySelector('button.primary');
    if (seconds > 0 && next) setTimeout(function () { next.click(); }, seconds * 1000);
  });

  // Joining: preselect the browser's own time zone when the list has it.
  all('select[data-zone]').forEach(function (select) {
    var zone;
    try { zone = Intl.DateTimeFormat().resolvedOptions().timeZone; } catch (e) { return; }
    all('option', select).forEach(function (option) { if (option.value === zone) select.value = zone; });
  });

  // Live pages (the daily page): when the participant's data changes anywhere (another tab, another device), the
  // server says so on /events and the page's content is fetched afresh and put in place, keeping the focus on the
  // same control. A number being typed is not lost: the page waits until the field is left.
  var live = doc.querySelector('[data-live]');
  if (live && window.EventSource && window.fetch && window.DOMParser) {
    var busy = false, pending = false;
    var keyOf = function (element) {
      var form = element.closest('form');
      return form ? 'form[action="' + form.getAttribute('action') + '"] button' : element.getAttribute('href') ? 'a[href="' + element.getAttribute('href') + '"]' : null;
    };
    var refresh = function () {
      var active = doc.activeElement;
      if (busy || (active && active.type === 'number' && active.value)) {
        pending = true;
        if (!busy) active.addEventListener('blur', refresh, {once: true});
        return;
      }
      busy = true; pending = false;
      fetch(location.href, {credentials: 'same-origin'}).then(function (response) {
        return response.ok ? response.text() : null;
      }).then(function (html) {
        var fresh = html && new DOMParser().parseFromString(html, 'text/html').querySelector('[data-live]');
        if (!fresh) return;
        var focus = active && live.contains(active) ? keyOf(active) : null;
        live.innerHTML = fresh.innerHTML;
        var again = focus && live.querySelector(focus);
        if (again) again.focus();
        live.setAttribute('data-updated', String(Date.now()));
      }).catch(function () {}).then(function () {
        busy = false;
        if (pending) refresh();
      });
    };
    var source = new EventSource('/events');
    source.addEventListener('changed', refresh);
    source.addEventListener('open', function () { doc.documentElement.setAttribute('data-events', 'open'); });
  }

  // Motion sensors, on a permissions step: "Allow" asks the browser, on the participant's press (iOS Safari asks the
  // participant, and only from a tap); what it answers is posted, and a browser without motion sensors posts "Don't
  // allow". Registered before the notifications' handlers, which run on the press that follows.
  var allowMotion = doc.querySelector('input[data-permission=motion][value=granted]');
  if (allowMotion) {
    var motionForm = allowMotion.form, motionAnswered = false;
    var askMotion = function () {
      if (typeof DeviceMotionEvent === 'undefined') return Promise.resolve('denied');
      if (typeof DeviceMotionEvent.requestPermission === 'function') {
        return DeviceMotionEvent.requestPermission().then(function (answer) { return answer; }, function () { return 'denied'; });
      }
      if (!navigator.permissions || !navigator.permissions.query) return Promise.resolve('granted');
      return Promise.all(['accelerometer', 'gyroscope'].map(function (name) {
        return navigator.permissions.query({name: name}).then(function (status) { return status.state; }, function () { return 'granted'; });
      })).then(function (states) { return states.indexOf('denied') >= 0 ? 'denied' : 'granted'; });
    };
    motionForm.addEventListener('submit', function (event) {
      var button = event.submitter || motionForm.querySelector('button.primary');
      if (motionAnswered || !allowMotion.checked || !button || !button.classList.contains('primary')) return;
      event.preventDefault();
      event.stopImmediatePropagation();
      askMotion().then(function (answer) {
        if (answer !== 'granted') motionForm.querySelector('input[name="' + allowMotion.name + '"][value=denied]').checked = true;
        motionForm.setAttribute('data-motion', answer === 'granted' ? 'granted' : 'denied');
        motionAnswered = true;
        // In a task of its own: an answer that comes at once would otherwise come while this press's submit event is
        // still being fired, when the form ignores another.
        setTimeout(function () { motionForm.requestSubmit(button); }, 0);
      });
    });
  }

  // Notifications: their script (push.js, beside this one) is loaded only by the pages that offer them.
  var script = doc.currentScript;
  var allowNotifications = doc.querySelector('input[data-permission=notifications][value=granted]');
  if (script && script.src && (doc.getElementById('push') || allowNotifications)) {
    var push = doc.createElement('script');
    push.src = script.src.replace('/studykit.js', '/push.js');
    // On a permissions step, a press before push.js is there waits for it, so that "Allow" is never posted without
    // the browser asked; if it cannot load, the browser cannot be asked, and "Don't allow" is posted, then or later.
    var held = null, stepForm = allowNotifications && allowNotifications.form;
    var hold = function (event) {
      if (!allowNotifications.checked) return;
      event.preventDefault();
      held = event.submitter || stepForm.querySelector('button.primary');
    };
    var release = function (loaded) {
      if (!stepForm) return;
      stepForm.removeEventListener('submit', hold);
      if (!loaded) {
        stepForm.addEventListener('submit', function () {
          if (allowNotifications.checked) stepForm.querySelector('input[name="' + allowNotifications.name + '"][value=denied]').checked = true;
        });
      }
      if (held) stepForm.requestSubmit(held);
    };
    if (stepForm) stepForm.addEventListener('submit', hold);
    push.onload = function () { release(true); };
    push.onerror = function () { release(false); };
    doc.head.appendChild(push);
  }

  // After a refused post, the error summary takes the focus so that screen readers announce it.
  var summary = doc.getElementById('summary');
  if (summary) summary.focus();
})();
