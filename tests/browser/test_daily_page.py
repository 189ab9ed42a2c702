"""The daily page in a real browser, on a server whose clock starts at a chosen instant (`serve --clock-start`): the
week's rings, the cards of the code-along's care plan (a checklist, a grid, a log, a survey) recorded and undone, and
week and day navigation across a daylight-saving change in both hemispheres."""
import http.client
import re
import socket

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

from conftest import ROOT, start_server
from http_participant import Participant as HTTPParticipant
from studypages import WAIT, Participant, click_to_navigate, mark_page, wait_for_new_page

RECOVER = ROOT / "examples" / "studies" / "recover"

# Enrolment on a Wednesday (day 0) and the evening of day 1, when every event of that day has started; the Sunday of
# the change is day 4. Berlin springs forward on 28 March 2027 (a 23-hour day), Sydney falls back on 4 April 2027.
ZONES = {
    "Europe/Berlin": ("2027-03-24T10:00:00+01:00", "2027-03-25T21:00:00+01:00", "2027-03-28", "Sunday, March 28, 2027"),
    "Australia/Sydney": ("2027-03-31T10:00:00+11:00", "2027-04-01T21:00:00+11:00", "2027-04-04", "Sunday, April 4, 2027"),
}


def plain(text):
    """A control's own text as a person reads it: without the task's title that only screen readers get (on a line
    of its own), and with ordinary spaces where ICU puts a narrow no-break space before AM and PM."""
    return text.split("\n")[0].replace("\u202f", " ").replace("\xa0", " ")


@pytest.fixture
def day_one(workdir, request):
    """A server on day 0 in `request.param`'s zone, and a function that restarts it on the same data and port with its
    clock at 21:00 on day 1 (so the participant's cookie still reaches it). Yields (zone, server, restart)."""
    zone = request.param
    enrolled, evening, _, _ = ZONES[zone]
    data = workdir / "data"
    servers = [start_server(RECOVER, data, clock_start=enrolled)]

    def restart():
        servers[-1].stop()
        servers.append(start_server(RECOVER, data, port=servers[0].port, clock_start=evening))
        return servers[-1]

    yield zone, servers[0], restart
    servers[-1].stop()


def onboarded_on_day_one(day_one, browser):
    """A participant who joined in the fixture's zone and took the onboarding on day 0, on the server restarted at
    21:00 on day 1."""
    zone, first, restart = day_one
    me = Participant(first, browser).join(time_zone=zone)
    me.complete_recover_onboarding(check_pages=False)
    me.server = restart()
    return me


def ring_label(me, day):
    """The week strip's label of the day whose link is `/?day=DAY`."""
    return me.driver.find_element(By.CSS_SELECTOR, f"nav.week a[href='/?day={day}']").get_attribute("aria-label")


def card(me, title):
    return next(c for c in me.driver.find_elements(By.CSS_SELECTOR, "main li.card") if c.find_element(By.TAG_NAME, "h2").text == title)


def press(me, title, index=0, css="button"):
    """Presses the index-th button of the card titled `title`; waits for the page after it."""
    click_to_navigate(me.driver, card(me, title).find_elements(By.CSS_SELECTOR, css)[index])


def pressed(me, title):
    return [b.get_attribute("aria-pressed") for b in card(me, title).find_elements(By.CSS_SELECTOR, "ul button")]


