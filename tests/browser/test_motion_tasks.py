"""Active tasks on the phone's motion sensors, in a real browser whose sensors the DevTools protocol drives
(`Emulation.setSensorOverrideEnabled` and `setSensorOverrideReadings`): the stored recorder file must hold the emulated
readings, and the measures must be what the emulated movement implies. Walking tasks' location comes from
`Emulation.setGeolocationOverride`.

Each emulated reading is waited for on the page itself (a listener the test adds sees the orientation the page's
recorder sees, and counts the motion events after it), never on the clock."""
import json
import math
import sqlite3

from selenium.common.exceptions import WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from conftest import ROOT, start_server
from studypages import Participant, WAIT, control_page_time, first_frame_shown, release_page_time
from test_active_tasks import active_result, page_clock, stored_result, tapping_server, wait_for_step  # noqa: F401 (fixture)

G = 9.80665
# Readings held steady while the knee bends: the accelerometer (m/s², gravity included, as the W3C gives it), the
# acceleration without gravity, and the rotation rate (rad/s, as the sensor gives it; the page reads deg/s).
ACCELERATION = {"x": 0.5, "y": 9.0, "z": 3.5}
LINEAR = {"x": 0.5, "y": 0.2, "z": -0.3}
ROTATION = {"x": 0.25, "y": -0.5, "z": 0.75}

# The page's own view of the sensors, for the test to wait on: the last orientation it was told, and how many motion
# events came after it (each of which the recorder keeps with that orientation's attitude).
_WATCH_SENSORS = """
window.studykitSensors = {beta: null, motionsSince: 0};
addEventListener('deviceorientation', (e) => { window.studykitSensors = {beta: e.beta, motionsSince: 0}; });
addEventListener('devicemotion', () => { window.studykitSensors.motionsSince += 1; });
"""


def emulate_phone(driver):
    """A phone's screen, held upright: the step reads the angle about the axis across the screen (as ResearchKit does
    for an interface in portrait)."""
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 390, "height": 844, "deviceScaleFactor": 2, "mobile": True,
                                                                  "screenOrientation": {"type": "portraitPrimary", "angle": 0}})


def emulate_sensors(driver):
    emulate_phone(driver)
    for kind in ("accelerometer", "linear-acceleration", "gravity", "gyroscope", "relative-orientation", "absolute-orientation"):
        driver.execute_cdp_cmd("Emulation.setSensorOverrideEnabled", {"enabled": True, "type": kind})
    gravity = {axis: ACCELERATION[axis] - LINEAR[axis] for axis in "xyz"}
    for kind, xyz in (("accelerometer", ACCELERATION), ("linear-acceleration", LINEAR), ("gravity", gravity), ("gyroscope", ROTATION)):
        driver.execute_cdp_cmd("Emulation.setSensorOverrideReadings", {"type": kind, "reading": {"xyz": xyz}})


def tilt(driver, beta):
    """Tilts the emulated phone `beta` degrees about its x axis (a knee bent that far with the phone on the shin),
    and waits until the page has seen the tilt and two motion events after it."""
    half = math.radians(beta) / 2
    quaternion = {"x": math.sin(half), "y": 0, "z": 0, "w": math.cos(half)}
    for kind in ("relative-orientation", "absolute-orientation"):
        driver.execute_cdp_cmd("Emulation.setSensorOverrideReadings", {"type": kind, "reading": {"quaternion": quaternion}})
    WebDriverWait(driver, WAIT).until(lambda d: d.execute_script(
        "const s = window.studykitSensors; return s.beta !== null && Math.abs(s.beta - arguments[0]) < 0.2 && s.motionsSince >= 2", beta))


def touch(driver):
    """Touches the middle of the step's area; returns the touch's timestamp (the page's clock, seconds since the epoch)."""
    centre = driver.execute_script(
        "const r = document.querySelector('.motion-area').getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]")
    at = page_clock(driver)
    for kind in ("mousePressed", "mouseReleased"):
        driver.execute_cdp_cmd("Input.dispatchMouseEvent", {"type": kind, "x": centre[0], "y": centre[1], "button": "left", "clickCount": 1,
                                                            "timestamp": at})
    return at


