"""Reminders are sent once, whatever happens to the server processes: with two processes over one PostgreSQL database
started together, each reminder due goes out once; and `kill -9` of an SQLite server in the middle of a round of
sends, again and again, loses no reminder and sends none twice but the one message in flight at each kill (sent,
not yet settled: the documented case), which the test counts.

Participants are driven over plain HTTP (http_participant.py); mail goes to a real SMTP server (aiosmtpd). Each wait
is on the mail server's files, the database or the server's log, never a fixed time."""
import collections
import email
import email.policy
import os
import re
import signal
import sqlite3
import time

import pytest

from conftest import ROOT, free_port, start_server
from deployment import PostgresCluster
from http_participant import Participant
from test_reminders import MailServer, link_in, next_round, rounds, text_of, wait_until

RECOVER = ROOT / "examples" / "studies" / "recover"
BERLIN_MORNING = "2027-03-23T08:30:00+01:00"
REMINDER_TIME = "2027-03-23T09:00:05+01:00"


@pytest.fixture
def mail_server(workdir):
    server = MailServer(workdir)
    yield server
    server.stop()


def reminder_options(port, mail_server):
    return ["--public-url", f"http://127.0.0.1:{port}", "--smtp-host", "127.0.0.1", "--smtp-port", str(mail_server.port),
            "--smtp-security", "plain", "--mail-from", "recover@example.org", "--reminder-interval", "2"]


def csrf(html):
    return re.search(r'name="_csrf" value="([^"]+)"', html).group(1)


def enrol_with_reminders(server, mail_server, count):
    """`count` participants enrolled in Berlin, onboarded, each with a confirmed address pN@example.org and the 09:00
    pain reminder on."""
    links = server.invite(count)
    for number, link in enumerate(links):
        me = Participant(server.base)
        me.enrol(link, time_zone="Europe/Berlin")
        me.complete_onboarding()
        _, _, page = me.page("/settings/reminders")
        status, _, body = me.request("POST", "/settings/reminders/email", {"_csrf": csrf(page), "address": f"p{number}@example.org"})
        assert status == 200, body[:300]
        confirmation = mail_server.wait_for(number + 1)
        assert confirmation["To"] == f"p{number}@example.org"
        status, _, _ = me.request("POST", link_in(text_of(confirmation), "/reminders/confirm/"), {})
        assert status == 200
        status, _, _ = me.request("POST", "/settings/reminders", {"_csrf": csrf(page), "on": "painMorning", "quietFrom": "21:00", "quietTo": "08:00"})
        assert status == 303


def reminders_received(mail_server, confirmations):
    """How many reminders each address received (the messages after the confirmations)."""
    received = collections.Counter()
    for number in range(confirmations + 1, mail_server.count() + 1):
        received[mail_server.message(number)["To"]] += 1
    return received


def test_kill_9_mid_round_loses_no_reminder_and_repeats_only_the_one_in_flight(workdir, mail_server):
    participants, kills = 60, 3
    port = free_port()
    options = reminder_options(port, mail_server)
    server = start_server(RECOVER, workdir / "data", port=port, clock_start=BERLIN_MORNING, extra=options)
    try:
        enrol_with_reminders(server, mail_server, participants)
        server.stop()
        database = workdir / "data" / "study.sqlite"
        in_flight = 0
        for kill in range(kills):
            # Each start is past the claims the killed process held (120 s), so they are claimed again.
            clock = f"2027-03-23T09:{kill * 3:02d}:05+01:00"
            before = mail_server.count()
            server = start_server(RECOVER, workdir / "data", port=port, clock_start=clock, extra=options)
            mail_server.wait_for(before + 1)
            os.kill(server.process.pid, signal.SIGKILL)
            server.process.wait(timeout=20)
            # A delivery claimed but not settled whose mail arrived was in flight at the kill: it may go again.
            with sqlite3.connect(database) as db:
                unsettled = {row[0] for row in db.execute(
                    "SELECT participantID FROM reminderDelivery WHERE state = 'sending'")}
            received_now = reminders_received(mail_server, participants)
            addresses = {row[0]: row[1] for row in sqlite3.connect(database).execute("SELECT participantID, address FROM reminderChannel")}
            in_flight += sum(1 for participant in unsettled if received_now[addresses[participant]] > 0)
        # The last start runs to the end of the round.
        server = start_server(RECOVER, workdir / "data", port=port, clock_start="2027-03-23T09:20:05+01:00", extra=options)
        def states():
            with sqlite3.connect(database) as db:
                return collections.Counter(row[0] for row in db.execute("SELECT state FROM reminderDelivery"))
        wait_until(lambda: states() == {"sent": participants}, lambda: str(states()))
        received = reminders_received(mail_server, participants)
        # None lost: every participant got the reminder.
        assert set(received) == {f"p{n}@example.org" for n in range(participants)}
        duplicates = sum(count - 1 for count in received.values())
        # None twice but the one in flight at each kill: at most one per kill, and only one that was in flight.
        assert duplicates <= in_flight <= kills, (duplicates, in_flight, received)
        print(f"kill -9 during sends: {kills} kills, {in_flight} in flight, {duplicates} sent twice, {participants} reminders")
    finally:
        server.stop()


def test_two_processes_on_postgresql_send_each_reminder_once(workdir, mail_server):
    participants = 40
    cluster = PostgresCluster()
    servers = []
    try:
        keys = workdir / "keys"
        database = ["--database", cluster.url, "--keys", str(keys)]
        port = free_port()
        options = reminder_options(port, mail_server)
        first = start_server(RECOVER, workdir / "data", port=port, clock_start=BERLIN_MORNING, extra=options, database_options=database)
        servers.append(first)
        enrol_with_reminders(first, mail_server, participants)
        first.stop()
        # Both processes start together at 09:00:05, each with its round at once and then every 2 seconds.
        other = free_port()
        servers.append(start_server(RECOVER, workdir / "data", port=port, clock_start=REMINDER_TIME, extra=options, database_options=database))
        servers.append(start_server(RECOVER, workdir / "data", port=other, clock_start=REMINDER_TIME,
                                    extra=reminder_options(other, mail_server), database_options=database))
        mail_server.wait_for(2 * participants)
        wait_until(lambda: cluster.query("SELECT count(*) FROM reminderDelivery WHERE state = 'sent'") == str(participants),
                   lambda: cluster.query("SELECT state, count(*) FROM reminderDelivery GROUP BY state"))
        # Both started again later that morning: each one's first round finds nothing due, and nothing more is sent.
        for index in (1, 2):
            server = servers[index]
            server.stop()
            log = workdir / f"server-{server.port}.log"
            before = len(rounds(log))
            servers[index] = start_server(RECOVER, workdir / "data", port=server.port, clock_start="2027-03-23T09:10:00+01:00",
                                          extra=reminder_options(server.port, mail_server), database_options=database)
            assert ": 0 due," in next_round(log, before)
        received = reminders_received(mail_server, participants)
        assert received == {f"p{n}@example.org": 1 for n in range(participants)}
        assert cluster.query("SELECT max(attempts) FROM reminderDelivery") == "1"
    finally:
        for server in servers:
            server.stop()
        cluster.stop()
