"""Runs the reference oracle on many files in one Python process.

Run with the oracle's venv (`.venv-oracle/bin/python scripts/oracle_batch.py
ORACLE_PY < jobs.json`): each job is {"file", "from", "to", "tz"}; the answer
on stdout is one JSON object per job, {"file", "status", "rows"} with the
oracle's lines, so that a few hundred files cost one start-up of icalendar,
not a few hundred.
"""
import contextlib
import importlib.util
import io
import json
import sys


def main():
    spec = importlib.util.spec_from_file_location("oracle", sys.argv[1])
    oracle = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(oracle)
    for job in json.load(sys.stdin):
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = oracle.main(["--from", job["from"], "--to", job["to"], "--tz", job["tz"], job["file"]])
        rows = [json.loads(line) for line in out.getvalue().splitlines() if line.strip()]
        print(json.dumps({"file": job["file"], "status": status, "rows": rows, "error": err.getvalue().strip()}))


if __name__ == "__main__":
    main()
