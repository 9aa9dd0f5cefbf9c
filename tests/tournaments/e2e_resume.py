#!/usr/bin/env python3
"""SIGKILL a running tournament at random instants, again and again, resume
it each time, and check that no finished game is lost, none is counted twice
and the run ends with exactly the scheduled games -- identical, game for game,
to the schedule of an uninterrupted reference run.

usage: e2e_resume.py TCLI RANDOM_C_AGENT WORKDIR"""
import json
import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import time

tcli, bot, work = sys.argv[1], sys.argv[2], sys.argv[3]
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)

AGENTS = ["--agent", "a=builtin:random", "--agent", "b=" + bot,
          "--agent", "c=builtin:random", "--agent", "d=" + bot]
SETTINGS = ["--game", "nim", *AGENTS, "--games-per-pairing", "30", "--seed", "77",
            "--set", "stones=300", "--concurrency", "2", "--quiet",
            "--limit-as", "0"]  # sanitizer builds of the bot need a large address space
EXPECTED = 6 * 30  # C(4,2) pairings x games per pairing


def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)


def rows(db):
    con = sqlite3.connect(db)
    try:
        return con.execute("SELECT id, grp, seed, players, seats, done, log FROM games "
                           "ORDER BY id").fetchall()
    finally:
        con.close()


def has_tournament(db):
    if not os.path.exists(db):
        return False
    con = sqlite3.connect(db)
    try:
        return con.execute("SELECT count(*) FROM sqlite_master WHERE name='meta'").fetchone()[0] \
            and con.execute("SELECT count(*) FROM meta WHERE key='kind'").fetchone()[0] > 0
    finally:
        con.close()


# Reference: one uninterrupted run.
ref_db = os.path.join(work, "ref.sqlite")
t0 = time.time()
r = subprocess.run([tcli, "tournament", *SETTINGS, "--db", ref_db, "--logs", "none"],
                   stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, timeout=300)
ref_seconds = time.time() - t0
if r.returncode != 0:
    fail("reference run exited %d: %s" % (r.returncode, r.stderr))
ref = rows(ref_db)
if len(ref) != EXPECTED or any(row[5] != 1 for row in ref):
    fail("reference run has %d rows" % len(ref))

db = os.path.join(work, "killed.sqlite")
rng = random.Random(20261121)
kills, runs, last_done = 0, 0, 0
start = time.time()
while True:
    runs += 1
    if has_tournament(db):
        cmd = [tcli, "tournament", "--resume", db, "--quiet"]
    else:
        # Killed before the schedule was committed: nothing to resume yet.
        for suffix in ("", "-wal", "-shm"):
            if os.path.exists(db + suffix):
                os.unlink(db + suffix)
        cmd = [tcli, "tournament", *SETTINGS, "--db", db]
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, errors="replace")
    if kills < 12:
        # Kill within the first quarter of a full run's duration, so each
        # run finishes at most about a quarter of the games and most kills
        # land mid-tournament whatever the machine's speed.
        time.sleep(rng.uniform(0.01, max(0.02, ref_seconds / 4)))
        if p.poll() is None:
            p.send_signal(signal.SIGKILL)
            kills += 1
    try:
        _, err = p.communicate(timeout=300)
    except subprocess.TimeoutExpired:
        p.kill()
        fail("a run hung")
    if has_tournament(db):
        now = rows(db)
        done = sum(1 for row in now if row[5] == 1)
        if len(now) != EXPECTED:
            fail("%d games scheduled after a kill, want %d" % (len(now), EXPECTED))
        if done < last_done:
            fail("finished games went from %d down to %d" % (last_done, done))
        last_done = done
    if p.returncode == 0:
        break
    if p.returncode != -signal.SIGKILL:
        fail("run %d exited %d: %s" % (runs, p.returncode, err))
    if time.time() - start > 240:
        fail("no completion after %d runs" % runs)

final = rows(db)
if len(final) != EXPECTED:
    fail("%d games in the end, want %d" % (len(final), EXPECTED))
if any(row[5] != 1 for row in final):
    fail("unfinished games at the end")
# Same schedule game for game (ids, groups, seeds, seats) as the reference.
if [row[:5] for row in final] != [row[:5] for row in ref]:
    fail("schedule differs from the uninterrupted run")
# Every finished game references its match log on disk.
missing = [row[0] for row in final if not row[6] or not os.path.exists(row[6])]
if missing:
    fail("games without a log file: %s" % missing[:5])

rep = subprocess.run([tcli, "report", db, "--format", "json"], capture_output=True, text=True)
if rep.returncode != 0:
    fail("report exited %d: %s" % (rep.returncode, rep.stderr))
j = json.loads(rep.stdout)
if j["games"] != EXPECTED:
    fail("report counts %d games" % j["games"])
if sum(a["games"] for a in j["ratings"]) != 2 * EXPECTED:
    fail("per-agent games do not add up")
if kills < 3:
    fail("only %d kills landed; the test did not test" % kills)
print("ok: %d runs, %d SIGKILLs, %d games, %.1f s" % (runs, kills, EXPECTED, time.time() - start))
