"""Reminders by email, end to end with a real SMTP server (aiosmtpd, tests/support/smtp_server.py): a participant adds
an address and confirms it from the link in the mail that server received, turns reminders on, and gets exactly one
reminder at 09:00 on their wall clock — in Berlin on the day clocks spring forward, and in Sydney on the day they fall
back — in their language, whose link opens the task; once the task is done the evening reminder is not sent; a
restarted server does not send the morning one again; and the one-click unsubscribe (RFC 8058) stops the mail.
A participant may give the address in Recover's onboarding instead: one confirmation arrives, its link confirms the
address, and the run's stored result and the exports say only that an address was given; hostile addresses are
refused on the step with nothing sent.

The server's clock is set with `--clock-start` and the server restarted on the same database to move it; each check
waits for the sender's own report of its first round in the server's log, never for a fixed time."""
import csv
import email
import email.policy
import datetime
import json
import re
import sqlite3
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from selenium.common.exceptions import TimeoutException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from conftest import ROOT, STUDYKIT, free_port, start_server
from studypages import Participant, click_to_navigate
from test_console import add_researcher, set_password_and_sign_in

RECOVER = ROOT / "examples" / "studies" / "recover"
PYTHON = ROOT / ".venv" / "bin" / "python"
DEADLINE = 60  # seconds: how long a wait on the server's or the mail server's state may take before the test fails


def wait_until(condition, what, timeout=DEADLINE):
    """Waits until `condition()` gives something true (the mail server's files, the database, the server's log, a
    page's state), polled by WebDriverWait, and returns it; fails after `timeout` seconds naming `what` (a text, or a
    function that gives one)."""
    try:
        return WebDriverWait(None, timeout, poll_frequency=0.02).until(lambda _: condition())
    except TimeoutException:
        raise AssertionError(f"waited {timeout} s for " + (what() if callable(what) else what)) from None


def rounds(log):
    """The sender's reports of its rounds in a server's log, in order."""
    return [line for line in log.read_text(errors="replace").splitlines() if line.startswith("reminders at ")] if log.exists() else []


def next_round(log, before):
    """The report of the first round after the `before` reports already in the log, once the sender writes it."""
    wait_until(lambda: len(rounds(log)) > before, lambda: "the reminder sender reported no round")
    return rounds(log)[before]