@pytest.mark.parametrize("day_one", ["Europe/Berlin"], indirect=True)
def test_cards_record_undo_and_log_and_the_ring_follows(day_one, browser):
    me = onboarded_on_day_one(day_one, browser)
    me.open("/")
    today = "2027-03-25"
    assert me.h1() == "Today"
    assert me.driver.find_element(By.CSS_SELECTOR, "nav.week a[aria-current=date]").get_attribute("href").endswith(f"/?day={today}")
    # Day 1 counts eight events: three exercise sessions, three doses (the dinner dose is every other day, from day
    # 1), the icing and the pain check.
    assert ring_label(me, today).endswith(": 0% done")
    assert [plain(r.text) for r in card(me, "Knee exercises").find_elements(By.CSS_SELECTOR, "ul button")] == [
        "8:00 AM · after breakfast", "1:00 PM · after lunch", "7:00 PM · after dinner"]
    assert [plain(b.text) for b in card(me, "Doxylamine").find_elements(By.CSS_SELECTOR, "ul button")] == ["8:30 AM", "1:30 PM", "7:30 PM"]
    me.page()

    press(me, "Knee exercises", 0)
    assert pressed(me, "Knee exercises") == ["true", "false", "false"]
    assert ring_label(me, today).endswith(": 13% done")
    press(me, "Doxylamine", 2)
    assert pressed(me, "Doxylamine") == ["false", "false", "true"]
    assert ring_label(me, today).endswith(": 25% done")
    press(me, "Knee exercises", 0)  # pressed again: undone
    assert pressed(me, "Knee exercises") == ["false", "false", "false"]
    assert ring_label(me, today).endswith(": 13% done")
    # The icing, one event today: a simple card, recorded with one tap and undone with another.
    assert [plain(b.text) for b in card(me, "Ice the knee").find_elements(By.TAG_NAME, "button")] == ["Mark as done"]
    press(me, "Ice the knee", 0)
    assert card(me, "Ice the knee").find_element(By.TAG_NAME, "button").get_attribute("aria-pressed") == "true"
    assert plain(card(me, "Ice the knee").find_element(By.TAG_NAME, "button").text) == "Completed"
    assert ring_label(me, today).endswith(": 25% done")
    press(me, "Ice the knee", 0)
    assert card(me, "Ice the knee").find_element(By.TAG_NAME, "button").get_attribute("aria-pressed") == "false"
    assert ring_label(me, today).endswith(": 13% done")

    # The nausea log: each press adds a time, each time can be deleted; the ring does not move.
    assert "Nothing logged yet." in card(me, "Nausea").text
    press(me, "Nausea", 0)
    press(me, "Nausea", 0)
    entries = card(me, "Nausea").find_elements(By.CSS_SELECTOR, "ul.log li")
    assert len(entries) == 2 and all(re.fullmatch(r"9:0\d PM", plain(e.find_element(By.TAG_NAME, "span").text)) for e in entries)
    assert ring_label(me, today).endswith(": 13% done")
    click_to_navigate(me.driver, entries[0].find_element(By.TAG_NAME, "button"))
    assert len(card(me, "Nausea").find_elements(By.CSS_SELECTOR, "ul.log li")) == 1
    me.page()

    # The pain check from its card: Begin, answer, and the card says when it was completed.
    me.take_pain_check(3)
    assert re.search(r"Completed at 9:0\d PM", card(me, "Daily pain check").text.replace("\u202f", " "))
    assert ring_label(me, today).endswith(": 25% done")

    # Taken back from its card: asked first (Cancel changes nothing), then the card offers Begin again.
    click_to_navigate(me.driver, card(me, "Daily pain check").find_element(By.PARTIAL_LINK_TEXT, "Take back"))
    assert me.h1() == "Take back your answers to “Daily pain check”?"
    me.page()
    click_to_navigate(me.driver, me.driver.find_element(By.LINK_TEXT, "Cancel"))
    assert me.path() == f"/?day={today}" and "Completed at" in card(me, "Daily pain check").text
    click_to_navigate(me.driver, card(me, "Daily pain check").find_element(By.PARTIAL_LINK_TEXT, "Take back"))
    click_to_navigate(me.driver, me.driver.find_element(By.CSS_SELECTOR, "main form button[type=submit]"))
    assert me.path() == f"/?day={today}"
    assert "Completed at" not in card(me, "Daily pain check").text
    assert card(me, "Daily pain check").find_element(By.CSS_SELECTOR, "a.button.primary").text.startswith("Start")
    assert ring_label(me, today).endswith(": 13% done")

    # Insights: the week's chart has the same numbers as the cards: two sessions today, no pain (taken back).
    press(me, "Knee exercises", 0)
    press(me, "Knee exercises", 1)
    click_to_navigate(me.driver, me.driver.find_element(By.LINK_TEXT, "Insights"))
    assert me.h1() == "Insights"
    me.driver.find_element(By.CSS_SELECTOR, "figure details summary").click()
    rows = {r.find_element(By.TAG_NAME, "th").text: [c.text for c in r.find_elements(By.TAG_NAME, "td")]
            for r in me.driver.find_elements(By.CSS_SELECTOR, "figure tbody tr")}
    assert rows["Thursday, March 25"] == ["2", "–"] and rows["Wednesday, March 24"] == ["0", "–"], rows
    assert me.driver.find_element(By.CSS_SELECTOR, "figure svg").get_attribute("aria-label").startswith("Exercise and pain")
    me.page()
    click_to_navigate(me.driver, me.driver.find_element(By.LINK_TEXT, "Home"))

    # Yesterday (day 0) is over: its pain check can no longer be started from a crafted link.
    http = HTTPParticipant(me.server.base)
    cookie = me.session_cookie()
    http.opener.addheaders = [("Cookie", f"{cookie['name']}={cookie['value']}")]
    status, _, body = http.page("/?day=2027-03-24")
    occurrence = re.search(r"/tasks/pain/(\d+)", body)
    assert status == 200 and occurrence is None, "a closed day offers no Begin"
    status, _, body = http.page("/tasks/pain/0")
    assert status == 409 and "This day is over" in body
    for bad in ("2027-02-30", "27-03-25", "2027-3-25", "tomorrow", "2400-01-01"):
        status, _, body = http.page(f"/?day={bad}")
        assert status == 400 and "YYYY-MM-DD" in body, bad


