#!/usr/bin/env python3
"""Hand-out rate of one PostgreSQL server: WORKERS simulated workers (claim
a game under a lease, post its result; no agents) drain a tournament of
GAMES games. Starts its own server like the tests (tests/pg/pgserver.py).
  bench/distributed/run.py BUILD_DIR [WORKERS...] [--games N]"""
import os
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "..", "tests", "pg"))
from pgserver import PgServer  # noqa: E402

args = sys.argv[1:]
games = 20000
if "--games" in args:
    i = args.index("--games")
    games = int(args[i + 1])
    del args[i:i + 2]
build = args[0] if args else "build"
workers = [int(a) for a in args[1:]] or [1, 10, 100]
exe = os.path.join(build, "bench", "distributed", "bench-distributed")
with PgServer() as pg:
    for w in workers:
        r = subprocess.run([exe, pg.url(f"bench{w}"), str(w), str(games)], capture_output=True,
                           text=True, timeout=900)
        sys.stdout.write(r.stdout)
        if r.returncode != 0:
            sys.stderr.write(r.stderr[-2000:])
            sys.exit(1)
