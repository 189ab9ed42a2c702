"""Active tasks in a real browser, driven through the DevTools protocol's input events with given positions and
timestamps: the stored samples must carry those positions, and the intervals between them within 1 ms; a task page
is cross-origin isolated, passes axe, and stays under its weight budget.

A task's page moves by its own clock (a countdown ends, a reaction trial times out, a digit's window closes, a
tapping test ends five seconds after its first tap). So that a test slowed by a loaded machine never loses a race with
that clock, each page's time is held (studypages `control_page_time`) while the test reads and checks it and while it
sends input that must arrive within a window; the test lets it run when the page itself shows that it may. Waits on
the wall clock are only ceilings (WAIT), and `wait_until`, which keeps an event from being sent before its own stamp
where a stimulus shown in real time must come after it."""
import json
import sqlite3
import time

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from conftest import ROOT, TIMING_ERRORS, start_server
from studypages import (Participant, WAIT, click_to_navigate, control_page_time, first_frame_shown, hold_page_time,
                        release_page_time, wait_for_new_page)

TAPPING_STUDY = ROOT / "tests" / "browser" / "studies" / "tapping"


@pytest.fixture
def tapping_server(workdir):
    s = start_server(TAPPING_STUDY, workdir / "data")
    yield s
    s.stop()


@pytest.fixture(autouse=True)
def held_page_time(browser):
    """Every page of the test's browser starts with its own time held (see the module's docstring)."""
    control_page_time(browser.driver)


def timing_error(task, measured, given):
    """Records measured − given (seconds) for the session's summary, in ms, and returns its size in seconds."""
    TIMING_ERRORS.setdefault(task, []).append(1000 * (measured - given))
    return abs(measured - given)


def wait_for_step(me, step, timeout=WAIT):
    """Waits for the page of `step` (or of any of a tuple of steps); when it does not come, fails with the page on
    screen (a refusal says why)."""
    steps = [step] if isinstance(step, str) else list(step)
    try:
        WebDriverWait(me.driver, timeout).until(lambda d: d.execute_script(
            "const s = document.querySelector('input[name=_step]'); return document.readyState === 'complete' && !!s && arguments[0].includes(s.value)",
            steps))
    except Exception:
        raise AssertionError(f"no page of step {step!r}; on screen: {me.driver.execute_script('return document.body.innerText')[:600]!r}")


def past_countdown(me, step):
    """From the countdown before `step` (or `step` itself): lets the countdown run, whose page's time is held until
    then, and waits for the page of `step`, whose time is held in turn."""
    countdown = f"countdown.{step}"
    wait_for_step(me, (countdown, step))
    if me.step() == countdown:
        release_page_time(me.driver)
        wait_for_step(me, step, timeout=WAIT + 5)


def begin(server, browser, title, step, watch=None):
    """A new participant, onboarded, on the page of the active step `step` of the task titled `title`, past its
    countdown. The script `watch` (a watcher of what the page shows) is run on the page before its time runs, so it
    misses nothing the page shows."""
    me = Participant(server, browser).join()
    me.onboard_every_format()
    me.start_survey(title)
    past_countdown(me, step)
    if watch:
        me.driver.execute_script(watch)
    release_page_time(me.driver)
    first_frame_shown(me.driver)
    return me


def centres(driver, css, key):
    """The viewport centre of each element matching `css`, by its `data-KEY` attribute."""
    return driver.execute_script("""
        const out = {};
        for (const e of document.querySelectorAll(arguments[0])) { const r = e.getBoundingClientRect(); out[e.dataset[arguments[1]]] = [r.left + r.width / 2, r.top + r.height / 2]; }
        return out;""", css, key)


def tapping_geometry(driver):
    """The tapping area's and buttons' rectangles in the viewport, once the buttons are shown."""
    WebDriverWait(driver, WAIT).until(lambda d: d.execute_script("return !!document.querySelector('.tap-area.shown')"))
    return driver.execute_script("""
        const r = e => { const b = e.getBoundingClientRect(); return {x: b.left, y: b.top, width: b.width, height: b.height}; };
        return {area: r(document.querySelector('.tap-area')), targets: [...document.querySelectorAll('.tap-target')].map(r)};""")


def tap(driver, x, y, at, hold=0.05):
    """A mouse press and release at viewport (x, y), stamped `at` and `at + hold` (seconds since the epoch)."""
    for kind, stamp in (("mousePressed", at), ("mouseReleased", at + hold)):
        driver.execute_cdp_cmd("Input.dispatchMouseEvent", {"type": kind, "x": x, "y": y, "button": "left", "clickCount": 1,
                                                            "timestamp": stamp})


def page_clock(driver):
    """The page's clock in seconds since the epoch: what input event timestamps are compared with."""
    return driver.execute_script("return (performance.timeOrigin + performance.now()) / 1000")


def wait_until(driver, stamp):
    """Waits until the page's clock reaches `stamp`, so that an event stamped then is not sent from the future: the
    page's next stimulus, shown in real time, then comes after it, as it would for a person."""
    while (left := stamp - page_clock(driver)) > 0:
        time.sleep(left)


