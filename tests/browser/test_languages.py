"""Recover in each language it is translated into, as a participant reading it sees it: the onboarding with the
consent, the daily pain check and the daily page, with no text of the study left in English on any page. Every
visible text node of each page is compared with the study's English source texts (from `studykit strings export`):
none may be one of them, or hold one of the longer ones, unless its translation is the same (a name such as
"Recover")."""
import json
import re
import subprocess

import pytest
import yaml
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from conftest import ROOT, STUDYKIT
from studypages import WAIT, Participant, click_to_navigate, draw_signature

RECOVER = ROOT / "examples" / "studies" / "recover"
STUDY = yaml.safe_load((RECOVER / "study.yaml").read_text())
# The languages Recover is translated into: those after the first that it does not let fall back.
TRANSLATED = [language for language in STUDY["languages"][1:] if language not in STUDY.get("translation", {}).get("fallback", [])]
# Each language's name as Recover's settings page lists it.
NAMES = {"ja": "日本語", "zh-Hans": "简体中文", "ko": "한국어", "es": "español"}

# Every text node a person sees: visible, not in a script or style, trimmed.
_VISIBLE_TEXTS = """
const texts = [];
const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
for (let node = walker.nextNode(); node; node = walker.nextNode()) {
  const text = node.textContent.trim();
  const parent = node.parentElement;
  if (!text || !parent || ['SCRIPT', 'STYLE', 'NOSCRIPT'].includes(parent.tagName)) continue;
  if (parent.checkVisibility && !parent.checkVisibility({visibilityProperty: true})) continue;
  texts.push(text);
}
return texts;
"""


def english_sources(language):
    """The study's English texts whose translation into `language` differs from them."""
    catalog = json.loads(subprocess.run([str(STUDYKIT), "strings", "export", "--study", str(RECOVER), "--language", language,
                                         "--format", "xcstrings"], capture_output=True, text=True, check=True).stdout)
    sources = set()
    for entry in catalog["strings"].values():
        localizations = entry["localizations"]
        source = localizations["en"]["stringUnit"]["value"].strip()
        translated = localizations.get(language, {}).get("stringUnit", {}).get("value", "").strip()
        if source and translated != source:
            sources.add(source)
    return sources


def english_on(participant, sources):
    """The visible texts of the page on screen that are the study's English: whole, or holding a longer source."""
    found = []
    for text in participant.driver.execute_script(_VISIBLE_TEXTS):
        if text in sources or any(len(source) >= 15 and source in text for source in sources):
            found.append(text)
    return found


@pytest.mark.parametrize("language", TRANSLATED)
def test_a_participant_reading_a_translated_language_meets_no_english(server, browser, new_browser, language):
    sources = english_sources(language)
    assert len(sources) > 80, "the study's texts were read"
    # The check finds English where it is: the contacts page of a participant reading English.
    control = Participant(server, new_browser()).join()
    control.open("/contacts")
    assert "Physiotherapist" in english_on(control, sources)
    me = Participant(server, browser).join()
    seen = []

    def check(where):
        assert not (leftover := english_on(me, sources)), f"{language}, {where}: English on the page: {leftover}"
        assert me.driver.find_element(By.TAG_NAME, "html").get_attribute("lang") == language
        assert not me.driver.find_elements(By.CSS_SELECTOR, ".lang-note"), f"{where} says part of the study is untranslated"
        seen.append(where)

    me.open("/settings")
    me.choose(NAMES[language])
    click_to_navigate(me.driver, me.field("section[aria-labelledby=language-title] button[type=submit]"))
    me.open("/")
    check("home before the onboarding")

    # The onboarding, every step checked before it is left.
    click_to_navigate(me.driver, me.driver.find_element(By.CSS_SELECTOR, "main a.button[href='/onboarding']"))
    for _ in range(12):
        step = me.step()
        check(f"onboarding step {step}")
        if step == "consent.name":
            # A name with a hidden direction override is refused by the server's validation, in the page's language.
            me.driver.execute_script("arguments[0].value = arguments[1]", me.field("#q0"), "花子\u202e")
            me.type_into("#q1", "山田")
            me.press_primary()
            assert me.step() == "consent.name"
            refusal = me.errors().get("q0-err", "")
            assert "U+202E" in refusal and not refusal.startswith("Remove"), f"{language}: the refusal is {refusal!r}"
            check("onboarding step consent.name refused")
            me.type_into("#q0", "花子")
        elif me.driver.find_elements(By.CSS_SELECTOR, ".sig canvas"):
            canvas = me.field(".sig canvas")
            WebDriverWait(me.driver, WAIT).until(lambda d: canvas.is_displayed())
            me.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", canvas)
            draw_signature(me.driver, canvas)
        elif step == "permissions":
            me.choose_all_permissions()
        me.next()
        if me.path().startswith("/?"):
            break
    check("home after the onboarding")

    # The daily pain check from its card, every step checked.
    title = me.driver.execute_script(
        "return [...document.querySelectorAll('main li.card h2')].map(h => h.textContent.trim())")
    pain = next(t for t in title if "PHQ" not in t and t == yaml.safe_load((RECOVER / "translations" / f"{language}.yaml").read_text())
                ["study.yaml"]["tasks[pain].title"])
    me.start_survey(pain)
    check("pain level")
    me.choose("4")
    me.next()
    check("pain location")
    me.driver.find_elements(By.CSS_SELECTOR, "main input[type=checkbox]")[0].click()
    me.next()
    while me.driver.find_elements(By.CSS_SELECTOR, "form button[name=action][value=skip]"):
        check(f"survey step {me.step()}")
        me.press("skip")
    check(f"survey step {me.step()}")
    me.press_primary()
    check("home after the survey")
    for path in ["/contacts", "/insights", "/settings"]:
        me.open(path)
        check(path)
    assert len(seen) >= 14, seen
