#!/usr/bin/env python3
"""`arena audit`: a stored verdict that does not hold is found, through the
real `arena` binary. Usage: e2e_audit.py ARENA WORKDIR CASE.

Each attack edits what a tournament left behind, as someone with write
access to the results (a worker host posts results; a DB file gets copied
around) could, and `arena report` goes on showing the edited standings.
`arena audit` must exit 1 and name the game.

Cases:
  clean          a tournament and an SPRT run audit clean (exit 0, every
                 finished game replayed); a game whose log is gone is
                 counted and named as not proven, not failed
  forged_result  the loser of one game is stored as its winner
  forged_forfeit a bot that timed out is stored as having crashed
  forged_ranks   the ranks of one game are swapped, scores kept, in its log's
                 result line and its row alike
  forged_timeout a game that ended by the rules is relabelled, in its log's
                 result line and its row alike, as a timeout forfeit of its
                 winner with no fault record; then with a fault record
                 (the log cut there) that comes before the winner's time was
                 up by the log's own clock data
  chosen_seed    one game is stored on a seed of someone's choosing, with a
                 log of that deal (as a worker that picks its deals would)
  chosen_seats   one game of three agents is stored with another opponent,
                 with a log of that game on the game's own seed
  edited_log     one choice in one log is changed
  swapped_log    one game's log is another game's
  deleted_games  the two games one agent lost to the other are deleted:
                 the report moves it up, the audit names both
  sprt_verdict   an SPRT run's stored verdict is rewritten (H1 <-> H0)
  forged_timeout_figures
                 a timeout's figures in its log are edited so that they no
                 longer give its verdict (the run-queue wait made longer: the
                 charge they give is under the allowance)
  replayed_by_play
                 anyone can deal a stored game again: every game of a
                 tournament, played by `arena play --seed` (its stored seed,
                 its agents in its seats), ends as stored. Game seeds were
                 64 bits, half of them past what --seed takes
"""
import gzip
import json
import os
import shutil
import sqlite3

from e2e_common import CASE, SLOW, arena, check, path, rows

AGENTS = ["--agent", "bm=builtin:bigmoney", "--agent", "rnd=builtin:random"]


def tournament(name, games=6):
    db, logs = path(f"{name}.sqlite"), path(f"{name}.logs")
    r = arena("tournament", "--game", "dominion", *AGENTS, "--games-per-pairing", str(games),
              "--concurrency", "2", "--db", db, "--logs", logs, "--quiet")
    check(r.returncode == 0, f"tournament: {r.returncode} {r.stderr}")
    return db, logs


def audit(db, *extra):
    r = arena("audit", db, *extra)
    print(f"$ arena audit {db} {' '.join(extra)}\nexit {r.returncode}\n{r.stdout}{r.stderr}")
    return r


def caught(db, game, what):
    """The audit fails and names the game."""
    r = audit(db)
    check(r.returncode == 1, f"{what}: audit exits {r.returncode}, want 1")
    check(f"game {game}: " in r.stdout, f"{what}: audit does not name game {game}")
    return r


def execute(db, sql, *args):
    con = sqlite3.connect(db)
    try:
        con.execute(sql, args)
        con.commit()
    finally:
        con.close()


def log_of(logs, game):
    return os.path.join(logs, f"game-{game:06d}.jsonl.gz")


def read_log(p):
    with gzip.open(p, "rt") as f:
        return [json.loads(line) for line in f]


def write_log(p, recs):
    with gzip.open(p, "wt") as f:
        for r in recs:
            f.write(json.dumps(r, separators=(",", ":")) + "\n")


