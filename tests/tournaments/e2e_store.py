#!/usr/bin/env python3
"""The results store and tournament seeds against misuse, through the real
`arena` binary. Usage: e2e_store.py ARENA WORKDIR CASE.

Cases:
  second_run_refused   a second --resume (or sprt) on a DB in use refuses at once
  corrupt_row          an out-of-range seat or rank in the DB is an error, no crash
  log_write_fails      a match log on a full disk fails loudly (play, tournament)
  empty_db             --db '' and --resume '' are usage errors
  random_seed          the master seed is random unless given, stored, reported
  pairing              independent / duplicate seeds in tournament and sprt
"""
import os
import sqlite3
import subprocess
import time

from e2e_common import ARENA, CASE, SLOW, arena, check, no_crash, path, rows


def meta(db, key):
    r = rows(db, f"SELECT value FROM meta WHERE key = '{key}'")
    return r[0][0] if r else None


def usage_error(r, what):
    lines = r.stderr.strip().splitlines()
    check(r.returncode == 2, f"{what}: exit {r.returncode}, want 2 ({r.stderr})")
    check(len(lines) == 1 and lines[0].startswith("arena: "), f"{what}: {r.stderr!r}")


NIM = ["--game", "nim", "--agent", "a=builtin:random", "--agent", "b=builtin:random",
       "--set", "stones=15"]


