"""What the loopback test servers share: when each stops.

The test process starts each server with nothing of its own but standard
input, output and error (Tests/CLITests/LoopbackServer.swift), and holds
the standard input's other end: a server stops when that ends.
"""
import sys
import threading
import time

# Longer than any run of the suites (make check-all's, with the sanitizers
# or the debug binary); the standard input's end is what stops a server.
LIFETIME_SECONDS = 60 * 60


def serve_until_parent_goes(stop):
    """Calls STOP when standard input ends (the test process that started
    this one has gone), or after LIFETIME_SECONDS, whichever comes first."""
    threading.Thread(target=lambda: (sys.stdin.read(), stop()), daemon=True).start()
    time.sleep(LIFETIME_SECONDS)
    stop()
