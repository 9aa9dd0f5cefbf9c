#!/usr/bin/python3
"""Runs a test program against a throw-away PostgreSQL server
(pgserver.py): ARENA_TEST_PG_URL names tournament NAME on it.

usage: with_pg.py NAME PROGRAM [ARG...]"""
import os
import subprocess
import sys

from pgserver import PgServer

with PgServer() as pg:
    env = dict(os.environ, ARENA_TEST_PG_URL=pg.url(sys.argv[1]))
    rc = subprocess.run(sys.argv[2:], env=env).returncode
sys.exit(rc)
