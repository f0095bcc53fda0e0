#!/usr/bin/env python3
"""A CalDAV server that misbehaves on demand, on loopback, for the tests of
what Radicale will not do (Tests/CLITests/CalDAVFaultTests.swift).

usage: caldav_fault_server.py FOLDER

Each account is /t/MODE-ANYTHING/ (the mode is what comes before the first
`-`): principal /t/NAME/principal/, home /t/NAME/home/, one calendar
/t/NAME/home/cal/ holding item one.ics (and two.ics once /bump/NAME was
asked). Modes:

  plain      as a server should answer
  moved      PROPFIND on the account answers 301 to /t/plain-NAME/
  nowhere    PROPFIND on the account answers 404: /.well-known/caldav is
             asked, which answers 301 to /t/plain-wellknown/
  crosshost  the home set is on http://localhost:PORT/ (another host)
  badtoken   a sync report answers 403 with DAV:valid-sync-token
  full       a sync report answers 507
  dup        the multiget names each href twice (Zimbra, DavMail)
  xxe        the multiget answer has a DOCTYPE with an external entity
  cut        the multiget answer is cut short of its Content-Length
  stall      as plain until /bump/NAME was asked; then every request
             waits 60 s before it is answered
  bulk       /t/bulk-N-ANYTHING/: a calendar of N generated events, for
             `make bench` (scripts/bench.py, the first sync of a large
             account): answers made once per account and kept; a multiget
             is answered by the hrefs it names, looked up, not searched for
             (in 0.1 s when the name holds `-slow-`)
  locked     as plain to a request with HTTP basic auth alice:wonderland;
             401 to any other
  rawhref    its items are `lunch@cafe 100%.ics` (and, bumped, `two 50%.ics`,
             with one changed): the listing encodes hrefs, a sync report
             writes them raw (a widely deployed groupware server does), and
             a multiget answers 404 for an href that is not encoded
  cut507     bumped, two.ics and three.ics are added; a sync report from
             the first token gives two.ics only, cut by a 507 for the
             calendar itself (RFC 6578 3.6), with a token to go on from
  gap        bumped, a multiget leaves two.ics out of its answer

A GET of /t/... answers 405, as a WebDAV server does; a GET of
/webdav-page answers the page Nextcloud shows a browser there.

/log answers what was asked, one line a request: METHOD HOST PATH AUTH
(AUTH is `auth` when an Authorization header came). /inflight/NAME
answers how many of NAME's requests were ever in flight at once. It prints `http PORT`
and stops when its standard input ends, or after an hour.
"""
import base64
import html
import http.server
import os
import re
import socketserver
import sys
import threading
import time
import urllib.parse

import loopback

LOG = []
BUMPED = set()
# Requests in flight, and the most at once, by account name.
IN_FLIGHT = {}
MOST_IN_FLIGHT = {}
FLIGHT_LOCK = threading.Lock()


def item(uid, summary, day):
    return ("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//fault//EN\r\nBEGIN:VEVENT\r\n"
            f"UID:{uid}\r\nDTSTAMP:20250101T000000Z\r\nDTSTART:202503{day:02d}T100000Z\r\n"
            f"SUMMARY:{summary}\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n")


class Bulk:
    """The account /t/bulk-N-.../: N events, each answer's parts made once."""

    def __init__(self, base, count):
        self.count = count
        self.calendar = f"{base}/home/cal/"
        self.token = f"http://fault/sync/bulk/{count}"
        self.etags = {}    # href -> the response with its getetag, for listings and sync reports
        self.data = {}     # href -> the response with getetag and calendar-data, for multigets
        for i in range(count):
            href = f"{self.calendar}item{i:06d}.ics"
            day, hour = divmod(i, 10)
            text = ("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//fault//bulk//EN\r\nBEGIN:VEVENT\r\n"
                    f"UID:bulk-{i}@fault\r\nDTSTAMP:20250101T000000Z\r\n"
                    f"DTSTART:{2025 + day // 365 % 3}{1 + day % 365 // 31 % 12:02d}{1 + day % 28:02d}T{8 + hour:02d}0000Z\r\n"
                    "DURATION:PT45M\r\n"
                    f"SUMMARY:Bulk event {i}\r\nLOCATION:Room {i % 40}\r\n"
                    f"DESCRIPTION:Event {i} of {count}\\, made by caldav_fault_server.py for the bench.\r\n"
                    "END:VEVENT\r\nEND:VCALENDAR\r\n")
            etag = f'<d:getetag>"{i}-1"</d:getetag>'
            self.etags[href] = response(href, etag)
            self.data[href] = response(href, etag + f"<c:calendar-data>{text}</c:calendar-data>")
        self.listing = "".join(self.etags.values())

    def multiget(self, request):
        hrefs = (html.unescape(h) for h in re.findall(r"<(?:[\w-]+:)?href>([^<]*)</(?:[\w-]+:)?href>", request))
        return "".join(self.data.get(h, response(h, status="404 Not Found")) for h in hrefs)


