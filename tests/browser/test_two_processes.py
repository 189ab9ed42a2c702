"""Two StudyKit processes behind nginx over one PostgreSQL database, as deploy/ sets them up: a participant enrols
and onboards through the proxy; their page open on process A follows what they do through process B within a
second; `kill -9` of either process while answers are being given loses no acknowledged answer and the proxy keeps
serving through the other; PostgreSQL restarted under the same load answers 503 with Retry-After meanwhile, never a
500, and loses nothing; a withdrawal recorded on one process is refused data on the other at once, and ends the
participant's live-update stream open there.

Each test starts its own PostgreSQL cluster (scripts/postgres-cluster: one of them is restarted), two `studykit
serve --database … --keys …` processes, and nginx with deploy/nginx/studykit.conf (deployment.py), and stops them all
whatever happens. PostgreSQL stays down 12 s in the restart test: longer than a request waits for a connection
(10 s), so that requests meet the outage whatever the timing."""
import datetime
import os
import re
import signal
import socket
import threading
import time
import urllib.request
from pathlib import Path

import pytest
from selenium.webdriver.support.ui import WebDriverWait

from conftest import ROOT, start_server
from deployment import NGINX, Nginx, PostgresCluster
from http_participant import Participant
from studypages import WAIT, mark_page

RECOVER = ROOT / "examples" / "studies" / "recover"

pytestmark = pytest.mark.skipif(not Path(NGINX).exists(), reason="nginx is not installed (make test installs Debian's nginx)")


@pytest.fixture
def postgres():
    cluster = PostgresCluster()
    yield cluster
    cluster.stop()


class Deployment:
    """The two processes, nginx in front, and the commands that act on the study's database."""

    def __init__(self, workdir, postgres):
        self.workdir, self.postgres = workdir, postgres
        self.keys = workdir / "keys"
        self.servers = {}
        self.nginx = None

    def database_options(self):
        return ["--database", self.postgres.url, "--keys", str(self.keys)]

    def serve(self, name, port=None, clock_start=None):
        # The processes share one data folder, as deploy/'s do: the audit trail's anchor is kept there.
        self.servers[name] = start_server(RECOVER, self.workdir / "data", port=port, clock_start=clock_start,
                                          database_options=self.database_options(), extra=["--trusted-proxy", "127.0.0.1"])
        return self.servers[name]

    def on_the_real_clock(self):
        """Both processes started again, one after the other, on the real clock (they began on yesterday's)."""
        for name, server in list(self.servers.items()):
            server.stop()
            self.serve(name, port=server.port)

    def base(self, name):
        return self.servers[name].base

    @property
    def proxy(self):
        return self.nginx.base

    def kill(self, name):
        """`kill -9` of a process, then the same process started again on its port."""
        server = self.servers[name]
        os.kill(server.process.pid, signal.SIGKILL)
        server.process.wait(timeout=20)
        self.serve(name, port=server.port)

    def invite(self):
        return self.servers["a"].invite(base_url=self.proxy)[0]

    def stop(self):
        if self.nginx:
            self.nginx.stop()
        for server in self.servers.values():
            server.stop(kill=True)


@pytest.fixture
def deployment(workdir, postgres):
    deployment = Deployment(workdir, postgres)
    # The processes start on yesterday's clock, so that participants who enrol now have today as their first day,
    # when the Nausea log (from day 1) is open; `on_the_real_clock()` brings them to today.
    yesterday = (datetime.datetime.now(datetime.timezone.utc) - datetime.timedelta(days=1)).strftime("%Y-%m-%dT09:00:00Z")
    try:
        deployment.serve("a", clock_start=yesterday)
        deployment.serve("b", clock_start=yesterday)
        deployment.nginx = Nginx(workdir / "nginx", [deployment.servers["a"].port, deployment.servers["b"].port])
        yield deployment
    finally:
        deployment.stop()


def onboarded(deployment, count=1):
    """`count` participants enrolled (in UTC) and onboarded through the proxy yesterday; then the processes are on
    today's clock."""
    participants = []
    for _ in range(count):
        participant = Participant(deployment.proxy)
        participant.enrol(deployment.invite(), time_zone="UTC")
        participant.complete_onboarding()
        participants.append(participant)
    deployment.on_the_real_clock()
    return participants


def nausea_log(participant, base):
    """The daily page's Nausea log form (through `base`): its action and the page's CSRF token."""
    html = participant.page(base + "/")[2]
    return re.search(r'action="(/tasks/symptoms/\d+/log)"', html).group(1), re.search(r'name="_csrf" value="([^"]+)"', html).group(1)


def logged_today(participant, base):
    """How many times the Nausea card of today's page (through `base`) lists the participant's logs."""
    html = participant.page(base + "/")[2]
    card = html[html.index(">Nausea</h2>"):]
    card = card[:card.index("</li>\n</ul>") if "</li>\n</ul>" in card else len(card)]
    log = card[card.index('<ul class="log">'):]
    return log[:log.index("</ul>")].count("<li>")