def area_state(driver):
    return driver.execute_script("return document.querySelector('.motion-area')?.dataset.state")


def test_a_knee_bent_from_straight_to_ninety_degrees_reports_its_range_and_keeps_the_readings(tapping_server, browser):
    control_page_time(browser.driver)
    me = Participant(tapping_server, browser).join()
    me.onboard_every_format()
    me.start_survey("Knee bend")
    wait_for_step(me, "rangeOfMotion.right")
    emulate_sensors(me.driver)
    me.driver.execute_script(_WATCH_SENSORS)
    release_page_time(me.driver)
    first_frame_shown(me.driver)
    WebDriverWait(me.driver, WAIT).until(lambda d: area_state(d) == "ready")
    me.browser.check_page()
    assert me.main_text().count("Touch anywhere to start") == 1

    tilt(me.driver, 0)          # the leg straight, the phone lying flat on the shin
    touch(me.driver)
    WebDriverWait(me.driver, WAIT).until(lambda d: area_state(d) == "recording")
    angles = [0, 15, 30, 45, 60, 75, 90, 90, 70, 40, 10, 0]
    for beta in angles:
        tilt(me.driver, beta)
    touch(me.driver)
    wait_for_step(me, "conclusion")
    assert "Range of motion" in me.main_text()
    me.next()

    result = active_result(stored_result(tapping_server, "knee"), "rangeOfMotion.right")
    measures = {m["identifier"]: m["value"] for m in result["measures"]}
    assert abs(measures["range"] - 90) <= 2, measures
    assert result["samples"]["landscape"] is False
    assert result["samples"]["recorders"]["deviceMotion"]["items"] > len(angles)

    # The recorder's file: the emulated readings, in Core Motion's units and directions.
    with sqlite3.connect(f"file:{tapping_server.data / 'study.sqlite'}?mode=ro", uri=True) as db:
        rows = db.execute("SELECT name, data FROM runFile WHERE name LIKE 'rangeOfMotion_right-deviceMotion%'").fetchall()
    assert len(rows) == 1, [name for name, _ in rows]
    items = json.loads(rows[0][1])["items"]
    stamps = [item["timestamp"] for item in items]
    assert stamps == sorted(stamps) and len(set(stamps)) == len(stamps)
    for item in items:
        for axis in "xyz":
            # The browser rounds what it reports (to 0.1 m/s² and 0.1°/s).
            assert abs(item["userAcceleration"][axis] + LINEAR[axis] / G) < 0.011, item
            assert abs(item["gravity"][axis] + (ACCELERATION[axis] - LINEAR[axis]) / G) < 0.011, item
            assert abs(item["rotationRate"][axis] - ROTATION[axis]) < 0.003, item
        assert abs(item["attitude"]["y"]) < 1e-3 and abs(item["attitude"]["z"]) < 1e-3
    tilts = [math.degrees(2 * math.atan2(item["attitude"]["x"], item["attitude"]["w"])) for item in items]
    assert max(tilts) > 89.5 and min(tilts) < 0.5
    for beta in angles:
        assert any(abs(t - beta) < 0.3 for t in tilts), f"no reading of {beta}°"


def test_a_browser_that_gives_no_motion_says_so_and_records_no_measure(tapping_server, browser):
    control_page_time(browser.driver)
    me = Participant(tapping_server, browser).join()
    me.onboard_every_format()
    me.start_survey("Knee bend")
    wait_for_step(me, "rangeOfMotion.right")
    # No sensor at all, as on a desktop: DeviceMotionEvent is there, but no event ever comes.
    for kind in ("accelerometer", "linear-acceleration", "gravity", "gyroscope", "relative-orientation", "absolute-orientation"):
        me.driver.execute_cdp_cmd("Emulation.setSensorOverrideEnabled", {"enabled": True, "type": kind,
                                                                         "metadata": {"available": False}})
    release_page_time(me.driver)
    first_frame_shown(me.driver)
    WebDriverWait(me.driver, WAIT).until(lambda d: area_state(d) == "ready")
    touch(me.driver)
    WebDriverWait(me.driver, WAIT).until(lambda d: area_state(d) == "recording")
    touch(me.driver)
    wait_for_step(me, "conclusion")
    me.next()
    result = active_result(stored_result(tapping_server, "knee"), "rangeOfMotion.right")
    assert all(m.get("value") is None for m in result["measures"]), result["measures"]
    assert result["samples"]["recorders"]["deviceMotion"] == {"unavailable": "noReadings"}
    with sqlite3.connect(f"file:{tapping_server.data / 'study.sqlite'}?mode=ro", uri=True) as db:
        assert db.execute("SELECT count(*) FROM runFile WHERE name LIKE 'rangeOfMotion%'").fetchone()[0] == 0


