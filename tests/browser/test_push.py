"""Reminders by web push, end to end: the server's side against a push service the test runs, and Chromium's side (the
page's script, the service worker, the notification and a click on it).

- A push service: a small HTTP server in the test process (`PushEndpoint`) that keeps each request and answers 201;
  `studykit serve --push-service` allows it (http on 127.0.0.1 is refused otherwise). The browser's keys are made by
  the test (`BrowserKeys`: a P-256 key pair and an auth secret), so the test decrypts what the server sends
  (http_ece) and checks its VAPID token (PyJWT) against the key the reminders page shows.
- Chromium's `pushManager.subscribe()` goes to Google's push service, which this machine cannot reach: it never settles
  (measured: still pending after four minutes). Where a test needs a subscription made by the page's own script, the
  page's `PushManager.subscribe` answers with the test's keys instead (`install_push_service`); everything else (asking
  for the permission, the service worker, posting the subscription) is the page's own code. One test leaves Chromium's
  subscribe as it is, to show what a participant sees when the push service does not answer.
- The browser shows notifications through a desktop notification server the test runs on a private D-Bus session bus
  (tests/support/notification_server.py), which also clicks them the way a desktop does (ActionInvoked "default"), so
  Chromium dispatches a real `notificationclick` to the service worker. The push itself is handed to the worker with
  the DevTools protocol (`ServiceWorker.deliverPushMessage`), as Chromium's push service would.

The server's clock is set with `--clock-start`, and the server restarted on the same data to move it; every wait is on
state (the server's report of a round in its log, the endpoint's requests, a page's state), never a fixed time."""
import base64
import http.server
import json
import os
import re
import subprocess
import threading
import urllib.request
from datetime import datetime

import http_ece
import jwt
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from conftest import EVERY_FORMAT_STUDY, ROOT, start_server
from studypages import WAIT, Participant, click_to_navigate
from test_reminders import ReminderServer, wait_until
from devtools import DevTools

CONTACT = "mailto:team@example.org"
DEADLINE = 60  # seconds: how long a wait on the server's, the endpoint's or the browser's state may take
DAY, OFFSET = "2027-05-10", "+02:00"  # a Monday; Berlin is on summer time
MORNING_TITLE = "Your daily pain check"  # Recover's painMorning reminder (study.yaml)
# What the page says when subscribing failed and the reminders page gives no text of its own for it (data-push-failed).
NO_ANSWER = "The browser\u2019s push service did not answer."


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class PushEndpoint:
    """A push service's endpoint: keeps every request (method, path, headers with lower-case names, body), answers 201."""

    def __init__(self):
        self.requests = []
        self.lock = threading.Lock()
        endpoint = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                with endpoint.lock:
                    endpoint.requests.append({"method": "POST", "path": self.path, "body": body,
                                              "headers": {name.lower(): value for name, value in self.headers.items()}})
                self.send_response(201)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def do_GET(self):
                with endpoint.lock:
                    endpoint.requests.append({"method": "GET", "path": self.path, "body": b"", "headers": dict(self.headers)})
                self.send_response(404)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *arguments):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.origin = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def count(self):
        with self.lock:
            return len(self.requests)

    def wait_for(self, count):
        wait_until(lambda: self.count() >= count, f"{count} request(s) at the push endpoint")
        with self.lock:
            return self.requests[count - 1]

    def stop(self):
        self.server.shutdown()
        self.server.server_close()


class BrowserKeys:
    """What a browser makes when it subscribes: a P-256 key pair and a 16-byte auth secret, for an endpoint."""

    def __init__(self, endpoint):
        self.private_key = ec.generate_private_key(ec.SECP256R1())
        self.auth_secret = os.urandom(16)
        public = self.private_key.public_key().public_bytes(serialization.Encoding.X962,
                                                            serialization.PublicFormat.UncompressedPoint)
        self.subscription = {"endpoint": endpoint, "expirationTime": None,
                             "keys": {"p256dh": b64url(public), "auth": b64url(self.auth_secret)}}

    def decrypt(self, body):
        return http_ece.decrypt(body, private_key=self.private_key, auth_secret=self.auth_secret, version="aes128gcm")


def push_study(workdir, endpoint):
    """Recover on one data folder and port, sending push to `endpoint`, restarted with its clock set to a given instant."""
    return ReminderServer(workdir, sending=["--push-contact", CONTACT, "--push-service", endpoint.origin])


