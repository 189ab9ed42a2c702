"""Recover's PHQ-9 FHIR Questionnaire, listed as a survey in its study folder, taken in a real browser: the nine
questions on one page, then the total score the Questionnaire's calculatedExpression computes, shown where the
Questionnaire puts it; a participant cannot post a score of their own."""
import re

from selenium.webdriver.common.by import By

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
