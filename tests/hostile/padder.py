#!/usr/bin/python3
"""padder: a legal bot for any game that pads every message it sends with
about 1 MB of incompressible text in a key the protocol does not know.
Unknown keys are allowed, so every answer is correct: the game goes on as
with any random bot. A referee that logs each message as it came wrote an
80 MB log for one Dominion game and spent tens of milliseconds of its shared
loop compressing each answer (tests/hostile/padding.py).

  pad      every message carries the pad
  logtext  no pad; before each answer a `log` whose text is 64 KiB of the
           same kind, and a short one

usage: padder.py MODE [SEED]  (msgpack; picks at random, seeded)
"""
import base64
import os
import random
import struct
import sys

import msgpack

FRAME_CAP = 1 << 20  # the referee's default --max-frame
# base64 of random bytes: text that deflate cannot shrink below 3/4, and
# whose repeats lie far beyond its 32 KiB window.
PAD = base64.b64encode(os.urandom((FRAME_CAP - 4096) * 3 // 4)).decode()
MODE = sys.argv[1]
rng = random.Random(int(sys.argv[2]) if len(sys.argv) > 2 else 1)
out = sys.stdout.buffer


def send(msg):
    if MODE == "pad":
        msg["pad"] = PAD
    body = msgpack.packb(msg)
    out.write(struct.pack(">I", len(body)) + body)
    out.flush()


def read():
    head = sys.stdin.buffer.read(4)
    if len(head) < 4:
        return None
    (n,) = struct.unpack(">I", head)
    return msgpack.unpackb(sys.stdin.buffer.read(n), raw=False, strict_map_key=False)


def main():
    send({"type": "join", "name": "padder"})
    while True:
        m = read()
        if m is None or m["type"] == "bye":
            return 0
        if m["type"] == "hello":
            send({"type": "ready"})
        elif m["type"] == "decide":
            if MODE == "logtext":
                send({"type": "log", "text": PAD[:64 << 10]})
                send({"type": "log", "text": f"deciding {m['id']}"})
            pick = m["pick"]
            k = rng.randint(pick["min"], min(pick["max"], len(m["options"])))
            send({"type": "act", "id": m["id"],
                  "choice": rng.sample(range(len(m["options"])), k)})


if __name__ == "__main__":
    sys.exit(main())