RECOVER = ROOT / "examples" / "studies" / "recover"


def test_recovers_knee_bend_comes_on_its_days_and_its_range_lands_on_the_insights_chart(workdir, browser):
    # Enrolled on Thursday 25 March 2027 in Berlin (day 0); the knee bend is on Mondays, Wednesdays and Fridays from
    # day 1, so not today, and tomorrow.
    thursday = start_server(RECOVER, workdir / "data", clock_start="2027-03-25T10:00:00+01:00")
    friday = None
    try:
        control_page_time(browser.driver)
        me = Participant(thursday, browser).join(time_zone="Europe/Berlin")
        me.complete_recover_onboarding(check_pages=False)
        titles = [h.text for h in me.driver.find_elements(By.CSS_SELECTOR, "main li.card h2")]
        assert "Daily pain check" in titles and "Knee bend" not in titles, titles
        thursday.stop()
        friday = start_server(RECOVER, workdir / "data", port=thursday.port, clock_start="2027-03-26T10:00:00+01:00")
        me.server = friday
        me.open("/")
        me.start_survey("Knee bend")
        assert me.step() == "instruction"
        me.next()
        assert me.step() == "instruction1"
        me.next()
        wait_for_step(me, "rangeOfMotion.right")
        emulate_sensors(me.driver)
        me.driver.execute_script(_WATCH_SENSORS)
        release_page_time(me.driver)
        first_frame_shown(me.driver)
        WebDriverWait(me.driver, WAIT).until(lambda d: area_state(d) == "ready")
        me.browser.check_page()
        tilt(me.driver, 0)
        touch(me.driver)
        WebDriverWait(me.driver, WAIT).until(lambda d: area_state(d) == "recording")
        for beta in (20, 50, 80, 95, 60, 10, 0):
            tilt(me.driver, beta)
        touch(me.driver)
        wait_for_step(me, "conclusion")
        me.next()

        me.open("/insights")
        me.page()
        # The chart's table (in a closed <details>) has Friday's knee bend in its first column.
        row = me.driver.execute_script("""
            const figure = [...document.querySelectorAll('figure')].find(f => f.textContent.includes('Knee bend and pain'));
            const row = figure && [...figure.querySelectorAll('tbody tr')].find(r => r.querySelector('th').textContent.includes('March 26'));
            return row ? [...row.querySelectorAll('td')].map(td => td.textContent) : null;""")
        assert row is not None and abs(float(row[0]) - 95) <= 2, row
    finally:
        (friday or thursday).stop()


# Walking: the page's view of the motion events, for the test to follow (the last event's timeStamp and how many came).
_WATCH_WALK = """
window.studykitWalk = {count: 0, last: null};
addEventListener('devicemotion', (e) => { window.studykitWalk.count += 1; window.studykitWalk.last = e.timeStamp; });
"""
UPRIGHT = {"x": math.sin(math.pi / 4), "y": 0, "z": 0, "w": math.cos(math.pi / 4)}  # beta 90°: the phone upright in a pocket
STEP_AMPLITUDE = 3.0  # m/s² of vertical acceleration, swinging once a step


