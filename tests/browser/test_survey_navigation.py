"""Moving about a survey in a real browser: Back keeps answers, Skip clears them, a survey closed mid-way resumes
on the same step in a new browser session, and a participant can take steps with the keyboard alone."""
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from studypages import Participant


def started(server, browser):
    """A participant who has joined, onboarded and opened the every-format survey."""
    me = Participant(server, browser).join()
    me.onboard_every_format()
    me.start_survey()
    return me


def test_back_keeps_answers_and_skip_clears_them(every_format_server, browser):
    me = started(every_format_server, browser)
    # Back keeps a choice and a typed number.
    me.advance_to("sleptWell")
    me.choose("Woke up in pain")
    me.next()
    me.choose("With a stick")
    me.press("back")
    assert me.step() == "sleptWell" and me.checked() == ["no"]
    assert me.page() == 200
    me.next()
    assert me.step() == "mobility" and me.checked() == ["2"], "Back with an answer on the page keeps it too"
    me.advance_to("steps")
    me.type_into("#q0", "4200")
    me.next()
    me.press("back")
    assert me.step() == "steps" and me.value("#q0") == "4200"
    me.page()

    # Skip on an optional step that has an answer clears it: going back shows it empty.
    me.advance_to("nickname")
    me.type_into("#q0", "Ada")
    me.next()
    me.press("back")
    assert me.step() == "nickname" and me.value("#q0") == "Ada"
    me.press("skip")
    assert me.step() == "notes"
    me.press("back")
    assert me.step() == "nickname" and me.value("#q0") == ""
    # The same for a choice.
    me.advance_to("ladder")
    me.choose("7")
    me.next()
    me.press("back")
    assert me.checked() == ["7"]
    me.press("skip")
    me.press("back")
    assert me.step() == "ladder" and me.checked() == []
    me.page()


def test_a_survey_closed_mid_way_resumes_on_the_same_step_in_a_new_browser(every_format_server, new_browser):
    first = new_browser()
    me = started(every_format_server, first)
    me.advance_to("sleptWell")
    me.choose("Woke up in pain")
    me.next()
    me.choose("With a stick")
    me.next()
    assert me.step() == "symptoms"
    cookie = me.session_cookie()
    first.close()  # the participant closes the browser mid-survey

    # A new browser session with the same cookie (the phone's browser opened again the next time).
    again = Participant(every_format_server, new_browser())
    again.open("/health")  # a page of the server's origin, so that its cookie can be set
    again.driver.add_cookie({k: cookie[k] for k in ("name", "value", "path", "httpOnly", "sameSite") if k in cookie})
    again.open("/")
    card = again.field("main li.card")
    assert card.find_element(By.CSS_SELECTOR, "a.button").text.startswith("Continue")
    again.page()
    again.start_survey()
    assert again.step() == "symptoms", "resumes on the step it was closed on"
    again.page()
    again.press("back")
    assert again.step() == "mobility" and again.checked() == ["2"]
    again.press("back")
    assert again.step() == "sleptWell" and again.checked() == ["no"]


def test_steps_can_be_taken_with_the_keyboard_alone(every_format_server, browser):
    me = started(every_format_server, browser)
    # An instruction: Tab to Next, Enter.
    assert me.step() == "intro"
    me.tab_to("button.primary")
    me.key_to_navigate(Keys.ENTER)
    # Web content with a signature, and a signature step: the typed name is the keyboard's way to sign.
    for step in ("consentPage", "signature"):
        assert me.step() == step
        me.tab_to("#sig-name").send_keys("Ada Lovelace")
        me.key_to_navigate(Keys.ENTER)  # Enter in a text field submits with the form's first button: Next
    # Permissions: each is a radio group; Space picks the focused choice.
    assert me.step() == "permissions"
    for _ in range(3):
        me.tab_to("input[type=radio]:not(:checked)")
        me.key(Keys.SPACE)
    assert len(me.checked()) == 3
    me.tab_to("button.primary")
    me.key_to_navigate(Keys.ENTER)
    for step in ("kneeBendVideo", "exerciseList"):
        assert me.step() == step
        me.tab_to("button.primary")
        me.key_to_navigate(Keys.SPACE)  # Space presses a focused button too
    # A yes/no question: Tab into the choices, Space, Tab to Next, Enter.
    assert me.step() == "sleptWell"
    me.tab_to("input[type=radio]")
    me.key(Keys.SPACE)
    assert me.checked() == ["yes"]
    me.tab_to("button.primary")
    me.key_to_navigate(Keys.ENTER)
    assert me.step() == "mobility" and me.status() == 200
    me.press("back")
    assert me.checked() == ["yes"], "the keyboard's answer was saved"