def clean():
    db, logs = tournament("clean")
    r = audit(db)
    check(r.returncode == 0, f"a clean tournament fails its audit: {r.returncode}")
    check("6 games: 6 as their schedule has them (seats, seed), 0 scheduled but not stored; "
          "6 finished, 6 of them replayed" in r.stdout,
          f"summary: {r.stdout}")
    os.remove(log_of(logs, 2))
    r = audit(db, "--logs", logs, "--quiet")
    check(r.returncode == 0 and "5 of them replayed" in r.stdout and "1 without a log" in r.stdout,
          f"a missing log is counted, not failed: {r.returncode} {r.stdout}")
    check("not proven: 1 finished game without a log, whose stored results nothing checks: "
          "game 2\n" in r.stdout, f"a missing log is named as not proven, even --quiet: {r.stdout}")
    sdb = path("sprt.sqlite")
    r = arena("sprt", "--game", "dominion", *AGENTS, "--elo0", "0", "--elo1", "10",
              "--max-pairs", "3", "--concurrency", "2", "--db", sdb, "--logs", path("sprt.logs"),
              "--quiet")
    check(r.returncode == 0, f"sprt: {r.returncode} {r.stderr}")
    r = audit(sdb)
    check(r.returncode == 0 and "0 problems" in r.stdout, f"a clean SPRT run: {r.stdout}")
    r = audit(path("nothing.sqlite"))
    check(r.returncode == 2, f"a missing DB is a bad argument: {r.returncode}")


def forged_result():
    db, _ = tournament("forged")
    game, ranks, scores = rows(db, "SELECT id, ranks, scores FROM games WHERE ranks = '1,2' "
                                   "ORDER BY id LIMIT 1")[0]
    execute(db, "UPDATE games SET ranks = '2,1', scores = ? WHERE id = ?",
            ",".join(reversed(scores.split(","))), game)
    report = arena("report", db).stdout
    print(report[:600])
    r = caught(db, game, "a forged result")
    check("is not the game's" in r.stdout, f"says why: {r.stdout}")


def forge(db, logs, game, ranks, reason, forfeits, scores=None, cut=None, extra=()):
    """Rewrites game `game`'s result in its log's result line and its row
    together, as one forger with write access to both; `cut`: the log lines
    kept before `extra` lines and the result line."""
    recs = read_log(log_of(logs, game))
    res = next(x for x in recs if x["type"] == "result")
    if cut is not None:
        recs = recs[:cut] + list(extra) + [res]
    res["ranks"], res["reason"] = ranks, reason
    if scores is not None:
        res["scores"] = scores
    res["forfeits"] = [{"seat": s, "cause": c} for s, c in sorted(forfeits.items())]
    write_log(log_of(logs, game), recs)
    by_seat = ",".join(forfeits.get(s, "") for s in range(len(ranks)))
    execute(db, "UPDATE games SET ranks = ?, scores = ?, reason = ?, forfeits = ? WHERE id = ?",
            ",".join(map(str, ranks)), ",".join(map(str, res["scores"])), reason, by_seat, game)


def forged_ranks():
    db, logs = tournament("ranks")
    game, ranks = rows(db, "SELECT id, ranks FROM games WHERE ranks IN ('1,2', '2,1') "
                           "ORDER BY id LIMIT 1")[0]
    forge(db, logs, game, [int(x) for x in reversed(ranks.split(","))], "normal", {})
    print(arena("report", db).stdout[:400])
    r = caught(db, game, "swapped ranks in the row and the log")
    check("does not replay" in r.stderr + r.stdout and "ranks" in r.stderr,
          f"says why: {r.stdout}{r.stderr}")
    r = arena("replay", log_of(logs, game))
    check(r.returncode == 1 and "the game and its fault records give" in r.stderr,
          f"arena replay passes the forged log: {r.returncode} {r.stderr}")