def emulate_walking_phone(driver):
    """A phone upright in a pocket: gravity along its y axis, no rotation; the walk's swing is set by `swing`."""
    emulate_phone(driver)
    for kind in ("accelerometer", "linear-acceleration", "gravity", "gyroscope", "relative-orientation", "absolute-orientation"):
        driver.execute_cdp_cmd("Emulation.setSensorOverrideEnabled", {"enabled": True, "type": kind})
    driver.execute_cdp_cmd("Emulation.setSensorOverrideReadings", {"type": "gravity", "reading": {"xyz": {"x": 0, "y": G, "z": 0}}})
    driver.execute_cdp_cmd("Emulation.setSensorOverrideReadings", {"type": "gyroscope", "reading": {"xyz": {"x": 0, "y": 0, "z": 0}}})
    for kind in ("relative-orientation", "absolute-orientation"):
        driver.execute_cdp_cmd("Emulation.setSensorOverrideReadings", {"type": kind, "reading": {"quaternion": UPRIGHT}})
    swing(driver, 0)


def swing(driver, vertical):
    """The vertical acceleration the walk gives the phone now (m/s² along its y axis), gravity added for the accelerometer."""
    driver.execute_cdp_cmd("Emulation.setSensorOverrideReadings", {"type": "linear-acceleration", "reading": {"xyz": {"x": 0, "y": vertical, "z": 0}}})
    driver.execute_cdp_cmd("Emulation.setSensorOverrideReadings", {"type": "accelerometer", "reading": {"xyz": {"x": 0, "y": G + vertical, "z": 0}}})


def walk_at_two_steps_a_second(driver):
    """Follows the page's motion events until the step has posted: after each new event, sets the swing the walk has
    at that event's time on the page's clock (a 2 Hz sine), so the signal's frequency is the page's and not the test's
    pace. Returns every swing set."""
    given, seen, first = [], 0, None
    while True:
        try:
            state = driver.execute_script(
                "const f = document.querySelector('input[name=samples]'); const w = window.studykitWalk;"
                "return w && f && !f.value ? [w.count, w.last] : null")
        except WebDriverException:
            break  # the next page is loading
        if state is None:
            break
        count, last = state
        if count == seen or last is None:
            continue
        seen = count
        first = last if first is None else first
        vertical = round(STEP_AMPLITUDE * math.sin(2 * math.pi * 2 * (last - first) / 1000), 1)
        swing(driver, vertical)
        given.append(vertical)
    return given


def test_a_thirty_second_walk_at_two_steps_a_second_counts_sixty_steps_and_keeps_the_readings(tapping_server, browser):
    control_page_time(browser.driver)
    me = Participant(tapping_server, browser).join()
    me.onboard_every_format()
    me.start_survey("Walk")
    wait_for_step(me, "walking.outbound")
    emulate_walking_phone(me.driver)
    me.driver.execute_script(_WATCH_SENSORS + _WATCH_WALK)
    release_page_time(me.driver)
    first_frame_shown(me.driver)
    WebDriverWait(me.driver, WAIT).until(lambda d: area_state(d) == "ready")
    me.browser.check_page()
    assert me.main_text().count("Touch anywhere to start") == 1

    touch(me.driver)
    WebDriverWait(me.driver, WAIT).until(lambda d: area_state(d) == "recording")
    # The recorder keeps device motion once it has seen an orientation, which the browser reports when it changes:
    # the phone leans half a degree as the walk begins.
    half = math.radians(90.5) / 2
    for kind in ("relative-orientation", "absolute-orientation"):
        me.driver.execute_cdp_cmd("Emulation.setSensorOverrideReadings", {"type": kind, "reading": {"quaternion": {"x": math.sin(half), "y": 0, "z": 0, "w": math.cos(half)}}})
    given = walk_at_two_steps_a_second(me.driver)
    wait_for_step(me, "conclusion")
    assert "Steps a minute" in me.main_text()
    me.next()

    result = active_result(stored_result(tapping_server, "walk"), "walking.outbound")
    measures = {m["identifier"]: m["value"] for m in result["measures"]}
    assert abs(measures["stepCount"] - 60) <= 2, measures
    assert abs(measures["cadence"] - 120) <= 4, measures
    assert measures["distance"] is None  # no location recorded on this walk
    assert abs(measures["duration"] - 30) < 0.05, measures
    assert result["complete"] is True

    # The recorders' files hold the emulated readings, in Core Motion's units and directions.
    with sqlite3.connect(f"file:{tapping_server.data / 'study.sqlite'}?mode=ro", uri=True) as db:
        files = dict(db.execute("SELECT name, data FROM runFile WHERE name LIKE 'walking_outbound-%'").fetchall())
    motion = next(json.loads(data)["items"] for name, data in files.items() if "deviceMotion" in name)
    accelerometer = next(json.loads(data)["items"] for name, data in files.items() if "accelerometer" in name)
    # Device motion from the first orientation, a few events after the touch: nearly 60 a second for 30 s.
    assert len(motion) > 50 * 30 and len(accelerometer) > 50 * 30, (len(motion), len(accelerometer))
    values = set(given)
    for item in motion:
        assert any(abs(item["userAcceleration"]["y"] + v / G) < 0.011 for v in values), item
        assert abs(item["userAcceleration"]["x"]) < 0.011 and abs(item["userAcceleration"]["z"]) < 0.011, item
    # Gravity is what the page derives from two sensors, which the test sets one after the other: an event between the
    # two sees them a swing's step or two apart, so it is right on average, and along y.
    gravity = [item["gravity"]["y"] for item in motion]
    assert abs(sum(gravity) / len(gravity) + 1) < 0.02 and all(abs(item["gravity"]["x"]) < 0.011 for item in motion)
    for item in accelerometer:
        assert any(abs(item["y"] + (G + v) / G) < 0.011 for v in values), item
    swings = [item["userAcceleration"]["y"] for item in motion]
    assert max(swings) > 0.25 and min(swings) < -0.25


