#!/usr/bin/env python3
"""Real calendar exports: quiet when valid, lossless when damaged, and right.

Runs ics-agenda on every file of ``Fixtures/real/`` (real exports from other
projects' repositories, listed with their origin and license in
``Fixtures/real/SOURCES.tsv``) and on the pattern fixtures named there
(small files that reproduce what a real export does, where the export's
license keeps it out of this repository), and checks, per file:

* exit status 0;
* stderr: no line at all for a file without damage; for a damaged one
  exactly the lines ``SOURCES.tsv`` expects (column ``warnings``: how many,
  at most one per kind of damage), each one line;
* occurrences: the same (uid, start, end) multiset as the reference oracle
  (``../shared/tools/oracle.py``, answers stored in
  ``Fixtures/real/oracle.jsonl`` by ``--regenerate``), over 2000-2027 in
  Europe/Berlin and America/New_York, or a difference of the kind the
  ``oracle`` column names (a cause documented in docs/CONFORMANCE.md).

Exit status 0 when every file passes, 1 otherwise.
"""
from __future__ import annotations

import argparse
import csv
import json
import os
import subprocess
import sys
import zoneinfo
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import conformance  # noqa: E402  (keys_of, sort_key: one comparison for both checks)

ROOT = Path(__file__).resolve().parent.parent
REAL = ROOT / "Fixtures" / "real"
SOURCES = REAL / "SOURCES.tsv"
STORED = REAL / "oracle.jsonl"
FIRST, LAST = "2000-01-01", "2027-12-31"
ZONES = ("Europe/Berlin", "America/New_York")


def load_sources():
    with SOURCES.open(encoding="utf-8") as f:
        rows = [r for r in csv.DictReader((line for line in f if not line.startswith("#")), delimiter="\t")]
    for r in rows:
        r["path"] = (REAL / r["file"]) if "/" not in r["file"] else (ROOT / r["file"])
    return rows


def run_ours(binary, path, zone):
    cmd = [str(binary), "--format", "json", "--now", f"{FIRST}T00:00:00Z", "--from", FIRST, "--to", LAST,
           "--tz", zone, "--show-cancelled", "--completed", str(path)]
    env = {k: v for k, v in os.environ.items() if k != "ICS_AGENDA_NOW"}
    proc = subprocess.run(cmd, capture_output=True, stdin=subprocess.DEVNULL, env=env, timeout=120)
    rows = []
    for line in proc.stdout.decode("utf-8", "replace").splitlines():
        o = json.loads(line)
        rows.append([o["uid"], o["start"], o["end"], o["status"]])
    return proc.returncode, proc.stderr.decode("utf-8", "replace"), rows


def regenerate(args, sources):
    out = []
    for r in sources:
        for zone in ZONES:
            cmd = [str(args.oracle_python), str(args.oracle), "--from", FIRST, "--to", LAST, "--tz", zone,
                   "--skip-bad", str(r["path"])]
            proc = subprocess.run(cmd, capture_output=True, stdin=subprocess.DEVNULL, timeout=600)
            rows = None
            if proc.returncode == 0:
                rows = []
                for line in proc.stdout.decode().splitlines():
                    o = json.loads(line)
                    rows.append([o["uid"], o["start"], o["end"], o["status"]])
            out.append({"file": r["file"], "zone": zone, "occ": rows,
                        "error": None if rows is not None else proc.stderr.decode().strip()[-200:]})
    with STORED.open("w", encoding="utf-8") as f:
        for o in out:
            f.write(json.dumps(o, ensure_ascii=False) + "\n")
    print(f"wrote {STORED.relative_to(ROOT)}: {len(out)} answers")


def check(args, sources):
    stored = {}
    if STORED.exists():
        for line in STORED.read_text(encoding="utf-8").splitlines():
            o = json.loads(line)
            stored[(o["file"], o["zone"])] = o
    failures, agreed, explained = [], 0, 0
    for r in sources:
        name = r["file"]
        expected_lines = int(r["warnings"] or 0)
        for zone in ZONES:
            status, err, rows = run_ours(args.binary, r["path"], zone)
            lines = [l for l in err.splitlines() if l]
            if status != 0:
                failures.append(f"{name} ({zone}): exit {status}: {lines[-1] if lines else ''}")
            if len(lines) != expected_lines:
                failures.append(f"{name} ({zone}): {len(lines)} warning lines, {expected_lines} expected: {lines[:3]}")
            kinds = [l.split(": ", 3)[-1] for l in lines]
            if len(set(kinds)) != len(kinds):
                failures.append(f"{name} ({zone}): a kind of damage told twice")
            answer = stored.get((name, zone))
            if answer is None or answer["occ"] is None:
                if r["oracle"] != "no answer":
                    failures.append(f"{name} ({zone}): no stored oracle answer (run --regenerate)")
                continue
            z = zoneinfo.ZoneInfo(zone)
            ours = conformance.keys_of(rows, FIRST, LAST, z)
            theirs = conformance.keys_of(answer["occ"], FIRST, LAST, z)
            if ours == theirs:
                agreed += 1
                if r["oracle"] != "agrees":
                    failures.append(f"{name} ({zone}): agrees with the oracle, but SOURCES.tsv names a difference")
                continue
            if r["oracle"] == "agrees":
                only_ours = sorted((ours - theirs).elements(), key=conformance.sort_key)[:2]
                only_theirs = sorted((theirs - ours).elements(), key=conformance.sort_key)[:2]
                failures.append(f"{name} ({zone}): differs from the oracle: only ours {only_ours}, only the oracle {only_theirs}")
            else:
                explained += 1
    total = len(sources) * len(ZONES)
    print(f"real calendars: {len(sources)} files x {len(ZONES)} zones: {agreed} agree with the oracle, "
          f"{explained} differ for a documented cause")
    for f in failures:
        print(f"FAIL {f}")
    failed = len({f.split(")")[0] for f in failures})
    print(f"{total - failed} passed, {failed} failed")
    return 1 if failures else 0


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--binary", type=Path, default=ROOT / ".build" / "debug" / "ics-agenda")
    p.add_argument("--regenerate", action="store_true", help="run the oracle and store its answers")
    p.add_argument("--oracle", type=Path, default=conformance.DEFAULT_ORACLE)
    p.add_argument("--oracle-python", type=Path, default=conformance.DEFAULT_ORACLE_PYTHON)
    args = p.parse_args(argv)
    sources = load_sources()
    if args.regenerate:
        regenerate(args, sources)
        return 0
    return check(args, sources)


if __name__ == "__main__":
    sys.exit(main())
