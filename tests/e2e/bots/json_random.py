#!/usr/bin/python3
"""A random bot that speaks JSON lines with the standard library only.

Used by the end-to-end tests to prove a bot in another language and codec
plays full games through the real referee."""
import json
import random
import sys


def send(msg):
    sys.stdout.write(json.dumps(msg) + "\n")
    sys.stdout.flush()


def main():
    rng = random.Random(int(sys.argv[1]) if len(sys.argv) > 1 else 0)
    send({"type": "join", "name": "json-random", "version": "1"})
    for line in sys.stdin:
        msg = json.loads(line)
        kind = msg.get("type")
        if kind == "hello":
            send({"type": "ready"})
        elif kind == "decide":
            pick = msg["pick"]
            k = rng.randint(pick["min"], pick["max"])
            choice = rng.sample(range(len(msg["options"])), k)
            send({"type": "act", "id": msg["id"], "choice": choice})
        elif kind == "bye":
            return


if __name__ == "__main__":
    main()