def wait_for_page_time(driver, stamp):
    """Waits, on the page's own clock, until it reads `stamp` (ms on its performance clock)."""
    WebDriverWait(driver, WAIT).until(lambda d: d.execute_script("return performance.now() >= arguments[0]", stamp))


def test_a_timed_walk_takes_the_time_between_two_touches_and_the_distance_between_accurate_fixes(tapping_server, browser):
    control_page_time(browser.driver)
    me = Participant(tapping_server, browser).join()
    me.onboard_every_format()
    me.start_survey("Timed walk")
    assert me.step() == "timed.walk.form"  # kept when the instructions are left out, as ResearchKit does
    assert "ankle-foot orthosis" in me.main_text()
    me.browser.check_page()
    me.next()
    wait_for_step(me, "timed.walk.trial1")
    emulate_walking_phone(me.driver)
    me.driver.execute_cdp_cmd("Browser.grantPermissions", {"permissions": ["geolocation", "sensors"], "origin": tapping_server.base})
    # Walking north from (52.52, 13.405): a fix every 5 m, and one 200 m off with an accuracy of 150 m, left out.
    per_metre = 1 / (6_371_008.8 * math.pi / 180)
    fixes = [(52.52, 13.405, 5), (52.52 + 5 * per_metre, 13.405, 5), (52.5210, 13.4080, 150), (52.52 + 10 * per_metre, 13.405, 5),
             (52.52 + 15 * per_metre, 13.405, 5)]
    # Before the walk, a rough fix of the start (kept only if it comes after the touch, and then left out as inaccurate).
    me.driver.execute_cdp_cmd("Emulation.setGeolocationOverride", {"latitude": fixes[0][0], "longitude": fixes[0][1], "accuracy": 150})
    me.driver.execute_script("window.studykitFixes = 0; navigator.geolocation.watchPosition(() => { window.studykitFixes += 1; });")
    release_page_time(me.driver)
    first_frame_shown(me.driver)
    WebDriverWait(me.driver, WAIT).until(lambda d: area_state(d) == "ready")
    started = touch(me.driver)
    WebDriverWait(me.driver, WAIT).until(lambda d: area_state(d) == "recording")
    assert "Touch anywhere when you are there" in me.main_text()
    for index, (latitude, longitude, accuracy) in enumerate(fixes, start=2):
        # The recorder keeps a fix at most every 0.8 s: each comes a second after the last, on the page's clock.
        wait_for_page_time(me.driver, me.driver.execute_script("return performance.now()") + 1000)
        me.driver.execute_cdp_cmd("Emulation.setGeolocationOverride", {"latitude": latitude, "longitude": longitude, "accuracy": accuracy})
        WebDriverWait(me.driver, WAIT).until(lambda d, n=index: d.execute_script("return window.studykitFixes") >= n)
    ended = touch(me.driver)
    wait_for_step(me, "timed.walk.turn.around")
    release_page_time(me.driver)
    first_frame_shown(me.driver)
    WebDriverWait(me.driver, WAIT).until(lambda d: area_state(d) == "ready")
    touch(me.driver)
    WebDriverWait(me.driver, WAIT).until(lambda d: area_state(d) in ("recording", "unavailable"))
    touch(me.driver)
    wait_for_step(me, "timed.walk.trial2")
    release_page_time(me.driver)
    first_frame_shown(me.driver)
    WebDriverWait(me.driver, WAIT).until(lambda d: area_state(d) == "ready")
    touch(me.driver)
    WebDriverWait(me.driver, WAIT).until(lambda d: area_state(d) in ("recording", "unavailable"))
    touch(me.driver)
    wait_for_step(me, "conclusion")
    me.next()

    result = active_result(stored_result(tapping_server, "timedwalk"), "timed.walk.trial1")
    measures = {m["identifier"]: m["value"] for m in result["measures"]}
    # The touches' own timestamps are what the page measured from: measured − given.
    assert measures["duration"] is not None and abs(measures["duration"] - (ended - started)) < 0.002, (result, ended - started)
    assert abs(measures["distance"] - 15) < 0.2, measures
    assert result["samples"]["distanceInMeters"] == 15
    assert result["complete"] is True
    with sqlite3.connect(f"file:{tapping_server.data / 'study.sqlite'}?mode=ro", uri=True) as db:
        data = db.execute("SELECT data FROM runFile WHERE name LIKE 'timed_walk_trial1-location%'").fetchone()[0]
    items = json.loads(data)["items"]
    assert 150 in [round(item["horizontalAccuracy"]) for item in items], items
    assert abs(items[-1]["coordinate"]["latitude"] - fixes[-1][0]) < 1e-9