@pytest.mark.parametrize("day_one", list(ZONES), indirect=True)
def test_week_and_day_navigation_across_the_change(day_one, browser):
    _, _, change_day, change_title = ZONES[day_one[0]]
    me = onboarded_on_day_one(day_one, browser)
    me.open("/")
    # The next week starts on the Sunday of the change (an English week starts on Sunday).
    click_to_navigate(me.driver, me.driver.find_element(By.CSS_SELECTOR, "nav.week a[rel=next]"))
    days = [a.get_attribute("href").split("day=")[1] for a in me.driver.find_elements(By.CSS_SELECTOR, "nav.week ol a")]
    assert days[0] == change_day and len(days) == 7
    assert all("not yet" in a.get_attribute("aria-label") for a in me.driver.find_elements(By.CSS_SELECTOR, "nav.week ol a"))
    click_to_navigate(me.driver, me.driver.find_element(By.CSS_SELECTOR, f"nav.week a[href='/?day={change_day}']"))
    assert me.h1() == change_title
    # On the wall clock the sessions and doses keep their times through the change; day 4 has no dinner dose; a
    # future event has no button.
    rows = [plain(s.text) for s in card(me, "Knee exercises").find_elements(By.CSS_SELECTOR, "ul .slot")]
    assert rows == ["8:00 AM · after breakfast", "1:00 PM · after lunch", "7:00 PM · after dinner"]
    assert [plain(s.text) for s in card(me, "Doxylamine").find_elements(By.CSS_SELECTOR, "ul .slot")] == ["8:30 AM", "1:30 PM"]
    assert not card(me, "Knee exercises").find_elements(By.TAG_NAME, "button")
    assert "Any time" in card(me, "Daily pain check").text and not card(me, "Daily pain check").find_elements(By.TAG_NAME, "a")
    me.page()
    # The day after the change has the dinner dose again; back to today by the link.
    click_to_navigate(me.driver, me.driver.find_element(By.CSS_SELECTOR, "nav.week ol li:nth-child(2) a"))
    assert len(card(me, "Doxylamine").find_elements(By.CSS_SELECTOR, "ul .slot")) == 3
    click_to_navigate(me.driver, me.driver.find_element(By.LINK_TEXT, "Back to today"))
    assert me.h1() == "Today" and me.path() == "/"


