#!/usr/bin/python3
"""An agent server for `tcp:HOST:PORT` agents: listens on an ephemeral
loopback port, prints the port on stdout, then plays as a JSON random bot
on each connection the referee opens (one at a time), until killed."""
import json
import random
import socket
import sys

rng = random.Random(4)
srv = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
srv.bind(("127.0.0.1", 0))
srv.listen(4)
print(srv.getsockname()[1], flush=True)
while True:
    conn, _ = srv.accept()
    f = conn.makefile("rwb")

    def send(msg):
        f.write((json.dumps(msg) + "\n").encode())
        f.flush()

    send({"type": "join", "name": "tcp-random"})
    for line in f:
        msg = json.loads(line)
        if msg["type"] == "hello":
            send({"type": "ready"})
        elif msg["type"] == "decide":
            k = rng.randint(msg["pick"]["min"], msg["pick"]["max"])
            send({"type": "act", "id": msg["id"],
                  "choice": rng.sample(range(len(msg["options"])), k)})
        elif msg["type"] == "bye":
            break
    conn.close()
