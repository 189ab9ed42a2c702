"""Fixtures for the browser suite: a real `studykit serve` on a free loopback port with a fresh data folder,
invitation links from `studykit invite`, and headless Chromium at a phone's size, with axe-core run on every
page a test visits."""
import json
import os
import shutil
import socket
import subprocess
import tempfile
import time
import urllib.request
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service

ROOT = Path(__file__).resolve().parents[2]
STUDYKIT = Path(os.environ.get("STUDYKIT", ROOT / ".build" / "debug" / "studykit"))
AXE = Path(os.environ.get("AXE_JS", ROOT / ".venv" / "axe" / "axe.min.js"))
PHONE = (360, 740)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """A running `studykit serve` and the commands that act on its study and data folder."""

    def __init__(self, study, data, port, process, log):
        self.study, self.data, self.port, self.process, self.log = study, data, port, process, log
        self.base = f"http://127.0.0.1:{port}"

    def invite(self, count=1):
        out = subprocess.run([str(STUDYKIT), "invite", "--count", str(count), "--study", str(self.study),
                              "--data", str(self.data), "--base-url", self.base],
                             check=True, capture_output=True, text=True).stdout
        links = [line.strip() for line in out.splitlines() if line.strip().startswith("http")]
        assert len(links) == count, out
        return links

    def stop(self, kill=False):
        if self.process.poll() is None:
            self.process.kill() if kill else self.process.terminate()
            self.process.wait(timeout=20)


def start_server(study, data, port=None):
    port = port or free_port()
    log = open(Path(data).parent / f"server-{port}.log", "w")
    process = subprocess.Popen([str(STUDYKIT), "serve", "--study", str(study), "--data", str(data),
                                "--host", "127.0.0.1", "--port", str(port)], stdout=log, stderr=subprocess.STDOUT)
    deadline = time.time() + 60
    while time.time() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"studykit serve exited with {process.returncode}; see {log.name}")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=1) as response:
                if response.status == 200:
                    return Server(study, data, port, process, log)
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


class AxeBrowser:
    """A Chromium window that runs axe-core on each page it is asked to check and keeps the violations."""

    def __init__(self, driver):
        self.driver = driver
        self.violations = {}
        self.axe_source = AXE.read_text()

    def check_accessibility(self):
        self.driver.execute_script(self.axe_source)
        result = self.driver.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            "axe.run(document, {resultTypes: ['violations']}).then(r => done(JSON.stringify(r.violations)));")
        serious = [v for v in json.loads(result) if v.get("impact") in ("serious", "critical")]
        if serious:
            self.violations[self.driver.current_url] = serious
        return json.loads(result)


@pytest.fixture
def browser(workdir):
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
    wrapped = AxeBrowser(driver)
    yield wrapped
    driver.quit()
    assert not wrapped.violations, "serious or critical axe-core violations: " + json.dumps(
        {url: [(v["id"], v["help"], [n["target"] for n in v["nodes"]][:3]) for v in vs] for url, vs in wrapped.violations.items()},
        indent=1)
