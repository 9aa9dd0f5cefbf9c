#!/usr/bin/env python3
"""Distributed tournaments on a real PostgreSQL server (pgserver.py): the
coordinator (`arena tournament --db URL`), `arena worker`s, and what happens
when things fail.

usage: e2e_pg.py CASE ARENA WORKDIR
CASE: workers | kill-worker | late-duplicate | restart | stalled-db |
      two-coordinators | same-as-sqlite | sprt | early-stop | lost-after-pick |
      libpq-on-demand | tc-scale | ladder | ladder-workers |
      ladder-restart | timeout-evidence"""
import gzip
import json
import os
import select
import shutil
import signal
import sqlite3
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pgserver import PgServer  # noqa: E402

case, arena, work = sys.argv[1], os.path.abspath(sys.argv[2]), os.path.abspath(sys.argv[3])
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
SLOW_BOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tournaments",
                        "slow_bot.py")


def slow(ms):
    # A spawned bot that always answers its first choice: deterministic.
    return f"cmd:/usr/bin/python3 -S {os.path.abspath(SLOW_BOT)} {ms}"


def settings(stones, per_pairing, seed, bot_ms):
    return ["--game", "nim", "--set", f"stones={stones}", "--agent", "a=builtin:random",
            "--agent", f"b={slow(bot_ms)}", "--agent", "c=builtin:random",
            "--games-per-pairing", str(per_pairing), "--seed", str(seed),
            "--limit-as", "0"]  # sanitizer builds need a large address space


procs = []


def fail(msg):
    print("FAIL:", msg)
    for p in procs:
        if p.poll() is None:
            p.kill()
    for p in procs:
        p.wait()
        print(f"--- {' '.join(p.args[:2])} {p.args[p.args.index('--name') + 1] if '--name' in p.args else ''} stderr:")
        with open(p.errfile) as f:
            print(f.read()[-3000:])
    sys.exit(1)


def start(args, tag):
    errfile = os.path.join(work, tag + ".err")
    p = subprocess.Popen([arena, *args], cwd=work, stdout=subprocess.PIPE,
                         stderr=open(errfile, "w"), text=True)
    p.errfile = errfile
    procs.append(p)
    return p


def worker(url, name, conc=1, lease=60, extra=()):
    return start(["worker", "--db", url, "--name", name, "--concurrency", str(conc),
                  "--lease", str(lease), "--logs", os.path.join(work, "logs-" + name),
                  *extra], name)


def coordinator(url, extra, conc=0, tag="coord"):
    return start(["tournament", *extra, "--db", url, "--concurrency", str(conc)], tag)


def wait(p, timeout, what):
    try:
        out, _ = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        fail(f"{what} did not end within {timeout} s")
    return out


def stop_workers(ws):
    for w in ws:
        w.send_signal(signal.SIGTERM)
    for w in ws:
        try:
            rc = w.wait(timeout=30)
        except subprocess.TimeoutExpired:
            fail("a worker ignored SIGTERM")
        if rc != 0:
            fail(f"worker exited {rc} on SIGTERM")


def until(cond, timeout, what):
    t0 = time.time()
    while time.time() - t0 < timeout:
        try:
            v = cond()
        except AssertionError:  # the tables are not there yet, the server restarts
            v = None
        if v:
            return v
        time.sleep(0.1)
    fail(f"timed out waiting for {what}")


def results(pg, name):
    rows = pg.psql("SELECT g.id, g.seats, g.ranks, g.scores, g.reason, g.turns FROM arena_games g"
                   f" JOIN arena_tournaments t ON t.id = g.tid WHERE t.name = '{name}'"
                   " AND g.done ORDER BY g.id")
    return [tuple(r.split("|")) for r in rows.splitlines() if r]


def count(pg, name, where="TRUE"):
    return int(pg.psql(f"SELECT count(*) FROM arena_games g JOIN arena_tournaments t ON"
                       f" t.id = g.tid WHERE t.name = '{name}' AND ({where})"))


def check_complete(pg, name, expected):
    if count(pg, name) != expected:
        fail(f"{count(pg, name)} games scheduled, expected {expected}")
    if count(pg, name, "g.done") != expected:
        fail(f"{count(pg, name, 'g.done')} of {expected} games done")


