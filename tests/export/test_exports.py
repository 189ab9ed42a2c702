"""Every `studykit export` format on a real data folder, read back the way a statistician reads it: a participant
in Kiritimati (UTC+14) enrols over HTTP, signs the Recover consent, answers the pain check and the PHQ-9 (a FHIR
Questionnaire with a calculated total); each export, made while the server runs, is read with pandas, json and
zipfile, and every CSV again with base R's read.csv (`read_exports.R`): every answer the participant gave is found
exactly once with the right types, and the exported consent record and PDF pass `studykit consent verify`."""
import csv
import json
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

import pandas
import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "interop"))
# The same server start-up, participant and answers as the FHIR export's test.
from test_fhir_export import PAIN_ANSWER, PHQ9_ORDINALS, RECOVER, answered_study, printed_pdfs, studykit  # noqa: E402

# The PHQ-9's answers are LOINC's frequency answers: "Not at all" (0) to "Nearly every day" (3).
LOINC_FREQUENCY = {0: "LA6568-5", 1: "LA6569-3", 2: "LA6570-1", 3: "LA6571-9"}
COLUMNS = ["participant", "task", "occurrence", "run", "run_state", "step", "item", "type", "selection", "value", "number",
           "unit", "detail", "answered_at"]


def read(path):
    """answers.csv as pandas should read it: text stays text, the numbers and the event index are numbers."""
    return pandas.read_csv(path, dtype={"value": "string", "detail": "string", "unit": "string", "selection": "Int64",
                                        "occurrence": "Int64"}, keep_default_na=False, na_values={"number": [""]})


@pytest.fixture(scope="module")
def exported():
    """Every format exported from one data folder while the server runs; yields the csv-long folder, beside the others."""
    work = Path(tempfile.mkdtemp(prefix="studykit-exports-"))
    out = work / "csv"
    with answered_study(work) as data:
        for format in ["json", "consents", "outcomes", "csv-wide"]:
            made = studykit("export", "--format", format, "--out", work / format.removeprefix("csv-"), "--study", RECOVER, "--data", data)
            assert made.returncode == 0, made.stderr
        result = studykit("export", "--format", "csv-long", "--out", out, "--study", RECOVER, "--data", data)
        assert result.returncode == 0, result.stderr
        assert "1 participant exported as csv-long" in result.stdout, result.stdout
        # Again over the previous export: replaced whole, same rows.
        again = studykit("export", "--format", "csv-long", "--out", out, "--study", RECOVER, "--data", data)
        assert again.returncode == 0, again.stderr
    yield out
    shutil.rmtree(work, ignore_errors=True)


@pytest.fixture(scope="module")
def public_key(exported):
    data = exported.parent / "data"
    return studykit("consent", "key", "--data", data).stdout.strip()


def test_every_answer_is_one_typed_row(exported):
    frame = read(exported / "answers.csv")
    assert list(frame.columns) == COLUMNS
    assert frame["number"].dtype == "float64" and frame["occurrence"].dtype == "Int64"
    assert frame["participant"].nunique() == 1
    # The pain check: the level given, once, as a number, on a numbered event.
    pain = frame[(frame.task == "pain") & (frame.item == "painLevel")]
    assert len(pain) == 1 and pain.iloc[0].number == PAIN_ANSWER and pain.iloc[0].value == str(PAIN_ANSWER)
    assert pain.iloc[0].run_state == "completed" and not pandas.isna(pain.iloc[0].occurrence)
    # The PHQ-9: each of the nine answers once, in order, and the calculated total (10) beside them.
    mood = frame[frame.task == "mood"]
    answers = mood[mood.step == "phq9"].sort_values("item")
    assert list(answers.item) == [f"phq9-{i}" for i in range(1, 10)], mood[["step", "item", "value"]].to_string()
    assert list(answers.value) == [LOINC_FREQUENCY[ordinal] for ordinal in PHQ9_ORDINALS]
    assert (answers.type == "textChoice").all() and (answers.selection == 1).all()
    assert mood["run"].nunique() == 1
    total = mood[mood.number == 10]
    assert len(total) == 1, mood[["step", "item", "value", "number"]].to_string()
    # Onboarding answers have no event.
    onboarding = frame[frame.task == "onboarding"]
    assert len(onboarding) > 0 and onboarding["occurrence"].isna().all()
    # Every time is ISO 8601 with the participant's +14:00 and parses as one.
    times = pandas.to_datetime(frame["answered_at"], format="ISO8601")
    assert frame["answered_at"].str.endswith("+14:00").all() and times.notna().all()
    # Nothing twice: one row per (run, step, item, selection).
    assert not frame.duplicated(["run", "step", "item", "selection"]).any()


