#!/usr/bin/python3
"""bench/scale: `arena tournament --concurrency N` on nim with two spawned
random-c agents, against the one-process epoll ping-pong floor over the same
pipes (bench-scale-floor), for N = 1, 10, 100, 300, 1000.

  bench/scale/run.py [BUILD_DIR] [N...]

Per N: steady throughput in round trips per second (decide/act, plus one
hello/ready per seat and game), the floor's round trips per second, their
ratio (arena / floor in time per round trip: 1.0 would be the floor); the
same floor with real random-c bots as its peers answering a real nim decide
frame (bench/scale/nim-decide.msgpack), and the arena's ratio to that, which
is the part of the gap that is the referee's and not the bots'; the
referee's RSS while the N matches run (the largest sample in the steady
window, so not the final report) and the RSS per concurrent match (that
minus the N = 1 figure, over N - 1). The open-file soft limit is lowered to
1,024 (the common default) for the arena run: the referee raises it itself.

"Steady" means all 2N agents are running: starting one costs ~10 ms on a
small VM, so at N = 1,000 the first 20-40 s are start-up. The window opens
when the last agent has exec'd (watched in /proc) or at 25 % of the games,
whichever is later, and closes at 90 % of the games; the trips counted are
those of the games finished inside it (their `finished_at`, ms resolution).
Each N plays 60,000 games (SCALE_GAMES=K for a quicker look), so that the
window lasts seconds even at N = 1,000. SCALE_CLOCK=wall|cpu|fair times the
arena's games by that clock (unset: the arena's default, fair).

Runs of the same binary differ by 10-20 % on a small VM, and more at
N = 1,000, so each N is measured SCALE_ROUNDS times (3 unless set), the
arena, the floor and the floor with bots in turn each round: the table gives
the median of each, their ratios, and the range of the per-round ratios.
"""
import datetime
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
# The same for every N: the referee holds the schedule in memory, so the
# RSS per match is only comparable at an equal number of games.
GAMES = int(os.environ.get("SCALE_GAMES", "60000"))
CLOCK = os.environ.get("SCALE_CLOCK")  # --clock for the arena; unset: its default (fair)
ROUNDS = int(os.environ.get("SCALE_ROUNDS", "3"))


def soft_1024():
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(1024, hard), hard))


def running_agents(pid):
    """How many of pid's children have exec'd random-c."""
    try:
        with open("/proc/%d/task/%d/children" % (pid, pid)) as f:
            kids = f.read().split()
    except OSError:
        return 0
    n = 0
    for k in kids:
        try:
            with open("/proc/%s/comm" % k) as f:
                n += f.read().strip() == "random-c"
        except OSError:
            pass
    return n


def epoch_of(iso):
    return datetime.datetime.strptime(iso, "%Y-%m-%dT%H:%M:%S.%fZ").replace(
        tzinfo=datetime.timezone.utc).timestamp()