def case_second_run_refused():
    db = path("busy.sqlite")
    # Slow agents keep the first run busy for about 25 s: long enough for
    # the refused runs to start and end even on a loaded machine under ASan.
    first = subprocess.Popen([ARENA, "tournament", "--game", "nim", "--agent", f"a={SLOW} 100",
                              "--agent", f"b={SLOW} 100", "--set", "stones=30",
                              "--games-per-pairing", "8", "--concurrency", "1", "--db", db,
                              "--logs", "none", "--quiet"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.time() + 60
        while time.time() < deadline:
            try:  # the run may still be creating the schema
                if os.path.exists(db) and meta(db, "kind") and \
                        rows(db, "SELECT count(*) FROM games WHERE done = 1")[0][0] >= 1:
                    break
            except sqlite3.OperationalError:
                pass
            if first.poll() is not None:
                check(False, f"first run ended early: {first.stderr.read()}")
            time.sleep(0.1)
        check(first.poll() is None, "the first run is still going")
        t0 = time.time()
        second = arena("tournament", "--resume", db, "--quiet", timeout=60)
        took = time.time() - t0
        no_crash(second, "second resume")
        check(second.returncode == 1 and "in use" in second.stderr,
              f"second resume must refuse: exit {second.returncode} {second.stderr!r}")
        check(took < 20, f"refusing took {took:.1f} s")
        check(first.poll() is None, "the refused run did not disturb the first")
        sprt = arena("sprt", "--game", "nim", "--agent", "a=builtin:random", "--agent",
                     "b=builtin:random", "--elo0", "0", "--elo1", "10", "--db", db, "--quiet")
        no_crash(sprt, "sprt on a busy DB")
        check(sprt.returncode != 0 and "in use" in sprt.stderr, f"sprt on a busy DB: {sprt.stderr}")
        out, err = first.communicate(timeout=240)
        check(first.returncode == 0, f"first run: exit {first.returncode} {err}")
        check("games: 8 of 8 finished" in out, f"first run report: {out[:300]}")
        check(err.count("arena:") == 0, f"first run stderr: {err}")
    finally:
        if first.poll() is None:
            first.kill()
    # Finished and released: a resume now is a no-op that succeeds.
    r = arena("tournament", "--resume", db, "--quiet")
    check(r.returncode == 0, f"resume after the end: {r.stderr}")


def case_corrupt_row():
    db = path("c.sqlite")
    r = arena("tournament", *NIM, "--games-per-pairing", "4", "--db", db, "--logs", "none",
              "--quiet", "--seed", "3")
    check(r.returncode == 0, f"setup: {r.stderr}")
    con = sqlite3.connect(db)
    con.execute("UPDATE games SET done = 0, seats = '0,7' WHERE id = 3")
    con.commit()
    con.close()
    r = arena("tournament", "--resume", db, "--quiet")
    no_crash(r, "resume with a bad seat")
    check(r.returncode in (1, 2) and "game 3" in r.stderr and "corrupt" in r.stderr,
          f"resume with seat 7 of 2 agents: exit {r.returncode} {r.stderr!r}")
    r = arena("report", db)
    no_crash(r, "report with a bad seat")
    check(r.returncode != 0 and "corrupt" in r.stderr, f"report: {r.returncode} {r.stderr!r}")
    for sql, what in [("UPDATE games SET done = 1, seats = '0,1', ranks = '1,9' WHERE id = 3",
                       "rank"),
                      ("UPDATE games SET ranks = '1,2', seats = '0,-1' WHERE id = 3", "seat index"),
                      ("UPDATE games SET seats = '0,1,0', players = 3 WHERE id = 3",
                       "agent seated twice"),
                      ("UPDATE games SET seats = '0', players = 2 WHERE id = 3",
                       "number of seats"),
                      ("UPDATE games SET seats = '0,1', players = 99 WHERE id = 3",
                       "player count")]:
        con = sqlite3.connect(db)
        con.execute(sql)
        con.commit()
        con.close()
        r = arena("report", db)
        no_crash(r, what)
        check(r.returncode != 0 and what in r.stderr, f"{what}: {r.returncode} {r.stderr!r}")


def case_log_write_fails():
    # arena play: a log on a full disk is an error, not exit 0.
    r = arena("play", "nim", "builtin:random", "builtin:random", "--log", "/dev/full")
    no_crash(r, "play --log /dev/full")
    check(r.returncode == 1 and "No space left" in r.stderr,
          f"play onto /dev/full: exit {r.returncode} {r.stderr!r}")
    # Tournament: game 2's log lands on /dev/full. The run stops loudly,
    # game 2 stays pending, and a resume with space left completes it.
    db, logs = path("full.sqlite"), path("full.logs")
    os.makedirs(logs)
    os.symlink("/dev/full", os.path.join(logs, "game-000002.jsonl.gz"))
    r = arena("tournament", *NIM, "--games-per-pairing", "4", "--concurrency", "1", "--db", db,
              "--logs", logs, "--quiet", "--seed", "5")
    no_crash(r, "tournament onto a full disk")
    check(r.returncode == 1 and "No space left" in r.stderr and "game 2" in r.stderr,
          f"tournament onto /dev/full: exit {r.returncode} {r.stderr!r}")
    check(rows(db, "SELECT done FROM games WHERE id = 2") == [(0,)], "game 2 not stored")
    os.unlink(os.path.join(logs, "game-000002.jsonl.gz"))
    r = arena("tournament", "--resume", db, "--quiet")
    check(r.returncode == 0 and "games: 4 of 4 finished" in r.stdout, f"resume: {r.stderr}")
    logged = rows(db, "SELECT log FROM games ORDER BY id")
    check(all(x[0] and os.path.getsize(x[0]) > 0 for x in logged), f"every log: {logged}")


def case_empty_db():
    usage_error(arena("tournament", *NIM, "--db", ""), "tournament --db ''")
    usage_error(arena("tournament", "--resume", ""), "tournament --resume ''")
    usage_error(arena("sprt", "--game", "nim", "--agent", "a=builtin:random", "--agent",
                      "b=builtin:random", "--elo0", "0", "--elo1", "5", "--db", ""),
                "sprt --db ''")


def case_random_seed():
    seeds = []
    for i in range(2):
        db = path(f"r{i}.sqlite")
        r = arena("tournament", *NIM, "--games-per-pairing", "2", "--db", db, "--logs", "none")
        check(r.returncode == 0, f"run {i}: {r.stderr}")
        seed = meta(db, "seed")
        check(seed and seed != "1", f"master seed {seed}")
        check(f"seed {seed}" in r.stdout and f"seed {seed}" in r.stderr,
              f"seed printed at the start and in the final report: {r.stdout[:200]}")
        rep = arena("report", db)
        check(rep.returncode == 0 and f"seed {seed}" in rep.stdout, f"report: {rep.stdout[:200]}")
        # --resume keeps it.
        r = arena("tournament", "--resume", db, "--quiet")
        check(r.returncode == 0 and meta(db, "seed") == seed, "resume keeps the seed")
        seeds.append((seed, rows(db, "SELECT seed FROM games ORDER BY id")))
    check(seeds[0][0] != seeds[1][0], f"two runs, two master seeds: {seeds}")
    check(seeds[0][1] != seeds[1][1], "two runs, different game seeds")
    # An explicit seed still reproduces.
    for name in ("e1", "e2"):
        r = arena("tournament", *NIM, "--games-per-pairing", "2", "--db", path(name + ".sqlite"),
                  "--logs", "none", "--quiet", "--seed", "77")
        check(r.returncode == 0, r.stderr)
    check(rows(path("e1.sqlite"), "SELECT seed FROM games") ==
          rows(path("e2.sqlite"), "SELECT seed FROM games"), "--seed reproduces")


def case_pairing():
    def sprt(name, *extra):
        db = path(name)
        r = arena("sprt", "--game", "nim", "--agent", "a=builtin:random", "--agent",
                  "b=builtin:random", "--elo0", "0", "--elo1", "400", "--max-pairs", "6",
                  "--db", db, "--quiet", "--concurrency", "1", *extra)
        check(r.returncode == 0 and "pentanomial" in r.stdout, f"sprt {extra}: {r.stderr}")
        g = rows(db, "SELECT grp, seed, seats FROM games WHERE done = 1 ORDER BY id")
        pent = [int(x) for x in r.stdout.split("[")[1].split("]")[0].split()]
        return db, g, pent

    db, g, pent = sprt("dup.sqlite")
    check(meta(db, "pairing") == "duplicate", "sprt defaults to duplicate")
    for x, y in zip(g[0::2], g[1::2]):
        check(x[0] == y[0] and x[1] == y[1] and x[2] != y[2], f"duplicate pair {x} {y}")
    check(sum(pent) == len(g) // 2, f"pentanomial counts the pairs: {pent} {len(g)}")
    db, g, pent = sprt("ind.sqlite", "--pairing", "independent")
    check(meta(db, "pairing") == "independent", "sprt --pairing independent")
    check(len({x[1] for x in g}) == len(g), f"independent: a seed per game {g}")
    for x, y in zip(g[0::2], g[1::2]):
        check(x[0] == y[0] and x[2] != y[2], f"independent pairs still swap seats {x} {y}")
    check(sum(pent) == len(g) // 2, f"pentanomial still counts seat-swapped pairs: {pent}")
    db = path("t.sqlite")
    r = arena("tournament", *NIM, "--games-per-pairing", "4", "--db", db, "--logs", "none",
              "--quiet")
    check(r.returncode == 0 and "independent pairing" in r.stdout, "tournament default")
    check(meta(db, "pairing") == "independent", "stored")
    rep = arena("report", db, "--format", "json")
    check('"pairing":"independent"' in rep.stdout.replace(" ", ""), "json report pairing")


globals()["case_" + CASE]()
print(CASE, "OK")
