"""The every-format survey in a real browser: every step kind and answer format, each refusable format given a
wrong answer first (the page comes back with status 422 and the format's message beside the field), then a right
one, through the review and the completion to a home page that shows the task done."""
import sqlite3
from pathlib import Path

from selenium.webdriver.common.actions import interaction
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from studypages import Participant, WAIT, control_page_time, draw_signature, mark_page, release_page_time, wait_for_new_page


def refuse(me, field_id, message, natively_invalid=None):
    """Posts the page as it is and expects the server to refuse it with `message` beside `field_id`.

    When the field has constraints the browser checks itself (min, max, required, type=email), it first asserts the
    browser refuses the value too, then posts with those checks off so that the server's own check is proven."""
    if natively_invalid:
        assert me.natively_invalid(natively_invalid), f"the browser accepts {natively_invalid} on {me.step()}"
        me.submit_unchecked()
    else:
        me.press("next")
    me.expect_refusal(message, field_id)


def sign(me, pointer):
    canvas = me.field(".sig canvas")
    me.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", canvas)
    draw_signature(me.driver, canvas, pointer)
    assert '"strokes"' in me.value(".sig input[type=hidden]")


def at(me, step):
    """Asserts the step on screen, and checks the page (axe-core, weight, width)."""
    assert me.step() == step, f"expected {step}, on {me.step()}"
    assert me.page() == 200


# The smallest valid PNG: one transparent pixel.
PNG = bytes.fromhex("89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63fcff"
                    "ff3f0005fe02fea7d6a4cf0000000049454e44ae426082")