def run_arena(n, games, work, rnd):
    db = os.path.join(work, "n%d-%d.sqlite" % (n, rnd))
    cmd = [arena, "tournament", "--game", "nim", "--agent", "a=" + random_c, "--agent",
           "b=" + random_c, "--games-per-pairing", str(games), "--concurrency", str(n),
           "--move-ms", "100", "--logs", "none", "--db", db] + (["--clock", CLOCK] if CLOCK else [])
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                         preexec_fn=soft_1024)
    rss = []  # (epoch s, VmRSS kB) samples
    all_up = [None]  # wall-clock time (epoch s) when all 2N agents ran

    def watch():
        while p.poll() is None:
            try:
                with open("/proc/%d/status" % p.pid) as f:
                    m = re.search(r"VmRSS:\s+(\d+) kB", f.read())
                    if m:
                        rss.append((time.time(), int(m.group(1))))
            except OSError:
                pass
            # Stop scanning /proc once all are up: the scan costs CPU.
            if all_up[0] is None and running_agents(p.pid) >= 2 * n:
                all_up[0] = time.time()
            time.sleep(0.2)

    w = threading.Thread(target=watch)
    t0 = time.monotonic()
    w.start()
    p.wait()
    w.join()
    wall = time.monotonic() - t0
    if p.returncode != 0:
        sys.exit("run.py: arena failed at N=%d" % n)
    c = sqlite3.connect(db)
    rows = c.execute("SELECT finished_at, turns FROM games ORDER BY finished_at").fetchall()
    forfeits = c.execute(
        "SELECT sum(reason != 'normal' OR replace(forfeits, ',', '') != '') FROM games"
    ).fetchone()[0]
    c.close()
    if all_up[0] is None:
        sys.exit("run.py: never saw all %d agents running at N=%d" % (2 * n, n))
    ends = [epoch_of(r[0]) for r in rows]
    lo = max(int(0.25 * len(rows)), next(i for i, t in enumerate(ends) if t >= all_up[0]))
    hi = int(0.9 * len(rows))
    if hi - lo < len(rows) // 4:
        sys.exit("run.py: steady window too short at N=%d (%d games)" % (n, hi - lo))
    trips = sum(t + 2 for _, t in rows[lo + 1:hi + 1])  # decisions + a hello/ready per seat
    span = ends[hi] - ends[lo]
    steady = [kb for t, kb in rss if ends[lo] <= t <= ends[hi]]
    if not steady:
        sys.exit("run.py: no memory sample in the steady window at N=%d" % n)
    return trips / span, (hi - lo) / span, span, wall, max(steady), forfeits


FRAME = os.path.join(os.path.dirname(os.path.abspath(__file__)), "nim-decide.msgpack")


def run_floor(n, bots=False):
    cmd = [floor, str(n), "3"] + ([random_c, FRAME] if bots else [])
    out = subprocess.run(cmd, capture_output=True, text=True, check=True)
    return float(re.search(r'"round_trips_per_s":([\d.]+)', out.stdout).group(1))


def median(xs):
    xs = sorted(xs)
    k = len(xs) // 2
    return xs[k] if len(xs) % 2 else (xs[k - 1] + xs[k]) / 2


def spread(xs):
    return "%.2f" % xs[0] if len(xs) == 1 else "%.2f-%.2f" % (min(xs), max(xs))


rows = []
with tempfile.TemporaryDirectory() as work:
    base_rss = None
    for n in ns:
        runs = []  # per round: arena trips/s, games/s, window, wall, RSS, forfeits, floor, floor+bots
        for rnd in range(ROUNDS):
            runs.append(run_arena(n, GAMES, work, rnd) + (run_floor(n), run_floor(n, bots=True)))
            print("N=%d round %d/%d: %.0f trips/s, floor %.0f, floor with bots %.0f" %
                  (n, rnd + 1, ROUNDS, runs[-1][0], runs[-1][6], runs[-1][7]),
                  file=sys.stderr, flush=True)
        trips, gps, span, wall = (median([r[i] for r in runs]) for i in range(4))
        rss = max(r[4] for r in runs)
        forfeits = sum(r[5] for r in runs)
        fl, fb = median([r[6] for r in runs]), median([r[7] for r in runs])
        if base_rss is None:
            base_rss = rss
        per = (rss - base_rss) / (n - 1) if n > 1 else float("nan")
        rows.append((n, gps, trips, fl, fl / trips, spread([r[6] / r[0] for r in runs]), fb,
                     fb / trips, spread([r[7] / r[0] for r in runs]), rss, per, forfeits, span,
                     wall))

print("%d games per round, %d rounds per N; medians, and the range of the rounds' ratios" %
      (GAMES, ROUNDS))
print()
print("| N | games/s | round trips/s | floor trips/s | arena/floor | rounds | "
      "floor with bots | arena/that | rounds | RSS | RSS per match | forfeits | window | wall |")
print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
for n, gps, trips, fl, ratio, rr, fb, rb, rbr, rss, per, forfeits, span, wall in rows:
    print("| %d | %.0f | %.0f | %.0f | %.2f | %s | %.0f | %.2f | %s | %.1f MiB | %s | %d | %.1f s | "
          "%.0f s |" % (n, gps, trips, fl, ratio, rr, fb, rb, rbr, rss / 1024,
           "-" if per != per else "%.1f KiB" % per, forfeits, span, wall))