def case_workers(pg):
    url = pg.url("three")
    ws = [worker(url, f"w{i}") for i in range(1, 4)]  # before the tournament: they wait
    c = coordinator(url, settings(30, 10, 3, 2))
    wait(c, 120, "the coordinator")
    if c.returncode != 0:
        fail(f"coordinator exited {c.returncode}")
    check_complete(pg, "three", 30)
    by = dict(r.split("|") for r in pg.psql(
        "SELECT worker, count(*) FROM arena_games WHERE done GROUP BY 1").splitlines())
    print("games per worker:", by)
    if sum(int(v) for v in by.values()) != 30 or len(by) < 2 or "coordinator" in by:
        fail(f"games per worker {by}: expected the workers (not the coordinator) to share them")
    # Every recorded log exists on this host, where its worker wrote it.
    for log in pg.psql("SELECT log FROM arena_games WHERE done").splitlines():
        if not os.path.isfile(log) or "/logs-w" not in log:
            fail(f"log {log} missing")
    with open(c.errfile) as f:
        prog = f.read()
    if "30/30 games" not in prog or "workers: w" not in prog:
        fail("the coordinator's progress does not show the games done per worker:\n" + prog)
    rep = subprocess.run([arena, "report", url], capture_output=True, text=True, timeout=60)
    if rep.returncode != 0 or "match logs (host: directory, games)" not in rep.stdout:
        fail("report without the logs per host: " + rep.stdout[-500:] + rep.stderr)
    hosts = rep.stdout.split("match logs (host: directory, games):")[1]
    if sum(int(x.split("(")[1].rstrip(")")) for x in hosts.strip().splitlines()) != 30:
        fail("report's logs per host do not add up to 30:\n" + hosts)
    # The workers' logs gathered in one place: every verdict holds up.
    gathered = os.path.join(work, "gathered")
    os.makedirs(gathered, exist_ok=True)
    for log in pg.psql("SELECT log FROM arena_games WHERE done").splitlines():
        shutil.copy(log, gathered)
    aud = subprocess.run([arena, "audit", url, "--logs", gathered], capture_output=True,
                         text=True, timeout=120)
    if aud.returncode != 0 or "30 of them replayed" not in aud.stdout:
        fail(f"audit of the workers' results (exit {aud.returncode}):\n{aud.stdout}{aud.stderr}")
    stop_workers(ws)


def case_kill_worker(pg):
    url = pg.url("kill")
    c = coordinator(url, settings(60, 4, 5, 40))  # games of a few seconds
    a = worker(url, "A", conc=1, lease=2)
    # A holds a game and is playing it: kill it mid-game.
    held = until(lambda: pg.psql("SELECT id FROM arena_games WHERE worker = 'A' AND NOT done"
                                 " AND lease_until > now()"), 60, "worker A to claim a game")
    time.sleep(0.5)
    a.send_signal(signal.SIGKILL)
    a.wait()
    held = int(held.splitlines()[0])
    if pg.psql(f"SELECT done FROM arena_games WHERE id = {held}") != "f":
        fail("the game was finished before the kill; the test did not kill mid-game")
    b = worker(url, "B", conc=2, lease=2)
    wait(c, 150, "the coordinator")
    if c.returncode != 0:
        fail(f"coordinator exited {c.returncode}")
    check_complete(pg, "kill", 12)
    row = pg.psql(f"SELECT worker, claims FROM arena_games WHERE id = {held}")
    w, claims = row.split("|")
    print(f"game {held} (killed mid-game on A): finished by {w}, claimed {claims} times")
    if w != "B" or int(claims) < 2:
        fail(f"game {held} was not replayed by B: {row}")
    stop_workers([b])


def case_restart(pg):
    url = pg.url("restart")
    c = coordinator(url, settings(30, 8, 9, 15), conc=1)
    w = worker(url, "W", conc=1)
    until(lambda: count(pg, "restart", "g.done") >= 3, 90, "3 games done")
    pg.stop("fast")  # every connection is cut
    time.sleep(2)
    pg.start()
    wait(c, 150, "the coordinator")
    if c.returncode != 0:
        fail(f"coordinator exited {c.returncode} after the restart")
    check_complete(pg, "restart", 24)
    with open(w.errfile) as f:
        werr = f.read()
    print("worker saw:", [ln for ln in werr.splitlines() if "database" in ln][:4])
    stop_workers([w])


def case_stalled_db(pg):
    # The database stops answering (every server process SIGSTOPped) for far
    # longer than a move: the workers' loops block in a database call while
    # the bots' answers wait in their pipes. That stall is the referee's, not
    # the bots' (the loop-lag credit): no game may forfeit for it.
    url = pg.url("stall")
    c = coordinator(url, settings(20, 30, 17, 10) + ["--move-ms", "200", "--bank-ms", "0"])
    w = worker(url, "W", conc=3)
    until(lambda: count(pg, "stall", "g.done") >= 3, 90, "3 games done")
    # Three stalls: whether a decision is out when the loop blocks is a
    # matter of timing (an answer just read is judged after the stall and
    # charged as it arrived), so one stall alone may catch none.
    for _ in range(3):
        stopped = pg.processes()
        # A backend may exit between the listing and its signal (a
        # connection closing): it is then past stopping or continuing.
        def signal_all(sig):
            for pid in stopped:
                try:
                    os.kill(pid, sig)
                except ProcessLookupError:
                    pass
        signal_all(signal.SIGSTOP)
        time.sleep(1.5)
        signal_all(signal.SIGCONT)
        time.sleep(0.5)
    wait(c, 150, "the coordinator")
    if c.returncode != 0:
        fail(f"coordinator exited {c.returncode} after the stall")
    check_complete(pg, "stall", 90)
    lost = pg.psql("SELECT id, forfeits FROM arena_games WHERE reason <> 'normal'")
    if lost:
        fail(f"games forfeited for the database's stall: {lost}")
    # Not vacuous: some decision was pending through a stall, and its log
    # shows the stall credited, not charged.
    spanned = []
    for log in pg.psql("SELECT log FROM arena_games WHERE done").splitlines():
        with gzip.open(log, "rt") as f:
            for line in f:
                m = json.loads(line)
                if m["type"] == "lag" and "seat" in m and m["lag_ms"] >= 1000:
                    spanned.append(m)
    print("decisions pending through a stall:", spanned)
    if not spanned or any(m["charged_ms"] >= 200 for m in spanned):
        fail("no decision was pending through a stall, or it was charged for it")
    stop_workers([w])


