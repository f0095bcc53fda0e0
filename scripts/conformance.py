#!/usr/bin/env python3
"""Differential conformance check of ics-agenda against the reference oracle.

For every corpus file whose "own window" the oracle could expand (column
``own_window`` = ``ok`` in ``ORACLE-RESULTS.tsv``), the agenda printed by
ics-agenda is compared with the occurrences listed by
``shared/tools/oracle.py`` in four configurations:

* ``own-berlin``, ``own-new-york``, ``own-auckland``: the file's own window
  (``own_window_from`` .. ``own_window_to``) in Europe/Berlin,
  America/New_York and Pacific/Auckland;
* ``fixed-berlin``: 2025-01-01 .. 2026-12-31 in Europe/Berlin.

The oracle is *not* run during a normal check: its answers are generated once
with ``--regenerate`` and kept, gzip-compressed, under ``conformance/``
(one ``oracle-<configuration>.jsonl.gz`` per configuration). Only the standard
library is needed for a check, so it runs anywhere ``python3`` does.

What is compared, per file: the multiset of (uid, start, end) of the
occurrences whose own [start, end] touches the window
``[from 00:00, day after to 00:00)`` in the zone (the oracle's rule: a
zero-length occurrence counts when its start is inside), with cancelled
occurrences (STATUS:CANCELLED) dropped on both sides. Timed values are
compared as wall time plus UTC offset in the display zone; all-day values as
dates. A file *agrees* when the two multisets are equal.

Exit status: 0, or 1 when the agreement of any configuration falls below
``--min-agreement`` (a percentage; default 0: report only), or 2 on a usage
or set-up error.
"""
from __future__ import annotations

import argparse
import concurrent.futures as cf
import datetime as dt
import gzip
import hashlib
import json
import os
import re
import subprocess
import sys
import time
import zoneinfo
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_CORPUS = ROOT.parent / "shared" / "corpus"
DEFAULT_ORACLE = ROOT.parent / "shared" / "tools" / "oracle.py"
DEFAULT_ORACLE_PYTHON = ROOT / ".venv-oracle" / "bin" / "python"
DEFAULT_DATA = ROOT / "conformance"

FIXED_FROM, FIXED_TO = "2025-01-01", "2026-12-31"

# name -> (zone, window): window "own" uses the file's own window from the TSV.
CONFIGS = {
    "own-berlin": ("Europe/Berlin", "own"),
    "own-new-york": ("America/New_York", "own"),
    "own-auckland": ("Pacific/Auckland", "own"),
    "fixed-berlin": ("Europe/Berlin", (FIXED_FROM, FIXED_TO)),
}

# Oracle answers with more occurrences than this are stored as count + hash.
DEFAULT_MAX_STORED = 2000


# --------------------------------------------------------------------------
# Normalisation shared by both sides


def canon(value, zone):
    """Canonical text of a start/end value.

    Dates stay as they are; a date-time becomes its instant printed in the
    display zone (floating ones are read in that zone), so that two spellings
    of one instant compare equal (Python prints a wall time inside a DST gap
    as e.g. 02:00+01:00, which is 03:00+02:00).
    """
    if value is None:
        return None
    if len(value) <= 10:
        return value
    try:
        parsed = dt.datetime.fromisoformat(value)
    except ValueError:
        return value
    if parsed.tzinfo is None:
        parsed = parsed.replace(tzinfo=zone)
    return parsed.astimezone(zone).isoformat()


def instant(value, zone):
    """A comparable aware datetime (dates are local midnight in zone)."""
    if len(value) <= 10:
        return dt.datetime.combine(dt.date.fromisoformat(value), dt.time(), zone)
    parsed = dt.datetime.fromisoformat(value)
    if parsed.tzinfo is None:
        parsed = parsed.replace(tzinfo=zone)
    return parsed


def window_bounds(first, last, zone):
    start = dt.datetime.combine(dt.date.fromisoformat(first), dt.time(), zone)
    stop = dt.datetime.combine(dt.date.fromisoformat(last) + dt.timedelta(days=1), dt.time(), zone)
    return start, stop