def stored_result(server, task):
    with sqlite3.connect(f"file:{server.data / 'study.sqlite'}?mode=ro", uri=True) as db:
        row = db.execute("SELECT result FROM taskRun WHERE taskID = ? AND result IS NOT NULL", (task,)).fetchone()
    assert row, f"no finished run of {task}"
    return json.loads(row[0])


def active_result(result, step):
    for step_result in result["stepResults"]:
        if step_result["identifier"] == step:
            for item in step_result["results"]:
                if item["kind"] == "active":
                    return item
    raise AssertionError(f"no active result for {step}")


def test_two_finger_tapping_keeps_the_positions_and_intervals_the_browser_was_given(tapping_server, browser):
    me = Participant(tapping_server, browser).join()
    me.onboard_every_format()
    me.start_survey("Two-finger tapping")
    assert me.step() == "instruction"
    me.page()
    me.next()
    assert me.step() == "instruction1"
    me.next()
    assert me.step() == "countdown.tapping.right"
    release_page_time(me.driver, frames=1)  # the countdown's first frame shows its seconds; then it is held again
    assert me.field(".countdown").text
    me.page()
    past_countdown(me, "tapping.right")
    label, status = me.browser.check_page()
    assert status == 200
    isolated = me.driver.execute_script("return self.crossOriginIsolated")
    assert isolated, "the tapping page is not cross-origin isolated"

    release_page_time(me.driver)
    geometry = tapping_geometry(me.driver)
    area, (left, right) = geometry["area"], geometry["targets"]
    centre = lambda r, dx=0: (r["x"] + r["width"] / 2 + dx, r["y"] + r["height"] / 2)
    # Twelve taps in turn, 180 to 290 ms apart, a little off centre, and one touch beside the buttons.
    gaps = [0.180, 0.210, 0.250, 0.190, 0.230, 0.290, 0.200, 0.220, 0.240, 0.185, 0.260]
    start = time.time()
    stamps = [start]
    for gap in gaps:
        stamps.append(stamps[-1] + gap)
    planned = []
    for index, stamp in enumerate(stamps):
        x, y = centre(left if index % 2 == 0 else right, dx=(index % 3) - 1)
        planned.append((x, y, stamp, "left" if index % 2 == 0 else "right"))
    off = (area["x"] + area["width"] / 2, area["y"] + 10, stamps[5] + 0.05, "none")
    planned.insert(6, off)
    # The taps reach the page while its time is held: its end (5 s after the first tap) cannot come between them.
    hold_page_time(me.driver)
    for x, y, stamp, _ in planned:
        tap(me.driver, x, y, stamp)
    release_page_time(me.driver)
    # The step ends by itself 5 s after the first tap and moves on to the conclusion.
    wait_for_new_page(me.driver, timeout=WAIT)
    wait_for_step(me, "conclusion")
    assert me.status() == 200
    me.page()
    text = me.main_text()
    assert "Your results" in text and "Taps on the buttons" in text

    me.next()
    result = active_result(stored_result(tapping_server, "tapping"), "tapping.right")
    assert result["complete"] is True
    samples = result["samples"]["samples"]
    assert [s["buttonIdentifier"] for s in samples] == [p[3] for p in planned]
    for sample, (x, y, _, _) in zip(samples, planned):
        assert abs(sample["location"]["x"] - (x - area["x"])) < 0.01 and abs(sample["location"]["y"] - (y - area["y"])) < 0.01
    for index in range(1, len(samples)):
        given = planned[index][2] - planned[index - 1][2]
        measured = samples[index]["timestamp"] - samples[index - 1]["timestamp"]
        assert timing_error("tapping", measured, given) < 0.001, f"interval {index}: {measured * 1000:.3f} ms measured, {given * 1000:.3f} ms given"
    for sample in samples:
        assert abs(sample["duration"] - 0.05) < 0.001
    measures = {m["identifier"]: m["value"] for m in result["measures"]}
    on_target = [p[2] for p in planned if p[3] != "none"]
    intervals = [1000 * (b - a) for a, b in zip(on_target, on_target[1:])]
    assert measures["tapCount"] == 12 and measures["offTargetCount"] == 1
    assert abs(measures["meanInterval"] - sum(intervals) / len(intervals)) < 1
    assert abs(measures["accuracy"] - 100 * 12 / 13) < 1e-6
    # The outcome on the day's event carries the mapped measures (study.yaml's outcome), and the card shows it done.
    with sqlite3.connect(f"file:{tapping_server.data / 'study.sqlite'}?mode=ro", uri=True) as db:
        values = dict(db.execute("SELECT v.kind, v.value FROM outcomeValue v JOIN outcome o ON v.outcomeID = o.id "
                                 "WHERE o.deletedDate IS NULL AND v.kind IN ('tapInterval', 'taps')").fetchall())
    assert set(values) == {"tapInterval", "taps"}
    assert abs(float(values["tapInterval"]) - measures["meanInterval"]) < 1e-6 and float(values["taps"]) == 12
    card = [c for c in me.driver.find_elements(By.CSS_SELECTOR, "main li.card") if c.find_element(By.TAG_NAME, "h2").text == "Two-finger tapping"]
    assert card and card[0].find_elements(By.CSS_SELECTOR, "p.completed")