class MailServer:
    """tests/support/smtp_server.py on a free port, keeping what it receives in `maildir`."""

    def __init__(self, folder):
        self.maildir = folder / "mail"
        self.maildir.mkdir()
        self.process = subprocess.Popen([str(PYTHON), str(ROOT / "tests" / "support" / "smtp_server.py"), "--port", "0",
                                         "--maildir", str(self.maildir), "--stop-on-stdin-eof"],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.port = int(self.process.stdout.readline())

    def count(self):
        return len(list(self.maildir.glob("*.eml")))

    def message(self, number):
        return email.message_from_bytes((self.maildir / f"{number}.eml").read_bytes(), policy=email.policy.default)

    def wait_for(self, count):
        wait_until(lambda: self.count() >= count, lambda: f"{count} messages expected, {self.count()} arrived")
        return self.message(count)

    def stop(self):
        self.process.stdin.close()
        self.process.wait(timeout=20)


@pytest.fixture
def mail_server(workdir):
    server = MailServer(workdir)
    yield server
    server.stop()


def text_of(message):
    """The plain-text part of a message, decoded."""
    part = message.get_body(preferencelist=("plain",))
    return part.get_content()


def export_rows(study, workdir, format):
    """The rows (header left out) of `studykit export --format FORMAT`'s CSV, read from the server's data folder."""
    out = workdir / f"export-{format}"
    subprocess.run([str(STUDYKIT), "export", "--format", format, "--out", str(out), "--study", str(RECOVER), "--data", str(study.data)],
                   check=True, capture_output=True)
    with open(out / f"{format}.csv", newline="", encoding="utf-8") as file:
        return list(csv.reader(file))[1:]


def recover_text(language, key):
    """A text of Recover in `language`, from its translation file (lines `"key": "value"`)."""
    for line in (RECOVER / "translations" / f"{language}.yaml").read_text(encoding="utf-8").splitlines():
        match = re.fullmatch(r'\s*"(.+?)": "(.*)"', line)
        if match and match.group(1) == key:
            return match.group(2)
    raise KeyError(key)


def link_in(text, path):
    match = re.search(r"(http://127\.0\.0\.1:\d+" + re.escape(path) + r"[^\s]*)", text)
    assert match, f"no link to {path} in:\n{text}"
    return match.group(1)


class ReminderServer:
    """One study server on one data folder and port, restarted with its clock set to a given instant, sending mail to
    `mail_server` (or, given `sending`, with those options instead: push, for instance)."""

    def __init__(self, workdir, mail_server=None, sending=None):
        self.data, self.port = workdir / "data", free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        if sending is None:
            sending = ["--smtp-host", "127.0.0.1", "--smtp-port", str(mail_server.port), "--smtp-security", "plain",
                       "--mail-from", "recover@example.org"]
        self.options = ["--public-url", self.base, *sending, "--reminder-interval", "600"]
        self.server = None

    def start(self, clock):
        """Starts (or restarts) the server with its clock at `clock` (None: the real time); returns the sender's report of
        its first round."""
        if self.server:
            self.server.stop()
        log = self.data.parent / f"server-{self.port}.log"
        before = len(rounds(log))
        self.server = start_server(RECOVER, self.data, port=self.port, clock_start=clock, extra=self.options)
        return next_round(log, before)

    def stop(self):
        if self.server:
            self.server.stop()


# (zone, the day clocks change there, the offset after the change, the language the participant reads, its name on
# the settings page, the morning reminder's title and text in that language (translations/LANG.yaml))
CASES = [
    ("Europe/Berlin", "2027-03-28", "+02:00", "es", "español", "Tu control diario del dolor",
     "Una pregunta sobre tu rodilla hoy; tarda unos segundos."),
    ("Australia/Sydney", "2027-04-04", "+10:00", "ja", "日本語", "毎日の痛みチェック", "今日のひざの具合について1問だけ。数秒で終わります。"),
]


@pytest.mark.parametrize("zone,day,offset,language,language_name,title,text", CASES, ids=["Berlin", "Sydney"])
def test_one_reminder_mail_at_nine_in_their_zone_and_language_and_none_once_the_task_is_done(
        workdir, new_browser, mail_server, zone, day, offset, language, language_name, title, text):
    study = ReminderServer(workdir, mail_server)
    try:
        assert "0 due" in study.start(f"{day}T08:30:00{offset}")
        me = Participant(study.server, new_browser()).join(time_zone=zone)
        me.complete_recover_onboarding(check_pages=False)
        me.open("/settings")
        me.choose(language_name)
        click_to_navigate(me.driver, me.field("section[aria-labelledby=language-title] button[type=submit]"))
        assert me.driver.find_element(By.TAG_NAME, "html").get_attribute("lang") == language

        # The address, and its confirmation from the link in the mail the SMTP server received.
        assert me.driver.find_elements(By.CSS_SELECTOR, "section[aria-labelledby=reminders-title] a"), me.main_text()
        click_to_navigate(me.driver, me.field("section[aria-labelledby=reminders-title] a"))
        assert me.path() == "/settings/reminders" and me.page() == 200
        me.type_into("#email-address", "ada@example.org")
        click_to_navigate(me.driver, me.field("form[action='/settings/reminders/email'] button"))
        assert "ada@example.org" in me.field("main .notice").text
        confirmation = mail_server.wait_for(1)
        assert confirmation["To"] == "ada@example.org" and confirmation["List-Unsubscribe"] is None
        me.open(link_in(text_of(confirmation), "/reminders/confirm/"))
        assert me.page() == 200 and "ada@example.org" in me.main_text()
        me.press_primary()
        me.open("/settings/reminders")
        assert "ada@example.org" in me.main_text()
        for reminder in ("painMorning", "painEvening", "evening"):
            me.field(f"input[name=on][value={reminder}]").click()
        # The daily page's reminder, as the participant reads it: its title is the mail's subject.
        page_reminder_title = me.field("label[for=" + me.field("input[name=on][value=evening]").get_attribute("id") + "]").text
        page_reminder_title = page_reminder_title.rsplit("(", 1)[0].strip()
        click_to_navigate(me.driver, me.field("form[action='/settings/reminders'] button.primary"))
        assert me.path() == "/settings/reminders?notice=saved"
        assert mail_server.count() == 1, "nothing is sent before 09:00"

        # 09:00 on the participant's wall clock: exactly one reminder, in their language.
        assert "1 due, 1 sent" in study.start(f"{day}T09:00:05{offset}")
        reminder = mail_server.wait_for(2)
        assert reminder["To"] == "ada@example.org" and reminder["Subject"] == title
        body = text_of(reminder)
        assert text in body
        assert reminder["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
        unsubscribe = re.fullmatch(r"<(.+)>", reminder["List-Unsubscribe"]).group(1)
        html = reminder.get_body(preferencelist=("html",)).get_content()
        assert f'lang="{language}"' in html and "/tasks/pain/" in html

        # The study team sees it: the channel (the address only for a role that may see it) and the delivery, and the
        # `reminders` export lists it with the mail server's answer and no address.
        # (On the real clock: `studykit researcher add` dates the password link by it.)
        study.start(None)
        link = add_researcher(study.server, "investigator@example.org", "investigator")
        team = Participant(study.server, new_browser())
        set_password_and_sign_in(team, link, "investigator@example.org", "a quiet harbour at dawn")
        participant_id = next(row[0] for row in export_rows(study, workdir, "reminders"))
        team.open(f"/console/participants/{participant_id}")
        section = team.field("section[aria-labelledby=reminders-title]").text
        assert "ada@example.org" in section and "confirmed" in section and "painMorning" in section and "sent" in section
        # Each channel change and each send is in the audit trail, whose chain verifies.
        audit = team.field("section[aria-labelledby=audit-title]").text
        assert "reminderDelivery" in audit and "reminderChannel" in audit and "reminder sender" in audit
        verified = subprocess.run([str(STUDYKIT), "audit", "verify", "--data", str(study.data)], capture_output=True, text=True)
        assert verified.returncode == 0, verified.stdout + verified.stderr
        viewer_link = add_researcher(study.server, "viewer@example.org", "viewer")
        viewer = Participant(study.server, new_browser())
        set_password_and_sign_in(viewer, viewer_link, "viewer@example.org", "a quiet harbour at dusk")
        viewer.open(f"/console/participants/{participant_id}")
        section = viewer.field("section[aria-labelledby=reminders-title]").text
        assert "ada@example.org" not in section and "email" in section and "sent" in section
        rows = export_rows(study, workdir, "reminders")
        assert [(row[1], row[2], row[4], row[6], row[7]) for row in rows] == [("painMorning", "pain", "email", "sent", "1")]
        assert rows[0][5].startswith(f"{day}T09:00:00") and "ada@example.org" not in ",".join(rows[0])

        # A server restarted later that morning sends it no second time.
        assert "0 due" in study.start(f"{day}T09:10:00{offset}")
        assert mail_server.count() == 2

        # The link opens the task (after sign-in: this browser is signed in); the participant answers it.
        me.open(link_in(body, "/tasks/pain/"))
        assert me.path().startswith("/runs/") and me.step() == "painLevel"
        for _ in range(6):
            if not me.path().startswith("/runs/"):
                break
            # The first choice of each question (the pain level, where it hurts); the notes skipped.
            choices = me.driver.find_elements(By.CSS_SELECTOR, "main input[type=radio], main input[type=checkbox]")
            if not choices and me.driver.find_elements(By.CSS_SELECTOR, "form button[name=action][value=skip]"):
                me.press("skip")
                continue
            if choices and not any(choice.is_selected() for choice in choices):
                me.driver.find_element(By.CSS_SELECTOR, f"label[for='{choices[0].get_attribute('id')}']").click()
            me.press_primary()
        assert not me.path().startswith("/runs/"), f"the pain check did not finish: {me.main_text()}"
        # The evening: the pain check has an outcome, so nothing is due; nor is the daily page's reminder at 20:30, as
        # nothing else on the page that day counts (the mood check does not count towards adherence).
        assert "0 due" in study.start(f"{day}T19:00:05{offset}")
        assert "0 due" in study.start(f"{day}T20:30:05{offset}")
        assert mail_server.count() == 2

        # The next day at 20:30 the pain check, the dose and the icing are open: the pain check's two reminders (late)
        # and the daily page's, which names what is open and links to the page.
        next_day = (datetime.date.fromisoformat(day) + datetime.timedelta(days=1)).isoformat()
        assert "3 due, 3 sent" in study.start(f"{next_day}T20:30:05{offset}")
        mails = [mail_server.wait_for(count) for count in (3, 4, 5)]
        page = next(mail for mail in mails if mail["Subject"] == page_reminder_title)
        page_html = page.get_body(preferencelist=("html",)).get_content()
        assert f'href="{study.base}/"' in page_html and "/tasks/" not in page_html
        page_text = text_of(page)
        for task in ("pain", "medication", "icing"):
            assert recover_text(language, f"tasks[{task}].title") in page_text, (task, page_text)
        for task in ("exercises", "mood", "symptoms"):
            assert recover_text(language, f"tasks[{task}].title") not in page_text, (task, page_text)

        # RFC 8058's one-click unsubscribe: a POST without cookies stops mail to the address; a forged token does nothing.
        forged = unsubscribe[:-4] + ("AAAA" if not unsubscribe.endswith("AAAA") else "BBBB")
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(urllib.request.Request(forged, data=b"List-Unsubscribe=One-Click", method="POST"), timeout=20)
        assert refused.value.code == 404
        with urllib.request.urlopen(urllib.request.Request(unsubscribe, data=b"List-Unsubscribe=One-Click", method="POST"), timeout=20) as answer:
            assert answer.status == 200
        me.open("/settings/reminders")
        assert "ada@example.org" not in me.main_text()
        assert mail_server.count() == 5
        with pytest.raises(urllib.error.HTTPError) as gone:
            urllib.request.urlopen(urllib.request.Request(unsubscribe, data=b"List-Unsubscribe=One-Click", method="POST"), timeout=20)
        assert gone.value.code == 404
    finally:
        study.stop()


def test_hostile_and_unconfirmed_addresses_get_nothing(workdir, mail_server):
    """An address with a line break (a header injection), one of 2 KB, one with a bidirectional control, and one never
    confirmed: each refused with what was wrong, or (the unconfirmed one) sent nothing at 09:00 but its confirmation."""
    from http_participant import Participant as HTTPParticipant

    study = ReminderServer(workdir, mail_server)
    try:
        study.start("2027-03-23T08:30:00+01:00")
        me = HTTPParticipant(study.base)
        me.enrol(study.server.invite()[0], time_zone="Europe/Berlin")
        me.complete_onboarding()
        _, _, page = me.page("/settings/reminders")
        token = re.search(r'name="_csrf" value="([^"]+)"', page).group(1)
        for address, problem in [("ada@example.org\r\nBcc: everyone@example.org", "control character"),
                                 ("a" * 2000 + "@example.org", "characters long"),
                                 ("ada\u202e@example.org", "text-direction"),
                                 ("ada@@example.org", "more than one @")]:
            status, _, body = me.request("POST", "/settings/reminders/email", {"_csrf": token, "address": address})
            assert status == 422, (address[:40], status)
            assert problem in body.decode(), (problem, re.search(r'class="err"[^>]*>([^<]*)', body.decode()))
        assert mail_server.count() == 0
        # An address added but never confirmed gets its confirmation and nothing more.
        status, _, _ = me.request("POST", "/settings/reminders/email", {"_csrf": token, "address": "unconfirmed@example.org"})
        assert status == 200
        mail_server.wait_for(1)
        # The same address again at once (a double press) sends nothing more; adding and removing other addresses gets
        # at most five links an hour, then a refusal that says so (no one's address is mailed over and over).
        status, _, _ = me.request("POST", "/settings/reminders/email", {"_csrf": token, "address": "unconfirmed@example.org"})
        assert status == 200 and mail_server.count() == 1
        for index in range(4):
            status, _, _ = me.request("POST", "/settings/reminders/email", {"_csrf": token, "address": f"other{index}@example.org"})
            assert status == 200
            mail_server.wait_for(2 + index)
            _, _, page = me.page("/settings/reminders")
            remove = re.search(rf'other{index}@example\.org.*?action="(/settings/reminders/channels/[0-9a-f-]+/remove)"', page, re.S).group(1)
            status, _, _ = me.request("POST", remove, {"_csrf": token})
            assert status == 303
        status, _, body = me.request("POST", "/settings/reminders/email", {"_csrf": token, "address": "other9@example.org"})
        assert status == 422 and "in the last hour" in body.decode()
        assert mail_server.count() == 5
        status, _, _ = me.request("POST", "/settings/reminders", {"_csrf": token, "on": "painMorning", "quietFrom": "21:00", "quietTo": "08:00"})
        assert status == 303
        # A reminder the study does not have, or quiet hours that are not times, are refused.
        for fields in ({"on": "nosuch", "quietFrom": "21:00", "quietTo": "08:00"}, {"on": "painMorning", "quietFrom": "25:00", "quietTo": "08:00"}):
            status, _, _ = me.request("POST", "/settings/reminders", {"_csrf": token, **fields})
            assert status == 400
        assert "0 due" in study.start("2027-03-23T09:00:05+01:00")
        assert mail_server.count() == 5
    finally:
        study.stop()


def permission_results(folder, identifier):
    """Every permission result named `identifier` in the JSON files (whole documents or one per line) under `folder`."""
    found = []

    def walk(value):
        if isinstance(value, dict):
            if value.get("kind") == "permission" and value.get("identifier") == identifier:
                found.append(value)
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    for file in sorted(path for path in folder.rglob("*") if path.suffix in (".json", ".ndjson")):
        text = file.read_text()
        try:
            walk(json.loads(text))
        except json.JSONDecodeError:
            for line in text.splitlines():
                if line.strip():
                    walk(json.loads(line))
    return found


def test_the_onboarding_asks_for_the_address_and_keeps_it_out_of_the_results(workdir, new_browser, mail_server):
    """Recover's permissions step asks for the reminder email address: given there, it gets exactly one confirmation,
    whose link confirms it (the reminders page then says so); the onboarding's stored run and every export record only
    that an address was given, never the address."""
    study = ReminderServer(workdir, mail_server)
    try:
        study.start("2027-03-23T08:30:00+01:00")
        me = Participant(study.server, new_browser()).join(time_zone="Europe/Berlin")
        me.complete_recover_onboarding(email="ada@example.org")
        confirmation = mail_server.wait_for(1)
        assert confirmation["To"] == "ada@example.org" and confirmation["List-Unsubscribe"] is None
        me.open("/settings/reminders")
        assert "ada@example.org" in me.main_text() and "waiting for you to confirm" in me.main_text()
        me.open(link_in(text_of(confirmation), "/reminders/confirm/"))
        assert me.page() == 200 and "ada@example.org" in me.main_text()
        me.press_primary()
        me.open("/settings/reminders")
        assert re.search(r"ada@example\.org\s*—\s*confirmed", me.main_text()), me.main_text()
        assert mail_server.count() == 1, "one confirmation, and nothing else"

        # The run as stored: the permission's outcome, not the address.
        with sqlite3.connect(f"file:{study.data / 'study.sqlite'}?mode=ro", uri=True) as database:
            rows = database.execute("SELECT result, restorationData FROM taskRun WHERE taskID = 'onboarding'").fetchall()
        assert len(rows) == 1 and rows[0][0] is not None
        stored = b"".join(bytes(column or b"") for column in rows[0])
        assert b'"email"' in stored and b"ada@" not in stored
        # Every export of the study, as a researcher gets it.
        for format in ("json", "csv-long", "csv-wide", "fhir", "outcomes", "reminders", "consents"):
            out = workdir / f"export-{format}"
            subprocess.run([str(STUDYKIT), "export", "--format", format, "--out", str(out), "--study", str(RECOVER), "--data", str(study.data)],
                           check=True, capture_output=True)
            for file in out.rglob("*"):
                if file.is_file():
                    assert b"ada@" not in file.read_bytes(), f"{format}: {file.name} holds the address"
        assert [found.get("outcome") for found in permission_results(workdir / "export-json", "email")] == ["granted"], \
            "the JSON export says an address was given"
    finally:
        study.stop()


def test_hostile_addresses_on_the_onboarding_step_are_refused_with_nothing_sent(workdir, mail_server):
    """On Recover's permissions step, an address with a line break (a header injection) or of 2 KB is refused with what
    was wrong, the participant stays on the step, and no mail is sent; left empty, the step goes on."""
    from http_participant import SIGNATURE, Participant as HTTPParticipant

    study = ReminderServer(workdir, mail_server)
    try:
        study.start("2027-03-23T08:30:00+01:00")
        me = HTTPParticipant(study.base)
        me.enrol(study.server.invite()[0], time_zone="Europe/Berlin")
        _, run, _ = me.page("/onboarding")
        for _ in range(10):
            _, _, html = me.page(run)
            csrf, step, names = me.form_state(html)
            if step == "permissions":
                break
            data = {"_csrf": csrf, "_step": step, "action": "next"}
            if "signature" in names:
                data["signature"] = SIGNATURE
            if step.endswith(".name"):
                data.update({"q0": "Alex", "q1": "Morgan"})
            status, _, _ = me.request("POST", run, data)
            assert status == 303, step
        assert step == "permissions" and "perm3" in names and 'type="email"' in html
        for address, problem in [("ada@example.org\r\nBcc: everyone@example.org", "control character"),
                                 ("a" * 2000 + "@example.org", "characters long")]:
            status, _, body = me.request("POST", run, {"_csrf": csrf, "_step": "permissions", "action": "next", "perm3": address})
            page = body.decode()
            assert status == 422, (address[:40], status)
            assert "This is not an email address that can be used" in page and problem in page, re.findall(r'class="err"[^>]*>([^<]*)', page)
            assert me.form_state(page)[1] == "permissions"
        assert me.form_state(me.page(run)[2])[1] == "permissions", "the participant stays on the step"
        assert mail_server.count() == 0
        status, location, _ = me.request("POST", run, {"_csrf": csrf, "_step": "permissions", "action": "next", "perm3": ""})
        assert status == 303 and location == run
        assert me.form_state(me.page(run)[2])[1] == "done"
        _, _, settings = me.page("/settings/reminders")
        assert "example.org" not in settings.split('id="email-title"')[1].split("</section>")[0]
        assert mail_server.count() == 0
    finally:
        study.stop()
