"""The participant's calendar feed (RFC 5545), read by Python's icalendar and recurring_ical_events, written by others:
over the next eight weeks it lists exactly the events the care store gives the participant (read back through the REST
API), in Berlin across the spring change and in Sydney across the autumn one, the daily tasks as repeating events
(RRULE) with the change day's pain check as an exception, each reminder they have on as an alarm at its wall-clock
time, and stable UIDs; the feed's address works without a session, and once revoked it (and any forged address)
answers 404."""
import datetime
import json
import urllib.error
import urllib.request
from zoneinfo import ZoneInfo

import icalendar
import pytest
import recurring_ical_events
from selenium.webdriver.common.by import By

from conftest import ROOT, start_server
from studypages import Participant, click_to_navigate

RECOVER = ROOT / "examples" / "studies" / "recover"

# (zone, when the participant joins, the day clocks change in the eight weeks after)
CASES = [("Europe/Berlin", "2027-03-22T10:00:00+01:00", datetime.date(2027, 3, 28)),
         ("Australia/Sydney", "2027-03-29T10:00:00+11:00", datetime.date(2027, 4, 4))]


def get(url, token=None):
    request = urllib.request.Request(url, headers={"Authorization": f"Bearer {token}"} if token else {})
    with urllib.request.urlopen(request, timeout=20) as response:
        return response.status, response.headers, response.read()


def care_store_events(base, token, first_day, days):
    """The participant's events from `first_day` for `days` days, as the REST API gives them (31 days a request):
    (task, start, end) by (task, occurrence)."""
    events = {}
    day = first_day
    while day < first_day + datetime.timedelta(days=days):
        last = min(day + datetime.timedelta(days=30), first_day + datetime.timedelta(days=days - 1))
        _, _, body = get(f"{base}/api/v1/participant/events?from={day.isoformat()}&to={last.isoformat()}", token)
        for event in json.loads(body)["events"]:
            events[(event["task"], event["occurrence"])] = (event["task"],
                                                            datetime.datetime.fromisoformat(event["start"]).astimezone(datetime.timezone.utc),
                                                            datetime.datetime.fromisoformat(event["end"]).astimezone(datetime.timezone.utc))
        day = last + datetime.timedelta(days=1)
    return events


def instant(value, zone):
    """An icalendar DTSTART/DTEND value as an aware instant: a date is its midnight in the participant's zone."""
    if isinstance(value, datetime.datetime):
        return value.astimezone(datetime.timezone.utc)
    return datetime.datetime.combine(value, datetime.time(0), zone).astimezone(datetime.timezone.utc)


def task_of(uid):
    """The task a UID names: PARTICIPANT-TASK-OCCURRENCE@host for a single event, PARTICIPANT-TASK-eELEMENT@host for a
    series."""
    return uid.split("@")[0].rsplit("-", 2)[-2]


def alarm_instants(occurrence, zone):
    """When each alarm of an occurrence goes off: an absolute trigger as it is, a relative one (recurring_ical_events
    gives a series' occurrences their series' triggers) added to the occurrence's start in exact time."""
    start = instant(occurrence["DTSTART"].dt, zone)
    triggers = [alarm["TRIGGER"].dt for alarm in occurrence.walk("VALARM")]
    return [start + trigger if isinstance(trigger, datetime.timedelta) else trigger.astimezone(datetime.timezone.utc)
            for trigger in triggers]


