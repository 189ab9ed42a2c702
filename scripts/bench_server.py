#!/usr/bin/env python3
"""Loads a release `studykit serve` with wrk on loopback, as `make bench` runs it: a trivial health endpoint (the
ceiling), the daily page of a participant with a year of history, and a survey-step answer post. Prints requests per
second and p99 latency for each, and each as a share of the ceiling (targets: daily page made afresh ≥ 30 %, answer
post ≥ 15 %). Then live updates: with 1,000 event streams open, the time from an outcome written by one page to the
event at a second page of the same participant (target p99 < 100 ms), and the server's memory per open stream.

The study is Recover with its schedules lengthened to 60 weeks and late entry allowed, so that a participant enrolled
a year ago (a server started with `--clock-start`) can have a year of exercises, doses and logs recorded, day by day,
through the same posts a browser sends. The server keeps each session's daily page until a write or the time changes
it (HomePageCache), so the plain `GET /` run measures a page served again; a page with a notice (`/?notice=done`, what a
participant sees after a task) is made afresh every time: its row shows what making the page costs.

The runs are made in rounds (5 by default), each round every row once, each right after a run of the ceiling of its
own, and each share is the median over the rounds of the row's rate against the ceiling's run beside it: on a shared
2-core machine the speed of both drifts by ±10 % from one minute to the next, and a share taken from runs minutes
apart measured that drift as much as the page.

Last, the database's bytes per acknowledged write, audit trail included (target ≤ 1 KB): participants take their pain
check again and again (started, answered, an answer changed, completed, taken back from the card), each request a write
the server acknowledges, and the growth of the used pages of study.sqlite (read through SQLite, the write-ahead log
included) is divided by the writes.
`--storage-only` runs only that (any build: `STUDYKIT=.build/debug/studykit`).

The same rows are then measured on PostgreSQL (a private cluster, tests/browser/deployment.py): one process
(`--database`; targets: the daily page made afresh ≥ 20 % of its ceiling, the answer post ≥ 10 %), and two processes
behind nginx (deploy/nginx/studykit.conf), whose page rate is reported beside one process's. `--sqlite-only` leaves
them out. Each set-up also runs `GET /health/database` (one `SELECT 1` through the pool, no page): no page that reads
the database can be served faster, so its share is the most such a page can reach on this machine.

Last, reminders by mail (issue 35, target ≥ 100 messages/s): a data folder of `--reminder-participants` (1,000)
Recover participants, each onboarded with a confirmed address and the morning pain reminder on, written by `studykit
bench reminder-data` (enrolled on Monday 14 June 2027 at noon in Berlin; the reminder due on Tuesday at 09:00); a real
SMTP server (tests/support/smtp_server.py, aiosmtpd, writing each message to a file); and a release `studykit serve`
started with `--clock-start` five minutes after 09:00 and the mail options. Measured from the server's start (the
process spawned) to the last of the messages written by the mail server: messages per second end to end, start-up
and the reading of what is due included; then the same messages' sending alone (first message to last). Beside it,
Mail's SMTP client alone (`studykit bench smtp-send`: as many messages shaped like a reminder over one session), so
that the server's own cost per message shows. `--reminders-only` runs only that.

Usage: scripts/bench_server.py [--seconds N] [--rounds N] [--connections N] [--storage-only] [--sqlite-only]
                               [--reminders-only] [--reminder-participants N]"""
import argparse
import datetime
import json
import os
import re
import selectors
import shutil
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "browser"))
os.environ.setdefault("STUDYKIT", str(ROOT / ".build" / "release" / "studykit"))
from conftest import STUDYKIT, free_port, start_server  # noqa: E402  (the same start-up as the browser suite)
from http_participant import Participant  # noqa: E402

