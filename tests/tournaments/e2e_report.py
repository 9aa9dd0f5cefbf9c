#!/usr/bin/env python3
"""Early stopping, agent-spec checks and report parts, through the real
`arena` binary. Usage: e2e_report.py ARENA WORKDIR CASE.

Cases:
  stop_settles      big-money against random: the ranking settles, the run
                    stops early on whole seat-swapped pairs, says why in every
                    report, and --resume does not start it again
  stop_equal        random against random cannot settle: every game is played
  bad_spec          a bad agent spec exits 2 before the DB is written
  report_parts      a bot too slow for its clock: the reports show settings,
                    agents, W-L-D, time per move against the budget, the
                    first seat, lengths per pairing and the forfeited games
                    with message and log; a DB from before these columns is
                    still read and resumed
  sprt_resume       an SPRT stopped by SIGINT continues with --resume to its
                    end (no pair lost or doubled); its report shows verdict,
                    bounds and the LLR path (text, JSON, HTML)
  sprt_decided      an SPRT of bots whose games finish in no set order,
                    8 in flight: --resume of the decided run plays nothing
                    and keeps its verdict, and the report's LLR path ends
                    at it (the live run counted games as they finished, a
                    resume in schedule order: the two disagreed)
  p95_resolves      bots far faster than the default 1000 ms budget: the p95
                    column read "<= 50" (the histogram's first 5 % step) for
                    every agent; it is bounded by each agent's longest move
"""
import json
import os
import shutil
import sqlite3
import signal
import subprocess
import time

from e2e_common import ARENA, CASE, SLOW, WORK, arena, check, path, rows


def counts(db):
    return rows(db, "SELECT count(*), coalesce(sum(done), 0) FROM games")[0]


def stop_settles():
    db = path("stop.sqlite")
    r = arena("tournament", "--game", "dominion", "--agent", "bm=builtin:big-money",
              "--agent", "rnd=builtin:random", "--games-per-pairing", "400",
              "--stop", "ranking:0.95", "--stop-min-games", "6", "--concurrency", "2",
              "--seed", "11", "--db", db, "--logs", "none", "--quiet")
    check(r.returncode == 0, f"stopped run exits 0, got {r.returncode}: {r.stderr}")
    total, done = counts(db)
    check(total == 400 and 6 <= done < total, f"stopped early: {done} of {total}")
    check("stopped early: ranking settled (stop = ranking:0.95)" in r.stdout
          and f"after {done} of 400 games (at " in r.stdout, f"final output says why: {r.stdout}")
    # Whole seat-swapped pairs only: no group half played.
    half = rows(db, "SELECT grp FROM games GROUP BY grp HAVING sum(done) NOT IN (0, count(*))")
    check(not half, f"groups cut in half by the stop: {half}")
    args = rows(db, "SELECT value FROM meta WHERE key = 'args'")[0][0]
    check("--stop" in json.loads(args), f"the rule is kept for --resume: {args}")
    r2 = arena("tournament", "--resume", db, "--quiet")
    check(r2.returncode == 0, f"resume of a stopped run exits 0: {r2.returncode} {r2.stderr}")
    check(counts(db) == (total, done), f"resume played on after the stop: {counts(db)}")
    check("stopped early" in r2.stdout, "the resumed report says it stopped")
    js = json.loads(arena("report", db, "--format", "json").stdout)
    check(js["stop"]["stopped_early"] and js["stop"]["rule"] == "ranking:0.95"
          and "ranking settled" in js["stop"]["why"], f"json stop: {js['stop']}")
    html = arena("report", db, "--format", "html").stdout
    check('id="stopped"' in html and "stopped early" in html, "html says it stopped")


