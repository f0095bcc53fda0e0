#!/usr/bin/env python3
"""Random recurring components, expanded by ics-agenda and by the oracle.

Each seed makes one calendar (``generate``): one to three series with a
random RRULE (every part: FREQ, INTERVAL, COUNT or UNTIL, BYDAY with and
without ordinals, BYMONTHDAY, BYMONTH, BYYEARDAY, BYWEEKNO, BYSETPOS,
BYHOUR, BYMINUTE, WKST), RDATEs and EXDATEs written in other zones than
DTSTART, overrides (some RANGE=THISANDFUTURE), DTEND, DURATION or neither,
all-day and floating starts, in zones with DST in both hemispheres. Both
engines list the year 2025 in a random display zone, and the occurrences are
compared as `make conformance` compares them (scripts/conformance.py).

Every difference must be one of the documented causes in
docs/CONFORMANCE.md, recognised here by code (``CAUSES``, each a function of
the difference and of what the generator wrote); a difference no cause
matches fails the run and is printed with its calendar, to be fixed or
documented. Needs the oracle's venv (.venv-oracle); without it the run is
skipped (exit 0, says so).

    python3 scripts/differential.py --seeds 300            # CI
    python3 scripts/differential.py --seed 17 --show        # one calendar and its differences
"""
from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import random
import subprocess
import sys
import tempfile
import time
import zoneinfo
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
import conformance  # noqa: E402  (the comparison rules of make conformance)

ORACLE = ROOT.parent / "shared" / "tools" / "oracle.py"
ORACLE_PYTHON = ROOT / ".venv-oracle" / "bin" / "python"
SERIES_ZONES = ["Europe/Berlin", "America/New_York", "Australia/Sydney", "Pacific/Auckland", "Asia/Tokyo", "UTC", None]
DISPLAY_ZONES = ["Europe/Berlin", "America/New_York", "Pacific/Auckland"]
WINDOW = ("2025-01-01", "2025-12-31")
DAYS = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"]


# --------------------------------------------------------------------------
# Generator


def fmt_dt(t, zone, all_day):
    """A property's parameters and value for datetime t in zone (None: floating)."""
    if all_day:
        return ";VALUE=DATE", t.strftime("%Y%m%d")
    if zone == "UTC":
        return "", t.strftime("%Y%m%dT%H%M%SZ")
    if zone is None:
        return "", t.strftime("%Y%m%dT%H%M%S")
    return f";TZID={zone}", t.strftime("%Y%m%dT%H%M%S")


def in_zone(t, src, dst):
    """The wall clock in dst of wall clock t in src (both zones real)."""
    aware = t.replace(tzinfo=zoneinfo.ZoneInfo(src))
    return aware.astimezone(zoneinfo.ZoneInfo(dst)).replace(tzinfo=None)


