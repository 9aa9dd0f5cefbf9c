"""Many matches on one host, through the real `arena` binary.

usage: scale.py ARENA RANDOM_C WORKDIR CASE [ARGS...]

  many_matches_no_forfeits C GAMES
      `arena tournament` on nim, two spawned random-c agents, --concurrency C,
      --move-ms 100, under a soft open-file limit of 1,024 (the common
      default): it must finish every game with no forfeit (a referee that
      ran out would die with `pipe: Too many open files`, at 300 here).
  hard_limit_too_low
      a hard open-file limit that cannot hold the requested concurrency: one
      clear line says so and what fits, and the run still completes cleanly.
  builtin_only_same_result
      a built-in-only match (no events built) plays exactly as the same
      match with a log (events built): same ranks, scores and turns.
"""
import json
import os
import resource
import sqlite3
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import timing  # noqa: E402  (tests/timing.py: the host's load, on a failure)


def fail(msg):
    print("FAIL:", msg)
    timing.print_load()
    sys.exit(1)


def limit_fds(soft, hard=None):
    def set_limits():
        _, old_hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        h = old_hard if hard is None else hard
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(soft, h), h))
    return set_limits


def tournament(arena, random_c, work, name, conc, games, soft, hard=None, timeout=600):
    db = os.path.join(work, name + ".sqlite")
    for suffix in ("", "-wal", "-shm", "-journal"):
        if os.path.exists(db + suffix):
            os.remove(db + suffix)
    cmd = [arena, "tournament", "--game", "nim", "--agent", "a=" + random_c,
           "--agent", "b=" + random_c, "--games-per-pairing", str(games),
           "--concurrency", str(conc), "--move-ms", "100", "--logs", "none",
           "--db", db, "--quiet"]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout,
                       preexec_fn=limit_fds(soft, hard))
    if p.returncode != 0:
        fail("tournament exited %d:\n%s\n%s" % (p.returncode, p.stdout[-2000:], p.stderr[-2000:]))
    c = sqlite3.connect(db)
    n, done = c.execute("SELECT count(*), sum(done) FROM games").fetchone()
    bad = c.execute("SELECT count(*) FROM games WHERE reason != 'normal' "
                    "OR replace(forfeits, ',', '') != ''").fetchone()[0]
    example = c.execute("SELECT id, reason, forfeits FROM games WHERE reason != 'normal' "
                        "OR replace(forfeits, ',', '') != '' LIMIT 3").fetchall()
    c.close()
    if n != games or done != games:
        fail("%s of %s games finished, %s scheduled" % (done, games, n))
    if bad:
        fail("%d games had a forfeit, e.g. %s\n%s" % (bad, example, p.stderr[-2000:]))
    return p


def many_matches_no_forfeits(arena, random_c, work, conc, games):
    tournament(arena, random_c, work, "many", int(conc), int(games), 1024)
    print("ok: %s games at --concurrency %s, soft fd limit 1024, no forfeit" % (games, conc))


def hard_limit_too_low(arena, random_c, work):
    # 200 descriptors cannot hold 100 matches of two spawned agents each.
    p = tournament(arena, random_c, work, "hard", 100, 120, 200, 200)
    lines = [l for l in p.stderr.splitlines() if "open-file limit" in l]
    if len(lines) != 1:
        fail("expected one line about the open-file limit, got:\n" + p.stderr)
    line = lines[0]
    for word in ("hard limit", "--concurrency 100", "at a time"):
        if word not in line:
            fail("the limit line does not say '%s': %s" % (word, line))
    print("ok:", line)


def builtin_only_same_result(arena, random_c, work):
    for game, a, b in (("dominion", "builtin:big-money", "builtin:random"),
                       ("nim", "builtin:random", "builtin:random")):
        for seed in (1, 2, 3):
            base = [arena, "play", game, a, b, "--seed", str(seed), "--json"]
            log = os.path.join(work, "%s-%d.jsonl.gz" % (game, seed))
            plain = subprocess.run(base, capture_output=True, text=True, timeout=60)
            logged = subprocess.run(base + ["--log", log], capture_output=True, text=True,
                                    timeout=60)
            if plain.returncode or logged.returncode:
                fail("arena play failed: %s %s" % (plain.stderr, logged.stderr))
            x = json.loads(plain.stdout.splitlines()[0])
            y = json.loads(logged.stdout.splitlines()[0])
            for k in ("ranks", "scores", "turns", "decisions", "reason"):
                if x[k] != y[k]:
                    fail("%s seed %d: %s differs without events: %s vs %s" %
                         (game, seed, k, x[k], y[k]))
            if not os.path.getsize(log):
                fail("no log written")
    print("ok: built-in-only games identical with and without events")


def main():
    arena, random_c, work, case = sys.argv[1:5]
    os.makedirs(work, exist_ok=True)
    globals()[case](arena, random_c, work, *sys.argv[5:])


if __name__ == "__main__":
    main()