def stop_equal():
    db = path("equal.sqlite")
    r = arena("tournament", "--game", "dominion", "--agent", "a=builtin:random",
              "--agent", "b=builtin:random", "--games-per-pairing", "16",
              "--stop", "ranking:0.999", "--stop-min-games", "4", "--concurrency", "1",
              "--seed", "3", "--db", db, "--logs", "none", "--quiet")
    check(r.returncode == 0, f"exit {r.returncode}: {r.stderr}")
    check(counts(db) == (16, 16), f"equal bots play every game: {counts(db)}")
    check("stopped early" not in r.stdout, "no stop claimed")
    js = json.loads(arena("report", db, "--format", "json").stdout)
    check(js["stop"] == {"rule": "ranking:0.999", "stopped_early": False}, f"{js['stop']}")


def bad_spec():
    db = path("bad.sqlite")
    bad = ["builtin:no-such-bot", "builtin:heuristic", os.path.join(WORK, "missing-bot"),
           WORK, "cmd:", "cmd:   ", "tcp:", "tcp:localhost", "tcp:localhost:0",
           "tcp:localhost:99999", "tcp::4000"]
    for spec in bad:
        r = arena("tournament", "--game", "dominion", "--agent", "good=builtin:random",
                  "--agent", f"bad={spec}", "--games-per-pairing", "2", "--seed", "1",
                  "--db", db, "--quiet")
        check(r.returncode == 2, f"{spec}: exit 2, got {r.returncode}: {r.stderr}")
        check("bad" in r.stderr and spec.strip() in r.stderr, f"{spec}: names it: {r.stderr}")
        for left in (db, db + "-wal", db + "-shm", db + ".logs"):
            check(not os.path.exists(left), f"{spec}: {left} left behind")
    # The same command with a good spec now just works: nothing to recover.
    r = arena("tournament", "--game", "dominion", "--agent", "good=builtin:random",
              "--agent", "bad=builtin:big-money", "--games-per-pairing", "2", "--seed", "1",
              "--db", db, "--quiet")
    check(r.returncode == 0 and counts(db) == (2, 2), f"rerun: {r.returncode} {r.stderr}")