class NotificationServer:
    """tests/support/notification_server.py: a desktop notification server on its own D-Bus session bus."""

    def __init__(self):
        self.process = subprocess.Popen(["/usr/bin/python3", str(ROOT / "tests" / "support" / "notification_server.py")],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.address = self.process.stdout.readline().strip()
        assert self.address.startswith("unix:"), f"the notification server did not start: {self.address!r}"
        self.lines = []
        self.lock = threading.Lock()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.process.stdout:
            with self.lock:
                self.lines.append(line.rstrip("\n"))

    def shown(self, summary):
        """Waits until Chromium has shown a notification titled `summary`; returns its id on this server."""
        def find():
            with self.lock:
                return next((line.split("\t")[0].split()[1] for line in self.lines
                             if line.startswith("shown ") and line.split("\t")[1] == summary), None)
        return wait_until(find, f"a notification titled {summary!r} on the desktop")

    def click(self, notification):
        """Clicks the notification, as a person does on the desktop."""
        self.process.stdin.write(f"click {notification}\n")
        self.process.stdin.flush()

    def closed(self, notification):
        with self.lock:
            return f"closed {notification}" in self.lines

    def stop(self):
        self.process.stdin.close()
        self.process.wait(timeout=20)


@pytest.fixture
def endpoint():
    served = PushEndpoint()
    yield served
    served.stop()


@pytest.fixture
def study(workdir, endpoint):
    served = push_study(workdir, endpoint)
    yield served
    served.stop()


@pytest.fixture
def desktop_browser(new_browser, monkeypatch):
    """Opens a Chromium that shows its notifications on a test notification server; returns (browser, server)."""
    servers = []

    def open_one():
        servers.append(NotificationServer())
        monkeypatch.setenv("DBUS_SESSION_BUS_ADDRESS", servers[-1].address)
        return new_browser(), servers[-1]

    yield open_one
    for server in servers:
        server.stop()


def set_notifications(driver, base, setting):
    """What the browser answers when the site asks to show notifications: `granted` or `denied`, as a person would."""
    driver.execute_cdp_cmd("Browser.setPermission", {"origin": base, "permission": {"name": "notifications"}, "setting": setting})


# Chromium's PushManager answering with the test's subscription instead of asking Google's push service; it keeps the
# key the page subscribed with (base64url) in localStorage, for the test to compare with the server's.
_PUSH_SERVICE = """
(() => {
  const subscription = %s;
  PushManager.prototype.subscribe = function (options) {
    const key = String.fromCharCode(...new Uint8Array(options.applicationServerKey));
    localStorage.setItem('studykitTestPushKey', btoa(key).replace(/\\+/g, '-').replace(/\\//g, '_').replace(/=+$/, ''));
    return Promise.resolve({endpoint: subscription.endpoint, options, toJSON: () => subscription});
  };
  PushManager.prototype.getSubscription = () => Promise.resolve(null);
})();
"""


def install_push_service(driver, keys):
    """Makes the browser's push service answer every subscribe with `keys`' subscription; returns the script's id."""
    return driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument",
                                  {"source": _PUSH_SERVICE % json.dumps(keys.subscription)})["identifier"]


def post_subscription(driver, text):
    """Posts `text` as the subscription field from the page on screen, with its CSRF token, as the page's script
    does; returns the status and the first paragraph of the page the server answered with."""
    return driver.execute_async_script("""
        const [subscription, done] = arguments;
        const csrf = document.querySelector('input[name=_csrf]').value;
        fetch('/settings/reminders/push', {method: 'POST', credentials: 'same-origin',
                                           body: new URLSearchParams({_csrf: csrf, subscription, label: 'test'})})
          .then(response => response.text().then(html => {
            const paragraph = new DOMParser().parseFromString(html, 'text/html').querySelector('main p');
            done({status: response.status, message: paragraph ? paragraph.textContent : ''});
          }), error => done({status: 0, message: String(error)}));""", text)


def devices(me):
    """The browsers listed on the reminders page's push section."""
    me.open("/settings/reminders")
    return [item.text for item in me.driver.find_elements(By.CSS_SELECTOR, "#push ul.browsers li")]


