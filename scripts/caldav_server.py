#!/usr/bin/env python3
"""Radicale (a real CalDAV server) on loopback, for the CalDAV account tests.

usage: caldav_server.py FOLDER SPEC

SPEC is JSON: {"user": "alice", "password": "...", "calendars": [{"path":
"work", "displayname": "Work", "color": "#ff0000ff", "components": "VEVENT"},
...], "server": "radicale"}. Makes a storage in FOLDER with those empty calendar collections under
/USER/ (the test puts its items with plain HTTP PUTs), a user with that
password (HTTP basic auth, owner only), starts Radicale on a free port of
127.0.0.1 with the Python that runs this script (.venv-servers), logging
each request to FOLDER/radicale.log (the tests count them), waits until it
answers and prints one line, `http PORT`. It stops Radicale, and itself,
when its standard input ends (the test that started it is done or has
gone) or after an hour.

With "server": "xandikos", Xandikos (a second real CalDAV server, from
.venv-servers too) is started instead, on FOLDER/data with USER's
principal at /USER/ and its default calendar at /USER/calendars/calendar/;
each calendar of SPEC is made with MKCALENDAR at /USER/calendars/PATH/
(displayname, calendar-color, components). Xandikos has no logins: the
password is not asked for. Its log is FOLDER/xandikos.log.
"""
import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request

import loopback


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def mkcalendar(port, user, calendar):
    """MKCALENDAR of one calendar of SPEC on Xandikos; stops on failure."""
    props = ""
    if "displayname" in calendar:
        props += f"<D:displayname>{calendar['displayname']}</D:displayname>"
    if "color" in calendar:
        props += f"<I:calendar-color>{calendar['color']}</I:calendar-color>"
    comps = "".join(f'<C:comp name="{c}"/>' for c in calendar.get("components", "VEVENT,VTODO").split(","))
    props += f"<C:supported-calendar-component-set>{comps}</C:supported-calendar-component-set>"
    body = ('<?xml version="1.0" encoding="utf-8"?><C:mkcalendar xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav" '
            f'xmlns:I="http://apple.com/ns/ical/"><D:set><D:prop>{props}</D:prop></D:set></C:mkcalendar>')
    path = urllib.request.quote(f"/{user}/calendars/{calendar['path']}/")
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=body.encode(), method="MKCALENDAR",
                                     headers={"Content-Type": "application/xml; charset=utf-8"})
    urllib.request.urlopen(request, timeout=10)


def start_xandikos(folder, spec, port):
    """Xandikos on PORT, serving FOLDER/data."""
    return subprocess.Popen(
        [sys.executable, "-m", "xandikos", "serve", "--defaults", "-d", os.path.join(folder, "data"), "--state-dir", os.path.join(folder, "state"),
         "--current-user-principal", f"/{spec['user']}/", "-l", "127.0.0.1", "-p", str(port), "--no-detect-systemd"],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=open(os.path.join(folder, "xandikos.log"), "w"))


def main():
    folder, spec = sys.argv[1], json.loads(sys.argv[2])
    if spec.get("server") == "xandikos":
        return serve(spec, start_xandikos(folder, spec, port := free_port()), port)
    user = spec["user"]
    for calendar in spec["calendars"]:
        collection = os.path.join(folder, "store", "collection-root", user, calendar["path"])
        os.makedirs(collection, exist_ok=True)
        props = {"tag": "VCALENDAR", "C:supported-calendar-component-set": calendar.get("components", "VEVENT,VTODO")}
        if "displayname" in calendar:
            props["D:displayname"] = calendar["displayname"]
        if "color" in calendar:
            props["ICAL:calendar-color"] = calendar["color"]
        with open(os.path.join(collection, ".Radicale.props"), "w") as f:
            json.dump(props, f)
    users = os.path.join(folder, "users")
    with open(users, "w") as f:
        f.write(f"{user}:{spec['password']}\n")
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "radicale", "--config", "", "--server-hosts", f"127.0.0.1:{port}",
         "--storage-filesystem-folder", os.path.join(folder, "store"), "--auth-type", "htpasswd",
         "--auth-htpasswd-filename", users, "--auth-htpasswd-encryption", "plain", "--rights-type", "owner_only",
         "--logging-level", "info"],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=open(os.path.join(folder, "radicale.log"), "w"))
    serve(spec, server, port)


def serve(spec, server, port):
    """Waits until SERVER answers on PORT, says so, and stops it when standard input ends."""
    def stop(*_):
        server.kill()
        os._exit(0)

    deadline = time.time() + 30
    while True:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2)
            break
        except urllib.error.HTTPError:
            break  # it answers (401 without a login)
        except OSError:
            if server.poll() is not None or time.time() > deadline:
                print(f"{spec.get('server', 'radicale')} did not start", file=sys.stderr)
                stop()
            time.sleep(0.1)
    if spec.get("server") == "xandikos":
        for calendar in spec["calendars"]:
            try:
                mkcalendar(port, spec["user"], calendar)
            except OSError as e:
                print(f"xandikos: MKCALENDAR {calendar['path']}: {e}", file=sys.stderr)
                stop()
    print(f"http {port}", flush=True)
    loopback.serve_until_parent_goes(stop)


if __name__ == "__main__":
    main()
