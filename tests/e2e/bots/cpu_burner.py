#!/usr/bin/python3
"""Joins and answers correctly, but burns CPU (mode "burn") or sleeps
(mode "sleep") for a given number of ms before every answer: the clock tests'
agent. Usage: cpu_burner.py MODE MS"""
import json
import sys
import time

mode, ms = sys.argv[1], int(sys.argv[2])


def send(msg):
    sys.stdout.write(json.dumps(msg) + "\n")
    sys.stdout.flush()


send({"type": "join", "name": "cpu-" + mode})
for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "hello":
        send({"type": "ready"})
    elif msg["type"] == "decide":
        end = time.monotonic() + ms / 1000.0
        if mode == "burn":
            x = 0
            while time.monotonic() < end:
                x += 1
        else:
            time.sleep(ms / 1000.0)
        send({"type": "act", "id": msg["id"], "choice": [0]})
    elif msg["type"] == "bye":
        break
