"""`studykit export --format fhir` on a real data folder: a participant enrols over HTTP, signs the Recover consent
(so a sealed record and its PDF exist) and answers the pain check; the export is then parsed resource by resource
with the fhir.resources R4B models, the R4 invariants it could break are evaluated with FHIRPath, and the consent's
PDF and sealed record are checked byte for byte against the data folder and `studykit consent verify`."""
import base64
import contextlib
import hashlib
import json
import os
import shutil
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.request
import uuid as uuid_module
from datetime import datetime
from pathlib import Path

import fhirpathpy
import pytest
from fhir.resources.R4B import get_fhir_model_class
from fhirpathpy.models import models

ROOT = Path(__file__).resolve().parents[2]
STUDYKIT = Path(os.environ.get("STUDYKIT", ROOT / ".build" / "debug" / "studykit"))
RECOVER = ROOT / "examples" / "studies" / "recover"
sys.path.insert(0, str(ROOT / "tests" / "browser"))
from http_participant import Participant  # noqa: E402  (a plain-HTTP participant shared with the browser suite)

PAIN = "72514-3"
PAIN_ANSWER = 7

# R4 invariants (expressions as the R4 specification writes them) that the exported resources could break; the
# models check structure and types, these check the rules between elements. Evaluated with the R4 model, so that
# `value` finds `valueQuantity`. per-1 (a Period's start is not after its end) is checked in Python below: fhirpathpy
# compares dateTimes with different offsets wrongly.
R4 = models["r4"]
INVARIANTS = {
    "Consent": {
        "ppc-1": "policy.exists() or policyRule.exists()",
        "ppc-2": "patient.exists() or scope.coding.where(system='something' and code='patient-privacy').exists().not()",
        "ppc-3": "patient.exists() or scope.coding.where(system='something' and code='research').exists().not()",
        "ppc-4": "patient.exists() or scope.coding.where(system='something' and code='adr').exists().not()",
        "ppc-5": "patient.exists() or scope.coding.where(system='something' and code='treatment').exists().not()",
        "att-1": "sourceAttachment.all(data.empty() or contentType.exists())",
    },
    "CarePlan": {
        "cpl-3": "activity.all(detail.empty() or reference.empty())",
    },
    "Observation": {
        "obs-6": "dataAbsentReason.empty() or value.empty()",
        "obs-7": "value.empty() or component.code.where(coding.intersect(%resource.code.coding).exists()).empty()",
    },
    "Bundle": {
        "bdl-7": "(type = 'history') or entry.where(fullUrl.exists()).select(fullUrl&resource.meta.versionId).isDistinct()",
        "bdl-8": "entry.all(fullUrl.contains('/_history/').not())",
    },
}
TIMING_INVARIANTS = {
    "tim-1": "duration.empty() or durationUnit.exists()",
    "tim-2": "period.empty() or periodUnit.exists()",
    "tim-4": "duration.exists() implies duration >= 0",
    "tim-5": "period.exists() implies period >= 0",
    "tim-6": "periodMax.empty() or period.exists()",
    "tim-7": "durationMax.empty() or duration.exists()",
    "tim-8": "countMax.empty() or count.exists()",
    "tim-9": "offset.empty() or (when.exists() and ((when in ('C' | 'CM' | 'CD' | 'CV')).not()))",
    "tim-10": "timeOfDay.empty() or when.empty()",
}
# Required bindings the models do not check: the codes each element may take.
REQUIRED_CODES = {
    "Consent": {"status": {"draft", "proposed", "active", "rejected", "inactive", "entered-in-error"}},
    "Observation": {"status": {"registered", "preliminary", "final", "amended", "corrected", "cancelled", "entered-in-error", "unknown"}},
    "CarePlan": {"status": {"draft", "active", "on-hold", "revoked", "completed", "entered-in-error", "unknown"},
                 "intent": {"proposal", "plan", "order", "option"},
                 "activity.detail.kind": {"Appointment", "CommunicationRequest", "DeviceRequest", "MedicationRequest",
                                          "NutritionOrder", "Task", "ServiceRequest", "VisionPrescription"},
                 "activity.detail.status": {"not-started", "scheduled", "in-progress", "on-hold", "completed", "cancelled",
                                            "stopped", "unknown", "entered-in-error"},
                 "activity.detail.scheduledTiming.repeat.periodUnit": {"s", "min", "h", "d", "wk", "mo", "a"},
                 "activity.detail.scheduledTiming.repeat.durationUnit": {"s", "min", "h", "d", "wk", "mo", "a"},
                 "activity.detail.scheduledTiming.repeat.dayOfWeek": {"mon", "tue", "wed", "thu", "fri", "sat", "sun"}},
    "Consent.provision": {"type": {"deny", "permit"}},
    "Bundle": {"type": {"document", "message", "transaction", "transaction-response", "batch", "batch-response", "history",
                        "searchset", "collection"}},
}