def notifications(driver):
    """The notifications the site's service worker shows, from the page: [{title, body, tag, url}]."""
    return driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        navigator.serviceWorker.ready.then(registration => registration.getNotifications())
          .then(shown => done(shown.map(n => ({title: n.title, body: n.body, tag: n.tag, url: n.data && n.data.url}))));""")


def register_worker(me):
    """Registers /sw.js from the page on screen and waits until it controls the page; returns its registration id."""
    state = me.driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        navigator.serviceWorker.register('/sw.js', {scope: '/'}).then(() => navigator.serviceWorker.ready)
          .then(registration => done(registration.active.scriptURL), error => done('refused: ' + error));""")
    assert state == me.server.base + "/sw.js", state
    WebDriverWait(me.driver, WAIT).until(lambda d: d.execute_script("return !!navigator.serviceWorker.controller"))
    # The first read of Chromium's notification database also brings it in line with what the desktop shows, and may
    # drop a notification shown while it does: read it once (nothing is shown yet) before anything is pushed.
    assert notifications(me.driver) == []
    tools = DevTools(me.driver)
    try:
        return tools.registration_id(me.driver.current_url, me.server.base + "/")
    finally:
        tools.close()


def deliver_push(driver, base, registration, payload):
    """Hands `payload` to the site's service worker as its push service would (the DevTools protocol)."""
    driver.execute_cdp_cmd("ServiceWorker.enable", {})
    driver.execute_cdp_cmd("ServiceWorker.deliverPushMessage",
                           {"origin": base, "registrationId": registration, "data": json.dumps(payload)})


def pain_check_path(me):
    """The address of today's pain check, from the home page's card."""
    me.open("/")
    match = re.search(r"/tasks/pain/\d+", me.driver.page_source)
    assert match, me.main_text()
    return match.group(0)


def onboarded(study, browser, allow_notifications=None):
    """A participant in Berlin who has joined and taken the onboarding (choosing "Allow" for every permission); the
    browser answers the notification request with `allow_notifications` ('granted' or 'denied') when given."""
    me = Participant(study.server, browser).join(time_zone="Europe/Berlin")
    if allow_notifications:
        set_notifications(me.driver, study.base, allow_notifications)
    me.complete_recover_onboarding(check_pages=False)
    return me


def test_a_reminder_is_pushed_once_at_nine_encrypted_for_the_subscribed_browser_and_its_notification_opens_the_task(
        study, endpoint, desktop_browser):
    assert "0 due" in study.start(f"{DAY}T08:30:00{OFFSET}")
    browser, desktop = desktop_browser()
    keys = BrowserKeys(endpoint.origin + "/push/ada")
    install_push_service(browser.driver, keys)
    # "Allow" for reminders on the onboarding's permissions step: the page asks the browser (granted), subscribes with
    # the server's key and posts the subscription before the step is posted.
    me = onboarded(study, browser, allow_notifications="granted")
    listed = devices(me)
    assert len(listed) == 1 and "(Chrome, Linux)" in listed[0], listed
    assert me.page() == 200
    server_key = me.field("#push").get_attribute("data-push-key")
    assert me.driver.execute_script("return localStorage.getItem('studykitTestPushKey')") == server_key
    me.field("input[name=on][value=painMorning]").click()
    click_to_navigate(me.driver, me.field("form[action='/settings/reminders'] button.primary"))
    assert me.path() == "/settings/reminders?notice=saved"
    assert endpoint.count() == 0, "nothing is pushed before 09:00"

    # 09:00:05 in Berlin: one push, to the subscription's endpoint.
    assert "1 due, 1 sent" in study.start(f"{DAY}T09:00:05{OFFSET}")
    request = endpoint.wait_for(1)
    assert request["path"] == "/push/ada"
    headers = request["headers"]
    assert headers["content-encoding"] == "aes128gcm"
    assert int(headers["ttl"]) > 0
    # Encrypted for this browser's keys (RFC 8291): the reminder in the participant's language, and the task's address.
    payload = json.loads(keys.decrypt(request["body"]))
    assert payload["title"] == MORNING_TITLE
    assert "One question about your knee today" in payload["body"]
    assert re.fullmatch(re.escape(study.base) + r"/tasks/pain/\d+", payload["url"]), payload
    # Signed by the server's key, the one the reminders page shows (RFC 8292): for this push service, for a while.
    token, key = re.fullmatch(r"vapid t=([^,\s]+),\s*k=([^,\s]+)", headers["authorization"]).groups()
    assert key == server_key
    public_key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(server_key))
    claims = jwt.decode(token, public_key, algorithms=["ES256"], audience=endpoint.origin, options={"verify_exp": False})
    now = datetime.fromisoformat(f"{DAY}T09:00:05{OFFSET}").timestamp()
    assert now < claims["exp"] <= now + 24 * 3600, claims
    assert claims["sub"] == CONTACT

    # Later that morning the reminder is not pushed again.
    assert "0 due" in study.start(f"{DAY}T09:10:00{OFFSET}")
    assert endpoint.count() == 1

    # The same payload, delivered to the browser as the push service would: the worker shows it; a click on it (on
    # the desktop) opens the pain check in the open tab.
    me.open("/settings/reminders")
    assert notifications(me.driver) == []
    tools = DevTools(me.driver)
    registration = tools.registration_id(me.driver.current_url, study.base + "/")
    tools.close()
    deliver_push(me.driver, study.base, registration, payload)
    desktop.click(desktop.shown(MORNING_TITLE))
    WebDriverWait(me.driver, WAIT).until(lambda d: d.current_url.startswith(study.base + "/runs/"))
    WebDriverWait(me.driver, WAIT).until(lambda d: d.execute_script("return document.readyState") == "complete")
    assert me.step() == "painLevel"


