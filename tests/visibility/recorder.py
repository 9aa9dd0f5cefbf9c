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
A NAME starting with "keeper" plays Pacifica from what the other seat sees
too (its hand cards by category, a searched stack's cards by count), and
never plays the first card of its hand (the one it drew first) or searches
that card's stack while it can do anything else: which cards of a category
it holds changes its options' labels, never what it does (twins.py,
Pacifica twins).
"""
import json
import socket
import sys
import time
import zlib


def choose_keeper(msg, cats, name):
    """Chooses from what the other seat sees too: a hand card counts by its
    category (its back), a stack's cards by their count; the first card of
    the hand is played only when nothing else is left, and its stack is
    searched only when no other is left. Its name is part of the hash, so
    that twins of a pair (same names) play alike while pairs vary."""
    labels = [o.get("label") if isinstance(o, dict) else o for o in msg["options"]]
    hand = msg["view"].get("hand") or []
    avoid = {i for i, x in enumerate(labels) if x.startswith("play:")}
    avoid = set(sorted(avoid)[:1])  # play options follow the hand's order
    if msg["kind"] == "search-stack" and hand:
        avoid |= {i for i, x in enumerate(labels) if x == "search:" + cats.get(hand[0], "")}
    allowed = [i for i in range(len(labels)) if i not in avoid] or list(range(len(labels)))

    def mask(label):
        what, _, arg = label.partition(":")
        return {"play": "play:" + cats.get(arg, ""), "take": "take"}.get(what, label)

    key = [name, msg["kind"], msg["prompt"], [mask(x) for x in labels], msg["pick"]]
    h = zlib.crc32(json.dumps(key, sort_keys=True).encode())
    pick = msg["pick"]
    k = min(pick["min"] + h % (pick["max"] - pick["min"] + 1), len(allowed))
    return [allowed[(h + i) % len(allowed)] for i in range(k)]


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


def learn_cards(msg, cats):
    """A hello's card list (Pacifica): each card's category, by id."""
    for line in (msg.get("options") or {}).get("card_list") or []:
        f = line.split()
        cats[f[0]] = f[1]


def pick(msg, cats, name):
    """The choice for a decide, by the bot's name: keeper… or passive…."""
    if name.startswith("keeper"):
        return choose_keeper(msg, cats, name)
    return choose(msg, name.startswith("passive"))


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
    cats = {}  # Pacifica card id -> category, from hello.options.card_list
    for raw in rd:
        out.write(raw)
        msg = json.loads(raw)
        t = msg.get("type")
        if t == "hello":
            learn_cards(msg, cats)
            send({"type": "ready"})
        elif t == "decide":
            send({"type": "act", "id": msg["id"], "choice": pick(msg, cats, name)})
        elif t == "bye":
            return


if __name__ == "__main__":
    main()