def printed_pdfs(data):
    """The consent PDFs the server printed, by record id: kept in the study's database beside their records (read here
    as another process would, read-only, while the server runs)."""
    database = data / "study.sqlite"
    if not database.exists():
        return {}
    with contextlib.closing(sqlite3.connect(f"file:{database}?mode=ro", uri=True)) as connection:
        rows = connection.execute("SELECT recordID, pdf FROM consentPDF WHERE state = 'ready' AND pdf IS NOT NULL").fetchall()
    return {str(uuid_module.UUID(bytes=bytes(record))) if isinstance(record, bytes) else str(record).lower(): bytes(pdf) for record, pdf in rows}

def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(data, log_path):
    port = free_port()
    log = open(log_path, "w")
    process = subprocess.Popen([str(STUDYKIT), "serve", "--study", str(RECOVER), "--data", str(data), "--host", "127.0.0.1",
                                "--port", str(port)], stdout=log, stderr=subprocess.STDOUT)
    deadline = time.time() + 60
    while time.time() < deadline:
        assert process.poll() is None, f"studykit serve exited with {process.returncode}; see {log_path}"
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=1) as response:
                if response.status == 200:
                    return process, f"http://127.0.0.1:{port}"
        except OSError:
            time.sleep(0.2)
    process.kill()
    raise AssertionError("studykit serve did not answer /health within 60 s")


def studykit(*arguments):
    return subprocess.run([str(STUDYKIT), *map(str, arguments)], capture_output=True, text=True, timeout=120)


def take_pain_check(participant):
    """Answers today's pain check with PAIN_ANSWER and leaves the optional questions empty."""
    _, _, home = participant.page("/")
    path = next(part.split('"')[0] for part in home.split('href="')[1:] if part.startswith("/tasks/pain/"))
    run = participant.start_task(path)
    for _ in range(10):
        status, location, html = participant.page(run)
        if status == 303:
            return
        csrf, step, names = Participant.form_state(html)
        data = {"_csrf": csrf, "_step": step, "action": "next"}
        if step == "painLevel":
            data[sorted(n for n in names if n.startswith("q0"))[0]] = str(PAIN_ANSWER)
        elif step != "done":
            data["action"] = "skip"
        status, location, body = participant.request("POST", run, data)
        assert status == 303, (step, status, body[:300])
        if location.startswith("/?") or location == "/":
            return
    raise AssertionError("the pain check did not finish")


# PHQ-9 answers, 0–3 each: their total, counted by hand, is 10.
PHQ9_ORDINALS = [0, 0, 0, 1, 2, 1, 3, 2, 1]


def take_mood_check(participant):
    """Takes today's PHQ-9 (Recover's mood check, a FHIR Questionnaire) with PHQ9_ORDINALS."""
    _, _, home = participant.page("/")
    path = next(part.split('"')[0] for part in home.split('href="')[1:] if part.startswith("/tasks/mood/"))
    run = participant.start_task(path)
    csrf, step, names = Participant.form_state(participant.page(run)[2])
    assert step == "phq9" and names == {f"q{i}" for i in range(9)}, (step, names)
    answers = {f"q{i}": str(ordinal + 1) for i, ordinal in enumerate(PHQ9_ORDINALS)}
    status, _, body = participant.request("POST", run, {"_csrf": csrf, "_step": step, "action": "next", **answers})
    assert status == 303, body[:300]
    _, _, html = participant.page(run)
    assert Participant.form_state(html)[1] == "phq9-total" and "10</output>" in html
    status, location, _ = participant.request("POST", run, {"_csrf": csrf, "_step": "phq9-total", "action": "next"})
    assert status == 303 and location.startswith("/?"), (status, location)


