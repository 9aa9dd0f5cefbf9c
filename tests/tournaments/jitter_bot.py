#!/usr/bin/python3
"""A JSON bot that picks at random and takes 0-30 ms a move, at random: its
games finish in no set order."""
import json
import random
import sys
import time

rng = random.Random()


def send(msg):
    sys.stdout.write(json.dumps(msg) + "\n")
    sys.stdout.flush()


send({"type": "join", "name": "jitter"})
for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "hello":
        send({"type": "ready"})
    elif msg["type"] == "decide":
        time.sleep(rng.uniform(0, 0.03))
        k = rng.randint(msg["pick"]["min"], msg["pick"]["max"])
        send({"type": "act", "id": msg["id"], "choice": rng.sample(range(len(msg["options"])), k)})
    elif msg["type"] == "bye":
        break
