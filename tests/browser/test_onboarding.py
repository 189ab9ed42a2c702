"""Recover's onboarding in a real browser: the instructions, the name, a signature drawn with pointer events, the
permissions and the completion; then the signed consent's PDF from settings, read back with pdftotext, and the
participant's own copy of their data beside it."""
import io
import json
import subprocess
import zipfile

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from studypages import Participant


def test_onboarding_with_a_drawn_signature_opens_the_home_page(server, browser):
    me = Participant(server, browser).join()
    assert me.page() == 200
    me.complete_recover_onboarding()
    # The gate is gone: no onboarding card, the thank-you notice, and the day's list: Recover's daily pain check
    # starts on the day of enrolment (the exercises from the next day).
    main = me.main_text()
    assert "Thank you. Your consent is signed, and your tasks are below." in main
    assert "Complete onboarding to see your tasks." not in main
    assert not browser.driver.find_elements(By.CSS_SELECTOR, "main a[href='/onboarding']")
    assert "Daily pain check" in main
    me.page()

    # Then the day's survey, as a participant takes it on the phone: pain 4, the front of the knee, no notes.
    me.take_pain_check(4)
    main = me.main_text()
    assert "Thank you. It is saved." in main
    card = [c for c in browser.driver.find_elements(By.CSS_SELECTOR, "main li.card") if "Daily pain check" in c.text][0]
    assert "Done" in card.text
    me.page()
    # Settings while the signed consent is being printed (or just printed).
    me.open("/settings")
    assert "Your signed consent" in me.main_text()
    me.page()


def test_the_signed_consent_pdf_downloads_from_settings_with_the_typed_name(server, browser):
    me = Participant(server, browser).join()
    me.complete_recover_onboarding(given="Grace", family="Hopper", check_pages=False)
    me.open("/settings")

    # Chromium prints the PDF in the background: reload settings until the download link appears.
    def download_link(driver):
        links = driver.find_elements(By.CSS_SELECTOR, "main a[href='/consent.pdf']")
        if not links:
            driver.refresh()
        return links[0] if links else None

    link = WebDriverWait(browser.driver, 90, poll_frequency=0.5).until(download_link)
    assert link.get_attribute("download") is not None
    me.page()
    status, headers, pdf = me.fetch(link.get_attribute("pathname"))
    assert status == 200 and headers["Content-Type"] == "application/pdf" and pdf.startswith(b"%PDF")
    assert "attachment" in headers["Content-Disposition"]
    text = subprocess.run(["pdftotext", "-", "-"], input=pdf, capture_output=True, check=True).stdout.decode()
    assert "Grace" in text and "Hopper" in text, text[-800:]

    # The participant's own copy of their data, from the same page: the consent PDF just downloaded, its sealed record,
    # and the onboarding's answers.
    mine = browser.driver.find_element(By.CSS_SELECTOR, "main a[href='/settings/my-data.zip']")
    assert mine.text == "Download my data (ZIP)" and mine.get_attribute("download") is not None
    status, headers, body = me.fetch(mine.get_attribute("pathname"))
    assert status == 200 and headers["Content-Type"] == "application/zip" and "attachment" in headers["Content-Disposition"]
    with zipfile.ZipFile(io.BytesIO(body)) as archive:
        names = archive.namelist()
        pdfs = [name for name in names if name.startswith("consents/") and name.endswith(".pdf")]
        assert len(pdfs) == 1 and archive.read(pdfs[0]) == pdf, names
        assert pdfs[0].removesuffix(".pdf") + ".json" in names
        runs = json.loads(archive.read("runs.json"))
        assert [run["task"] for run in runs] == ["onboarding"] and '"Grace"' in archive.read("runs.json").decode()