def test_a_timed_walk_without_motion_or_location_says_so_times_the_walk_and_records_no_readings(tapping_server, browser):
    control_page_time(browser.driver)
    me = Participant(tapping_server, browser).join()
    me.onboard_every_format()
    me.start_survey("Timed walk")
    me.next()
    emulate_walking_phone(me.driver)
    # The participant refuses the sensors and the location: every permission but none is granted.
    me.driver.execute_cdp_cmd("Browser.grantPermissions", {"permissions": [], "origin": tapping_server.base})
    for step in ("timed.walk.trial1", "timed.walk.turn.around", "timed.walk.trial2"):
        wait_for_step(me, step)
        release_page_time(me.driver)
        first_frame_shown(me.driver)
        WebDriverWait(me.driver, WAIT).until(lambda d: area_state(d) == "ready")
        started = touch(me.driver)
        WebDriverWait(me.driver, WAIT).until(lambda d: area_state(d) == "unavailable")
        if step == "timed.walk.trial1":
            assert "Motion sensors were not allowed" in me.main_text()
            me.browser.check_page()
            trial = (started, touch(me.driver))
        else:
            touch(me.driver)
    wait_for_step(me, "conclusion")
    me.next()
    result = active_result(stored_result(tapping_server, "timedwalk"), "timed.walk.trial1")
    measures = {m["identifier"]: m["value"] for m in result["measures"]}
    assert measures["stepCount"] is None and measures["cadence"] is None and measures["distance"] is None, measures
    assert abs(measures["duration"] - (trial[1] - trial[0])) < 0.002, (measures, trial)
    assert result["samples"]["recorders"] == {name: {"unavailable": "denied"} for name in ("accelerometer", "deviceMotion", "location")}
    with sqlite3.connect(f"file:{tapping_server.data / 'study.sqlite'}?mode=ro", uri=True) as db:
        assert db.execute("SELECT count(*) FROM runFile WHERE name LIKE 'timed_walk%'").fetchone()[0] == 0
