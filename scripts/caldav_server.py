#!/usr/bin/env python3
"""Radicale (a real CalDAV server) on loopback, for the CalDAV account tests.

usage: caldav_server.py FOLDER SPEC

SPEC is JSON: {"user": "alice", "password": "...", "calendars": [{"path":
"work", "displayname": "Work", "color": "#ff0000ff", "components": "VEVENT"},
...]}. Makes a storage in FOLDER with those empty calendar collections under
/USER/ (the test puts its items with plain HTTP PUTs), a user with that
password (HTTP basic auth, owner only), starts Radicale on a free port of
127.0.0.1 with the Python that runs this script (.venv-servers), logging
each request to FOLDER/radicale.log (the tests count them), waits until it
answers and prints one line, `http PORT`. It stops Radicale, and itself,
when its standard input ends (the test that started it is done or has
gone) or after 20 minutes.
"""
import json
import os
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def main():
    folder, spec = sys.argv[1], json.loads(sys.argv[2])
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
                print("radicale did not start", file=sys.stderr)
                stop()
            time.sleep(0.1)
    print(f"http {port}", flush=True)
    threading.Thread(target=lambda: (sys.stdin.read(), stop()), daemon=True).start()
    time.sleep(20 * 60)
    stop()


if __name__ == "__main__":
    main()
