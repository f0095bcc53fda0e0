#!/usr/bin/env python3
"""Radicale (a real CalDAV server) on loopback, for the subscription tests.

usage: radicale_server.py FOLDER DISPLAYNAME FILE.ics ...

Makes a storage in FOLDER with one calendar collection, /alice/work/, named
DISPLAYNAME and holding the given files, and a user alice (password
wonderland, HTTP basic auth; the collection is hers alone); starts
Radicale on a free port of 127.0.0.1 with the Python that runs this
script (make test puts Radicale in .venv-servers), waits until it
answers, and prints one line, `http PORT`. It stops Radicale, and itself,
when its standard input ends (the test process that started it has gone)
or after an hour.
"""
import json
import os
import shutil
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


def main():
    folder, name, files = sys.argv[1], sys.argv[2], sys.argv[3:]
    collection = os.path.join(folder, "store", "collection-root", "alice", "work")
    os.makedirs(collection, exist_ok=True)
    with open(os.path.join(collection, ".Radicale.props"), "w") as f:
        json.dump({"tag": "VCALENDAR", "D:displayname": name, "C:supported-calendar-component-set": "VEVENT,VTODO"}, f)
    for path in files:
        shutil.copy(path, os.path.join(collection, os.path.basename(path)))
    users = os.path.join(folder, "users")
    with open(users, "w") as f:
        f.write("alice:wonderland\n")
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "radicale", "--config", "", "--server-hosts", f"127.0.0.1:{port}",
         "--storage-filesystem-folder", os.path.join(folder, "store"), "--auth-type", "htpasswd",
         "--auth-htpasswd-filename", users, "--auth-htpasswd-encryption", "plain", "--rights-type", "owner_only",
         "--logging-level", "warning"],
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
    loopback.serve_until_parent_goes(stop)


if __name__ == "__main__":
    main()