@pytest.mark.parametrize("day_one", ["Europe/Berlin"], indirect=True)
def test_a_second_window_follows_every_change_within_a_second_without_reloading(day_one, browser):
    me = onboarded_on_day_one(day_one, browser)
    driver = me.driver
    me.open("/")
    phone = driver.current_window_handle
    # A third tab holds the insights chart: it follows too.
    driver.switch_to.new_window("tab")
    me.open("/insights")
    insights = driver.current_window_handle
    mark_page(driver)
    WebDriverWait(driver, WAIT).until(lambda d: d.execute_script("return document.documentElement.dataset.events === 'open'"))
    driver.switch_to.new_window("tab")
    me.open("/")
    laptop = driver.current_window_handle
    mark_page(driver)  # a reload would clear the mark
    # The live stream is open before anything changes.
    WebDriverWait(driver, WAIT).until(lambda d: d.execute_script("return document.documentElement.dataset.events === 'open'"))
    today = "2027-03-25"

    def on_the_chart(column=0):
        """A number of today's row in the chart's table: the exercise count (column 0) or the mean pain (column 1). The
        table is in a closed <details>: its text content is read."""
        return driver.execute_script("""
            const row = [...document.querySelectorAll('figure tbody tr')].find(r => r.querySelector('th').textContent === 'Thursday, March 25');
            return row ? row.querySelectorAll('td')[arguments[0]].textContent : null;""", column)

    def posted():
        """When the page on screen, which a post led to, was asked for: its navigation's start (the post's), on the
        page's clock in seconds since the epoch."""
        return driver.execute_script("return performance.timeOrigin") / 1000

    def follows(window, since, expected, what):
        """Switches to `window` and waits until `expected()` holds there; asserts that the window was not reloaded
        and, by the pages' own clocks, that the fresh content was in place there (the live script's `data-updated`)
        within a second of `since`, the start of the post that made the change. The test's own pace, however slow
        on a loaded machine, is not part of the measure."""
        driver.switch_to.window(window)
        WebDriverWait(driver, WAIT, poll_frequency=0.05).until(lambda d: expected(), what)
        assert driver.execute_script("return window.studykitTestMark === true"), f"reloaded instead: {what}"
        updated = driver.execute_script("return Number(document.querySelector('[data-live]').dataset.updated) / 1000")
        assert 0 < updated - since < 1.0, f"{what}: in place {updated - since:.3f} s after the post"

    def on_laptop(expected, what):
        """The second window follows the change the first window has just posted, within a second; back on the first."""
        follows(laptop, posted(), expected, what)
        driver.switch_to.window(phone)

    driver.switch_to.window(phone)
    press(me, "Knee exercises", 1)
    since = posted()
    on_laptop(lambda: pressed(me, "Knee exercises") == ["false", "true", "false"] and ring_label(me, today).endswith(": 13% done"),
              "the exercise session and the ring on the second window")
    follows(insights, since, lambda: on_the_chart(0) == "1", "the chart on the third tab")
    driver.switch_to.window(phone)
    press(me, "Nausea", 0)
    on_laptop(lambda: len(card(me, "Nausea").find_elements(By.CSS_SELECTOR, "ul.log li")) == 1, "the logged time")
    press(me, "Knee exercises", 1)
    on_laptop(lambda: pressed(me, "Knee exercises") == ["false", "false", "false"] and ring_label(me, today).endswith(": 0% done"),
              "the undone session")
    # And the other way round: what the second window does shows on the first (marked: its last post made it a new page).
    mark_page(driver)
    driver.switch_to.window(laptop)
    press(me, "Doxylamine", 0)
    follows(phone, posted(), lambda: pressed(me, "Doxylamine")[0] == "true", "the dose on the first window")

    # The pain check completed from its card in the first window, then taken back: each time the second window's card
    # and ring agree with the first's, and the chart's pain follows on the third tab. (The second window posted the
    # dose itself, so its page is a new one: marked again.)
    driver.switch_to.window(laptop)
    mark_page(driver)
    driver.switch_to.window(phone)
    before = ring_label(me, today)
    me.take_pain_check(3)
    since = posted()
    completed = ring_label(me, today)
    assert "Completed at" in card(me, "Daily pain check").text and completed != before
    on_laptop(lambda: "Completed at" in card(me, "Daily pain check").text and ring_label(me, today) == completed,
              "the completed survey and its ring on the second window")
    follows(insights, since, lambda: on_the_chart(1) == "3", "the pain on the chart")
    driver.switch_to.window(phone)
    click_to_navigate(driver, card(me, "Daily pain check").find_element(By.PARTIAL_LINK_TEXT, "Take back"))
    click_to_navigate(driver, driver.find_element(By.CSS_SELECTOR, "main form button[type=submit]"))
    since = posted()
    assert "Completed at" not in card(me, "Daily pain check").text and ring_label(me, today) == before
    on_laptop(lambda: "Completed at" not in card(me, "Daily pain check").text and ring_label(me, today) == before,
              "the survey taken back and its ring on the second window")
    follows(insights, since, lambda: on_the_chart(1) == "–", "the pain taken off the chart")


def read_events(base, cookie, last_event_id=None, until=r"\n\n", quiet=1.5):
    """The text a /events stream sends (with `Last-Event-ID` when given): everything up to the first match of the
    pattern `until` (by default the stream's first record), however long a loaded server takes to send it (WAIT at
    most), and whatever follows it before the stream has been quiet for `quiet` seconds."""
    connection = http.client.HTTPConnection(base.split("//")[1], timeout=WAIT)
    headers = {"Cookie": cookie}
    if last_event_id:
        headers["Last-Event-ID"] = last_event_id
    connection.request("GET", "/events", headers=headers)
    response = connection.getresponse()
    assert response.status == 200 and response.getheader("Content-Type").startswith("text/event-stream")
    text = b""
    try:
        while not re.search(until, text.decode()):
            chunk = response.read1(4096)
            if not chunk:
                break
            text += chunk
        connection.sock.settimeout(quiet)
        while True:
            chunk = response.read1(4096)
            if not chunk:
                break
            text += chunk
    except (TimeoutError, socket.timeout):
        pass
    connection.close()
    return text.decode()


