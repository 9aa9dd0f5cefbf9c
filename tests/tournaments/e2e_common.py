"""What the tournament end-to-end scripts share: their arguments (ARENA
WORKDIR CASE), a fresh work directory per case, and running `arena`, where
a crash or a sanitizer report always fails the test."""
import os
import shutil
import sqlite3
import subprocess
import sys

ARENA, CASE = os.path.abspath(sys.argv[1]), sys.argv[3]
HERE = os.path.dirname(os.path.abspath(__file__))
SLOW = f"cmd:/usr/bin/python3 -S {os.path.join(HERE, 'slow_bot.py')}"
WORK = os.path.join(sys.argv[2], CASE)
shutil.rmtree(WORK, ignore_errors=True)
os.makedirs(WORK)


def check(cond, what):
    if not cond:
        raise AssertionError(what)


def no_crash(r, what):
    check(r.returncode >= 0 and r.returncode not in (134, 139),
          f"{what}: crashed (exit {r.returncode}): {r.stderr[-800:]}")
    check("AddressSanitizer" not in r.stderr and "runtime error" not in r.stderr,
          f"{what}: sanitizer report: {r.stderr[-800:]}")


def arena(*args, timeout=120):
    r = subprocess.run([ARENA, *args], capture_output=True, text=True, timeout=timeout)
    no_crash(r, "arena " + " ".join(args))
    return r


def path(name):
    return os.path.join(WORK, name)


def rows(db, sql):
    con = sqlite3.connect(db)
    try:
        return con.execute(sql).fetchall()
    finally:
        con.close()
