"""The REST API under /api/v1, against a real `studykit serve`: a participant enrolled three days ago (a server
started with an earlier clock) signs in with a one-time code, reads their events and records, logs and takes back
card outcomes through the API as the web pages would; a researcher added with `studykit researcher add` signs in and
exports. Then schemathesis (from PyPI) runs the served OpenAPI document against the server with each token: no 500,
no response outside the document's schemas, no status or content type the document does not list, invalid input
refused, authentication enforced."""
import datetime
import io
import json
import os
import re
import subprocess
import sys
import tempfile
import urllib.error
import urllib.request
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "browser"))
from conftest import STUDYKIT, start_server  # noqa: E402
from http_participant import Participant  # noqa: E402

RECOVER = ROOT / "examples" / "studies" / "recover"
SCHEMATHESIS = Path(sys.executable).parent / "schemathesis"
CHECKS = ("not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance,"
          "negative_data_rejection,missing_required_header,ignored_auth")


def call(base, method, path, body=None, token=None):
    """(status, JSON or bytes) of an API call."""
    headers = {"Content-Type": "application/json"} if body is not None else {}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    request = urllib.request.Request(base + "/api/v1" + path, method=method, headers=headers,
                                     data=json.dumps(body).encode() if body is not None else None)
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            status, content, kind = response.status, response.read(), response.headers.get("Content-Type", "")
    except urllib.error.HTTPError as error:
        status, content, kind = error.code, error.read(), error.headers.get("Content-Type", "")
    return status, (json.loads(content) if "json" in kind and content else content)


@pytest.fixture(scope="module")
def api():
    """A server whose participant enrolled three days ago and completed the onboarding; their API token (from a
    sign-in code), and a researcher's. Yields (base, participant token, researcher token, data folder)."""
    work = Path(tempfile.mkdtemp(prefix="studykit-api-"))
    data = work / "data"
    three_days_ago = (datetime.datetime.now(datetime.timezone.utc) - datetime.timedelta(days=3)).strftime("%Y-%m-%dT09:00:00Z")
    server = start_server(RECOVER, data, clock_start=three_days_ago)
    web = Participant(server.base)
    web.enrol(server.invite()[0], time_zone="Asia/Tokyo")
    web.complete_onboarding()
    server.stop()
    server = start_server(RECOVER, data, port=server.port)
    try:
        csrf = re.search(r'name="_csrf" value="([^"]+)"', web.page("/settings")[2]).group(1)
        code = re.search(r'class="code">([0-9A-Z-]+)<', web.request("POST", "/settings/signin-code", {"_csrf": csrf})[2].decode()).group(1)
        status, signed = call(server.base, "POST", "/participant/sessions", {"signInCode": code})
        assert status == 201, signed
        link = subprocess.run([str(STUDYKIT), "researcher", "add", "ana@example.org", "--role", "viewer", "--data", str(data),
                               "--base-url", server.base], check=True, capture_output=True, text=True).stdout.split()[-1]
        setter = Participant(server.base)
        status = setter.request("POST", link.removeprefix(server.base),
                                {"password": "long enough passphrase", "confirmation": "long enough passphrase"})[0]
        assert status == 303
        status, researcher = call(server.base, "POST", "/researcher/sessions", {"email": "ana@example.org", "password": "long enough passphrase"})
        assert status == 201 and researcher["role"] == "viewer", researcher
        yield server.base, signed["token"], researcher["token"], data
    finally:
        server.stop()


def test_a_participant_reads_their_events_and_changes_outcomes_as_the_pages_do(api):
    base, token, _, _ = api
    status, me = call(base, "GET", "/participant", token=token)
    assert status == 200 and me["onboarded"] and not me["withdrawn"] and me["timeZone"] == "Asia/Tokyo"
    today = datetime.datetime.now(datetime.timezone(datetime.timedelta(hours=9))).date()
    status, listed = call(base, "GET", f"/participant/events?from={today - datetime.timedelta(days=1)}&to={today}", token=token)
    assert status == 200, listed
    events = listed["events"]
    assert {"exercises", "pain", "symptoms"} <= {event["task"] for event in events}
    todays = call(base, "GET", f"/participant/events?from={today}&to={today}", token=token)[1]["events"]
    log = next(e for e in todays if e["task"] == "symptoms" and e["open"])
    path = f"/participant/events/symptoms/{log['occurrence']}/outcome"
    assert call(base, "POST", path, {"action": "log"}, token=token)[0] == 204
    logged = next(e for e in call(base, "GET", f"/participant/events?from={today}&to={today}", token=token)[1]["events"]
                  if e["task"] == "symptoms" and e["occurrence"] == log["occurrence"])
    assert len(logged["values"]) == 1 and logged["values"][0]["kind"] == "logged"
    at = logged["values"][0]["createdAt"]
    assert call(base, "POST", path, {"action": "deleteLog", "loggedAt": at}, token=token)[0] == 204
    # The workflow's refusals, as JSON with the web pages' statuses.
    status, error = call(base, "POST", path, {"action": "done"}, token=token)
    assert status == 404 and set(error) == {"code", "message"}, error
    status, error = call(base, "POST", "/participant/events/pain/0/outcome", {"action": "done"}, token=token)
    assert status == 404, error
    status, error = call(base, "GET", "/participant/events?from=2026-01-01&to=2026-03-01", token=token)
    assert status == 400 and "at most 30 days later" in error["message"]
    status, error = call(base, "GET", "/participant", token="not-a-token")
    assert status == 401 and error["code"] == "not-signed-in"


def test_a_researcher_exports_and_a_participant_token_does_not(api):
    base, participant, researcher, _ = api
    status, body = call(base, "GET", "/exports/csv-long", token=researcher)
    assert status == 200
    with zipfile.ZipFile(io.BytesIO(body)) as archive:
        assert "answers.csv" in archive.namelist() and "export.json" in archive.namelist()
    assert call(base, "GET", "/exports/csv-long", token=participant)[0] == 401
    assert call(base, "GET", "/participant", token=researcher)[0] == 401


@pytest.mark.parametrize("who", ["participant", "researcher"])
def test_schemathesis_finds_nothing_outside_the_document(api, who):
    base, participant, researcher, _ = api
    token = participant if who == "participant" else researcher
    work = Path(tempfile.mkdtemp(prefix="studykit-schemathesis-"))  # its example database stays out of the checkout
    # A body larger than the server reads is refused with 413 before its schema is looked at: that is a rejection too.
    (work / "schemathesis.toml").write_text('[checks.negative_data_rejection]\n'
                                            'expected-statuses = ["400", "401", "403", "404", "405", "406", "409", "413", "415", '
                                            '"422", "428", "429"]\n')
    result = subprocess.run([str(SCHEMATHESIS), "run", f"{base}/api/v1/openapi.yaml", "--url", f"{base}/api/v1",
                             "--header", f"Authorization: Bearer {token}", "--checks", CHECKS, "--max-examples", "30",
                             "--generation-deterministic", "--request-timeout", "60"],
                            capture_output=True, text=True, timeout=900, env={**os.environ, "NO_COLOR": "1"},
                            cwd=work)
    # The failures (their request bodies cut short), then the summary.
    failures = result.stdout.partition("FAILURES")[2].partition("SUMMARY")[0]
    summary = re.sub(r"(\S{200})\S+", r"\1…", failures)[:6000] + result.stdout[-1500:]
    assert result.returncode == 0, summary
    assert re.search(r"\d+ generated, \d+ passed", summary), summary
