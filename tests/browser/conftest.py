"""Fixtures for the browser suite: a real `studykit serve` on a free loopback port with a fresh data folder,
invitation links from `studykit invite`, and headless Chromium at a phone's size, with axe-core run on every
page a test visits. `browser.check_page()` runs axe-core and weighs the page (HTML, CSS and JS, images and fonts
aside) against the 60 KB budget; the weights and the axe results are printed at the end of the session."""
import json
import os
import shutil
import socket
import subprocess
import tempfile
import time
import urllib.request
from collections import Counter
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service

ROOT = Path(__file__).resolve().parents[2]
STUDYKIT = Path(os.environ.get("STUDYKIT", ROOT / ".build" / "debug" / "studykit"))
AXE = Path(os.environ.get("AXE_JS", ROOT / ".venv" / "axe" / "axe.min.js"))
PHONE = (360, 740)
EVERY_FORMAT_STUDY = ROOT / "tests" / "browser" / "studies" / "every-format"
# DESIGN.md, "Web conventions": a participant page weighs under 60 KB uncompressed with its CSS and JS.
PAGE_BUDGET = 60_000  # bytes, as the StudyWeb page tests count it

# Filled by `AxeBrowser.check_page` across the session, printed by `pytest_terminal_summary`.
PAGE_WEIGHTS = {}          # page label -> {"html", "css", "js", "total"}, the heaviest visit of that page
TIMING_ERRORS = {}         # active task -> [measured interval − given interval, in ms], from the active task tests
AXE_RUNS = Counter()       # page label -> axe-core runs
AXE_MINOR = Counter()      # "rule-id (impact)" -> pages with that moderate or minor finding (reported, not failed)
AXE_SERIOUS = Counter()    # "rule-id (impact)" -> pages with that serious or critical violation (each fails its test)
_ASSET_SIZES = {}          # asset URL -> bytes, for assets the browser served from its memory cache


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """A running `studykit serve` and the commands that act on its study and data folder."""

    def __init__(self, study, data, port, process, log, database_options=()):
        self.study, self.data, self.port, self.process, self.log = study, data, port, process, log
        self.database_options = list(database_options)
        self.base = f"http://127.0.0.1:{port}"

    def invite(self, count=1, base_url=None):
        out = subprocess.run([str(STUDYKIT), "invite", "--count", str(count), "--study", str(self.study),
                              "--data", str(self.data), "--base-url", base_url or self.base] + self.database_options,
                             check=True, capture_output=True, text=True).stdout
        links = [line.strip() for line in out.splitlines() if line.strip().startswith("http")]
        assert len(links) == count, out
        return links

    def stop(self, kill=False):
        if self.process.poll() is None:
            self.process.kill() if kill else self.process.terminate()
            self.process.wait(timeout=20)


def start_server(study, data, port=None, clock_start=None, extra=(), database_options=()):
    """`studykit serve` on `port` (a free one by default); with `clock_start` (ISO 8601) its clock runs from then;
    `database_options` (`--database URL --keys DIR`) are given to it and to `invite`; `extra` are more of its options."""
    port = port or free_port()
    log = open(Path(data).parent / f"server-{port}.log", "a")
    clock = ["--clock-start", clock_start] if clock_start else []
    process = subprocess.Popen([str(STUDYKIT), "serve", "--study", str(study), "--data", str(data),
                                "--host", "127.0.0.1", "--port", str(port)] + clock + list(database_options) + list(extra),
                               stdout=log, stderr=subprocess.STDOUT)
    deadline = time.time() + 60
    while time.time() < deadline:
        if process.poll() is not None:
            log.flush()
            raise RuntimeError(f"studykit serve exited with {process.returncode}; its log ({log.name}) ends:\n"
                               + Path(log.name).read_text(errors="replace")[-1500:])
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=1) as response:
                if response.status == 200:
                    return Server(study, data, port, process, log, database_options)
        except OSError:
            time.sleep(0.2)
    process.kill()
    raise RuntimeError("studykit serve did not answer /health within 60 s")