def test_a_tapping_test_stopped_early_keeps_its_samples_and_makes_up_no_score(tapping_server, browser):
    me = Participant(tapping_server, browser).join()
    me.onboard_every_format()
    me.start_survey("Tapping speed")
    # excludeInstructions: the countdown comes first.
    assert me.step() == "countdown.tapping.right"
    past_countdown(me, "tapping.right")
    release_page_time(me.driver)
    geometry = tapping_geometry(me.driver)
    (only,) = geometry["targets"]
    # Held: the test's own end (5 s after the first tap) cannot come before Stop is pressed.
    hold_page_time(me.driver)
    now = time.time()
    for index in range(3):
        tap(me.driver, only["x"] + only["width"] / 2, only["y"] + only["height"] / 2, now + 0.15 * index)
    me.driver.find_element(By.CSS_SELECTOR, ".tap-bar button").click()
    wait_for_step(me, "conclusion")
    assert "Stopped before the end: no score for this part." in me.main_text()
    shown = [dd.text for dd in me.driver.find_elements(By.CSS_SELECTOR, "main dl.measures dd")]
    assert shown and set(shown) == {"–"}, f"a stopped test shows a score: {shown}"
    me.next()
    result = active_result(stored_result(tapping_server, "speed"), "tapping.right")
    assert result["complete"] is False
    assert len(result["samples"]["samples"]) == 3
    assert all(m["value"] is None for m in result["measures"])


# Records, in the page, the time of the animation frame in which the stimulus was made visible: a MutationObserver's
# callback runs as a microtask right after the frame callback that changed the class, and document.timeline.currentTime
# is that frame's timestamp. And holds the page's time there: the trial's timeout (3 s after the onset, on the page's
# frames) cannot end it before the test has let go and tapped, however slow the test is; at most the frame already
# asked for runs, 3 s short of the timeout.
_WATCH_STIMULUS = """
window.studykitOnsets = [];
new MutationObserver(() => {
  const shown = document.querySelector('.stimulus.shown');
  if (shown && window.studykitOnsets.length === window.studykitSeen) {
    window.studykitClock.hold();
    window.studykitOnsets.push(performance.timeOrigin + document.timeline.currentTime);
  }
  if (!shown) window.studykitSeen = window.studykitOnsets.length;
}).observe(document.querySelector('.stimulus'), {attributes: true});
window.studykitSeen = 0;
"""


def onsets_seen(driver, trial):
    """How many stimulus onsets the watcher has seen; fails with the page on screen when the page was replaced (the
    watcher lives in the document), with what replaced it. On CI's two loaded cores the page once ended trial 2 as a
    let-go before its onset and moved on: a frame loop of trial 1 had carried on into trial 2 (see the test)."""
    seen = driver.execute_script("return window.studykitOnsets ? window.studykitOnsets.length : -1")
    if seen < 0:
        on_screen = driver.execute_script(
            "const s = document.querySelector('input[name=_step]'); return [s ? s.value : null, document.body.innerText.slice(0, 400)]")
        raise AssertionError(f"the reaction time page was replaced during trial {trial + 1}: now step {on_screen[0]!r}, {on_screen[1]!r}")
    return seen


