#!/usr/bin/env python3
"""Window independence: the agenda of a day does not depend on the window.

For every corpus file (``../shared/corpus``) and every fixture
(``Fixtures/*.ics``), ics-agenda is run once over a wide window (the file's
own year from ``ORACLE-RESULTS.tsv``, else the year of its first DTSTART)
and then over several random sub-windows inside it. Each sub-window's agenda
must equal the rows of the wide agenda that touch its days, with ``day``
moved to the sub-window's first day where the occurrence began before it.
This is what the prefilter (events skipped unparsed), the expansion budgets,
the restart of old rules near the window and RANGE=THISANDFUTURE (instances
moved across the window's edge) must all keep.

Compared: every JSON key but ``overlaps`` and ``overlap_count`` (they name and
count the *listed* occurrences an occurrence overlaps, so one outside a short
window is rightly missing).
The clock is set to 1970 so that no reminder is overdue (an overdue one is
listed under today, which a window may not hold). A file whose wide run cut
a series (the contract's 100,000 rows a component, or a file's row budget)
is not compared: the cut depends on the window by design (docs/CONFORMANCE.md,
D1); the report counts them.

Deterministic: the sub-windows come from ``--seed`` (default 15) and each
file's path, so a failure repeats. By default every file is checked; CI
checks every fixture and ``--sample N`` corpus files drawn with the seed
(``make check-all`` checks them all). About 4 runs of ics-agenda a file.

Exit status: 0 when every sub-window agrees, 1 otherwise, 2 on a usage error.
"""
from __future__ import annotations

import argparse
import concurrent.futures as cf
import datetime as dt
import hashlib
import json
import os
import random
import re
import subprocess
import sys
import zoneinfo
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_CORPUS = ROOT.parent / "shared" / "corpus"
ZONES = ["Europe/Berlin", "America/New_York", "Pacific/Auckland"]
# The runs' clock is 1970-01-01T00:00:00Z: today, in each display zone.
TODAY = {z: dt.datetime(1970, 1, 1, tzinfo=dt.timezone.utc).astimezone(zoneinfo.ZoneInfo(z)).date() for z in ZONES}
# Warnings that say a series was cut: what is listed then depends on the window by design.
CUT_WORDS = ("only the first", "expanding the rule stopped", "rows beyond one a day")
DTSTART_YEAR = re.compile(rb"^DTSTART[^:\n]*:(\d{4})", re.M | re.I)


def own_windows(corpus):
    path = corpus / "ORACLE-RESULTS.tsv"
    windows = {}
    if not path.exists():
        return windows
    with open(path, encoding="utf-8") as f:
        header = f.readline().rstrip("\n").split("\t")
        col = {name: i for i, name in enumerate(header)}
        for line in f:
            cells = line.rstrip("\n").split("\t")
            if len(cells) >= len(header) and cells[col["own_window"]] == "ok":
                windows[cells[col["file"]]] = (cells[col["own_window_from"]], cells[col["own_window_to"]])
    return windows


def wide_window(path, own):
    if own:
        return dt.date.fromisoformat(own[0]), dt.date.fromisoformat(own[1])
    try:
        m = DTSTART_YEAR.search(path.read_bytes())
    except OSError:
        m = None
    year = int(m.group(1)) if m and 1900 <= int(m.group(1)) <= 2100 else 2025
    return dt.date(year, 1, 1), dt.date(year, 12, 31)


def run(binary, path, first, last, zone, timeout):
    cmd = [str(binary), "--format", "json", "--now", "1970-01-01T00:00:00Z", "--from", first.isoformat(),
           "--to", last.isoformat(), "--tz", zone, "--show-cancelled", "--completed", str(path)]
    env = {k: v for k, v in os.environ.items() if k != "ICS_AGENDA_NOW"}
    try:
        proc = subprocess.run(cmd, capture_output=True, timeout=timeout, stdin=subprocess.DEVNULL, env=env)
    except subprocess.TimeoutExpired:
        return None, "timeout", None
    rows = []
    for line in proc.stdout.decode("utf-8", "replace").splitlines():
        if line.strip():
            try:
                rows.append(json.loads(line))
            except json.JSONDecodeError:
                return None, "a line that is not JSON", proc.returncode
    return rows, proc.stderr.decode("utf-8", "replace"), proc.returncode


def local_date(value):
    try:
        return dt.date.fromisoformat(value[:10])
    except ValueError:  # a year past 9999 (a mistyped date): as far off as can be
        return dt.date.max if not value.startswith("-") else dt.date.min


def days_touched(row):
    """First and last day (display zone) under which an occurrence is listed."""
    if row.get("kind") == "reminder" or row.get("start") is None:
        day = row.get("day")
        return (None, None) if day is None else (dt.date.fromisoformat(day),) * 2
    start, end = row["start"], row.get("end") or row["start"]
    first = local_date(start)
    if row.get("all_day"):
        last = max(local_date(end) - dt.timedelta(days=1), first)
    elif end == start:
        last = first
    else:
        last = local_date(end)
        if end[11:19] == "00:00:00":
            last -= dt.timedelta(days=1)
        last = max(last, first)
    return first, last


def key(row):
    row = dict(row)
    row.pop("overlaps", None)
    row.pop("overlap_count", None)
    return json.dumps(row, sort_keys=True, ensure_ascii=False)


