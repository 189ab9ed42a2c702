"""Active tasks on the phone's motion sensors, in a real browser whose sensors the DevTools protocol drives
(`Emulation.setSensorOverrideEnabled` and `setSensorOverrideReadings`): the stored recorder file must hold the emulated
readings, and the measures must be what the emulated movement implies.

Each emulated reading is waited for on the page itself (a listener the test adds sees the orientation the page's
recorder sees, and counts the motion events after it), never on the clock."""
import json
import math
import sqlite3
import subprocess

from selenium.common.exceptions import WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from conftest import ROOT, STUDYKIT, start_server
from devtools import DevTools
from studypages import Participant, WAIT, click_to_navigate, control_page_time, first_frame_shown, release_page_time
from test_active_tasks import active_result, page_clock, past_countdown, stored_result, tapping_server, wait_for_step  # noqa: F401 (fixture)

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


def override_sensors(driver):
    """Puts every motion sensor of the tab under the test's readings (once a tab: the browser refuses a second time)."""
    if getattr(driver, "studykit_sensors_overridden", False):
        return
    for kind in ("accelerometer", "linear-acceleration", "gravity", "gyroscope", "relative-orientation", "absolute-orientation"):
        driver.execute_cdp_cmd("Emulation.setSensorOverrideEnabled", {"enabled": True, "type": kind})
    driver.studykit_sensors_overridden = True