BULK = {}
BULK_LOCK = threading.Lock()


def bulk(name, base):
    """The bulk account NAME (bulk-N-...), made on first use."""
    with BULK_LOCK:
        if name not in BULK:
            BULK[name] = Bulk(base, int(name.split("-")[1]))
        return BULK[name]


def response(href, props="", status=None):
    body = f"<d:response><d:href>{href}</d:href>"
    if status:
        body += f"<d:status>HTTP/1.1 {status}</d:status>"
    if props:
        body += f"<d:propstat><d:prop>{props}</d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat>"
    return body + "</d:response>"


def multistatus(inner, token=None):
    return ('<?xml version="1.0" encoding="utf-8"?>\n<d:multistatus xmlns:d="DAV:" '
            'xmlns:c="urn:ietf:params:xml:ns:caldav" xmlns:cs="http://calendarserver.org/ns/">'
            + inner + (f"<d:sync-token>{token}</d:sync-token>" if token else "") + "</d:multistatus>")


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def send(self, status, body, headers=(), length=None):
        data = body.encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/xml; charset=utf-8")
        self.send_header("Content-Length", str(length if length is not None else len(data)))
        for name, value in headers:
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)
        if length is not None:
            self.close_connection = True

    def do_GET(self):
        if self.path == "/log":
            return self.send(200, "\n".join(LOG) + "\n")
        if self.path.startswith("/inflight/"):
            return self.send(200, f"{MOST_IN_FLIGHT.get(self.path[len('/inflight/'):], 0)}\n")
        if self.path.startswith("/bump/"):
            BUMPED.add(self.path[len("/bump/"):])
            return self.send(200, "bumped\n")
        if self.path.startswith("/webdav-page"):
            # As Nextcloud's /remote.php/dav answers a browser.
            return self.send(200, "<html><body>This is the WebDAV interface. It can only be accessed by WebDAV clients.</body></html>")
        if self.path.startswith("/t/"):
            return self.send(405, "", [("Allow", "OPTIONS, PROPFIND, REPORT")])
        self.send(404, "")

    def do_PROPFIND(self):
        self.handle_dav()

    def do_REPORT(self):
        self.handle_dav()

    def handle_dav(self):
        parts = self.path.split("/")
        name = parts[2] if len(parts) > 2 else ""
        with FLIGHT_LOCK:
            IN_FLIGHT[name] = IN_FLIGHT.get(name, 0) + 1
            MOST_IN_FLIGHT[name] = max(MOST_IN_FLIGHT.get(name, 0), IN_FLIGHT[name])
        try:
            self.answer_dav()
        finally:
            with FLIGHT_LOCK:
                IN_FLIGHT[name] -= 1

    def answer_dav(self):
        length = int(self.headers.get("Content-Length") or 0)
        request = self.rfile.read(length).decode("utf-8", "replace")
        host = self.headers.get("Host", "")
        LOG.append(f"{self.command} {host.split(':')[0]} {self.path} {'auth' if self.headers.get('Authorization') else '-'}")
        if self.path.rstrip("/") == "/.well-known/caldav":
            return self.send(301, "", [("Location", "/t/plain-wellknown/")])
        parts = self.path.split("/")
        if len(parts) < 3 or parts[1] != "t":
            return self.send(404, "")
        name = parts[2]
        mode = name.split("-")[0]
        base = f"/t/{name}"
        rest = self.path[len(base):]
        port = self.server.server_address[1]
        bumped = name in BUMPED
        if mode == "locked" and self.headers.get("Authorization") != "Basic " + base64.b64encode(b"alice:wonderland").decode():
            return self.send(401, "", [("WWW-Authenticate", 'Basic realm="cal"')])
        if mode == "stall" and bumped:
            time.sleep(60)
        if mode == "bulk":
            return self.handle_bulk(bulk(name, base), base, rest, request)
        if mode == "rawhref":
            one, two = "lunch@cafe 100%.ics", "two 50%.ics"
            items = {one: item(f"one-{name}", f"Fault {mode} one" + (" moved" if bumped else ""), 3)}
            if bumped:
                items[two] = item(f"two-{name}", f"Fault {mode} two", 4)
        else:
            items = {"one.ics": item(f"one-{name}", f"Fault {mode} one", 3)}
            if bumped:
                items["two.ics"] = item(f"two-{name}", f"Fault {mode} two", 4)
            if bumped and mode == "cut507":
                items["three.ics"] = item(f"three-{name}", f"Fault {mode} three", 5)
        token = f"http://fault/sync/{name}/{len(items)}"
        # The listing's form of an href (encoded); a sync report's is raw in rawhref mode.
        listed = (lambda href: urllib.parse.quote(href)) if mode == "rawhref" else (lambda href: href)
        etag = lambda href: f'"{href}-{bumped}"' if mode == "rawhref" else f'"{href}"'  # noqa: E731
        if self.command == "PROPFIND" and rest in ("", "/") and mode == "nowhere":
            return self.send(404, "")
        if self.command == "PROPFIND" and rest in ("", "/") and mode == "moved":
            return self.send(301, "", [("Location", f"/t/plain-{name}/")])
        if self.command == "PROPFIND" and rest in ("", "/"):
            return self.send(207, multistatus(response(
                f"{base}/", f"<d:current-user-principal><d:href>{base}/principal/</d:href></d:current-user-principal>")))
        if self.command == "PROPFIND" and rest == "/principal/":
            home = f"http://localhost:{port}{base}/home/" if mode == "crosshost" else f"{base}/home/"
            return self.send(207, multistatus(response(
                f"{base}/principal/", f"<c:calendar-home-set><d:href>{home}</d:href></c:calendar-home-set>")))
        if self.command == "PROPFIND" and rest == "/home/":
            return self.send(207, multistatus(
                response(f"{base}/home/", "<d:resourcetype><d:collection/></d:resourcetype>")
                + response(f"{base}/home/cal/",
                           "<d:resourcetype><d:collection/><c:calendar/></d:resourcetype>"
                           f"<d:displayname>Fault {mode}</d:displayname><cs:getctag>{len(items)}</cs:getctag>"
                           f"<d:sync-token>{token}</d:sync-token>")))
        if self.command == "PROPFIND" and rest == "/home/cal/":
            inner = response(f"{base}/home/cal/", "<d:resourcetype><d:collection/><c:calendar/></d:resourcetype>")
            for href in items:
                inner += response(f"{base}/home/cal/{listed(href)}", f'<d:getetag>{etag(href)}</d:getetag>')
            return self.send(207, multistatus(inner))
        if self.command == "REPORT" and rest == "/home/cal/" and "sync-collection" in request:
            if mode == "badtoken":
                return self.send(403, '<?xml version="1.0"?><d:error xmlns:d="DAV:"><d:valid-sync-token/></d:error>')
            if mode == "full":
                return self.send(507, "")
            if mode == "cut507" and bumped and "/sync/" + name + "/page" not in request:
                inner = response(f"{base}/home/cal/two.ics", '<d:getetag>"two.ics"</d:getetag>')
                inner += response(f"{base}/home/cal/", status="507 Insufficient Storage")
                return self.send(207, multistatus(inner, f"http://fault/sync/{name}/page"))
            if mode == "cut507" and bumped:
                inner = response(f"{base}/home/cal/three.ics", '<d:getetag>"three.ics"</d:getetag>')
                return self.send(207, multistatus(inner, token))
            inner = "".join(response(f"{base}/home/cal/{href}", f'<d:getetag>{etag(href)}</d:getetag>') for href in items)
            return self.send(207, multistatus(inner, token))
        if self.command == "REPORT" and rest == "/home/cal/" and "calendar-multiget" in request:
            if mode == "xxe":
                body = ('<?xml version="1.0"?><!DOCTYPE d [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
                        '<d:multistatus xmlns:d="DAV:"><d:response><d:href>&x;</d:href></d:response></d:multistatus>')
                return self.send(207, body)
            inner = ""
            if mode == "rawhref":
                # As a strict server reads the request: an href that is not encoded names nothing.
                for asked in re.findall(r"<d:href>(.*?)</d:href>", request):
                    href = html.unescape(asked)
                    found = urllib.parse.unquote(href.rsplit("/", 1)[-1])
                    if " " in href or found not in items:
                        inner += response(html.escape(href), status="404 Not Found")
                        continue
                    inner += response(html.escape(href), f'<d:getetag>{etag(found)}</d:getetag>'
                                      f'<c:calendar-data>{items[found]}</c:calendar-data>')
                return self.send(207, multistatus(inner))
            for href, text in items.items():
                if f"{base}/home/cal/{href}" not in request:
                    continue
                if mode == "gap" and href == "two.ics":
                    continue
                one = response(f"{base}/home/cal/{href}",
                               f'<d:getetag>{etag(href)}</d:getetag><c:calendar-data>{text}</c:calendar-data>')
                inner += one + (one if mode == "dup" else "")
            body = multistatus(inner)
            if mode == "cut":
                return self.send(207, body[: len(body) // 2], length=len(body.encode()))
            return self.send(207, body)
        self.send(404, "")

    def handle_bulk(self, account, base, rest, request):
        """The bulk mode: as plain, one calendar of the account's N events."""
        if self.command == "PROPFIND" and rest in ("", "/"):
            return self.send(207, multistatus(response(
                f"{base}/", f"<d:current-user-principal><d:href>{base}/principal/</d:href></d:current-user-principal>")))
        if self.command == "PROPFIND" and rest == "/principal/":
            return self.send(207, multistatus(response(
                f"{base}/principal/", f"<c:calendar-home-set><d:href>{base}/home/</d:href></c:calendar-home-set>")))
        if self.command == "PROPFIND" and rest == "/home/":
            return self.send(207, multistatus(
                response(f"{base}/home/", "<d:resourcetype><d:collection/></d:resourcetype>")
                + response(account.calendar,
                           "<d:resourcetype><d:collection/><c:calendar/></d:resourcetype>"
                           f"<d:displayname>Bulk {account.count}</d:displayname><cs:getctag>{account.count}</cs:getctag>"
                           f"<d:sync-token>{account.token}</d:sync-token>")))
        if self.command == "PROPFIND" and rest == "/home/cal/":
            return self.send(207, multistatus(
                response(account.calendar, "<d:resourcetype><d:collection/><c:calendar/></d:resourcetype>")
                + account.listing))
        if self.command == "REPORT" and rest == "/home/cal/" and "sync-collection" in request:
            return self.send(207, multistatus(account.listing, account.token))
        if self.command == "REPORT" and rest == "/home/cal/" and "calendar-multiget" in request:
            if "-slow-" in base:
                time.sleep(0.1)  # long enough for requests sent at once to be in flight at once
            return self.send(207, multistatus(account.multiget(request)))
        self.send(404, "")


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    # A sync sends every multiget at once, each on a connection of its own
    # (200 for the bulk mode's 20,000 items): with socketserver's backlog
    # of 5 the kernel drops most of their SYNs, and the client's retries
    # wait seconds each.
    request_queue_size = 1024


def main():
    os.makedirs(sys.argv[1], exist_ok=True)
    server = Server(("127.0.0.1", 0), Handler)
    print(f"http {server.server_address[1]}", flush=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    loopback.serve_until_parent_goes(lambda: os._exit(0))


if __name__ == "__main__":
    main()