def sprt_resume():
    db = path("sprt.sqlite")
    first = subprocess.Popen([ARENA, "sprt", "--game", "nim", "--agent", f"a={SLOW}",
                              "--agent", "b=builtin:random", "--set", "stones=30",
                              "--elo0", "-10", "--elo1", "10", "--max-pairs", "5",
                              "--concurrency", "1", "--db", db, "--quiet"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.time() + 60
        while time.time() < deadline and first.poll() is None:
            if os.path.exists(db) and rows(db, "SELECT count(*) FROM sqlite_master")[0][0] and \
                    counts(db)[1] >= 3:
                break
            time.sleep(0.05)
        check(first.poll() is None, f"the run is still going: {first.poll()}")
        first.send_signal(signal.SIGINT)
        out, err = first.communicate(timeout=60)
    finally:
        if first.poll() is None:
            first.kill()
            first.wait()
    check(first.returncode == 130, f"interrupted sprt exits 130: {first.returncode} {err}")
    done_before = counts(db)[1]
    check(3 <= done_before < 10, f"stopped mid-run: {done_before} games")
    again = arena("sprt", "--resume", db, "--elo1", "20")
    check(again.returncode == 2 and "cannot change on --resume" in again.stderr,
          f"settings are fixed on resume: {again.returncode} {again.stderr}")
    r = arena("sprt", "--resume", db, "--quiet", timeout=180)
    check(r.returncode == 0, f"resume exits 0: {r.returncode} {r.stderr}")
    grp = rows(db, "SELECT grp, count(*), sum(done) FROM games GROUP BY grp ORDER BY grp")
    check([g[0] for g in grp] == [1, 2, 3, 4, 5] and all(g[1] == 2 and g[2] == 2 for g in grp),
          f"5 whole pairs, none lost or doubled: {grp}")
    check("pairs 5 " in r.stdout and "inconclusive" in r.stdout, f"resume output: {r.stdout}")
    text = arena("report", db).stdout
    check("SPRT: H0 elo <= -10, H1 elo >= 10 (alpha 0.05, beta 0.05)" in text
          and "verdict: inconclusive" in text and "LLR by pairs: 1:" in text
          and " 5:" in text, f"text report: {text}")
    js = json.loads(arena("report", db, "--format", "json").stdout)["sprt"]
    check(js["verdict"] == "inconclusive" and len(js["llr_by_pair"]) == 5
          and js["lower"] < 0 < js["upper"] and abs(js["llr"] - js["llr_by_pair"][-1]) < 1e-3,
          f"json sprt: {js}")
    html = arena("report", db, "--format", "html").stdout
    check('id="sprt-verdict"' in html and 'id="sprt-llr"' in html
          and html.count('class="bound"') == 3, "html sprt plot")


def report_parts():
    db = path("parts.sqlite")
    args = ["tournament", "--game", "nim", "--set", "stones=12", "--agent", f"slow={SLOW}",
            "--agent", "a=builtin:random", "--agent", "b=builtin:random",
            "--games-per-pairing", "4", "--move-ms", "10", "--bank-ms", "0",
            "--max-strikes", "1", "--seed", "1", "--concurrency", "2", "--db", db, "--quiet"]
    r = arena(*args)
    check(r.returncode == 0, f"exit {r.returncode}: {r.stderr}")
    out = r.stdout
    for part in ("date: ", "settings: --game nim --set stones=12", "agents: slow = cmd:",
                 "a = builtin:random", "time per move (budget 10 ms a move",
                 "first-seat advantage: seat 0 (first in seat order) scores",
                 "game length in turns (min / median / max): all",
                 "slow vs a: ", "forfeited games", "head-to-head W-L-D"):
        check(part in out, f"text report lacks {part!r}:\n{out}")
    check(" W      L      D " in out, "ranking columns W L D")
    js = json.loads(arena("report", db, "--format", "json").stdout)
    slow = [a for a in js["agents"] if a["agent"] == "slow"][0]
    mv = slow["move_time"]
    # Every game of the slow bot ends at its first 20 ms move: over budget.
    check(mv["over_90_percent"] >= 8 and mv["max_ms"] >= 10 and mv["p95_over_budget"],
          f"slow bot's move times: {mv}")
    check(slow["wld"] == [0, 8, 0], f"slow bot W-L-D: {slow['wld']}")
    fast = [a for a in js["agents"] if a["agent"] == "a"][0]["move_time"]
    check(fast["over_90_percent"] == 0 and fast["moves"] > 0, f"builtin move times: {fast}")
    ff = js["forfeited_games"]
    check(len(ff) == 8 and all(f["agent"] == "slow" and f["cause"] == "timeout"
                               and ("no answer within" in f["message"]
                                    or "more than the 10 ms allowed" in f["message"])
                               and f["log"].endswith(".jsonl.gz")
                               for f in ff), f"forfeited games: {ff}")
    # Each forfeited game's viewer, which the report links, was written.
    for f in ff:
        page = f["log"] + ".html"
        check(os.path.exists(page) and "@ARENA_REPLAY_DATA@" not in open(page).read()
              and '"reader' in open(page).read(), f"viewer of game {f['game']}: {page}")
    check(js["run"]["move_budget_ms"] == 10 and "--move-ms 10" in js["run"]["settings"]
          and js["run"]["created"], f"run: {js['run']}")
    check(js["first_seat"]["pairwise_results"] == 12, f"first seat: {js['first_seat']}")
    hh = [h for h in js["head_to_head"] if h["agent"] == "a" or h["opponent"] == "a"]
    check(all("length" in h and h["length"]["min"] <= h["length"]["median"] <= h["length"]["max"]
              for h in hh), f"lengths per pairing: {hh}")
    html = arena("report", db, "--format", "html").stdout
    check(html.count('class="viewer" href="') == 8 and ".jsonl.gz.html\"" in html,
          "html links each forfeited game's viewer file")
    # A DB from before the per-move columns: still read, and resumed.
    old = path("old.sqlite")
    args[args.index(db)] = old
    gpp = args.index("--games-per-pairing") + 1
    args[gpp] = "2"
    check(arena(*args).returncode == 0, "second run")
    con = sqlite3.connect(old)
    con.execute("UPDATE games SET done = 0 WHERE id > 3")
    for c in ("decisions", "move_max_ms", "move_hist", "fault_msgs", "timeout_clocks"):
        con.execute(f"ALTER TABLE games DROP COLUMN {c}")
    con.commit()
    con.close()
    rep = arena("report", old)
    check(rep.returncode == 0 and "3 of 6 finished" in rep.stdout, f"old DB report: {rep.stderr}")
    res = arena("tournament", "--resume", old, "--quiet")
    check(res.returncode == 0 and counts(old) == (6, 6), f"old DB resume: {res.stderr}")


def sprt_decided():
    jitter = f"{SLOW} jitter"
    db = path("decided.sqlite")
    r = arena("sprt", "--game", "nim", "--set", "stones=21", "--agent", f"a={jitter}",
              "--agent", f"b={jitter}", "--elo0", "-25", "--elo1", "25", "--alpha", "0.2",
              "--beta", "0.2", "--concurrency", "8", "--seed", "23", "--db", db, "--quiet",
              timeout=300)
    print(r.stdout)
    check(r.returncode == 0, f"sprt: {r.returncode} {r.stderr}")
    verdict = r.stdout.strip().splitlines()[-1]
    pairs = int(next(x for x in r.stdout.splitlines() if x.startswith("pairs ")).split()[1])
    llr = float(rows(db, "SELECT value FROM meta WHERE key = 'llr'")[0][0])
    games = counts(db)
    print(f"{verdict} after {pairs} pairs, LLR {llr:.3f}; games stored, finished: {games}")
    check(verdict in ("H1 accepted", "H0 accepted"), f"undecided: {verdict}")
    for i in range(3):
        again = path(f"again{i}.sqlite")
        shutil.copy(db, again)
        r = arena("sprt", "--resume", again, "--quiet", timeout=300)
        check(r.returncode == 0, f"resume: {r.returncode} {r.stderr}")
        check(r.stdout.strip().splitlines()[-1] == verdict and counts(again) == games,
              f"resume {i}: {r.stdout.strip().splitlines()[-1]}, games {counts(again)}; "
              f"the run decided {verdict} with games {games}")
    rep = arena("report", db).stdout
    want = f"verdict: {verdict}, LLR {llr:.3f} after {pairs} pairs"
    check(want in rep, f"report: want {want!r} in\n{rep}")


def p95_resolves():
    db = path("p95.sqlite")
    r = arena("tournament", "--game", "nim", "--set", "stones=12", "--agent", f"slow={SLOW} 2",
              "--agent", "rnd=builtin:random", "--games-per-pairing", "4", "--seed", "2",
              "--concurrency", "2", "--db", db, "--quiet")
    check(r.returncode == 0, f"tournament: {r.returncode} {r.stderr}")
    js = json.loads(arena("report", db, "--format", "json").stdout)
    for a in js["agents"]:
        mv = a["move_time"]
        print(a["agent"], mv)
        check(mv["moves"] > 0 and not mv["p95_over_budget"], f"{a['agent']}: {mv}")
        check(mv["p95_ms"] <= mv["max_ms"] + 0.001 and mv["p95_ms"] < 50,
              f"{a['agent']}: p95 {mv['p95_ms']} ms is not bounded by its longest move "
              f"{mv['max_ms']} ms")
    slow = next(a for a in js["agents"] if a["agent"] == "slow")["move_time"]
    check(slow["p95_ms"] >= 2, f"a bot sleeping 2 ms a move has p95 {slow['p95_ms']}")
    text = arena("report", db).stdout
    print(text)
    check("<=50 " not in text, "the text report's p95 reads <=50")
    page = arena("report", db, "--format", "html").stdout
    check("&#8804;&#160;50<" not in page, "the HTML report's p95 reads <= 50")


CASES = {"p95_resolves": p95_resolves, "sprt_decided": sprt_decided, "report_parts": report_parts, "sprt_resume": sprt_resume, "stop_settles": stop_settles, "stop_equal": stop_equal, "bad_spec": bad_spec}
CASES[CASE]()
print(f"ok {CASE}")
