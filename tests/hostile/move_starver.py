#!/usr/bin/python3
"""A bot that starves other matches of CPU: on each of its own moves it
spins N helper processes (8 by default) for the move's time, each in a
session of its own (setsid), then answers at once and stops them. It never
times out itself (it answers in 60 ms), but while it thinks the host has N
more runnable processes: an innocent bot in another match, or the same one,
waits for a CPU. Issue 34: 75-246 innocent timeouts in about 590 moves.

usage: move_starver.py [N] [MS]"""
import json
import os
import signal
import sys
import time

n = int(sys.argv[1]) if len(sys.argv) > 1 else 8
ms = float(sys.argv[2]) if len(sys.argv) > 2 else 60


def send(msg):
    sys.stdout.write(json.dumps(msg) + "\n")
    sys.stdout.flush()


def spin():
    os.setsid()
    while True:
        pass


send({"type": "join", "name": "move-starver"})
for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "hello":
        send({"type": "ready"})
    elif msg["type"] == "decide":
        kids = []
        for _ in range(n):
            pid = os.fork()
            if pid == 0:
                try:
                    spin()
                finally:
                    os._exit(0)
            kids.append(pid)
        time.sleep(ms / 1000)
        for pid in kids:
            os.kill(pid, signal.SIGKILL)
        for pid in kids:
            os.waitpid(pid, 0)
        send({"type": "act", "id": msg["id"], "choice": [0]})
    elif msg["type"] == "bye":
        break
