"""Recover's PHQ-9 FHIR Questionnaire, listed as a survey in its study folder, taken in a real browser: the nine
questions on one page, then the total score the Questionnaire's calculatedExpression computes, shown where the
Questionnaire puts it; a participant cannot post a score of their own."""
import json
import re
import shutil
import sqlite3

from selenium.webdriver.common.by import By

from conftest import ROOT, start_server
from http_participant import Participant as HTTPParticipant
from studypages import Participant

# Answers 0,0,0,1,2,1,3,2,1 on the 0–3 scale add up to 10, counted by hand.
ORDINALS = [0, 0, 0, 1, 2, 1, 3, 2, 1]


def test_the_phq9_from_the_study_folder_shows_its_score(server, browser):
    me = Participant(server, browser).join()
    me.complete_recover_onboarding(check_pages=False)
    assert "Mood check (PHQ-9)" in me.main_text()
    me.start_survey("Mood check (PHQ-9)")
    assert me.step() == "phq9"
    assert "Over the last two weeks, how often have you been bothered" in me.main_text()
    me.page()
    for index, ordinal in enumerate(ORDINALS):
        box = me.field(f"main input[name='q{index}'][value='{ordinal + 1}']")
        me.field(f"label[for='{box.get_attribute('id')}']").click()
    me.next()

    assert me.step() == "phq9-total"
    assert me.field("main output.calc-value").text == "10"
    assert "Your PHQ-9 total score (0 to 27)" in me.main_text()
    # Leaving the score's step is what stores it: it cannot be skipped, and it has no field to type into.
    assert not me.driver.find_elements(By.CSS_SELECTOR, "form button[name=action][value=skip]")
    assert not me.driver.find_elements(By.CSS_SELECTOR, "main input[name^=q]")
    me.page()
    # Back, a change (question 9 from 1 to 3), and the score follows.
    me.press("back")
    box = me.field("main input[name='q8'][value='4']")
    me.field(f"label[for='{box.get_attribute('id')}']").click()
    me.next()
    assert me.field("main output.calc-value").text == "12"
    me.press_primary()
    card = [c for c in browser.driver.find_elements(By.CSS_SELECTOR, "main li.card") if "Mood check (PHQ-9)" in c.text][0]
    assert "Done" in card.text


def test_a_posted_score_is_refused(server):
    alex = HTTPParticipant(server.base)
    alex.enrol(server.invite()[0])
    alex.complete_onboarding()
    home = alex.page("/")[2]
    run = alex.start_task(re.search(r'href="(/tasks/mood/\d+)"', home).group(1))
    csrf, step, names = HTTPParticipant.form_state(alex.page(run)[2])
    answers = {name: "1" for name in names}
    status, _, _ = alex.request("POST", run, {"_csrf": csrf, "_step": step, "action": "next", **answers})
    assert status == 303
    csrf, step, names = HTTPParticipant.form_state(alex.page(run)[2])
    assert step == "phq9-total" and names == set()
    # The score step has no field; a made-up one is refused and the step stays.
    status, _, body = alex.request("POST", run, {"_csrf": csrf, "_step": step, "action": "next", "q0": "0"})
    assert status == 400 and b"q0" in body, (status, body[:300])
    assert HTTPParticipant.form_state(alex.page(run)[2])[1] == "phq9-total"
    assert b"0</output>" in alex.request("GET", run)[2]


def test_a_score_that_cannot_be_calculated_does_not_strand_the_participant(workdir):
    """Recover with its PHQ-9 total changed to an expression that loads (every function exists) but fails for these
    answers (`single()` of nine values): the score's step says so, Next goes on, and the stored result keeps why."""
    # The study folder names its consent documents in ../../consent, so the examples are copied whole.
    shutil.copytree(ROOT / "examples", workdir / "examples")
    study = workdir / "examples" / "studies" / "recover"
    phq9 = study / "surveys" / "phq9.json"
    text = phq9.read_text()
    assert ".ordinal().sum()" in text
    phq9.write_text(text.replace(".ordinal().sum()", ".ordinal().single()"))
    server = start_server(study, workdir / "data")
    try:
        alex = HTTPParticipant(server.base)
        alex.enrol(server.invite()[0])
        alex.complete_onboarding()
        run = alex.start_task(re.search(r'href="(/tasks/mood/\d+)"', alex.page("/")[2]).group(1))
        csrf, step, names = HTTPParticipant.form_state(alex.page(run)[2])
        assert alex.request("POST", run, {"_csrf": csrf, "_step": step, "action": "next", **{name: "1" for name in names}})[0] == 303
        status, _, body = alex.request("GET", run)
        assert status == 200 and b"This value could not be calculated. You can go on without it." in body, body[:400]
        csrf, step, _ = HTTPParticipant.form_state(body.decode())
        assert step == "phq9-total"
        status, _, _ = alex.request("POST", run, {"_csrf": csrf, "_step": step, "action": "next"})
        assert status == 303
        with sqlite3.connect(f"file:{server.data / 'study.sqlite'}?mode=ro", uri=True) as db:
            row = db.execute("SELECT result FROM taskRun WHERE taskID = 'mood' AND result IS NOT NULL").fetchone()
        assert row, "the run did not finish"
        total = [item for step in json.loads(row[0])["stepResults"] for item in step["results"] if item.get("identifier") == "phq9-total"]
        assert total and "answer" not in total[0] and "'single()' needs a single item" in total[0]["calculationError"], total
    finally:
        server.stop()
