#!/usr/bin/python3
"""Connects to `arena serve`, joins with a token, and plays as a random JSON
bot. Prints "refused: MESSAGE" and exits 3 if the referee answers the join
with an error. Usage: tcp_client.py PORT TOKEN [NAME]"""
import json
import random
import socket
import sys
import time

port, token = int(sys.argv[1]), sys.argv[2]
name = sys.argv[3] if len(sys.argv) > 3 else "tcp-client"
for attempt in range(100):  # the server may still be starting
    try:
        sock = socket.create_connection(("127.0.0.1", port))
        break
    except OSError:
        time.sleep(0.05)
f = sock.makefile("rwb")
rng = random.Random(token)


def send(msg):
    f.write((json.dumps(msg) + "\n").encode())
    f.flush()


send({"type": "join", "name": name, "token": token})
games = 0
for line in f:
    msg = json.loads(line)
    t = msg["type"]
    if t == "error" and msg.get("id", 0) == 0 and games == 0:
        print("refused: " + msg["message"], flush=True)
        sys.exit(3)
    if t == "hello":
        send({"type": "ready"})
    elif t == "decide":
        k = rng.randint(msg["pick"]["min"], msg["pick"]["max"])
        send({"type": "act", "id": msg["id"], "choice": rng.sample(range(len(msg["options"])), k)})
    elif t == "over":
        games += 1
    elif t == "bye":
        print(f"played {games}", flush=True)
        sys.exit(0)
print("connection closed", flush=True)
sys.exit(4)
