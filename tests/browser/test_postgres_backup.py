"""A PostgreSQL study's backup, as the README's "Running on PostgreSQL" says to take it: `pg_dump` of the database
(Debian's own tool) restored into a new database. The dump is older than the audit trail's anchor (the participant
wrote after it), so `studykit audit verify` and `studykit serve` refuse the copy as a trail with rows removed, until
`studykit audit reanchor --database …` anchors it afresh with a reason; the copy then serves the participant the same
daily page (but the CSRF token) and its trail verifies, the re-anchoring recorded in it."""
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import ROOT, STUDYKIT, start_server
from deployment import PostgresCluster
from http_participant import Participant

RECOVER = ROOT / "examples" / "studies" / "recover"

pytestmark = pytest.mark.skipif(shutil.which("pg_dump") is None, reason="pg_dump is not installed (make test installs Debian's postgresql)")


@pytest.fixture
def postgres():
    cluster = PostgresCluster()
    yield cluster
    cluster.stop()


def studykit(*arguments):
    return subprocess.run([str(STUDYKIT), *arguments], capture_output=True, text=True)


def without_csrf(html):
    return re.sub(r'name="_csrf" value="[^"]+"', "", html)


def test_a_pg_dump_older_than_the_anchor_is_refused_until_reanchored_then_serves_the_same_page_and_verifies(workdir, postgres):
    options = ["--database", postgres.url, "--keys", str(workdir / "keys")]
    server = start_server(RECOVER, workdir / "data", database_options=options)
    try:
        me = Participant(server.base)
        me.enrol(server.invite()[0], time_zone="Europe/Berlin")
        me.complete_onboarding()
        page = me.page("/")[2]
        dump = subprocess.run(["pg_dump", "--no-owner", postgres.url], check=True, capture_output=True, text=True).stdout
        # A write after the dump: the anchor moves past what the dump holds.
        html = me.page("/settings")[2]
        status = me.request("POST", "/settings/language", {"_csrf": Participant.form_state(html)[0], "language": "en"})[0]
        assert status == 303
    finally:
        server.stop()

    copy_url = postgres.url.rsplit("/", 1)[0] + "/studykit_restored"
    postgres.query("CREATE DATABASE studykit_restored")
    subprocess.run(["psql", "-v", "ON_ERROR_STOP=1", "-q", copy_url], input=dump, check=True, capture_output=True, text=True)
    data_copy = workdir / "data-restored"
    shutil.copytree(workdir / "data", data_copy)
    copy_options = ["--data", str(data_copy), "--database", copy_url, "--keys", str(workdir / "keys")]

    refused = studykit("audit", "verify", *copy_options)
    assert refused.returncode != 0 and "rows were removed from its end" in refused.stderr, refused.stderr
    assert studykit("audit", "reanchor", "--reason", " ", *copy_options).returncode != 0, "an empty reason is refused"
    reanchored = studykit("audit", "reanchor", "--reason", "restored from the pg_dump taken before the language change", *copy_options)
    assert reanchored.returncode == 0, reanchored.stderr
    assert "the audit trail is anchored again (the anchor it replaced named row" in reanchored.stdout, reanchored.stdout

    verified = studykit("audit", "verify", *copy_options)
    assert verified.returncode == 0 and "the audit trail holds" in verified.stdout, verified.stdout + verified.stderr
    last = subprocess.run(["psql", copy_url, "-tAc", "SELECT action || ' ' || entity || ' ' || reason FROM auditLog ORDER BY sequence DESC LIMIT 1"],
                          check=True, capture_output=True, text=True).stdout.strip()
    assert last.startswith("reanchor auditTrail") and "restored from the pg_dump taken before the language change" in last, last

    copy = start_server(RECOVER, data_copy, port=server.port, database_options=copy_options[2:])
    try:
        assert without_csrf(me.page("/")[2]) == without_csrf(page)
    finally:
        copy.stop()