@pytest.fixture
def workdir():
    folder = Path(tempfile.mkdtemp(prefix="studykit-browser-"))
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def server(workdir):
    s = start_server(ROOT / "examples" / "studies" / "recover", workdir / "data")
    yield s
    s.stop()


# What the browser knows about the page on screen: the document's size and status from the navigation entry, and
# the stylesheets and scripts it links with their sizes from the resource entries (decodedBodySize: uncompressed).
_PAGE_FACTS = """
const navigation = performance.getEntriesByType('navigation')[0];
const sizes = {};
for (const entry of performance.getEntriesByType('resource')) sizes[entry.name] = entry.decodedBodySize;
const linked = el => ({url: el.href || el.src, kind: el.tagName === 'LINK' ? 'css' : 'js', size: sizes[el.href || el.src] || 0});
const step = document.querySelector('input[name=_step]');
return {html: navigation ? navigation.decodedBodySize : 0, status: navigation ? navigation.responseStatus : 0,
        assets: [...document.querySelectorAll('link[rel=stylesheet][href], script[src]')].map(linked),
        step: step ? step.value : null, lang: document.documentElement.lang, path: location.pathname};
"""


def page_label(facts):
    """A name for a page that is the same on every visit: a run's page by its step, other paths without codes."""
    if facts["path"].startswith("/runs/"):
        label = "step " + (facts["step"] or "?")
    else:
        parts = facts["path"].split("/")
        if len(parts) > 2 and parts[1] in ("join", "tasks"):
            parts[2:] = ["…"]
        elif len(parts) > 3 and parts[1] == "console" and parts[2] in ("password", "participants"):
            parts[3:] = ["…"]
        label = "/".join(parts) or "/"
    if facts["lang"] and facts["lang"] != "en":
        label += f" [{facts['lang']}]"
    if facts["status"] and facts["status"] != 200:
        label += f" ({facts['status']})"
    return label


def asset_size(url, reported):
    """An asset's uncompressed size: as the browser reported it, or fetched once when it came from memory cache."""
    if reported:
        return reported
    if url not in _ASSET_SIZES:
        with urllib.request.urlopen(url, timeout=10) as response:
            _ASSET_SIZES[url] = len(response.read())
    return _ASSET_SIZES[url]


@pytest.fixture
def every_format_server(workdir):
    """A server on the test study whose daily survey uses every answer format (tests/browser/studies/every-format)."""
    s = start_server(EVERY_FORMAT_STUDY, workdir / "data")
    yield s
    s.stop()


class AxeBrowser:
    """A Chromium window that runs axe-core on each page it is asked to check and keeps the violations."""

    def __init__(self, driver):
        self.driver = driver
        self.violations = {}
        self.axe_source = AXE.read_text()

    def check_accessibility(self, label=None):
        self.driver.execute_script(self.axe_source)
        result = self.driver.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            "axe.run(document, {resultTypes: ['violations']}).then(r => done(JSON.stringify(r.violations)));")
        found = json.loads(result)
        serious = [v for v in found if v.get("impact") in ("serious", "critical")]
        if serious:
            self.violations[self.driver.current_url] = serious
        for violation in found:
            counter = AXE_SERIOUS if violation in serious else AXE_MINOR
            counter[f"{violation['id']} ({violation.get('impact')})"] += 1
        AXE_RUNS[label or self.driver.current_url] += 1
        return found

    def page_weight(self):
        """The page on screen: its label, status and weight in bytes (HTML, CSS, JS), recorded for the summary."""
        facts = self.driver.execute_script(_PAGE_FACTS)
        html = facts["html"] or len(self.driver.page_source.encode())
        weight = {"html": html, "css": 0, "js": 0}
        for asset in facts["assets"]:
            weight[asset["kind"]] += asset_size(asset["url"], asset["size"])
        weight["total"] = sum(weight.values())
        label = page_label(facts)
        if weight["total"] >= PAGE_WEIGHTS.get(label, {}).get("total", -1):
            PAGE_WEIGHTS[label] = weight
        return label, facts["status"], weight

    def close(self):
        """Quits the browser (once; a test may close one early to act as a person who closed theirs)."""
        if self.driver is not None:
            self.driver.quit()
            self.driver = None

    def check_page(self):
        """Runs axe-core on the page on screen and checks its weight; returns its label and HTTP status."""
        label, status, weight = self.page_weight()
        assert weight["total"] < PAGE_BUDGET, f"{label} weighs {weight} bytes, over the {PAGE_BUDGET}-byte budget"
        # Usable at 360 px: nothing makes the page wider than the screen (no sideways scrolling).
        widths = self.driver.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")
        assert widths[0] <= widths[1], f"{label} is {widths[0]} px wide in a {widths[1]} px window"
        self.check_accessibility(label)
        return label, status


