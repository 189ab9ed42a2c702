"""Helpers that drive a participant's pages the way a person does: open links, fill in fields, press the step
buttons, draw a signature with real pointer events. Every helper that lands on a new page waits for it to load
explicitly, and the page is checked (axe-core and weight) by `Participant.page()` whenever a test asks."""
import urllib.request

from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.actions.pointer_input import PointerInput
from selenium.webdriver.common.actions import interaction
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select, WebDriverWait

WAIT = 15  # seconds: a generous ceiling for any one page load on two shared cores; waits end as soon as they can


# The page's own time, held by the test. A page that moves by itself (an active step's module, which measures and
# ends on animation frames; a wait step, which presses Next after its seconds) races with a test that reads and
# checks it, and a test slowed by a loaded machine loses that race by chance. Installed in every document of a
# browser tab before its scripts run, this holds an active step's animation-frame callbacks from the start, and a
# wait step's timers set while it loads, until the test lets the page's time run (`release_page_time`, for good or
# for a number of frames); the test or a watcher in the page may hold it again at a moment the page itself marks
# (`hold_page_time`, `studykitClock.hold()`). Held, a frame callback waits, even one asked for before the hold: it
# runs later in a real frame with that frame's own timestamp, so a module still times everything by its frames and
# its events' timeStamps. `frameTimes` lists the frames in which the page's callbacks ran (performance clock, ms).
_PAGE_TIME = """
(() => {
  const frame = window.requestAnimationFrame.bind(window), timeout = window.setTimeout.bind(window);
  const clock = window.studykitClock = {held: null, budget: null, until: null, frames: [], timers: [], frameTimes: []};
  const framesHeld = () => clock.held ?? !!document.querySelector('[data-active]');
  const timersHeld = () => clock.held !== false && document.readyState !== 'complete' && !!document.querySelector('[data-wait]');
  const run = (callback) => frame((time) => {
    if (clock.held || (clock.until !== null && time > clock.until)) { clock.held = true; clock.frames.push(callback); return; }
    if (time !== clock.frameTimes[clock.frameTimes.length - 1]) {
      clock.frameTimes.push(time);
      if (clock.budget !== null && --clock.budget <= 0) { clock.until = time; clock.budget = null; }
    }
    callback(time);
  });
  window.requestAnimationFrame = (callback) => {
    if (framesHeld()) { clock.frames.push(callback); return 0; }
    return run(callback);
  };
  window.setTimeout = function (callback, delay, ...rest) {
    if (typeof callback === 'function' && timersHeld()) { clock.timers.push([callback, delay, rest]); return 0; }
    return timeout(callback, delay, ...rest);
  };
  clock.hold = () => { clock.held = true; };
  clock.release = (frames) => {
    clock.held = false;
    clock.until = null;
    clock.budget = frames || null;
    for (const callback of clock.frames.splice(0)) run(callback);
    for (const [callback, delay, rest] of clock.timers.splice(0)) timeout(callback, delay, ...rest);
    return performance.timeOrigin + performance.now();
  };
})();
"""


def control_page_time(driver):
    """From the next page on, every page of this browser tab starts with its own time held (see `_PAGE_TIME`)."""
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": _PAGE_TIME})


def release_page_time(driver, frames=None):
    """Lets the page's held time run, for good or (`frames`) for that many animation frames, after which the page
    holds it again by itself (this waits for them); returns the page's clock at the release (seconds since the epoch)."""
    released = driver.execute_script("return window.studykitClock.release(arguments[0])", frames) / 1000
    if frames:
        WebDriverWait(driver, WAIT).until(lambda d: d.execute_script("return window.studykitClock.until !== null"))
    return released


def hold_page_time(driver):
    """Holds the page's animation frames again: a frame callback waits from now on until a release."""
    driver.execute_script("window.studykitClock.hold()")


def first_frame_shown(driver):
    """Waits until the page has run a frame since its time was released (an active step shows its task in its first)."""
    WebDriverWait(driver, WAIT).until(lambda d: d.execute_script("return window.studykitClock.frameTimes.length > 0"))


def mark_page(driver):
    """Marks the page on screen, so that `wait_for_new_page` can tell when another has replaced it."""
    driver.execute_script("window.studykitTestMark = true")


