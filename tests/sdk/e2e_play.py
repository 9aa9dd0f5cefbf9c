#!/usr/bin/python3
"""End-to-end: an example bot plays full games through the real referee.

usage: e2e_play.py ARENA GAME [--seat N] [--games N] [--set K=V]... [--opponent SPEC]
                   [--seed N] [--flag ARENA_FLAG]... [--players N] -- BOT_COMMAND...

Runs `ARENA play GAME cmd:BOT... OPPONENT --json --seed S` and asserts every
game ended normally, without forfeits, and that the bot decided at least once.
"""

import json
import os
import shlex
import subprocess
import sys


def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)


def main():
    argv = sys.argv[1:]
    if "--" not in argv:
        fail("usage: e2e_play.py ARENA GAME [opts] -- BOT_COMMAND...")
    sep = argv.index("--")
    head, bot = argv[:sep], argv[sep + 1:]
    arena, game, rest = head[0], head[1], head[2:]
    seat, games, sets, opponent, seed, flags, players = 0, 1, [], "builtin:random", 7, [], 2
    i = 0
    while i < len(rest):
        k, v = rest[i], rest[i + 1]
        if k == "--seat":
            seat = int(v)
        elif k == "--games":
            games = int(v)
        elif k == "--set":
            sets.append(v)
        elif k == "--opponent":
            opponent = v
        elif k == "--seed":
            seed = int(v)
        elif k == "--players":
            players = int(v)
        elif k == "--flag":
            flags.append(v)
        else:
            fail("unknown option " + k)
        i += 2
    me = "cmd:" + " ".join(shlex.quote(os.path.abspath(bot[0])) if j == 0 else shlex.quote(a)
                           for j, a in enumerate(bot))
    agents = [opponent] * players
    agents[seat] = me
    cmd = [arena, "play", game] + agents + ["--json", "--seed", str(seed), "--games", str(games)]
    for s in sets:
        cmd += ["--set", s]
    cmd += flags
    print("running:", " ".join(shlex.quote(c) for c in cmd))
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=240)
    out, err = p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")
    if p.returncode != 0:
        fail("arena exited %d\nstdout:\n%s\nstderr:\n%s" % (p.returncode, out, err))
    results = [json.loads(line) for line in out.splitlines() if line.strip().startswith("{")]
    if len(results) != games:
        fail("expected %d result lines, got %d:\n%s\n%s" % (games, len(results), out, err))
    for r in results:
        if r.get("game") != game:
            fail("result for game %r, expected %r" % (r.get("game"), game))
        if r.get("reason") != "normal":
            fail("game ended with reason %r: %s\n%s" % (r.get("reason"), json.dumps(r), err))
        if r.get("forfeits"):
            fail("forfeits: %s\n%s" % (json.dumps(r.get("forfeits")), err))
        dec = r.get("decisions")
        if isinstance(dec, list) and not (seat < len(dec) and dec[seat] > 0):
            fail("the bot in seat %d made no decision: %s" % (seat, json.dumps(r)))
        ranks = r.get("ranks")
        if not (isinstance(ranks, list) and len(ranks) == players):
            fail("bad ranks in %s" % json.dumps(r))
        print("ok: seed %s ranks %s scores %s turns %s decisions %s" % (
            r.get("seed"), ranks, r.get("scores"), r.get("turns"), dec))


if __name__ == "__main__":
    main()