@contextlib.contextmanager
def answered_study(work):
    """A server on a new data folder in `work`, with one participant in Kiritimati who signed the Recover consent (its
    PDF printed) and answered the pain check and the PHQ-9. Yields the data folder while the server runs."""
    data = work / "data"
    process, base = start_server(data, work / "server.log")
    try:
        link = studykit("invite", "--study", RECOVER, "--data", data, "--base-url", base).stdout.split()[0]
        alex = Participant(base)
        alex.enrol(link, time_zone="Pacific/Kiritimati")
        alex.complete_onboarding()
        take_pain_check(alex)
        take_mood_check(alex)
        deadline = time.time() + 90
        while not printed_pdfs(data) and time.time() < deadline:
            time.sleep(0.5)
        assert printed_pdfs(data), "the consent PDF was printed"
        yield data
    finally:
        process.terminate()
        process.wait(timeout=20)


@pytest.fixture(scope="module")
def export():
    """A data folder with one onboarded participant in Kiritimati who answered the pain check, exported while the
    server runs. Yields (export folder, data folder, participant id)."""
    work = Path(tempfile.mkdtemp(prefix="studykit-fhir-export-"))
    out = work / "fhir"
    with answered_study(work) as data:
        result = studykit("export", "--format", "fhir", "--out", out, "--study", RECOVER, "--data", data)
        assert result.returncode == 0, result.stderr
        assert "1 participant exported as fhir" in result.stdout, result.stdout
    participant = json.loads((out / "Patient.ndjson").read_text().splitlines()[0])["id"]
    yield out, data, participant
    shutil.rmtree(work, ignore_errors=True)


def every_resource(out):
    """(file, resource) for every Bundle and every NDJSON line of the export."""
    for bundle in sorted((out / "participants").glob("*.json")):
        yield bundle.name, json.loads(bundle.read_text())
    for ndjson in sorted(out.glob("*.ndjson")):
        for number, line in enumerate(ndjson.read_text().splitlines(), 1):
            yield f"{ndjson.name}:{number}", json.loads(line)


def values_at(resource, dotted):
    """Every value at a dotted path, through lists."""
    values = [resource]
    for key in dotted.split("."):
        found = []
        for value in values:
            item = value.get(key) if isinstance(value, dict) else None
            found += item if isinstance(item, list) else ([] if item is None else [item])
        values = found
    return values


def periods_in(value):
    """Every object with a start or an end below `value`, outside contained resources of a Bundle's entries."""
    if isinstance(value, dict):
        if ("start" in value or "end" in value) and "resourceType" not in value:
            yield value
        for key, item in value.items():
            if key != "entry":
                yield from periods_in(item)
    elif isinstance(value, list):
        for item in value:
            yield from periods_in(item)


def period_in_order(period):
    """per-1: start <= end, comparing instants when both have times and days when either is a date."""
    start, end = period.get("start"), period.get("end")
    if start is None or end is None:
        return True
    if "T" in start and "T" in end:
        return datetime.fromisoformat(start) <= datetime.fromisoformat(end)
    return start[:10] <= end[:10]


def problems_of(resource):
    """The invariants and required codes `resource` breaks (for a Bundle, its entries' too)."""
    problems = []
    kind = resource["resourceType"]
    for key, expression in INVARIANTS.get(kind, {}).items():
        if fhirpathpy.evaluate(resource, expression, model=R4) != [True]:
            problems.append(f"{kind}/{resource.get('id')}: {key} fails")
    for period in periods_in(resource):
        if not period_in_order(period):
            problems.append(f"{kind}/{resource.get('id')}: per-1 fails on {period}")
    for timing in fhirpathpy.evaluate(resource, "descendants().where(repeat.exists() or event.exists())"):
        for key, expression in TIMING_INVARIANTS.items():
            if fhirpathpy.evaluate(timing.get("repeat", {}), expression) not in ([True], []):
                problems.append(f"{kind}/{resource.get('id')}: {key} fails on {timing}")
    for scope, bindings in REQUIRED_CODES.items():
        base_kind, _, prefix = scope.partition(".")
        if base_kind != kind:
            continue
        for path, allowed in bindings.items():
            for value in values_at(resource, f"{prefix}.{path}" if prefix else path):
                if value not in allowed:
                    problems.append(f"{kind}/{resource.get('id')}: {path} '{value}' is not one of the required codes")
    for entry in resource.get("entry", []):
        problems += problems_of(entry["resource"])
    return problems


