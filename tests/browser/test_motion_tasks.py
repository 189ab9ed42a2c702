"""Active tasks on the phone's motion sensors, in a real browser whose sensors the DevTools protocol drives
(`Emulation.setSensorOverrideEnabled` and `setSensorOverrideReadings`): the stored recorder file must hold the emulated
readings, and the measures must be what the emulated movement implies.

Each emulated reading is waited for on the page itself (a listener the test adds sees the orientation the page's
recorder sees, and counts the motion events after it), never on the clock."""
import json
import math
import sqlite3

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from conftest import ROOT, start_server
from studypages import Participant, WAIT, click_to_navigate, control_page_time, first_frame_shown, release_page_time
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
    centre = driver.execute_script(
        "const r = document.querySelector('.motion-area').getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]")
    at = page_clock(driver)
    for kind in ("mousePressed", "mouseReleased"):
        driver.execute_cdp_cmd("Input.dispatchMouseEvent", {"type": kind, "x": centre[0], "y": centre[1], "button": "left", "clickCount": 1,
                                                            "timestamp": at})


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
    # The orientation recorder's file: each tilt as the browser's beta (kept for phones without device motion).
    with sqlite3.connect(f"file:{tapping_server.data / 'study.sqlite'}?mode=ro", uri=True) as db:
        (data,) = db.execute("SELECT data FROM runFile WHERE name LIKE 'rangeOfMotion_right-orientation%'").fetchone()
    betas = [item["beta"] for item in json.loads(data)["items"]]
    for beta in angles:
        assert any(abs(b - beta) < 0.3 for b in betas), f"no orientation of {beta}°: {betas}"


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


def motion_choice_recorded(me):
    """Back on the onboarding's permissions step (from its completion step): the motion choice the server recorded."""
    me.press("back")
    assert me.step() == "permissions"
    motion = me.driver.find_elements(By.CSS_SELECTOR, "main fieldset")[1]
    return motion.find_element(By.CSS_SELECTOR, "input:checked").get_attribute("value")


def test_allowing_motion_in_the_onboarding_records_what_the_browser_answers(workdir, browser):
    server = start_server(RECOVER, workdir / "data", clock_start="2027-03-25T10:00:00+01:00")
    try:
        me = Participant(server, browser).join(time_zone="Europe/Berlin")
        # The browser refuses the motion sensors to this site: "Allow" pressed, "Don't allow" recorded.
        me.driver.execute_cdp_cmd("Browser.setPermission", {"origin": server.base, "permission": {"name": "accelerometer"}, "setting": "denied"})
        me.complete_recover_onboarding(check_pages=False, finish=False)
        assert motion_choice_recorded(me) == "denied"
        # Allowed again: now the browser grants, and "Allow" is recorded.
        me.driver.execute_cdp_cmd("Browser.setPermission", {"origin": server.base, "permission": {"name": "accelerometer"}, "setting": "granted"})
        me.choose_all_permissions()
        me.next()
        assert me.step() == "done"
        assert motion_choice_recorded(me) == "granted"
    finally:
        server.stop()


# A browser that asks the participant, as iOS Safari does: DeviceMotionEvent.requestPermission, counted, answering as
# the test says.
_ASKING_BROWSER = """
window.studykitMotionAsked = 0;
if (window.DeviceMotionEvent) DeviceMotionEvent.requestPermission = () => {
  window.studykitMotionAsked += 1;
  return Promise.resolve(sessionStorage.getItem('motionAnswer') || 'denied');
};
"""


def test_a_browser_that_asks_the_participant_is_asked_on_the_press_and_its_answer_recorded(workdir, browser):
    server = start_server(RECOVER, workdir / "data", clock_start="2027-03-25T10:00:00+01:00")
    try:
        browser.driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": _ASKING_BROWSER})
        me = Participant(server, browser).join(time_zone="Europe/Berlin")
        me.complete_recover_onboarding(check_pages=False, finish=False)
        assert motion_choice_recorded(me) == "denied"
        me.driver.execute_script("sessionStorage.setItem('motionAnswer', 'granted')")
        me.choose_all_permissions()
        # The press asks once, and the step moves on with the answer.
        asked = []
        me.driver.execute_script("window.addEventListener('pagehide', () => sessionStorage.setItem('asked', String(window.studykitMotionAsked)))")
        me.next()
        asked.append(me.driver.execute_script("return sessionStorage.getItem('asked')"))
        assert me.step() == "done" and asked == ["1"], asked
        assert motion_choice_recorded(me) == "granted"
    finally:
        server.stop()


def test_the_knee_bend_speaks_each_built_in_language(tapping_server, new_browser):
    """The step's title, prompt and measures in Korean and Spanish (the task's own words come from the catalogue), each
    for a participant of their own (the task is once a day)."""
    for language, title, prompt, measure in (("한국어", "무릎 관절 가동 범위(오른쪽)", "아무 곳이나 터치해 시작", "가동 범위"),
                                             ("español", "Movilidad de la rodilla, lado derecho", "Toque en cualquier parte para empezar", "Amplitud de movimiento")):
        browser = new_browser()
        control_page_time(browser.driver)
        me = Participant(tapping_server, browser).join()
        me.open("/settings")
        me.choose(language)
        click_to_navigate(me.driver, me.field("section[aria-labelledby=language-title] button[type=submit]"))
        me.open("/")
        me.onboard_every_format()
        me.start_survey("Knee bend")
        wait_for_step(me, "rangeOfMotion.right")
        emulate_sensors(me.driver)
        me.driver.execute_script(_WATCH_SENSORS)
        release_page_time(me.driver)
        first_frame_shown(me.driver)
        WebDriverWait(me.driver, WAIT).until(lambda d: area_state(d) == "ready")
        me.browser.check_page()
        assert me.h1() == title and prompt in me.main_text(), (me.h1(), me.main_text())
        tilt(me.driver, 0)
        touch(me.driver)
        WebDriverWait(me.driver, WAIT).until(lambda d: area_state(d) == "recording")
        tilt(me.driver, 30)
        touch(me.driver)
        wait_for_step(me, "conclusion")
        assert measure in me.main_text()
        me.next()