def wait_for_new_page(driver, timeout=WAIT):
    """Waits until a page without the mark (a new window object, so a new document) has loaded. Commands sent while
    the browser is between documents fail; they are retried."""
    WebDriverWait(driver, timeout, ignored_exceptions=(WebDriverException,)).until(
        lambda d: d.execute_script("return !window.studykitTestMark && document.readyState === 'complete'"))


def click_to_navigate(driver, element, timeout=WAIT):
    """Clicks a link or submit button and waits for the page it leads to."""
    mark_page(driver)
    element.click()
    wait_for_new_page(driver, timeout)


def draw_signature(driver, canvas, pointer=interaction.POINTER_MOUSE):
    """Signs on the canvas with W3C pointer actions: press, a zig-zag of moves, release; then a second stroke.

    The page's pad listens to pointerdown/pointermove/pointerup, so this is exactly what a finger, pen or mouse does.
    Offsets are from the canvas's centre."""
    actions = ActionBuilder(driver, mouse=PointerInput(pointer, f"{pointer} signer"))  # an id per kind: sources keep theirs
    pen = actions.pointer_action
    pen.move_to(canvas, -120, 10).pointer_down()
    for x, y in ((-90, -25), (-60, 25), (-30, -25), (0, 25), (30, -20), (60, 20), (90, -15)):
        pen.move_to(canvas, x, y)
    pen.pointer_up()
    pen.move_to(canvas, -100, 35).pointer_down().move_to(canvas, 0, 38).move_to(canvas, 100, 35).pointer_up()
    actions.perform()