def test_b_hostile_subscriptions_are_refused_with_the_reason_and_nothing_is_stored_or_contacted(study, endpoint, browser):
    assert "0 due" in study.start(f"{DAY}T08:30:00{OFFSET}")
    me = onboarded(study, browser)
    me.open("/settings/reminders")
    me.field("input[name=on][value=painMorning]").click()
    click_to_navigate(me.driver, me.field("form[action='/settings/reminders'] button.primary"))
    good = BrowserKeys(endpoint.origin + "/push/ada").subscription

    def subscription(endpoint_url=None, **keys):
        return json.dumps({**good, "endpoint": endpoint_url or good["endpoint"], "keys": {**good["keys"], **keys}})

    off_curve = b64url(b"\x04" + b"\x01" * 64)  # 65 bytes in the uncompressed form, but not a point of P-256
    cases = [
        (subscription("https://127.0.0.1/push/1"), "127.0.0.1 is an IP address"),
        (subscription("http://example.org/push/1"), "must use https"),
        (subscription("https://evil.example/push/1"), "evil.example is not an allowed push service"),
        (subscription(p256dh=off_curve), "p256dh"),
        (subscription(auth=b64url(b"short")), "auth"),
        (json.dumps({**good, "padding": "x" * 5000}), "push subscription as JSON"),
    ]
    for text, reason in cases:
        answer = post_subscription(me.driver, text)
        assert 400 <= answer["status"] < 500 and reason in answer["message"], (text[:80], answer)
    assert devices(me) == []
    # At 09:00 the reminder is due and there is nowhere to send it: nothing reaches the endpoint (or anything else).
    report = study.start(f"{DAY}T09:00:05{OFFSET}")
    assert " 0 sent" in report, report
    assert endpoint.count() == 0


