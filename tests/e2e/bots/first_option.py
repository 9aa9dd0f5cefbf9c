#!/usr/bin/python3
"""A deterministic bot for `arena replay --agent` tests: picks the first
options it may (pick.min of them, at least one), or from decision FROM on
(--last-from FROM) the last ones; --illegal-at K answers decision K with an
option that does not exist, --hang-at K never answers decision K. --msgpack speaks msgpack. --record FILE
appends every message it reads, decoded, as one JSON line."""
import json, struct, sys

args = sys.argv[1:]
use_mp = "--msgpack" in args
last_from = int(args[args.index("--last-from") + 1]) if "--last-from" in args else None
illegal_at = int(args[args.index("--illegal-at") + 1]) if "--illegal-at" in args else None
hang_at = int(args[args.index("--hang-at") + 1]) if "--hang-at" in args else None
record = args[args.index("--record") + 1] if "--record" in args else None
rec = open(record, "a") if record else None
inp, out = sys.stdin.buffer, sys.stdout.buffer
if use_mp:
    import msgpack


def send(m):
    if use_mp:
        b = msgpack.packb(m)
        out.write(struct.pack(">I", len(b)) + b)
    else:
        out.write((json.dumps(m) + "\n").encode())
    out.flush()


def read():
    if use_mp:
        h = inp.read(4)
        if len(h) < 4:
            return None
        return msgpack.unpackb(inp.read(struct.unpack(">I", h)[0]), raw=False)
    line = inp.readline()
    return json.loads(line) if line else None


send({"type": "join", "name": "first-option"})
n = 0
while True:
    m = read()
    if m is None:
        break
    if rec:
        rec.write(json.dumps(m) + "\n")
        rec.flush()
    if m["type"] == "hello":
        send({"type": "ready"})
    elif m["type"] == "decide":
        n += 1
        k = len(m["options"])
        want = max(m["pick"]["min"], 1 if m["pick"]["max"] >= 1 else 0)
        want = min(want, k)
        if last_from is not None and n >= last_from:
            choice = list(range(k - want, k))
        else:
            choice = list(range(want))
        if n == hang_at:
            import time
            time.sleep(3600)
        if n == illegal_at:
            choice = [k + 99]
        sys.stderr.write("decision %d: %r\n" % (n, choice))
        sys.stderr.flush()
        send({"type": "act", "id": m["id"], "choice": choice})
    elif m["type"] == "bye":
        break