def test_outcomes_read_back_typed(exported):
    frame = pandas.read_csv(exported.parent / "outcomes" / "outcomes.csv", keep_default_na=False, na_values={"number": [""]},
                            dtype={"value": "string", "units": "string", "kind": "string"})
    assert list(frame.columns) == ["participant", "task", "occurrence", "event_start", "outcome", "kind", "value_type", "value",
                                   "number", "units", "recorded_at"]
    assert frame["occurrence"].dtype == "int64" and pandas.api.types.is_numeric_dtype(frame["number"])
    pain = frame[(frame.task == "pain") & (frame.number == PAIN_ANSWER)]
    assert len(pain) == 1 and pain.iloc[0].value_type == "integer", frame.to_string()
    assert frame["event_start"].str.endswith("+14:00").all() and frame["recorded_at"].str.endswith("+14:00").all()


def test_wide_files_read_back_typed_with_their_dictionary(exported):
    folder = exported.parent / "wide"
    dictionary = pandas.read_csv(folder / "data-dictionary.csv", dtype="string", keep_default_na=False)
    assert list(dictionary.columns)[:5] == ["Variable / Field Name", "Form Name", "Section Header", "Field Type", "Field Label"]
    assert len(dictionary.columns) == 18 and dictionary["Variable / Field Name"].is_unique
    pain = pandas.read_csv(folder / "wide" / "pain.csv", dtype={"occurrence": "Int64"})
    assert len(pain) == 1 and pain.iloc[0].painlevel == PAIN_ANSWER
    assert pandas.api.types.is_integer_dtype(pain["painlevel"])
    # Every column after the run's own is a variable of the dictionary, in the pain form.
    described = set(dictionary[dictionary["Form Name"] == "pain"]["Variable / Field Name"])
    assert {column.split("___")[0] for column in pain.columns[6:]} <= described
    mood = pandas.read_csv(folder / "wide" / "mood.csv", dtype="string", keep_default_na=False)
    assert [mood.iloc[0][f"phq9_{i}"] for i in range(1, 10)] == [LOINC_FREQUENCY[ordinal] for ordinal in PHQ9_ORDINALS]
    assert mood.iloc[0]["phq9_total"] == "10"


def test_json_lines_hold_the_runs_as_stored(exported):
    folder = exported.parent / "json"
    participants = [json.loads(line) for line in (folder / "participants.ndjson").read_text().splitlines()]
    runs = [json.loads(line) for line in (folder / "runs.ndjson").read_text().splitlines()]
    outcomes = [json.loads(line) for line in (folder / "outcomes.ndjson").read_text().splitlines()]
    assert [p["timeZone"] for p in participants] == ["Pacific/Kiritimati"]
    assert sorted(r["task"] for r in runs) == ["mood", "onboarding", "pain"] and all(r["state"] == "completed" for r in runs)
    pain = next(r for r in runs if r["task"] == "pain")
    level = next(item for step in pain["result"]["stepResults"] if step["identifier"] == "painLevel" for item in step["results"])
    assert level == {"kind": "question", "identifier": "painLevel", "type": "scale", "answer": PAIN_ANSWER}
    assert {o["task"] for o in outcomes} == {"onboarding", "pain", "mood"}
    with zipfile.ZipFile(folder / "files.zip") as archive:
        assert archive.testzip() is None and archive.namelist() == []  # the pain check and PHQ-9 attach no files