def forged_timeout():
    db, logs = tournament("timeout")
    game, seats, ranks = rows(db, "SELECT id, seats, ranks FROM games WHERE reason = 'normal' "
                                  "AND ranks IN ('1,2', '2,1') ORDER BY id LIMIT 1")[0]
    winner = ranks.split(",").index("1")
    forge(db, logs, game, [2 if s == winner else 1 for s in range(2)], "forfeit",
          {winner: "timeout"})
    print(arena("report", db).stdout[:400])
    r = caught(db, game, "a normal game relabelled as the winner's timeout")
    check("reason forfeit forfeits %d:timeout" % winner in r.stderr and "reason normal" in r.stderr,
          f"says why: {r.stdout}{r.stderr}")

    # With its fault record: the winner, a real process answering in 1 ms
    # with a second to spare, "times out" 5 ms after a decide.
    db, logs = path("clock.sqlite"), path("clock.logs")
    r = arena("tournament", "--game", "nim", "--set", "stones=15", "--agent", f"fast={SLOW} 1",
              "--agent", "rnd=builtin:random", "--games-per-pairing", "6", "--move-ms", "1000",
              "--concurrency", "2", "--db", db, "--logs", logs, "--seed", "4", "--quiet")
    check(r.returncode == 0, f"tournament: {r.returncode} {r.stderr}")
    check(audit(db).returncode == 0, "the tournament audits clean before the edit")
    game, seats = next((g, s) for g, s, rk in rows(db, "SELECT id, seats, ranks FROM games "
                                                       "WHERE reason = 'normal' ORDER BY id")
                       if rk.split(",")[s.split(",").index("0")] == "1")
    fast = seats.split(",").index("0")
    recs = read_log(log_of(logs, game))
    last = max(i for i, x in enumerate(recs) if x["type"] == "msg" and x["seat"] == fast
               and x["dir"] == "out" and x["msg"]["type"] == "decide")
    fault = {"type": "fault", "t": recs[last]["t"] + 5, "seat": fast, "cause": "timeout",
             "message": "no answer within 1000 ms (move 1000 ms + bank)", "strikes": 0,
             "verdict": "forfeit"}
    forge(db, logs, game, [2 if s == fast else 1 for s in range(2)], "forfeit",
          {fast: "timeout"}, scores=[0, 0], cut=last + 1, extra=[fault])
    r = caught(db, game, "a timeout forfeit whose time was not up")
    check("forfeits on time" in r.stderr and "but it had" in r.stderr,
          f"says why: {r.stdout}{r.stderr}")


SPECS = {"bm": "builtin:bigmoney", "rnd": "builtin:random", "bmu": "builtin:bmu"}


def restage(db, logs, game, seats, seed):
    """Plays game `game` again with the agents `seats` (indices into the
    stored agents) on `seed`, and stores that as the game: its log (under
    the tournament's names) and its result, so the log replays and agrees
    with the stored row. Only the schedule can tell."""
    names = [n for (n,) in rows(db, "SELECT name FROM agents ORDER BY id")]
    order = [names[i] for i in seats]
    p = path(f"restaged-{game}.log.gz")
    r = arena("play", "dominion", *[SPECS[n] for n in order], "--seed", str(seed), "--log", p,
              "--json")
    check(r.returncode == 0, f"play: {r.stderr}")
    recs = read_log(p)
    for rec in recs:
        if rec["type"] in ("match", "seats"):
            rec["agents"] = order
    write_log(log_of(logs, game), recs)
    res = next(x for x in recs if x["type"] == "result")
    execute(db, "UPDATE games SET seed = ?, seats = ?, ranks = ?, scores = ?, reason = ? "
            "WHERE id = ?", seed,
            ",".join(map(str, seats)), ",".join(map(str, res["ranks"])),
            ",".join(map(str, res["scores"])), res["reason"], game)


def forged_forfeit():
    db, logs = path("forfeit.sqlite"), path("forfeit.logs")
    r = arena("tournament", "--game", "nim", "--set", "stones=12", "--agent", f"slow={SLOW}",
              "--agent", "rnd=builtin:random", "--games-per-pairing", "2", "--move-ms", "10",
              "--bank-ms", "0", "--concurrency", "2", "--db", db, "--logs", logs, "--quiet")
    check(r.returncode == 0, f"tournament: {r.returncode} {r.stderr}")
    check(audit(db).returncode == 0, "the tournament audits clean before the edit")
    game, forfeits = rows(db, "SELECT id, forfeits FROM games WHERE forfeits LIKE '%timeout%' "
                              "ORDER BY id LIMIT 1")[0]
    execute(db, "UPDATE games SET forfeits = ? WHERE id = ?",
            forfeits.replace("timeout", "crash"), game)
    r = caught(db, game, "a forged forfeit")
    check(":crash" in r.stdout and ":timeout" in r.stdout, f"says which: {r.stdout}")


