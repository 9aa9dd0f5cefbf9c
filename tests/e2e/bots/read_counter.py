#!/usr/bin/python3
"""A random JSON-lines bot that records what each of its reads brought.

Every read from the referee is a wake-up of the bot, and a wake-up is what a
bot pays most for at scale. The referee promises that a game's `over` and
the next game's `hello` leave in one write, so that a bot serving game
after game is woken once between them. This bot reads with one large
`os.read` at a time and appends one line per read to the file given as its
first argument: the message types that read held, space-separated."""
import json
import os
import random
import sys


def send(msg):
    os.write(1, (json.dumps(msg) + "\n").encode())


def main():
    report = open(sys.argv[1], "w", buffering=1)
    rng = random.Random(7)
    send({"type": "join", "name": "read-counter", "version": "1"})
    pending = b""
    while True:
        chunk = os.read(0, 1 << 16)
        if not chunk:
            return
        pending += chunk
        *lines, pending = pending.split(b"\n")
        msgs = [json.loads(line) for line in lines if line.strip()]
        report.write(" ".join(m["type"] for m in msgs) + "\n")
        for msg in msgs:
            kind = msg["type"]
            if kind == "hello":
                send({"type": "ready"})
            elif kind == "decide":
                pick = msg["pick"]
                k = rng.randint(pick["min"], pick["max"])
                send({"type": "act", "id": msg["id"],
                      "choice": rng.sample(range(len(msg["options"])), k)})
            elif kind == "bye":
                return


if __name__ == "__main__":
    main()