def test_consents_zip_holds_each_record_and_pdf_that_verify(exported, public_key, tmp_path):
    folder = exported.parent / "consents"
    listed = pandas.read_csv(folder / "consents.csv", dtype="string", keep_default_na=False)
    assert len(listed) == 1 and listed.iloc[0].kind == "consent" and listed.iloc[0].signers.startswith("Alex Morgan")
    assert listed.iloc[0].signed_at.endswith("+14:00")
    with zipfile.ZipFile(folder / "consents.zip") as archive:
        assert archive.testzip() is None
        record, pdf = f"{listed.iloc[0].participant}/{listed.iloc[0].record}.json", listed.iloc[0].pdf
        assert sorted(archive.namelist()) == sorted([record, pdf])
        archive.extractall(tmp_path)
    data = exported.parent / "data"
    # The record is the database's bytes, and the PDF the one printed into the database.
    assert (tmp_path / pdf).read_bytes() == next(iter(printed_pdfs(data).values()))
    verified = studykit("consent", "verify", tmp_path / record, "--pdf", tmp_path / pdf, "--study", RECOVER, "--public-key", public_key)
    assert verified.returncode == 0, verified.stdout + verified.stderr


def test_the_manifest_counts_the_rows(exported):
    manifest = json.loads((exported / "export.json").read_text())
    frame = read(exported / "answers.csv")
    assert manifest["format"] == "csv-long" and manifest["summary"]["counts"] == {"answers.csv": len(frame)}


# Every CSV the exports write, by path under the export folders.
CSV_FILES = ["consents/consents.csv", "csv/answers.csv", "outcomes/outcomes.csv", "wide/data-dictionary.csv",
             "wide/wide/checkin.csv", "wide/wide/mood.csv", "wide/wide/onboarding.csv", "wide/wide/pain.csv",
             "wide/wide/weekly.csv"]
TIME_COLUMNS = {"answered_at", "event_start", "recorded_at", "signed_at", "started_at", "ended_at"}


def as_text(path):
    """A CSV's cells as they are written, with its header."""
    with open(path, encoding="utf-8", newline="") as file:
        header = next(csv.reader(file))
    return header, pandas.read_csv(path, dtype="string", keep_default_na=False)


@pytest.fixture(scope="module")
def read_in_r(exported, tmp_path_factory):
    """Every CSV the exports wrote, read by base R (read_exports.R): per file, the rows R read, each column's class, how
    many values of each time column R parsed, and the data frame as R read it, written back as text."""
    if shutil.which("Rscript") is None:
        pytest.skip("Rscript is not installed: apt-get install r-base-core (make test installs it)")
    folder = exported.parent
    files = sorted(str(path.relative_to(folder)) for name in ["csv", "outcomes", "consents", "wide", "json"]
                   for path in (folder / name).rglob("*.csv"))
    assert files == CSV_FILES
    out = tmp_path_factory.mktemp("read-in-r")
    # In a UTF-8 locale, as a statistician's R runs: in the C locale R writes what it read back with <U+00E9> escapes.
    result = subprocess.run(["Rscript", ROOT / "tests" / "export" / "read_exports.R", out, *files], cwd=folder,
                            capture_output=True, text=True, timeout=120, env={**os.environ, "LC_ALL": "C.UTF-8"})
    assert result.returncode == 0 and result.stderr == "", result.stderr  # a warning of R's fails too (say a last line cut short)
    read = {file: {"class": {}, "times": {}, "frame": pandas.read_csv(out / f"{i}.csv", dtype="string", keep_default_na=False)}
            for i, file in enumerate(files, start=1)}
    for line in result.stdout.splitlines():
        kind, file, *rest = line.split("\t")
        if kind == "rows":
            read[file]["rows"] = int(rest[0])
        else:
            read[file][kind][rest[0]] = int(rest[1]) if kind == "times" else rest[1]
    return read


