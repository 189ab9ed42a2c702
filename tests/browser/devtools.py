"""A DevTools protocol connection of the test's own to the browser, beside chromedriver's."""
import json
import time
import urllib.request

import websocket

from studypages import WAIT


class DevTools:
    """A DevTools protocol connection of the test's own to the browser, for what chromedriver's `execute_cdp_cmd` does
    not give: events (the service worker's registration id arrives only as `ServiceWorker.workerRegistrationUpdated`),
    and commands that must reach the browser within a millisecond or two (an emulated shake at a given instant)."""

    def __init__(self, driver):
        address = driver.capabilities["goog:chromeOptions"]["debuggerAddress"]
        with urllib.request.urlopen(f"http://{address}/json/version", timeout=WAIT) as answer:
            url = json.load(answer)["webSocketDebuggerUrl"]
        self.socket = websocket.create_connection(url, suppress_origin=True, timeout=WAIT)
        self.last_id = 0
        self.events = []

    def send(self, method, params=None, session=None):
        self.last_id += 1
        message = {"id": self.last_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        self.socket.send(json.dumps(message))
        while True:
            answer = json.loads(self.socket.recv())
            if answer.get("id") == self.last_id:
                assert "error" not in answer, answer
                return answer["result"]
            self.events.append(answer)

    def event(self, method, matching, timeout=60):
        """The first event `method` whose params `matching` accepts, waiting for it (`timeout` seconds at most)."""
        deadline = time.time() + timeout
        while True:
            for event in self.events:
                if event.get("method") == method and matching(event["params"]):
                    return event["params"]
            assert time.time() < deadline, f"no {method} event came"
            self.events.append(json.loads(self.socket.recv()))

    def registration_id(self, page_url, scope):
        """The id of the service worker registration of `scope`, from the events of the page at `page_url`."""
        page = next(target for target in self.send("Target.getTargets")["targetInfos"]
                    if target["type"] == "page" and target["url"] == page_url)
        session = self.send("Target.attachToTarget", {"targetId": page["targetId"], "flatten": True})["sessionId"]
        self.send("ServiceWorker.enable", session=session)
        found = self.event("ServiceWorker.workerRegistrationUpdated",
                           lambda params: any(r["scopeURL"] == scope and not r["isDeleted"] for r in params["registrations"]))
        return next(r["registrationId"] for r in found["registrations"] if r["scopeURL"] == scope and not r["isDeleted"])

    def page(self, driver):
        """The tab `driver` drives, as a `PageDevTools` on a session of this connection."""
        # chromedriver names a tab by its DevTools target id.
        session = self.send("Target.attachToTarget", {"targetId": driver.current_window_handle, "flatten": True})["sessionId"]
        return PageDevTools(self, session, driver)

    def close(self):
        self.socket.close()


class PageDevTools:
    """One tab on a `DevTools` connection, with the two calls the tests' helpers make of a driver: a command goes
    straight to the browser (not through chromedriver, which adds milliseconds), a script through the driver. Overrides
    it sets (sensors, metrics) are its own and end when the connection closes."""

    def __init__(self, devtools, session, driver):
        self.devtools, self.session, self.driver = devtools, session, driver

    def execute_cdp_cmd(self, method, params):
        return self.devtools.send(method, params, session=self.session)

    def execute_script(self, script, *arguments):
        return self.driver.execute_script(script, *arguments)

    def evaluate(self, expression):
        """The value of `expression` on the page, awaited if it is a promise (one round trip, no chromedriver)."""
        answer = self.execute_cdp_cmd("Runtime.evaluate", {"expression": expression, "awaitPromise": True, "returnByValue": True})
        assert "exceptionDetails" not in answer, answer
        return answer["result"].get("value")
