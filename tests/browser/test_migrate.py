"""`studykit migrate`: the bundled Recover study, served on its embedded SQLite file, where a participant enrolled,
onboarded (consent signed) and answered two surveys (the daily pain check and the PHQ-9, both due on day 0), is
copied into an empty PostgreSQL database; the server started on PostgreSQL shows the same participant, signed in
with the same session cookie, the same daily page byte for byte but the CSRF token; `studykit audit verify` passes on
the copy; and a second migrate into the same database is refused with nothing changed.

The participant takes part in Chromium; the daily page's bytes are then read over HTTP with the browser's session
cookie (a browser shows the page it renders, not the bytes the server sent)."""
import http.cookiejar
import re
import subprocess
import time

import pytest

from conftest import ROOT, STUDYKIT, start_server
from deployment import PostgresCluster
from http_participant import Participant
from selenium.webdriver.common.by import By
from studypages import Participant as BrowserParticipant

RECOVER = ROOT / "examples" / "studies" / "recover"
CSRF = re.compile(rb'name="_csrf" value="[^"]+"')


@pytest.fixture
def postgres():
    cluster = PostgresCluster()
    yield cluster
    cluster.stop()


def migrate(data, url, keys, target):
    return subprocess.run([str(STUDYKIT), "migrate", "--data", str(data), "--to", url, "--keys", str(keys), "--target-data", str(target)],
                          capture_output=True, text=True, timeout=300)


def test_a_recover_study_moves_into_postgresql_and_serves_the_same_daily_page(workdir, postgres, browser):
    data, keys, target = workdir / "data", workdir / "keys", workdir / "data-postgres"
    server = start_server(RECOVER, data)
    try:
        # In Chromium, as the participant would: join, the onboarding with its signature, the pain check and the PHQ-9.
        person = BrowserParticipant(server, browser).join(time_zone="UTC")
        person.complete_recover_onboarding(check_pages=False)
        person.take_pain_check(3)
        person.open("/")
        person.start_survey("Mood check (PHQ-9)")
        for index, ordinal in enumerate([0, 0, 0, 1, 2, 1, 3, 2, 1]):
            box = person.field(f"main input[name='q{index}'][value='{ordinal + 1}']")
            person.field(f"label[for='{box.get_attribute('id')}']").click()
        person.next()
        person.press_primary()
        done = [c.text for c in browser.driver.find_elements(By.CSS_SELECTOR, "main li.card") if "Completed at" in c.text or "Done" in c.text]
        assert len(done) >= 2, f"both surveys done on the daily page: {done}"
        # The bytes the server sends that browser, read over HTTP with its session cookie.
        me = Participant(server.base)
        session = person.session_cookie()
        me.cookies.set_cookie(http.cookiejar.Cookie(0, session["name"], session["value"], None, False, "127.0.0.1", False, False, "/", True,
                                                    False, None, False, None, None, {}))
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