def random_rule(rng, start, all_day):
    freq = rng.choice(["DAILY", "DAILY", "WEEKLY", "WEEKLY", "MONTHLY", "MONTHLY", "YEARLY", "HOURLY"] if not all_day
                      else ["DAILY", "WEEKLY", "WEEKLY", "MONTHLY", "MONTHLY", "YEARLY"])
    parts = [f"FREQ={freq}"]
    facts = {"freq": freq, "parts": set()}
    interval = rng.choice([1, 1, 1, 2, 3])
    if interval > 1:
        parts.append(f"INTERVAL={interval}")
    facts["interval"] = interval
    if freq == "HOURLY":
        parts.append(f"COUNT={rng.randint(3, 30)}")
        if rng.random() < 0.3:
            parts.append("BYMINUTE=0,30")
            facts["parts"].add("BYMINUTE")
        return parts, facts
    if freq == "WEEKLY" and rng.random() < 0.6:
        parts.append("BYDAY=" + ",".join(sorted(rng.sample(DAYS, rng.randint(1, 3)), key=DAYS.index)))
        facts["parts"].add("BYDAY")
        if rng.random() < 0.3:
            parts.append("WKST=" + rng.choice(["SU", "MO", "TH"]))
    elif freq == "MONTHLY":
        choice = rng.random()
        if choice < 0.3:
            parts.append("BYMONTHDAY=" + ",".join(str(d) for d in rng.sample([1, 5, 15, 28, 29, 30, 31, -1, -2], rng.randint(1, 2))))
            facts["parts"].add("BYMONTHDAY")
        elif choice < 0.6:
            n = rng.choice([1, 2, 3, 4, -1, -2])
            parts.append(f"BYDAY={n}{rng.choice(DAYS)}")
            facts["parts"].add("BYDAY")
        elif choice < 0.8:
            parts.append("BYDAY=" + ",".join(rng.sample(DAYS[:5], 2)) + f";BYSETPOS={rng.choice([1, -1, 2])}")
            facts["parts"] |= {"BYDAY", "BYSETPOS"}
    elif freq == "YEARLY":
        choice = rng.random()
        if choice < 0.25:
            parts.append(f"BYMONTH={rng.randint(1, 12)};BYDAY={rng.choice([1, 2, -1])}{rng.choice(DAYS)}")
            facts["parts"] |= {"BYMONTH", "BYDAY"}
        elif choice < 0.4:
            parts.append("BYYEARDAY=" + ",".join(str(d) for d in rng.sample([1, 60, 100, 200, 365, -1, -100], 2)))
            facts["parts"].add("BYYEARDAY")
        elif choice < 0.55:
            parts.append(f"BYWEEKNO={rng.choice([1, 10, 20, 52, -1])};BYDAY={rng.choice(DAYS)}")
            facts["parts"] |= {"BYWEEKNO", "BYDAY"}
        elif choice < 0.7:
            parts.append("BYMONTH=" + ",".join(str(m) for m in sorted(rng.sample(range(1, 13), 2))))
            facts["parts"].add("BYMONTH")
    elif freq == "DAILY" and not all_day and rng.random() < 0.25:
        parts.append("BYHOUR=" + ",".join(str(h) for h in sorted(rng.sample([2, 8, 12, 18, 23], 2))))
        facts["parts"].add("BYHOUR")
        if rng.random() < 0.5:
            parts.append("BYMINUTE=15")
            facts["parts"].add("BYMINUTE")
    if freq == "DAILY" and rng.random() < 0.2:
        parts.append("BYMONTH=" + ",".join(str(m) for m in sorted(rng.sample(range(1, 13), 3))))
        facts["parts"].add("BYMONTH")
    end = rng.random()
    if end < 0.4:
        parts.append(f"COUNT={rng.randint(1, 40)}")
        facts["count"] = True
    elif end < 0.7:
        until = start + dt.timedelta(days=rng.randint(30, 500))
        facts["until"] = True
        parts.append(("UNTIL", until))
    return parts, facts


