#!/usr/bin/env python3
"""Benchmark ics-agenda against the naive libical floor (`make bench`).

Generates deterministic calendars with /work/shared/bench/gencal.py, compiles
/work/shared/bench/libical_floor.c, then for every size runs the floor and
ics-agenda (--format json, --format text) alternately --runs times, measuring
wall time and peak resident memory of each child (os.wait4's ru_maxrss: nothing
to install). Prints medians, ratios ours/floor and occurrence counts as a
markdown table; with --write, also writes that report, the machine it ran on
and the targets to a file (docs/PERFORMANCE.md).

A benchmark, not a test: slowness never makes it exit non-zero. It exits
non-zero only for real errors (missing binary, floor does not compile, a
program exits with an error).

    python3 scripts/bench.py                          # full: 1k,10k,100k,300k x 5 runs
    python3 scripts/bench.py --quick                  # 1k,10k x 3 runs
    python3 scripts/bench.py --runs 3 --write docs/PERFORMANCE.md
    python3 scripts/bench.py --only caldav-sync --write docs/PERFORMANCE.md   # one section, about a minute
"""
import argparse
import datetime
import os
import platform
import re
import shlex
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHARED = os.environ.get("ICS_AGENDA_BENCH_SHARED", "/work/shared/bench")
GENCAL = os.path.join(SHARED, "gencal.py")
FLOOR_C = os.path.join(SHARED, "libical_floor.c")
SEED = 7

# Same window and zone as libical_floor.c (20250301T000000Z .. 20260301T000000Z,
# starts converted to Europe/Berlin). ics-agenda's default window is one
# calendar year from --now's day, in the display zone.
AGENDA_ARGS = ["--now", "2025-03-01T00:00:00+01:00", "--tz", "Europe/Berlin", "--locale", "en_US"]
ALL_ITEMS_ARGS = ["--show-cancelled", "--completed"]

# `next` is polled every minute by status bars: on these sizes it is timed
# beside a one-day agenda, which it must not exceed.
NEXT_SIZES = (1000, 100000)

# Where calendars live: a calendar of this many components as one file and
# as a vdir collection (one file per UID, scripts/genvdir.py), and as a URL.
LIVE_SIZE = 20000
GENVDIR = os.path.join(REPO, "scripts", "genvdir.py")
FAULT_SERVER = os.path.join(REPO, "scripts", "fault_server.py")
# How many URLs are fetched at once against one (each answered after 1 s).
URLS_AT_ONCE = 5

# Targets, checked on the 100k row (time, CPU, memory), the 300k row against
# it (linear growth) and the 1k row (start-up dominated).
TARGET_SIZE = 100000
TARGET_RATIO = 0.5      # wall time against the floor's, json and text
PASS_RATIO = 0.6        # the least the issue accepts
TARGET_CPU_RATIO = 1.0  # CPU time (user + system) against the floor's
TARGET_MB = 64.0
LARGE_SIZE = 300000
TARGET_GROWTH = 1.3     # time per component, 300k against 100k
TARGET_PEAK_GROWTH = 2.0
SMALL_SIZE = 1000
TARGET_SMALL_RATIO = 1.0


class BenchError(Exception):
    """A real error (not slowness): the script exits non-zero."""


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def rel(path):
    """Path relative to the repository when it is inside it, for display."""
    p = os.path.relpath(path, REPO)
    return path if p.startswith("..") else p


# --------------------------------------------------------------------------- inputs

def build_floor(out_dir):
    exe = os.path.join(out_dir, "libical_floor")
    if not os.path.exists(FLOOR_C):
        raise BenchError(f"floor source missing: {FLOOR_C}")
    if os.path.exists(exe) and os.path.getmtime(exe) >= os.path.getmtime(FLOOR_C):
        return exe
    cc = os.environ.get("CC", "cc")
    if shutil.which(cc) is None:
        raise BenchError(f"C compiler '{cc}' not found (apt-get install -y build-essential)")
    flags = ["-lical"]
    try:
        pc = subprocess.run(["pkg-config", "--cflags", "--libs", "libical"],
                            capture_output=True, text=True, check=True)
        flags = shlex.split(pc.stdout) or flags
    except (OSError, subprocess.CalledProcessError):
        pass
    cmd = [cc, "-O2", "-o", exe + ".tmp", FLOOR_C] + flags
    log("compiling floor: " + shlex.join(cmd))
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        raise BenchError("floor does not compile (apt-get install -y libical-dev?):\n" + r.stderr)
    os.replace(exe + ".tmp", exe)
    return exe


def generate(out_dir, n):
    path = os.path.join(out_dir, f"cal-{n}.ics")
    if os.path.exists(path) and os.path.getsize(path) > 0 \
            and os.path.getmtime(path) >= os.path.getmtime(GENCAL):
        return path
    log(f"generating {rel(path)} (gencal.py {n} {SEED})")
    with open(path + ".tmp", "wb") as f:
        r = subprocess.run([sys.executable, GENCAL, str(n), str(SEED)], stdout=f)
    if r.returncode != 0:
        raise BenchError(f"gencal.py {n} {SEED} failed with status {r.returncode}")
    os.replace(path + ".tmp", path)
    return path


def empty_calendar(out_dir):
    path = os.path.join(out_dir, "cal-empty.ics")
    if not os.path.exists(path):
        with open(path, "w", newline="") as f:
            f.write("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//bench//empty//EN\r\nEND:VCALENDAR\r\n")
    return path


def count_components(path):
    """Top-level VEVENT/VTODO components in a generated file (overrides included)."""
    n = 0
    with open(path, "rb") as f:
        for line in f:
            if line.startswith(b"BEGIN:VEVENT") or line.startswith(b"BEGIN:VTODO"):
                n += 1
    return n


# --------------------------------------------------------------------------- running

class Run:
    __slots__ = ("wall", "cpu", "rss_mb", "status", "timed_out")

    def __init__(self, wall, cpu, rss_mb, status, timed_out):
        self.wall, self.cpu, self.rss_mb, self.status, self.timed_out = wall, cpu, rss_mb, status, timed_out