def touches(start, end, win_start, win_stop, zone):
    """The oracle's overlap rule (recurring-ical-events' span test)."""
    try:
        a = instant(start, zone)
        b = instant(end, zone) if end is not None else a
    except ValueError:
        return True  # unparseable: keep it, it will show up as a difference
    if a == b:
        return win_start <= a < win_stop
    return a < win_stop and win_start < b


def is_cancelled(status):
    return status is not None and str(status).strip().upper() == "CANCELLED"


def keys_of(rows, first, last, zone):
    """Counter of (uid, start, end) for rows [uid, start, end, status]."""
    win_start, win_stop = window_bounds(first, last, zone)
    keys = Counter()
    for uid, start, end, status in rows:
        if start is None or is_cancelled(status):
            continue
        if not touches(start, end, win_start, win_stop, zone):
            continue
        keys[(uid, canon(start, zone), canon(end, zone))] += 1
    return keys


def digest(keys):
    """Order-independent hash of a multiset of keys."""
    h = hashlib.sha256()
    for key in sorted(keys.elements(), key=sort_key):
        h.update(json.dumps(key, ensure_ascii=False).encode())
        h.update(b"\n")
    return h.hexdigest()[:32]


def buckets(keys):
    """Per month of start: [count, short hash], to localise a difference in a hashed answer."""
    months = {}
    for key, n in keys.items():
        months.setdefault((key[1] or "")[:7], Counter())[key] += n
    return {m: [sum(c.values()), digest(c)[:8]] for m, c in sorted(months.items())}


def sort_key(key):
    uid, start, end = key
    return (start or "", uid or "", end or "")


# --------------------------------------------------------------------------
# Corpus and windows


def read_results(corpus):
    """Files with own_window ok, with their own window, from ORACLE-RESULTS.tsv."""
    path = corpus / "ORACLE-RESULTS.tsv"
    files = []
    with open(path, encoding="utf-8") as f:
        header = f.readline().rstrip("\n").split("\t")
        col = {name: i for i, name in enumerate(header)}
        for line in f:
            cells = line.rstrip("\n").split("\t")
            if len(cells) < len(header):
                cells += [""] * (len(header) - len(cells))
            if cells[col["own_window"]] != "ok":
                continue
            files.append((cells[col["file"]], cells[col["own_window_from"]],
                          cells[col["own_window_to"]]))
    return files


def window_for(config, own_from, own_to):
    _zone, window = CONFIGS[config]
    return (own_from, own_to) if window == "own" else window


# --------------------------------------------------------------------------
# Oracle side (only with --regenerate)


def run_oracle(args, path, first, last, zone_name):
    """Run the oracle strictly, then with --skip-bad. Returns a record dict."""
    record = {"file": path, "from": first, "to": last}
    base = [str(args.oracle_python), str(args.oracle), "--from", first, "--to", last,
            "--tz", zone_name]
    env = dict(os.environ)
    errors = []
    for mode, extra in (("strict", []), ("skip-bad", ["--skip-bad"])):
        try:
            proc = subprocess.run(base + extra + [str(args.corpus / path)],
                                  capture_output=True, timeout=args.oracle_timeout,
                                  stdin=subprocess.DEVNULL, env=env)
        except subprocess.TimeoutExpired:
            record.update(mode="excluded", reason=f"oracle timeout after {args.oracle_timeout:g} s")
            return record
        if proc.returncode == 0:
            rows = []
            for line in proc.stdout.decode("utf-8", "replace").splitlines():
                if line.strip():
                    o = json.loads(line)
                    rows.append([o["uid"], o["start"], o["end"], o["status"]])
            record["mode"] = mode
            if errors:
                record["reason"] = errors[0]
            zone = zoneinfo.ZoneInfo(zone_name)
            if len(rows) > args.max_stored:
                keys = keys_of(rows, first, last, zone)
                record.update(count=sum(keys.values()), sha=digest(keys), months=buckets(keys))
            else:
                record["occ"] = rows
            return record
        errors.append(proc.stderr.decode("utf-8", "replace").strip().splitlines()[-1:][0]
                      if proc.stderr.strip() else f"exit {proc.returncode}")
    record.update(mode="excluded", reason="; ".join(errors))
    return record