@pytest.mark.parametrize("zone_name,joined,change_day", CASES, ids=["Berlin", "Sydney"])
def test_the_feed_lists_the_care_stores_events_of_eight_weeks_with_alarms_and_dies_when_revoked(workdir, browser, zone_name, joined, change_day):
    zone = ZoneInfo(zone_name)
    server = start_server(RECOVER, workdir / "data", clock_start=joined, extra=["--public-url", "http://127.0.0.1:0"])
    try:
        me = Participant(server, browser).join(time_zone=zone_name)
        me.complete_recover_onboarding(check_pages=False)
        me.open("/settings/reminders")
        for reminder in ("painMorning", "phq9"):
            me.field(f"input[name=on][value={reminder}]").click()
        click_to_navigate(me.driver, me.field("form[action='/settings/reminders'] button.primary"))
        click_to_navigate(me.driver, me.field("form[action='/settings/reminders/calendar'] button"))
        assert me.page() == 200
        feed_url = me.field("#calendar-url").get_attribute("value")
        webcal = me.field("a[href^='webcal://']").get_attribute("href")
        assert webcal.split("://", 1)[1] == feed_url.split("://", 1)[1]
        # The public address given is not this server's: read the feed from the server by its path.
        path = "/" + feed_url.split("/", 3)[3]
        status, headers, body = get(server.base + path)
        assert status == 200 and headers["Content-Type"] == "text/calendar; charset=utf-8"
        calendar = icalendar.Calendar.from_ical(body)
        assert calendar.to_ical() and calendar["METHOD"] == "PUBLISH"
        assert [tz["TZID"] for tz in calendar.walk("VTIMEZONE")] == [zone_name]

        start = datetime.datetime.fromisoformat(joined).astimezone(zone).replace(hour=0, minute=0, second=0)
        end = start + datetime.timedelta(weeks=8)
        occurrences = recurring_ical_events.of(calendar).between(start, end)
        token = me.session_cookie()["value"]
        expected = care_store_events(server.base, token, start.date(), 56)
        expected = [value for value in expected.values() if value[2] > start and value[1] < end]

        # Each occurrence is its task (from the UID) and its start; with its end, exactly the care store's events,
        # none twice.
        found = []
        seen = set()
        for event in occurrences:
            uid = str(event["UID"])
            task = task_of(uid)
            begins, ends = instant(event["DTSTART"].dt, zone), instant(event["DTEND"].dt, zone)
            assert (uid, begins) not in seen, f"{uid} at {begins} twice"
            seen.add((uid, begins))
            found.append((task, begins, ends))
            # Each alarm of the pain check is at 09:00 on the participant's wall clock, whatever the offset that day.
            alarms = alarm_instants(event, zone)
            if task == "pain" and begins > datetime.datetime.fromisoformat(joined):
                assert [a.astimezone(zone).time() for a in alarms] == [datetime.time(9, 0)], (uid, begins, alarms)
            if task in ("exercises", "medication", "icing", "weekly", "symptoms", "checkIn"):
                assert alarms == [], uid
        assert len(expected) > 200
        assert len(found) == len(set(found)) and len(expected) == len(set(expected))
        assert sorted(found) == sorted(expected)

        # The daily tasks are repeating events; the pain check's change day, whose 09:00 alarm is not nine hours after
        # its midnight, is excluded from its series and stands alone with its alarm at 09:00 local.
        change_offsets = {zone.utcoffset(datetime.datetime.combine(change_day, datetime.time(1))),
                          zone.utcoffset(datetime.datetime.combine(change_day, datetime.time(12)))}
        assert len(change_offsets) == 2
        series = {task_of(str(e["UID"])): e for e in calendar.walk("VEVENT") if "RRULE" in e}
        assert {"exercises", "pain", "medication", "symptoms", "icing", "weekly"} <= set(series), sorted(series)
        assert series["exercises"]["RRULE"]["FREQ"] == ["DAILY"] and series["weekly"]["RRULE"]["FREQ"] == ["WEEKLY"]
        exdates = series["pain"].get("EXDATE")
        exdates = [exdates] if not isinstance(exdates, list) else exdates
        assert change_day in [d.dt for e in exdates for d in e.dts]
        singles = [e for e in calendar.walk("VEVENT") if "RRULE" not in e and task_of(str(e["UID"])) == "pain"]
        assert [e["DTSTART"].dt for e in singles if e["DTSTART"].dt == change_day] == [change_day]

        # Read again: the same UIDs and starts, so a calendar updates its events instead of adding them twice.
        again = recurring_ical_events.of(icalendar.Calendar.from_ical(get(server.base + path)[2])).between(start, end)
        assert {(str(e["UID"]), instant(e["DTSTART"].dt, zone)) for e in again} == seen

        # Revoked: the address answers 404, and a forged one too.
        click_to_navigate(me.driver, me.field("form[action='/settings/reminders/calendar/revoke'] button"))
        for url in (server.base + path, server.base + path.replace(".ics", "x.ics"), server.base + "/calendar/nothing.ics"):
            with pytest.raises(urllib.error.HTTPError) as refused:
                get(url)
            assert refused.value.code == 404
    finally:
        server.stop()
