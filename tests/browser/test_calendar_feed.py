"""The participant's calendar feed (RFC 5545), read by Python's icalendar and recurring_ical_events, written by others:
over the next eight weeks it lists exactly the events the care store gives the participant (read back through the REST
API), in Berlin across the spring change and in Sydney across the autumn one, each reminder they have on as an alarm
at its wall-clock time, and a stable UID per event; the feed's address works without a session, and once revoked it
(and any forged address) answers 404."""
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
    """The participant's events from `first_day` for `days` days, as the REST API gives them (31 days a request)."""
    events = {}
    day = first_day
    while day < first_day + datetime.timedelta(days=days):
        last = min(day + datetime.timedelta(days=30), first_day + datetime.timedelta(days=days - 1))
        _, _, body = get(f"{base}/api/v1/participant/events?from={day.isoformat()}&to={last.isoformat()}", token)
        for event in json.loads(body)["events"]:
            events[(event["task"], event["occurrence"])] = (datetime.datetime.fromisoformat(event["start"]),
                                                            datetime.datetime.fromisoformat(event["end"]))
        day = last + datetime.timedelta(days=1)
    return events


def instant(value, zone):
    """An icalendar DTSTART/DTEND value as an aware instant: a date is its midnight in the participant's zone."""
    if isinstance(value, datetime.datetime):
        return value.astimezone(datetime.timezone.utc)
    return datetime.datetime.combine(value, datetime.time(0), zone).astimezone(datetime.timezone.utc)


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
        expected = {key: value for key, value in expected.items() if value[1] > start and value[0] < end}

        found = {}
        uids = set()
        for event in occurrences:
            uid = str(event["UID"])
            assert uid not in uids, f"UID {uid} twice"
            uids.add(uid)
            # UID: PARTICIPANT-TASK-OCCURRENCE@host
            task, occurrence = uid.split("@")[0].rsplit("-", 2)[-2:]
            found[(task, int(occurrence))] = (instant(event["DTSTART"].dt, zone), instant(event["DTEND"].dt, zone))
            # Each alarm of the pain check is at 09:00 on the participant's wall clock, whatever the offset that day.
            alarms = [alarm["TRIGGER"].dt for alarm in event.walk("VALARM")]
            if task == "pain" and found[(task, int(occurrence))][0] > datetime.datetime.fromisoformat(joined):
                assert [a.astimezone(zone).time() for a in alarms] == [datetime.time(9, 0)], (uid, alarms)
            if task in ("exercises", "medication", "icing", "weekly", "symptoms", "checkIn"):
                assert alarms == [], uid
        assert len(expected) > 200
        assert found == {key: (a.astimezone(datetime.timezone.utc), b.astimezone(datetime.timezone.utc)) for key, (a, b) in expected.items()}
        # The change day is in the window, and its pain alarm is at 09:00 local though the offset changed that night.
        change_offsets = {zone.utcoffset(datetime.datetime.combine(change_day, datetime.time(1))),
                          zone.utcoffset(datetime.datetime.combine(change_day, datetime.time(12)))}
        assert len(change_offsets) == 2

        # Read again: the same UIDs, so a calendar updates its events instead of adding them twice.
        assert {str(e["UID"]) for e in recurring_ical_events.of(icalendar.Calendar.from_ical(get(server.base + path)[2])).between(start, end)} == uids

        # Revoked: the address answers 404, and a forged one too.
        click_to_navigate(me.driver, me.field("form[action='/settings/reminders/calendar/revoke'] button"))
        for url in (server.base + path, server.base + path.replace(".ics", "x.ics"), server.base + "/calendar/nothing.ics"):
            with pytest.raises(urllib.error.HTTPError) as refused:
                get(url)
            assert refused.value.code == 404
    finally:
        server.stop()
