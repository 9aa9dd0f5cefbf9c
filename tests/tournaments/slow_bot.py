#!/usr/bin/python3
"""A JSON bot that takes 20 ms a move: keeps a tournament busy for a while."""
import json
import sys
import time


def send(msg):
    sys.stdout.write(json.dumps(msg) + "\n")
    sys.stdout.flush()


send({"type": "join", "name": "slow"})
for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "hello":
        send({"type": "ready"})
    elif msg["type"] == "decide":
        time.sleep(0.02)
        send({"type": "act", "id": msg["id"], "choice": [0]})
    elif msg["type"] == "bye":
        break