def test_r_reads_every_csv_as_written_and_as_pandas(exported, read_in_r):
    for file, read in read_in_r.items():
        header, cells = as_text(exported.parent / file)
        assert read["rows"] == len(pandas.read_csv(exported.parent / file)), file
        # The same names (no byte-order mark, nothing renamed to make an R name) and every cell as written: no quoting,
        # number or encoding trouble; a non-ASCII answer would have to come back as it was.
        assert list(read["class"]) == header and list(read["frame"].columns) == header, file
        assert read["frame"].equals(cells), f"{file}: R read\n{read['frame'].to_string()}\nthe file has\n{cells.to_string()}"
        # A column R reads as logical is one with nothing in it (a header-only file, an unanswered question).
        for column, kind in read["class"].items():
            assert kind != "logical" or (cells[column] == "").all(), (file, column)
        # Every time is text with the participant's +14:00, and R parses each one.
        for column in TIME_COLUMNS & set(header):
            assert read["class"][column] in {"character", "logical"} and read["times"][column] == len(cells), (file, column)
            assert cells[column].str.endswith("+14:00").all(), (file, column)


def test_r_reads_answers_and_outcomes_typed(read_in_r):
    answers = read_in_r["csv/answers.csv"]
    # `number` holds whole numbers only here, which R reads as integer (pandas as float64, for its missing values).
    assert answers["class"]["occurrence"] == answers["class"]["selection"] == "integer"
    assert answers["class"]["number"] in {"integer", "numeric"}
    text = set(COLUMNS) - {"occurrence", "selection", "number", "unit", "detail"}  # unit and detail are empty throughout
    assert {answers["class"][column] for column in text} == {"character"}
    frame = answers["frame"]
    pain = frame[(frame.task == "pain") & (frame.item == "painLevel")]
    assert len(pain) == 1 and pain.iloc[0].number == str(PAIN_ANSWER) and pain.iloc[0].value == str(PAIN_ANSWER)
    assert pain.iloc[0].occurrence != ""
    assert len(frame[(frame.task == "mood") & (frame.number == "10")]) == 1
    assert (frame[frame.task == "onboarding"].occurrence == "").all()  # no event: NA in R
    outcomes = read_in_r["outcomes/outcomes.csv"]
    assert outcomes["class"]["occurrence"] == "integer" and outcomes["class"]["number"] in {"integer", "numeric"}
    assert {outcomes["class"][column] for column in ["task", "kind", "value_type", "value", "units"]} == {"character"}
    frame = outcomes["frame"]
    pain = frame[(frame.task == "pain") & (frame.number == str(PAIN_ANSWER))]
    assert len(pain) == 1 and pain.iloc[0].value_type == "integer" and pain.iloc[0].units == "NRS"


def test_r_reads_the_wide_files_their_dictionary_and_the_consents_typed(read_in_r):
    dictionary = read_in_r["wide/data-dictionary.csv"]
    assert len(dictionary["class"]) == 18 and set(dictionary["class"].values()) == {"character"}
    assert dictionary["frame"]["Variable / Field Name"].is_unique
    pain = read_in_r["wide/wide/pain.csv"]
    assert pain["class"]["painlevel"] == "integer" and pain["class"]["occurrence"] == "integer"
    assert pain["rows"] == 1 and pain["frame"].iloc[0].painlevel == str(PAIN_ANSWER)
    mood = read_in_r["wide/wide/mood.csv"]
    assert mood["class"]["phq9_total"] == "integer" and mood["frame"].iloc[0].phq9_total == "10"
    assert [mood["class"][f"phq9_{i}"] for i in range(1, 10)] == ["character"] * 9
    assert [mood["frame"].iloc[0][f"phq9_{i}"] for i in range(1, 10)] == [LOINC_FREQUENCY[ordinal] for ordinal in PHQ9_ORDINALS]
    onboarding = read_in_r["wide/wide/onboarding.csv"]
    assert onboarding["class"]["occurrence"] == "integer" and onboarding["class"]["givenname"] == "character"
    assert list(onboarding["frame"].iloc[0][["givenname", "familyname"]]) == ["Alex", "Morgan"]
    consents = read_in_r["consents/consents.csv"]
    assert consents["class"]["version"] == "character" and consents["frame"].iloc[0].version == "1.0"
    assert consents["rows"] == 1 and consents["frame"].iloc[0].signers == "Alex Morgan"
