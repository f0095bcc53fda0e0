#!/usr/bin/env python3
"""A calendar server that fails on demand, for the subscription tests.

usage: fault_server.py CERT_DIR

Serves on 127.0.0.1 over http and https (a certificate authority and a
server certificate for 127.0.0.1 are made in CERT_DIR with openssl: the
tests trust it through SSL_CERT_FILE), each on a port of its own, and
prints one line, `http PORT https PORT`, once both listen. It stops by
itself when its standard input ends (the test process that started it
has gone) or after an hour.

What a real server will not do when asked, each at a path of its own:

  /ok...             (any path that starts so) a calendar, with ETag and
                     Last-Modified; answers 304 to a request that has them;
                     ?v=2: another text
  /count/PATH        how many requests PATH has had (text)
  /count304/PATH     how many of them were answered 304
  /inflight-max      the most requests served at once
  /down/PATH         PATH is answered 503 from now on
  /status/N          HTTP status N with an error page
  /login             200 with an HTML login page
  /empty             200 with an empty body
  /trailing...       a calendar followed by 800 blank lines and an HTML comment
  /cut               a calendar cut short: Content-Length larger than what is sent
  /cut-open          a calendar cut short with no length: it ends without END:VCALENDAR
  /stall             waits 60 s before answering
  /slow/N            the calendar after N seconds
  /loop              redirects to itself
  /redirect/N        N redirects, then the calendar
  /to-http           (https) a redirect to the same calendar over http
  /big               100 MB with its Content-Length
  /big-open          100 MB with no length (chunked)
  /then/MODE/NAME    the calendar the first time, then what /MODE does
                     (/then/status/500/x.ics, /then/stall/x.ics, ...)
  /auth/basic.ics    the calendar, with HTTP basic auth alice:wonderland
                     (any /auth/... path)
  /authorization/PATH  the Authorization header of each request PATH had,
                     one line each (`-` when absent)
  /to-same-host/REST a redirect to /REST on this host
  /to-other-host/REST a redirect to /REST at localhost, another host name
                     for this server (http)
  /conditions/PATH   the If-None-Match and If-Modified-Since of each request
                     PATH had, one line each (`-` when absent), as Python
                     writes a string (repr)
  /validators/KIND/NAME  the calendar with a validator that is not well
                     formed (KIND: etag-control, etag-cr, etag-unquoted,
                     etag-quote, etag-obs-text, etag-fold, lm-control,
                     lm-long, lm-not-date; `good`: well-formed ones); a
                     conditional request is answered 304
  /not-http          the calendar with no status line and no headers (as
                     HTTP/0.9 answered), then the connection closed
  /huge-header       the calendar after a header line of 200 KB
  /bad-header        the calendar after a header line with no colon
  /ANY/secret-token/REST   what /REST does (and .../basic.ics: the calendar),
                     under an address that must never be printed whole
"""
import base64
import http.server
import os
import socketserver
import ssl
import subprocess
import sys
import threading
import time

import loopback

CALENDAR = (
    "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//ics-agenda//fault server//EN\r\n"
    "X-WR-CALNAME:Faults\r\n"
    "BEGIN:VEVENT\r\nUID:fault-1@test\r\nDTSTAMP:20250101T000000Z\r\nSUMMARY:{title}\r\n"
    "DTSTART:20250303T090000Z\r\nDTEND:20250303T100000Z\r\nEND:VEVENT\r\n"
    "END:VCALENDAR\r\n"
)
ETAG = '"v1"'
LAST_MODIFIED = "Mon, 03 Mar 2025 08:00:00 GMT"
counts = {}
conditions = {}  # path: [(If-None-Match, If-Modified-Since), ...]
authorizations = {}  # path: [Authorization or "-", ...]
inflight = [0, 0]  # now, most at once
down = set()  # paths answered 503 from now on
lock = threading.Lock()
ports = {}


