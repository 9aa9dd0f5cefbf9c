#!/usr/bin/python3
"""A JSON-lines bot that misbehaves in one chosen way, for the verdict tests
of `arena play` and `arena check-bot`.

  verdict_bot.py debug_stdout  writes stderr lines, then a debug print on stdout
  verdict_bot.py raise         writes stderr lines, then dies of an exception
  verdict_bot.py segv          dies of SIGSEGV at the first decision
  verdict_bot.py slow          answers the first decisions late (0.5 s)
  verdict_bot.py clocky        plays legally, choices from the time and os.urandom
  verdict_bot.py steady        plays legally, always the first legal choice
  verdict_bot.py sleepy        as steady, 0.1 s a decision
  verdict_bot.py logs          plays legally and sends a `log` line per decision"""
import json
import os
import signal
import sys
import time

mode = sys.argv[1]


def send(msg):
    sys.stdout.write(json.dumps(msg) + "\n")
    sys.stdout.flush()


def choose(msg):
    pick = msg["pick"]
    n = len(msg["options"])
    k = max(pick["min"], 1 if n else 0)
    if mode == "clocky":
        start = (time.time_ns() // 1000 + os.urandom(1)[0]) % n
        return [(start + i) % n for i in range(k)]
    return list(range(k))


def main():
    send({"type": "join", "name": "verdict-" + mode})
    decisions = 0
    for line in sys.stdin:
        msg = json.loads(line)
        kind = msg.get("type")
        if kind == "hello":
            if mode in ("debug_stdout", "raise"):
                for i in range(1, 31):
                    sys.stderr.write("warming up step %d\n" % i)
                sys.stderr.flush()
            if mode == "debug_stdout":
                sys.stdout.write("DEBUG: got hello for seat %d\n" % msg["seat"])
                sys.stdout.flush()
            send({"type": "ready"})
        elif kind == "decide":
            decisions += 1
            if mode == "raise":
                raise ValueError("no move for %d stones" % decisions)
            if mode == "segv":
                os.kill(os.getpid(), signal.SIGSEGV)
            if mode == "slow" and decisions <= 2:
                time.sleep(0.5)
            if mode == "sleepy":
                time.sleep(0.1)
            if mode == "logs":
                send({"type": "log", "text": "decide failed: KeyError: 'stones' (%d)" % decisions})
            send({"type": "act", "id": msg["id"], "choice": choose(msg)})
        elif kind == "bye":
            return


if __name__ == "__main__":
    main()
