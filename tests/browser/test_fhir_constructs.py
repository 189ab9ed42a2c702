"""A FHIR Questionnaire with what published forms use, listed as a survey and taken in a real browser
(tests/browser/studies/family-history): answers pre-filled from %patient (the name signed on the consent, the birth
date and gender given at onboarding), a multi-select with an exclusive "None of the above", a follow-up nested under a
question, and a repeating group of parents with a condition read in each repetition. The exported
QuestionnaireResponse is validated with fhir.resources and must hold exactly what was answered, in the form's shape."""
import json
import subprocess

import pytest
from fhir.resources.R4B import get_fhir_model_class
from selenium.webdriver.common.by import By

from conftest import ROOT, STUDYKIT, start_server
from studypages import Participant, click_to_navigate, draw_signature

STUDY = ROOT / "tests" / "browser" / "studies" / "family-history"


@pytest.fixture
def family_server(workdir):
    s = start_server(STUDY, workdir / "data")
    yield s
    s.stop()


def onboard(me, given, family, born, gender):
    """The study's onboarding: welcome, the consent's name and signature, birth date and gender, done."""
    click_to_navigate(me.driver, me.driver.find_element(By.CSS_SELECTOR, "main a.button[href='/onboarding']"))
    assert me.step() == "welcome"
    me.next()
    assert me.step() == "consent.name"
    me.type_into("#q0", given)
    me.type_into("#q1", family)
    me.next()
    assert me.step() == "consent.document"
    canvas = me.field(".sig canvas")
    me.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", canvas)
    draw_signature(me.driver, canvas)
    me.next()
    assert me.step() == "about"
    me.set_value("main input[type=date]", born)
    me.choose(gender)
    me.next()
    assert me.step() == "done"
    me.next()
    assert me.path() == "/?notice=onboarded"


def chosen(me):
    """The labels of the ticked choices on the page (their values are option numbers)."""
    return [label.text.split("\n")[0] for label in me.driver.find_elements(By.CSS_SELECTOR, "main label.opt")
            if label.find_element(By.TAG_NAME, "input").is_selected()]


def at(me, step):
    assert me.step() == step, f"expected {step}, on {me.step()}"
    assert me.page() == 200


def test_a_published_style_form_is_answered_and_exported_in_its_shape(family_server, browser, workdir):
    me = Participant(family_server, browser).join(time_zone="Australia/Sydney")
    onboard(me, "Ada", "Lovelace", "1961-02-28", "Female")
    me.start_survey("Family history")

    # Pre-filled from %patient: the consent's family name, the onboarding's birth date and gender. Corrected here.
    at(me, "you")
    assert me.value("main input[type=text]") == "Lovelace"
    assert me.value("main input[type=date]") == "1961-02-28"
    assert chosen(me) == ["Female"]
    me.type_into("main input[type=text]", "King")
    me.next()

    # A multi-select with an exclusive choice: ticking "None of the above" unticks the others, and another choice unticks it.
    at(me, "conditions")
    me.choose("Asthma")
    me.choose("Diabetes")
    me.choose("None of the above")
    assert chosen(me) == ["None of the above"]
    me.choose("Asthma")
    me.choose("High blood pressure")
    assert chosen(me) == ["Asthma", "High blood pressure"]
    me.choose("Yes")  # Do you smoke?
    me.next()

    # The follow-up nested under "Do you smoke?" is asked because it was answered.
    at(me, "smoker.packs")
    me.type_into("main input[inputmode]", "2")
    me.next()

    # The first parent, living: no age at death. Then "Add another", the second parent, who is not.
    at(me, "relative")
    assert "Parent (1)" in me.h1()
    me.choose("Mother")
    me.choose("Yes")
    me.next()
    at(me, "relative-another-1")
    assert "Add another “Parent”?" in me.main_text()
    me.choose("Yes")
    me.next()
    at(me, "relative-2")
    assert "Parent (2)" in me.h1()
    me.choose("Father")
    me.choose("No")
    me.next()
    at(me, "relative.age-2")
    me.type_into("main input[inputmode]", "71")
    me.next()
    # Two parents at most (maxOccurs 2): no third "Add another"; the run ends on home with the card done.
    assert me.path().startswith("/"), me.driver.current_url
    card = [c for c in browser.driver.find_elements(By.CSS_SELECTOR, "main li.card") if "Family history" in c.text][0]
    assert "Done" in card.text

    out = workdir / "export"
    result = subprocess.run([str(STUDYKIT), "export", "--format", "fhir", "--out", str(out), "--study", str(STUDY),
                             "--data", str(family_server.data)], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    responses = [json.loads(line) for line in (out / "QuestionnaireResponse.ndjson").read_text().splitlines()]
    assert len(responses) == 1
    response = responses[0]
    get_fhir_model_class("QuestionnaireResponse").model_validate(response)  # raises on any validation error
    assert response["questionnaire"] == "http://example.org/studykit/Questionnaire/family-history|1.0"
    assert response["status"] == "completed"

    def coding(system, code, display):
        return {"valueCoding": {"system": system, "code": code, "display": display}}

    gender = "http://hl7.org/fhir/administrative-gender"
    snomed = "http://snomed.info/sct"
    role = "http://terminology.hl7.org/CodeSystem/v3-RoleCode"
    # Exactly what was answered, in the Questionnaire's shape: groups hold their items, the nested follow-up sits
    # under the answer it follows, and each parent is a repetition of the group with its own answers.
    assert response["item"] == [
        {"linkId": "you", "text": "About you", "item": [
            {"linkId": "you.family", "text": "Family name", "answer": [{"valueString": "King"}]},
            {"linkId": "you.born", "text": "Date of birth", "answer": [{"valueDate": "1961-02-28"}]},
            {"linkId": "you.sex", "text": "Gender", "answer": [coding(gender, "female", "Female")]}]},
        {"linkId": "conditions", "text": "Which of these have you been told you have?",
         "answer": [coding(snomed, "195967001", "Asthma"), coding(snomed, "38341003", "High blood pressure")]},
        {"linkId": "smoker", "text": "Do you smoke?", "answer": [
            {"valueBoolean": True, "item": [{"linkId": "smoker.packs", "text": "How many packs a day?", "answer": [{"valueInteger": 2}]}]}]},
        {"linkId": "relative", "text": "Parent", "item": [
            {"linkId": "relative.who", "text": "Which parent?", "answer": [coding(role, "MTH", "Mother")]},
            {"linkId": "relative.living", "text": "Living?", "answer": [{"valueBoolean": True}]}]},
        {"linkId": "relative", "text": "Parent", "item": [
            {"linkId": "relative.who", "text": "Which parent?", "answer": [coding(role, "FTH", "Father")]},
            {"linkId": "relative.living", "text": "Living?", "answer": [{"valueBoolean": False}]},
            {"linkId": "relative.age", "text": "Age at death", "answer": [{"valueInteger": 71}]}]},
    ]
