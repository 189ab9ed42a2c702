"""`studykit migrate`: the bundled Recover study, served on its embedded SQLite file, where a participant enrolled,
onboarded (consent signed) and answered two surveys (the daily pain check and the PHQ-9, both due on day 0), is
copied into an empty PostgreSQL database; the server started on PostgreSQL shows the same participant, signed in
with the same session cookie, the same daily page byte for byte but the CSRF token; `studykit audit verify` passes on
the copy; and a second migrate into the same database is refused with nothing changed.

The participant is driven over plain HTTP (http_participant.py), not Chromium: what is compared is the bytes the
server sends, which a browser would only render."""
import re
import subprocess
import time

import pytest

from conftest import ROOT, STUDYKIT, start_server
from deployment import PostgresCluster
from http_participant import Participant

RECOVER = ROOT / "examples" / "studies" / "recover"
CSRF = re.compile(rb'name="_csrf" value="[^"]+"')


@pytest.fixture
def postgres():
    cluster = PostgresCluster()
    yield cluster
    cluster.stop()


def answer_survey(participant, path):
    """Takes the survey at `path` (`/tasks/TASK/N`) to its end, choosing each step's first option (a number: 3)."""
    run = participant.start_task(path)
    for _ in range(40):
        status, location, html = participant.page(run)
        if status == 303:
            return
        assert status == 200, (status, html[:300])
        csrf, step, names = Participant.form_state(html)
        data = {"_csrf": csrf, "_step": step, "action": "next"}
        for name in names:
            option = re.search(r'<input[^>]*type="radio"[^>]*name="%s"[^>]*value="([^"]*)"' % re.escape(name), html) or \
                re.search(r'<input[^>]*name="%s"[^>]*type="radio"[^>]*value="([^"]*)"' % re.escape(name), html)
            data[name] = option.group(1) if option else "3"
        status, location, body = participant.request("POST", run, data)
        assert status == 303, (step, status, body[:500])
        if location.startswith("/?") or location == "/":
            return
    raise AssertionError(f"the survey {path} did not finish")


def migrate(data, url, keys, target):
    return subprocess.run([str(STUDYKIT), "migrate", "--data", str(data), "--to", url, "--keys", str(keys), "--target-data", str(target)],
                          capture_output=True, text=True, timeout=300)


def test_a_recover_study_moves_into_postgresql_and_serves_the_same_daily_page(workdir, postgres):
    data, keys, target = workdir / "data", workdir / "keys", workdir / "data-postgres"
    server = start_server(RECOVER, data)
    try:
        me = Participant(server.base)
        me.enrol(server.invite()[0], time_zone="UTC")
        me.complete_onboarding()
        home = me.page("/")[2]
        surveys = sorted(set(re.findall(r'href="(/tasks/(?:pain|mood)/\d+)"', home)))
        assert len(surveys) == 2, f"day 0 offers the pain check and the PHQ-9: {surveys}"
        for path in surveys:
            answer_survey(me, path)
        status, _, before = me.request("GET", "/")
        assert status == 200
    finally:
        server.stop()

    started = time.time()
    result = migrate(data, postgres.url, keys, target)
    took = time.time() - started
    print(f"\nstudykit migrate ({took:.1f} s):\n{result.stdout}{result.stderr}")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "every one verifies" in result.stdout and "MISMATCH" not in result.stdout
    assert (target / "postgres.audit-anchor.json").exists()
    assert oct((keys / "audit-trail-key").stat().st_mode & 0o777) == "0o600"

    options = ["--database", postgres.url, "--keys", str(keys)]
    verify = subprocess.run([str(STUDYKIT), "audit", "verify", "--data", str(target)] + options, capture_output=True, text=True)
    assert verify.returncode == 0, verify.stdout + verify.stderr

    server = start_server(RECOVER, target, database_options=options)
    try:
        moved = Participant(server.base)
        for cookie in me.cookies:
            moved.cookies.set_cookie(cookie)
        status, _, after = moved.request("GET", "/")
        assert status == 200
        assert CSRF.sub(b"CSRF", after) == CSRF.sub(b"CSRF", before), "the daily page differs after the migration"
    finally:
        server.stop()

    rows = postgres.query("SELECT count(*) FROM auditLog")
    again = migrate(data, postgres.url, keys, target)
    assert again.returncode == 1 and "already holds study data" in again.stderr, again.stdout + again.stderr
    assert postgres.query("SELECT count(*) FROM auditLog") == rows, "a refused migrate wrote to the trail"

    # Into the same database with a new keys folder and data folder: refused, and neither is left behind.
    fresh = migrate(data, postgres.url, workdir / "keys-2", workdir / "data-2")
    assert fresh.returncode == 1 and "already holds study data" in fresh.stderr, fresh.stdout + fresh.stderr
    assert not (workdir / "keys-2").exists() and not (workdir / "data-2" / "postgres.audit-anchor.json").exists()

    # A keys folder holding another study's audit key is refused before anything is written.
    other = workdir / "keys-3"
    other.mkdir(mode=0o700)
    (other / "audit-trail-key").write_bytes(bytes(32))
    refused = migrate(data, postgres.url, other, workdir / "data-3")
    assert refused.returncode == 1 and "is not the study's own audit-trail-key" in refused.stderr, refused.stdout + refused.stderr
    assert sorted(p.name for p in other.iterdir()) == ["audit-trail-key"]
    assert postgres.query("SELECT count(*) FROM auditLog") == rows