def test_every_exported_resource_is_valid_r4(export):
    out, _, _ = export
    checked = 0
    for where, resource in every_resource(out):
        get_fhir_model_class(resource["resourceType"]).model_validate(resource)   # raises on any validation error
        assert problems_of(resource) == [], where
        checked += 1
    kinds = sorted(p.name for p in out.glob("*.ndjson"))
    assert kinds == ["CarePlan.ndjson", "Consent.ndjson", "Observation.ndjson", "Patient.ndjson", "Provenance.ndjson",
                     "QuestionnaireResponse.ndjson"]
    assert checked == 1 + 7  # the Bundle, then Patient, Consent, Provenance, CarePlan, two Observations, the PHQ-9 response


def test_the_validation_would_catch_a_broken_resource(export):
    out, _, _ = export
    consent = json.loads((out / "Consent.ndjson").read_text().splitlines()[0])
    broken = dict(consent)
    del broken["policyRule"]
    assert "ppc-1 fails" in " ".join(problems_of(broken))
    broken = dict(consent, status="signed")
    assert "is not one of the required codes" in " ".join(problems_of(broken))
    with pytest.raises(Exception):
        get_fhir_model_class("Consent").model_validate(dict(consent, dateTime="yesterday"))


def test_the_consent_carries_the_signed_pdf_with_its_hash(export):
    out, data, participant = export
    consent = json.loads((out / "Consent.ndjson").read_text().splitlines()[0])
    attachment = consent["sourceAttachment"]
    pdf = base64.b64decode(attachment["data"])
    assert pdf.startswith(b"%PDF")
    assert attachment["contentType"] == "application/pdf"
    assert attachment["hash"] == base64.b64encode(hashlib.sha1(pdf).digest()).decode()
    assert attachment["size"] == len(pdf)
    assert pdf == printed_pdfs(data)[consent["id"]]
    assert consent["status"] == "active"
    assert consent["patient"]["reference"] == f"Patient/{participant}"
    assert consent["dateTime"].endswith("+14:00"), "signed in Kiritimati"


def test_the_provenance_carries_the_sealed_record_which_still_verifies(export, tmp_path):
    out, _, _ = export
    consent = json.loads((out / "Consent.ndjson").read_text().splitlines()[0])
    provenance = json.loads((out / "Provenance.ndjson").read_text().splitlines()[0])
    assert provenance["target"] == [{"reference": f"Consent/{consent['id']}"}]
    signature = provenance["signature"][0]
    assert signature["type"][0] == {"system": "urn:iso-astm:E1762-95:2013", "code": "1.2.840.10065.1.12.1.7",
                                    "display": "Consent Signature"}
    record = tmp_path / "record.json"
    record.write_bytes(base64.b64decode(signature["data"]))
    pdf = tmp_path / "consent.pdf"
    pdf.write_bytes(base64.b64decode(consent["sourceAttachment"]["data"]))
    assert json.loads(record.read_text())["record"]["id"].lower() == consent["id"]
    result = studykit("consent", "verify", record, "--pdf", pdf, "--trust-embedded-key")
    assert (result.returncode, result.stdout.strip()) == (0, "valid"), result.stdout + result.stderr


def test_the_pain_answer_is_an_observation_coded_with_loinc(export):
    out, _, participant = export
    observations = [json.loads(line) for line in (out / "Observation.ndjson").read_text().splitlines()]
    assert len(observations) == 2
    pain = next(o for o in observations if o["code"]["coding"][0]["code"] == PAIN)
    assert pain["code"]["coding"][0] == {"system": "http://loinc.org", "code": PAIN,
                                         "display": "Pain severity - 0-10 verbal numeric rating [Score] - Reported"}
    assert pain["valueQuantity"] == {"value": PAIN_ANSWER, "unit": "NRS"}
    assert pain["subject"] == {"reference": f"Patient/{participant}"}
    assert pain["effectiveDateTime"].endswith("+14:00")


