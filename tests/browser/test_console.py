"""The study team's console in a real browser: an investigator added with `studykit researcher add` sets a password
from the printed link, signs in, finds the participant who just consented and answered, opens the signed consent's
PDF (read back with pdftotext), and downloads the csv-long export, which holds the participant's last answer. Every
console page is checked with axe-core and weighed like the participant's pages."""
import base64
import csv
import io
import subprocess
import urllib.request
import zipfile

from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException, WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from conftest import STUDYKIT
from studypages import Participant

# A wait that reads the page may meet the page being replaced by the one a click loads.
# What reading a page that is being replaced may raise: its elements gone, or (seen once on CI) a node Chromium's
# inspector no longer has in the document ("Node with given id does not belong to the document").
NAVIGATING = (StaleElementReferenceException, NoSuchElementException, WebDriverException)


def add_researcher(server, email, role):
    out = subprocess.run([str(STUDYKIT), "researcher", "add", email, "--role", role, "--data", str(server.data), "--base-url", server.base],
                         check=True, capture_output=True, text=True).stdout
    return next(line.strip() for line in out.splitlines() if line.startswith("http"))


def set_password_and_sign_in(person, link, email, password):
    """Opens a researcher's one-time link, sets `password`, and signs in with it; ends on the console's home."""
    driver = person.driver
    person.open(link)
    person.type_into("#password", password)
    person.type_into("#confirmation", password)
    driver.find_element(By.CSS_SELECTOR, "main button[type=submit]").click()
    WebDriverWait(driver, 10, ignored_exceptions=NAVIGATING).until(lambda _: person.path().startswith("/console/sign-in"))
    person.type_into("#email", email)
    person.type_into("#password", password)
    driver.find_element(By.CSS_SELECTOR, "main button[type=submit]").click()
    WebDriverWait(driver, 10, ignored_exceptions=NAVIGATING).until(lambda _: person.path() == "/console")


def console_fetch(driver, server, path):
    """GETs a console path outside the browser with its console cookie; returns (status, headers, body)."""
    cookie = next(c for c in driver.get_cookies() if c["name"] == "studykit_console")
    request = urllib.request.Request(server.base + path, headers={"Cookie": f"studykit_console={cookie['value']}"})
    with urllib.request.urlopen(request, timeout=60) as response:
        return response.status, response.headers, response.read()


def check_at_desk_width(person):
    """The console page on screen at a desk's 1280 × 800, then back at the phone's size: axe and the weight as on
    every page, the page no wider than the window, and no table that scrolls sideways."""
    driver = person.driver
    size = driver.get_window_size()
    driver.set_window_size(1280, 800)
    try:
        WebDriverWait(driver, 10).until(lambda d: d.execute_script("return window.innerWidth") >= 1200)
        assert driver.execute_script("return getComputedStyle(document.querySelector('main')).maxWidth") == "1280px"
        wide = driver.execute_script("return [...document.querySelectorAll('.scroll')]"
                                     ".filter(e => e.scrollWidth > e.clientWidth + 1).map(e => e.getAttribute('aria-label'))")
        assert wide == [], f"{person.path()}: at 1280 px these tables scroll sideways: {wide}"
        person.browser.check_page()
    finally:
        driver.set_window_size(size["width"], size["height"])