def case_two_coordinators(pg):
    url = pg.url("one")
    s = settings(20, 4, 11, 1)
    c1 = coordinator(url, s)  # waits for workers
    until(lambda: pg.psql("SELECT count(*) FROM arena_meta WHERE key = 'kind'") == "1", 60,
          "the tournament to be created")
    for args in (["tournament", "--resume", url, "--concurrency", "1"],
                 ["tournament", *s, "--db", url, "--concurrency", "1"]):
        r = subprocess.run([arena, *args], capture_output=True, text=True, timeout=60, cwd=work)
        print("second coordinator:", r.returncode, r.stderr.strip()[-300:])
        if r.returncode == 0 or "tournament one is in use" not in r.stderr:
            fail("a second coordinator on the same tournament was not refused")
    # A coordinator killed outright leaves no lock behind: --resume takes over.
    c1.send_signal(signal.SIGKILL)
    c1.wait()
    c2 = start(["tournament", "--resume", url, "--concurrency", "2"], "coord2")
    wait(c2, 120, "the resumed coordinator")
    if c2.returncode != 0:
        fail(f"resumed coordinator exited {c2.returncode}")
    check_complete(pg, "one", 12)


def case_same_as_sqlite(pg):
    s = settings(25, 10, 21, 1)
    db = os.path.join(work, "ref.sqlite")
    r = subprocess.run([arena, "tournament", *s, "--db", db, "--concurrency", "2", "--quiet",
                        "--logs", "none"], capture_output=True, text=True, timeout=120)
    if r.returncode != 0:
        fail("SQLite run failed: " + r.stderr)
    con = sqlite3.connect(db)
    ref = [tuple(str(x) for x in row) for row in con.execute(
        "SELECT id, seats, ranks, scores, reason, turns FROM games ORDER BY id")]
    con.close()
    url = pg.url("same")
    ws = [worker(url, "x", conc=2), worker(url, "y", conc=1)]
    c = coordinator(url, s, conc=1)
    wait(c, 120, "the coordinator")
    if c.returncode != 0:
        fail(f"coordinator exited {c.returncode}")
    got = results(pg, "same")
    if len(ref) != 30 or got != ref:
        diff = [(a, b) for a, b in zip(ref, got) if a != b][:5]
        fail(f"per-game results differ from the SQLite run ({len(ref)} vs {len(got)}): {diff}")
    print(f"{len(got)} games identical to the SQLite run")
    stop_workers(ws)


def case_sprt(pg):
    url = pg.url("sprt")
    ws = [worker(url, "x"), worker(url, "y")]
    # b takes 20 ms a move: the test decides long before the games scheduled
    # ahead are all played.
    args = ["sprt", "--game", "nim", "--agent", "a=builtin:ismcts:30", "--agent",
            f"b={slow(20)}", "--elo0", "0", "--elo1", "100", "--alpha", "0.1", "--beta", "0.1",
            "--db", url, "--concurrency", "0", "--limit-as", "0"]
    c = start(args, "coord")
    out = wait(c, 120, "the sprt coordinator")
    print(out)
    if c.returncode != 0 or "H1 accepted" not in out:
        fail(f"sprt exited {c.returncode} without accepting H1 (the stronger bot)")
    done = count(pg, "sprt", "g.done")
    withdrawn = count(pg, "sprt", "g.withdrawn AND NOT g.done")
    print(f"{done} games played, {withdrawn} withdrawn at the decision")
    if withdrawn == 0:
        fail("no pending game was withdrawn once the test decided")
    # The workers stop playing it: nothing is claimable any more.
    time.sleep(1.5)
    if count(pg, "sprt", "NOT g.done AND NOT g.withdrawn") != 0:
        fail("games still pending after the decision")
    r = subprocess.run([arena, "sprt", "--resume", url, "--concurrency", "0"],
                       capture_output=True, text=True, timeout=60, cwd=work)
    # Games in flight at the decision may still be stored, uncounted: the
    # resumed verdict (counts, LLR, decision) is the one printed at the end.
    if r.returncode != 0 or out.splitlines()[-4:] != r.stdout.splitlines()[-4:]:
        fail("--resume of the decided run: " + r.stdout + r.stderr)
    stop_workers(ws)


def groups_cut(rows_of):
    """Groups with some but not all games done (a seat-swapped pair cut)."""
    return [r for r in rows_of if r[1] not in (0, r[2])]