def test_c_the_service_worker_shows_a_pushed_reminder_and_a_click_opens_it_on_this_site_only(study, endpoint, desktop_browser):
    study.start(f"{DAY}T08:30:00{OFFSET}")
    browser, desktop = desktop_browser()
    me = onboarded(study, browser)
    task = pain_check_path(me)
    me.open("/settings/reminders")
    set_notifications(me.driver, study.base, "granted")
    registration = register_worker(me)

    # A reminder as the server writes it (ReminderMessages.pushPayload): shown with its title, text, tag and address.
    payload = {"title": MORNING_TITLE, "body": "One question about your knee today.", "url": study.base + task, "tag": "pain-1"}
    deliver_push(me.driver, study.base, registration, payload)
    shown = wait_until(lambda: notifications(me.driver), "the notification")
    assert shown == [{"title": MORNING_TITLE, "body": payload["body"], "tag": "pain-1", "url": study.base + task}]
    # A click on the desktop: the tab of the site that is open goes to the task; the notification is closed.
    notification = desktop.shown(MORNING_TITLE)
    desktop.click(notification)
    WebDriverWait(me.driver, WAIT).until(lambda d: d.current_url.startswith(study.base + "/runs/"))
    WebDriverWait(me.driver, WAIT).until(lambda d: d.execute_script("return document.readyState") == "complete")
    assert me.step() == "painLevel" and len(me.driver.window_handles) == 1
    wait_until(lambda: desktop.closed(notification), "the notification to close")
    assert notifications(me.driver) == []

    # A payload whose address is on another site opens this site's home page instead.
    me.open("/settings/reminders")
    deliver_push(me.driver, study.base, registration, {**payload, "title": "Elsewhere", "url": "https://evil.example/phish"})
    desktop.click(desktop.shown("Elsewhere"))
    WebDriverWait(me.driver, WAIT).until(lambda d: d.current_url == study.base + "/")
    assert len(me.driver.window_handles) == 1

    # With no tab of the site open (the one tab has left it), a click opens a new window on the task.
    blank = me.driver.current_window_handle
    me.driver.get("about:blank")
    deliver_push(me.driver, study.base, registration, {**payload, "title": "No tab open"})
    desktop.click(desktop.shown("No tab open"))
    WebDriverWait(me.driver, WAIT).until(lambda d: len(d.window_handles) == 2)
    me.driver.switch_to.window(next(handle for handle in me.driver.window_handles if handle != blank))
    WebDriverWait(me.driver, WAIT).until(lambda d: d.current_url.startswith(study.base + "/runs/"))
    assert endpoint.count() == 0


def test_the_reminders_page_button_subscribes_this_browser_or_says_why_not(study, endpoint, browser):
    study.start(f"{DAY}T08:30:00{OFFSET}")
    me = onboarded(study, browser)
    driver = me.driver

    # Without the Push API (as in Safari on an iPhone before the study is on the home screen): the page says so.
    script = driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": "delete window.PushManager;"})["identifier"]
    me.open("/settings/reminders")
    section = me.field("#push")
    assert me.field(".push-status").text == section.get_attribute("data-push-unsupported")
    assert not me.field("#push-enable").is_displayed()
    driver.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", {"identifier": script})

    # Blocked in the browser: the page says so as it opens, and again when the button is pressed.
    set_notifications(driver, study.base, "denied")
    me.open("/settings/reminders")
    denied = me.field("#push").get_attribute("data-push-denied")
    assert me.field(".push-status").text == denied
    driver.execute_script("document.querySelector('.push-status').textContent = ''")
    me.field("#push-enable").click()
    WebDriverWait(driver, WAIT).until(lambda d: me.field(".push-status").text == denied)
    assert devices(me) == []

    # Allowed, but Chromium's push service does not answer: after a while the page says so, and nothing is stored.
    set_notifications(driver, study.base, "granted")
    me.open("/settings/reminders")
    assert me.field(".push-status").text == ""
    me.field("#push-enable").click()
    failed = me.field("#push").get_attribute("data-push-failed") or NO_ANSWER
    WebDriverWait(driver, 15 + DEADLINE).until(lambda d: me.field(".push-status").text == failed)
    assert me.field("#push-enable").is_enabled()
    assert devices(me) == []

    # Allowed, and the push service answers: the subscription is stored, and the page lists this browser.
    keys = BrowserKeys(endpoint.origin + "/push/ada")
    install_push_service(driver, keys)
    me.open("/settings/reminders")
    me.field("#push-enable").click()
    WebDriverWait(driver, WAIT).until(lambda d: d.current_url.endswith("/settings/reminders?notice=saved"))
    WebDriverWait(driver, WAIT).until(lambda d: d.execute_script("return document.readyState") == "complete")
    listed = [item.text for item in driver.find_elements(By.CSS_SELECTOR, "#push ul.browsers li")]
    assert len(listed) == 1 and "(Chrome, Linux)" in listed[0], listed
    assert me.page() == 200
    # Pressed again, the same subscription is posted again: it is listed once.
    click_to_navigate(driver, me.field("#push-enable"))
    assert devices(me) == listed
    assert endpoint.count() == 0, "subscribing sends nothing"