def run_measured(cmd, stdout_path, timeout, env):
    """Run cmd with stdout to a file; wall time, user+sys CPU and peak RSS (os.wait4)."""
    with open(stdout_path, "wb") as out, open(stdout_path + ".err", "wb") as err:
        t0 = time.perf_counter()
        p = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=out, stderr=err, env=env)
        timed_out = threading.Event()

        def kill():
            timed_out.set()
            try:
                os.kill(p.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass

        timer = threading.Timer(timeout, kill)
        timer.start()
        try:
            _, status, ru = os.wait4(p.pid, 0)
        finally:
            timer.cancel()
        wall = time.perf_counter() - t0
        p.returncode = os.waitstatus_to_exitcode(status)  # reaped here; keep Popen from waiting again
    # ru_maxrss is in KiB on Linux, bytes on macOS.
    rss = ru.ru_maxrss / (1024 * 1024) if sys.platform == "darwin" else ru.ru_maxrss / 1024
    return Run(wall, ru.ru_utime + ru.ru_stime, rss, p.returncode, timed_out.is_set())


def check(run, cmd, stdout_path, what):
    if run.timed_out:
        log(f"  {what}: timed out after {run.wall:.0f} s (recorded, not an error)")
        return
    if run.status != 0:
        try:
            with open(stdout_path + ".err", errors="replace") as f:
                err = f.read()[-2000:]
        except OSError:
            err = ""
        raise BenchError(f"{what} exited with status {run.status}: {shlex.join(cmd)}\n{err}")


def count_lines(path):
    n = 0
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            n += block.count(b"\n")
    return n


def count_reminders(path):
    """JSON lines of kind reminder (VTODO)."""
    n = 0
    with open(path, "rb") as f:
        for line in f:
            if b'"kind":"reminder"' in line:
                n += 1
    return n


def label(n):
    return f"{n // 1000}k" if n >= 1000 and n % 1000 == 0 else str(n)


def floor_count(path):
    with open(path) as f:
        m = re.search(r"(\d+) occurrences", f.read())
    return int(m.group(1)) if m else None


def med(runs, attr):
    vals = [getattr(r, attr) for r in runs if not r.timed_out]
    return statistics.median(vals) if vals else None


# --------------------------------------------------------------------------- machine

def sh(cmd):
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
        text = (r.stdout or r.stderr).strip()
        return text.splitlines()[0] if text else "unknown"
    except (OSError, subprocess.SubprocessError):
        return "unknown"


def machine_info(binary):
    info = {}
    info["cpus"] = str(os.cpu_count())
    try:
        info["nproc"] = sh(["nproc"])
    except Exception:
        info["nproc"] = info["cpus"]
    model = "unknown"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        model = platform.processor() or "unknown"
    info["cpu"] = model
    mem = "unknown"
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemTotal:"):
                    mem = f"{int(line.split()[1]) / 1024 / 1024:.1f} GiB"
                    break
    except OSError:
        pass
    info["memory"] = mem
    info["kernel"] = f"{platform.system()} {platform.release()} {platform.machine()}"
    info["swift"] = sh(["swift", "--version"])
    info["libical"] = sh(["pkg-config", "--modversion", "libical"])
    info["python"] = platform.python_version()
    commit = sh(["git", "-C", REPO, "rev-parse", "--short", "HEAD"])
    dirty = subprocess.run(["git", "-C", REPO, "status", "--porcelain", "--untracked-files=no"],
                           capture_output=True, text=True).stdout.strip() if shutil.which("git") else ""
    info["commit"] = commit + (" (with uncommitted changes)" if dirty else "")
    st = os.stat(binary)
    info["binary"] = f"{rel(binary)} ({st.st_size / 1e6:.1f} MB, built " \
        f"{datetime.datetime.fromtimestamp(st.st_mtime).strftime('%Y-%m-%d %H:%M')})"
    return info


def loadavg():
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "unknown"


# --------------------------------------------------------------------------- report

def fmt_s(x):
    if x is None:
        return "timeout"
    return f"{x * 1000:.1f} ms" if x < 0.1 else f"{x:.3f} s" if x < 10 else f"{x:.1f} s"


def fmt_mb(x):
    return "—" if x is None else f"{x:.0f} MB" if x >= 10 else f"{x:.1f} MB"


def ratio(a, b):
    return "—" if a is None or b is None or b == 0 else f"{a / b:.2f}×"


def render(results, startup, args, info, cmdline, started, load_before, load_after):
    L = []
    L.append("| size | components | file | floor | ours json | ratio | ours text | ratio "
             "| occurrences floor / json (reminders) / json all |")
    L.append("|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in results:
        f, j, t = r["floor"], r["json"], r["text"]
        L.append(
            f"| {label(r['n'])} | {r['components']:,} | {r['mb']:.1f} MB "
            f"| {fmt_s(med(f, 'wall'))} / {fmt_mb(med(f, 'rss_mb'))} "
            f"| {fmt_s(med(j, 'wall'))} / {fmt_mb(med(j, 'rss_mb'))} | {ratio(med(j, 'wall'), med(f, 'wall'))} "
            f"| {fmt_s(med(t, 'wall'))} / {fmt_mb(med(t, 'rss_mb'))} | {ratio(med(t, 'wall'), med(f, 'wall'))} "
            f"| {fmt_count(r['floor_count'])} / {fmt_count(r['json_count'])} ({fmt_count(r['json_reminders'])}) "
            f"/ {fmt_count(r['json_all_count'])} |")
    table = "\n".join(L)

    # CPU time (user+sys) medians: less sensitive to a busy machine than wall time.
    C = ["| size | floor CPU | ours json CPU | ratio | ours text CPU | ratio |", "|---:|---:|---:|---:|---:|---:|"]
    for r in results:
        f, j, t = (med(r[k], "cpu") for k in ("floor", "json", "text"))
        C.append(f"| {label(r['n'])} | {fmt_s(f)} | {fmt_s(j)} | {ratio(j, f)} | {fmt_s(t)} | {ratio(t, f)} |")
    cpu_table = "\n".join(C)

    # Start-up and the 1k row.
    S = []
    help_t, empty_t = med(startup["help"], "wall"), med(startup["empty"], "wall")
    S.append(f"- `ics-agenda --help`: {fmt_s(help_t)}, {fmt_mb(med(startup['help'], 'rss_mb'))} peak")
    S.append(f"- `ics-agenda` on an empty calendar (json): {fmt_s(empty_t)}, "
             f"{fmt_mb(med(startup['empty'], 'rss_mb'))} peak")
    one_k = next((r for r in results if r["n"] == 1000), None)
    if one_k:
        for fmt in ("json", "text"):
            t1 = med(one_k[fmt], "wall")
            if t1 is not None and help_t is not None and empty_t is not None:
                S.append(f"- 1k calendar, {fmt}: {fmt_s(t1)} = start-up (`--help`) + {(t1 - help_t) * 1000:.1f} ms "
                         f"= empty calendar + {(t1 - empty_t) * 1000:.1f} ms")
    startup_text = "\n".join(S)

    # Targets on the 100k row.
    T = []
    tr = next((r for r in results if r["n"] == TARGET_SIZE), None)
    if tr is None:
        T.append(f"_No {TARGET_SIZE // 1000}k row in this run (sizes {args.sizes}): targets not evaluated._")
    else:
        fl = med(tr["floor"], "wall")
        T.append("| 100k, one-year agenda | json | | text | |")
        T.append("|---|---:|---|---:|---|")
        vals = {fmt: (med(tr[fmt], "wall"), med(tr[fmt], "rss_mb")) for fmt in ("json", "text")}

        def met(ok):
            return "met" if ok else "**not met**"

        def met_or_passed(w, base, target, passing):
            if w is None or base is None:
                return "**not met**"
            return "met" if w / base <= target else ("passes (≤ %.1f×), target not met" % passing if w / base <= passing else "**not met**")

        def against_floor(what, run, attr, target, judge=None):
            """A row of json and text against the floor's median of `attr`."""
            base = med(run["floor"], attr)
            row = [what.format(fmt_s(base))]
            for fmt in ("json", "text"):
                v = med(run[fmt], attr)
                ok = v is not None and base is not None and v / base <= target
                row += [ratio(v, base), judge(v, base) if judge else met(ok)]
            T.append("| " + " | ".join(row) + " |")

        against_floor(f"time ≤ {TARGET_RATIO}× floor ({{}})", tr, "wall", TARGET_RATIO,
                      judge=lambda v, base: met_or_passed(v, base, TARGET_RATIO, PASS_RATIO))
        against_floor(f"CPU ≤ {TARGET_CPU_RATIO}× floor's ({{}})", tr, "cpu", TARGET_CPU_RATIO)
        row = [f"peak RSS ≤ {TARGET_MB:.0f} MB"]
        for fmt in ("json", "text"):
            m = vals[fmt][1]
            row += [fmt_mb(m), met(m is not None and m <= TARGET_MB)]
        T.append("| " + " | ".join(row) + " |")
        large = next((r for r in results if r["n"] == LARGE_SIZE), None)
        if large is not None:
            row = [f"{LARGE_SIZE // 1000}k: time per component ≤ {TARGET_GROWTH}× the {TARGET_SIZE // 1000}k run's"]
            for fmt in ("json", "text"):
                a, b = med(tr[fmt], "wall"), med(large[fmt], "wall")
                g = None if a is None or b is None else (b / large["components"]) / (a / tr["components"])
                row += ["—" if g is None else f"{g:.2f}×", met(g is not None and g <= TARGET_GROWTH)]
            T.append("| " + " | ".join(row) + " |")
            row = [f"{LARGE_SIZE // 1000}k: peak RSS ≤ {TARGET_PEAK_GROWTH:.0f}× the {TARGET_SIZE // 1000}k run's"]
            for fmt in ("json", "text"):
                a, b = med(tr[fmt], "rss_mb"), med(large[fmt], "rss_mb")
                g = None if a is None or b is None else b / a
                row += ["—" if g is None else f"{g:.2f}× ({fmt_mb(b)})", met(g is not None and g <= TARGET_PEAK_GROWTH)]
            T.append("| " + " | ".join(row) + " |")
        small = next((r for r in results if r["n"] == SMALL_SIZE), None)
        if small is not None:
            against_floor(f"{SMALL_SIZE // 1000}k: time ≤ {TARGET_SMALL_RATIO}× floor ({{}})", small, "wall", TARGET_SMALL_RATIO)
        T.append("")
        T.append("JSON bytes per row (no output may grow faster than the rows it lists): " + ", ".join(
            f"{label(r['n'])}: {r['json_bytes'] / r['json_count']:.0f}" for r in results
            if r.get("json_bytes") is not None and r.get("json_count")) + ".")
        T.append("")
        ev = None if tr["json_count"] is None or tr["json_reminders"] is None \
            else tr["json_count"] - tr["json_reminders"]
        T.append(f"Occurrences: the floor counts {fmt_count(tr['floor_count'])}; ics-agenda lists "
                 f"{fmt_count(tr['json_count'])} JSON lines ({fmt_count(ev)} events, "
                 f"{fmt_count(tr['json_reminders'])} reminders), {fmt_count(tr['json_all_count'])} with "
                 "`--show-cancelled --completed`. They are not meant to be equal: the floor counts "
                 "every start `icalcomponent_foreach_recurrence` yields from 2025-03-01 to 2026-03-01 "
                 "UTC, and that yields nothing for a VTODO without DTSTART (gencal's reminders have "
                 "only DUE); ics-agenda covers Berlin days, drops cancelled events and completed "
                 "reminders unless asked, and lists a multi-day event once. Compare the floor with "
                 "the event count.")
    targets_text = "\n".join(T)

    # Linearity: cost per 1k components.
    N = ["| size | floor ms / 1k | json ms / 1k | text ms / 1k | json net of empty-calendar run, ms / 1k |",
         "|---:|---:|---:|---:|---:|"]
    for r in results:
        k = r["components"] / 1000
        f, j, t = (med(r[x], "wall") for x in ("floor", "json", "text"))

        def per(v, base=0.0):
            return "—" if v is None else f"{(v - base) * 1000 / k:.2f}"
        N.append(f"| {label(r['n'])} | {per(f)} | {per(j)} | {per(t)} | {per(j, empty_t or 0.0)} |")
    lin_table = "\n".join(N)
    lin_line = "Time per 1k components (json): " + ", ".join(
        f"{label(r['n'])}: {(med(r['json'], 'wall') or float('nan')) * 1e6 / r['components']:.1f} ms"
        for r in results) + "."

    return {
        "table": table, "cpu_table": cpu_table, "startup": startup_text, "targets": targets_text,
        "lin_table": lin_table, "lin_line": lin_line,
    }


def render_next(polled):
    """`next` beside a one-day agenda of the same calendar (medians)."""
    if not polled:
        return f"_No {', '.join(label(n) for n in NEXT_SIZES)} row in this run: `next` not timed._"
    L = ["| size | one-day agenda (text) | `next` | ratio | `alarms`, nothing due | vs `next` | one-day agenda CPU | `next` CPU | ratio | `alarms` CPU |",
         "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in polled:
        d, n, a = r["day"], r["next"], r["alarms"]
        L.append(f"| {label(r['n'])} | {fmt_s(med(d, 'wall'))} / {fmt_mb(med(d, 'rss_mb'))} "
                 f"| {fmt_s(med(n, 'wall'))} / {fmt_mb(med(n, 'rss_mb'))} | {ratio(med(n, 'wall'), med(d, 'wall'))} "
                 f"| {fmt_s(med(a, 'wall'))} / {fmt_mb(med(a, 'rss_mb'))} | {ratio(med(a, 'wall'), med(n, 'wall'))} "
                 f"| {fmt_s(med(d, 'cpu'))} | {fmt_s(med(n, 'cpu'))} | {ratio(med(n, 'cpu'), med(d, 'cpu'))} | {fmt_s(med(a, 'cpu'))} |")
    return "\n".join(L)


class Served:
    """A folder served over http on loopback (Python's own server: it sends
    Last-Modified and answers If-Modified-Since with 304), for the rows of
    a URL whose copy is fresh or revalidated."""

    def __init__(self, folder):
        import functools
        import http.server
        handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=folder)
        handler.log_message = lambda *a: None
        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.base = f"http://127.0.0.1:{self.server.server_address[1]}"

    def stop(self):
        self.server.shutdown()


def where_calendars_live(args, binary, out_dir, env):
    """One file against the same events as a vdir collection, a URL read
    from its fresh copy, a URL revalidated (304), and several slow URLs at
    once against one: a markdown table."""
    path = generate(out_dir, LIVE_SIZE)
    vdir = os.path.join(out_dir, f"vdir-{LIVE_SIZE}")
    if not os.path.isdir(vdir) or os.path.getmtime(vdir) < os.path.getmtime(path):
        log(f"splitting {rel(path)} into {rel(vdir)} (genvdir.py)")
        shutil.rmtree(vdir, ignore_errors=True)
        r = subprocess.run([sys.executable, GENVDIR, path, vdir, "Bench"])
        if r.returncode != 0:
            raise BenchError("genvdir.py failed")
    files = len([n for n in os.listdir(vdir) if n.endswith(".ics")])
    cache = os.path.join(out_dir, "cache")
    shutil.rmtree(cache, ignore_errors=True)
    live_env = dict(env, XDG_CACHE_HOME=cache, NETRC="/dev/null")
    served = Served(out_dir)
    url = f"{served.base}/{os.path.basename(path)}"
    out = os.path.join(out_dir, "out-live.txt")
    agenda = [binary] + AGENDA_ARGS + ["--format", "text"]
    first = run_measured(agenda + [url], out, args.timeout, live_env)
    check(first, agenda + [url], out, "first fetch of the URL")
    nxt = [binary, "next"] + AGENDA_ARGS
    rows = [("one file", agenda + [path]), (f"vdir collection ({files:,} files)", agenda + [vdir]),
            ("URL, copy younger than --refresh", agenda + [url]), ("URL, revalidated: 304", agenda + ["--refresh", "0", url]),
            ("`next`, one file", nxt + [path]), ("`next`, vdir collection", nxt + [vdir])]
    timed = {name: [] for name, _ in rows}
    for _ in range(args.runs):
        for name, cmd in rows:
            r = run_measured(cmd, out, args.timeout, live_env)
            check(r, cmd, out, name)
            timed[name].append(r)
    served.stop()
    # Slow URLs: the fault server answers /slow/1 after a second.
    urls = None
    if shutil.which("openssl"):
        certs = os.path.join(out_dir, "fault-certs")
        server = subprocess.Popen([sys.executable, FAULT_SERVER, certs], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        port = server.stdout.readline().split()[1]
        slow = lambda i: f"http://127.0.0.1:{port}/slow/1?{i}"  # noqa: E731
        urls = {1: [], URLS_AT_ONCE: []}
        for i in range(args.runs):
            for k in urls:
                cmd = agenda + ["--refresh", "0"] + [slow(f"{i}-{j}") for j in range(k)]
                r = run_measured(cmd, out, args.timeout, live_env)
                check(r, cmd, out, f"{k} slow URLs")
                urls[k].append(r)
        server.stdin.close()
        server.wait()
    base = med(timed["one file"], "wall")
    L = [f"Inputs: `gencal.py {LIVE_SIZE} 7` as one file, split by `scripts/genvdir.py` into one file per UID "
         f"(with the VTIMEZONEs each needs, and a `displayname`), and served over http on loopback. "
         f"Text agenda, medians of {args.runs} runs, alternating.",
         "",
         "| input | wall | vs one file | CPU | peak |", "|---|---:|---:|---:|---:|"]
    next_base = med(timed["`next`, one file"], "wall")
    for name, _ in rows:
        rs = timed[name]
        against = next_base if name.startswith("`next`") else base
        L.append(f"| {name} | {fmt_s(med(rs, 'wall'))} | {ratio(med(rs, 'wall'), against)} | {fmt_s(med(rs, 'cpu'))} "
                 f"| {fmt_mb(med(rs, 'rss_mb'))} |")
    if urls:
        one = med(urls[1], "wall")
        L.append(f"| 1 URL answered after 1 s | {fmt_s(one)} | | {fmt_s(med(urls[1], 'cpu'))} | {fmt_mb(med(urls[1], 'rss_mb'))} |")
        many = med(urls[URLS_AT_ONCE], "wall")
        L.append(f"| {URLS_AT_ONCE} URLs answered after 1 s each | {fmt_s(many)} | {ratio(many, one)} of 1 URL "
                 f"| {fmt_s(med(urls[URLS_AT_ONCE], 'cpu'))} | {fmt_mb(med(urls[URLS_AT_ONCE], 'rss_mb'))} |")
    else:
        L.append("| slow URLs | (no openssl: the fault server cannot start) | | | |")
    vd = med(timed[f"vdir collection ({files:,} files)"], "wall")
    vn = med(timed["`next`, vdir collection"], "wall")
    L.append("")
    L.append("The `next` rows are compared with `next` on the one file: a status bar polls it every minute.")
    L.append("")
    L.append(f"Targets: the vdir collection within 2x one file ({'met' if vd is not None and base and vd <= 2 * base else 'NOT met'}: "
             f"{ratio(vd, base)}); `next` on the vdir within 1.5x `next` on the one file "
             f"({'met' if vn is not None and next_base and vn <= 1.5 * next_base else 'NOT met'}: {ratio(vn, next_base)}); "
             f"a fresh copy costs no more than the file (a 304 adds one request); "
             f"{URLS_AT_ONCE} URLs at once cost the slowest, not the sum.")
    return "\n".join(L)


GRID_SIZE = 20000


def grids(args, binary, out_dir, env):
    """The week grid and the month calendar against the agenda of the same
    days, on gencal's 20k calendar: a markdown table (issue 43's target:
    the week within the one-week agenda's time plus 20%)."""
    path = generate(out_dir, GRID_SIZE)
    grid_env = dict(env, COLUMNS="132")
    out = os.path.join(out_dir, "out-grid.txt")
    rows = [("agenda, one week (--days 7)", [binary] + AGENDA_ARGS + ["--days", "7", path]),
            ("week (132 columns)", [binary, "week"] + AGENDA_ARGS + [path]),
            ("agenda, six weeks (--days 42)", [binary] + AGENDA_ARGS + ["--days", "42", path]),
            ("month (132 columns)", [binary, "month"] + AGENDA_ARGS + [path])]
    timed = {name: [] for name, _ in rows}
    for _ in range(args.runs):
        for name, cmd in rows:
            r = run_measured(cmd, out, args.timeout, grid_env)
            check(r, cmd, out, name)
            timed[name].append(r)
    week_base = med(timed[rows[0][0]], "wall")
    month_base = med(timed[rows[2][0]], "wall")
    L = [f"Input: `gencal.py {GRID_SIZE} 7`, one file. Medians of {args.runs} runs, alternating; COLUMNS=132.",
         "", "| run | wall | vs the agenda of its days | CPU | peak |", "|---|---:|---:|---:|---:|"]
    for i, (name, _) in enumerate(rows):
        rs = timed[name]
        base = week_base if i < 2 else month_base
        L.append(f"| {name} | {fmt_s(med(rs, 'wall'))} | {ratio(med(rs, 'wall'), base) if i % 2 else ''} "
                 f"| {fmt_s(med(rs, 'cpu'))} | {fmt_mb(med(rs, 'rss_mb'))} |")
    week = med(timed[rows[1][0]], "wall")
    met = week is not None and week_base and week <= 1.2 * week_base
    L.append("")
    L.append(f"Target: the week grid within the one-week agenda's time plus 20% ({'met' if met else 'NOT met'}: {ratio(week, week_base)}).")
    return "\n".join(L)


CALDAV_ITEMS = 2000
CALDAV_SERVER = os.path.join(REPO, "scripts", "caldav_server.py")
RADICALE_PYTHON = os.environ.get("ICS_AGENDA_RADICALE_PYTHON", os.path.join(REPO, ".venv-servers", "bin", "python"))


def caldav_account(args, binary, out_dir, env):
    """A CalDAV account of CALDAV_ITEMS items on Radicale (loopback): the
    first sync (requests, time), a refresh with nothing changed, and the
    agenda from the copy against the same files read as a vdir: a markdown
    table. Needs .venv-servers (make test makes it)."""
    if not os.path.exists(RADICALE_PYTHON):
        return "(no Radicale: run `make test` once, it puts Radicale into .venv-servers)"
    vdir = os.path.join(out_dir, f"vdir-{LIVE_SIZE}")
    names = sorted(n for n in os.listdir(vdir) if n.endswith(".ics"))[:CALDAV_ITEMS]
    folder = os.path.join(out_dir, "caldav")
    shutil.rmtree(folder, ignore_errors=True)
    files = os.path.join(folder, "files", "bench")
    os.makedirs(files)
    with open(os.path.join(files, "displayname"), "w") as f:
        f.write("Bench")
    spec = '{"user": "alice", "password": "bench", "calendars": [{"path": "bench", "displayname": "Bench", "components": "VEVENT,VTODO"}]}'
    server = subprocess.Popen([RADICALE_PYTHON, CALDAV_SERVER, folder, spec], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        port = server.stdout.readline().split()[1]
        store = os.path.join(folder, "store", "collection-root", "alice", "bench")
        for name in names:
            shutil.copy(os.path.join(vdir, name), os.path.join(store, name))
            shutil.copy(os.path.join(vdir, name), os.path.join(files, name))
        # Radicale hashes every item the first time it lists them: that is its cost, not ours.
        warm = ["curl", "-s", "-o", "/dev/null", "-u", "alice:bench", "-X", "PROPFIND", "-H", "Depth: 1",
                f"http://127.0.0.1:{port}/alice/bench/"]
        subprocess.run(warm, timeout=600)
        home = os.path.join(folder, "home")
        os.makedirs(home)
        with open(os.path.join(home, ".netrc"), "w") as f:
            f.write("machine 127.0.0.1 login alice password bench\n")
        os.chmod(os.path.join(home, ".netrc"), 0o600)  # a netrc others can read gives no password
        dav_env = dict(env, XDG_CACHE_HOME=os.path.join(home, "cache"), HOME=home)
        dav_env.pop("NETRC", None)
        account = f"dav://127.0.0.1:{port}/"
        log_path = os.path.join(folder, "radicale.log")

        def requests():
            with open(log_path) as f:
                return [line for line in f if " request for " in line and "GET request" not in line]

        out = os.path.join(out_dir, "out-caldav.txt")
        agenda = [binary] + AGENDA_ARGS + ["--format", "text"]
        before = len(requests())
        first = run_measured(agenda + [account], out, args.timeout, dav_env)
        check(first, agenda + [account], out, "first sync of the CalDAV account")
        first_requests = requests()[before:]
        before = len(requests())
        refresh = run_measured(agenda + ["--refresh", "0", account], out, args.timeout, dav_env)
        check(refresh, agenda + ["--refresh", "0", account], out, "an unchanged refresh")
        refresh_requests = requests()[before:]
        rows = [("copy", agenda + ["--offline", account]), ("vdir", agenda + [files])]
        timed = {name: [] for name, _ in rows}
        for _ in range(args.runs):
            for name, cmd in rows:
                r = run_measured(cmd, out, args.timeout, dav_env)
                check(r, cmd, out, f"the agenda from the {name}")
                timed[name].append(r)
    finally:
        server.stdin.close()
        server.wait()
    copy, plain = med(timed["copy"], "wall"), med(timed["vdir"], "wall")
    reports = lambda rs: sum(1 for line in rs if "REPORT request" in line)  # noqa: E731
    L = [f"Radicale on loopback, one calendar of {len(names):,} items (the first of the vdir above); "
         f"text agenda, medians of {args.runs} runs for the last two rows.",
         "",
         "| run | wall | requests | of which REPORT |", "|---|---:|---:|---:|",
         f"| first sync | {fmt_s(first.wall)} | {len(first_requests)} | {reports(first_requests)} |",
         f"| refresh, nothing changed (`--refresh 0`) | {fmt_s(refresh.wall)} | {len(refresh_requests)} | {reports(refresh_requests)} |",
         f"| agenda from the copy (`--offline`) | {fmt_s(copy)} | 0 | 0 |",
         f"| the same items read as a vdir | {fmt_s(plain)} | | |",
         "",
         f"Targets: an unchanged refresh asks at most three requests and no REPORT "
         f"({'met' if len(refresh_requests) <= 3 and reports(refresh_requests) == 0 else 'NOT met'}); "
         f"the agenda from the copy within 1.2x of the vdir "
         f"({'met' if copy is not None and plain and copy <= 1.2 * plain else 'NOT met'}: {ratio(copy, plain)})."]
    return "\n".join(L)


# The first sync of a large account, from the loopback fault server's bulk
# mode (scripts/caldav_fault_server.py): how long it takes, and how much of
# it is the copy's durability (each item file is written and fsynced).
CALDAV_SYNC_ITEMS = 20000
CALDAV_SYNC_RUNS = 3
CALDAV_FAULT_SERVER = os.path.join(REPO, "scripts", "caldav_fault_server.py")
CALDAV_SYNC_TITLE = "## The first sync of a large CalDAV account"
TMPFS = "/dev/shm"
STRACED = ("fsync", "fdatasync", "syncfs", "write", "rename", "renameat", "renameat2", "openat")


def strace_counts(path):
    """`strace -c -w` summary: syscall -> (calls, seconds)."""
    counts = {}
    with open(path) as f:
        for line in f:
            fields = line.split()
            # % time, seconds, usecs/call, calls, [errors,] syscall
            if len(fields) >= 5 and fields[-1] in STRACED and fields[3].isdigit():
                counts[fields[-1]] = (int(fields[3]), float(fields[1]))
    return counts


def filesystem(path):
    """The file system PATH is on (findmnt names ext4 as such; stat -f says ext2/ext3)."""
    if shutil.which("findmnt"):
        return sh(["findmnt", "-n", "-o", "FSTYPE", "-T", path])
    return sh(["stat", "-f", "-c", "%T", path])


def caldav_first_sync(args, binary, out_dir, env, info):
    """The first sync of one calendar of CALDAV_SYNC_ITEMS events from the
    fault server's bulk mode into an empty cache: its wall time (median of
    CALDAV_SYNC_RUNS) with the cache on the disk bench-out/ is on, and the
    same on tmpfs, where fsync costs nothing: the difference is what the
    copy's durability costs. Then one more run on the disk under `strace -f
    -c -w`: how many fsyncs, and the wall time spent in them."""
    folder = os.path.join(out_dir, "caldav-sync")
    shutil.rmtree(folder, ignore_errors=True)
    home = os.path.join(folder, "home")
    os.makedirs(home)
    fd = os.open(os.path.join(home, ".netrc"), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as f:
        f.write("machine 127.0.0.1 login alice password bench\n")
    dav_env = dict(env, HOME=home)
    for name in ("NETRC", "http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "all_proxy"):
        dav_env.pop(name, None)
    roots = {"disk": os.path.join(folder, "cache")}
    if os.path.isdir(TMPFS) and filesystem(TMPFS) == "tmpfs":
        roots["tmpfs"] = tempfile.mkdtemp(prefix="ics-agenda-bench-", dir=TMPFS)
    kept_caches = []
    server = subprocess.Popen([sys.executable, CALDAV_FAULT_SERVER, os.path.join(folder, "server")],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        port = server.stdout.readline().split()[1]
        name = f"bulk-{CALDAV_SYNC_ITEMS}-bench"
        account = f"dav://127.0.0.1:{port}/t/{name}/"
        agenda = [binary] + AGENDA_ARGS + ["--format", "text", account]
        out = os.path.join(out_dir, "out-caldav-sync.txt")

        direct = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # loopback, never a proxy

        def asked():
            with direct.open(f"http://127.0.0.1:{port}/log", timeout=60) as r:
                return [line for line in r.read().decode().splitlines() if f"/t/{name}/" in line]

        # The server makes its answers on the account's first request: not measured.
        warm = urllib.request.Request(f"http://127.0.0.1:{port}/t/{name}/", method="PROPFIND")
        direct.open(warm, timeout=120).read()
        timed = {where: [] for where in roots}
        offline = []  # the agenda from the copy just made, without asking the server
        items, requests = None, None
        for i in range(CALDAV_SYNC_RUNS):
            for where, root in roots.items():
                cache = os.path.join(root, f"run-{i}")
                os.sync()  # no writeback of an earlier run's files during this one
                before = len(asked())
                r = run_measured(agenda, out, args.timeout, dict(dav_env, XDG_CACHE_HOME=cache))
                check(r, agenda, out, f"the first sync of {CALDAV_SYNC_ITEMS} items ({where})")
                timed[where].append(r)
                kept = sum(len([n for n in names if n.endswith(".ics")]) for _, _, names in os.walk(cache))
                if items is None:
                    items, requests = kept, asked()[before:]
                if where == "disk":
                    cmd = agenda[:-1] + ["--offline", account]
                    r = run_measured(cmd, out, args.timeout, dict(dav_env, XDG_CACHE_HOME=cache))
                    check(r, cmd, out, "the agenda from the copy (--offline)")
                    offline.append(r)
                # Removed after the last run, not here: 20,000 files deleted on a file system
                # mounted with `discard` slowed the next run's creations several times over.
                kept_caches.append(cache)
            log(f"  run {i + 1}: " + ", ".join(f"{w} {fmt_s(timed[w][-1].wall)}" for w in roots))
        traced = None
        if shutil.which("strace"):
            cache = os.path.join(roots["disk"], "strace")
            summary = os.path.join(folder, "strace.txt")
            os.sync()
            cmd = ["strace", "-f", "-c", "-w", "-o", summary, "-e", "trace=" + ",".join(STRACED)] + agenda
            r = run_measured(cmd, out, args.timeout, dict(dav_env, XDG_CACHE_HOME=cache))
            check(r, cmd, out, "the first sync under strace")
            traced = strace_counts(summary)
            shutil.rmtree(cache)
    finally:
        server.stdin.close()
        server.wait()
        for cache in kept_caches:
            shutil.rmtree(cache, ignore_errors=True)
        if "tmpfs" in roots:
            shutil.rmtree(roots["tmpfs"], ignore_errors=True)
    disk = med(timed["disk"], "wall")
    tmpfs = med(timed["tmpfs"], "wall") if "tmpfs" in timed else None
    multigets = sum(1 for line in requests if line.startswith("REPORT"))
    L = [f"The fault server's bulk mode (`scripts/caldav_fault_server.py`, loopback, plain http) serves one "
         f"calendar of {CALDAV_SYNC_ITEMS:,} events; each run syncs it into an empty `XDG_CACHE_HOME` "
         f"(the text agenda of `{shlex.join(AGENDA_ARGS)}` is printed after), "
         f"median of {CALDAV_SYNC_RUNS} runs, the two caches alternately. "
         f"Measured {datetime.datetime.now().astimezone().strftime('%Y-%m-%d %H:%M %Z').strip()}, "
         f"binary {info['binary']}, commit {info['commit']}, load average {loadavg()}.",
         "",
         "| the copy written to | first sync, wall | CPU (user + system) |", "|---|---:|---:|",
         f"| disk (`bench-out/`, {filesystem(folder)}) | {fmt_s(disk)} | {fmt_s(med(timed['disk'], 'cpu'))} |"]
    if tmpfs is not None:
        L.append(f"| tmpfs (`{TMPFS}`: fsync costs nothing) | {fmt_s(tmpfs)} | {fmt_s(med(timed['tmpfs'], 'cpu'))} |")
    L.append(f"| (the same agenda from the copy, `--offline`: no sync) | {fmt_s(med(offline, 'wall'))} | "
             f"{fmt_s(med(offline, 'cpu'))} |")
    L.append("")
    L.append(f"Each run: {len(requests)} requests, of which {multigets} REPORT (calendar-multiget); "
             f"{items:,} item files kept.")
    if tmpfs is not None:
        L.append(f"What the disk costs (disk minus tmpfs: the file system's making of {items:,} new files, "
                 f"and their sync): {fmt_s(disk - tmpfs)}, "
                 f"{100 * (disk - tmpfs) / disk:.0f}% of the first sync on the disk.")
    if traced is not None:
        calls = lambda name: traced.get(name, (0, 0.0))[0]  # noqa: E731
        seconds = lambda names: sum(traced.get(n, (0, 0.0))[1] for n in names)  # noqa: E731
        synced = seconds(("fsync", "fdatasync", "syncfs"))
        written = seconds(("write", "openat", "rename", "renameat", "renameat2"))
        L.append(f"One more run on the disk under `strace -f -c -w`: {calls('fsync'):,} fsync "
                 f"({calls('fsync') / max(items, 1):.2f} an item file), "
                 f"{calls('fdatasync'):,} fdatasync, {calls('syncfs'):,} syncfs; "
                 f"{calls('rename') + calls('renameat') + calls('renameat2'):,} renames, "
                 f"{calls('openat'):,} openat, {calls('write'):,} write; "
                 f"{synced:.3f} s of wall time inside the syncs, {written:.3f} s inside the writes, opens and renames "
                 f"(summed over threads; strace slows each call).")
    L.append("")
    L.append(f"Rerun this section alone: `python3 scripts/bench.py --only caldav-sync --write docs/PERFORMANCE.md`.")
    return "\n".join(L)


def replace_section(text, title, body, before):
    """TEXT with the section TITLE (up to the next `## `) made BODY; a
    section not there yet goes before the section BEFORE, else at the end."""
    section = f"{title}\n\n{body}\n\n"
    start = text.find(title + "\n")
    if start >= 0:
        end = text.find("\n## ", start + len(title))
        return text[:start] + section + (text[end + 1:] if end >= 0 else "")
    at = text.find(before + "\n")
    return text[:at] + section + text[at:] if at >= 0 else text.rstrip("\n") + "\n\n" + section


def fmt_count(n):
    return "?" if n is None else f"{n:,}"


def document(parts, args, info, cmdline, started, load_before, load_after):
    d = []
    d.append("# Performance")
    d.append("")
    d.append("Written by `scripts/bench.py` (`make bench`); do not edit by hand, re-run it. "
             "ics-agenda is compared with `libical_floor.c` (the benchmark kit beside the repository): the naive libical "
             "program that parses the whole file and expands every VEVENT/VTODO over one year, "
             "without grouping or printing. Inputs are `gencal.py N 7`. Each cell is the median of "
             f"{args.runs} runs, the floor and ics-agenda run alternately; time is wall-clock, memory is "
             "peak resident set size (`ru_maxrss` from `wait4`). Ratios are ours / floor: lower is better. "
             "Output goes to a file. Timings from one run are comparable with each other only.")
    d.append("")
    d.append(f"- Date: {started.strftime('%Y-%m-%d %H:%M %Z').strip()}")
    d.append(f"- Machine: {info['nproc']} CPUs ({info['cpu']}), {info['memory']} memory, {info['kernel']}")
    d.append(f"- Toolchain: {info['swift']}; libical {info['libical']}; Python {info['python']}")
    d.append(f"- Binary: {info['binary']}, commit {info['commit']}")
    d.append(f"- Load average before / after: {load_before} / {load_after}")
    d.append(f"- Command: `{cmdline}`")
    d.append(f"- ics-agenda arguments: `{shlex.join(AGENDA_ARGS)} --format json|text FILE`")
    d.append("")
    d.append("## Results")
    d.append("")
    d.append(parts["table"])
    d.append("")
    d.append("Occurrences: the floor's count / ics-agenda's JSON lines (of which reminders) / "
             "JSON lines with `--show-cancelled --completed`. See Targets for why they differ.")
    d.append("")
    d.append("CPU time (user + system), medians:")
    d.append("")
    d.append(parts["cpu_table"])
    d.append("")
    d.append("## Targets")
    d.append("")
    d.append(parts["targets"])
    d.append("")
    d.append("## Start-up")
    d.append("")
    d.append("Target: a 1k-component calendar within a few milliseconds of the binary's own start-up.")
    d.append("")
    d.append(parts["startup"])
    d.append("")
    d.append("## `next` for status bars")
    d.append("")
    d.append("Target: `ics-agenda next` (polled every minute) takes no longer than a one-day agenda "
             "(`--days 1`) of the same calendar; it reads only now .. now + 24 h. `ics-agenda alarms` (run every "
             "minute from cron; here each run after the first finds nothing due) costs about what `next` does: "
             "it reads the occurrences whose alarms can ring: an hour on either side of the span, and a day "
             "more as far as the calendar's own alarms reach (gencal's have none; it reads the span's TRIGGER lines).")
    d.append("")
    d.append(parts["next"])
    d.append("")
    d.append("## Where calendars live: vdir folders and URLs")
    d.append("")
    d.append(parts["live"])
    d.append("")
    if parts.get("caldav"):
        d.append("## A CalDAV account")
        d.append("")
        d.append(parts["caldav"])
        d.append("")
    if parts.get("caldav_sync"):
        d.append(CALDAV_SYNC_TITLE)
        d.append("")
        d.append(parts["caldav_sync"])
        d.append("")
    if parts.get("grid"):
        d.append("## The week grid and the month calendar")
        d.append("")
        d.append(parts["grid"])
        d.append("")
    d.append("## Linearity")
    d.append("")
    d.append("Target: cost grows linearly with the number of components.")
    d.append("")
    d.append(parts["lin_line"])
    d.append("")
    d.append(parts["lin_table"])
    d.append("")
    if parts.get("profile"):
        d.append("## Instructions")
        d.append("")
        d.append("Instructions executed (valgrind `--tool=callgrind`), one thread, on the 10k calendar: "
                 "repeatable whatever else the machine is doing.")
        d.append("")
        d.append(parts["profile"])
        d.append("")
    return "\n".join(d)


def without_debug_info(binary, out_dir, label):
    """A copy of `binary` without its debug sections: valgrind gives up on
    the DWARF 5 that RE2's C++ objects carry ("unhandled dwarf2 abbrev form")."""
    copy = os.path.join(out_dir, re.sub(r"[^a-z]+", "-", label).strip("-") + "-nodebug")
    subprocess.run(["objcopy", "--strip-debug", binary, copy], check=True)
    return copy


def profile(args, binary, floor, out_dir, env):
    """A markdown table of instruction counts, or a line saying why there is none."""
    if shutil.which("valgrind") is None:
        return "(valgrind is not installed: `apt-get install valgrind` for this table)"
    cal = generate(out_dir, 10000)
    one = dict(env, ICS_AGENDA_THREADS="1")
    programs = [("libical floor", [floor, cal])]
    for label, b in (("ics-agenda", binary),) + ((("ics-agenda (baseline)", os.path.abspath(args.baseline)),) if args.baseline else ()):
        b = without_debug_info(b, out_dir, label)
        for fmt in ("json", "text"):
            programs.append((f"{label} --format {fmt}", [b] + AGENDA_ARGS + ["--format", fmt, cal]))
    rows = ["| program | instructions | vs floor |", "|---|---:|---:|"]
    floor_count = None
    for label, cmd in programs:
        log(f"callgrind: {label}")
        out_file = os.path.join(out_dir, "callgrind.out")
        r = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out_file}"] + cmd,
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=one, text=True)
        m = re.search(r"I\s+refs:\s+([\d,]+)", r.stderr)
        if not m:
            rows.append(f"| {label} | (failed) | |")
            continue
        count = int(m.group(1).replace(",", ""))
        floor_count = floor_count or count
        rows.append(f"| {label} | {count / 1e9:.2f} G | {count / floor_count:.2f}x |")
    return "\n".join(rows)


# --------------------------------------------------------------------------- main

def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--binary", default=".build/release/ics-agenda",
                    help="ics-agenda to measure, relative to the repository root (default %(default)s)")
    ap.add_argument("--sizes", default="1000,10000,100000,300000",
                    help="comma-separated component counts for gencal.py (default %(default)s)")
    ap.add_argument("--runs", type=int, default=5, help="runs per program and size (default %(default)s)")
    ap.add_argument("--quick", action="store_true", help="sizes 1000,10000 and 3 runs")
    ap.add_argument("--write", metavar="FILE", help="also write the report to FILE (e.g. docs/PERFORMANCE.md)")
    ap.add_argument("--out-dir", default="bench-out",
                    help="generated inputs, the floor binary and outputs (default %(default)s)")
    ap.add_argument("--profile", action="store_true",
                    help="also count instructions with valgrind --tool=callgrind on the 10k calendar "
                         "(one thread: ICS_AGENDA_THREADS=1), a figure that does not depend on machine load")
    ap.add_argument("--baseline", metavar="BINARY",
                    help="with --profile: an older ics-agenda to count too, for a before/after line")
    ap.add_argument("--timeout", type=float, default=600,
                    help="seconds before a single run is killed and recorded as a timeout (default %(default)s)")
    ap.add_argument("--only", choices=["caldav-sync"],
                    help="run one section alone (about a minute): caldav-sync, the first sync of a "
                         f"{CALDAV_SYNC_ITEMS:,}-item CalDAV account; with --write, only that section of FILE is replaced")
    args = ap.parse_args(argv)
    cmdline = "python3 scripts/bench.py" + ("" if not sys.argv[1:] else " " + shlex.join(sys.argv[1:]))
    if args.quick:
        args.sizes, args.runs = "1000,10000", 3
    try:
        sizes = [int(s.replace("_", "")) for s in args.sizes.split(",") if s.strip()]
    except ValueError:
        ap.error(f"--sizes: comma-separated whole numbers expected, got {args.sizes!r}")
    if not sizes or any(n < 1 for n in sizes):
        ap.error("--sizes: at least one size, each 1 or more")
    if args.runs < 1:
        ap.error("--runs: 1 or more")

    binary = os.path.join(REPO, args.binary)
    out_dir = os.path.join(REPO, args.out_dir)
    if not (os.path.isfile(binary) and os.access(binary, os.X_OK)):
        raise BenchError(f"ics-agenda binary not found: {binary}\n"
                         "build it first: make release (or pass --binary PATH)")
    if not os.path.exists(GENCAL):
        raise BenchError(f"gencal.py missing: {GENCAL}")
    os.makedirs(out_dir, exist_ok=True)

    if args.only == "caldav-sync":
        return only_caldav_sync(args, binary, out_dir)

    started = datetime.datetime.now().astimezone()
    load_before = loadavg()
    floor = build_floor(out_dir)
    cals = {n: generate(out_dir, n) for n in sizes}
    empty = empty_calendar(out_dir)

    env = bench_env()

    out = lambda name: os.path.join(out_dir, name)  # noqa: E731

    def ours(fmt, path, extra=()):
        return [binary] + AGENDA_ARGS + list(extra) + ["--format", fmt, path]

    # Warm-up: page cache for binary, libraries and inputs; not measured.
    log("warm-up")
    for n, path in cals.items():
        with open(path, "rb") as f:
            while f.read(1 << 22):
                pass
    for cmd in ([binary, "--help"], ours("json", empty), [floor, empty]):
        r = run_measured(cmd, out("warmup.out"), args.timeout, env)
        check(r, cmd, out("warmup.out"), "warm-up " + os.path.basename(cmd[0]))

    # Start-up: --help and an empty calendar, alternately.
    startup = {"help": [], "empty": []}
    reps = max(args.runs, 5)
    for _ in range(reps):
        for key, cmd in (("help", [binary, "--help"]), ("empty", ours("json", empty))):
            r = run_measured(cmd, out(f"startup-{key}.out"), args.timeout, env)
            check(r, cmd, out(f"startup-{key}.out"), f"ics-agenda ({key})")
            startup[key].append(r)
    log(f"start-up: --help {fmt_s(med(startup['help'], 'wall'))}, empty calendar "
        f"{fmt_s(med(startup['empty'], 'wall'))}")

    results = []
    for n in sizes:
        path = cals[n]
        res = {"n": n, "components": count_components(path), "mb": os.path.getsize(path) / 1e6,
               "floor": [], "json": [], "text": [], "floor_count": None, "json_count": None,
               "json_all_count": None, "json_reminders": None, "json_bytes": None}
        log(f"size {n}: {res['components']} components, {res['mb']:.1f} MB, {args.runs} runs")
        progs = (("floor", [floor, path]), ("json", ours("json", path)), ("text", ours("text", path)))
        for i in range(args.runs):
            for key, cmd in progs:
                o = out(f"out-{n}-{key}.txt")
                r = run_measured(cmd, o, args.timeout, env)
                check(r, cmd, o, f"{key} on {os.path.basename(path)}")
                res[key].append(r)
                if not r.timed_out:
                    if key == "floor":
                        res["floor_count"] = floor_count(o)
                    elif key == "json" and res["json_count"] is None:
                        res["json_count"] = count_lines(o)
                        res["json_bytes"] = os.path.getsize(o)
                        res["json_reminders"] = count_reminders(o)
            log(f"  run {i + 1}: " + ", ".join(f"{k} {fmt_s(res[k][-1].wall if not res[k][-1].timed_out else None)}"
                                              f" {fmt_mb(res[k][-1].rss_mb)}" for k, _ in progs))
        # Once, untimed: everything, cancelled and completed included.
        cmd = ours("json", path, ALL_ITEMS_ARGS)
        o = out(f"out-{n}-json-all.txt")
        r = run_measured(cmd, o, args.timeout, env)
        check(r, cmd, o, f"json --show-cancelled --completed on {os.path.basename(path)}")
        if not r.timed_out:
            res["json_all_count"] = count_lines(o)
        results.append(res)

    # `next` beside a one-day agenda, alternately.
    polled = []
    for n in sizes:
        if n not in NEXT_SIZES:
            continue
        path = cals[n]
        row = {"n": n, "day": [], "next": [], "alarms": []}
        state = os.path.join(out_dir, f"alarms-state-{n}")
        progs = (("day", [binary] + AGENDA_ARGS + ["--days", "1", path]), ("next", [binary, "next"] + AGENDA_ARGS + [path]),
                 ("alarms", [binary, "alarms", "--state", state] + AGENDA_ARGS + [path]))
        for i in range(args.runs):
            for key, cmd in progs:
                o = out(f"out-{n}-{key}.txt")
                r = run_measured(cmd, o, args.timeout, env)
                check(r, cmd, o, f"{key} on {os.path.basename(path)}")
                row[key].append(r)
        log(f"size {n}: one-day agenda {fmt_s(med(row['day'], 'wall'))}, next {fmt_s(med(row['next'], 'wall'))}, "
            f"alarms {fmt_s(med(row['alarms'], 'wall'))}")
        polled.append(row)

    log("where calendars live: one file, a vdir collection, a URL")
    live = where_calendars_live(args, binary, out_dir, env)

    log(f"the week grid and the month calendar on {GRID_SIZE} components")
    grid = grids(args, binary, out_dir, env)

    log(f"a CalDAV account of {CALDAV_ITEMS} items on Radicale")
    caldav = caldav_account(args, binary, out_dir, env)

    info = machine_info(binary)
    log(f"the first sync of a CalDAV account of {CALDAV_SYNC_ITEMS} items (loopback fault server)")
    caldav_sync = caldav_first_sync(args, binary, out_dir, env, info)

    load_after = loadavg()
    parts = render(results, startup, args, info, cmdline, started, load_before, load_after)
    parts["next"] = render_next(polled)
    parts["live"] = live
    parts["caldav"] = caldav
    parts["caldav_sync"] = caldav_sync
    parts["grid"] = grid
    parts["profile"] = profile(args, binary, floor, out_dir, env) if args.profile else None
    if parts["profile"]:
        print(parts["profile"])
        print()
    print(parts["table"])
    print()
    print(parts["cpu_table"])
    print()
    print(parts["targets"])
    print()
    print(parts["startup"])
    print()
    print(parts["next"])
    print()
    print(parts["live"])
    print()
    print(parts["caldav"])
    print()
    print(parts["caldav_sync"])
    print()
    print(parts["grid"])
    print()
    print(parts["lin_line"])
    print()
    print(f"machine: {info['nproc']} CPUs ({info['cpu']}), {info['memory']}, {info['kernel']}; "
          f"load average {load_before} -> {load_after}")
    if args.write:
        dest = os.path.join(REPO, args.write)
        os.makedirs(os.path.dirname(dest) or ".", exist_ok=True)
        with open(dest + ".tmp", "w") as f:
            f.write(document(parts, args, info, cmdline, started, load_before, load_after))
        os.replace(dest + ".tmp", dest)
        log(f"wrote {rel(dest)}")
    return 0


def bench_env():
    env = dict(os.environ)
    for k in ("ICS_AGENDA_NOW", "NO_COLOR", "LC_ALL", "LC_TIME", "LANG"):
        env.pop(k, None)
    env["TZ"] = "Europe/Berlin"
    env["ICS_AGENDA_CONFIG"] = "/dev/null"  # never the developer's own configuration
    return env


def only_caldav_sync(args, binary, out_dir):
    """`--only caldav-sync`: that section alone, printed; with --write,
    put in place of its own in FILE, the rest of FILE left as it is."""
    info = machine_info(binary)
    log(f"the first sync of a CalDAV account of {CALDAV_SYNC_ITEMS} items (loopback fault server)")
    section = caldav_first_sync(args, binary, out_dir, bench_env(), info)
    print(section)
    if args.write:
        dest = os.path.join(REPO, args.write)
        text = open(dest).read() if os.path.exists(dest) else "# Performance\n\n"
        with open(dest + ".tmp", "w") as f:
            f.write(replace_section(text, CALDAV_SYNC_TITLE, section, "## The week grid and the month calendar"))
        os.replace(dest + ".tmp", dest)
        log(f"wrote the section \"{CALDAV_SYNC_TITLE[3:]}\" of {rel(dest)}")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BenchError as e:
        log(f"bench.py: {e}")
        sys.exit(1)
    except KeyboardInterrupt:
        sys.exit(130)
