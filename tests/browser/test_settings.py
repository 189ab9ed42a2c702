"""Settings in a real browser: switching to Japanese, signing in on a second device with a one-time code, and leaving
the study."""
import json

from selenium.webdriver.common.by import By

from conftest import ROOT

from studypages import Participant, click_to_navigate


def test_switching_to_japanese_turns_every_page_japanese(server, browser):
    me = Participant(server, browser).join()
    me.open("/settings")
    assert me.page() == 200
    me.choose("日本語")
    click_to_navigate(me.driver, me.field("section[aria-labelledby=language-title] button[type=submit]"))
    # Built-in strings from WebStrings+BuiltIn.swift, in the study's Japanese.
    assert me.path() == "/settings"
    assert me.driver.find_element(By.TAG_NAME, "html").get_attribute("lang") == "ja"
    assert me.h1() == "設定"
    assert [a.text for a in me.driver.find_elements(By.CSS_SELECTOR, "nav a")] == ["ホーム", "グラフ", "連絡先", "設定"]
    assert me.checked() == ["ja"]
    me.page()
    me.open("/")
    assert me.h1() == "今日"
    assert "開始" in me.field("main li.card a.button").text
    me.page()
    # The onboarding in Japanese: the step buttons, and the consent document from recover-consent.ja.json.
    me.open("/onboarding")
    assert me.button("next").text == "次へ"
    me.open("/")
    me.complete_recover_onboarding(given="花子", family="山田", welcome="Recover へようこそ")
    assert me.consent_heading == json.loads((ROOT / "examples/consent/recover-consent.ja.json").read_text())["title"]
    assert "ありがとうございます。同意書への署名が完了しました。タスクは下にあります。" in me.main_text()
    me.page()


def test_a_sign_in_code_signs_in_a_second_device(server, new_browser):
    phone = Participant(server, new_browser()).join()
    phone.open("/settings")
    click_to_navigate(phone.driver, phone.field("form[action='/settings/signin-code'] button"))
    code = phone.field("main .card .code").text
    assert len(code) >= 6, code
    assert phone.page() == 200

    laptop = Participant(server, new_browser())
    laptop.open("/signin")
    assert laptop.page() == 200
    laptop.type_into("#code", code)
    laptop.press_primary()
    assert laptop.path() == "/", laptop.driver.current_url
    assert [a.text for a in laptop.driver.find_elements(By.CSS_SELECTOR, "nav a")] == ["Home", "Insights", "Contacts", "Settings"]
    assert "Complete onboarding to see your tasks." in laptop.main_text()
    assert laptop.session_cookie()["httpOnly"]
    laptop.open("/settings")
    assert phone.main_text().split("\n")[1:3] == laptop.main_text().split("\n")[1:3], "the same participant"

    # The code works once.
    laptop.driver.delete_all_cookies()
    laptop.open("/signin")
    laptop.type_into("#code", code)
    laptop.press_primary()
    assert laptop.status() == 422
    assert "This code is not valid" in laptop.field("#code-err").text
    laptop.page()


def test_leaving_the_study_from_settings_stops_the_tasks_and_keeps_the_participants_copy(server, browser):
    me = Participant(server, browser).join()
    me.complete_recover_onboarding(check_pages=False)
    me.open("/settings")
    click_to_navigate(me.driver, me.field("section[aria-labelledby=leave-title] a.button"))
    assert me.path() == "/settings/leave" and me.h1() == "Leave the study?"
    assert me.page() == 200
    me.type_into("#reason", "Moving abroad")
    click_to_navigate(me.driver, me.field("main form button[type=submit]"))
    assert me.path() == "/" and me.h1() == "You have left the study"
    assert me.page() == 200
    me.open("/settings")
    assert not me.driver.find_elements(By.CSS_SELECTOR, "section[aria-labelledby=leave-title]")
    assert me.driver.find_elements(By.CSS_SELECTOR, "main a[href='/settings/my-data.zip']")
    me.open("/tasks/pain/0")
    assert me.page() == 403 and "You have left this study" in me.main_text()