def case_early_stop(pg):
    # A search bot against one that always takes the first option: the
    # ranking settles after a few pairs, long before the 160 games scheduled
    # (slow(15): about half a second a game, so the workers would need a
    # minute for all of them).
    s = ["--game", "nim", "--set", "stones=30", "--agent", "a=builtin:ismcts:30",
         "--agent", f"b={slow(15)}", "--games-per-pairing", "160", "--seed", "7",
         "--stop", "ranking:0.95", "--stop-min-games", "6", "--limit-as", "0"]
    db = os.path.join(work, "ref.sqlite")
    r = subprocess.run([arena, "tournament", *s, "--db", db, "--concurrency", "2", "--quiet",
                        "--logs", "none"], capture_output=True, text=True, timeout=120)
    if r.returncode != 0 or "stopped early: ranking settled (stop = ranking:0.95)" not in r.stdout:
        fail(f"the SQLite run did not stop early ({r.returncode}): {r.stdout} {r.stderr}")
    ref_first = [ln.split()[1] for ln in r.stdout.splitlines() if ln.strip().startswith("1 ")]
    url = pg.url("stop")
    ws = [worker(url, "x"), worker(url, "y")]
    c = coordinator(url, s)
    out = wait(c, 120, "the coordinator")
    print(out)
    if c.returncode != 0:
        fail(f"coordinator exited {c.returncode}")
    done, total = count(pg, "stop", "g.done"), count(pg, "stop")
    withdrawn = count(pg, "stop", "g.withdrawn")
    print(f"SQLite: {ref_first}; PostgreSQL: {done} of {total} played, {withdrawn} withdrawn")
    if "stopped early: ranking settled (stop = ranking:0.95)" not in out or \
            f"after {done} of 160 games" not in out:
        fail("the coordinator's report does not say it stopped early, as the SQLite one does")
    first = [ln.split()[1] for ln in out.splitlines() if ln.strip().startswith("1 ")]
    if first != ref_first or first != ["a"]:
        fail(f"a different leader than the SQLite run: {first} vs {ref_first}")
    if not (6 <= done < 80 and withdrawn > 0 and total == 160):
        fail(f"not stopped early: {done} done, {withdrawn} withdrawn of {total}")
    # The stop cuts no group, and withdraws only games nobody was handed:
    # every game of a group started before the withdrawal (one in flight,
    # or its seat-swapped partner) is played, no other game is.
    cut = groups_cut([tuple(int(x) for x in ln.split("|")) for ln in pg.psql(
        "SELECT grp, count(*) FILTER (WHERE done), count(*) FROM arena_games GROUP BY grp"
    ).splitlines()])
    if cut:
        fail(f"groups cut by the stop (group, done, games): {cut}")
    if count(pg, "stop", "g.withdrawn AND (g.done OR g.claims > 0)"):
        fail("a withdrawn game was handed out or played")
    if count(pg, "stop", "NOT g.withdrawn AND NOT g.done"):
        fail("games neither played nor withdrawn")
    # The workers leave it alone: nothing more is played.
    time.sleep(1.5)
    if count(pg, "stop", "g.done OR g.claims > 0") != done:
        fail("games were handed out after the coordinator ended")
    stop_workers(ws)
    r = subprocess.run([arena, "tournament", "--resume", url, "--concurrency", "1", "--quiet"],
                       capture_output=True, text=True, timeout=60, cwd=work)
    if r.returncode != 0 or f"after {done} of 160 games" not in r.stdout or \
            count(pg, "stop", "g.done") != done:
        fail(f"--resume of the stopped run ({r.returncode}): {r.stdout} {r.stderr}")
    js = json.loads(subprocess.run([arena, "report", url, "--format", "json"],
                                   capture_output=True, text=True, timeout=60).stdout)
    if not js["stop"]["stopped_early"] or "ranking settled" not in js["stop"]["why"] or \
            js["scheduled"] != 160 or js["games"] != done:
        fail(f"report: {js['stop']}, {js['games']} of {js['scheduled']}")