# Each wrk connection is one participant, alternating two posts on their pain check: the pain level with Next
# (the answer is validated, stored, and the run moves on), then Back from the next step (stored again).
POST_SCRIPT = r"""
local participants = {%s}
local counter = 0
function setup(thread)
  counter = counter + 1
  thread:set("index", counter)
end
function init(args)
  me = participants[index]
  atLevel = true   -- the run's current step, as the last acknowledged post left it
  count = 0
  resynced = false
end
function request()
  count = count + 1
  local body
  if atLevel then
    body = "_csrf=" .. me.csrf .. "&_step=painLevel&action=next&q0=" .. tostring(count %% 11)
  else
    body = "_csrf=" .. me.csrf .. "&_step=painLocation&action=back"
  end
  return wrk.format("POST", me.run, {["Cookie"] = me.cookie, ["Content-Type"] = "application/x-www-form-urlencoded"}, body)
end
function response(status, headers, body)
  if status == 303 then
    atLevel = not atLevel
  elseif status == 409 and not resynced then
    -- When a wrk run ends it closes its connections, but the post each had in flight is still applied, and can land
    -- after post_run has read the run's step, or during this run: the run is then one step off this script, once per
    -- connection at most. A second stale step would be the server's.
    resynced = true
    atLevel = not atLevel
  else
    io.stderr:write("unexpected status " .. status .. " from participant " .. index .. ": " .. string.sub(body or "", 1, 300) .. "\n")
  end
end
"""


def wrk(url, seconds, connections, headers=(), script=None, allowed_refusals=0):
    # A response slower than wrk's default 2 s would be dropped unseen: the posts' script would lose track of its
    # run's step (the server moved on, the script did not) and every later post would be refused as stale.
    command = ["wrk", "-t", str(min(connections, 2) if script is None else connections), "-c", str(connections),
               "-d", f"{seconds}s", "--timeout", "30s", "--latency"]
    for header in headers:
        command += ["-H", header]
    if script:
        command += ["-s", script]
    out = subprocess.run(command + [url], check=True, capture_output=True, text=True)
    if "unexpected status" in out.stderr:
        socket_errors = re.search(r"Socket errors:.*", out.stdout)
        raise SystemExit("wrk saw unexpected statuses:\n" + out.stderr[:800] + (f"\n{socket_errors.group(0)}" if socket_errors else ""))
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", out.stdout).group(1))
    value, unit = re.search(r"\s99%\s+([\d.]+)(us|ms|s)", out.stdout).groups()
    p99 = float(value) * {"us": 0.001, "ms": 1, "s": 1000}[unit]
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", out.stdout)
    if errors and int(errors.group(1)) > allowed_refusals:
        raise SystemExit(f"{url}: {errors.group(1)} non-2xx/3xx responses\n{out.stdout}")
    return rate, p99


def post_run(server, participants, script, args):
    """One wrk run of survey-step posts; then each participant's run is brought back to its pain level step (a run
    may end after a Next), where the next run's script starts."""
    # The script's one stale step per connection at most (a post of the previous run landing late) is not an error.
    result = wrk(server.base + participants[0][1], args.seconds, args.connections, script=str(script), allowed_refusals=args.connections)
    for _, run, csrf, participant in participants:
        # A post wrk sent as it stopped may still be answered after the step is read here: the Back then names a step
        # the run has left (409), and the step is read again.
        for _ in range(20):
            step = Participant.form_state(participant.page(run)[2])[1]
            if step == "painLevel":
                break
            status, _, body = participant.request("POST", run, {"_csrf": csrf, "_step": step, "action": "back"})
            assert status in (303, 409), f"{run} on step {step}: back answered {status}: {body[:400]}"
            if status == 409:
                time.sleep(0.05)
        else:
            raise SystemExit(f"{run} did not come back to its pain level step")
    return result


def bench_study(work):
    """Recover, copied, with 60 weeks of every schedule and late entry on every task without a survey."""
    folder = work / "examples" / "studies" / "recover"
    shutil.copytree(ROOT / "examples" / "consent", work / "examples" / "consent")
    shutil.copytree(ROOT / "examples" / "studies" / "recover", folder)
    study = folder / "study.yaml"
    text = study.read_text().replace("for: {weeks: 6}", "for: {weeks: 60}")
    text = text.replace("    card: grid\n", "    card: grid\n    lateEntry: true\n")
    text = text.replace("    impactsAdherence: false\n    schedule:\n      - daily: {from: 1",
                        "    impactsAdherence: false\n    lateEntry: true\n    schedule:\n      - daily: {from: 1")
    study.write_text(text)
    return folder


def csrf_of(html):
    return re.search(r'name="_csrf" value="([^"]+)"', html).group(1)


