#!/usr/bin/python3
"""bench/scale: `arena tournament --concurrency N` on nim with two spawned
random-c agents, against the one-process epoll ping-pong floor over the same
pipes (bench-scale-floor), for N = 1, 10, 100, 300, 1000.

  bench/scale/run.py [BUILD_DIR] [N...]

Per N: steady throughput (decide/act and hello/ready round trips per second,
measured from the progress lines between max(25 %, 2N games) and 90 % of
the games, so the start-up of the 2N agent processes, which costs ~10 ms
each on a small VM, and the tail are left out), the floor's round trips
per second, their ratio (floor / arena: 1.0 would be the floor), the
referee's peak RSS and the RSS per concurrent match (peak minus the N = 1
peak, over N - 1). The open-file soft limit is lowered to 1,024 (the common
default) for the arena run: the referee raises it itself.
"""
import os
import re
import resource
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time

build = sys.argv[1] if len(sys.argv) > 1 else "build"
ns = [int(x) for x in sys.argv[2:]] or [1, 10, 100, 300, 1000]
arena = os.path.join(build, "arena")
random_c = os.path.abspath(os.path.join(build, "agents/random-c/random-c"))
floor = os.path.join(build, "bench/scale/bench-scale-floor")


def soft_1024():
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(1024, hard), hard))


def run_arena(n, games, work):
    db = os.path.join(work, "n%d.sqlite" % n)
    cmd = [arena, "tournament", "--game", "nim", "--agent", "a=" + random_c, "--agent",
           "b=" + random_c, "--games-per-pairing", str(games), "--concurrency", str(n),
           "--move-ms", "100", "--logs", "none", "--db", db]
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                         preexec_fn=soft_1024)
    peak = [0]

    def watch():
        while p.poll() is None:
            try:
                with open("/proc/%d/status" % p.pid) as f:
                    m = re.search(r"VmHWM:\s+(\d+) kB", f.read())
                    if m:
                        peak[0] = max(peak[0], int(m.group(1)))
            except OSError:
                pass
            time.sleep(0.2)

    w = threading.Thread(target=watch)
    w.start()
    marks = []
    t0 = time.monotonic()
    for line in p.stderr:
        m = re.match(r"(\d+)/(\d+) games", line)
        if m:
            marks.append((time.monotonic(), int(m.group(1))))
    p.wait()
    w.join()
    wall = time.monotonic() - t0
    if p.returncode != 0:
        sys.exit("run.py: arena failed at N=%d" % n)
    c = sqlite3.connect(db)
    turns, forfeits = c.execute(
        "SELECT sum(turns), sum(reason != 'normal' OR replace(forfeits, ',', '') != '')"
        " FROM games").fetchone()
    c.close()
    trips_per_game = turns / games + 2  # decisions + a hello/ready per seat
    lo = [mk for mk in marks if mk[1] >= max(0.25 * games, 2 * n)]
    hi = [mk for mk in marks if mk[1] <= 0.9 * games]
    if lo and hi and hi[-1][0] > lo[0][0]:
        gps = (hi[-1][1] - lo[0][1]) / (hi[-1][0] - lo[0][0])
    else:
        gps = games / wall
    return gps * trips_per_game, gps, wall, peak[0], forfeits


def run_floor(n):
    out = subprocess.run([floor, str(n), "3"], capture_output=True, text=True, check=True)
    return float(re.search(r'"round_trips_per_s":([\d.]+)', out.stdout).group(1))


rows = []
with tempfile.TemporaryDirectory() as work:
    base_rss = None
    for n in ns:
        games = max(4000, 6 * n)
        trips, gps, wall, rss, forfeits = run_arena(n, games, work)
        fl = run_floor(n)
        if base_rss is None:
            base_rss = rss
        per = (rss - base_rss) / (n - 1) if n > 1 else float("nan")
        rows.append((n, games, gps, trips, fl, fl / trips, rss, per, forfeits, wall))
        print("N=%d done" % n, file=sys.stderr, flush=True)

print("| N | games | games/s | round trips/s | floor trips/s | floor/arena | "
      "peak RSS | RSS per match | forfeits | wall |")
print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
for n, games, gps, trips, fl, ratio, rss, per, forfeits, wall in rows:
    print("| %d | %d | %.0f | %.0f | %.0f | %.2f | %.1f MiB | %s | %d | %.0f s |" %
          (n, games, gps, trips, fl, ratio, rss / 1024,
           "-" if per != per else "%.1f KiB" % per, forfeits, wall))
