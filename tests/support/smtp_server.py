"""A real SMTP server for tests, on aiosmtpd: it keeps every message it accepts as files.

StudyKit's Swift tests (Tests/MailTests) submit mail to it with the Mail module's SMTP client; browser tests can use it
to read the reminder emails the server sends. It listens on 127.0.0.1 unless --host says otherwise.

Usage:

    .venv/bin/python tests/support/smtp_server.py --port 0 --maildir DIR [options]

The first line it prints on stdout is the port it listens on (flushed at once: with --port 0 the system chooses it);
then it serves until it is killed (SIGTERM or SIGINT end it cleanly), or, with --stop-on-stdin-eof, until its standard
input closes, so that a test process that dies never leaves it running.

Each accepted message N (1, 2, ... in order of arrival, after the highest number already in DIR) is written to DIR as:
  N.eml   the message's raw bytes as the client sent them after DATA, dot-stuffing removed, CRLF line ends kept;
  N.json  {"mail_from": "...", "rcpt_tos": ["..."], "tls": true|false, "auth_login": "..."|null}.
N.json is written first and N.eml last, each under a temporary name renamed into place, so a reader that sees N.eml
sees both files whole.

Options:
  --host HOST                 the address to listen on (default 127.0.0.1).
  --tls-cert PEM --tls-key PEM
                              offer STARTTLS with this certificate and key, and require it before MAIL FROM or AUTH.
  --implicit-tls              with --tls-cert/--tls-key: TLS from the first byte (as on port 465) instead of STARTTLS.
  --auth-user NAME --auth-password-env VAR
                              require AUTH as NAME, with the password read from the environment variable VAR (never
                              from the command line, where other users could read it); over TLS when TLS is on.
  --auth-mechanisms LIST      offer only these of PLAIN and LOGIN, comma-separated (default PLAIN,LOGIN).
  --reject-rcpt ADDRESS=CODE  answer RCPT TO:<ADDRESS> with CODE (450, 550...), to test temporary and permanent
                              failures; may be repeated.
  --stop-on-stdin-eof         also stop when standard input reaches its end.
"""
import argparse
import asyncio
import json
import os
import signal
import ssl
import sys
from pathlib import Path

from aiosmtpd.smtp import SMTP, AuthResult, LoginPassword

ALL_MECHANISMS = {"PLAIN", "LOGIN"}


class MaildirHandler:
    """Accepts mail for every recipient but the rejected ones, and writes each message to the mail folder."""

    def __init__(self, maildir: Path, rejected: dict[str, int]):
        self.maildir = maildir
        self.rejected = rejected
        self.count = max((int(path.stem) for path in maildir.glob("*.eml") if path.stem.isdigit()), default=0)

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        code = self.rejected.get(address.lower())
        if code is not None:
            return f"{code} {'4.2.0 Try again later' if code < 500 else '5.1.1 No such recipient'}: {address}"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        self.count += 1
        number = self.count
        envelope_data = {
            "mail_from": envelope.mail_from,
            "rcpt_tos": list(envelope.rcpt_tos),
            "tls": server.transport.get_extra_info("ssl_object") is not None,
            "auth_login": session.login_data.decode() if isinstance(session.login_data, bytes) else session.login_data,
        }
        write_atomically(self.maildir / f"{number}.json", json.dumps(envelope_data).encode())
        write_atomically(self.maildir / f"{number}.eml", envelope.original_content)
        return f"250 OK: message {number} accepted"


def write_atomically(path: Path, data: bytes):
    temporary = path.with_name(f".{path.name}.tmp")
    temporary.write_bytes(data)
    os.replace(temporary, path)


def parse_rejections(values: list[str]) -> dict[str, int]:
    rejected = {}
    for value in values:
        address, separator, code = value.rpartition("=")
        if not separator or not code.isdigit() or not 400 <= int(code) <= 599:
            raise SystemExit(f"--reject-rcpt takes ADDRESS=CODE with a 4xx or 5xx code, not {value!r}")
        rejected[address.lower()] = int(code)
    return rejected


def make_authenticator(user: str, password: str):
    def authenticate(server, session, envelope, mechanism, auth_data):
        ok = isinstance(auth_data, LoginPassword) and auth_data.login == user.encode() and auth_data.password == password.encode()
        # handled=False: aiosmtpd then answers a failure itself (535), as a real server would.
        return AuthResult(success=ok, handled=False, auth_data=auth_data)
    return authenticate


def arguments():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--maildir", type=Path, required=True)
    parser.add_argument("--tls-cert")
    parser.add_argument("--tls-key")
    parser.add_argument("--implicit-tls", action="store_true")
    parser.add_argument("--auth-user")
    parser.add_argument("--auth-password-env")
    parser.add_argument("--auth-mechanisms", default="PLAIN,LOGIN")
    parser.add_argument("--reject-rcpt", action="append", default=[])
    parser.add_argument("--stop-on-stdin-eof", action="store_true")
    options = parser.parse_args()
    if bool(options.tls_cert) != bool(options.tls_key):
        parser.error("--tls-cert and --tls-key go together")
    if options.implicit_tls and not options.tls_cert:
        parser.error("--implicit-tls needs --tls-cert and --tls-key")
    if bool(options.auth_user) != bool(options.auth_password_env):
        parser.error("--auth-user and --auth-password-env go together")
    if options.auth_password_env and options.auth_password_env not in os.environ:
        parser.error(f"the environment variable {options.auth_password_env} is not set")
    options.auth_mechanisms = {name.strip().upper() for name in options.auth_mechanisms.split(",")}
    if not options.auth_mechanisms or not options.auth_mechanisms <= ALL_MECHANISMS:
        parser.error("--auth-mechanisms takes PLAIN, LOGIN or both")
    return options


async def serve(options):
    options.maildir.mkdir(parents=True, exist_ok=True)
    handler = MaildirHandler(options.maildir, parse_rejections(options.reject_rcpt))
    tls_context = None
    if options.tls_cert:
        tls_context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        tls_context.load_cert_chain(options.tls_cert, options.tls_key)
    starttls_context = None if options.implicit_tls else tls_context
    settings = {"hostname": "smtp.test", "tls_context": starttls_context, "require_starttls": starttls_context is not None}
    if options.auth_user:
        settings.update(
            authenticator=make_authenticator(options.auth_user, os.environ[options.auth_password_env]),
            auth_required=True,
            # With implicit TLS every command already comes over TLS (aiosmtpd's check knows only STARTTLS).
            auth_require_tls=starttls_context is not None,
            auth_exclude_mechanism=ALL_MECHANISMS - options.auth_mechanisms,
        )
    loop = asyncio.get_running_loop()
    server = await loop.create_server(lambda: SMTP(handler, **settings), host=options.host, port=options.port,
                                      ssl=tls_context if options.implicit_tls else None)
    print(server.sockets[0].getsockname()[1], flush=True)

    stopped = asyncio.Event()
    for signal_number in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signal_number, stopped.set)
    if options.stop_on_stdin_eof:
        loop.add_reader(sys.stdin.fileno(), lambda: stopped.set() if not os.read(sys.stdin.fileno(), 4096) else None)
    await stopped.wait()
    # Stop listening; asyncio.run then cancels the sessions still open rather than waiting for their clients.
    server.close()


def main():
    options = arguments()
    asyncio.run(serve(options))


if __name__ == "__main__":
    main()