def regenerate(args, files):
    args.data.mkdir(parents=True, exist_ok=True)
    for config in args.configs:
        zone_name = CONFIGS[config][0]
        started = time.time()
        jobs = [(path, *window_for(config, f, t)) for path, f, t in files]
        with cf.ThreadPoolExecutor(args.jobs) as pool:
            records = list(pool.map(lambda j: run_oracle(args, j[0], j[1], j[2], zone_name), jobs))
        out = args.data / f"oracle-{config}.jsonl.gz"
        if args.only and out.exists():  # partial regeneration: keep the other files' answers
            _old_header, old = load_expected(args, config)
            fresh = {r["file"] for r in records}
            records += [r for path, r in old.items() if path not in fresh]
        header = {"config": config, "zone": zone_name,
                  "window": CONFIGS[config][1] if CONFIGS[config][1] == "own" else list(CONFIGS[config][1]),
                  "generated": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"),
                  "oracle_versions": oracle_versions(args),
                  "tz_path": "default zoneinfo search path (system tzdata; PYTHONTZPATH unset)",
                  "max_stored": args.max_stored}
        with gzip.open(out, "wt", encoding="utf-8", compresslevel=9) as f:
            f.write(json.dumps(header, ensure_ascii=False) + "\n")
            for record in sorted(records, key=lambda r: r["file"]):
                f.write(json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n")
        modes = Counter(r["mode"] for r in records)
        print(f"{config}: {dict(modes)} in {time.time() - started:.0f} s -> {out} "
              f"({out.stat().st_size // 1024} KiB)", file=sys.stderr)


def oracle_versions(args):
    code = ("import importlib.metadata as m;print(' '.join(p+'=='+m.version(p) for p in "
            "('icalendar','recurring-ical-events','x-wr-timezone','tzdata')))")
    try:
        return subprocess.run([str(args.oracle_python), "-c", code], capture_output=True,
                              text=True, timeout=60).stdout.strip()
    except Exception:  # noqa: BLE001 - informative only
        return "unknown"


def load_expected(args, config):
    path = args.data / f"oracle-{config}.jsonl.gz"
    if not path.exists():
        sys.exit(f"conformance: {path} missing; run with --regenerate first")
    with gzip.open(path, "rt", encoding="utf-8") as f:
        header = json.loads(f.readline())
        records = {}
        for line in f:
            r = json.loads(line)
            records[r["file"]] = r
    return header, records


# --------------------------------------------------------------------------
# Our side


def run_ours(args, path, first, last, zone_name):
    """Run ics-agenda; return (rows, problem) where problem is None or text."""
    cmd = [str(args.binary), "--format", "json", "--now", f"{first}T00:00:00Z",
           "--from", first, "--to", last, "--tz", zone_name, "--show-cancelled",
           "--completed", str(args.corpus / path)]
    env = dict(os.environ)
    env.pop("ICS_AGENDA_NOW", None)
    env["ICS_AGENDA_CONFIG"] = "/dev/null"  # never the developer's own configuration
    try:
        proc = subprocess.run(cmd, capture_output=True, timeout=args.timeout,
                              stdin=subprocess.DEVNULL, env=env)
    except subprocess.TimeoutExpired:
        return None, f"ours timed out after {args.timeout:g} s"
    rows, problem = [], None
    for line in proc.stdout.decode("utf-8", "replace").splitlines():
        if not line.strip():
            continue
        try:
            o = json.loads(line)
        except json.JSONDecodeError:
            problem = "ours printed a line that is not JSON"
            continue
        rows.append([o.get("uid"), o.get("start"), o.get("end"), o.get("status")])
    if proc.returncode != 0:
        err = proc.stderr.decode("utf-8", "replace").strip().splitlines()
        problem = f"ours exit {proc.returncode}" + (f": {err[-1][:120]}" if err else "")
    return rows, problem


def compare_one(args, config, record):
    zone_name = CONFIGS[config][0]
    zone = zoneinfo.ZoneInfo(zone_name)
    first, last = record["from"], record["to"]
    rows, problem = run_ours(args, record["file"], first, last, zone_name)
    result = {"file": record["file"], "from": first, "to": last, "problem": problem,
              "oracle_mode": record["mode"]}
    if rows is None:
        result.update(agree=False, ours=None, theirs=record.get("count", None))
        if "occ" in record:
            result["theirs"] = sum(keys_of(record["occ"], first, last, zone).values())
        result["summary"] = problem
        return result
    ours = keys_of(rows, first, last, zone)
    n_ours = sum(ours.values())
    if "occ" in record:
        theirs = keys_of(record["occ"], first, last, zone)
        n_theirs = sum(theirs.values())
        only_ours, only_theirs = ours - theirs, theirs - ours
        agree = not only_ours and not only_theirs
        result.update(agree=agree, ours=n_ours, theirs=n_theirs)
        if not agree:
            result["only_ours"] = [list(k) for k in sorted(only_ours.elements(), key=sort_key)]
            result["only_theirs"] = [list(k) for k in sorted(only_theirs.elements(), key=sort_key)]
            result["summary"] = describe(result, problem)
    else:
        agree = digest(ours) == record["sha"]
        result.update(agree=agree, ours=n_ours, theirs=record["count"], hashed=True)
        if not agree:
            mine, theirs_months = buckets(ours), record.get("months", {})
            first = next((m for m in sorted(set(mine) | set(theirs_months))
                          if mine.get(m) != theirs_months.get(m)), None)
            where = ""
            if first is not None:
                where = (f"; first differing month {first}: ours {mine.get(first, [0])[0]} / "
                         f"oracle {theirs_months.get(first, [0])[0]}")
            result["summary"] = (f"ours {n_ours} / oracle {record['count']} (oracle answer stored "
                                 f"as per-month hashes){where}" + (f"; {problem}" if problem else ""))
    return result


def fmt_key(key):
    uid, start, end = key
    if uid is None:
        uid = "(UID null)"
    elif uid == "":
        uid = '(UID "")'
    elif len(uid) > 41:
        uid = uid[:40] + "…"
    return f"{uid} {start} → {end}"


def describe(result, problem):
    parts = [f"ours {result['ours']} / oracle {result['theirs']}"]
    first_ours = result["only_ours"][0] if result["only_ours"] else None
    first_theirs = result["only_theirs"][0] if result["only_theirs"] else None
    candidates = [(sort_key(tuple(k)), side, k) for side, k in
                  (("only ours", first_ours), ("only oracle", first_theirs)) if k]
    candidates.sort()
    for _, side, k in candidates:
        parts.append(f"{side}: `{fmt_key(tuple(k))}`")
    if problem:
        parts.append(problem)
    return "; ".join(parts)


# --------------------------------------------------------------------------
# Report


def report(args, results_by_config, excluded_by_config, verdict_problems=(), expected=None):
    lines = ["# ics-agenda conformance against the reference oracle", ""]
    lines.append(f"Binary: `{args.binary}`. Expected data: `{display(args.data)}`. "
                 "Compared: multisets of (uid, start, end) of occurrences touching the window, "
                 "cancelled ones dropped on both sides.")
    lines.append("")
    lines.append("\"Files with occurrences\": files where at least one side lists an occurrence "
                 "(or ours failed); the other files agree trivially.")
    lines.append("")
    lines.append("| configuration | zone | window | files compared | agree | differ | agreement "
                 "| files with occurrences | agree | agreement | excluded (oracle failed) |")
    lines.append("|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for config, results in results_by_config.items():
        zone, window = CONFIGS[config]
        window_text = "own year" if window == "own" else f"{window[0]} .. {window[1]}"
        n = len(results)
        agree = sum(1 for r in results if r["agree"])
        pct = 100.0 * agree / n if n else 100.0
        busy = [r for r in results if r.get("ours") or r.get("theirs") or r.get("ours") is None]
        busy_agree = sum(1 for r in busy if r["agree"])
        busy_pct = 100.0 * busy_agree / len(busy) if busy else 100.0
        lines.append(f"| {config} | {zone} | {window_text} | {n} | {agree} | {n - agree} | "
                     f"{pct:.1f}% | {len(busy)} | {busy_agree} | {busy_pct:.1f}% "
                     f"| {len(excluded_by_config[config])} |")
    for config, results in results_by_config.items():
        differing = [r for r in results if not r["agree"]]
        lines += ["", f"## {config}: {len(differing)} differing files", ""]
        for r in sorted(differing, key=lambda r: r["file"]):
            lines.append(f"- `{r['file']}` ({r['from']}..{r['to']}): {r['summary']}")
        if excluded_by_config[config] and args.list_excluded:
            lines += ["", f"Excluded from {config} (oracle failed on them):", ""]
            for rec in excluded_by_config[config]:
                lines.append(f"- `{rec['file']}`: {rec.get('reason', '')}")
    if verdict_problems:
        lines += ["", f"## Verdicts: {len(verdict_problems)} problems", ""]
        lines += [f"- {p}" for p in verdict_problems]
    if expected is not None:
        agree = sum(1 for e in expected if e["agree"])
        lines += ["", f"## Files with their own expected answer (X-EXPECT-NUMEVENTS): {agree} of {len(expected)} agree", ""]
        for e in expected:
            if not e["agree"]:
                lines.append(f"- `{e['file']}`: expected {e['expected']}, ours {e['ours']}"
                             + (f" ({e['cause']})" if e["cause"] else ""))
    return "\n".join(lines) + "\n"


def display(path):
    try:
        return str(Path(path).resolve().relative_to(ROOT))
    except ValueError:
        return str(path)


def check(args, files):
    wanted = {path for path, _f, _t in files}
    results_by_config, excluded_by_config, below = {}, {}, []
    for config in args.configs:
        _header, records = load_expected(args, config)
        todo = [r for p, r in records.items() if p in wanted and r["mode"] != "excluded"]
        excluded_by_config[config] = [r for p, r in records.items()
                                      if p in wanted and r["mode"] == "excluded"]
        started = time.time()
        with cf.ThreadPoolExecutor(args.jobs) as pool:
            results = list(pool.map(lambda r: compare_one(args, config, r), todo))
        results_by_config[config] = results
        n = len(results)
        agree = sum(1 for r in results if r["agree"])
        pct = 100.0 * agree / n if n else 100.0
        print(f"{config}: {agree}/{n} agree ({pct:.1f}%) in {time.time() - started:.0f} s",
              file=sys.stderr)
        if pct < args.min_agreement:
            below.append(f"{config} {pct:.1f}% < {args.min_agreement:g}%")
    verdict_problems = []
    if args.verdicts:
        verdicts = read_verdicts(args.verdicts)
        verdict_problems = check_verdicts(verdicts, results_by_config)
    expected = expected_answers(args) if args.expected_answers else None
    text = report(args, results_by_config, excluded_by_config, verdict_problems, expected)
    if args.write:
        Path(args.write).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    if args.json:
        Path(args.json).write_text(json.dumps(results_by_config, ensure_ascii=False, indent=1),
                                   encoding="utf-8")
    for problem in verdict_problems:
        print(f"conformance: {problem}", file=sys.stderr)
    if expected is not None:
        agree = sum(1 for e in expected if e["agree"])
        print(f"expected answers (X-EXPECT-NUMEVENTS): {agree}/{len(expected)} files agree", file=sys.stderr)
    if below:
        print("conformance: agreement below threshold: " + ", ".join(below), file=sys.stderr)
    return 1 if below or verdict_problems else 0


# --------------------------------------------------------------------------
# Verdicts: why each differing file differs


def read_verdicts(path):
    """(file, configuration) -> (cause, RFC section) from conformance/verdicts.tsv.

    Columns: file, configuration (a name from CONFIGS, or * for all four),
    cause (an id of docs/CONFORMANCE.md), RFC section. Lines starting with #
    are comments.
    """
    verdicts = {}
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if not line.strip() or line.startswith("#"):
                continue
            cells = line.rstrip("\n").split("\t")
            if len(cells) != 4 or cells[0] == "file":
                if cells[0] != "file":
                    sys.exit(f"conformance: {path}:{n}: want 4 tab-separated columns")
                continue
            file, config, cause, section = cells
            for c in (CONFIGS if config == "*" else [config]):
                if c not in CONFIGS:
                    sys.exit(f"conformance: {path}:{n}: unknown configuration {config!r}")
                verdicts[(file, c)] = (cause, section)
    return verdicts


def check_verdicts(verdicts, results_by_config):
    """Every differing file needs a verdict, and a file with one must still differ."""
    problems = []
    for config, results in results_by_config.items():
        for r in sorted(results, key=lambda r: r["file"]):
            v = verdicts.get((r["file"], config))
            if not r["agree"] and v is None:
                problems.append(f"{config}: {r['file']} differs without a verdict: {r.get('summary', '')}")
            elif r["agree"] and v is not None:
                problems.append(f"{config}: {r['file']} has verdict {v[0]} but now agrees: "
                                "remove it from conformance/verdicts.tsv")
    return problems


# --------------------------------------------------------------------------
# Files that carry their own expected answer


EXPECT = re.compile(r"^X-EXPECT-NUMEVENTS:\s*(\d+)\s*$", re.M)
FIRST_YEAR = re.compile(r"^DTSTART[^:\n]*:(\d{4})", re.M)


def expected_answers(args):
    """Corpus files with libical's X-EXPECT-NUMEVENTS: our count of occurrences
    from DTSTART's year to 2037 (libical's test suite stops at 2037, the end of
    32-bit time) against the number the file expects. The corpus has no
    KCalendarCore .ref lists (kcalendarcore/SOURCE.md: not copied)."""
    out = []
    for path in sorted(args.corpus.rglob("*.ics")):
        try:
            text = path.read_bytes().decode("utf-8")
        except (OSError, UnicodeDecodeError):
            continue  # libical/test-data/malloc.ics: fuzzed bytes, its X-EXPECT lines are broken too
        numbers = [int(n) for n in EXPECT.findall(text)]
        year = FIRST_YEAR.search(text)
        if not numbers or not year or text.count("BEGIN:VEVENT") != len(numbers):
            continue
        rel = str(path.relative_to(args.corpus))
        cmd = [str(args.binary), "--format", "json", "--now", f"{year.group(1)}-01-01T00:00:00Z",
               "--from", f"{year.group(1)}-01-01", "--to", "2037-12-31", "--tz", "UTC",
               "--show-cancelled", "--completed", str(path)]
        proc = subprocess.run(cmd, capture_output=True, timeout=args.timeout, stdin=subprocess.DEVNULL)
        ours = sum(1 for line in proc.stdout.splitlines() if line.strip())
        out.append({"file": rel, "expected": sum(numbers), "ours": ours, "agree": ours == sum(numbers),
                    "cause": EXPECT_VERDICTS.get(rel)})
    return out


# Expected answers we do not give, and why (docs/CONFORMANCE.md, "Expected answers").
EXPECT_VERDICTS = {
    "kcalendarcore/RecurrenceRule/LibICal/LibICal_TestCase02.ics": "E1, 5545 3.8.5.3",
    "kcalendarcore/RecurrenceRule/LibICal/LibICal_TestCase24.ics": "E1, 5545 3.8.5.3",
    "kcalendarcore/RecurrenceRule/LibICal/LibICal_TestCase42.ics": "E1, 5545 3.8.5.3",
    "kcalendarcore/RecurrenceRule/LibICal/LibICal_TestCase57.ics": "E2, 5545 A.3",
    "kcalendarcore/RecurrenceRule/UntilInUTC/Until_TestCase05.ics": "E3, 5545 3.3.10",
    "kcalendarcore/RecurrenceRule/UntilInUTC/Until_TestCase06.ics": "E3, 5545 3.3.10",
}


def default_binary():
    release = ROOT / ".build" / "release" / "ics-agenda"
    return release if release.exists() else ROOT / ".build" / "debug" / "ics-agenda"


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter,
                                epilog=__doc__.split("\n\n", 1)[1])
    p.add_argument("--binary", type=Path, default=None,
                   help="ics-agenda to test (default: .build/release/ics-agenda if present, "
                        "else .build/debug/ics-agenda)")
    p.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS,
                   help=f"corpus folder (default: {DEFAULT_CORPUS})")
    p.add_argument("--data", type=Path, default=DEFAULT_DATA,
                   help="folder of the stored oracle answers (default: conformance/)")
    p.add_argument("--config", dest="configs", action="append", choices=list(CONFIGS),
                   help="configuration to run (repeatable; default: all four)")
    p.add_argument("--only", action="append", default=[], metavar="SUBSTRING",
                   help="only corpus files whose path contains SUBSTRING (repeatable)")
    p.add_argument("--jobs", type=int, default=2, help="parallel processes (default 2)")
    p.add_argument("--timeout", type=float, default=20.0,
                   help="seconds allowed to ics-agenda per file (default 20)")
    p.add_argument("--min-agreement", type=float, default=0.0, metavar="PERCENT",
                   help="exit 1 when a configuration agrees on fewer files (default 0)")
    p.add_argument("--write", metavar="PATH", help="write the markdown report here (default: stdout)")
    p.add_argument("--json", metavar="PATH", help="also write per-file results as JSON")
    p.add_argument("--verdicts", type=Path, default=DEFAULT_DATA / "verdicts.tsv",
                   help="why each differing file differs (default conformance/verdicts.tsv); exit 1 when "
                        "a file differs without a verdict or a file with one agrees")
    p.add_argument("--no-verdicts", dest="verdicts", action="store_const", const=None,
                   help="report only, whatever differs")
    p.add_argument("--no-expected-answers", dest="expected_answers", action="store_false",
                   help="skip the files that carry their own expected answer")
    p.add_argument("--list-excluded", action="store_true",
                   help="list the files the oracle could not expand")
    g = p.add_argument_group("regeneration (needs the oracle venv)")
    g.add_argument("--regenerate", action="store_true",
                   help="run the oracle and rewrite conformance/oracle-*.jsonl.gz, then stop "
                        "(with --only: replace just those files' answers)")
    g.add_argument("--oracle", type=Path, default=DEFAULT_ORACLE)
    g.add_argument("--oracle-python", type=Path, default=DEFAULT_ORACLE_PYTHON)
    g.add_argument("--oracle-timeout", type=float, default=60.0,
                   help="seconds allowed to the oracle per file and mode (default 60)")
    g.add_argument("--max-stored", type=int, default=DEFAULT_MAX_STORED,
                   help="store oracle answers longer than this as count + hash "
                        f"(default {DEFAULT_MAX_STORED})")
    args = p.parse_args(argv)
    args.configs = args.configs or list(CONFIGS)
    args.corpus = args.corpus.resolve()
    if not (args.corpus / "ORACLE-RESULTS.tsv").exists():
        p.error(f"no ORACLE-RESULTS.tsv in {args.corpus}")
    files = read_results(args.corpus)
    if args.only:
        files = [f for f in files if any(s in f[0] for s in args.only)]
    if args.regenerate:
        if not args.oracle_python.exists():
            p.error(f"oracle python not found: {args.oracle_python}")
        regenerate(args, files)
        return 0
    args.binary = (args.binary or default_binary()).resolve()
    if not os.access(args.binary, os.X_OK):
        p.error(f"binary not found or not executable: {args.binary}")
    return check(args, files)


if __name__ == "__main__":
    sys.exit(main())
