#!/usr/bin/python3
"""A tcp: entrant whose server never completes a connection stalls no one.

For a `tcp:HOST:PORT` agent the referee connects to the entrant's server.
The connect was waited for, up to startup_ms, on the one event loop that
serves every match: a server that lets it hang (here: a full accept queue,
so the kernel drops the SYNs; a firewall does the same) froze every game
in flight, and the lag of that freeze was credited to whatever answer came
after it, so a colluding partner could think seconds for free.

The attacker here is a listener whose accept queue is full. Through the
real `arena tournament` (nim, two bots that take 20 ms a move and the
attacker, two games per pairing, three at a time), the attacker's first
game starts with the other two bots' games. Those must run without a gap
as long as the hanging connect, and the attacker must forfeit its games
(no join within startup_ms) while the run goes on.

usage: tcp_staller.py ARENA
"""
import json
import os
import shutil
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import matchlog  # noqa: E402  (tests/matchlog.py: gzip or plain logs)
import timing  # noqa: E402  (tests/timing.py: the host's load, on a failure)

ARENA = os.path.abspath(sys.argv[1])
SLOW = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                    "tournaments", "slow_bot.py")
STARTUP_MS = 3000


def check(cond, what):
    if not cond:
        timing.print_load()
        raise AssertionError(what)


def blackhole():
    """A listener whose connects hang: its accept queue is full."""
    srv = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    srv.bind(("127.0.0.1", 0))
    srv.listen(0)
    port = srv.getsockname()[1]
    fill = []
    for _ in range(3):
        c = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        c.setblocking(False)
        try:
            c.connect(("127.0.0.1", port))
        except BlockingIOError:
            pass
        fill.append(c)
    time.sleep(0.1)
    probe = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    probe.settimeout(0.5)
    try:
        probe.connect(("127.0.0.1", port))
        check(False, "the attacker's listener accepts connects: it cannot stall one")
    except TimeoutError:
        pass
    probe.close()
    return srv, fill, port


def main():
    tmp = tempfile.mkdtemp(prefix="tcp-staller-")
    try:
        srv, fill, port = blackhole()
        db, logs = os.path.join(tmp, "t.sqlite"), os.path.join(tmp, "logs")
        slow = f"cmd:/usr/bin/python3 -S {SLOW}"
        cmd = [ARENA, "tournament", "--game", "nim", "--set", "stones=120",
               "--agent", f"s1={slow}", "--agent", f"s2={slow}",
               "--agent", f"staller=tcp:127.0.0.1:{port}", "--games-per-pairing", "2",
               "--concurrency", "3", "--startup-ms", str(STARTUP_MS), "--db", db,
               "--logs", logs, "--quiet"]
        t0 = time.monotonic()
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
        print(f"$ {' '.join(cmd)}\nexit {r.returncode} in {time.monotonic() - t0:.1f} s\n"
              f"{r.stdout}{r.stderr}")
        check(r.returncode >= 0 and "AddressSanitizer" not in r.stderr
              and "runtime error" not in r.stderr, "arena crashed or a sanitizer spoke")
        check(r.returncode == 0, f"the run stopped (exit {r.returncode})")
        con = sqlite3.connect(db)
        names = [n for (n,) in con.execute("SELECT name FROM agents ORDER BY id")]
        games = con.execute("SELECT id, seats, done, forfeits FROM games ORDER BY id").fetchall()
        con.close()
        print("games:", games)
        staller = names.index("staller")
        check(all(done for _, _, done, _ in games), f"every game is scored: {games}")
        others = []
        for g, seats, _, forfeits in games:
            seats = [int(x) for x in seats.split(",")]
            if staller in seats:
                cause = forfeits.split(",")[seats.index(staller)]
                check(cause in ("timeout", "crash"), f"game {g}: the staller's cause {cause!r}")
            else:
                others.append(g)
        check(len(others) == 2, f"two games without the staller: {games}")
        for g in others:
            recs = matchlog.records(os.path.join(logs, f"game-{g:06d}.jsonl.gz"))
            ts = [x["t"] for x in recs if "t" in x]  # ms since the match began
            gap = max(b - a for a, b in zip(ts, ts[1:]))
            print(f"game {g}: {len(ts)} records over {ts[-1] - ts[0]:.0f} ms, "
                  f"longest gap {gap:.0f} ms")
            check(gap < STARTUP_MS / 2, f"game {g} stood still {gap:.0f} ms: the referee "
                  f"waited for the staller's connect")
        for c in fill:
            c.close()
        srv.close()
        print("ok")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


main()
