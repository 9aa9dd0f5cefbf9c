#!/usr/bin/python3
"""Recording agent for the transcript twin test (twins.py).

Speaks JSON lines, tees every byte the referee sends it to OUT, and decides
only from what it received: the choice is a hash of the decision's kind,
prompt, options and pick, so two referees that send the same bytes get the same
answers. Usage:

    recorder.py OUT NAME                  spawned (stdin/stdout)
    recorder.py OUT NAME PORT TOKEN       arena serve (connects to 127.0.0.1)

A NAME starting with "passive" never plays an Action in Dominion (it ends
its Action phase whenever asked), so a hidden Action in its hand changes
which decisions it is asked, never what it does (twins.py, village twins).
"""
import json
import socket
import sys
import time
import zlib


def choose(msg, passive=False):
    # From the decision itself, not the view: in nim the prompt and options
    # are public, so the secret a seat holds never sways its play and twins
    # that differ only in secrets play the same game.
    key = [msg[k] for k in ("kind", "prompt", "options", "pick")]
    labels = [o.get("label") if isinstance(o, dict) else o for o in msg["options"]]
    if passive and msg["kind"] == "action" and "end-actions" in labels:
        return [labels.index("end-actions")]
    h = zlib.crc32(json.dumps(key, sort_keys=True).encode())
    pick, n = msg["pick"], len(msg["options"])
    k = pick["min"] + h % (pick["max"] - pick["min"] + 1)
    return [(h + i) % n for i in range(k)]


def main():
    out = open(sys.argv[1], "ab", buffering=0)
    name = sys.argv[2]
    join = {"type": "join", "name": name}
    if len(sys.argv) > 3:
        for _ in range(600):  # the referee may not be listening yet
            try:
                sock = socket.create_connection(("127.0.0.1", int(sys.argv[3])), timeout=60)
                break
            except ConnectionRefusedError:
                time.sleep(0.1)
        else:
            sys.exit("recorder: cannot connect")
        rd, wr = sock.makefile("rb"), sock.makefile("wb")
        join["token"] = sys.argv[4]
    else:
        rd, wr = sys.stdin.buffer, sys.stdout.buffer

    def send(m):
        wr.write(json.dumps(m).encode() + b"\n")
        wr.flush()

    send(join)
    for raw in rd:
        out.write(raw)
        msg = json.loads(raw)
        t = msg.get("type")
        if t == "hello":
            send({"type": "ready"})
        elif t == "decide":
            send({"type": "act", "id": msg["id"], "choice": choose(msg, name.startswith("passive"))})
        elif t == "bye":
            return


if __name__ == "__main__":
    main()