def generate(seed):
    """One calendar's text and what was written in it (for the cause matchers)."""
    rng = random.Random(seed)
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//ics-agenda//differential//EN"]
    series = []
    for n in range(rng.randint(1, 3)):
        uid = f"s{seed}-{n}@differential"
        zone = rng.choice(SERIES_ZONES)
        all_day = rng.random() < 0.2
        start = dt.datetime(2024, 6, 1) + dt.timedelta(days=rng.randint(0, 540))
        if not all_day:
            start = start.replace(hour=rng.choice([0, 1, 2, 3, 8, 9, 12, 17, 22, 23]), minute=rng.choice([0, 0, 15, 30]))
        parts, facts = random_rule(rng, start, all_day)
        facts.update(uid=uid, zone=zone, all_day=all_day, start=start)
        text_parts = []
        for p in parts:
            if isinstance(p, tuple):
                until = p[1]
                if all_day:
                    text_parts.append("UNTIL=" + until.strftime("%Y%m%d"))
                elif zone is None:
                    text_parts.append("UNTIL=" + until.strftime("%Y%m%dT%H%M%S"))
                else:
                    u = in_zone(until, zone, "UTC") if zone != "UTC" else until
                    text_parts.append("UNTIL=" + u.strftime("%Y%m%dT%H%M%SZ"))
            else:
                text_parts.append(p)
        rule = ";".join(text_parts)
        facts["rule"] = rule
        lines += ["BEGIN:VEVENT", f"UID:{uid}", "DTSTAMP:20240101T000000Z", f"SUMMARY:series {n}"]
        params, value = fmt_dt(start, zone, all_day)
        lines.append(f"DTSTART{params}:{value}")
        length = rng.random()
        if all_day:
            if length < 0.5:
                lines.append("DTEND;VALUE=DATE:" + (start + dt.timedelta(days=rng.choice([1, 1, 2, 3]))).strftime("%Y%m%d"))
            elif length < 0.7:
                lines.append("DURATION:P" + str(rng.choice([1, 2])) + "D")
        else:
            if length < 0.4:
                end = start + dt.timedelta(minutes=rng.choice([30, 60, 90, 24 * 60, 26 * 60]))
                p2, v2 = fmt_dt(end, zone, False)
                lines.append(f"DTEND{p2}:{v2}")
                facts["dtend"] = True
            elif length < 0.7:
                lines.append("DURATION:" + rng.choice(["PT1H", "PT30M", "P1D", "PT24H", "P1DT2H"]))
                facts["duration"] = True
        lines.append("RRULE:" + rule)
        # Instances the generator knows exist: DAILY/WEEKLY without BY parts, k steps after DTSTART.
        simple = facts["freq"] in ("DAILY", "WEEKLY") and not facts["parts"] and "count" not in facts and "until" not in facts
        step = dt.timedelta(days=(1 if facts["freq"] == "DAILY" else 7) * facts["interval"])
        facts["exdates"], facts["overrides"] = [], []
        if simple and rng.random() < 0.5:
            k = rng.randint(1, 60)
            original = start + k * step
            ex_zone = zone
            if zone not in (None, "UTC") and not all_day and rng.random() < 0.5:
                ex_zone = rng.choice(["UTC", "Asia/Tokyo", "America/New_York"])
                original_text = in_zone(original, zone, ex_zone)
            else:
                original_text = original
            p3, v3 = fmt_dt(original_text, ex_zone, all_day)
            lines.append(f"EXDATE{p3}:{v3}")
            facts["exdates"].append(original)
        if rng.random() < 0.3:
            extra = start + dt.timedelta(days=rng.randint(1, 300), hours=0 if all_day else rng.randint(0, 5))
            r_zone = zone
            if zone not in (None, "UTC") and not all_day and rng.random() < 0.5:
                r_zone = rng.choice(["UTC", "Asia/Tokyo", "Europe/London"])
                extra = in_zone(extra, zone, r_zone)
            p4, v4 = fmt_dt(extra, r_zone, all_day)
            lines.append(f"RDATE{p4}:{v4}")
            facts["rdate"] = True
        lines.append("END:VEVENT")
        if simple and rng.random() < 0.4:
            k = rng.randint(1, 60)
            original = start + k * step
            if facts["exdates"] and rng.random() < 0.3:
                original = facts["exdates"][0]  # an override of an instance its master excludes (I8)
            moved = original + (dt.timedelta(days=rng.choice([-2, 1, 3])) if all_day else dt.timedelta(hours=rng.choice([-26, -1, 2, 50])))
            future = rng.random() < 0.4
            pr, vr = fmt_dt(original, zone, all_day)
            pm, vm = fmt_dt(moved, zone, all_day)
            lines += ["BEGIN:VEVENT", f"UID:{uid}", "DTSTAMP:20240101T000000Z", f"SUMMARY:series {n} moved",
                      f"RECURRENCE-ID{';RANGE=THISANDFUTURE' if future else ''}{pr}:{vr}", f"DTSTART{pm}:{vm}", "END:VEVENT"]
            facts["overrides"].append({"original": original, "moved": moved, "future": future})
        series.append(facts)
    lines.append("END:VCALENDAR")
    return "\r\n".join(lines) + "\r\n", series


# --------------------------------------------------------------------------
# Causes: each says whether one differing occurrence is explained.


def parse(value):
    return dt.datetime.fromisoformat(value) if value and len(value) > 10 else None


def in_gap(wall, zone):
    """Whether a naive wall clock does not exist in zone."""
    z = zoneinfo.ZoneInfo(zone)
    aware = wall.replace(tzinfo=z)
    return aware.astimezone(dt.timezone.utc).astimezone(z).replace(tzinfo=None) != wall