def forged_timeout_figures():
    db, logs = path("timeout.sqlite"), path("timeout.logs")
    r = arena("tournament", "--game", "nim", "--set", "stones=12", "--agent", f"slow={SLOW}",
              "--agent", "rnd=builtin:random", "--games-per-pairing", "2", "--move-ms", "10",
              "--bank-ms", "0", "--concurrency", "2", "--db", db, "--logs", logs, "--quiet")
    check(r.returncode == 0, f"tournament: {r.returncode} {r.stderr}")
    r = audit(db)
    check(r.returncode == 0, "the tournament audits clean before the edit")
    (game,) = rows(db, "SELECT id FROM games WHERE forfeits LIKE '%timeout%' "
                       "ORDER BY id LIMIT 1")[0]
    recs = read_log(log_of(logs, game))
    fault = next(x for x in recs if x["type"] == "fault" and x["cause"] == "timeout")
    c = fault["clock"]
    check(c["mode"] == "fair" and c["charged_ms"] >= c["allowance_ms"],
          f"the timeout's figures: {fault}")
    c["wait_ms"] = c["wall_ms"]  # all of it waiting for a CPU: charge max(cpu, -lag) < 10 ms
    c["cpu_ms"] = 1.0
    write_log(log_of(logs, game), recs)
    r = caught(db, game, "a forged timeout")
    check("figures do not bear out" in r.stdout, f"says why: {r.stdout}")


def chosen_seed():
    db, logs = tournament("chosen")
    game, seats = rows(db, "SELECT id, seats FROM games ORDER BY id LIMIT 1")[0]
    restage(db, logs, game, [int(a) for a in seats.split(",")], 12345)
    r = caught(db, game, "a chosen seed")
    check("is not its schedule's" in r.stdout, f"says why: {r.stdout}")


def chosen_seats():
    db, logs = path("seats.sqlite"), path("seats.logs")
    r = arena("tournament", "--game", "dominion", *AGENTS, "--agent", "bmu=builtin:bmu",
              "--games-per-pairing", "2", "--concurrency", "2", "--db", db, "--logs", logs,
              "--seed", "3", "--quiet")
    check(r.returncode == 0, f"tournament: {r.returncode} {r.stderr}")
    check(audit(db).returncode == 0, "the tournament audits clean before the edit")
    # A game of bm against bmu, stored as bm against rnd, the weakest.
    game, seats, seed = next(
        (g, s, seed) for g, s, seed in rows(db, "SELECT id, seats, seed FROM games ORDER BY id")
        if sorted(s.split(",")) == ["0", "2"])
    moved = [1 if a == "2" else int(a) for a in seats.split(",")]
    restage(db, logs, game, moved, seed)
    r = caught(db, game, "a chosen opponent")
    check("are not its schedule's" in r.stdout, f"says why: {r.stdout}")


def edited_log():
    db, logs = tournament("edited")
    recs = read_log(log_of(logs, 3))
    choice = next(x for x in recs if x["type"] == "choice" and x["kind"] == "buy")
    choice["choice"], choice["labels"] = [0], ["pass"]
    write_log(log_of(logs, 3), recs)
    r = caught(db, 3, "an edited log")
    check("does not replay" in r.stdout, f"says why: {r.stdout}")


def swapped_log():
    db, logs = tournament("swapped")
    shutil.copy(log_of(logs, 5), log_of(logs, 3))  # same seats: only the deal differs
    r = caught(db, 3, "a swapped log")
    check("was dealt from seed" in r.stdout, f"says why: {r.stdout}")


