#!/usr/bin/env python3
"""Split one iCalendar file into a vdir collection (`make bench`, the vdir row).

usage: genvdir.py IN.ics OUT_FOLDER [DISPLAYNAME]

Writes one file per UID, as vdirsyncer lays a collection out: the
components of that UID (a series with its overrides) wrapped in a
VCALENDAR of their own, with the VTIMEZONEs they name, under a file name
made from the UID; then `displayname` when one is given. The events are the
input's, so the folder and the file can be timed against each other.
"""
import hashlib
import os
import re
import sys


def blocks(text):
    """(kind, lines) of each top-level component inside the VCALENDAR."""
    out, current, depth, kind = [], [], 0, None
    for line in text.splitlines():
        if line.startswith("BEGIN:"):
            depth += 1
            if depth == 2:
                kind, current = line[6:], []
        if depth >= 2:
            current.append(line)
        if line.startswith("END:"):
            if depth == 2:
                out.append((kind, current))
            depth -= 1
    return out


def main(argv):
    source, folder = argv[1], argv[2]
    name = argv[3] if len(argv) > 3 else None
    with open(source, encoding="utf-8") as f:
        parts = blocks(f.read())
    zones = {}
    items = {}
    for kind, lines in parts:
        if kind == "VTIMEZONE":
            tzid = next(l[5:] for l in lines if l.startswith("TZID:"))
            zones[tzid] = lines
            continue
        uid = next((l[4:] for l in lines if l.startswith("UID:")), None)
        items.setdefault(uid, []).append(lines)
    os.makedirs(folder, exist_ok=True)
    for uid, components in items.items():
        used = [z for z in zones if any(re.search(rf"TZID={re.escape(z)}[:;]", l) for c in components for l in c)]
        out = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//ics-agenda//genvdir//EN"]
        for z in used:
            out += zones[z]
        for c in components:
            out += c
        out.append("END:VCALENDAR")
        file_name = hashlib.sha1(uid.encode()).hexdigest() + ".ics"
        with open(os.path.join(folder, file_name), "w", encoding="utf-8", newline="") as f:
            f.write("\r\n".join(out) + "\r\n")
    if name:
        with open(os.path.join(folder, "displayname"), "w", encoding="utf-8") as f:
            f.write(name + "\n")


if __name__ == "__main__":
    main(sys.argv)
