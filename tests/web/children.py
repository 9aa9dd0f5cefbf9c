"""The processes a web test starts (arena runs, servers): none outlives
the test, whatever way it ends, and a failure stops them and says how
loaded the host was (tests/timing.py). A test appends each process it
starts to `procs` and fails through `fail`."""
import atexit
import os
import sys
import time

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


def until(cond, timeout, what):
    """cond()'s first true value, asked every 0.2 s; a failure after
    timeout seconds."""
    end = time.time() + timeout
    while time.time() < end:
        v = cond()
        if v:
            return v
        time.sleep(0.2)
    fail("timed out after %s s waiting for %s" % (timeout, what))


def rss_kb(pid):
    """A process's resident memory, KiB (0 once it is gone)."""
    try:
        with open("/proc/%d/status" % pid) as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0