def test_a_page_open_on_one_process_follows_what_is_done_through_the_other_within_a_second(deployment, browser):
    me, = onboarded(deployment)
    driver = browser.driver
    # The participant's browser, signed in with the same session, shows today's page straight from process A.
    driver.get(deployment.base("a") + "/health")
    for cookie in me.cookies:
        driver.add_cookie({"name": cookie.name, "value": cookie.value, "path": "/"})
    driver.get(deployment.base("a") + "/")
    mark_page(driver)
    WebDriverWait(driver, WAIT).until(lambda d: d.execute_script("return document.documentElement.dataset.events === 'open'"))
    action, csrf = nausea_log(me, deployment.base("b"))

    def shown():
        return driver.execute_script(
            "const card = [...document.querySelectorAll('main li.card')].find(c => c.querySelector('h2').textContent === 'Nausea');"
            "return card ? card.querySelectorAll('ul.log li').length : -1;")

    for count in (1, 2, 3):
        since = time.time()
        status, _, body = me.request("POST", deployment.base("b") + action, {"_csrf": csrf})
        assert status == 303, body[:300]
        WebDriverWait(driver, WAIT, poll_frequency=0.05).until(lambda d: shown() == count, f"log {count} on process A's page")
        assert driver.execute_script("return window.studykitTestMark === true"), "process A's page reloaded instead of following"
        updated = driver.execute_script("return Number(document.querySelector('[data-live]').dataset.updated) / 1000")
        assert 0 < updated - since < 1.0, f"log {count}: on process A's page {updated - since:.3f} s after the post to process B"


class AnswerProgress:
    """What the answer loop has done so far, and a way to wait on it without polling: every answer it counts wakes
    whoever waits."""

    def __init__(self, participants):
        self.condition = threading.Condition()
        self.acknowledged = [0] * participants
        # Acknowledged answers per process, by the address nginx names in X-Upstream.
        self.served_by = {}
        self.refused = []
        self.errors = []

    def note(self, index, status, upstream, body):
        with self.condition:
            if status == 303:
                self.acknowledged[index] += 1
                self.served_by[upstream] = self.served_by.get(upstream, 0) + 1
            else:
                self.refused.append((status, body[:200]))
            self.condition.notify_all()

    def wait_until(self, predicate, timeout=60):
        """Waits until `predicate(self)` holds (checked after each answer); False when `timeout` passed first."""
        with self.condition:
            return self.condition.wait_for(lambda: predicate(self), timeout)

    @property
    def total(self):
        return sum(self.acknowledged)


def answer_loop(deployment, participants, stop, progress):
    """Logs Nausea through the proxy, participant after participant, until `stop` is set: each 303 is an acknowledged
    answer (counted per participant and per process), anything else is kept with its status to be judged."""
    forms = [nausea_log(participant, deployment.proxy) for participant in participants]
    while not stop.is_set():
        for index, participant in enumerate(participants):
            action, csrf = forms[index]
            try:
                status, _, body = participant.request("POST", deployment.proxy + action, {"_csrf": csrf})
            except OSError as error:
                with progress.condition:
                    progress.errors.append(str(error))
                continue
            # nginx names every process it tried, the one that answered last.
            upstream = participant.last_headers.get("X-Upstream", "").split(", ")[-1]
            progress.note(index, status, upstream, body)


def test_kill_9_of_either_process_under_answers_loses_no_acknowledged_answer_and_the_proxy_keeps_serving(deployment):
    participants = onboarded(deployment, count=2)
    stop = threading.Event()
    progress = AnswerProgress(len(participants))
    loop = threading.Thread(target=answer_loop, args=(deployment, participants, stop, progress))
    loop.start()
    kills = 0
    try:
        restarted = None
        for round in range(12):
            before = progress.total
            # Answers are being given: kill in the middle of them, once the process restarted last has answered again
            # through nginx (which skips a process for a while after a failure): one of the two always serves, as with
            # an operator restarting one process at a time.
            if restarted:
                address, served_before = restarted
                back = progress.wait_until(lambda p: p.served_by.get(address, 0) > served_before and p.total >= before + 3)
            else:
                back = progress.wait_until(lambda p: p.total >= before + 3)
            assert back, f"round {round}: the proxy did not serve through both processes again: {progress.served_by}"
            name = "a" if round % 2 == 0 else "b"
            deployment.kill(name)
            address = f"127.0.0.1:{deployment.servers[name].port}"
            with progress.condition:
                restarted = (address, progress.served_by.get(address, 0))
            kills += 1
            # The proxy served through the other meanwhile, and serves now.
            try:
                with urllib.request.urlopen(deployment.proxy + "/health/database", timeout=10) as response:
                    assert response.status == 200
            except OSError as error:
                raise AssertionError(f"the proxy did not serve after kill {kills}: {error}; nginx said:\n"
                                     + (deployment.nginx.folder / "error.log").read_text()[-2000:]) from error
    finally:
        stop.set()
        loop.join(timeout=60)
    assert kills >= 10
    acknowledged = progress.acknowledged
    assert sum(acknowledged) >= 30, f"too few answers acknowledged to say anything: {acknowledged}"
    # Only a post a killed process had received may fail (502 from the proxy: never re-sent, as it may have been
    # stored); never a 500.
    assert all(status == 502 for status, _ in progress.refused), progress.refused[:5]
    for index, participant in enumerate(participants):
        assert logged_today(participant, deployment.proxy) >= acknowledged[index], \
            f"participant {index}: {acknowledged[index]} acknowledged, {logged_today(participant, deployment.proxy)} kept"
    print(f"\n{kills} kills -9 during {sum(acknowledged)} acknowledged answers, {len(progress.refused)} posts answered 502 by the proxy "
          f"(sent to a process as it was killed); every acknowledged answer kept")