def gap_instance(side, key, s, series_of):
    """G1: an instance a rule generates at a local time the clocks skip. We leave
    it out (3.3.10); the oracle lists it an hour later (3.3.5). A COUNT rule then
    has one more instance at its end on our side."""
    f = series_of.get(key[0])
    if not f or f["zone"] in (None, "UTC") or f["all_day"]:
        return False
    start = parse(key[1])
    if start is None:
        return False
    wall = start.astimezone(zoneinfo.ZoneInfo(f["zone"])).replace(tzinfo=None)
    if side == "theirs":
        return any(in_gap(wall - dt.timedelta(minutes=m), f["zone"]) for m in (30, 60))
    # ours: the extra instance a COUNT rule gets for each one left out
    return bool(f.get("count")) and s.get("gap_seen", {}).get(key[0], False)


def exact_length(side, key, s, series_of):
    """O2: an instance whose DTEND (or DURATION of hours) spans a change of offset:
    we keep the exact length (3.8.5.3, 3.3.6), the oracle the wall-clock one."""
    f = series_of.get(key[0])
    if not f or f["zone"] in (None, "UTC") or f["all_day"] or not (f.get("dtend") or f.get("duration")):
        return False
    other = s["only_ours" if side == "theirs" else "only_theirs"]
    for k in other:
        if k[0] == key[0] and k[1] == key[1] and k[2] != key[2]:
            a, b = parse(key[1]), parse(key[2])
            z = zoneinfo.ZoneInfo(f["zone"])
            return a is not None and b is not None and a.astimezone(z).utcoffset() != b.astimezone(z).utcoffset()
    return False


def weekno_without_byday(side, key, s, series_of):
    """O7: FREQ=YEARLY;BYWEEKNO without BYDAY (not generated: listed for completeness)."""
    f = series_of.get(key[0])
    return bool(f) and "BYWEEKNO" in f["parts"] and "BYDAY" not in f["parts"]


def override_of_excluded(side, key, s, series_of):
    """I8: an override of an instance its own master EXDATEs: we list the
    override (3.8.4.4: it stands for that instance), the oracle drops it."""
    f = series_of.get(key[0])
    if side != "ours" or not f:
        return False
    for o in f["overrides"]:
        if o["original"] not in f["exdates"]:
            continue
        moved = o["moved"]
        if f["all_day"]:
            if key[1] == moved.date().isoformat():
                return True
            continue
        start = parse(key[1])
        if start is None:
            continue
        if f["zone"] is None:
            if start.replace(tzinfo=None) == moved:
                return True
        elif start == moved.replace(tzinfo=zoneinfo.ZoneInfo(f["zone"])):
            return True
    return False


def weekno_across_new_year(side, key, s, series_of):
    """O11: BYWEEKNO names a week of the rule's year, and ISO week 1 can start
    in the December before (week -1 or 53 end in the January after): we list
    the days of that week, the oracle (dateutil) only those inside the calendar year."""
    f = series_of.get(key[0])
    if side != "ours" or not f or "BYWEEKNO" not in f["parts"]:
        return False
    start = parse(key[1]) if len(key[1]) > 10 else dt.datetime.fromisoformat(key[1])
    if f["zone"] not in (None, "UTC") and start.tzinfo is not None:
        start = start.astimezone(zoneinfo.ZoneInfo(f["zone"]))
    return (start.month == 12 and start.day >= 25) or (start.month == 1 and start.day <= 7)


CAUSES = {
    "G1": gap_instance,
    "O2": exact_length,
    "O7": weekno_without_byday,
    "O11": weekno_across_new_year,
    "I8": override_of_excluded,
}


def explain(result, series):
    """Every differing occurrence's cause, or None where none matches."""
    series_of = {f["uid"]: f for f in series}
    s = {"only_ours": [tuple(k) for k in result.get("only_ours", [])],
         "only_theirs": [tuple(k) for k in result.get("only_theirs", [])], "gap_seen": {}}
    for k in s["only_theirs"]:
        if gap_instance("theirs", k, s, series_of):
            s["gap_seen"][k[0]] = True
    found = []
    for side, keys in (("theirs", s["only_theirs"]), ("ours", s["only_ours"])):
        for key in keys:
            cause = next((name for name, test in CAUSES.items() if test(side, key, s, series_of)), None)
            found.append((side, key, cause))
    return found


# --------------------------------------------------------------------------
# Running