def test_reaction_time_reports_a_known_delay_between_the_stimulus_frame_and_the_release(tapping_server, browser):
    me = Participant(tapping_server, browser).join()
    me.onboard_every_format()
    me.start_survey("Reaction time")
    me.next()
    me.next()
    past_countdown(me, "reactionTime")
    me.driver.execute_script(_WATCH_STIMULUS)
    release_page_time(me.driver)
    WebDriverWait(me.driver, WAIT).until(lambda d: d.execute_script("return !!document.querySelector('.tap-area.shown')"))
    me.browser.check_page()
    rects = me.driver.execute_script("""
        const r = e => { const b = e.getBoundingClientRect(); return {x: b.left + b.width / 2, y: b.top + b.height / 2}; };
        return {hold: r(document.querySelector('.hold')), stimulus: r(document.querySelector('.stimulus'))};""")
    delays = [0.280, 0.350]

    def press_hold(at):
        me.driver.execute_cdp_cmd("Input.dispatchMouseEvent", {"type": "mousePressed", "button": "left", "clickCount": 1,
                                                               "x": rects["hold"]["x"], "y": rects["hold"]["y"], "timestamp": at})
    press_hold(page_clock(me.driver))
    for index, delay in enumerate(delays):
        WebDriverWait(me.driver, WAIT).until(lambda d: onsets_seen(d, index) > index)
        onset = me.driver.execute_script(f"return window.studykitOnsets[{index}]") / 1000
        wait_until(me.driver, onset + delay)
        me.driver.execute_cdp_cmd("Input.dispatchMouseEvent", {"type": "mouseReleased", "button": "left", "clickCount": 1,
                                                               "x": rects["hold"]["x"], "y": rects["hold"]["y"], "timestamp": onset + delay})
        for kind in ("mousePressed", "mouseReleased"):
            me.driver.execute_cdp_cmd("Input.dispatchMouseEvent", {"type": kind, "button": "left", "clickCount": 1, "x": rects["stimulus"]["x"],
                                                                   "y": rects["stimulus"]["y"], "timestamp": onset + delay + 0.2})
        if index + 1 < len(delays):
            assert me.driver.execute_script("return !document.querySelector('.stimulus.shown')"), "the tap on the circle did not end the trial"
            # The next trial's hold begins before the page has run another frame (its time is still held), as when a
            # participant presses again at once or a slow phone's frames lag: the frame loop of the trial just ended
            # must leave the new one alone. Such a loop once took the new trial's missing onset for time zero and, the
            # page being open over 3 s (the timeout), ended it at once as a let-go; the page had its 2 trials and moved
            # on ("the reaction time page was replaced during trial 2"), whenever a frame came late on loaded cores.
            # Here the page is over 3 s old when its time runs again, so that loop would always do it.
            wait_until(me.driver, me.driver.execute_script("return performance.timeOrigin") / 1000 + 3.05)
            press_hold(max(page_clock(me.driver), onset + delay + 0.25))  # input times only go forward
            release_page_time(me.driver)
    wait_for_step(me, "conclusion")
    assert "Average reaction time" in me.main_text()
    me.next()
    result = active_result(stored_result(tapping_server, "reaction"), "reactionTime")
    trials = result["samples"]["trials"]
    assert [t["outcome"] for t in trials] == ["hit", "hit"]
    frame = 1 / 60
    for trial, delay in zip(trials, delays):
        measured = trial["release"] - trial["stimulusStart"]
        assert timing_error("reactionTime", measured, delay) < frame, f"{measured * 1000:.2f} ms reported for a {delay * 1000:.0f} ms delay"
        assert abs(trial["reaction"] - trial["release"] - 0.2) < 0.001
        assert 1 <= trial["currentInterval"] <= 1.5
    measures = {m["identifier"]: m["value"] for m in result["measures"]}
    assert measures["hits"] == 2 and measures["anticipations"] == 0
    assert abs(measures["meanReactionTime"] - 1000 * sum(delays) / 2) < 1000 * frame


_WATCH_WORD = """
window.studykitWords = [];
new MutationObserver(() => {
  const word = document.querySelector('.stroop-word');
  // document.timeline.currentTime is the current animation frame's timestamp: the onset as the page defines it.
  if (word.textContent) window.studykitWords.push({at: performance.timeOrigin + document.timeline.currentTime, text: word.textContent, ink: word.style.color});
}).observe(document.querySelector('.stroop-word'), {childList: true, characterData: true, subtree: true});
"""
INKS = {"rgb(239, 83, 80)": "red", "rgb(102, 187, 106)": "green", "rgb(66, 165, 245)": "blue", "rgb(255, 238, 88)": "yellow"}
WORDS = {"RED": "red", "GREEN": "green", "BLUE": "blue", "YELLOW": "yellow"}


def test_stroop_times_each_answer_from_the_word_s_frame(tapping_server, browser):
    me = begin(tapping_server, browser, "Stroop", "stroop", watch=_WATCH_WORD)
    me.browser.check_page()
    buttons = centres(me.driver, ".stroop-buttons button", "color")
    answered = []
    delays = [0.420, 0.610, 0.530, 0.700]
    for index, delay in enumerate(delays):
        WebDriverWait(me.driver, WAIT).until(lambda d: d.execute_script("return window.studykitWords.length") > index)
        shown = me.driver.execute_script(f"return window.studykitWords[{index}]")
        ink = INKS[shown["ink"]]
        wait_until(me.driver, shown["at"] / 1000 + delay)
        choice = ink if index != 2 else next(c for c in buttons if c != ink)  # the third answer is wrong
        x, y = buttons[choice]
        for kind in ("mousePressed", "mouseReleased"):
            me.driver.execute_cdp_cmd("Input.dispatchMouseEvent", {"type": kind, "button": "left", "clickCount": 1, "x": x, "y": y,
                                                                   "timestamp": shown["at"] / 1000 + delay})
        answered.append((WORDS[shown["text"]], ink, choice))
    wait_for_step(me, "conclusion")
    me.next()
    result = active_result(stored_result(tapping_server, "stroop"), "stroop")
    attempts = result["samples"]["attempts"]
    assert [(a["text"], a["color"], a["colorSelected"]) for a in attempts] == answered
    for attempt, delay in zip(attempts, delays):
        assert timing_error("stroop", attempt["endTime"] - attempt["startTime"], delay) < 0.001
    measures = {m["identifier"]: m["value"] for m in result["measures"]}
    assert measures["correct"] == 3 and measures["accuracy"] == 75


_WATCH_SQUARES = """
window.studykitLit = [];
const squares = [...document.querySelectorAll('.span-target')];
new MutationObserver((records) => {
  for (const record of records) if (record.target.classList.contains('lit')) window.studykitLit.push(squares.indexOf(record.target));
}).observe(document.querySelector('.span-board'), {attributes: true, subtree: true, attributeFilter: ['class']});
"""