def test_postgresql_restarted_under_answers_gives_503s_then_serves_and_loses_nothing(deployment):
    participants = onboarded(deployment, count=2)
    stop = threading.Event()
    progress = AnswerProgress(len(participants))
    loop = threading.Thread(target=answer_loop, args=(deployment, participants, stop, progress))
    loop.start()
    try:
        assert progress.wait_until(lambda p: p.total >= 10), "no answers were acknowledged before the restart"
        deployment.postgres.restart(down_seconds=12)
        after_restart = progress.total
        progress.wait_until(lambda p: p.total >= after_restart + 10)
    finally:
        stop.set()
        loop.join(timeout=60)
    statuses = sorted({status for status, _ in progress.refused})
    assert 503 in statuses, (f"no request met the outage: {statuses}; nginx said:\n"
                             + (deployment.nginx.folder / "error.log").read_text()[-3000:])
    assert set(statuses) <= {503}, (f"other answers than 503 during the restart: {progress.refused[:5]}; nginx said:\n"
                                    + (deployment.nginx.folder / "error.log").read_text()[-3000:])
    assert progress.total >= after_restart + 10, "the servers did not serve again after PostgreSQL came back"
    for index, participant in enumerate(participants):
        assert logged_today(participant, deployment.proxy) >= progress.acknowledged[index]
    print(f"\nPostgreSQL down 12 s under load: {len(progress.refused)} answers were 503 with Retry-After, "
          f"{progress.total} acknowledged and kept")


def test_a_withdrawal_recorded_on_one_process_is_refused_data_and_ends_its_live_stream_on_the_other_at_once(deployment):
    me, = onboarded(deployment)
    action, csrf = nausea_log(me, deployment.base("b"))
    # Process B has just served the page and accepted a log: whatever it keeps in memory says "not withdrawn".
    assert me.request("POST", deployment.base("b") + action, {"_csrf": csrf})[0] == 303
    # Their page's live-update stream is open on process B, which heard nothing of a withdrawal yet.
    stream = open_event_stream(deployment.servers["b"].port, next(c.value for c in me.cookies if c.name == "studykit_session"))
    html = me.page(deployment.base("a") + "/settings/leave")[2]
    form = Participant.form_state(html)[0]
    status, _, body = me.request("POST", deployment.base("a") + "/settings/leave", {"_csrf": form, "reason": "moving abroad"})
    assert status == 303, body[:300]
    status, _, body = me.request("POST", deployment.base("b") + action, {"_csrf": csrf})
    assert status == 403 and b"You have left this study" in body, (status, body[:300])
    # B ends the stream when it hears the withdrawal from A's commit, not at its next heartbeat (25 s after the
    # stream opened: the wait below is bounded well inside it).
    assert stream_ends(stream, within=STREAM_END_BOUND), "process B kept the withdrawn participant's stream open"


# How long a stream is waited on to end: a bound on a test that would otherwise hang, inside the servers' heartbeat
# (25 s), which would end it anyway.
STREAM_END_BOUND = 15


def open_event_stream(port, session):
    """A raw `GET /events` with the session's cookie, returned once the stream's opening (`retry:`) came."""
    connection = socket.create_connection(("127.0.0.1", port), timeout=STREAM_END_BOUND)
    connection.sendall(f"GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: studykit_session={session}\r\n"
                       "Accept: text/event-stream\r\n\r\n".encode())
    received = b""
    while b"retry: " not in received:
        chunk = connection.recv(4096)
        assert chunk, f"the stream closed before it opened: {received[:300]!r}"
        received += chunk
    assert received.startswith(b"HTTP/1.1 200"), received[:300]
    return connection


def stream_ends(connection, within):
    """Whether the server ends the stream (its last chunk, or the connection closed) within `within` seconds."""
    connection.settimeout(within)
    tail = b""
    try:
        while True:
            chunk = connection.recv(4096)
            if not chunk:
                return True
            tail = (tail + chunk)[-16:]
            if tail.endswith(b"\r\n0\r\n\r\n"):
                return True
    except socket.timeout:
        return False
    finally:
        connection.close()
