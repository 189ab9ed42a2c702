"""The server's rules over plain HTTP: tampered requests get a 4xx that says what was wrong and change nothing
stored, and an answer the server acknowledged survives `kill -9`."""
import re
import signal

from conftest import ROOT, start_server
from http_participant import Participant


def pain_survey_path(html):
    match = re.search(r'href="(/tasks/pain/\d+)"', html)
    assert match, "the home page offers today's pain check"
    return match.group(1)


def onboarded(server):
    participant = Participant(server.base)
    participant.enrol(server.invite()[0])
    participant.complete_onboarding()
    status, _, home = participant.page("/")
    assert status == 200
    return participant, pain_survey_path(home)


def test_onboarding_cannot_be_started_again_once_done(server):
    alex, _ = onboarded(server)
    status, location, _ = alex.request("GET", "/onboarding")
    assert (status, location) == (303, "/")


def test_tampered_requests_are_refused_and_change_nothing(server):
    alex, pain = onboarded(server)
    run = alex.start_task(pain)
    _, _, page = alex.page(run)
    csrf, step, names = Participant.form_state(page)
    assert step == "painLevel"
    scale_field = sorted(n for n in names if n.startswith("q0"))[0]

    # An answer outside the scale (0–10): 422 with the format's message; the step is still unanswered.
    status, _, body = alex.request("POST", run, {"_csrf": csrf, "_step": step, "action": "next", scale_field: "11"})
    assert status == 422 and b"Enter a number from 0 to 10." in body, (status, body[:300])
    assert step in alex.page(run)[2] and 'value="11" checked' not in alex.page(run)[2]

    # A step that is not the run's current one (unknown or stale): 409, and the run stays where it was.
    status, _, body = alex.request("POST", run, {"_csrf": csrf, "_step": "noSuchStep", "action": "next", scale_field: "3"})
    assert status == 409 and b"This page was out of date" in body, body[:300]
    assert Participant.form_state(alex.page(run)[2])[1] == "painLevel"

    # No CSRF token, or another session's: 403.
    status, _, body = alex.request("POST", run, {"_step": step, "action": "next", scale_field: "3"})
    assert status == 403 and b"security token" in body
    status, _, _ = alex.request("POST", run, {"_csrf": "forged", "_step": step, "action": "next", scale_field: "3"})
    assert status == 403
    assert Participant.form_state(alex.page(run)[2])[1] == "painLevel"

    # Another participant's run: 404 for reading and for posting, and Alex's run is untouched.
    blake, _ = onboarded(server)
    blake_csrf = Participant.form_state(blake.page(blake.start_task(pain_survey_path(blake.page("/")[2])))[2])[0]
    assert blake.page(run)[0] == 404
    status, _, _ = blake.request("POST", run, {"_csrf": blake_csrf, "_step": step, "action": "next", scale_field: "3"})
    assert status == 404
    assert Participant.form_state(alex.page(run)[2])[1] == "painLevel"

    # Not signed in at all.
    stranger = Participant(server.base)
    assert stranger.page(run)[0] == 401
    assert stranger.page("/")[0] == 401


def test_an_acknowledged_answer_survives_kill_9(workdir):
    study, data = ROOT / "examples" / "studies" / "recover", workdir / "data"
    server = start_server(study, data)
    alex, pain = onboarded(server)
    run = alex.start_task(pain)
    csrf, step, names = Participant.form_state(alex.page(run)[2])
    scale_field = sorted(n for n in names if n.startswith("q0"))[0]
    status, location, _ = alex.request("POST", run, {"_csrf": csrf, "_step": step, "action": "next", scale_field: "7"})
    assert status == 303  # acknowledged

    server.process.send_signal(signal.SIGKILL)
    server.process.wait()
    restarted = start_server(study, data, port=server.port)
    try:
        status, _, page = alex.page(run)
        assert status == 200
        csrf, step, _ = Participant.form_state(page)
        assert step == "painLocation", "the run resumes after the acknowledged answer"
        status, _, _ = alex.request("POST", run, {"_csrf": csrf, "_step": step, "action": "back"})
        page = alex.page(run)[2]
        assert re.search(r'value="7"[^>]*checked|checked[^>]*value="7"', page), "the answer 7 is kept"
    finally:
        restarted.stop()