def test_a_survey_with_every_answer_format(every_format_server, browser, tmp_path):
    control_page_time(browser.driver)  # the wait step's page holds its timer until the test has checked it
    me = Participant(every_format_server, browser).join()
    me.onboard_every_format(check_pages=True)
    assert "Thank you. Your consent is signed, and your tasks are below." in me.main_text()
    card = me.field("main li.card")
    assert card.find_element(By.TAG_NAME, "h2").text == "Every answer format"
    assert card.find_element(By.CSS_SELECTOR, ".badge").text == "To do"
    me.page()
    me.start_survey()

    # Step kinds without questions: an instruction with an image, body items and learn-more; web content with a
    # signature after it; a signature step; permissions; a video; a table.
    at(me, "intro")
    assert me.driver.find_elements(By.CSS_SELECTOR, "main img.hero[alt='A drawing of a knee joint']")
    assert me.field("main details summary").text == "Why so many questions?"
    me.next()
    at(me, "consentPage")
    sign(me, interaction.POINTER_PEN)  # the pad takes pen and touch as well as the mouse of the onboarding tests
    me.next()
    at(me, "signature")
    refuse(me, "sig", "Please sign before you continue.")
    sign(me, interaction.POINTER_TOUCH)
    me.next()
    at(me, "permissions")
    me.choose_all_permissions()
    me.next()
    at(me, "kneeBendVideo")
    assert me.field("main video track[kind=captions]")
    me.next()
    at(me, "exerciseList")
    assert [li.text for li in me.driver.find_elements(By.CSS_SELECTOR, "main .web ~ ul li, main h1 ~ ul li")][:3] == [
        "Knee bends, 10 times", "Straight leg raises, 10 times", "Heel slides, 10 times"]
    me.next()

    # boolean, with a "don't know" box
    at(me, "sleptWell")
    me.choose("Woke up in pain")
    me.next()
    # textChoice, single
    at(me, "mobility")
    me.choose("With a stick")
    me.next()
    # textChoice, multiple, with an "other" choice that needs its text, and an exclusive choice
    at(me, "symptoms")
    me.choose("Swelling")
    me.choose("None of these")  # exclusive: the page's script unticks the others
    assert me.checked() == ["5"]
    me.choose("Swelling")
    assert me.checked() == ["1"]
    me.choose("Something else")
    refuse(me, "q0", "Type your answer for “Something else”.")
    me.type_into("#q0-other4", "Clicking when I bend it")
    me.next()
    # imageChoice
    at(me, "feeling")
    me.choose("Okay")
    me.next()
    # valuePicker
    at(me, "operatedKnee")
    me.select("#q0", "Right")
    me.next()
    # multipleValuePicker: a value in only one of the two lists
    at(me, "walkingTime")
    me.select("#q0-p1", "1 h")
    refuse(me, "q0", "Choose a value in every list.", natively_invalid="#q0-p2")
    assert me.value("#q0-p1") == "2"  # the refused page keeps what was chosen
    me.select("#q0-p2", "30 min")
    me.next()
    # textScale (default: Moderate)
    at(me, "stiffness")
    assert me.checked() == ["3"]
    me.choose("Severe")
    me.next()
    # scale, required, horizontal
    at(me, "pain")
    refuse(me, "q0", "This question needs an answer.")
    me.choose("4")
    me.next()
    # scale, vertical, in steps of ten (default 50)
    at(me, "stairsConfidence")
    me.choose("70")
    me.next()
    # continuousScale in percent: out of range
    at(me, "usualActivity")
    me.type_into("#q0", "150")
    refuse(me, "q0", "Enter a number from 0 to 1 (0% to 100%).", natively_invalid="#q0")
    me.type_into("#q0", "75")
    me.next()
    # numeric, integer: out of range
    at(me, "steps")
    me.type_into("#q0", "200000")
    refuse(me, "q0", "Enter a number from 0 to 100000.", natively_invalid="#q0")
    me.type_into("#q0", "4200")
    me.next()
    # numeric, decimal: out of range
    at(me, "temperature")
    me.type_into("#q0", "50")
    refuse(me, "q0", "Enter a number from 34 to 43.", natively_invalid="#q0")
    me.type_into("#q0", "37.2")
    me.next()
    # form: height (metric) and age both out of range in one post, each message beside its own field; weight (US)
    at(me, "aboutYou")
    me.type_into("#q0", "300")
    me.type_into("#q2", "12")
    refuse(me, "q0", "Enter a height from 50 to 250 cm.", natively_invalid="#q0")
    assert "Enter an age from 18 to 110." in me.errors()["q2-err"]
    me.type_into("#q0", "172")
    me.type_into("#q2", "54")
    me.type_into("#q1-lb", "160")
    me.next()
    # date: before its minimum
    at(me, "surgeryDate")
    me.set_value("#q0", "2024-05-05")
    refuse(me, "q0", "Choose a date on or after", natively_invalid="#q0")
    me.set_value("#q0", "2026-03-02")
    me.next()
    # dateTime: before its minimum
    at(me, "nextAppointment")
    me.set_value("#q0", "2025-06-01T10:00")
    refuse(me, "q0", "Choose a date and time on or after", natively_invalid="#q0")
    me.set_value("#q0", "2026-12-01T09:30")
    me.next()
    # timeOfDay
    at(me, "bedtime")
    me.set_value("#q0", "23:15")
    me.next()
    # timeInterval: more than its maximum of four hours
    at(me, "icing")
    me.type_into("#q0-h", "5")
    refuse(me, "q0", "Enter a duration from 0 min to 4 h", natively_invalid="#q0-h")
    me.type_into("#q0-h", "0")
    me.type_into("#q0-m", "45")
    me.next()
    # text, one line, at most 40 characters: the field's maxlength stops typing, so the long value is set by script
    at(me, "nickname")
    me.driver.execute_script("document.getElementById('q0').value = arguments[0]", "A" * 41)
    refuse(me, "q0", "Enter at most 40 characters.")
    me.type_into("#q0", "Ada")
    me.next()
    # text, several lines
    at(me, "notes")
    me.type_into("#q0", "Stairs are still hard.\nThe swelling is going down.")
    me.next()
    # text with a validation pattern. One click on Next posts it and the server refuses it with the study's message
    # (the live check on leaving the field once moved Next from under the pointer and swallowed that click).
    at(me, "studyCode")
    message = "A study code is three capital letters, a hyphen and four digits, for example KNE-0420."
    me.type_into("#q0", "kne-42")
    refuse(me, "q0", message)
    # Live validation, on the step freshly opened: leaving the field by keyboard shows the same message at once.
    me.open(me.path())
    me.type_into("#q0", "kne-42").send_keys(Keys.TAB)
    assert me.errors().get("q0-err") == message
    assert me.field("#q0").get_attribute("aria-invalid") == "true"
    me.type_into("#q0", "KNE-0420").send_keys(Keys.TAB)
    assert not me.errors()
    me.next()
    # email without an @
    at(me, "email")
    me.type_into("#q0", "ada.example.org")
    refuse(me, "q0", "Enter a valid email address.", natively_invalid="#q0")
    me.type_into("#q0", "ada@example.org")
    me.next()
    # location: a latitude out of range
    at(me, "clinic")
    me.type_into("#q0-lat", "100")
    me.type_into("#q0-lon", "8.54")
    refuse(me, "q0", "Enter a latitude from -90 to 90.", natively_invalid="#q0-lat")
    me.type_into("#q0-address", "1 Clinic Road, Springfield")
    me.type_into("#q0-lat", "47.37")
    me.next()
    # sesLadder
    at(me, "ladder")
    me.choose("7")
    me.next()
    # file: the server refuses a file of a type the question does not accept, then keeps a photo in the study's database
    at(me, "scarPhoto")
    notes = tmp_path / "notes.txt"
    notes.write_text("not a photo")
    me.field("#q0").send_keys(str(notes))
    refuse(me, "q0", "Choose a file of one of these types: image/*.")
    photo = tmp_path / "scar.png"
    photo.write_bytes(PNG)
    me.field("#q0").send_keys(str(photo))
    me.next()
    # In the study's database, beside the run (not under the data folder).
    database = sqlite3.connect(f"file:{Path(every_format_server.data) / 'study.sqlite'}?mode=ro", uri=True)
    try:
        stored = [row[0] for row in database.execute("SELECT data FROM runFile WHERE name LIKE '%.png'")]
    finally:
        database.close()
    assert stored == [PNG], stored
    assert not (Path(every_format_server.data) / "run-files").exists()

    # A wait step with a duration moves on by itself after three seconds: of its own time, which is held while the test
    # checks the page (else a slow check may find the next page instead).
    at(me, "saving")
    mark_page(me.driver)
    released = release_page_time(me.driver)
    wait_for_new_page(me.driver, timeout=WAIT)
    at(me, "review")
    moved = me.driver.execute_script("return performance.timeOrigin") / 1000 - released
    assert moved >= 3 - 0.05, f"the wait step moved on {moved:.3f} s after its time ran"
    review = me.main_text()
    for answer in ("KNE-0420", "ada@example.org", "Clicking when I bend it", "Right", "4200", "scar.png"):
        assert answer in review, (answer, review)
    me.next()
    at(me, "done")
    me.next()
    assert me.path() == "/?notice=done"
    assert "Thank you. It is saved." in me.main_text()
    assert me.field("main li.card .badge").text == "Done"
    # Done: no Start, only the link that takes the answers back.
    assert [a.text.split("\n")[0] for a in me.driver.find_elements(By.CSS_SELECTOR, "main li.card a.button")] == ["Take back"]
    me.page()
