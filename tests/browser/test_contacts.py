"""Recover's contacts in a real browser: the list from the header, each contact's page, and links that call, message,
email and open the address on a map."""
import urllib.error

import pytest
from selenium.webdriver.common.by import By

from studypages import Participant, click_to_navigate


MAP = "https://www.openstreetmap.org/search?query=1%20Clinic%20Road,%2001234%20Springfield,%20US"


def links(me):
    """(button text, URL) of every contact link on the page, in order."""
    return [(a.text.split("\n")[0], a.get_attribute("href")) for a in me.driver.find_elements(By.CSS_SELECTOR, "main ul.reach a")]


def test_contacts_list_and_detail_with_call_message_email_and_map_links(server, browser):
    me = Participant(server, browser).join()
    click_to_navigate(me.driver, me.driver.find_element(By.LINK_TEXT, "Contacts"))
    assert me.path() == "/contacts" and me.h1() == "Contacts"
    assert me.driver.find_element(By.CSS_SELECTOR, "nav a[aria-current=page]").text == "Contacts"
    names = [h.text for h in me.driver.find_elements(By.CSS_SELECTOR, "main h2")]
    assert names == ["Jamie Lee", "Erik Hornberger"]
    assert "Physiotherapist" in me.main_text() and "Leads your knee rehabilitation" in me.main_text()
    assert links(me) == [("Call", "tel:+15550100"), ("Message", "sms:+15550101"), ("Email", "mailto:recover@example.org"),
                         ("Map", MAP), ("Email", "mailto:recover-team@example.org")]
    me.page()

    click_to_navigate(me.driver, me.driver.find_element(By.LINK_TEXT, "Jamie Lee"))
    assert me.path() == "/contacts/physio" and me.h1() == "Jamie Lee"
    assert [href for _, href in links(me)] == ["tel:+15550100", "sms:+15550101", "mailto:recover@example.org", MAP]
    assert "University Clinic, Recover study" in me.main_text()
    assert me.driver.find_element(By.TAG_NAME, "address").text.splitlines() == ["1 Clinic Road", "01234 Springfield", "US"]
    me.page()
    status, _, _ = me.fetch("/contacts/physio")
    assert status == 200
    with pytest.raises(urllib.error.HTTPError) as refused:
        me.fetch("/contacts/nobody")
    assert refused.value.code == 404
