// StudyKit's service worker: shows a reminder the server pushed as a notification, and opens its task when the
// participant taps it. It caches nothing: every page still comes from the server.
'use strict';

self.addEventListener('install', function () { self.skipWaiting(); });
// Taking the site's open tabs at once lets a tap on a notification navigate a tab that was open before the worker.
self.addEventListener('activate', function (event) { event.waitUntil(self.clients.claim()); });

// The payload is the server's JSON: {"title", "body", "url", "tag"} (ReminderMessages.pushPayload).
self.addEventListener('push', function (event) {
  var message = {};
  try { message = event.data ? event.data.json() : {}; } catch (error) { message = {}; }
  event.waitUntil(self.registration.showNotification(message.title || self.registration.scope, {
    body: message.body || '', tag: message.tag || '', data: {url: message.url || '/'}
  }));
});

// The page a notification opens: its URL when it is on this site, else the site's home page.
function sameOriginURL(text) {
  try {
    var url = new URL(text, self.location.origin);
    if (url.origin === self.location.origin) return url.href;
  } catch (error) { /* not a URL */ }
  return new URL('/', self.location.origin).href;
}

// A tab of the site already open is navigated to the page and brought forward; without one, a new window opens.
function openFromNotification(notification) {
  var url = sameOriginURL(notification.data && notification.data.url);
  return self.clients.matchAll({type: 'window', includeUncontrolled: true}).then(function (tabs) {
    var tab = tabs.filter(function (client) { return new URL(client.url).origin === self.location.origin; })[0];
    if (!tab) return self.clients.openWindow(url);
    // Navigating needs a tab this worker controls; focusing needs the tap. Either may be refused on its own.
    return Promise.all([
      tab.navigate(url).catch(function () { return self.clients.openWindow(url); }),
      tab.focus().catch(function () { return null; })
    ]);
  });
}

self.addEventListener('notificationclick', function (event) {
  event.notification.close();
  event.waitUntil(openFromNotification(event.notification));
});