def fill_a_year(participant, today, days):
    """Records, for each of the `days` days before `today` and for today, every exercise session and dose that has
    begun, and one nausea log, as the daily page's forms post them: today's page is then one made after the
    participant's own actions, with outcomes of its own to read. Returns how many posts were made."""
    posts = 0
    for back in range(days, -1, -1):
        day = (today - datetime.timedelta(days=back)).isoformat()
        html = participant.page(f"/?day={day}")[2]
        csrf = csrf_of(html)
        for action in re.findall(r'action="(/tasks/(?:exercises|medication)/\d+/done|/tasks/symptoms/\d+/log)"', html):
            status = participant.request("POST", action, {"_csrf": csrf, "day": day})[0]
            assert status == 303, (action, status)
            posts += 1
    return posts


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as status:
        return int(re.search(r"VmRSS:\s+(\d+) kB", status.read()).group(1))


def open_stream(port, cookie):
    """A raw connection with GET /events sent and its opening read."""
    connection = socket.create_connection(("127.0.0.1", port))
    connection.sendall(f"GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: {cookie}\r\nAccept: text/event-stream\r\n\r\n".encode())
    return connection


def live_updates(server, history, extra_streams):
    """With `extra_streams` streams open for as many other participants, the time from a log posted by the history
    participant to the event on their own open stream, 200 times; and the server's memory per open stream."""
    links = server.invite(extra_streams)
    cookies = []
    for link in links:
        other = Participant(server.base)
        other.enrol(link)
        cookies.append("; ".join(f"{c.name}={c.value}" for c in other.cookies))
    time.sleep(1)
    before = rss_kib(server.process.pid)
    streams = [open_stream(server.port, cookie) for cookie in cookies]
    for stream in streams:
        stream.settimeout(10)
        assert b"200 OK" in stream.recv(4096)
    time.sleep(1)
    per_stream = (rss_kib(server.process.pid) - before) / len(streams)

    cookie = "; ".join(f"{c.name}={c.value}" for c in history.cookies)
    watcher = open_stream(server.port, cookie)
    watcher.settimeout(10)
    assert b"200 OK" in watcher.recv(4096)
    html = history.page("/")[2]
    csrf = csrf_of(html)
    log = re.search(r'action="(/tasks/symptoms/\d+/log)"', html).group(1)
    samples = []
    for _ in range(200):
        started = time.perf_counter()
        assert history.request("POST", log, {"_csrf": csrf})[0] == 303
        received = b""
        while b"event: changed" not in received:
            received += watcher.recv(4096)
        samples.append((time.perf_counter() - started) * 1000)
    for stream in streams + [watcher]:
        stream.close()
    samples.sort()
    return samples[len(samples) // 2], samples[int(len(samples) * 0.99) - 1], per_stream


def used_bytes(database):
    """The bytes of `database`'s used pages as SQLite sees them (the write-ahead log included), and its audit trail's
    rows and bytes."""
    connection = sqlite3.connect(f"file:{database}?mode=ro", uri=True)
    try:
        page_size, pages, free = (connection.execute(f"PRAGMA {name}").fetchone()[0] for name in ("page_size", "page_count", "freelist_count"))
        rows, audit = connection.execute(
            "SELECT count(*), coalesce(sum(length(actor) + length(action) + length(entity) + coalesce(length(entityID), 0) + "
            "coalesce(length(participantID), 0) + coalesce(length(before), 0) + coalesce(length(after), 0) + coalesce(length(reason), 0) + "
            "length(previousHash) + length(hash) + 16), 0) FROM auditLog").fetchone()
        return (pages - free) * page_size, rows, audit
    finally:
        connection.close()


def pending_pdfs(database):
    """How many consent records of `database` still wait for their PDF to be printed."""
    connection = sqlite3.connect(f"file:{database}?mode=ro", uri=True)
    try:
        return connection.execute("SELECT count(*) FROM consentPDF WHERE state = 'pending'").fetchone()[0]
    finally:
        connection.close()


def storage_per_write(participants=3, cycles=12):
    """Database bytes per acknowledged write, on a fresh data folder: each participant takes their pain check again and
    again (`cycles` times): the run started, the level answered, Back, another level (a changed answer), the location,
    a note, the last step (the run completed with its outcome), then the survey taken back from its card, which opens
    the event again. Every one of those requests is a write the server acknowledges (303)."""
    work = Path(tempfile.mkdtemp(prefix="studykit-storage-"))
    server = start_server(ROOT / "examples" / "studies" / "recover", work / "data")
    try:
        people = []
        for _ in range(participants):
            participant = Participant(server.base)
            participant.enrol(server.invite()[0])
            participant.complete_onboarding()
            task = re.search(r'href="(/tasks/pain/\d+)"', participant.page("/")[2]).group(1)
            people.append((participant, task))
        database = work / "data" / "study.sqlite"
        # The onboarding's consent PDFs are printed into the database in the background: measured from once they are
        # in (or failed), so that a PDF landing mid-way is not counted as the writes' growth.
        deadline = time.time() + 120
        while pending_pdfs(database) and time.time() < deadline:
            time.sleep(0.2)
        before, rows_before, audit_before = used_bytes(database)
        acknowledged = 0

        def post(participant, path, fields):
            nonlocal acknowledged
            status, location, body = participant.request("POST", path, fields)
            if status != 303:
                raise SystemExit(f"POST {path} {fields.get('_step', '')} answered {status}: {body[:300]}")
            acknowledged += 1
            return location

        for cycle in range(cycles):
            for participant, task in people:
                run = participant.start_task(task)
                acknowledged += 1
                csrf = Participant.form_state(participant.page(run)[2])[0]
                for step, fields in [("painLevel", {"action": "next", "q0": str(cycle % 11)}), ("painLocation", {"action": "back"}),
                                     ("painLevel", {"action": "next", "q0": str((cycle + 3) % 11)}),
                                     ("painLocation", {"action": "skip"}),
                                     ("notes", {"action": "next", "q0": f"stiff in the morning, cycle {cycle}"}),
                                     ("done", {"action": "next"})]:
                    post(participant, run, {"_csrf": csrf, "_step": step, **fields})
                post(participant, task + "/withdraw", {"_csrf": csrf})
        after, rows_after, audit_after = used_bytes(database)
        rows = rows_after - rows_before
        print(f"database growth per acknowledged write: {(after - before) / acknowledged:.0f} bytes (target ≤ 1024), over {acknowledged} "
              f"writes (pain checks started, answered, changed, completed and taken back); audit trail {rows} rows, "
              f"{(audit_after - audit_before) / max(rows, 1):.0f} bytes of text each, {(audit_after - audit_before) / acknowledged:.0f} per write")
    finally:
        server.stop()
        shutil.rmtree(work, ignore_errors=True)


def prepared_server(study, data, args, database_options=()):
    """A server on `study` with the history participant (enrolled a year ago, a year of outcomes recorded) and
    `args.connections` participants each at the pain level step of a run: (server, history, participants)."""
    today = datetime.date.today()
    # A year ago (360 days, within a session's lifetime; at 09:00 UTC) the history participant enrols and takes the onboarding; then the server runs on the
    # real clock, on the same data and port, and their year is recorded.
    year_ago = (datetime.datetime.now(datetime.timezone.utc) - datetime.timedelta(days=360)).strftime("%Y-%m-%dT09:00:00Z")
    server = start_server(study, data, clock_start=year_ago, database_options=database_options)
    history = Participant(server.base)
    history.enrol(server.invite()[0], time_zone="UTC")
    history.complete_onboarding()
    server.stop()
    # Every stream of the live-update run comes from this one address (loopback).
    server = start_server(study, data, port=server.port, database_options=database_options,
                          extra=["--live-streams-per-address", str(args.streams + 10), "--trusted-proxy", "127.0.0.1"])
    started = time.time()
    posts = fill_a_year(history, today, 359)
    print(f"a year of history: {posts} outcome posts over 359 days and today in {time.time() - started:.0f} s")
    participants = []
    for _ in range(args.connections):
        participant = Participant(server.base)
        participant.enrol(server.invite()[0])
        participant.complete_onboarding()
        # Onboarding prints the consent PDF with headless Chromium in the background: let it finish (printed or
        # failed), so that Chromium does not share the CPU with the measurements.
        deadline = time.time() + 120
        while "being prepared" in participant.page("/settings")[2]:
            if time.time() > deadline:
                raise SystemExit("the consent PDF was still being printed after 120 s")
            time.sleep(0.2)
        home = participant.page("/")[2]
        run = participant.start_task(re.search(r'href="(/tasks/pain/\d+)"', home).group(1))
        csrf = Participant.form_state(participant.page(run)[2])[0]
        cookie = "; ".join(f"{c.name}={c.value}" for c in participant.cookies)
        participants.append((cookie, run, csrf, participant))
    return server, history, participants


def measure(label, base, server, history, participants, work, args, full=True):
    """The rows of one set-up, each a median over `args.rounds` rounds and as a share of the ceiling run beside it,
    with the requests sent to `base` (a server, or nginx in front of several): a list of (row, req/s, p99 ms, share,
    shares, note)."""
    script = work / f"post-{label}.lua"
    script.write_text(POST_SCRIPT % ", ".join(f'{{cookie="{c}", run="{r}", csrf="{s}"}}' for c, r, s, _ in participants))
    history_header = [f"Cookie: {'; '.join(f'{c.name}={c.value}' for c in history.cookies)}"]
    month_ago = (datetime.date.today() - datetime.timedelta(days=30)).isoformat()

    class Target:  # post_run's server: where wrk sends the posts
        pass
    target = Target()
    target.base = base
    runs = [("GET /health (the ceiling)", lambda: wrk(f"{base}/health", args.seconds, args.connections), ""),
            ("GET / (a year of history, from the cache)",
             lambda: wrk(f"{base}/", args.seconds, args.connections, headers=history_header), "served again"),
            ("GET /?notice=done (today's daily page made afresh)",
             lambda: wrk(f"{base}/?notice=done", args.seconds, args.connections, headers=history_header), "page"),
            ("GET /?day=…&notice=done (a day a month ago, afresh)",
             lambda: wrk(f"{base}/?day={month_ago}&notice=done", args.seconds, args.connections, headers=history_header),
             "for comparison"),
            ("POST /runs/RUN (answer a survey step)", lambda: post_run(target, participants, script, args), "post"),
            # One statement through the pool and back, no page: what any page read from the database can reach at most.
            ("GET /health/database (one query, no page)",
             lambda: wrk(f"{base}/health/database", args.seconds, args.connections), "floor")]
    if not full:
        runs = [run for run in runs if run[2] in ("", "page", "post", "floor")]
    # Each round runs every row right after a run of the ceiling of its own, so that the two are seconds apart.
    ceiling = runs[0][1]
    rounds = []
    for _ in range(args.rounds):
        measured = [ceiling()]
        shares = [100.0]
        for _, run, _ in runs[1:]:
            beside = ceiling()
            measured.append(run())
            shares.append(100 * measured[-1][0] / beside[0])
        rounds.append((measured, shares))
    rows = []
    for index, (name, _, note) in enumerate(runs):
        rates = [measured[index][0] for measured, _ in rounds]
        p99s = [measured[index][1] for measured, _ in rounds]
        shares = [round_shares[index] for _, round_shares in rounds]
        rows.append((name, statistics.median(rates), statistics.median(p99s), statistics.median(shares), shares, note))
    return rows


# The targets of each set-up's shares of its ceiling: SQLite's (issue 29) and PostgreSQL's (issue 34).
TARGETS = {"SQLite": {"page": 30, "post": 15}, "PostgreSQL, 1 process": {"page": 20, "post": 10}, "PostgreSQL, 2 processes behind nginx": {}}


def print_rows(label, rows, args):
    print(f"\n{label}: {args.rounds} rounds of wrk runs ({args.connections} connections, {args.seconds} s each), "
          "each row beside a run of the ceiling; medians over the rounds")
    print(f"{'':<56}{'req/s':>10}{'p99 ms':>9}  share of ceiling (each round's)")
    print("-" * 110)
    for name, rate, p99, share, shares, note in rows:
        target = TARGETS[label].get(note)
        note = f"target ≥ {target} %" if target else ("" if note in ("page", "post") else
                                                     "the most a page that reads the database can reach" if note == "floor" else note)
        text = f"{share:5.1f} %  ({', '.join(f'{value:.1f}' for value in shares)})  {note}" if name != "GET /health (the ceiling)" else ""
        print(f"{name:<56}{rate:>10.0f}{p99:>9.2f}  {text}")


class MailServer:
    """tests/support/smtp_server.py on a free port, writing each message it accepts to `maildir` as N.eml (1, 2, … in
    order of arrival); it stops when this process closes its standard input."""

    def __init__(self, maildir):
        self.maildir = maildir
        maildir.mkdir(parents=True)
        # Its warnings (aiosmtpd's, one per message) go to a file beside the mail folder.
        with open(maildir.parent / "mail-server.log", "w") as log:
            self.process = subprocess.Popen([str(ROOT / ".venv" / "bin" / "python"), str(ROOT / "tests" / "support" / "smtp_server.py"),
                                             "--port", "0", "--maildir", str(maildir), "--stop-on-stdin-eof"],
                                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=log, text=True)
        self.port = int(self.process.stdout.readline())

    def has(self, count):
        """Whether message `count` has arrived (a message's file appears whole, after every earlier one's)."""
        return (self.maildir / f"{count}.eml").exists()

    def stop(self):
        self.process.stdin.close()
        self.process.wait(timeout=20)


def reminder_mail(args):
    """Reminders by mail through the real server, and Mail's SMTP client alone (see the module's description)."""
    count = args.reminder_participants
    work = Path(tempfile.mkdtemp(prefix="studykit-reminders-"))
    recover = ROOT / "examples" / "studies" / "recover"
    enrolled, due = "2027-06-14T12:00:00+02:00", "2027-06-15T09:05:00+02:00"
    started = time.time()
    out = subprocess.run([str(STUDYKIT), "bench", "reminder-data", "--study", str(recover), "--data", str(work / "data"),
                          "--participants", str(count), "--enrolled-at", enrolled, "--due-at", due, "--reminder", "painMorning"],
                         check=True, capture_output=True, text=True).stdout
    found = int(re.search(r"due at .*: (\d+)", out).group(1))
    if found != count:
        raise SystemExit(f"studykit bench reminder-data: {found} reminders due, not {count}:\n{out}")
    print(f"\nreminders by mail: {count} participants written in {time.time() - started:.0f} s, each with the morning pain "
          f"reminder due at {due}")
    mail = MailServer(work / "mail")
    server = None
    try:
        port = free_port()
        log_path = work / "server.log"
        with open(log_path, "w") as log:
            spawned = time.perf_counter()
            server = subprocess.Popen([str(STUDYKIT), "serve", "--study", str(recover), "--data", str(work / "data"),
                                       "--host", "127.0.0.1", "--port", str(port), "--clock-start", due,
                                       "--public-url", f"http://127.0.0.1:{port}", "--smtp-host", "127.0.0.1",
                                       "--smtp-port", str(mail.port), "--smtp-security", "plain", "--mail-from", "recover@example.org",
                                       "--reminder-interval", "600"], stdout=log, stderr=subprocess.STDOUT)
        # Polled every 10 ms: two stat calls (the first and the last message's files) and, until it is seen, the log.
        listening = first = last = reported = None
        round_line = ""
        deadline = time.perf_counter() + 600
        while reported is None:
            now = time.perf_counter()
            if server.poll() is not None:
                raise SystemExit(f"studykit serve exited with {server.returncode}:\n{log_path.read_text(errors='replace')[-1500:]}")
            if now > deadline:
                raise SystemExit(f"{sum(1 for _ in mail.maildir.glob('*.eml'))} of {count} messages after 600 s:\n"
                                 + log_path.read_text(errors="replace")[-1500:])
            if first is None and mail.has(1):
                first = now
            if last is None and mail.has(count):
                last = now
            if listening is None or last is not None:
                text = log_path.read_text(errors="replace")
                if listening is None and "is being served at" in text:
                    listening = now
                match = re.search(r"^reminders at .*$", text, re.MULTILINE)
                if match:
                    reported, round_line = now, match.group(0)
            time.sleep(0.01)
        if f": {count} due, {count} sent" not in round_line:
            raise SystemExit(f"the server's round: {round_line!r}, not {count} sent")
        recipients = {json.loads((mail.maildir / f"{n}.json").read_text())["rcpt_tos"][0] for n in range(1, count + 1)}
        if len(recipients) != count or mail.has(count + 1):
            raise SystemExit(f"{count} messages to as many participants expected; {len(recipients)} recipients")
        size = statistics.mean((mail.maildir / f"{n}.eml").stat().st_size for n in range(1, count + 1))
        server.terminate()
        server.wait(timeout=20)
        server = None

        # Mail's client alone: as many messages over one session to the same mail server.
        client = subprocess.run([str(STUDYKIT), "bench", "smtp-send", "--port", str(mail.port), "--messages", str(count)],
                                check=True, capture_output=True, text=True).stdout
        client_rate = float(re.search(r"([\d.]+) messages/s", client).group(1))
        client_size = int(re.search(r"(\d+) bytes each", client).group(1))
        if not mail.has(2 * count):
            raise SystemExit(f"studykit bench smtp-send: the mail server did not receive {count} messages")
    finally:
        if server:
            server.kill()
            server.wait()
        mail.stop()
    total = last - spawned
    print(f"{'':<64}{'messages/s':>11}  ")
    print("-" * 110)
    print(f"{'server start → all ' + str(count) + ' reminders received by the mail server':<64}{count / total:>11.0f}  "
          f"{total:.2f} s; target ≥ 100 messages/s")
    print(f"{'  of which sending: first message received → last':<64}{(count - 1) / (last - first):>11.0f}  "
          f"{last - first:.2f} s; before it: start-up {listening - spawned:.2f} s to listening, "
          f"{first - spawned:.2f} s to the first message")
    print(f"{'Mail client alone (studykit bench smtp-send), one session':<64}{client_rate:>11.0f}  "
          f"{client_size} bytes a message; the server's were {size:.0f}")
    print(f"the server's report: {round_line}")
    shutil.rmtree(work, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=int, default=4, help="length of each wrk run")
    parser.add_argument("--rounds", type=int, default=5, help="rounds of every run; shares are medians over them")
    parser.add_argument("--connections", type=int, default=4)
    parser.add_argument("--streams", type=int, default=1000)
    parser.add_argument("--storage-only", action="store_true", help="measure only the database's bytes per acknowledged write")
    parser.add_argument("--sqlite-only", action="store_true", help="leave out the PostgreSQL rows")
    parser.add_argument("--reminders-only", action="store_true", help="measure only the reminders sent by mail")
    parser.add_argument("--reminder-participants", type=int, default=1000, help="participants with a reminder due, one message each")
    args = parser.parse_args()
    if args.storage_only:
        return storage_per_write()
    if args.reminders_only:
        return reminder_mail(args)
    if not shutil.which("wrk"):
        raise SystemExit("wrk is not installed: apt-get install wrk (make bench installs it)")
    work = Path(tempfile.mkdtemp(prefix="studykit-bench-"))
    study = bench_study(work)
    load_before = " ".join(f"{value:.2f}" for value in os.getloadavg())
    results = []
    server, history, participants = prepared_server(study, work / "data", args)
    try:
        results.append(("SQLite", measure("sqlite", server.base, server, history, participants, work, args)))
        home_size = len(history.page("/")[2].encode())
        median, p99, per_stream = live_updates(server, history, args.streams)
        live = (f"live updates with {args.streams} other streams open: outcome post → event at a second page, median {median:.1f} ms, "
                f"p99 {p99:.1f} ms (target < 100 ms); server memory {per_stream:.1f} KiB per open stream")
    finally:
        server.stop()
    if not args.sqlite_only:
        from deployment import Nginx, PostgresCluster
        cluster = PostgresCluster()
        servers = []
        nginx = None
        try:
            options = ["--database", cluster.url, "--keys", str(work / "postgres-keys")]
            first, history, participants = prepared_server(study, work / "data-postgres-a", args, database_options=options)
            servers.append(first)
            results.append(("PostgreSQL, 1 process", measure("postgres-1", first.base, first, history, participants, work, args)))
            servers.append(start_server(study, work / "data-postgres-a", database_options=options, extra=["--trusted-proxy", "127.0.0.1"]))
            nginx = Nginx(work / "nginx", [server.port for server in servers])
            results.append(("PostgreSQL, 2 processes behind nginx", measure("postgres-2", nginx.base, first, history, participants, work, args,
                                                                            full=False)))
        finally:
            if nginx:
                nginx.stop()
            for server in servers:
                server.stop()
            cluster.stop()
    load = " ".join(f"{value:.2f}" for value in os.getloadavg())
    print(f"\nload average before the runs {load_before}, after {load} ({os.cpu_count()} CPUs); the daily page is {home_size} bytes")
    for label, rows in results:
        print_rows(label, rows, args)
    if len(results) == 3:
        page = "GET /?notice=done (today's daily page made afresh)"
        one, two = (next(row[1] for row in rows if row[0] == page) for _, rows in results[1:])
        print(f"\ntwo processes behind nginx serve {two / one:.2f}× the page requests per second of one process "
              f"({two:.0f} against {one:.0f}; both processes, nginx, PostgreSQL and wrk share this machine's {os.cpu_count()} CPUs)")
    print(live)
    shutil.rmtree(work, ignore_errors=True)
    storage_per_write()
    reminder_mail(args)


if __name__ == "__main__":
    main()