def test_an_investigator_finds_who_just_consented_opens_their_pdf_and_exports_their_last_answer(server, browser, new_browser, tmp_path):
    # The participant, on their phone: onboarding with a typed name, then today's pain check with pain 7.
    me = Participant(server, browser).join()
    me.complete_recover_onboarding(given="Katherine", family="Johnson", check_pages=False)
    me.take_pain_check(7)
    assert "Thank you. It is saved." in me.main_text()

    # The investigator, on another device: the one-time link, a password, signing in.
    link = add_researcher(server, "Investigator@Example.org", "investigator")
    team = new_browser()
    them = Participant(server, team)
    them.open("/console")
    assert them.path() == "/console/sign-in"
    them.open(link)
    assert them.page() == 200 and "For investigator@example.org." in them.main_text()
    them.type_into("#password", "a quiet harbour at dawn")
    them.type_into("#confirmation", "a quiet harbour at dusk")
    team.driver.find_element(By.CSS_SELECTOR, "main button[type=submit]").click()
    WebDriverWait(team.driver, 10, ignored_exceptions=NAVIGATING).until(lambda _: "The two passwords are not the same." in them.main_text())
    assert them.page() == 422
    them.type_into("#password", "a quiet harbour at dawn")
    them.type_into("#confirmation", "a quiet harbour at dawn")
    team.driver.find_element(By.CSS_SELECTOR, "main button[type=submit]").click()
    WebDriverWait(team.driver, 10, ignored_exceptions=NAVIGATING).until(lambda _: them.path() == "/console/sign-in?notice=password-set")
    assert them.page() == 200
    them.type_into("#email", "investigator@example.org")
    them.type_into("#password", "a quiet harbour at dawn")
    team.driver.find_element(By.CSS_SELECTOR, "main button[type=submit]").click()
    WebDriverWait(team.driver, 10, ignored_exceptions=NAVIGATING).until(lambda _: them.path() == "/console")
    assert them.page() == 200
    main = them.main_text()
    assert "Enrolled\n1" in main and "Consented\n1" in main
    nav = [a.text for a in team.driver.find_elements(By.CSS_SELECTOR, "header nav a")]
    assert nav == ["Enrolment", "Invitations", "Account"], nav  # an investigator does not manage researchers
    check_at_desk_width(them)

    # The participant who just consented, and their page.
    row = team.driver.find_element(By.CSS_SELECTOR, "main tbody tr")
    assert "consented" in row.text
    row.find_element(By.CSS_SELECTOR, "a").click()
    WebDriverWait(team.driver, 10, ignored_exceptions=NAVIGATING).until(lambda _: them.path().startswith("/console/participants/"))
    assert them.h1().startswith("Participant ")
    assert them.page() == 200
    main = them.main_text()
    assert "✓ Verified: sealed with the study's key and unchanged since." in main
    assert "Signed by Katherine Johnson (consent to participate)" in main
    assert "Daily pain check" in main and "painLevel" in main
    check_at_desk_width(them)

    # The PDF, once Chromium has printed it in the background.
    def pdf_link(driver):
        links = driver.find_elements(By.CSS_SELECTOR, "main a[href$='/pdf']")
        if not links:
            driver.refresh()
        return links[0] if links else None

    href = WebDriverWait(team.driver, 90, poll_frequency=0.5).until(pdf_link).get_attribute("pathname")
    status, headers, pdf = console_fetch(team.driver, server, href)
    assert status == 200 and headers["Content-Type"] == "application/pdf" and pdf.startswith(b"%PDF")
    text = subprocess.run(["pdftotext", "-", "-"], input=pdf, capture_output=True, check=True).stdout.decode()
    assert "Katherine" in text and "Johnson" in text, text[-800:]

    # The countersignature Recover's consent asks for, typed by the investigator: sealed as a record of its own,
    # whose PDF holds both names.
    them.type_into("main form.countersign input[name=givenName]", "Dorothy")
    them.type_into("main form.countersign input[name=familyName]", "Vaughan")
    team.driver.find_element(By.CSS_SELECTOR, "main form.countersign input[name=confirm]").click()
    team.driver.find_element(By.CSS_SELECTOR, "main form.countersign button[type=submit]").click()
    WebDriverWait(team.driver, 10, ignored_exceptions=NAVIGATING).until(lambda _: "countersigned" in them.main_text())
    assert them.page() == 200
    assert "Countersignature" in them.main_text() and not team.driver.find_elements(By.CSS_SELECTOR, "main form.countersign")

    def second_pdf_link(driver):
        links = driver.find_elements(By.CSS_SELECTOR, "main a[href$='/pdf']")
        if len(links) < 2:
            driver.refresh()
        return links[-1] if len(links) == 2 else None

    href = WebDriverWait(team.driver, 90, poll_frequency=0.5).until(second_pdf_link).get_attribute("pathname")
    status, headers, pdf = console_fetch(team.driver, server, href)
    text = subprocess.run(["pdftotext", "-", "-"], input=pdf, capture_output=True, check=True).stdout.decode()
    assert "Katherine" in text and "Dorothy" in text and "Vaughan" in text, text[-800:]

    # The csv-long export from the enrolment page: the participant's last answer is in it.
    them.open("/console")
    export = team.driver.find_element(By.CSS_SELECTOR, "main a[href='/console/exports/csv-long']")
    assert export.get_attribute("download") is not None
    status, headers, body = console_fetch(team.driver, server, "/console/exports/csv-long")
    assert status == 200 and headers["Content-Type"] == "application/zip" and "attachment" in headers["Content-Disposition"]
    with zipfile.ZipFile(io.BytesIO(body)) as archive:
        rows = list(csv.DictReader(io.StringIO(archive.read("answers.csv").decode("utf-8"))))
    pain = [r for r in rows if r["task"] == "pain" and r["item"] == "painLevel"]
    assert len(pain) == 1 and pain[0]["number"] == "7", pain

    # Two invitation links for a new site, shown once; one revoked.
    them.open("/console/invitations")
    assert them.page() == 200
    them.type_into("#count", "2")
    them.type_into("#label", "Site B")
    team.driver.find_element(By.CSS_SELECTOR, "main form[action='/console/invitations'] button[type=submit]").click()
    WebDriverWait(team.driver, 10, ignored_exceptions=NAVIGATING).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "main ol.links code")) == 2)
    assert them.page() == 200
    links = [c.text for c in team.driver.find_elements(By.CSS_SELECTOR, "main ol.links code")]
    assert all(link.startswith(server.base + "/join/") for link in links), links
    # Each link's QR code, as the screen shows it, reads back as that link (zbar's decoder, from Debian's zbar-tools).
    codes = team.driver.find_elements(By.CSS_SELECTOR, "main ol.links svg")
    assert len(codes) == 2
    for number, (code, link) in enumerate(zip(codes, links)):
        image = tmp_path / f"invitation-{number}.png"
        image.write_bytes(code.screenshot_as_png)
        decoded = subprocess.run(["zbarimg", "--raw", "--quiet", str(image)], capture_output=True)
        assert decoded.returncode == 0 and decoded.stdout.decode().strip() == link, decoded
    # Printed, the page is the new links alone: not the form, nor the list of every invitation.
    printed = subprocess.run(["pdftotext", "-", "-"], input=base64.b64decode(team.driver.print_page()), capture_output=True,
                             check=True).stdout.decode()
    assert all(link in printed.replace("\n", "") for link in links) and "Make invitation links" not in printed, printed
    assert "Every invitation" not in printed
    team.driver.find_element(By.CSS_SELECTOR, "main td form button").click()
    WebDriverWait(team.driver, 10, ignored_exceptions=NAVIGATING).until(lambda _: "revoked" in them.main_text())
    assert "Site B" in them.main_text()

    # The account page, and signing out ends the console session while the participant's stays.
    them.open("/console/account")
    assert them.page() == 200 and "investigator@example.org" in them.main_text()
    team.driver.find_element(By.CSS_SELECTOR, "main form[action='/console/sign-out'] button").click()
    WebDriverWait(team.driver, 10, ignored_exceptions=NAVIGATING).until(lambda _: them.path() == "/console/sign-in")
    them.open("/console")
    assert them.path() == "/console/sign-in"
    me.open("/")
    assert me.path() == "/"


def test_an_admin_adds_a_researcher_who_sets_a_password_and_signs_in(server, browser, new_browser):
    link = add_researcher(server, "admin@example.org", "admin")
    admin = Participant(server, browser)
    set_password_and_sign_in(admin, link, "admin@example.org", "lighthouse keeper's log")
    admin.open("/console/researchers")
    assert admin.page() == 200
    admin.type_into("#email", "viewer@example.org")
    browser.driver.find_element(By.CSS_SELECTOR, "main form[action='/console/researchers'] button[type=submit]").click()
    WebDriverWait(browser.driver, 10, ignored_exceptions=NAVIGATING).until(lambda d: d.find_elements(By.CSS_SELECTOR, "main section.card code"))
    assert admin.page() == 200
    new_link = browser.driver.find_element(By.CSS_SELECTOR, "main section.card code").text

    viewer = Participant(server, new_browser())
    set_password_and_sign_in(viewer, new_link, "viewer@example.org", "seven tired owls")
    nav = [a.text for a in viewer.driver.find_elements(By.CSS_SELECTOR, "header nav a")]
    assert nav == ["Enrolment", "Account"], nav
    viewer.open("/console/researchers")
    assert viewer.page() == 403 and "Your role (viewer) does not allow this" in viewer.main_text()
