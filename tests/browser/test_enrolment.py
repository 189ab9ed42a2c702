"""Enrolment from an invitation link, and the onboarding gate that follows it."""
from selenium.webdriver.common.by import By


def test_invitation_link_enrols_and_shows_only_the_onboarding_card(server, browser):
    link = server.invite()[0]
    driver = browser.driver
    driver.get(link)
    assert "Recover" in driver.title
    browser.check_accessibility()
    driver.find_element(By.CSS_SELECTOR, "form button[type=submit]").click()
    assert driver.current_url.rstrip("/") == server.base
    cards = driver.find_elements(By.CSS_SELECTOR, "main .card")
    assert len(cards) == 1, [c.text for c in cards]
    assert "Complete onboarding" in driver.find_element(By.TAG_NAME, "main").text
    browser.check_accessibility()


def test_a_used_invitation_link_is_refused(server, browser):
    link = server.invite()[0]
    driver = browser.driver
    driver.get(link)
    driver.find_element(By.CSS_SELECTOR, "form button[type=submit]").click()
    driver.delete_all_cookies()
    driver.get(link)
    assert "not valid any more" in driver.find_element(By.TAG_NAME, "main").text
