#!/usr/bin/env python3
"""Processes that open one results file at once (a run and `ladder status`,
two reports) while it still lacks the columns added since the first schema:
each adds them only under the write lock, so none fails "duplicate column
name" (before: 72 of 240 opens failed so).
Usage: concurrent_open.py ARENA WORKDIR."""
import os
import shutil
import sqlite3
import subprocess
import sys

arena, work = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
FIRST_SCHEMA = """
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE agents(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, spec TEXT NOT NULL);
CREATE TABLE games(id INTEGER PRIMARY KEY, grp INTEGER NOT NULL, seed INTEGER NOT NULL,
 players INTEGER NOT NULL, seats TEXT NOT NULL, done INTEGER NOT NULL DEFAULT 0, ranks TEXT,
 scores TEXT, reason TEXT, forfeits TEXT, turns INTEGER, time_ms TEXT, wall_ms REAL, log TEXT,
 finished_at TEXT);"""
ROUNDS, AT_ONCE = 40, 6
failed = []
for r in range(ROUNDS):
    db = os.path.join(work, f"old-{r}.sqlite")
    con = sqlite3.connect(db)
    con.executescript(FIRST_SCHEMA)
    con.execute("PRAGMA journal_mode=WAL")
    con.commit()
    con.close()
    ps = [subprocess.Popen([arena, "report", db], stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, text=True) for _ in range(AT_ONCE)]
    for p in ps:
        err = p.communicate(timeout=60)[1]
        if "duplicate column" in err or "locked" in err:
            failed.append(err.strip())
    cols = [c[1] for c in sqlite3.connect(db).execute("PRAGMA table_info(games)")]
    if "timeout_clocks" not in cols:
        failed.append(f"round {r}: the columns were not added: {cols}")
if failed:
    print(f"FAIL: {len(failed)} of {ROUNDS * AT_ONCE} opens failed; first: {failed[0]}")
    sys.exit(1)
print(f"ok: {ROUNDS * AT_ONCE} opens, {AT_ONCE} at once, none failed")