def emulate_sensors(driver):
    emulate_phone(driver)
    override_sensors(driver)
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
    # Looked for every few milliseconds: a tremor's recording runs meanwhile, the hand still until the test shakes it.
    WebDriverWait(driver, WAIT, poll_frequency=0.005).until(lambda d: d.execute_script(
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


def show_step(driver):
    """Lets the page's clock run and waits until the step's first frame is shown and its area waits for a touch."""
    release_page_time(driver)
    first_frame_shown(driver)
    WebDriverWait(driver, WAIT).until(lambda d: area_state(d) == "ready")


def touch_through(me, step):
    """Waits for the touch-ended `step` (a turn, a trial of the timed walk) and walks it with two touches, whatever the
    sensors answer."""
    wait_for_step(me, step)
    show_step(me.driver)
    touch(me.driver)
    WebDriverWait(me.driver, WAIT).until(lambda d: area_state(d) in ("recording", "unavailable"))
    touch(me.driver)


def start_task(server, browser, title):
    """A new participant of the test study, onboarded, on the first page of the task titled `title`; each page's time
    held until the test lets it run."""
    control_page_time(browser.driver)
    me = Participant(server, browser).join()
    me.onboard_every_format()
    me.start_survey(title)
    return me


def ready_to_bend(me, step):
    """On the range-of-motion `step`, its sensors emulated and watched, its page shown and waiting for the touch."""
    wait_for_step(me, step)
    emulate_sensors(me.driver)
    me.driver.execute_script(_WATCH_SENSORS)
    show_step(me.driver)


def bend(me, angles):
    """From straight (the phone's tilt 0°): a touch, the joint moved through `angles` (degrees), a touch to finish;
    waits for the task's conclusion."""
    tilt(me.driver, 0)
    touch(me.driver)
    WebDriverWait(me.driver, WAIT).until(lambda d: area_state(d) == "recording")
    for beta in angles:
        tilt(me.driver, beta)
    touch(me.driver)
    wait_for_step(me, "conclusion")


def test_a_knee_bent_from_straight_to_ninety_degrees_reports_its_range_and_keeps_the_readings(tapping_server, browser):
    me = start_task(tapping_server, browser, "Knee bend")
    ready_to_bend(me, "rangeOfMotion.right")
    me.browser.check_page()
    assert me.main_text().count("Touch anywhere to start") == 1

    angles = [0, 15, 30, 45, 60, 75, 90, 90, 70, 40, 10, 0]
    bend(me, angles)  # from the leg straight, the phone lying flat on the shin
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
    me = start_task(tapping_server, browser, "Knee bend")
    wait_for_step(me, "rangeOfMotion.right")
    # No sensor at all, as on a desktop: DeviceMotionEvent is there, but no event ever comes.
    for kind in ("accelerometer", "linear-acceleration", "gravity", "gyroscope", "relative-orientation", "absolute-orientation"):
        me.driver.execute_cdp_cmd("Emulation.setSensorOverrideEnabled", {"enabled": True, "type": kind,
                                                                         "metadata": {"available": False}})
    show_step(me.driver)
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
        ready_to_bend(me, "rangeOfMotion.right")
        me.browser.check_page()
        bend(me, (20, 50, 80, 95, 60, 10, 0))
        me.next()

        me.open("/insights")
        me.page()
        # The chart's table (in a closed <details>) has Friday's knee bend in its first column.
        row = me.driver.execute_script("""
            const figure = [...document.querySelectorAll('figure')].find(f => f.textContent.includes('Knee bend and pain'));
            const row = figure && [...figure.querySelectorAll('tbody tr')].find(r => r.querySelector('th').textContent.includes('March 26'));
            return row ? [...row.querySelectorAll('td')].map(td => td.textContent) : null;""")
        assert row is not None and abs(float(row[0]) - 95) <= 2, row
        friday.stop()

        # The FHIR export carries the range as an Observation under LOINC's code for the right knee's active flexion.
        out = workdir / "fhir"
        exported = subprocess.run([str(STUDYKIT), "export", "--format", "fhir", "--out", str(out), "--study", str(RECOVER),
                                   "--data", str(workdir / "data")], capture_output=True, text=True, timeout=120)
        assert exported.returncode == 0, exported.stderr
        observations = [json.loads(line) for line in (out / "Observation.ndjson").read_text().splitlines()]
        knee = [o for o in observations if any(c.get("code") == "41347-6" for c in o["code"]["coding"])]
        assert len(knee) == 1, [o["code"] for o in observations]
        coding = next(c for c in knee[0]["code"]["coding"] if c["code"] == "41347-6")
        assert coding["system"] == "http://loinc.org", coding
        quantity = knee[0]["valueQuantity"]
        # The study's units as free text (FHIRObservationBuilder: a study's units are not taken for UCUM codes).
        assert abs(quantity["value"] - 95) <= 2 and quantity["unit"] == "deg", knee[0]
        assert knee[0]["effectiveDateTime"].startswith("2027-03-26"), knee[0]
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
        ready_to_bend(me, "rangeOfMotion.right")
        me.browser.check_page()
        assert me.h1() == title and prompt in me.main_text(), (me.h1(), me.main_text())
        bend(me, (30,))
        assert measure in me.main_text()
        me.next()


def fast_wait(driver, condition, timeout=WAIT):
    """Waits for `condition` on the page, looking every few milliseconds: the emulated movements follow the page's
    states closely (a shake must come before the stimulus's delay ends)."""
    try:
        return WebDriverWait(driver, timeout, poll_frequency=0.002).until(condition)
    except Exception:
        area = driver.execute_script("return document.querySelector('.motion-area')?.outerHTML")
        raise AssertionError(f"the page did not get there; its motion area: {area}")


def wait_for_page_clock(driver, stamp):
    """Returns once the page's own clock (`performance.now()`, ms) has reached `stamp`: the page answers as soon as it
    sees it, looking between its other tasks (a message to itself), so its frames and motion events go on meanwhile."""
    driver.execute_async_script("""
        const [target, done] = arguments, channel = new MessageChannel();
        channel.port1.onmessage = () => { if (performance.now() >= target) done(); else channel.port2.postMessage(0); };
        channel.port2.postMessage(0);""", stamp)


def hold_still(driver, linear=(0, 0, 0)):
    """The phone upright (gravity along y), its user acceleration `linear` (m/s²) and the accelerometer's reading
    gravity plus that."""
    x, y, z = linear
    driver.execute_cdp_cmd("Emulation.setSensorOverrideReadings", {"type": "linear-acceleration", "reading": {"xyz": {"x": x, "y": y, "z": z}}})
    driver.execute_cdp_cmd("Emulation.setSensorOverrideReadings", {"type": "accelerometer", "reading": {"xyz": {"x": x, "y": G + y, "z": z}}})


def upright_phone(driver):
    """Every motion sensor emulated, the phone still and upright, and the page watching its sensors."""
    emulate_phone(driver)
    override_sensors(driver)
    driver.execute_cdp_cmd("Emulation.setSensorOverrideReadings", {"type": "gravity", "reading": {"xyz": {"x": 0, "y": G, "z": 0}}})
    driver.execute_cdp_cmd("Emulation.setSensorOverrideReadings", {"type": "gyroscope", "reading": {"xyz": {"x": 0, "y": 0, "z": 0}}})
    hold_still(driver)
    driver.execute_script(_WATCH_SENSORS)
    tilt(driver, 90)


def run_files(server, prefix):
    with sqlite3.connect(f"file:{server.data / 'study.sqlite'}?mode=ro", uri=True) as db:
        return {name: json.loads(data) for name, data in db.execute("SELECT name, data FROM runFile WHERE name LIKE ?", (prefix + "%",))}


def tremble(driver, hertz, amplitude):
    """The hand shakes at `hertz`, `amplitude` m/s² along the phone's x axis: each reading is the sinusoid at the
    page's own clock when it is set, and set again as soon as that is done, until the page has finished recording.
    Returns how many readings were set."""
    updates, start = 0, None
    while True:
        try:
            now, state = driver.evaluate("[performance.now(), document.querySelector('.motion-area')?.dataset.state ?? null]")
        except (WebDriverException, AssertionError):
            break  # the page is being replaced by the next one
        if state != "recording":
            break
        start = now if start is None else start
        hold_still(driver, (amplitude * math.sin(2 * math.pi * hertz * (now - start) / 1000), 0, 0))
        updates += 1
    return updates


def test_a_five_hertz_tremor_is_measured_as_five_hertz_and_its_readings_kept(tapping_server, browser):
    me = start_task(tapping_server, browser, "Hand tremor")
    past_countdown(me, "tremor.handInLap.right")
    devtools = DevTools(me.driver)
    page = devtools.page(me.driver)
    upright_phone(page)
    # Checked before the recording starts: axe takes a good part of a second, which the hand would spend still.
    me.browser.check_page()
    release_page_time(me.driver)
    first_frame_shown(me.driver)
    fast_wait(me.driver, lambda d: area_state(d) == "recording")
    # The browser tells an orientation only when it changes (a real phone's changes all the time): the device motion
    # recorder, which keeps the attitude with each reading, starts with the first one it hears.
    tilt(page, 89.5)

    amplitude = 1.0
    updates = tremble(page, 5.0, amplitude)
    wait_for_step(me, "conclusion")
    assert "Tremor frequency" in me.main_text()
    me.next()

    result = active_result(stored_result(tapping_server, "tremor"), "tremor.handInLap.right")
    measures = {m["identifier"]: m["value"] for m in result["measures"]}
    print(f"\ntremor: {measures}, {updates} readings set, {result['samples']['recorders']}")
    assert result["complete"] is True
    assert abs(measures["dominantFrequency"] - 5) <= 0.5, measures
    # The hand is still for the few readings before the test starts shaking it, which lowers the fitted amplitude a
    # little (0.0993 g for 0.102 g here).
    assert abs(measures["amplitude"] - amplitude / G) < 0.1 * amplitude / G, measures
    files = run_files(tapping_server, "tremor_handInLap_right")
    assert len(files) == 2 and any("accelerometer" in n for n in files) and any("deviceMotion" in n for n in files), list(files)
    for name, document in files.items():
        stamps = [item["timestamp"] for item in document["items"]]
        assert stamps == sorted(stamps) and stamps[-1] <= result["samples"]["end"], name
        assert len(stamps) > 60, name  # about 60 a second for 3 s
    devtools.close()


# Resolves on the page's last motion event before an instant (ms on its clock, put in for %f): the first event from
# which the next, at the median spacing of the last four, comes at or after it; with that event's time and the spacing.
_LAST_MOTION_BEFORE = """new Promise((resolve) => {
  const target = %f, times = [];
  const heard = (event) => {
    times.push(event.timeStamp);
    if (times.length < 4) return;
    const spacings = times.slice(-4).map((time, index, last) => time - (last[index - 1] ?? time)).slice(1).sort((a, b) => a - b);
    const spacing = spacings[1];
    if (event.timeStamp + spacing < target) return;
    removeEventListener('devicemotion', heard);
    resolve({last: event.timeStamp, spacing});
  };
  addEventListener('devicemotion', heard);
})"""


def test_a_shake_400_ms_after_the_circle_is_a_400_ms_reaction_and_one_before_it_a_false_start(tapping_server, browser):
    me = start_task(tapping_server, browser, "Shake reaction")
    past_countdown(me, "reactionTime")
    # The sensors are driven on a DevTools connection of the test's own: a reading set through chromedriver reaches the
    # browser 5 to 20 ms after it is sent, more than the measure may be off by.
    devtools = DevTools(me.driver)
    page = devtools.page(me.driver)
    upright_phone(page)
    release_page_time(me.driver)
    first_frame_shown(me.driver)
    shake = (0, 9.80665, 0)  # 1 g of user acceleration: above the 0.5 g threshold
    fast_wait(me.driver, lambda d: area_state(d) == "starting")
    tilt(page, 89.5)  # as above: the first attitude after the recorder started

    # Shaken while waiting for the circle: a false start, and the attempt runs again.
    fast_wait(me.driver, lambda d: area_state(d) == "waiting")
    hold_still(page, shake)
    fast_wait(me.driver, lambda d: area_state(d) == "falseStart")
    hold_still(page)
    assert "Too early" in me.main_text()

    # Shaken 400 ms after the circle's onset (the frame that showed it). The browser reads its sensors about 60 times a
    # second: the page waits for its last motion event before onset + 400 ms, and the shake is set at once, so the
    # first reading to carry it is the first at or after onset + 400 ms.
    fast_wait(me.driver, lambda d: area_state(d) == "stimulus")
    onset = float(me.driver.execute_script("return document.querySelector('.motion-area').dataset.onset"))
    before = page.evaluate(_LAST_MOTION_BEFORE % (onset + 400))
    hold_still(page, shake)
    given = me.driver.execute_script("return performance.now()") - onset
    fast_wait(me.driver, lambda d: area_state(d) == "reaction")
    hold_still(page)

    # Not shaken at all: a timeout, which ends the second attempt and the step.
    wait_for_step(me, "conclusion")
    assert "Shaken too early" in me.main_text()
    me.next()

    result = active_result(stored_result(tapping_server, "shake"), "reactionTime")
    trials = result["samples"]["trials"]
    assert [t["outcome"] for t in trials] == ["falseStart", "reaction", "timeout"], trials
    measures = {m["identifier"]: m["value"] for m in result["measures"]}
    print(f"\nshake reaction: measured {trials[1]['reactionTime']} ms for a shake set after the reading at "
          f"{before['last'] - onset:.1f} ms (readings {before['spacing']:.1f} ms apart) and by {given:.1f} ms; {measures}")
    # The reaction is the first reading at or after the shake: 400 ms, and at most one reading's spacing more.
    assert 400 <= trials[1]["reactionTime"] <= 420, (trials[1], before, given)
    assert trials[1]["reactionTime"] <= given + before["spacing"] + 1, (trials[1], before, given)
    assert measures["falseStarts"] == 1 and measures["timeouts"] == 1 and measures["reactions"] == 1
    # One reaction: its time is the mean and the median, given to a tenth of a millisecond (the server's rounding of a
    # value such as 411.15 need not be Python's, whose float may lie just under it).
    assert measures["meanReactionTime"] == measures["medianReactionTime"]
    assert abs(measures["meanReactionTime"] - trials[1]["reactionTime"]) <= 0.05 + 1e-9, (measures, trials[1])
    files = run_files(tapping_server, "reactionTime")
    assert len(files) == 1, list(files)
    moving = [item for item in next(iter(files.values()))["items"] if abs(item["userAcceleration"]["y"] + 1) < 0.02]
    assert moving, "the shakes are in the recorder's file"
    devtools.close()


def test_a_denied_or_silent_sensor_gives_no_shake_result(tapping_server, browser):
    me = start_task(tapping_server, browser, "Shake reaction")
    past_countdown(me, "reactionTime")
    for kind in ("accelerometer", "linear-acceleration", "gravity", "gyroscope", "relative-orientation", "absolute-orientation"):
        me.driver.execute_cdp_cmd("Emulation.setSensorOverrideEnabled", {"enabled": True, "type": kind, "metadata": {"available": False}})
    release_page_time(me.driver)
    first_frame_shown(me.driver)
    WebDriverWait(me.driver, WAIT).until(lambda d: area_state(d) == "noReadings")
    assert "No motion readings" in me.main_text()
    me.browser.check_page()
    me.driver.find_element(By.CSS_SELECTOR, ".tap-bar button").click()
    wait_for_step(me, "conclusion")
    me.next()
    result = active_result(stored_result(tapping_server, "shake"), "reactionTime")
    assert result["complete"] is False and result["samples"]["trials"] == []
    assert result["samples"]["recorders"]["deviceMotion"] == {"unavailable": "noReadings"}
    assert all(m.get("value") is None for m in result["measures"]), result["measures"]
    assert run_files(tapping_server, "reactionTime") == {}


# iOS Safari's way: the browser asks for the motion sensors only from a tap, and here the participant refuses.
_REFUSING_BROWSER = """
DeviceMotionEvent.requestPermission = () => Promise.resolve('denied');
"""


def test_refused_motion_sensors_are_said_so_and_the_tremor_is_recorded_as_denied(tapping_server, browser):
    control_page_time(browser.driver)
    browser.driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": _REFUSING_BROWSER})
    me = Participant(tapping_server, browser).join()
    me.onboard_every_format()
    me.start_survey("Hand tremor")
    past_countdown(me, "tremor.handInLap.right")
    show_step(me.driver)
    assert "Touch anywhere to start" in me.main_text()
    touch(me.driver)
    WebDriverWait(me.driver, WAIT).until(lambda d: area_state(d) == "unavailable")
    assert "Motion sensors were not allowed" in me.main_text()
    me.browser.check_page()
    me.driver.find_element(By.CSS_SELECTOR, ".tap-bar button").click()
    wait_for_step(me, "conclusion")
    me.next()
    result = active_result(stored_result(tapping_server, "tremor"), "tremor.handInLap.right")
    assert result["complete"] is False
    assert result["samples"]["recorders"] == {"accelerometer": {"unavailable": "denied"}, "deviceMotion": {"unavailable": "denied"}}
    assert all(m.get("value") is None for m in result["measures"]), result["measures"]
    assert run_files(tapping_server, "tremor_handInLap_right") == {}


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
    override_sensors(driver)
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
    me = start_task(tapping_server, browser, "Walk")
    wait_for_step(me, "walking.outbound")
    emulate_walking_phone(me.driver)
    me.driver.execute_script(_WATCH_SENSORS + _WATCH_WALK)
    show_step(me.driver)
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


def walk_through(driver, fixes):
    """Gives the page each of `fixes` (latitude, longitude, accuracy in metres) a second after the last on the page's
    clock (the recorder keeps a fix at most every 0.8 s), each waited for by the page's own `studykitFixes` count, which
    the first fix before the walk has already raised to 1."""
    for index, (latitude, longitude, accuracy) in enumerate(fixes, start=2):
        wait_for_page_clock(driver, driver.execute_script("return performance.now()") + 1000)
        driver.execute_cdp_cmd("Emulation.setGeolocationOverride", {"latitude": latitude, "longitude": longitude, "accuracy": accuracy})
        WebDriverWait(driver, WAIT).until(lambda d, n=index: d.execute_script("return window.studykitFixes") >= n)


def test_a_timed_walk_takes_the_time_between_two_touches_and_the_distance_between_accurate_fixes(tapping_server, browser):
    me = start_task(tapping_server, browser, "Timed walk")
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
    show_step(me.driver)
    started = touch(me.driver)
    WebDriverWait(me.driver, WAIT).until(lambda d: area_state(d) == "recording")
    assert "Touch anywhere when you are there" in me.main_text()
    walk_through(me.driver, fixes)
    ended = touch(me.driver)
    touch_through(me, "timed.walk.turn.around")
    touch_through(me, "timed.walk.trial2")
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
    me = start_task(tapping_server, browser, "Timed walk")
    me.next()
    emulate_walking_phone(me.driver)
    # The participant refuses the sensors and the location: every permission but none is granted.
    me.driver.execute_cdp_cmd("Browser.grantPermissions", {"permissions": [], "origin": tapping_server.base})
    for step in ("timed.walk.trial1", "timed.walk.turn.around", "timed.walk.trial2"):
        wait_for_step(me, step)
        show_step(me.driver)
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


def test_a_timed_walk_with_motion_refused_but_location_allowed_still_measures_its_distance(tapping_server, browser):
    me = start_task(tapping_server, browser, "Timed walk")
    me.next()
    wait_for_step(me, "timed.walk.trial1")
    emulate_walking_phone(me.driver)
    # Location allowed, the motion sensors not.
    me.driver.execute_cdp_cmd("Browser.grantPermissions", {"permissions": ["geolocation"], "origin": tapping_server.base})
    per_metre = 1 / (6_371_008.8 * math.pi / 180)
    fixes = [(52.52 + metres * per_metre, 13.405, 5) for metres in (0, 5, 10)]
    me.driver.execute_cdp_cmd("Emulation.setGeolocationOverride", {"latitude": 0, "longitude": 0, "accuracy": 1000})
    me.driver.execute_script("window.studykitFixes = 0; navigator.geolocation.watchPosition(() => { window.studykitFixes += 1; });")
    show_step(me.driver)
    touch(me.driver)
    WebDriverWait(me.driver, WAIT).until(lambda d: area_state(d) in ("recording", "unavailable"))
    walk_through(me.driver, fixes)
    touch(me.driver)
    touch_through(me, "timed.walk.turn.around")
    touch_through(me, "timed.walk.trial2")
    wait_for_step(me, "conclusion")
    me.next()
    result = active_result(stored_result(tapping_server, "timedwalk"), "timed.walk.trial1")
    recorders = result["samples"]["recorders"]
    assert recorders["accelerometer"] == {"unavailable": "denied"} and recorders["deviceMotion"] == {"unavailable": "denied"}, recorders
    assert recorders["location"]["items"] >= len(fixes), recorders
    measures = {m["identifier"]: m["value"] for m in result["measures"]}
    assert measures["stepCount"] is None and abs(measures["distance"] - 10) < 0.2, measures


def test_a_six_minute_walk_walks_rests_asks_its_questions_and_says_it_records_no_heart_rate(tapping_server, browser):
    """The six-minute walk, shortened by the study (a 6 s walk, a 2 s rest): the walk counts the emulated steps, the
    rest ends by itself, and the questions after it are stored with the run."""
    me = start_task(tapping_server, browser, "Six-minute walk")
    assert me.step() == "instruction"
    me.next()
    assert me.step() == "instruction1"
    assert "A browser cannot read your heart rate, so it is not recorded." in me.main_text()
    me.next()
    wait_for_step(me, "fitness.walk")
    emulate_walking_phone(me.driver)
    me.driver.execute_cdp_cmd("Browser.grantPermissions", {"permissions": ["geolocation", "sensors"], "origin": tapping_server.base})
    me.driver.execute_cdp_cmd("Emulation.setGeolocationOverride", {"latitude": 52.52, "longitude": 13.405, "accuracy": 5})
    me.driver.execute_script(_WATCH_SENSORS + _WATCH_WALK)
    show_step(me.driver)
    me.browser.check_page()
    touch(me.driver)
    WebDriverWait(me.driver, WAIT).until(lambda d: area_state(d) == "recording")
    half = math.radians(90.5) / 2  # as in the thirty-second walk: an orientation for device motion to start from
    for kind in ("relative-orientation", "absolute-orientation"):
        me.driver.execute_cdp_cmd("Emulation.setSensorOverrideReadings", {"type": kind, "reading": {"quaternion": {"x": math.sin(half), "y": 0, "z": 0, "w": math.cos(half)}}})
    walk_at_two_steps_a_second(me.driver)

    wait_for_step(me, "fitness.rest")
    swing(me.driver, 0)
    show_step(me.driver)
    touch(me.driver)
    wait_for_step(me, "fitness.questions")  # the rest ends by itself after its two seconds
    me.browser.check_page()
    assert "How hard was the walk?" in me.main_text() and "Did you stop or rest during the walk?" in me.main_text()
    me.choose("3")
    me.choose("No")
    me.next()
    wait_for_step(me, "conclusion")
    me.next()

    result = stored_result(tapping_server, "sixminute")
    walk = active_result(result, "fitness.walk")
    measures = {m["identifier"]: m["value"] for m in walk["measures"]}
    assert abs(measures["stepCount"] - 12) <= 2, measures
    assert abs(measures["duration"] - 6) < 0.05 and walk["complete"] is True, measures
    assert set(walk["samples"]["recorders"]) == {"accelerometer", "deviceMotion", "location"}, walk["samples"]["recorders"]
    rest = active_result(result, "fitness.rest")
    assert rest["complete"] is True and abs({m["identifier"]: m["value"] for m in rest["measures"]}["duration"] - 2) < 0.05, rest
    answers = {item["identifier"]: item for step in result["stepResults"] if step["identifier"] == "fitness.questions"
               for item in step["results"]}
    assert {key: item["answer"] for key, item in answers.items()} == {"fitness.questions.exertion": 3, "fitness.questions.stopped": False}, answers
    print(f"\nsix-minute walk: {measures}; answers {answers}")


def test_a_tremor_of_both_hands_measures_each_hand_apart(tapping_server, browser):
    """Both hands, one pose each: the right hand shakes at 4 Hz, the left at 6 Hz, and each hand's step says its own."""
    me = start_task(tapping_server, browser, "Tremor, both hands")
    page = DevTools(me.driver).page(me.driver)
    found = {}
    for hand, hertz in (("right", 4.0), ("left", 6.0)):
        assert me.step() == f"instruction.{hand}", me.step()
        assert f"{hand} hand" in me.main_text().lower(), me.main_text()
        me.next()
        past_countdown(me, f"tremor.handInLap.{hand}")
        upright_phone(page)
        release_page_time(me.driver)
        first_frame_shown(me.driver)
        fast_wait(me.driver, lambda d: area_state(d) == "recording")
        tilt(page, 89.5)
        tremble(page, hertz, 1.0)
        wait_for_step(me, "instruction.left" if hand == "right" else "conclusion")
    me.next()
    result = stored_result(tapping_server, "tremorboth")
    for hand in ("right", "left"):
        found[hand] = {m["identifier"]: m["value"] for m in active_result(result, f"tremor.handInLap.{hand}")["measures"]}["dominantFrequency"]
    print(f"\ntremor, both hands: {found}")
    assert abs(found["right"] - 4) <= 0.5 and abs(found["left"] - 6) <= 0.5, found
    page.devtools.close()


def test_a_shoulder_raised_to_a_hundred_and_twenty_degrees_reports_that_range_on_the_left(tapping_server, browser):
    me = start_task(tapping_server, browser, "Shoulder lift")
    ready_to_bend(me, "rangeOfMotion.left")
    assert me.h1() == "Shoulder range of motion (left)", me.h1()
    bend(me, (30, 60, 90, 120, 100, 50, 0))  # from the arm down, the phone on the upper arm
    me.next()
    measures = {m["identifier"]: m["value"] for m in active_result(stored_result(tapping_server, "shoulder"), "rangeOfMotion.left")["measures"]}
    assert abs(measures["range"] - 120) <= 2 and abs(measures["maximum"] - measures["minimum"] - measures["range"]) < 1e-6, measures


def test_a_short_walk_counts_the_steps_of_each_leg(tapping_server, browser):
    """Four steps a leg, at two a second: each leg lasts its four seconds (one a step, a browser having no pedometer)
    and counts eight steps."""
    me = start_task(tapping_server, browser, "Short walk")
    counted = {}
    for leg in ("walking.outbound", "walking.return"):
        wait_for_step(me, leg)
        emulate_walking_phone(me.driver)
        me.driver.execute_script(_WATCH_SENSORS + _WATCH_WALK)
        show_step(me.driver)
        touch(me.driver)
        WebDriverWait(me.driver, WAIT).until(lambda d: area_state(d) == "recording")
        half = math.radians(90.5) / 2
        for kind in ("relative-orientation", "absolute-orientation"):
            me.driver.execute_cdp_cmd("Emulation.setSensorOverrideReadings", {"type": kind, "reading": {"quaternion": {"x": math.sin(half), "y": 0, "z": 0, "w": math.cos(half)}}})
        walk_at_two_steps_a_second(me.driver)
    wait_for_step(me, "conclusion")
    me.next()
    result = stored_result(tapping_server, "shortwalk")
    for leg in ("walking.outbound", "walking.return"):
        counted[leg] = {m["identifier"]: m["value"] for m in active_result(result, leg)["measures"]}
    print(f"\nshort walk: {counted}")
    for leg, measures in counted.items():
        assert abs(measures["duration"] - 4) < 0.05 and abs(measures["stepCount"] - 8) <= 2, (leg, measures)