def test_allowing_notifications_in_the_onboarding_records_the_browsers_refusal(study, endpoint, browser):
    study.start(f"{DAY}T08:30:00{OFFSET}")
    me = Participant(study.server, browser).join(time_zone="Europe/Berlin")
    set_notifications(me.driver, study.base, "denied")
    me.complete_recover_onboarding(check_pages=False, finish=False)
    # Back on the step: the browser refused notifications, so that is what was recorded; the motion choice stands.
    me.press("back")
    assert me.step() == "permissions"
    reminders, motion, email = me.driver.find_elements(By.CSS_SELECTOR, "main fieldset")
    assert reminders.find_element(By.CSS_SELECTOR, "input:checked").get_attribute("value") == "denied"
    assert motion.find_element(By.CSS_SELECTOR, "input:checked").get_attribute("value") == "granted"
    # This server sends no mail: the reminder email address has no field, and the step says so.
    assert not email.find_elements(By.CSS_SELECTOR, "input") and "This study does not send email." in email.text
    assert devices(me) == []


def test_allow_pressed_before_the_notifications_script_is_there_never_posts_allow_unasked(study, endpoint, browser):
    """The script that asks the browser (push.js) cannot load: "Allow" pressed on the permissions step waits for it,
    and since the browser could not be asked, "Don't allow" is what is recorded, though the browser would have granted."""
    study.start(f"{DAY}T08:30:00{OFFSET}")
    me = Participant(study.server, browser).join(time_zone="Europe/Berlin")
    set_notifications(me.driver, study.base, "granted")
    # (Not from the cache either, where an earlier page's copy would be.)
    me.driver.execute_cdp_cmd("Network.enable", {})
    me.driver.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": True})
    me.driver.execute_cdp_cmd("Network.setBlockedURLs", {"urls": ["*push.js*"]})
    try:
        me.complete_recover_onboarding(check_pages=False, finish=False)
        me.press("back")
        assert me.step() == "permissions"
        reminders = me.driver.find_elements(By.CSS_SELECTOR, "main fieldset")[0]
        assert reminders.find_element(By.CSS_SELECTOR, "input:checked").get_attribute("value") == "denied"
        assert devices(me) == []
    finally:
        me.driver.execute_cdp_cmd("Network.setBlockedURLs", {"urls": []})
        me.driver.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": False})


def test_the_service_worker_and_the_web_app_manifest_are_served_for_the_whole_site(study, endpoint, browser, workdir):
    study.start(f"{DAY}T08:30:00{OFFSET}")
    with urllib.request.urlopen(study.base + "/sw.js", timeout=WAIT) as answer:
        assert answer.headers["Content-Type"].startswith("text/javascript")
        assert answer.headers["Service-Worker-Allowed"] == "/"
        assert answer.headers["Cache-Control"] == "no-cache"  # a new worker reaches browsers at their next visit
        assert "notificationclick" in answer.read().decode()
    with urllib.request.urlopen(study.base + "/manifest.webmanifest", timeout=WAIT) as answer:
        assert answer.headers["Content-Type"] == "application/manifest+json"
        manifest = json.load(answer)
    logo = "/images/images%2Flogo.svg"  # Recover's theme.logo
    assert manifest == {"name": "Recover", "start_url": "/", "scope": "/", "display": "standalone", "theme_color": "#C8472B",
                        "icons": [{"src": logo, "type": "image/svg+xml", "sizes": "any"}]}
    with urllib.request.urlopen(study.base + logo, timeout=WAIT) as answer:
        assert answer.headers["Content-Type"] == "image/svg+xml"

    # Chromium finds the manifest from a participant's page and reads it without a complaint; the console has none.
    me = Participant(study.server, browser).join(time_zone="Europe/Berlin")
    found = me.driver.execute_cdp_cmd("Page.getAppManifest", {})
    assert found["url"] == study.base + "/manifest.webmanifest" and found["errors"] == [], found
    assert json.loads(found["data"]) == manifest
    me.open("/console/sign-in")
    assert me.driver.find_elements(By.CSS_SELECTOR, "link[rel=manifest]") == []

    # A study without a logo: no icon; the default tint.
    other = start_server(EVERY_FORMAT_STUDY, workdir / "every-format")
    try:
        with urllib.request.urlopen(other.base + "/manifest.webmanifest", timeout=WAIT) as answer:
            manifest = json.load(answer)
        assert manifest == {"name": "Every format", "start_url": "/", "scope": "/", "display": "standalone", "theme_color": "#0A66C2"}
    finally:
        other.stop()
