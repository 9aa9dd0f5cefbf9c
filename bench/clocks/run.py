#!/usr/bin/python3
"""bench/clocks: how many timeouts are the bot's own fault, across clocks
and loads (issue 34). Each row is an `arena tournament` of nim at
--on-fault fallback (a timeout costs a strike, not the game, so every move
counts) between an innocent bot and others, beside L spinning processes:

  starver   the move starver (tests/hostile/move_starver.py: 8 setsid
            helpers spinning during each of its own moves) against two
            innocent bots (30 ms of CPU a 100 ms move), round robin: the
            innocent bots' timeouts, in games with the starver and without
  overcpu   an overthinking bot (150 ms of CPU a 100 ms move) against an
            innocent one: the overthinker must time out on every move
  oversleep the same, sleeping 150 ms a move
  many100   100 concurrent matches of two spawned random-c bots at
  many300   --move-ms 50 (300: the same at 300), 100 (300) games
  py2       the Python SDK's random_bot.py against itself at --move-ms 20,
  py10      at concurrency 2, 10 and 100 (20, 20 and 100 games): every
  py100     timeout, start-up ones included (startup_ms 5000), is an
            innocent's

  bench/clocks/run.py ARENA [--clocks fair,wall,cpu] [--loads 0,2,4,8]
                      [--rows starver,overcpu,oversleep,many100,many300,
                              py2,py10,py100] [--games N]
                      [--concurrency N] [--no-cgroups]

--games and --concurrency apply to the starver and overthinker rows (the
others fix their own).

Prints one line per row: clock, load, the moves of innocent bots and how
many of them timed out, the overthinker's moves and timeouts, the games
that did not end by the rules (a forfeit: a start-up timeout, or the
overthinker's strikes) and /proc/loadavg before and after (the host's own
load counts too)."""
import argparse
import gzip
import json
import os
import sqlite3
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BURNER = os.path.join(ROOT, "tests", "e2e", "bots", "cpu_burner.py")
STARVER = os.path.join(ROOT, "tests", "hostile", "move_starver.py")
PY_BOT = os.path.join(ROOT, "sdk", "python", "examples", "random_bot.py")


def loadavg():
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def records(path):
    """A log's records; a log cut short (its game still running) ends early."""
    try:
        with (gzip.open(path, "rt") if path.endswith(".gz") else open(path)) as f:
            for line in f:
                yield json.loads(line)
    except (EOFError, OSError, ValueError):
        return


def count(logs, innocent):
    """Moves and timeouts by agent name over every log in logs (a
    start-up timeout, before any move, counts as a timed-out move)."""
    moves, timeouts = {}, {}
    for name in os.listdir(logs):
        seats = []
        for r in records(os.path.join(logs, name)):
            if r["type"] == "seats":
                seats = r["agents"]
            elif r["type"] == "choice" and seats:
                a = seats[r["seat"]]
                moves[a] = moves.get(a, 0) + 1
            elif r["type"] == "fault" and r.get("cause") == "timeout" and seats:
                a = seats[r["seat"]]
                timeouts[a] = timeouts.get(a, 0) + 1
    inn = [a for a in set(moves) | set(timeouts) if a.startswith(innocent)]
    return moves, timeouts, inn


def row(arena, kind, clock, load, games, conc, env):
    random_c = os.path.join(os.path.dirname(os.path.abspath(arena)), "agents", "random-c",
                            "random-c")
    move_ms = 100
    agents = {
        "starver": [("starver", f"cmd:{STARVER}"), ("innocent1", f"cmd:{BURNER} cpu 30"),
                    ("innocent2", f"cmd:{BURNER} cpu 30")],
        "overcpu": [("over", f"cmd:{BURNER} cpu 150"), ("innocent1", f"cmd:{BURNER} cpu 30")],
        "oversleep": [("over", f"cmd:{BURNER} sleep 150"),
                      ("innocent1", f"cmd:{BURNER} cpu 30")],
    }.get(kind)
    if kind.startswith("many"):
        agents = [("innocent1", random_c), ("innocent2", random_c)]
        games = conc = int(kind[4:])
        move_ms = 50
    elif kind.startswith("py"):
        agents = [("innocent1", f"cmd:{PY_BOT}"), ("innocent2", f"cmd:{PY_BOT}")]
        conc = int(kind[2:])
        games = max(conc, 20)
        move_ms = 20
    spinners = [subprocess.Popen(["/usr/bin/python3", "-c", "while True: pass"])
                for _ in range(load)]
    try:
        with tempfile.TemporaryDirectory() as d:
            before = loadavg()
            args = [arena, "tournament", "--game", "nim", "--set", "stones=30", "--clock", clock,
                    "--move-ms", str(move_ms), "--bank-ms", "0", "--on-fault", "fallback",
                    "--max-strikes", "1000000", "--games-per-pairing", str(games),
                    "--concurrency", str(conc), "--db", os.path.join(d, "t.db"),
                    "--logs", os.path.join(d, "logs"), "--quiet"]
            for name, spec in agents:
                args += ["--agent", f"{name}={spec}"]
            p = subprocess.run(args, capture_output=True, text=True, env=env)
            if p.returncode != 0:
                sys.exit(f"arena tournament: exit {p.returncode}: {p.stderr}")
            moves, timeouts, inn = count(os.path.join(d, "logs"), "innocent")
            with sqlite3.connect(os.path.join(d, "t.db")) as c:
                played, ended = c.execute("SELECT count(*), count(*) FILTER (WHERE reason !="
                                          " 'normal') FROM games WHERE done").fetchone()
            after = loadavg()
    finally:
        for s in spinners:
            s.kill()
            s.wait()
    im = sum(moves.get(a, 0) for a in inn)
    it = sum(timeouts.get(a, 0) for a in inn)
    om, ot = moves.get("over", 0), timeouts.get("over", 0)
    over = f"overthinker {ot:4d}/{om:<4d}" if kind.startswith("over") else " " * 21
    print(f"{kind:9s} {clock:4s} load {load}  innocent {it:4d}/{im:<5d} {over}  "
          f"games not ended by the rules {ended}/{played}  loadavg {before} -> {after}",
          flush=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("arena")
    ap.add_argument("--clocks", default="fair,wall,cpu")
    ap.add_argument("--loads", default="0,2,4,8")
    ap.add_argument("--rows", default="starver,overcpu,oversleep,many100,many300,py2,py10,py100")
    ap.add_argument("--games", type=int, default=4)
    ap.add_argument("--concurrency", type=int, default=3)
    ap.add_argument("--no-cgroups", action="store_true")
    o = ap.parse_args()
    env = dict(os.environ)
    if o.no_cgroups:
        env["ARENA_NO_CGROUPS"] = "1"
    print(f"# {os.uname().nodename}, {os.cpu_count()} CPUs, arena {o.arena}, "
          f"{'no cgroups' if o.no_cgroups else 'cgroups where made'}; "
          f"innocent/overthinker: timeouts/moves")
    for kind in o.rows.split(","):
        for clock in o.clocks.split(","):
            for load in map(int, o.loads.split(",")):
                row(o.arena, kind, clock, load, o.games, o.concurrency, env)


main()