def open_chromium(workdir):
    """Headless Chromium at a phone's size, English first, downloads into the work folder."""
    options = Options()
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     f"--window-size={PHONE[0]},{PHONE[1]}", "--lang=en-US"):
        options.add_argument(argument)
    options.add_experimental_option("prefs", {"download.default_directory": str(workdir / "downloads"),
                                              "intl.accept_languages": "en-US,en"})
    driver = webdriver.Chrome(service=Service(shutil.which("chromedriver") or "/usr/bin/chromedriver"), options=options)
    driver.set_window_size(*PHONE)
    driver.implicitly_wait(0)
    return AxeBrowser(driver)


@pytest.fixture
def new_browser(workdir):
    """Opens more browsers in one test (another device, or the same person after closing theirs): call it for
    each. Each is closed at the end, and each one's serious or critical axe-core violations fail the test."""
    opened = []

    def open_one():
        opened.append(open_chromium(workdir))
        return opened[-1]

    yield open_one
    violations = {}
    for wrapped in opened:
        wrapped.close()
        violations.update(wrapped.violations)
    assert not violations, "serious or critical axe-core violations: " + json.dumps(
        {url: [(v["id"], v["help"], [n["target"] for n in v["nodes"]][:3]) for v in vs] for url, vs in violations.items()},
        indent=1)


@pytest.fixture
def browser(new_browser):
    return new_browser()


def pytest_terminal_summary(terminalreporter):
    """The page weights and axe-core results of the session, for the issue's closing note."""
    if not PAGE_WEIGHTS:
        return
    write = terminalreporter.write_line
    terminalreporter.section(f"page weights: bytes, uncompressed (budget {PAGE_BUDGET})")
    write(f"{'page':<34}{'HTML':>8}{'CSS':>8}{'JS':>8}{'total':>8}")
    for label, w in sorted(PAGE_WEIGHTS.items(), key=lambda item: -item[1]["total"]):
        write(f"{label:<34}{w['html']:>8}{w['css']:>8}{w['js']:>8}{w['total']:>8}")
    terminalreporter.section("axe-core")
    write(f"{sum(AXE_RUNS.values())} runs on {len(AXE_RUNS)} distinct pages")
    write("serious or critical: " + (", ".join(f"{k} on {n}" for k, n in AXE_SERIOUS.items()) or "none"))
    write("moderate or minor (not failing): " + (", ".join(f"{k} on {n}" for k, n in AXE_MINOR.items()) or "none"))
    if TIMING_ERRORS:
        terminalreporter.section("active tasks: measured minus given interval, ms")
        write(f"{'task':<16}{'n':>5}{'mean':>10}{'SD':>10}{'max |e|':>10}")
        for task, errors in sorted(TIMING_ERRORS.items()):
            mean = sum(errors) / len(errors)
            sd = (sum((e - mean) ** 2 for e in errors) / (len(errors) - 1)) ** 0.5 if len(errors) > 1 else 0.0
            write(f"{task:<16}{len(errors):>5}{mean:>10.4f}{sd:>10.4f}{max(abs(e) for e in errors):>10.4f}")
