// StudyKit's notifications (web push), loaded by studykit.js on the pages that offer them: the reminders page's
// button, and a permissions step that allows notifications. The browser is asked only on the participant's press;
// then this browser subscribes with the server's key and the subscription is posted to the server. No dependencies.
(function () {
  'use strict';
  var doc = document;
  var canPush = 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window && !!window.fetch;
  function pushOffer(section) {
    return section && {key: section.getAttribute('data-push-key'), action: section.getAttribute('data-push-action')};
  }
  function browserLabel() {
    var ua = navigator.userAgent, is = function (pattern) { return pattern.test(ua); };
    var name = is(/Edg\//) ? 'Edge' : is(/Firefox\/|FxiOS/) ? 'Firefox' : is(/Chrome\/|CriOS/) ? 'Chrome' : is(/Safari\//) ? 'Safari' : 'Browser';
    var system = is(/Android/) ? 'Android' : is(/iPhone|iPad/) ? 'iOS' : is(/Mac OS X/) ? 'macOS' : is(/Windows/) ? 'Windows' : is(/Linux|CrOS/) ? 'Linux' : '';
    return system ? name + ', ' + system : name;
  }
  // Call it in the press's own event (browsers ignore a later request). `offer`: {key, action}, a promise of it, or
  // null when the server sends no push. Rejects with 'denied' when the browser refuses, else with an Error.
  function askAndSubscribe(offer, csrf) {
    return Notification.requestPermission().then(function (answer) {
      if (answer !== 'granted') throw 'denied';
      return offer;
    }).then(function (push) {
      if (!push) return null;
      var key = Uint8Array.from(atob(push.key.replace(/-/g, '+').replace(/_/g, '/')), function (c) { return c.charCodeAt(0); });
      return navigator.serviceWorker.register('/sw.js', {scope: '/'}).then(function () {
        return navigator.serviceWorker.ready;
      }).then(function (registration) {
        var manager = registration.pushManager;
        // One made with another key (the server's was replaced) is dropped first.
        return manager.getSubscription().then(function (old) {
          if (old && String(new Uint8Array(old.options.applicationServerKey)) !== String(key)) return old.unsubscribe();
        }).then(function () {
          return Promise.race([manager.subscribe({userVisibleOnly: true, applicationServerKey: key}), new Promise(function (ok, fail) {
            setTimeout(function () { fail(new Error('The browser\u2019s push service did not answer.')); }, 15000);
          })]);
        });
      }).then(function (subscription) {
        return fetch(push.action, {method: 'POST', credentials: 'same-origin',
          body: new URLSearchParams({_csrf: csrf, subscription: JSON.stringify(subscription), label: browserLabel()})});
      }).then(function (response) {
        return response.ok ? response : response.text().then(function (html) {
          var reason = new DOMParser().parseFromString(html, 'text/html').querySelector('main p'); // the refusal's words
          throw new Error(reason ? reason.textContent : String(response.status));
        });
      });
    });
  }
  var pushSection = doc.getElementById('push');
  if (pushSection) {
    var pushButton = doc.getElementById('push-enable'), pushStatus = pushSection.querySelector('.push-status');
    var say = function (text) { pushStatus.textContent = text || ''; };
    var text = function (name) { return pushSection.getAttribute('data-push-' + name); };
    if (!canPush) say(text('unsupported'));
    else {
      pushButton.hidden = false;
      if (Notification.permission === 'denied') say(text('denied'));
      pushButton.addEventListener('click', function () {
        pushButton.disabled = true;
        say('');
        askAndSubscribe(pushOffer(pushSection), doc.querySelector('input[name=_csrf]').value).then(function (response) {
          location.replace(response.url);
        }, function (problem) {
          pushButton.disabled = false;
          say(problem === 'denied' ? text('denied') : text('failed') || problem.message);
        });
      });
    }
  }
  // A permissions step: what the browser answers is recorded. Refused, or a browser that cannot, posts "Don't allow".
  var allow = doc.querySelector('input[data-permission=notifications][value=granted]');
  if (allow) {
    var stepForm = allow.form, asking = false;
    // The server's key and address for subscriptions are on the reminders page: fetched while the step is read.
    var offer = canPush && fetch('/settings/reminders', {credentials: 'same-origin'}).then(function (response) {
      return response.ok ? response.text() : '';
    }).then(function (html) {
      return pushOffer(new DOMParser().parseFromString(html, 'text/html').getElementById('push'));
    }).catch(function () { return null; });
    stepForm.addEventListener('submit', function (event) {
      var button = event.submitter || stepForm.querySelector('button.primary');
      if (asking) return event.preventDefault();
      if (!allow.checked || !button || !button.classList.contains('primary')) return;
      event.preventDefault();
      asking = true;
      stepForm.setAttribute('aria-busy', 'true');
      var send = function () {
        var action = doc.createElement('input');
        action.type = 'hidden'; action.name = button.name; action.value = button.value;
        stepForm.appendChild(action);
        stepForm.submit();
      };
      var refuse = function () {
        stepForm.querySelector('input[name="' + allow.name + '"][value=denied]').checked = true;
        send();
      };
      if (canPush) askAndSubscribe(offer, stepForm.querySelector('input[name=_csrf]').value).then(send, refuse);
      else refuse();
    });
  }
})();
