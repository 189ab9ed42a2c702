"""Active tasks in a real browser, driven through the DevTools protocol's input events with given positions and
timestamps: the stored samples must carry those positions, and the intervals between them within 1 ms; a task page
is cross-origin isolated, passes axe, and stays under its weight budget."""
import json
import sqlite3
import time

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from conftest import ROOT, start_server
from studypages import Participant, WAIT, wait_for_new_page

TAPPING_STUDY = ROOT / "tests" / "browser" / "studies" / "tapping"


@pytest.fixture
def tapping_server(workdir):
    s = start_server(TAPPING_STUDY, workdir / "data")
    yield s
    s.stop()


def wait_for_step(me, step, timeout=WAIT):
    WebDriverWait(me.driver, timeout).until(lambda d: d.execute_script(
        "const s = document.querySelector('input[name=_step]'); return document.readyState === 'complete' && s && s.value") == step)


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
    me.page()
    wait_for_step(me, "tapping.right", timeout=WAIT + 5)
    label, status = me.browser.check_page()
    assert status == 200
    isolated = me.driver.execute_script("return self.crossOriginIsolated")
    assert isolated, "the tapping page is not cross-origin isolated"

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
    for x, y, stamp, _ in planned:
        tap(me.driver, x, y, stamp)
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
        assert abs(measured - given) < 0.001, f"interval {index}: {measured * 1000:.3f} ms measured, {given * 1000:.3f} ms given"
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
    wait_for_step(me, "tapping.right", timeout=WAIT + 5)
    geometry = tapping_geometry(me.driver)
    (only,) = geometry["targets"]
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