def test_spatial_span_follows_the_sequences_shown_and_its_rules(tapping_server, browser):
    me = begin(tapping_server, browser, "Spatial memory", "spatialSpan", watch=_WATCH_SQUARES)
    me.browser.check_page()
    centres = me.driver.execute_script("""
        return [...document.querySelectorAll('.span-target')].map(e => { const r = e.getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; });""")
    shown_so_far, played = 0, []
    for game, span in enumerate((2, 3, 2)):
        # The page's turn to play is over when it takes input again and has lit this game's squares.
        WebDriverWait(me.driver, WAIT).until(lambda d: d.execute_script(
            "return document.querySelector('.span-board.input') !== null && window.studykitLit.length >= arguments[0]", shown_so_far + span))
        lit = me.driver.execute_script("return window.studykitLit")[shown_so_far:shown_so_far + span]
        shown_so_far += span
        assert len(lit) == span and len(set(lit)) == span
        taps = lit if game != 1 else [lit[0], next(i for i in range(9) if i not in lit)]  # the second game goes wrong at its second touch
        start = page_clock(me.driver)
        for index, target in enumerate(taps):
            x, y = centres[target]
            wait_until(me.driver, start + 0.3 * index)
            for kind in ("mousePressed", "mouseReleased"):
                me.driver.execute_cdp_cmd("Input.dispatchMouseEvent", {"type": kind, "button": "left", "clickCount": 1, "x": x, "y": y,
                                                                       "timestamp": start + 0.3 * index})
        played.append((lit, taps))
    wait_for_step(me, "conclusion")
    assert "Longest sequence remembered" in me.main_text()
    me.next()
    result = active_result(stored_result(tapping_server, "span"), "spatialSpan")
    records = result["samples"]["gameRecords"]
    assert [(r["sequence"], [t["targetIndex"] for t in r["touchSamples"]]) for r in records] == played
    assert [r["gameStatus"] for r in records] == ["success", "failure", "success"]
    for record in records:
        times = [t["timestamp"] for t in record["touchSamples"]]
        assert all(timing_error("spatialSpan", b - a, 0.3) < 0.001 for a, b in zip(times, times[1:]))
    measures = {m["identifier"]: m["value"] for m in result["measures"]}
    assert measures == {"score": 4, "maximumSpan": 2, "numberOfGames": 3, "numberOfFailures": 1}


def crosses(p, q, r, s):
    """Whether segment p–q properly crosses segment r–s."""
    def side(a, b, c):
        return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
    return side(p, q, r) * side(p, q, s) < 0 and side(r, s, p) * side(r, s, q) < 0