def case_lost_after_pick(pg):
    # The database goes away after a worker picked a tournament and before
    # it read the tournament's settings. Made deterministic without a hook:
    # a second session holds arena_meta locked, so the worker's settings read
    # (its first statement on arena_meta after the pick) blocks; the server
    # is then stopped in immediate mode and started again. The worker must
    # wait for it and play the tournament, not exit.
    url = pg.url("gap")
    c = coordinator(url, settings(20, 2, 19, 1))
    until(lambda: "0/6 games" in open(c.errfile).read(), 60, "the coordinator to start")
    c.send_signal(signal.SIGKILL)  # the tournament stays; the worker plays it alone
    c.wait()
    locker = subprocess.Popen([os.path.join(pg.bin, "psql"), "-X", "-A", "-t", "-q", "-h",
                               pg.dir, "-p", str(pg.port), "-U", "arena", "-d", "arena"],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    procs.append(locker)
    locker.errfile = os.devnull
    locker.stdin.write("BEGIN;\nLOCK TABLE arena_meta IN ACCESS EXCLUSIVE MODE;\n"
                       "SELECT 'locked';\n")
    locker.stdin.flush()
    if not select.select([locker.stdout], [], [], 30)[0] or \
            locker.stdout.readline().strip() != "locked":
        fail("could not lock arena_meta")
    w = worker(url, "W")
    until(lambda: pg.psql("SELECT count(*) FROM pg_stat_activity WHERE application_name ="
                          " 'arena' AND wait_event_type = 'Lock' AND query LIKE"
                          " 'SELECT value FROM arena_meta%'") == "1"
          and "playing tournament gap" in open(w.errfile).read(), 30,
          "the worker's settings read to block after its pick")
    pg.stop("immediate")
    locker.kill()  # its session is gone with the server
    locker.wait()
    time.sleep(2)  # the worker finds the server gone and keeps trying
    if w.poll() is not None:
        fail(f"the worker exited {w.returncode} when the database went away after its pick")
    pg.start()
    until(lambda: count(pg, "gap", "g.done") == 6, 90, "the worker to play every game")
    with open(w.errfile) as f:
        werr = f.read()
    print("worker saw:", [ln for ln in werr.splitlines() if "database" in ln][:4])
    if "went away before the settings of gap were read; retrying" not in werr or \
            "the database is back" not in werr:
        fail("the worker did not say it waited for the database:\n" + werr)
    stop_workers([w])


def case_libpq_on_demand(pg):
    # libpq (and the ~20 libraries below it) is loaded only for a
    # postgresql:// URL: other runs start without it.
    def loaded(args):
        r = subprocess.run([arena, *args], capture_output=True, text=True, timeout=60, cwd=work,
                           env={**os.environ, "LD_DEBUG": "files"})
        return r, [ln for ln in r.stderr.splitlines() if "file=libpq.so" in ln]
    for args in (["--help"], ["play", "nim", "builtin:random", "builtin:random"]):
        r, pq = loaded(args)
        if r.returncode != 0 or pq:
            fail(f"arena {' '.join(args)} loaded libpq ({r.returncode}): {pq}")
    url = pg.url("dl")
    r, pq = loaded(["tournament", *settings(10, 2, 3, 1), "--db", url, "--concurrency", "1",
                    "--quiet"])
    if r.returncode != 0 or not pq or count(pg, "dl", "g.done") != 6:
        fail(f"a tournament on PostgreSQL ({r.returncode}, libpq loaded: {bool(pq)}):"
             f" {r.stderr[-1000:]}")


def case_late_duplicate(pg):
    url = pg.url("late")
    c = coordinator(url, settings(60, 2, 13, 40))
    a = worker(url, "A", conc=1, lease=1)
    held = until(lambda: pg.psql("SELECT id FROM arena_games WHERE worker = 'A' AND NOT done"
                                 " AND lease_until > now()"), 60, "worker A to claim a game")
    held = int(held.splitlines()[0])
    # A stalls past its lease (a swapping host): B plays the game again.
    a.send_signal(signal.SIGSTOP)
    b = worker(url, "B", conc=1, lease=60)
    until(lambda: pg.psql(f"SELECT done AND worker = 'B' FROM arena_games WHERE id = {held}")
          == "t", 90, f"B to finish game {held}")
    first = pg.psql(f"SELECT ranks, scores, turns, posted FROM arena_games WHERE id = {held}")
    a.send_signal(signal.SIGCONT)
    wait(c, 150, "the coordinator")
    if c.returncode != 0:
        fail(f"coordinator exited {c.returncode}")
    check_complete(pg, "late", 6)
    # A's match goes on where it stopped, then A posts its late result.
    until(lambda: "already has a result" in open(a.errfile).read(), 60,
          "A to post its late result")
    stop_workers([a, b])
    with open(a.errfile) as f:
        aerr = f.read()
    print("A said:", [ln for ln in aerr.splitlines() if "dropped" in ln])
    if f"game {held} of late already has a result" not in aerr:
        fail(f"A's late result for game {held} was not reported as dropped:\n{aerr}")
    if pg.psql(f"SELECT ranks, scores, turns, posted FROM arena_games WHERE id = {held}") != first:
        fail(f"game {held}: the late result changed the recorded one")


def case_tc_scale(pg):
    """--tc-scale auto: a worker half as fast as the host that made the
    tournament plays with clocks twice as long; one ten times slower is
    refused and plays nothing; the report shows each worker's speed."""
    url = pg.url("scaled")
    c = coordinator(url, settings(12, 4, 9, 1) + ["--tc-scale", "auto", "--move-ms", "300",
                                                   "--bank-ms", "1000"])
    ref = float(until(lambda: pg.psql("SELECT value FROM arena_meta WHERE key = 'tc_ref_speed'"),
                      60, "the reference speed"))
    if ref <= 0:
        fail(f"reference speed {ref}")
    far = worker(url, "far", extra=["--speed", str(ref / 10)])
    until(lambda: "refuses it" in open(far.errfile).read(), 30, "the slow worker's refusal")
    half = worker(url, "half", extra=["--speed", str(ref / 2)])
    wait(c, 120, "the coordinator")
    if c.returncode != 0:
        fail(f"coordinator exited {c.returncode}")
    check_complete(pg, "scaled", 12)
    by = pg.psql("SELECT worker, count(*) FROM arena_games WHERE done GROUP BY 1")
    if by.strip() != "half|12":
        fail(f"games per worker: {by!r}, expected all 12 by 'half' and none by 'far'")
    for log in pg.psql("SELECT log FROM arena_games WHERE done").splitlines():
        with gzip.open(log, "rt") as f:
            clock = next(json.loads(x)["clock"] for x in f if '"clock"' in x)
        if (clock["move_ms"], clock["bank_ms"]) != (600, 2000):
            fail(f"{log}: clocks {clock}, expected move 600 and bank 2000 (x2)")
    rep = subprocess.run([arena, "report", url, "--format", "json"], capture_output=True,
                         text=True, timeout=60)
    if rep.returncode != 0:
        fail("report: " + rep.stderr)
    ws = {w["name"]: w for w in json.loads(rep.stdout)["workers"]}
    if set(ws) != {"half"} or ws["half"]["games"] != 12 or abs(ws["half"]["scale"] - 2) > 0.01 \
            or abs(ws["half"]["speed"] - ref / 2) > 1:
        fail(f"report's workers: {ws}")
    txt = subprocess.run([arena, "report", url], capture_output=True, text=True, timeout=60)
    if "clocks x2.00" not in txt.stdout:
        fail("the text report does not show the worker's clock scale:\n" + txt.stdout[-800:])
    stop_workers([far, half])


LADDER_BOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "ladder",
                          "ladder_bot.py")


