#!/usr/bin/env python3
"""The tournament commands reached through the real `arena` executable:
help, `arena elo`, and a tiny tournament with its JSON report.

usage: e2e_arena.py ARENA WORKDIR"""
import json
import os
import shutil
import subprocess
import sys

arena, work = sys.argv[1], sys.argv[2]
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)


def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)


for cmd in ("tournament", "report", "sprt", "elo"):
    r = subprocess.run([arena, cmd, "--help"], capture_output=True, text=True, timeout=30)
    if r.returncode != 0 or ("usage: arena " + cmd) not in r.stdout:
        fail("arena %s --help: exit %d, %r" % (cmd, r.returncode, (r.stdout + r.stderr)[:200]))
res = os.path.join(work, "res.txt")
with open(res, "w") as f:
    f.write("A B\nA B\nB A\nA = B\n")
r = subprocess.run([arena, "elo", res, "--format", "json"], capture_output=True, text=True)
if r.returncode != 0:
    fail("arena elo: %d %s" % (r.returncode, r.stderr))
j = json.loads(r.stdout)
if [x["agent"] for x in j["ratings"]] != ["A", "B"] or j["ratings"][0]["games"] != 4:
    fail("arena elo output %r" % j)
db = os.path.join(work, "t.sqlite")
r = subprocess.run([arena, "tournament", "--game", "nim", "--agent", "a=builtin:random",
                    "--agent", "b=builtin:random", "--games-per-pairing", "4", "--db", db,
                    "--quiet"], capture_output=True, text=True, timeout=60)
if r.returncode != 0:
    fail("arena tournament: %d %s" % (r.returncode, r.stderr))
r = subprocess.run([arena, "report", db, "--format", "json"], capture_output=True, text=True)
if r.returncode != 0 or json.loads(r.stdout)["games"] != 4:
    fail("arena report: %d %s" % (r.returncode, r.stderr))
print("ok")
