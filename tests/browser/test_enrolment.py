"""Enrolment from an invitation link, and the onboarding gate that follows it."""
from selenium.webdriver.common.by import By

from studypages import Participant, click_to_navigate


def test_invitation_link_enrols_and_shows_only_the_onboarding_card(server, browser):
    link = server.invite()[0]
    driver = browser.driver
    driver.get(link)
    assert "Recover" in driver.title
    browser.check_page()
    click_to_navigate(driver, driver.find_element(By.CSS_SELECTOR, "form button[type=submit]"))
    assert driver.current_url.rstrip("/") == server.base
    cards = driver.find_elements(By.CSS_SELECTOR, "main .card")
    assert len(cards) == 1, [c.text for c in cards]
    assert "Complete onboarding" in driver.find_element(By.TAG_NAME, "main").text
    browser.check_page()


def test_a_used_invitation_link_is_refused(server, browser):
    link = server.invite()[0]
    me = Participant(server, browser).join(link)  # waits for the join's redirect home, so the link is used
    browser.driver.delete_all_cookies()
    me.open(link)
    assert "not valid any more" in me.main_text()
    assert me.page() == 404