def calendar(title="Served event"):
    return CALENDAR.format(title=title).encode()


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def send(self, status, body=b"", content_type="text/calendar; charset=utf-8", headers=()):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        for name, value in headers:
            self.send_header(name, value)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def redirect(self, location):
        self.send(302, b"", "text/plain", [("Location", location)])

    def do_GET(self):
        path, _, query = self.path.partition("?")
        if "/secret-token/" in path:
            # /ANY/secret-token/REST: what /REST does, under an address that must never be printed whole.
            path = "/" + path.split("/secret-token/", 1)[1]
        if path.startswith("/down/"):
            with lock:
                down.add(path[len("/down"):])
            return self.send(200, b"down", "text/plain")
        with lock:
            counts[path] = counts.get(path, 0) + 1
            seen = counts[path]
            asked = (self.headers.get("If-None-Match", "-"), self.headers.get("If-Modified-Since", "-"))
            conditions.setdefault(path, []).append(asked)
            authorizations.setdefault(path, []).append(self.headers.get("Authorization", "-"))
            is_down = path in down
            inflight[0] += 1
            inflight[1] = max(inflight[1], inflight[0])
        try:
            if is_down:
                return self.send(503, b"<html><body>Service Unavailable</body></html>", "text/html")
            self.answer(path, query, seen)
        finally:
            with lock:
                inflight[0] -= 1

    def answer(self, path, query, seen):
        if path.startswith("/then/"):
            # /then/MODE.../NAME.ics: the calendar the first time, then what /MODE... does.
            if seen == 1:
                return self.send(200, calendar("Kept event"), headers=[("ETag", '"then"')])
            path = "/" + "/".join(path.split("/")[2:-1])
        if path.startswith("/count/"):
            with lock:
                n = counts.get(path[len("/count"):], 0)
            return self.send(200, str(n).encode(), "text/plain")
        if path.startswith("/count304/"):
            with lock:
                n = counts.get("304:" + path[len("/count304"):], 0)
            return self.send(200, str(n).encode(), "text/plain")
        if path.startswith("/conditions/"):
            with lock:
                asked = conditions.get(path[len("/conditions"):], [])
            return self.send(200, "".join(f"{inm!r} {ims!r}\n" for inm, ims in asked).encode(), "text/plain")
        if path.startswith("/authorization/"):
            with lock:
                sent = authorizations.get(path[len("/authorization"):], [])
            return self.send(200, "".join(f"{line}\n" for line in sent).encode(), "text/plain")
        if path == "/inflight-max":
            return self.send(200, str(inflight[1]).encode(), "text/plain")
        if path.startswith("/ok") or path.endswith("/basic.ics") and not path.startswith("/auth/"):
            if query == "v=2":
                return self.send(200, calendar("Second version"), headers=[("ETag", '"v2"')])
            if self.headers.get("If-None-Match") == ETAG or self.headers.get("If-Modified-Since") == LAST_MODIFIED:
                with lock:
                    counts["304:" + path] = counts.get("304:" + path, 0) + 1
                self.send_response(304)
                self.send_header("ETag", ETAG)
                self.end_headers()
                return
            return self.send(200, calendar(), headers=[("ETag", ETAG), ("Last-Modified", LAST_MODIFIED)])
        if path.startswith("/validators/"):
            return self.bad_validators(path.split("/")[2])
        if path in ("/huge-header", "/bad-header"):
            body = calendar()
            self.wfile.write(b"HTTP/1.1 200 OK\r\nContent-Type: text/calendar\r\n")
            self.wfile.write(b"X-Padding: " + b"x" * 200_000 + b"\r\n" if path == "/huge-header" else b"This line has no colon\r\n")
            self.wfile.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
            self.close_connection = True
            return
        if path == "/not-http":
            self.wfile.write(calendar())
            self.close_connection = True
            return
        if path.startswith("/to-same-host/"):
            return self.redirect(path[len("/to-same-host"):])
        if path.startswith("/to-other-host/"):
            return self.redirect(f"http://localhost:{ports['http']}{path[len('/to-other-host'):]}")
        if path.startswith("/status/"):
            return self.send(int(path.split("/")[2]), b"<html><body>Error</body></html>", "text/html")
        if path == "/login":
            page = b"<!DOCTYPE html><html><head><title>Sign in</title></head><body><form>Password</form></body></html>"
            return self.send(200, page, "text/html")
        if path.startswith("/trailing"):
            body = calendar("Trailing event") + b"\r\n" * 800 + b"<!-- served by a server that adds a comment -->\r\n"
            return self.send(200, body)
        if path == "/empty":
            return self.send(200, b"")
        if path == "/cut":
            body = calendar()
            self.send_response(200)
            self.send_header("Content-Type", "text/calendar")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body[: len(body) // 2])
            self.wfile.flush()
            self.close_connection = True
            return
        if path == "/cut-open":
            body = calendar()
            self.send_response(200)
            self.send_header("Content-Type", "text/calendar")
            self.send_header("Connection", "close")
            self.end_headers()
            self.wfile.write(body[: len(body) - 40])
            self.close_connection = True
            return
        if path == "/stall":
            time.sleep(60)
            return self.send(200, calendar())
        if path.startswith("/slow/"):
            time.sleep(float(path.split("/")[2]))
            return self.send(200, calendar("Slow event"))
        if path == "/loop":
            return self.redirect("/loop")
        if path.startswith("/redirect/"):
            n = int(path.split("/")[2])
            return self.redirect(f"/redirect/{n - 1}" if n > 1 else "/ok.ics")
        if path == "/to-http":
            return self.redirect(f"http://127.0.0.1:{ports['http']}/ok.ics")
        if path in ("/big", "/big-open"):
            size = 100 << 20
            self.send_response(200)
            self.send_header("Content-Type", "text/calendar")
            if path == "/big":
                self.send_header("Content-Length", str(size))
            else:
                self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            chunk = b"BEGIN:VCALENDAR\r\n" + b"X" * (1 << 20)
            sent = 0
            try:
                while sent < size:
                    piece = chunk[: min(len(chunk), size - sent)]
                    if path == "/big":
                        self.wfile.write(piece)
                    else:
                        self.wfile.write(b"%x\r\n%s\r\n" % (len(piece), piece))
                    sent += len(piece)
                if path == "/big-open":
                    self.wfile.write(b"0\r\n\r\n")
            except (BrokenPipeError, ConnectionResetError, ssl.SSLError):
                pass
            self.close_connection = True
            return
        if path.startswith("/auth/"):
            expected = "Basic " + base64.b64encode(b"alice:wonderland").decode()
            if self.headers.get("Authorization") != expected:
                return self.send(401, b"<html>Unauthorized</html>", "text/html", [("WWW-Authenticate", 'Basic realm="cal"')])
            return self.send(200, calendar("Private event"))
        return self.send(404, b"not here", "text/plain")


    BAD_VALIDATORS = {
        "etag-control": [("ETag", '"v\x01"')],
        "etag-cr": [("ETag", '"v"\rX-Injected: yes')],
        "etag-unquoted": [("ETag", "v1")],
        "etag-quote": [("ETag", '"v"1"')],
        "etag-obs-text": [("ETag", '"caf\xe9"')],
        "etag-fold": [("ETag", '"v1"'), (" ", '"more"')],
        "lm-control": [("Last-Modified", LAST_MODIFIED + "\x07")],
        "lm-long": [("Last-Modified", LAST_MODIFIED[:-4] + " " * 60 + "GMT")],
        "lm-not-date": [("Last-Modified", "yesterday")],
        "good": [("ETag", 'W/"v1"'), ("Last-Modified", LAST_MODIFIED)],
    }

    def bad_validators(self, kind):
        """The calendar with the validators of KIND; 304 to any conditional request."""
        if self.headers.get("If-None-Match") or self.headers.get("If-Modified-Since"):
            self.send_response(304)
            self.end_headers()
            return
        body = calendar("Validated event")
        self.send_response(200)
        self.send_header("Content-Type", "text/calendar")
        self.send_header("Content-Length", str(len(body)))
        for name, value in self.BAD_VALIDATORS[kind]:
            if name == " ":  # a continuation line (obs-fold) of the header before
                self._headers_buffer.append(f" {value}\r\n".encode("latin-1"))
            else:
                self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    allow_reuse_address = True


def make_certificates(folder):
    """A certificate authority, and a certificate for 127.0.0.1 it signed."""
    os.makedirs(folder, exist_ok=True)
    ca_key, ca_crt = os.path.join(folder, "ca.key"), os.path.join(folder, "ca.pem")
    key, csr, crt = (os.path.join(folder, n) for n in ("server.key", "server.csr", "server.pem"))
    ext = os.path.join(folder, "ext.cnf")
    with open(ext, "w") as f:
        f.write("subjectAltName=IP:127.0.0.1,DNS:localhost\nbasicConstraints=CA:FALSE\n")
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL, "check": True}
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", ca_key, "-out", ca_crt,
                    "-days", "2", "-subj", "/CN=ics-agenda test CA"], **quiet)
    subprocess.run(["openssl", "req", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", csr,
                    "-subj", "/CN=127.0.0.1"], **quiet)
    subprocess.run(["openssl", "x509", "-req", "-in", csr, "-CA", ca_crt, "-CAkey", ca_key, "-CAcreateserial",
                    "-out", crt, "-days", "2", "-extfile", ext], **quiet)
    return crt, key


def main():
    folder = sys.argv[1]
    crt, key = make_certificates(folder)
    plain = Server(("127.0.0.1", 0), Handler)
    secure = Server(("127.0.0.1", 0), Handler)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(crt, key)
    secure.socket = context.wrap_socket(secure.socket, server_side=True)
    ports["http"], ports["https"] = plain.server_address[1], secure.server_address[1]
    for server in (plain, secure):
        threading.Thread(target=server.serve_forever, daemon=True).start()
    print(f"http {ports['http']} https {ports['https']}", flush=True)
    loopback.serve_until_parent_goes(lambda: os._exit(0))


if __name__ == "__main__":
    main()
