"""A participant driven over plain HTTP (no browser): for the server's rules, where what matters is the status,
the message and what is stored, not the page's behaviour."""
import http.cookiejar
import json
import re
import urllib.error
import urllib.parse
import urllib.request

SIGNATURE = json.dumps({"width": 300, "height": 100,
                        "strokes": [[{"x": 10, "y": 60, "t": 0}, {"x": 120, "y": 20, "t": 90}, {"x": 260, "y": 70, "t": 200}]]})


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


class Participant:
    def __init__(self, base):
        self.base = base
        self.cookies = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.cookies), _NoRedirect)

    def request(self, method, path, data=None):
        """(status, location, body) of one request; redirects are not followed. Its headers are kept in `last_headers`."""
        body = urllib.parse.urlencode(data, doseq=True).encode() if data is not None else None
        url = path if path.startswith("http") else self.base + path
        request = urllib.request.Request(url, data=body, method=method)
        try:
            with self.opener.open(request) as response:
                self.last_headers = response.headers
                return response.status, response.headers.get("Location"), response.read()
        except urllib.error.HTTPError as error:
            self.last_headers = error.headers
            return error.code, error.headers.get("Location"), error.read()

    def page(self, path):
        status, location, body = self.request("GET", path)
        return status, location, body.decode()

    def enrol(self, link, time_zone="Asia/Tokyo"):
        status, location, _ = self.request("POST", link, {"timeZone": time_zone})
        assert status == 303 and location == "/", (status, location)

    @staticmethod
    def form_state(html):
        """The hidden CSRF token and step identifier of a step page, and its field names."""
        csrf = re.search(r'name="_csrf" value="([^"]+)"', html).group(1)
        step = re.search(r'name="_step" value="([^"]+)"', html)
        names = set(re.findall(r'<(?:input|select|textarea)[^>]*name="([^"]+)"', html)) - {"_csrf", "_step", "action"}
        return csrf, step.group(1) if step else None, names

    def complete_onboarding(self):
        """Walks the onboarding: every instruction, the name (Alex Morgan), a drawn signature, no permissions."""
        status, location, _ = self.page("/onboarding")
        run = location
        for _ in range(20):
            status, location, html = self.page(run)
            if status == 303:
                return
            csrf, step, names = self.form_state(html)
            data = {"_csrf": csrf, "_step": step, "action": "next"}
            if "signature" in names:
                data["signature"] = SIGNATURE
            if step.endswith(".name"):
                data.update({"q0": "Alex", "q1": "Morgan"})
            status, location, body = self.request("POST", run, data)
            assert status == 303, (step, status, body[:500])
            if location.startswith("/?"):
                return
        raise AssertionError("onboarding did not finish")

    def start_task(self, path):
        status, location, _ = self.request("GET", path)
        assert status == 303 and location.startswith("/runs/"), (status, location)
        return location
