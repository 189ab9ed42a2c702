"""The server over a raw socket, as a hostile or broken client talks to it: bodies it cannot read get a 400 page
that says why (never a 500), and a connection that sends nothing is closed after the documented 30 seconds."""
import socket
import time

IDLE_TIMEOUT = 30  # seconds: StudyServerApplication.idleTimeout, README "The study server"


def exchange(server, data, wait=5):
    """Sends `data` on a new connection and returns everything the server sends back before it goes quiet."""
    with socket.create_connection(("127.0.0.1", server.port)) as connection:
        connection.sendall(data)
        connection.settimeout(wait)
        received = b""
        try:
            while True:
                chunk = connection.recv(65536)
                if not chunk:
                    break
                received += chunk
                if b"</html>" in received:
                    break
        except socket.timeout:
            pass
    return received.decode("utf-8", "replace")


def post(server, headers, body):
    head = f"POST /signin HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n" + "".join(f"{k}: {v}\r\n" for k, v in headers.items())
    return exchange(server, head.encode() + b"\r\n" + body)


def test_a_malformed_chunked_body_is_a_400_page_not_a_500(server):
    answer = post(server, {"Content-Type": "application/x-www-form-urlencoded", "Transfer-Encoding": "chunked"},
                  b"zz\r\ncode=ABCD-EFGH\r\n0\r\n\r\n")
    assert answer.startswith("HTTP/1.1 400"), answer[:200]
    assert "body could not be read" in answer


def test_a_body_of_another_content_type_is_a_400_page_saying_so(server):
    answer = post(server, {"Content-Type": "application/json", "Content-Length": "16"}, b'{"code":"ABCD"}\n')
    assert answer.startswith("HTTP/1.1 400"), answer[:200]
    assert "application/x-www-form-urlencoded" in answer


def test_a_connection_that_sends_nothing_is_closed_after_the_idle_timeout(server):
    with socket.create_connection(("127.0.0.1", server.port)) as connection:
        # Half a request head, then nothing (a slow-loris client).
        connection.sendall(b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        connection.settimeout(IDLE_TIMEOUT + 20)
        started = time.monotonic()
        try:
            closed = connection.recv(1024) == b""
        except ConnectionResetError:
            closed = True
        waited = time.monotonic() - started
    assert closed, "the server answered a request head that never ended"
    assert IDLE_TIMEOUT - 2 <= waited <= IDLE_TIMEOUT + 15, f"closed after {waited:.1f} s"
