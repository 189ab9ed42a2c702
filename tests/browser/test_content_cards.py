"""Recover's cards that are not tasks, in a real browser: the tip, a featured article opened on its own page, links
to call, email and visit; the study's logo in the header; and the study's images served as images only."""
import urllib.error
import urllib.request

import pytest
from selenium.webdriver.common.by import By

from studypages import Participant, click_to_navigate


def test_tip_featured_article_links_and_logo(server, browser):
    me = Participant(server, browser).join()
    # Behind the gate: no content cards, but the logo.
    assert not me.driver.find_elements(By.CSS_SELECTOR, "section.content")
    logo = me.driver.find_element(By.CSS_SELECTOR, "header .brand img")
    assert me.driver.execute_script("return arguments[0].complete && arguments[0].naturalWidth > 0", logo)
    me.complete_recover_onboarding(check_pages=False)
    titles = [s.find_element(By.TAG_NAME, "h2").text for s in me.driver.find_elements(By.CSS_SELECTOR, "section.content")]
    assert titles == ["Benefits of exercising", "Your first weeks after surgery", "Get help"]
    assert "three short sessions do more than one long one" in me.main_text()
    help_links = {a.text.split("\n")[0]: a.get_attribute("href") for a in me.driver.find_elements(By.CSS_SELECTOR, "section.content:last-child a")}
    assert help_links == {"Call the clinic": "tel:+15550100", "Email the study team": "mailto:recover-team@example.org",
                          "About the study": "https://example.org/recover"}
    me.page()
    featured = me.driver.find_element(By.CSS_SELECTOR, "section.content.featured")
    assert me.driver.execute_script("return arguments[0].naturalWidth > 0", featured.find_element(By.TAG_NAME, "img"))
    click_to_navigate(me.driver, featured.find_element(By.PARTIAL_LINK_TEXT, "Read"))
    assert me.path() == "/articles/firstWeeks" and me.h1() == "Your first weeks after surgery"
    # The article's headings sit under the page's own h1.
    assert [h.text for h in me.driver.find_elements(By.CSS_SELECTOR, "main .web h2")] == ["Your first weeks after knee surgery"]
    assert [h.text for h in me.driver.find_elements(By.CSS_SELECTOR, "main .web h3")] == ["Every day", "When to call the clinic"]
    assert len(me.driver.find_elements(By.CSS_SELECTOR, "main .web li strong")) == 3
    me.page()
    # Another day's page has no content cards.
    click_to_navigate(me.driver, me.driver.find_element(By.LINK_TEXT, "Back to today"))
    click_to_navigate(me.driver, me.driver.find_element(By.CSS_SELECTOR, "nav.week a[rel=next]"))
    assert not me.driver.find_elements(By.CSS_SELECTOR, "section.content")


def test_study_images_are_served_as_images_only(server):
    with urllib.request.urlopen(server.base + "/images/images%2Flogo.svg") as response:
        assert response.headers["Content-Type"] == "image/svg+xml"
        assert "sandbox" in response.headers["Content-Security-Policy"]
        assert response.read().startswith(b"<svg")
    for path in ("/images/study.yaml", "/images/..%2Fstudy.yaml", "/images/images%2F..%2Fstudy.yaml", "/images/images/logo.svg"):
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(server.base + path)
        assert refused.value.code == 404, path