def deleted_games():
    db = path("deleted.sqlite")
    r = arena("tournament", "--game", "dominion", *AGENTS, "--agent", "bmu=builtin:bmu",
              "--games-per-pairing", "2", "--concurrency", "2", "--db", db, "--logs", "none",
              "--seed", "5", "--quiet")
    check(r.returncode == 0, f"tournament: {r.returncode} {r.stderr}")
    check(audit(db).returncode == 0, "the tournament audits clean before the edit")
    # bm's losses (bm is agent 0): the games where it is ranked 2nd.
    lost = [g for g, seats, ranks in rows(db, "SELECT id, seats, ranks FROM games")
            if "0" in seats.split(",") and ranks.split(",")[seats.split(",").index("0")] == "2"]
    check(lost, "bm lost no game: nothing to delete")
    execute(db, f"DELETE FROM games WHERE id IN ({','.join(map(str, lost))})")
    print(arena("report", db).stdout[:500])
    r = audit(db)
    check(r.returncode == 1, f"deleted games: audit exits {r.returncode}, want 1")
    for g in lost:
        check(f"game {g}: is in its schedule but not stored" in r.stdout, f"game {g} not named")


def sprt_verdict():
    db = path("verdict.sqlite")
    r = arena("sprt", "--game", "dominion", *AGENTS, "--elo0", "0", "--elo1", "10",
              "--concurrency", "2", "--db", db, "--logs", "none", "--seed", "9", "--quiet")
    check(r.returncode == 0, f"sprt: {r.returncode} {r.stderr}")
    check(audit(db).returncode == 0, "the run audits clean before the edit")
    stored = rows(db, "SELECT value FROM meta WHERE key = 'result'")[0][0]
    check(stored in ("H1", "H0"), f"undecided: {stored}")
    execute(db, "UPDATE meta SET value = ? WHERE key = 'result'", "H0" if stored == "H1" else "H1")
    r = audit(db)
    check(r.returncode == 1 and f"but its games give {stored}" in r.stdout,
          f"a rewritten verdict: {r.returncode} {r.stdout}")


def replayed_by_play():
    db, logs = tournament("replayed")
    names = [n for (n,) in rows(db, "SELECT name FROM agents ORDER BY id")]
    games = rows(db, "SELECT id, seats, seed, ranks, scores FROM games ORDER BY id")
    check(len(games) == 6, f"{len(games)} games")
    for game, seats, seed, ranks, scores in games:
        logged = next(x for x in read_log(log_of(logs, game)) if x["type"] == "match")["seed"]
        check(logged == seed and 0 <= seed < 1 << 53,
              f"game {game}: seed {seed} (log {logged}) is not one positive number below 2^53")
        order = [SPECS[names[int(a)]] for a in seats.split(",")]
        r = arena("play", "dominion", *order, "--seed", str(seed), "--json")
        check(r.returncode == 0, f"game {game}: arena play --seed {seed}: {r.stderr}")
        res = json.loads(next(x for x in r.stdout.splitlines() if x.startswith("{")))
        got = (",".join(map(str, res["ranks"])), ",".join(map(str, res["scores"])))
        print(f"game {game}: seed {seed}, stored {ranks} {scores}, played {got[0]} {got[1]}")
        check(got == (ranks, scores), f"game {game}: play gives {got}, stored {ranks} {scores}")


{"clean": clean, "forged_result": forged_result, "forged_forfeit": forged_forfeit,
 "forged_ranks": forged_ranks, "forged_timeout": forged_timeout,
 "chosen_seed": chosen_seed,
 "chosen_seats": chosen_seats,
 "edited_log": edited_log, "swapped_log": swapped_log,
 "deleted_games": deleted_games, "sprt_verdict": sprt_verdict,
 "forged_timeout_figures": forged_timeout_figures,
 "replayed_by_play": replayed_by_play}[CASE]()
print("ok")
