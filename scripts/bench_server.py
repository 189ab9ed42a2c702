#!/usr/bin/env python3
"""Loads a release `studykit serve` with wrk on loopback, as `make bench` runs it: a trivial health endpoint (the
ceiling), the home page of an enrolled, onboarded participant, and a survey-step answer post. Prints requests per
second and p99 latency for each, and each as a share of the ceiling (targets: home ≥ 30 %, answer post ≥ 15 %).

The server keeps each session's home page until a write or the time changes it (HomePageCache), so the home run
measures a page served again. A home page with a notice (`/?notice=done`, what a participant sees after a task) is made
afresh every time: its row shows what making the page costs.

Usage: scripts/bench_server.py [--seconds N] [--connections N]"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "browser"))
os.environ.setdefault("STUDYKIT", str(ROOT / ".build" / "release" / "studykit"))
from conftest import start_server  # noqa: E402  (the same start-up as the browser suite)
from http_participant import Participant  # noqa: E402

# Each wrk connection is one participant, alternating two posts on their pain check: the pain level with Next
# (the answer is validated, stored, and the run moves on), then Back from the next step (stored again).
POST_SCRIPT = r"""
local participants = {%s}
local counter = 0
function setup(thread)
  counter = counter + 1
  thread:set("index", counter)
end
function init(args)
  me = participants[index]
  atLevel = true   -- the run's current step, as the last acknowledged post left it
  count = 0
end
function request()
  count = count + 1
  local body
  if atLevel then
    body = "_csrf=" .. me.csrf .. "&_step=painLevel&action=next&q0=" .. tostring(count %% 11)
  else
    body = "_csrf=" .. me.csrf .. "&_step=painLocation&action=back"
  end
  return wrk.format("POST", me.run, {["Cookie"] = me.cookie, ["Content-Type"] = "application/x-www-form-urlencoded"}, body)
end
function response(status, headers, body)
  if status == 303 then
    atLevel = not atLevel
  else
    io.stderr:write("unexpected status " .. status .. " from participant " .. index .. ": " .. string.sub(body or "", 1, 300) .. "\n")
  end
end
"""


def wrk(url, seconds, connections, headers=(), script=None):
    command = ["wrk", "-t", str(min(connections, 2) if script is None else connections), "-c", str(connections),
               "-d", f"{seconds}s", "--latency"]
    for header in headers:
        command += ["-H", header]
    if script:
        command += ["-s", script]
    out = subprocess.run(command + [url], check=True, capture_output=True, text=True)
    if "unexpected status" in out.stderr:
        raise SystemExit("wrk saw unexpected statuses:\n" + out.stderr[:800])
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", out.stdout).group(1))
    value, unit = re.search(r"\s99%\s+([\d.]+)(us|ms|s)", out.stdout).groups()
    p99 = float(value) * {"us": 0.001, "ms": 1, "s": 1000}[unit]
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", out.stdout)
    if errors:
        raise SystemExit(f"{url}: {errors.group(1)} non-2xx/3xx responses\n{out.stdout}")
    return rate, p99


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--connections", type=int, default=4)
    args = parser.parse_args()
    if not shutil.which("wrk"):
        raise SystemExit("wrk is not installed: apt-get install wrk (make bench installs it)")
    work = Path(tempfile.mkdtemp(prefix="studykit-bench-"))
    server = start_server(ROOT / "examples" / "studies" / "recover", work / "data")
    try:
        participants = []
        for _ in range(args.connections):
            participant = Participant(server.base)
            participant.enrol(server.invite()[0])
            participant.complete_onboarding()
            # Onboarding prints the consent PDF with headless Chromium in the background: let it finish (printed or
            # failed), so that Chromium does not share the CPU with the measurements.
            deadline = time.time() + 120
            while "being prepared" in participant.page("/settings")[2]:
                if time.time() > deadline:
                    raise SystemExit("the consent PDF was still being printed after 120 s")
                time.sleep(0.2)
            home = participant.page("/")[2]
            run = participant.start_task(re.search(r'href="(/tasks/pain/\d+)"', home).group(1))
            csrf = Participant.form_state(participant.page(run)[2])[0]
            cookie = "; ".join(f"{c.name}={c.value}" for c in participant.cookies)
            participants.append((cookie, run, csrf))
        script = work / "post.lua"
        script.write_text(POST_SCRIPT % ", ".join(
            f'{{cookie="{c}", run="{r}", csrf="{s}"}}' for c, r, s in participants))

        load_before = " ".join(f"{value:.2f}" for value in os.getloadavg())
        health = wrk(f"{server.base}/health", args.seconds, args.connections)
        home = wrk(f"{server.base}/", args.seconds, args.connections, headers=[f"Cookie: {participants[0][0]}"])
        fresh = wrk(f"{server.base}/?notice=done", args.seconds, args.connections, headers=[f"Cookie: {participants[0][0]}"])
        post = wrk(server.base + participants[0][1], args.seconds, args.connections, script=str(script))
        home_size = len(Participant(server.base).opener.open(__import__("urllib.request").request.Request(
            server.base + "/", headers={"Cookie": participants[0][0]})).read())
        load = " ".join(f"{value:.2f}" for value in os.getloadavg())
        print(f"load average before the runs {load_before}, after {load} ({os.cpu_count()} CPUs)")
        print(f"{'server (wrk, ' + str(args.connections) + ' connections, ' + str(args.seconds) + ' s)':<58}{'req/s':>10}{'p99 ms':>9}  share of ceiling")
        print("-" * 96)
        for name, (rate, p99), note in [("GET /health (the ceiling)", health, ""),
                                         (f"GET / (home, {home_size} bytes)", home, "target ≥ 30 %"),
                                         ("GET /?notice=done (home made afresh each time)", fresh, "for comparison"),
                                         ("POST /runs/RUN (answer a survey step)", post, "target ≥ 15 %")]:
            share = f"{100 * rate / health[0]:5.1f} %  {note}" if note else ""
            print(f"{name:<58}{rate:>10.0f}{p99:>9.2f}  {share}")
    finally:
        server.stop()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
