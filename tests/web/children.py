"""The processes a web test starts (arena runs, servers): none outlives
the test, whatever way it ends, and a failure stops them and says how
loaded the host was (tests/timing.py). A test appends each process it
starts to `procs` and fails through `fail`."""
import atexit
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from timing import load_report  # noqa: E402

procs = []


@atexit.register
def _reap():
    for p in procs:
        if p.poll() is None:
            p.kill()
            p.wait()


def fail(msg):
    for p in procs:
        if p.poll() is None:
            p.kill()
    raise SystemExit("FAIL: %s (host load: %s)" % (msg, load_report()))