def assert_trail_is_drawable(driver, circles):
    """The layout a participant gets: no circle covers another, and the trail in order never crosses itself."""
    diameter = driver.execute_script("return document.querySelector('.trail-circle').getBoundingClientRect().width")
    points = [(x, y) for _, x, y in circles]
    for i, a in enumerate(points):
        for j, b in enumerate(points[i + 1:], i + 1):
            assert ((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2) ** 0.5 > diameter, f"circles {circles[i][0]} and {circles[j][0]} overlap"
    segments = list(zip(points, points[1:]))
    for i, (p, q) in enumerate(segments):
        for j, (r, s) in enumerate(segments[i + 2:], i + 2):
            assert not crosses(p, q, r, s), f"the trail crosses itself: {circles[i][0]}–{circles[i + 1][0]} and {circles[j][0]}–{circles[j + 1][0]}"


def test_trail_making_b_counts_wrong_circles_and_times_the_trail(tapping_server, browser):
    me = begin(tapping_server, browser, "Trail making", "trailMaking")
    WebDriverWait(me.driver, WAIT).until(lambda d: d.execute_script("return !!document.querySelector('.tap-area.shown')"))
    me.browser.check_page()
    circles = me.driver.execute_script("""
        return [...document.querySelectorAll('.trail-circle')].map(e => { const r = e.getBoundingClientRect(); return [e.textContent, r.left + r.width / 2, r.top + r.height / 2]; });""")
    assert [c[0] for c in circles] == ["1", "A", "2", "B", "3", "C", "4", "D", "5", "E", "6", "F", "7"]
    assert_trail_is_drawable(me.driver, circles)
    order = list(range(13))
    order.insert(4, 9)  # circle "E" tapped when "3" was next: a wrong circle
    start = page_clock(me.driver) + 0.1
    for position, index in enumerate(order):
        _, x, y = circles[index]
        wait_until(me.driver, start + 0.25 * position)
        for kind in ("mousePressed", "mouseReleased"):
            me.driver.execute_cdp_cmd("Input.dispatchMouseEvent", {"type": kind, "button": "left", "clickCount": 1, "x": x, "y": y,
                                                                   "timestamp": start + 0.25 * position})
    wait_for_step(me, "conclusion")
    assert "Wrong circles tapped" in me.main_text()
    me.next()
    result = active_result(stored_result(tapping_server, "trails"), "trailMaking")
    taps = result["samples"]["taps"]
    assert [t["index"] for t in taps] == order
    assert [t["incorrect"] for t in taps] == [position == 4 for position in range(14)]
    assert all(timing_error("trailMaking", b["timestamp"] - a["timestamp"], 0.25) < 0.001 for a, b in zip(taps, taps[1:]))
    measures = {m["identifier"]: m["value"] for m in result["measures"]}
    assert measures["numberOfErrors"] == 1 and abs(measures["totalTime"] - taps[-1]["timestamp"]) < 1e-9


def test_tower_of_hanoi_keeps_its_legal_moves_timed_from_the_first(tapping_server, browser):
    me = begin(tapping_server, browser, "Tower of Hanoi", "towerOfHanoi")
    me.browser.check_page()
    towers = me.driver.execute_script("""
        return [...document.querySelectorAll('.hanoi-tower')].map(e => { const r = e.getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; });""")
    # Two disks: 0 → 1, then the larger disk tried onto the smaller (refused; tower 0 stays picked), 0 → 2, 1 → 2.
    clicks = [0, 1, 0, 1, 2, 1, 2]
    start = page_clock(me.driver) + 0.1
    stamps = [start + 0.4 * index for index in range(len(clicks))]
    for tower, stamp in zip(clicks, stamps):
        wait_until(me.driver, stamp)
        x, y = towers[tower]
        for kind in ("mousePressed", "mouseReleased"):
            me.driver.execute_cdp_cmd("Input.dispatchMouseEvent", {"type": kind, "button": "left", "clickCount": 1, "x": x, "y": y, "timestamp": stamp})
    wait_for_step(me, "conclusion")
    me.next()
    result = active_result(stored_result(tapping_server, "hanoi"), "towerOfHanoi")
    moves = result["samples"]["moves"]
    assert [(m["donorTowerIndex"], m["recipientTowerIndex"]) for m in moves] == [(0, 1), (0, 2), (1, 2)]
    given = [0, stamps[4] - stamps[1], stamps[6] - stamps[1]]
    assert all(timing_error("towerOfHanoi", m["timestamp"], g) < 0.001 for m, g in zip(moves, given))
    assert result["samples"]["puzzleWasSolved"] is True
    measures = {m["identifier"]: m["value"] for m in result["measures"]}
    assert measures["numberOfMoves"] == 3 and measures["extraMoves"] == 0


_WATCH_DIGITS = """
window.studykitDigits = [];
new MutationObserver(() => {
  const text = document.querySelector('.psat-digit').textContent;
  if (/^[0-9]$/.test(text)) {
    window.studykitClock.hold();  // the digit's window stays open until the test has answered and lets the page's time run
    window.studykitDigits.push({digit: Number(text), at: performance.timeOrigin + document.timeline.currentTime});
  }
}).observe(document.querySelector('.psat-digit'), {childList: true, characterData: true, subtree: true});
"""


def test_psat_takes_each_sum_in_its_digit_s_window(tapping_server, browser):
    me = begin(tapping_server, browser, "Adding digits", "psat", watch=_WATCH_DIGITS)
    # The first digit shows in the page's first frame, for the whole interval (the study shows each digit that long).
    WebDriverWait(me.driver, WAIT).until(lambda d: d.execute_script("return window.studykitDigits.length") > 0)
    first = me.driver.execute_script("return window.studykitDigits[0].digit")
    assert me.driver.execute_script("return Number(document.querySelector('.psat-digit').textContent)") == first
    me.browser.check_page()
    keys = centres(me.driver, ".psat-keys button", "sum")
    previous, answered = first, []
    # Held since the last digit showed, the page goes on to the next; the test is told of it by the page itself (no
    # polling) and answers at once, its key stamped `delay` after the digit's frame, while the page is held again, so
    # the answer always lands in its digit's window. The pace is the page's real time, which a hold cannot stop, and
    # the server refuses an onset more than 0.25 s off it: a hold that outlasted the rest of the window (1.5 s less the
    # delay) by that much would fail the test, so the answer is not held back until its stamp (it is sent stamped ahead,
    # as the tapping test's taps are; the next digit still comes after it).
    next_digit = """
        const [index, done] = [arguments[0], arguments[arguments.length - 1]];
        window.studykitClock.release();
        const look = () => window.studykitDigits.length > index ? done(window.studykitDigits[index]) : setTimeout(look, 2);
        look();"""
    for index in range(10):
        shown = me.driver.execute_async_script(next_digit, index + 1)
        total = previous + shown["digit"]
        if index == 3:  # the fourth answer is wrong
            total += 1 if total < 17 else -1
        delay = 0.35 + 0.05 * index
        x, y = keys[str(total)]
        for kind in ("mousePressed", "mouseReleased"):
            me.driver.execute_cdp_cmd("Input.dispatchMouseEvent", {"type": kind, "button": "left", "clickCount": 1, "x": x, "y": y,
                                                                   "timestamp": shown["at"] / 1000 + delay})
        answered.append((shown["digit"], total, delay))
        previous = shown["digit"]
    frames, seen = me.driver.execute_script("return [window.studykitClock.frameTimes, window.studykitDigits]")
    release_page_time(me.driver)
    wait_for_step(me, "conclusion", timeout=WAIT + 5)
    me.next()
    result = active_result(stored_result(tapping_server, "psat"), "psat")
    stored = result["samples"]
    assert stored["initialDigit"] == first
    assert [(s["digit"], s["answer"]) for s in stored["samples"]] == [(d, t) for d, t, _ in answered]
    assert all(timing_error("psat", s["time"], delay) < 0.001 for s, (_, _, delay) in zip(stored["samples"], answered))
    # Each digit is presented on the pace: in the first frame the page ran at or after its time (1.5 s times its place
    # after the first digit's frame), and that frame's time is its onset, as the watcher saw it. On a loaded machine
    # that frame may come late (frames lag, or the page's time was held a little past the pace), never early.
    origin = frames[0]
    for place, sample in enumerate(stored["samples"], 1):
        frame = next(f for f in frames if f - origin >= place * 1500)
        assert abs(sample["onset"] - (frame - origin) / 1000) < 1e-5, f"digit {place}: onset {sample['onset']} s, first frame on the pace {(frame - origin) / 1000} s"
        assert abs(sample["onset"] - (seen[place]["at"] - seen[0]["at"]) / 1000) < 1e-5
    measures = {m["identifier"]: m["value"] for m in result["measures"]}
    assert measures["totalCorrect"] == 9 and measures["totalDyad"] == 7


def test_amsler_grid_keeps_each_eye_s_marks(tapping_server, browser):
    me = begin(tapping_server, browser, "Amsler grid", "amslerGrid.left")
    me.browser.check_page()
    grid = me.driver.execute_script("const r = document.querySelector('canvas.amsler').getBoundingClientRect(); return [r.left, r.top, r.width];")
    left, top, side = grid
    start = page_clock(me.driver) + 0.1
    # One mark: down at a quarter of the way across, along to three quarters, up; 50 ms between events.
    points = [(0.25 + 0.05 * i, 0.5) for i in range(11)]
    for index, (fx, fy) in enumerate(points):
        kind = "mousePressed" if index == 0 else "mouseMoved"
        me.driver.execute_cdp_cmd("Input.dispatchMouseEvent", {"type": kind, "button": "left", "buttons": 1, "clickCount": 1,
                                                               "x": left + fx * side, "y": top + fy * side, "timestamp": start + 0.05 * index})
    me.driver.execute_cdp_cmd("Input.dispatchMouseEvent", {"type": "mouseReleased", "button": "left", "clickCount": 1,
                                                           "x": left + 0.75 * side, "y": top + 0.5 * side, "timestamp": start + 0.55})
    wait_until(me.driver, start + 0.6)
    me.driver.find_element(By.CSS_SELECTOR, ".tap-bar button.primary").click()
    wait_for_step(me, "instruction2")
    me.next()
    wait_for_step(me, "amslerGrid.right")
    me.driver.find_element(By.CSS_SELECTOR, ".tap-bar button.primary").click()  # nothing seen with the right eye
    wait_for_step(me, "conclusion")
    me.next()
    stored = stored_result(tapping_server, "amsler")
    marked = active_result(stored, "amslerGrid.left")
    (path,) = marked["samples"]["paths"]
    assert [(round(p["x"] / side, 3), round(p["y"] / side, 3)) for p in path] == [(round(x, 3), round(y, 3)) for x, y in points]
    assert all(timing_error("amslerGrid", b["t"] - a["t"], 0.05) < 0.001 for a, b in zip(path, path[1:]))
    area = {m["identifier"]: m["value"] for m in marked["measures"]}["markedArea"]
    assert 2 < area < 3.5, area  # half the grid's width, five rows of cells thick
    clear = active_result(stored, "amslerGrid.right")
    assert clear["samples"]["paths"] == [] and {m["identifier"]: m["value"] for m in clear["measures"]}["markedArea"] == 0


_touches = iter(range(1, 1_000_000, 2))


def pinch_drag(driver, start, end, at, steps=5, duration=0.25):
    """Two fingers 30 px apart put down at `start`, moved together to `end` and lifted, stamped from `at` on. Each
    gesture's fingers have ids of their own: a gesture whose end the page answered by moving on must not leave the
    next page's first touch looking like one already down."""
    first = next(_touches)

    def points(x, y):
        return [{"x": x - 15, "y": y, "id": first}, {"x": x + 15, "y": y, "id": first + 1}]
    driver.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": points(*start), "timestamp": at})
    for index in range(1, steps + 1):
        f = index / steps
        x, y = start[0] + (end[0] - start[0]) * f, start[1] + (end[1] - start[1]) * f
        driver.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": points(x, y), "timestamp": at + duration * f})
    driver.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": [], "timestamp": at + duration + 0.01})


def mouse_drag(driver, start, end, at=None, steps=5):
    """A mouse pressed at `start`, moved to `end` and released, as the events are sent (not stamped)."""
    driver.execute_cdp_cmd("Input.dispatchMouseEvent", {"type": "mousePressed", "button": "left", "buttons": 1, "clickCount": 1,
                                                        "x": start[0], "y": start[1]})
    for index in range(1, steps + 1):
        f = index / steps
        driver.execute_cdp_cmd("Input.dispatchMouseEvent", {"type": "mouseMoved", "button": "left", "buttons": 1,
                                                            "x": start[0] + (end[0] - start[0]) * f, "y": start[1] + (end[1] - start[1]) * f})
    driver.execute_cdp_cmd("Input.dispatchMouseEvent", {"type": "mouseReleased", "button": "left", "clickCount": 1, "x": end[0], "y": end[1]})


def peg_geometry(driver):
    return driver.execute_script("""
        const c = e => { const r = e.getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2, r.width]; };
        const target = document.querySelector('.hole, .peg-line');
        return {peg: c(document.querySelector('.peg')), target: c(target)};""")


def test_hole_peg_moves_pegs_with_two_fingers(tapping_server, browser):
    me = Participant(tapping_server, browser).join()
    me.onboard_every_format()
    me.start_survey("Peg test")
    for step, action in (("hole.peg.test.dominant.place", "place"), ("hole.peg.test.dominant.remove", "remove"),
                         ("hole.peg.test.non.dominant.place", "place"), ("hole.peg.test.non.dominant.remove", "remove")):
        past_countdown(me, step)
        release_page_time(me.driver)
        WebDriverWait(me.driver, WAIT).until(lambda d: d.execute_script("return !!document.querySelector('.tap-area.shown')"))
        if step == "hole.peg.test.dominant.place":
            me.browser.check_page()
        g = peg_geometry(me.driver)
        peg, target = g["peg"], g["target"]
        if action == "place":
            goals = [(target[0] - peg[2], target[1]), (target[0] + 3, target[1] - 2), (target[0], target[1])]  # short, then two in
        else:
            past = target[0] + peg[2] if peg[0] < target[0] else target[0] - peg[2]
            goals = [(past, peg[1]), (past, peg[1] + 20)]
        start = page_clock(me.driver) + 0.1
        # Touches sent through chromedriver reach only the first page that took touches (the step pages after it are
        # loaded by the module's own post); the later steps are driven with the mouse, which the page takes on a computer.
        drag = pinch_drag if step == "hole.peg.test.dominant.place" else mouse_drag
        # Held: the step's time limit (from the first grip, on the page's frames) cannot end it between the drags; its
        # last drag ends it, and the next step's page starts held again.
        hold_page_time(me.driver)
        for index, goal in enumerate(goals):
            wait_until(me.driver, start + 0.5 * index)
            drag(me.driver, (peg[0], peg[1]), goal, start + 0.5 * index)
    wait_for_step(me, "conclusion")
    me.next()
    stored = stored_result(tapping_server, "pegs")
    placed = active_result(stored, "hole.peg.test.dominant.place")
    attempts = placed["samples"]["attempts"]
    assert [a["success"] for a in attempts] == [False, True, True]
    assert all(timing_error("holePeg", a["end"] - a["start"], 0.26) < 0.001 for a in attempts)
    assert all(timing_error("holePeg", b["start"] - a["start"], 0.5) < 0.001 for a, b in zip(attempts, attempts[1:]))
    measures = {m["identifier"]: m["value"] for m in placed["measures"]}
    assert measures["totalSuccesses"] == 2 and measures["totalFailures"] == 1
    assert abs(measures["totalTime"] - (attempts[-1]["end"] - attempts[0]["start"])) < 1e-6
    removed = active_result(stored, "hole.peg.test.dominant.remove")
    assert [a["success"] for a in removed["samples"]["attempts"]] == [True, True]


def test_an_active_task_speaks_the_participant_s_language(tapping_server, browser):
    me = Participant(tapping_server, browser).join()
    me.open("/settings")
    me.choose("日本語")
    click_to_navigate(me.driver, me.field("section[aria-labelledby=language-title] button[type=submit]"))
    me.open("/")
    me.onboard_every_format()
    me.start_survey("Stroop")
    assert me.step() == "countdown.stroop"
    assert me.h1() == "準備してください"
    past_countdown(me, "stroop")
    me.driver.execute_script(_WATCH_WORD)
    release_page_time(me.driver)
    me.browser.check_page()
    assert me.h1() == "色と文字"
    assert [b.text for b in me.driver.find_elements(By.CSS_SELECTOR, ".stroop-buttons button")] == ["あか", "みどり", "あお", "きいろ"]
    for index in range(4):
        WebDriverWait(me.driver, WAIT).until(lambda d: d.execute_script("return window.studykitWords.length") > index)
        assert me.driver.execute_script(f"return window.studykitWords[{index}].text") in ("あか", "みどり", "あお", "きいろ")
        assert "回中" in me.field(".tap-bar span").text
        me.driver.find_elements(By.CSS_SELECTOR, ".stroop-buttons button")[index].click()
    wait_for_step(me, "conclusion")
    me.browser.check_page()
    text = me.main_text()
    assert me.h1() == "おつかれさまでした" and "あなたの結果" in text and "正解数" in text
    for english in ("All done", "Your results", "Correct answers", "Colour words", "Tap the colour"):
        assert english not in text, f"{english!r} on a Japanese page"