def ladder_cmd(*a):
    return subprocess.run([arena, "ladder", *a], capture_output=True, text=True, timeout=60)


def ladder_status(url):
    r = ladder_cmd("status", url, "--format", "json")
    if r.returncode != 0:
        raise AssertionError(r.stderr)
    return json.loads(r.stdout)


def ladder_add(url, name, spec):
    out = ladder_cmd("add", url, name, spec)
    if out.returncode != 0:
        fail("ladder add: " + out.stderr)


def ladder_rows(pg, name):
    """id|grp|seats|done|worker|claims|log of every stored game, by id."""
    rows = pg.psql("SELECT g.id, g.grp, g.seats, g.done, coalesce(g.worker, ''), g.claims,"
                   " coalesce(g.log, '') FROM arena_games g JOIN arena_tournaments t ON"
                   f" t.id = g.tid WHERE t.name = '{name}' ORDER BY g.id")
    return [r.split("|") for r in rows.splitlines() if r]


def check_ladder_store(pg, name, run_err):
    """Every scheduled game finished once, numbered 1..N with no gap, its
    log where its player wrote it; the leaderboard and the run's own
    ratings count every one of them."""
    rows = ladder_rows(pg, name)
    ids = [int(r[0]) for r in rows]
    if ids != list(range(1, len(ids) + 1)):
        fail(f"game ids not contiguous: {ids}")
    groups = sorted({int(r[1]) for r in rows})
    if groups != list(range(1, len(groups) + 1)):
        fail(f"groups not contiguous: {groups}")
    if [r for r in rows if r[3] != "t"]:
        fail(f"games left unfinished: {[r for r in rows if r[3] != 't']}")
    for r in rows:
        if r[6] and not os.path.isfile(r[6]):
            fail(f"game {r[0]}: its log {r[6]} is missing")
    st = ladder_status(url_of(pg, name))
    if st["games"] != len(rows):
        fail(f"status counts {st['games']} ranked games, the store holds {len(rows)}")
    seats = sum(len(r[2].split(",")) for r in rows)
    if sum(e["games"] for e in st["entrants"]) != seats:
        fail(f"the entrants' games do not add up to the {seats} seats played: {st}")
    with open(run_err) as f:
        said = f.read()
    counted = [int(line.split()[2]) for line in said.splitlines()
               if line.startswith("arena: ladder: ") and "ranked results in the ratings" in line]
    if not counted or counted[-1] != len(rows):
        fail(f"the run's ratings count {counted} results, the store holds {len(rows)}:\n{said}")
    return rows, st


def url_of(pg, name):
    return pg.url(name)


def case_ladder(pg):
    """A ladder in PostgreSQL: add and status from other processes; its run
    plays games under leases beside a worker; a SIGKILLed run's games are
    played again once their leases expire, and the run resumes."""
    url = pg.url("season")
    w = worker(url, "helper", lease=2, extra=("--speed", "1000"))
    r = start(["ladder", "run", url, "--game", "nim", "--set", "stones=9", "--concurrency", "2",
               "--lease", "2", "--limit-as", "0", "--logs", os.path.join(work, "logs")],
              "ladder")
    until(lambda: ladder_cmd("status", url).returncode == 0, 60, "the ladder to be made")
    for name in ["a", "b", "c"]:
        ladder_add(url, name, slow(5))
    until(lambda: ladder_status(url)["games"] >= 10 and
          count(pg, "season", "g.worker = 'helper' AND g.done") and
          count(pg, "season", "g.worker = 'coordinator' AND NOT g.done"),
          90, "10 ranked games, one by the worker, and one in the run's hands")
    r.kill()
    r.wait()
    held = [int(x) for x in pg.psql("SELECT g.id FROM arena_games g JOIN arena_tournaments t ON"
                                    " t.id = g.tid WHERE t.name = 'season' AND NOT g.done AND"
                                    " g.worker = 'coordinator'").split()]
    r2 = start(["ladder", "run", url, "--games", "2", "--lease", "2"], "ladder2")
    wait(r2, 120, "the resumed ladder")
    if r2.returncode != 0:
        fail(f"resumed ladder exited {r2.returncode}")
    rows, st = check_ladder_store(pg, "season", r2.errfile)
    if len([e for e in st["entrants"] if e["state"] == "active"]) != 3:
        fail(f"ladder status: {st}")
    by = {}
    for row in rows:
        by[row[4]] = by.get(row[4], 0) + 1
    if not by.get("helper") or not by.get("coordinator"):
        fail(f"games by player {by}: expected both the run and the worker")
    for row in rows:
        if int(row[0]) in held and int(row[5]) < 2:
            fail(f"game {row[0]} (the killed run's) was not played again: {row}")
    # The finals freeze a running run (which finishes what it scheduled and
    # ends) and are claimed like its games: with --concurrency 0 the worker
    # plays them all.
    r3 = start(["ladder", "run", url, "--lease", "2"], "ladder3")
    until(lambda: count(pg, "season", "TRUE") > len(rows), 60, "the third run to schedule")
    f = subprocess.run([arena, "ladder", "finals", url, "--top", "3", "--games-per-pairing", "4",
                        "--concurrency", "0"], capture_output=True, text=True, timeout=180)
    if f.returncode != 0:
        fail(f"ladder finals exited {f.returncode}: {f.stderr}")
    wait(r3, 60, "the frozen run")
    if r3.returncode != 0:
        fail(f"the run frozen by the finals exited {r3.returncode}")
    frows = ladder_rows(pg, "season")
    ids = [int(x[0]) for x in frows]
    if ids != list(range(1, len(ids) + 1)) or [x for x in frows if x[3] != "t"]:
        fail(f"after the finals: ids {ids}, unfinished {[x for x in frows if x[3] != 't']}")
    fst = ladder_status(url)
    finals_from = int(pg.psql("SELECT m.value FROM arena_meta m JOIN arena_tournaments t ON"
                              " t.id = m.tid WHERE t.name = 'season' AND m.key = 'finals_from'"))
    fby = {}
    for x in frows:
        if int(x[0]) >= finals_from:
            fby[x[4]] = fby.get(x[4], 0) + 1
    if fst.get("finals", {}).get("games") != 12 or fby != {"helper": 12}:
        fail(f"finals: {fst.get('finals')}, games by player {fby}")
    stop_workers([w])
    print(f"ladder in PostgreSQL: {st['games']} ranked games, ids 1..{len(rows)}, by {by}; "
          f"finals by {fby}")


