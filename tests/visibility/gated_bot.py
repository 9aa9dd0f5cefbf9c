#!/usr/bin/python3
"""The agent of the spectator twin test (spectator_twins.py): it chooses as
recorder.py does (from what it received, so twins that send it the same
bytes get the same moves), but holds its `ready` until the file GATE
exists, so that no move is made before the test watches the game, and
answers each decide PACE_MS late, so that no two turns come closer than the
live front's ten boards a second (each board then holds one turn, in both
twins alike). usage: gated_bot.py GATE PACE_MS NAME"""
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from recorder import learn_cards, pick  # noqa: E402

gate, pace, name = sys.argv[1], int(sys.argv[2]) / 1000.0, sys.argv[3]
rd, wr = sys.stdin.buffer, sys.stdout.buffer


def send(m):
    wr.write(json.dumps(m).encode() + b"\n")
    wr.flush()


send({"type": "join", "name": name})
cats = {}
for raw in rd:
    msg = json.loads(raw)
    t = msg.get("type")
    if t == "hello":
        learn_cards(msg, cats)
        while not os.path.exists(gate):
            time.sleep(0.02)
        send({"type": "ready"})
    elif t == "decide":
        time.sleep(pace)
        send({"type": "act", "id": msg["id"], "choice": pick(msg, cats, name)})
    elif t == "bye":
        break