@pytest.mark.parametrize("day_one", ["Europe/Berlin"], indirect=True)
def test_a_reconnecting_page_learns_what_it_missed(day_one):
    zone, first, restart = day_one
    http = HTTPParticipant(first.base)
    http.enrol(first.invite()[0], time_zone=zone)
    http.complete_onboarding()
    cookie = "; ".join(f"{c.name}={c.value}" for c in http.cookies)
    # Before the restart: enrolment (the care plan) and the onboarding's outcome were changes 1 and 2 of this
    # participant on this run of the server.
    changed = r"id: (\w+)\.{}\nevent: changed\ndata: {}\n\n"
    current = read_events(first.base, cookie, last_event_id="nobody.0", until=changed.format(2, 2))
    before = re.search(changed.format(2, 2), current)
    assert before, current
    server = restart()
    opening = read_events(server.base, cookie)
    assert opening == "retry: 3000\n\n", opening
    # The server restarted: an id of its earlier run is stale, so the stream opens with an event.
    after_restart = read_events(server.base, cookie, last_event_id=f"{before.group(1)}.2", until=changed.format(0, 0))
    boot = re.search(changed.format(0, 0), after_restart)
    assert boot and boot.group(1) != before.group(1), after_restart
    assert "event: changed" not in read_events(server.base, cookie, last_event_id=f"{boot.group(1)}.0"), "nothing missed"
    # A change while the page was away: the stream opens with it.
    _, _, body = http.page("/")
    occurrence = re.search(r'action="/tasks/symptoms/(\d+)/log"', body).group(1)
    csrf = re.search(r'name="_csrf" value="([^"]+)"', body).group(1)
    assert http.request("POST", f"/tasks/symptoms/{occurrence}/log", {"_csrf": csrf, "day": "2027-03-25"})[:2] == (303, "/?day=2027-03-25")
    missed = read_events(server.base, cookie, last_event_id=f"{boot.group(1)}.0", until=changed.format(1, 1))
    assert f"id: {boot.group(1)}.1\nevent: changed\ndata: 1\n\n" in missed, missed
    # Without a session there is no stream.
    assert http_client_status(server.base, "/events") == 401


def http_client_status(base, path):
    connection = http.client.HTTPConnection(base.split("//")[1], timeout=WAIT)
    connection.request("GET", path)
    status = connection.getresponse().status
    connection.close()
    return status


@pytest.mark.parametrize("day_one", ["Europe/Berlin"], indirect=True)
def test_the_daily_page_works_by_keyboard_alone(day_one, browser):
    me = onboarded_on_day_one(day_one, browser)
    me.open("/")
    driver = me.driver

    def tab_to(description, matches, limit=120):
        """Presses Tab until the focused element satisfies `matches` (a JS expression on `el`); returns how many."""
        for count in range(1, limit + 1):
            ActionChains(driver).send_keys(Keys.TAB).perform()
            if driver.execute_script(f"const el = document.activeElement; return !!({matches});"):
                return count
        raise AssertionError(f"Tab never reached {description}")

    # The week comes first: its next-week link, then the cards' buttons, in reading order.
    tab_to("the next-week link", "el.rel === 'next'")
    tab_to("the icing button", "el.tagName === 'BUTTON' && el.textContent.includes('Ice the knee')")
    mark_page(driver)
    ActionChains(driver).send_keys(Keys.ENTER).perform()
    wait_for_new_page(driver)
    assert card(me, "Ice the knee").find_element(By.TAG_NAME, "button").get_attribute("aria-pressed") == "true"
    # A log entry too.
    tab_to("the nausea Log button", "el.tagName === 'BUTTON' && el.textContent.startsWith('Log')")
    mark_page(driver)
    ActionChains(driver).send_keys(Keys.ENTER).perform()
    wait_for_new_page(driver)
    assert len(card(me, "Nausea").find_elements(By.CSS_SELECTOR, "ul.log li")) == 1
