#!/usr/bin/python3
"""A JSON-lines bot for the ladder tests. argv[1] is its mode:
  ok       picks the first option of every decision
  slow     as ok, thinking 10 ms a decision (an event's pace of games)
  crashy   plays as ok against copies of itself (so it passes validation,
           where every seat is itself) and exits in any other game
  dead     writes a line to stderr and exits before joining"""
import json
import sys
import time

MODE = sys.argv[1] if len(sys.argv) > 1 else "ok"
NAME = "ladder-" + MODE


def send(msg):
    sys.stdout.write(json.dumps(msg) + "\n")
    sys.stdout.flush()


if MODE == "dead":
    sys.stderr.write("dead bot: refusing to play\n")
    sys.exit(3)
send({"type": "join", "name": NAME})
for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "hello":
        if MODE == "crashy" and len(set(msg["names"])) > 1:
            sys.stderr.write("crashy bot: a stranger at the table\n")
            sys.exit(1)
        send({"type": "ready"})
    elif msg["type"] == "decide":
        if MODE == "slow":
            time.sleep(0.01)
        send({"type": "act", "id": msg["id"], "choice": [0]})
    elif msg["type"] == "bye":
        break
