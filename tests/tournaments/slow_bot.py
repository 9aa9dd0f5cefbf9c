#!/usr/bin/python3
"""A JSON bot that takes 20 ms a move (or argv[1] ms) and picks the first
option: keeps a tournament busy for a while. With argv[1] = "jitter" it
picks at random and takes 0-30 ms a move, at random: its games finish in no
set order."""
import json
import random
import sys
import time

JITTER = len(sys.argv) > 1 and sys.argv[1] == "jitter"
DELAY = float(sys.argv[1]) / 1000 if len(sys.argv) > 1 and not JITTER else 0.02
rng = random.Random()


def send(msg):
    sys.stdout.write(json.dumps(msg) + "\n")
    sys.stdout.flush()


send({"type": "join", "name": "slow"})
for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "hello":
        send({"type": "ready"})
    elif msg["type"] == "decide":
        if JITTER:
            time.sleep(rng.uniform(0, 0.03))
            k = rng.randint(msg["pick"]["min"], msg["pick"]["max"])
            choice = rng.sample(range(len(msg["options"])), k)
        else:
            time.sleep(DELAY)
            choice = [0]
        send({"type": "act", "id": msg["id"], "choice": choice})
    elif msg["type"] == "bye":
        break
