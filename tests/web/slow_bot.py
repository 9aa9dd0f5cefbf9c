#!/usr/bin/python3
"""A correct, slow bot for the live-board tests: it takes one stone (the
first option) DELAY_MS after each decide arrives, so a game of nim lasts
long enough to be watched move by move. usage: slow_bot.py DELAY_MS"""
import json
import sys
import time

delay = int(sys.argv[1]) / 1000.0 if len(sys.argv) > 1 else 0.1
out = sys.stdout


def send(m):
    out.write(json.dumps(m) + "\n")
    out.flush()


send({"type": "join", "name": "slow"})
for line in sys.stdin:
    m = json.loads(line)
    if m["type"] == "hello":
        send({"type": "ready"})
    elif m["type"] == "decide":
        time.sleep(delay)
        send({"type": "act", "id": m["id"], "choice": [0]})
    elif m["type"] == "bye":
        break