def case_timeout_evidence(pg):
    """A worker's timeout forfeits keep their figures in PostgreSQL: the
    report shows them, the audit holds them against the logs and catches
    an edited one; a database from before the column still reads."""
    burner = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "e2e", "bots",
                          "cpu_burner.py")
    url = pg.url("evidence")
    w = worker(url, "x")
    c = coordinator(url, ["--game", "nim", "--set", "stones=12", "--agent",
                          f"burner=cmd:/usr/bin/python3 -S {os.path.abspath(burner)} burn 400",
                          "--agent", "rnd=builtin:random", "--games-per-pairing", "2",
                          "--move-ms", "50", "--bank-ms", "0", "--seed", "7", "--limit-as", "0"])
    wait(c, 120, "the coordinator")
    if c.returncode != 0:
        fail(f"coordinator exited {c.returncode}")
    stop_workers([w])

    def report():
        r = subprocess.run([arena, "report", url, "--format", "json"], capture_output=True,
                           text=True, timeout=60)
        if r.returncode != 0:
            fail("report: " + r.stderr)
        return json.loads(r.stdout)["timeouts"]

    tos = report()
    if not tos or not all(t["clock"] and t["clock"]["charged_ms"] > t["clock"]["allowance_ms"]
                          and t["borne_out"] for t in tos):
        fail(f"the timeouts' figures in the report: {tos}")
    logs = os.path.join(work, "logs-x", "evidence")  # a worker's, per tournament

    def audit():
        return subprocess.run([arena, "audit", url, "--logs", logs], capture_output=True,
                              text=True, timeout=60)

    a = audit()
    if a.returncode != 0 or " 0 without a log" not in a.stdout:
        fail(f"audit of a clean run (exit {a.returncode}):\n{a.stdout}{a.stderr}")
    game = tos[0]["game"]
    pg.psql("UPDATE arena_games SET timeout_clocks = replace(timeout_clocks, '\"lag_ms\":',"
            f" '\"lag_ms\":1') WHERE id = {game}")
    a = audit()
    if a.returncode != 1 or f"game {game}: its stored figures" not in a.stdout:
        fail(f"an edited figure is not caught (exit {a.returncode}):\n{a.stdout}{a.stderr}")
    # The schema before the column: opened, it gains it back, empty.
    pg.psql("ALTER TABLE arena_games DROP COLUMN timeout_clocks")
    tos = report()
    if not tos or any(t["clock"] is not None for t in tos):
        fail(f"a database without the column: {tos}")
    print(f"{len(tos)} timeouts with their figures in PostgreSQL; an edit caught")


