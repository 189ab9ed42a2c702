"""What deploy/ describes, started on this machine for the tests and `make bench`: a private PostgreSQL cluster
(scripts/postgres-cluster) and nginx with deploy/nginx/studykit.conf in front of StudyKit processes, its HTTPS server
block listening on a loopback port without a certificate. Each is stopped by its `stop()`, whatever happened."""
import os
import re
import shutil
import subprocess
import tempfile
import time
import urllib.request
from pathlib import Path

from conftest import ROOT, free_port

CLUSTER = ROOT / "scripts" / "postgres-cluster"
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"


class PostgresCluster:
    """A cluster of its own, in a new folder under /tmp (the postgres user, which runs it when we are root, must reach
    it), with an empty database whose URL is `url`."""

    def __init__(self):
        self.folder = Path(tempfile.mkdtemp(prefix="studykit-postgres-", dir="/tmp"))
        try:
            self.url = subprocess.run([str(CLUSTER), "start", str(self.folder)], check=True, capture_output=True, text=True).stdout.strip()
        except subprocess.CalledProcessError as error:
            self.stop()
            raise RuntimeError(f"the PostgreSQL cluster did not start: {error.stderr}") from error

    def restart(self, down_seconds=0):
        """PostgreSQL stopped (open sessions ended), left down `down_seconds`, and started again with its data."""
        subprocess.run([str(CLUSTER), "restart", str(self.folder), str(down_seconds)], check=True, capture_output=True)

    def query(self, sql):
        return subprocess.run(["psql", self.url, "-tAc", sql], check=True, capture_output=True, text=True).stdout.strip()

    def stop(self):
        subprocess.run([str(CLUSTER), "stop", str(self.folder)], capture_output=True)


class Nginx:
    """nginx with deploy/nginx/studykit.conf balancing the StudyKit processes on `ports`, at `base`."""

    # How long nginx skips a process after a failed connection (deploy/nginx/studykit.conf's fail_timeout).
    fail_timeout = 2

    def __init__(self, folder, ports):
        folder.mkdir(parents=True, exist_ok=True)
        self.folder = folder
        site = (ROOT / "deploy" / "nginx" / "studykit.conf").read_text()
        upstream = "".join(f"    server 127.0.0.1:{port} max_fails=1 fail_timeout={self.fail_timeout}s;\n" for port in ports)
        site, found = re.subn(rf"(    server 127\.0\.0\.1:\d+ max_fails=1 fail_timeout={self.fail_timeout}s;\n)+", upstream, site)
        assert found == 1, "deploy/nginx/studykit.conf's upstream changed shape"
        port = free_port()
        site, found = re.subn(r"    listen 443 ssl;\n    listen \[::\]:443 ssl;\n    http2 on;\n", f"    listen 127.0.0.1:{port};\n", site)
        assert found == 1, "deploy/nginx/studykit.conf's HTTPS server block changed shape"
        site, found = re.subn(r"    ssl_certificate .*\n    ssl_certificate_key .*\n", "", site)
        assert found == 1, "deploy/nginx/studykit.conf's certificate lines changed shape"
        site = site[:site.index("server {\n    listen 80;")]
        (folder / "studykit.conf").write_text(site)
        for temporary in ("body", "proxy", "fastcgi", "uwsgi", "scgi"):
            (folder / temporary).mkdir(mode=0o777, exist_ok=True)
            os.chmod(folder / temporary, 0o777)
        # As root (CI), nginx's workers would run as nobody, who cannot enter the test's folder.
        user = "user root root;\n" if os.geteuid() == 0 else ""
        (folder / "nginx.conf").write_text(f"""{user}worker_processes 1;
daemon off;
pid {folder}/nginx.pid;
error_log {folder}/error.log warn;
events {{ worker_connections 4096; }}
http {{
    access_log off;
    client_body_temp_path {folder}/body;
    proxy_temp_path {folder}/proxy;
    fastcgi_temp_path {folder}/fastcgi;
    uwsgi_temp_path {folder}/uwsgi;
    scgi_temp_path {folder}/scgi;
    # Which process answered, for the tests to wait on (inherited by the locations that add no header of their own).
    add_header X-Upstream $upstream_addr always;
    include {folder}/studykit.conf;
}}
""")
        self.process = subprocess.Popen([NGINX, "-p", str(folder), "-c", str(folder / "nginx.conf"), "-e", str(folder / "error.log")],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
        self.base = f"http://127.0.0.1:{port}"
        deadline = time.time() + 30
        while time.time() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError("nginx exited: " + (folder / "error.log").read_text())
            try:
                with urllib.request.urlopen(self.base + "/health", timeout=1) as response:
                    if response.status == 200:
                        return
            except OSError:
                time.sleep(0.1)
        self.stop()
        raise RuntimeError("nginx did not answer within 30 s")

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=20)