class Participant:
    """One participant's browser on one server: navigation, step buttons, fields and checks."""

    def __init__(self, server, browser):
        self.server, self.browser, self.driver = server, browser, browser.driver

    # Pages

    def open(self, path):
        """Opens a path of the server (or a full URL) and waits for it to load."""
        self.driver.get(path if path.startswith("http") else self.server.base + path)
        WebDriverWait(self.driver, WAIT).until(lambda d: d.execute_script("return document.readyState") == "complete")

    def page(self):
        """Checks the page on screen (axe-core, weight); returns its HTTP status."""
        _, status = self.browser.check_page()
        return status

    def path(self):
        return "/" + self.driver.current_url.split("/", 3)[3] if self.driver.current_url.count("/") >= 3 else "/"

    def h1(self):
        return self.driver.find_element(By.TAG_NAME, "h1").text

    def main_text(self):
        return self.driver.find_element(By.TAG_NAME, "main").text

    def step(self):
        """The identifier of the step on screen (the form's hidden `_step`)."""
        return self.driver.find_element(By.NAME, "_step").get_attribute("value")

    # Enrolment

    def join(self, link=None, time_zone=None):
        """Opens a fresh invitation link, checks the join page and joins (in `time_zone` when given, else the one the
        page suggests); ends on home."""
        self.open(link or self.server.invite()[0])
        assert self.page() == 200
        if time_zone:
            Select(self.driver.find_element(By.ID, "timeZone")).select_by_value(time_zone)
        self.press_primary()
        assert self.path() == "/", self.driver.current_url
        return self

    def session_cookie(self):
        return next(c for c in self.driver.get_cookies() if c["name"] == "studykit_session")

    def fetch(self, path):
        """GETs a path outside the browser with the browser's session cookie; returns (status, headers, body)."""
        cookie = self.session_cookie()
        request = urllib.request.Request(self.server.base + path, headers={"Cookie": f"{cookie['name']}={cookie['value']}"})
        with urllib.request.urlopen(request, timeout=20) as response:
            return response.status, response.headers, response.read()

    # Step buttons

    def button(self, action):
        return self.driver.find_element(By.CSS_SELECTOR, f"form button[name=action][value='{action}']")

    def press(self, action, timeout=WAIT):
        """Presses a step button (next, done, back, skip, end, clear, edit-…) and waits for the page it leads to."""
        click_to_navigate(self.driver, self.button(action), timeout)

    def press_primary(self):
        click_to_navigate(self.driver, self.driver.find_element(By.CSS_SELECTOR, "main button.primary, main .button.primary"))

    def next(self):
        """Next (or Done on the last step); asserts the step was accepted."""
        before = self.step()
        click_to_navigate(self.driver, self.driver.find_element(By.CSS_SELECTOR, "form button.primary"))
        assert self.status() == 200, f"step {before} refused: {self.errors()}"

    def submit_unchecked(self):
        """Presses Next with the browser's own constraint checks turned off for this form, so that the answer
        reaches the server as typed (as from a browser without them, or a hand-made post)."""
        self.driver.execute_script("document.querySelector('main form').noValidate = true")
        click_to_navigate(self.driver, self.driver.find_element(By.CSS_SELECTOR, "form button.primary"))

    def status(self):
        return self.driver.execute_script("return performance.getEntriesByType('navigation')[0].responseStatus")

    def errors(self):
        """The visible inline messages: {error element id: text}."""
        return {e.get_attribute("id"): e.text for e in self.driver.find_elements(By.CSS_SELECTOR, "main .err") if e.is_displayed()}

    # Fields

    def field(self, css):
        return self.driver.find_element(By.CSS_SELECTOR, css)

    def type_into(self, css, text):
        element = self.field(css)
        element.clear()
        element.send_keys(text)
        return element

    def set_value(self, css, value):
        """Sets a date, time or datetime-local field, whose typing order depends on the locale, by script, and
        fires the events typing would."""
        self.driver.execute_script(
            "const f = document.querySelector(arguments[0]); f.value = arguments[1];"
            "f.dispatchEvent(new Event('input', {bubbles: true})); f.dispatchEvent(new Event('change', {bubbles: true}));",
            css, value)

    def choose(self, label_text):
        """Clicks the choice (radio or checkbox) whose label says `label_text`."""
        for label in self.driver.find_elements(By.CSS_SELECTOR, "main label.opt"):
            if label.text.split("\n")[0].strip() == label_text:
                label.click()
                return label.find_element(By.TAG_NAME, "input")
        raise AssertionError(f"no choice labelled {label_text!r}: {[l.text for l in self.driver.find_elements(By.CSS_SELECTOR, 'main label.opt')]}")

    def select(self, css, text):
        Select(self.field(css)).select_by_visible_text(text)

    def value(self, css):
        return self.field(css).get_attribute("value")

    def checked(self, css="main input:checked"):
        return [e.get_attribute("value") for e in self.driver.find_elements(By.CSS_SELECTOR, css)]

    def natively_invalid(self, css):
        """Whether the browser's own constraint checks (min, max, type, required) refuse the field's value."""
        return not self.driver.execute_script("return document.querySelector(arguments[0]).validity.valid", css)

    def expect_refusal(self, message, field_id):
        """After a post: the server answered 422, and the message stands beside the field, in its error slot."""
        assert self.status() == 422, f"expected a refusal, got {self.status()} on {self.step()}"
        errors = self.errors()
        assert message in errors.get(f"{field_id}-err", ""), (message, errors)
        assert self.field(f"#{field_id}-err").get_attribute("hidden") is None
        self.page()

    # Recover's onboarding

    def complete_recover_onboarding(self, given="Ada", family="Lovelace", check_pages=True, welcome="Welcome to Recover", email=None,
                                    finish=True):
        """Takes Recover's whole onboarding from home: the two instructions, the name, the consent with a drawn
        signature, the permissions and the completion; ends on home (or, with `finish` false, on the completion step).
        `welcome` is the first step's title in the participant's language. The permissions step's reminder email
        address is left empty, or given as `email` (the server must send mail)."""
        check = self.page if check_pages else (lambda: 200)
        click_to_navigate(self.driver, self.driver.find_element(By.CSS_SELECTOR, "main a.button[href='/onboarding']"))
        assert self.step() == "welcome" and self.h1() == welcome
        check()
        self.next()
        assert self.step() == "informedConsent"
        assert len(self.driver.find_elements(By.CSS_SELECTOR, "main ul.body li")) == 4
        check()
        self.next()
        assert self.step() == "consent.name"
        check()
        self.type_into("#q0", given)
        self.type_into("#q1", family)
        self.next()
        assert self.step() == "consent.document"
        self.consent_heading = self.field("main .web h1").text  # the document's title, in the participant's language
        canvas = self.field(".sig canvas")
        WebDriverWait(self.driver, WAIT).until(lambda d: canvas.is_displayed())  # the script reveals the pad
        check()
        self.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", canvas)
        draw_signature(self.driver, canvas)
        drawn = self.value(".sig input[type=hidden]")
        assert '"strokes"' in drawn, drawn
        self.next()
        assert self.step() == "permissions"
        check()
        self.choose_all_permissions()
        if email is not None:
            self.type_into("main input[type=email][name^=perm]", email)
        self.next()
        assert self.step() == "done"
        check()
        if not finish:
            return
        self.next()
        assert self.path() == "/?notice=onboarded", self.driver.current_url

    def choose_all_permissions(self, allow=True):
        for radio in self.driver.find_elements(By.CSS_SELECTOR, f"main input[type=radio][value={'granted' if allow else 'denied'}]"):
            self.driver.find_element(By.CSS_SELECTOR, f"label[for='{radio.get_attribute('id')}']").click()

    # The every-format study

    def onboard_every_format(self, check_pages=False):
        """The every-format study's onboarding (two steps); ends on home with the survey's card."""
        click_to_navigate(self.driver, self.driver.find_element(By.CSS_SELECTOR, "main a.button[href='/onboarding']"))
        assert self.step() == "welcome"
        if check_pages:
            self.page()
        self.next()
        assert self.step() == "done"
        if check_pages:
            self.page()
        self.next()
        assert self.path() == "/?notice=onboarded"

    def start_survey(self, title="Every answer format"):
        """Presses the start (or continue) link of the survey card titled `title` on home."""
        for card in self.driver.find_elements(By.CSS_SELECTOR, "main li.card"):
            if card.find_element(By.TAG_NAME, "h2").text == title:
                click_to_navigate(self.driver, card.find_element(By.CSS_SELECTOR, "a.button"))
                return
        raise AssertionError(f"no card {title!r} on {self.main_text()}")

    def take_pain_check(self, level):
        """Recover's daily pain check from its card on home, as a participant takes it on the phone: pain `level`, the
        front of the knee, every optional step skipped; ends on the page after it."""
        self.start_survey("Daily pain check")
        self.choose(str(level))
        self.next()
        self.choose("Front of the knee")
        self.next()
        while self.driver.find_elements(By.CSS_SELECTOR, "form button[name=action][value=skip]"):
            self.press("skip")
        self.press_primary()

    def advance_to(self, target):
        """Moves through the survey to step `target` the quickest way: Skip where a step allows it, otherwise the
        least a step needs (a signature, an answer to a required scale), otherwise Next."""
        for _ in range(60):
            step = self.step()
            if step == target:
                return
            if self.driver.find_elements(By.CSS_SELECTOR, ".sig canvas"):
                canvas = self.field(".sig canvas")
                self.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", canvas)
                draw_signature(self.driver, canvas)
                self.next()
            elif self.driver.find_elements(By.CSS_SELECTOR, "form button[name=action][value=skip]"):
                self.press("skip")
            elif step == "pain":  # the every-format survey's required questions
                self.choose("5")
                self.next()
            elif step == "studyCode":
                self.type_into("#q0", "KNE-0420")
                self.next()
            else:
                self.next()
        raise AssertionError(f"step {target} not reached")

    # Keyboard

    def active(self):
        return self.driver.switch_to.active_element

    def key(self, *keys):
        """Sends keys to whatever has the focus, as a keyboard does."""
        self.active().send_keys(*keys)

    def tab_to(self, css, most=30):
        """Presses Tab until the focus is on an element matching `css`; asserts it gets there and that the focus
        is visible (an outline)."""
        for _ in range(most):
            self.key(Keys.TAB)
            if self.driver.execute_script("return document.activeElement.matches(arguments[0])", css):
                outline = self.driver.execute_script("return getComputedStyle(document.activeElement).outlineStyle")
                assert outline not in ("none", ""), f"no visible focus on {css}"
                return self.active()
        raise AssertionError(f"Tab never reached {css} on step {self.step()}")

    def key_to_navigate(self, *keys):
        """Sends keys to the focused element and waits for the page they lead to."""
        mark_page(self.driver)
        self.key(*keys)
        wait_for_new_page(self.driver)