def case_ladder_workers(pg):
    """Three workers play a ladder whose run only schedules: entrants added
    while it runs, a new version replacing one whose games are out, a bot
    that fails validation (played by the run) and one that crashes in the
    workers' games (disabled by the run's fault count); a worker SIGKILLed
    mid-game, the run SIGKILLed and resumed. Every scheduled game is played
    and recorded once."""
    url = pg.url("many")
    bot = lambda mode: f"cmd:/usr/bin/python3 -S {os.path.abspath(LADDER_BOT)} {mode}"
    ws = {n: worker(url, n, conc=2, lease=2) for n in ["w1", "w2", "w3"]}
    r = start(["ladder", "run", url, "--game", "nim", "--set", "stones=12", "--concurrency", "0",
               "--max-faults", "3", "--limit-as", "0", "--logs", os.path.join(work, "logs-run")],
              "ladder")
    until(lambda: ladder_cmd("status", url).returncode == 0, 60, "the ladder to be made")
    ladder_add(url, "a", slow(20))
    ladder_add(url, "b", slow(20))
    until(lambda: ladder_status(url)["games"] >= 6, 90, "6 ranked games")
    # Entrants while it runs; a's second version while a's first has games out.
    ladder_add(url, "c", slow(20))
    ladder_add(url, "crashy", bot("crashy"))
    ladder_add(url, "dead", bot("dead"))
    ladder_add(url, "a", slow(20))
    # w1 holds games and is playing them: kill it mid-game.
    w1_holds = ("SELECT g.id FROM arena_games g JOIN arena_tournaments t ON t.id = g.tid"
                " WHERE t.name = 'many' AND g.worker = 'w1' AND NOT g.done")
    until(lambda: pg.psql(w1_holds), 60, "w1 to hold a game")
    ws["w1"].kill()
    ws["w1"].wait()
    held = [int(x) for x in pg.psql(w1_holds).split()]
    if not held:
        fail("w1 finished its games before the kill; the test did not kill mid-game")
    def settled():
        st = ladder_status(url)
        ent = {f"{e['name']}/v{e['version']}": e for e in st["entrants"]}
        return st["games"] >= 40 and ent["a/v2"]["games"] >= 2 and \
            ent["crashy/v1"]["state"] == "disabled"
    until(settled, 150, "40 ranked games, a's second version playing, crashy disabled")
    r.kill()  # SIGKILL: the workers go on with what is scheduled
    r.wait()
    r2 = start(["ladder", "run", url, "--games", "6", "--concurrency", "0"], "ladder2")
    wait(r2, 150, "the resumed ladder")
    if r2.returncode != 0:
        fail(f"resumed ladder exited {r2.returncode}")
    rows, st = check_ladder_store(pg, "many", r2.errfile)
    live = [ws["w2"], ws["w3"]]
    stop_workers(live)
    by = {}
    for row in rows:
        by[row[4]] = by.get(row[4], 0) + 1
        if row[4] not in ("w1", "w2", "w3"):
            fail(f"game {row[0]} played by {row[4]}: the run was to play none")
        if f"/logs-{row[4]}/many/" not in row[6]:
            fail(f"game {row[0]} by {row[4]}: log {row[6]} not in its worker's folder")
    for row in rows:
        if int(row[0]) in held and (row[4] == "w1" or int(row[5]) < 2):
            fail(f"game {row[0]} (w1 killed in it) was not played again by another: {row}")
    if by.get("w2", 0) == 0 or by.get("w3", 0) == 0:
        fail(f"games by worker {by}")
    ent = {f"{e['name']}/v{e['version']}": e for e in st["entrants"]}
    agents = pg.psql("SELECT a.id, a.name FROM arena_agents a JOIN arena_tournaments t ON"
                     " t.id = a.tid WHERE t.name = 'many'").splitlines()
    index = {n: i for i, n in (x.split("|") for x in agents)}
    seated = lambda who: sum(index[who] in row[2].split(",") for row in rows)
    if ent["dead/v1"]["state"] != "disabled" or "failed validation" not in \
            ent["dead/v1"]["reason"] or seated("dead/v1"):
        fail(f"dead/v1: {ent['dead/v1']}, in {seated('dead/v1')} ranked games")
    if ent["crashy/v1"]["state"] != "disabled" or "faults in" not in ent["crashy/v1"]["reason"] \
            or ent["crashy/v1"]["faults"] < 3:
        fail(f"crashy/v1 was not disabled for its faults in the workers' games: "
             f"{ent['crashy/v1']}")
    if ent["a/v1"]["state"] != "retired" or ent["a/v2"]["state"] != "active" or \
            not ent["a/v2"]["games"] or ent["c/v1"]["state"] != "active":
        fail(f"versions: {ent}")
    print(f"ladder with 3 workers: {len(rows)} games, by worker {by}; games {held} replayed "
          f"after w1's kill; crashy: {ent['crashy/v1']['reason']}")


def case_ladder_restart(pg):
    """The database restarts under a ladder: its run (which plays too) and
    its workers reconnect, and every scheduled game is still finished and
    counted once."""
    url = pg.url("rs")
    ws = [worker(url, n, conc=1, lease=2) for n in ["w1", "w2"]]
    r = start(["ladder", "run", url, "--game", "nim", "--set", "stones=12", "--concurrency", "1",
               "--lease", "2", "--games", "40", "--limit-as", "0", "--logs",
               os.path.join(work, "logs-run")], "ladder")
    until(lambda: ladder_cmd("status", url).returncode == 0, 60, "the ladder to be made")
    for name in ["a", "b", "c"]:
        ladder_add(url, name, slow(20))
    until(lambda: ladder_status(url)["games"] >= 6 and
          all(e["state"] == "active" for e in ladder_status(url)["entrants"]), 90,
          "6 ranked games, every version validated")
    pg.stop("fast")  # every connection is cut
    time.sleep(2)
    pg.start()
    wait(r, 180, "the ladder run")
    if r.returncode != 0:
        fail(f"ladder run exited {r.returncode} after the restart")
    rows, st = check_ladder_store(pg, "rs", r.errfile)
    if len(rows) != 40:
        fail(f"{len(rows)} ranked games stored, expected the 40 of --games")
    stop_workers(ws)
    print(f"ladder through a database restart: {len(rows)} games, all counted once")


CASES = {"ladder": case_ladder, "ladder-restart": case_ladder_restart, "ladder-workers": case_ladder_workers, "tc-scale": case_tc_scale, "late-duplicate": case_late_duplicate, "sprt": case_sprt, "workers": case_workers, "kill-worker": case_kill_worker, "restart": case_restart,
         "stalled-db": case_stalled_db, "early-stop": case_early_stop,
         "lost-after-pick": case_lost_after_pick, "libpq-on-demand": case_libpq_on_demand,
         "two-coordinators": case_two_coordinators, "same-as-sqlite": case_same_as_sqlite,
         "timeout-evidence": case_timeout_evidence}

t0 = time.time()
with PgServer() as server:
    try:
        CASES[case](server)
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
                p.wait()
print(f"ok ({time.time() - t0:.1f} s)")
