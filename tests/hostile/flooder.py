#!/usr/bin/python3
"""flooder: a correct nim bot that keeps the referee busy decoding its
`log` messages, for the fair-verdict tests (verdicts.py). Each `log` is
built to cost the referee as much as one message may: a list of as many
empty maps as an agent's message may hold (PROTO_MAX_VALUES_IN, 1,024
values in all).

  self MS    on each decide, floods for MS ms, then answers: the referee
             spends the bot's thinking time decoding, and an old referee
             took that time off the bot's clock as its own "lag". These
             `log`s are of the other costly kind: nearly 1 MiB of text,
             checked as UTF-8 in one go (about 1 ms here, a stall of the
             loop under a sanitizer)
  always     floods from its join to its `bye`, from a second thread, and
             answers every decide at once: a partner stalling the loop for
             another bot (the opponent here) that thinks
  stderr     as always, but floods its stderr with empty lines, which the
             referee splits and counts (it never parses stderr)

Answers take the first pick.min options. Speaks msgpack.
"""
import os
import struct
import sys
import threading
import time

import msgpack

MODE = sys.argv[1]
THINK = float(sys.argv[2]) / 1000 if MODE == "self" else 0.0
EMPTY_MAPS = 1017  # + the map, its 3 keys and values, the list: 1,024 values
BATCH = 16  # frames a write: the pipe stays full, the referee never waits

out = sys.stdout.buffer
lock = threading.Lock()  # whole frames only, from either thread


def frame(msg):
    body = msgpack.packb(msg)
    return struct.pack(">I", len(body)) + body


HEAVY = frame({"type": "log", "text": "x", "pad": [{}] * EMPTY_MAPS}) * BATCH
BIG = frame({"type": "log", "text": "\u00e9" * ((1 << 19) - 64)})  # 1 MiB less a little


def send(data):
    with lock:
        out.write(data)
        out.flush()


def read():
    head = sys.stdin.buffer.read(4)
    if len(head) < 4:
        return None
    (n,) = struct.unpack(">I", head)
    return msgpack.unpackb(sys.stdin.buffer.read(n), raw=False, strict_map_key=False)


def flood_forever():
    # At the lowest priority: what is tested is what the flood's bytes cost
    # the referee's loop. A thread that spins beside the referee can also
    # have it descheduled, now and then long enough to credit a stall to
    # the bot that thinks; that is a starver's doing, which cpu groups,
    # --clock cpu and --freeze-idle answer (e2e cpu_starver_is_withstood).
    os.nice(19)  # this thread only, on Linux
    try:
        if MODE == "stderr":
            lines = b"\n" * 65536
            while True:
                sys.stderr.buffer.write(lines)
                sys.stderr.buffer.flush()
        while True:
            send(HEAVY)
    except (BrokenPipeError, ValueError):
        pass  # the referee closed our output: the game is over


def main():
    send(frame({"type": "join", "name": f"flooder-{MODE}"}))
    if MODE in ("always", "stderr"):
        threading.Thread(target=flood_forever, daemon=True).start()
    while True:
        m = read()
        if m is None or m["type"] == "bye":
            return 0
        if m["type"] == "hello":
            send(frame({"type": "ready"}))
        elif m["type"] == "decide":
            end = time.monotonic() + THINK
            while time.monotonic() < end:
                send(BIG)
            # The referee is still decoding the last one: the answer comes
            # during that stall and is read when it ends.
            time.sleep(0.002)
            n = max(m["pick"]["min"], 1)
            send(frame({"type": "act", "id": m["id"], "choice": list(range(n))}))


if __name__ == "__main__":
    sys.exit(main())