def run_ours(binary, path, zone):
    cmd = [str(binary), "--format", "json", "--now", f"{WINDOW[0]}T00:00:00Z", "--from", WINDOW[0], "--to", WINDOW[1],
           "--tz", zone, "--show-cancelled", "--completed", str(path)]
    proc = subprocess.run(cmd, capture_output=True, timeout=60, stdin=subprocess.DEVNULL)
    rows = [json.loads(line) for line in proc.stdout.decode().splitlines() if line.strip()]
    return [[r.get("uid"), r.get("start"), r.get("end"), r.get("status")] for r in rows]


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter,
                                epilog=__doc__.split("\n\n", 1)[1])
    p.add_argument("--binary", type=Path, default=ROOT / ".build" / "debug" / "ics-agenda")
    p.add_argument("--seeds", type=int, default=300, help="how many seeds, from --first (default 300)")
    p.add_argument("--first", type=int, default=1)
    p.add_argument("--seed", type=int, help="just this seed")
    p.add_argument("--show", action="store_true", help="print each calendar that differs")
    p.add_argument("--oracle", type=Path, default=ORACLE)
    p.add_argument("--oracle-python", type=Path, default=ORACLE_PYTHON)
    args = p.parse_args(argv)
    if not args.oracle_python.exists() or not args.oracle.exists():
        print(f"differential: skipped: needs {args.oracle_python} and {args.oracle} (../shared/tools/README.md)")
        return 0
    seeds = [args.seed] if args.seed is not None else list(range(args.first, args.first + args.seeds))
    started = time.time()
    with tempfile.TemporaryDirectory(prefix="ics-agenda-differential-") as tmp:
        jobs, made = [], {}
        for seed in seeds:
            text, series = generate(seed)
            path = Path(tmp) / f"seed{seed}.ics"
            path.write_text(text)
            zone = DISPLAY_ZONES[seed % len(DISPLAY_ZONES)]
            made[str(path)] = (seed, text, series, zone)
            jobs.append({"file": str(path), "from": WINDOW[0], "to": WINDOW[1], "tz": zone})
        proc = subprocess.run([str(args.oracle_python), str(ROOT / "scripts" / "oracle_batch.py"), str(args.oracle)],
                              input=json.dumps(jobs), capture_output=True, text=True, timeout=1800)
        if proc.returncode != 0:
            print(proc.stderr[-2000:])
            return 2
        answers = [json.loads(line) for line in proc.stdout.splitlines() if line.strip()]
        causes, unexplained, oracle_failed, differing = Counter(), [], 0, 0
        for answer in answers:
            seed, text, series, zone = made[answer["file"]]
            if answer["status"] != 0:
                oracle_failed += 1
                unexplained.append((seed, text, zone, [("oracle", answer["error"], None)]))
                continue
            record = {"file": answer["file"], "from": WINDOW[0], "to": WINDOW[1], "mode": "strict",
                      "occ": [[r["uid"], r["start"], r["end"], r["status"]] for r in answer["rows"]]}
            ours = run_ours(args.binary, answer["file"], zone)
            tz = zoneinfo.ZoneInfo(zone)
            mine, theirs = conformance.keys_of(ours, *WINDOW, tz), conformance.keys_of(record["occ"], *WINDOW, tz)
            result = {"only_ours": [list(k) for k in (mine - theirs).elements()],
                      "only_theirs": [list(k) for k in (theirs - mine).elements()]}
            if not result["only_ours"] and not result["only_theirs"]:
                continue
            differing += 1
            found = explain(result, series)
            causes.update(c for _s, _k, c in found if c)
            missing = [x for x in found if x[2] is None]
            if missing:
                unexplained.append((seed, text, zone, missing))
            elif args.show:
                print(f"seed {seed} ({zone}): explained by {sorted({c for _s, _k, c in found})}")
    for seed, text, zone, missing in unexplained:
        print(f"seed {seed} ({zone}): {len(missing)} unexplained differences")
        for side, key, _c in missing[:6]:
            print(f"    only {side}: {key}")
        if args.show or len(unexplained) <= 5:
            print("    " + text.replace("\r\n", "\n    "))
    print(f"differential: {len(seeds)} seeds, {differing} calendars differ from the oracle, "
          f"explained: {dict(sorted(causes.items()))}; {len(unexplained)} unexplained "
          f"({oracle_failed} where the oracle failed), in {time.time() - started:.0f} s")
    return 1 if unexplained else 0


if __name__ == "__main__":
    sys.exit(main())