def expected(wide_rows, first, last, today):
    """What a sub-window first..last lists of the wide run's rows. An undated
    reminder is listed only by a window that holds today (like an overdue one)."""
    out = Counter()
    for row in wide_rows:
        a, b = days_touched(row)
        if a is None:
            if first <= today <= last:
                out[key(row)] += 1
            continue
        if b < first or a > last:
            continue
        row = dict(row)
        if row.get("day") is not None and row.get("kind") != "reminder":
            row["day"] = max(a, first).isoformat()
        out[key(row)] += 1
    return out


def sub_windows(rng, first, last, count):
    span = (last - first).days
    out = []
    for _ in range(count):
        length = rng.choice([1, 1, 2, 3, 7, 14, 31])
        length = min(length, span + 1)
        offset = rng.randint(0, span + 1 - length)
        a = first + dt.timedelta(days=offset)
        out.append((a, a + dt.timedelta(days=length - 1)))
    return out


def check_file(args, path, label, own):
    seed = int(hashlib.sha256(f"{args.seed}:{label}".encode()).hexdigest()[:12], 16)
    rng = random.Random(seed)
    zone = ZONES[seed % len(ZONES)]
    first, last = wide_window(path, own)
    rows, err, status = run(args.binary, path, first, last, zone, args.timeout)
    if rows is None or status == 64:
        return {"file": label, "state": "error", "detail": f"wide run: {err}"}
    if any(w in err for w in CUT_WORDS):
        return {"file": label, "state": "cut"}
    problems = []
    for a, b in sub_windows(rng, first, last, args.windows):
        sub, err2, status2 = run(args.binary, path, a, b, zone, args.timeout)
        if sub is None or status2 != status:
            problems.append(f"{a}..{b}: {err2}")
            continue
        want, got = expected(rows, a, b, TODAY[zone]), Counter(key(r) for r in sub)
        if want != got:
            missing, extra = list((want - got).elements()), list((got - want).elements())
            detail = f"{a}..{b} in {zone} (wide {first}..{last}): {len(missing)} missing, {len(extra)} extra"
            for text in (missing[:2] + extra[:2]):
                detail += "\n      " + ("missing " if text in missing else "extra   ") + text[:300]
            problems.append(detail)
    if problems:
        return {"file": label, "state": "differs", "detail": "\n    ".join(problems)}
    return {"file": label, "state": "ok", "rows": len(rows)}


def guarded(args, path, label, own):
    try:
        return check_file(args, path, label, own)
    except Exception as error:  # noqa: BLE001 - one file's failure is reported, the rest still run
        return {"file": label, "state": "error", "detail": f"{type(error).__name__}: {error}"}


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter,
                                epilog=__doc__.split("\n\n", 1)[1])
    p.add_argument("--binary", type=Path, default=ROOT / ".build" / "debug" / "ics-agenda")
    p.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    p.add_argument("--seed", type=int, default=15)
    p.add_argument("--windows", type=int, default=3, help="sub-windows per file (default 3)")
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--timeout", type=float, default=30.0)
    p.add_argument("--only", action="append", default=[], metavar="SUBSTRING")
    p.add_argument("--sample", type=int, default=0, metavar="N",
                   help="every fixture, and N corpus files drawn with --seed (CI's budget); default: every file")
    args = p.parse_args(argv)
    args.binary = args.binary.resolve()
    if not os.access(args.binary, os.X_OK):
        p.error(f"binary not found: {args.binary}")
    own = own_windows(args.corpus)
    files = [(path, f"Fixtures/{path.name}", None) for path in sorted((ROOT / "Fixtures").glob("*.ics"))]
    if args.corpus.is_dir():
        for path in sorted(args.corpus.rglob("*")):
            if path.is_file() and path.suffix.lower() in (".ics", ".ical"):
                rel = str(path.relative_to(args.corpus))
                files.append((path, rel, own.get(rel)))
    else:
        print(f"window-independence: no corpus at {args.corpus}; fixtures only", file=sys.stderr)
    if args.only:
        files = [f for f in files if any(s in f[1] for s in args.only)]
    if args.sample:
        fixtures = [f for f in files if f[1].startswith("Fixtures/")]
        corpus = [f for f in files if not f[1].startswith("Fixtures/")]
        files = fixtures + sorted(random.Random(args.seed).sample(corpus, min(args.sample, len(corpus))), key=lambda f: f[1])
        print(f"window-independence: every fixture and {min(args.sample, len(corpus))} of {len(corpus)} corpus files "
              f"(seed {args.seed}; make check-all reads them all)")
    started = time.time()
    with cf.ThreadPoolExecutor(args.jobs) as pool:
        results = list(pool.map(lambda f: guarded(args, *f), files))
    states = Counter(r["state"] for r in results)
    for r in results:
        if r["state"] in ("differs", "error"):
            print(f"  {r['state']}: {r['file']}\n    {r['detail']}")
    print(f"window-independence: {len(results)} files, {args.windows} sub-windows each (seed {args.seed}): "
          f"{states['ok']} agree, {states['cut']} cut by a budget (not compared), "
          f"{states['differs']} differ, {states['error']} failed, in {time.time() - started:.0f} s")
    return 1 if states["differs"] or states["error"] else 0


if __name__ == "__main__":
    sys.exit(main())
