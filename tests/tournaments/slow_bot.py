#!/usr/bin/python3
"""A JSON bot that takes 20 ms a move (or argv[1] ms): keeps a tournament busy
for a while."""
import json
import sys
import time

DELAY = float(sys.argv[1]) / 1000 if len(sys.argv) > 1 else 0.02


def send(msg):
    sys.stdout.write(json.dumps(msg) + "\n")
    sys.stdout.flush()


send({"type": "join", "name": "slow"})
for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "hello":
        send({"type": "ready"})
    elif msg["type"] == "decide":
        time.sleep(DELAY)
        send({"type": "act", "id": msg["id"], "choice": [0]})
    elif msg["type"] == "bye":
        break