def test_the_phq9_run_is_a_questionnaire_response_with_its_calculated_score(export):
    out, _, participant = export
    responses = [json.loads(line) for line in (out / "QuestionnaireResponse.ndjson").read_text().splitlines()]
    assert len(responses) == 1
    response = responses[0]
    assert response["questionnaire"] == "urn:studykit:recover:questionnaire:phq9|1.0"
    assert response["status"] == "completed" and response["subject"] == {"reference": f"Patient/{participant}"}
    assert response["authored"].endswith("+14:00")
    codes = fhirpathpy.evaluate(response, "repeat(item).where(linkId.matches('^phq9-[1-9]$')).answer.valueCoding.code")
    # LOINC's answer list for the PHQ-9 (LL358-3): not at all, several days, more than half the days, nearly every day.
    assert codes == ["LA6568-5", "LA6568-5", "LA6568-5", "LA6569-3", "LA6570-1", "LA6569-3", "LA6571-9", "LA6570-1", "LA6569-3"]
    assert fhirpathpy.evaluate(response, "repeat(item).where(linkId='phq9-total').answer.valueInteger") == [10]
    # The score is also an Observation coded as the Questionnaire codes the item: LOINC 44261-6.
    observations = [json.loads(line) for line in (out / "Observation.ndjson").read_text().splitlines()]
    phq9 = [o for o in observations if o["code"]["coding"][0]["code"] == "44261-6"]
    assert len(phq9) == 1 and phq9[0]["valueInteger"] == 10, phq9


def test_the_bundle_holds_the_participants_resources_and_its_references_resolve(export):
    out, _, participant = export
    bundle = json.loads((out / "participants" / f"{participant}.json").read_text())
    assert bundle["type"] == "collection"
    urls = {entry["fullUrl"] for entry in bundle["entry"]}
    assert all(url.startswith("urn:uuid:") for url in urls) and len(urls) == len(bundle["entry"])
    references = fhirpathpy.evaluate(bundle, "entry.resource.descendants().reference")
    assert references and set(references) <= urls
    types = [entry["resource"]["resourceType"] for entry in bundle["entry"]]
    assert types == ["Patient", "Consent", "Provenance", "CarePlan", "Observation", "Observation", "QuestionnaireResponse"]
    care_plan = bundle["entry"][3]["resource"]
    daily = care_plan["activity"][0]["detail"]["scheduledTiming"]["repeat"]
    assert daily["timeOfDay"] == ["08:00:00"] and daily["boundsPeriod"]["start"].endswith("T08:00:00+14:00")


def test_a_rerun_replaces_the_export_and_errors_name_what_is_wrong(export, tmp_path):
    out, data, _ = export
    (out / "Stale.ndjson").write_text("{}\n")
    result = studykit("export", "--format", "fhir", "--out", out, "--study", RECOVER, "--data", data)
    assert result.returncode == 0, result.stderr
    assert not (out / "Stale.ndjson").exists() and (out / "Patient.ndjson").exists()

    missing = studykit("export", "--format", "fhir", "--out", tmp_path / "x", "--study", RECOVER, "--data", tmp_path / "nothing")
    assert missing.returncode == 1 and f"no data folder at {tmp_path / 'nothing'}" in missing.stderr
    unknown = studykit("export", "--format", "csv", "--out", tmp_path / "x", "--data", data)
    assert unknown.returncode != 0 and "'csv'" in unknown.stderr and "fhir" in unknown.stderr
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    unwritable = studykit("export", "--format", "fhir", "--out", blocker / "out", "--study", RECOVER, "--data", data)
    assert unwritable.returncode == 1 and f"cannot write {blocker}" in unwritable.stderr, unwritable.stderr
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "notes.txt").write_text("keep me")
    refused = studykit("export", "--format", "fhir", "--out", tmp_path / "mine", "--study", RECOVER, "--data", data)
    assert refused.returncode == 1 and "holds no previous export" in refused.stderr
    assert (tmp_path / "mine" / "notes.txt").read_text() == "keep me"
