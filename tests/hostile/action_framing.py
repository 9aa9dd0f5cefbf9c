#!/usr/bin/python3
"""Turn framing: under --events, where the opponent's turn is cut into
`event` messages must not tell whether it holds an Action card.

Dominion asks a player first whether to play an Action only when its hand
holds one; otherwise its Treasures are played at once. An old referee
flushed the events of a new turn at that turn's first decision, so the
other seat's `event` message stopped before the Treasures exactly when the
player held an Action (held, not played: nothing public showed it). The
events must be flushed where the game's turn counter moves, which no
hidden card decides (protocol.md, `event`).

The attack: a holder agent buys Villages and never plays one; the spy
agent, on the wire with --events, guesses from each `event` message whether
the holder's new turn began with an Action decision, and writes its guesses
down. The case passes when the guesses tell nothing (the spy is not right
on both kinds of turn) and when every `event` message the spy gets ends
with a whole turn (no `turn` event without that turn's `cleanup`).

usage: action_framing.py ARENA
       action_framing.py holder | spy GUESSES   (the agents)
"""
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import matchlog  # noqa: E402  (tests/matchlog.py: gzip or plain logs)

KINGDOM = "Village,Festival,Market,Laboratory,Cellar,Chapel,Workshop,Woodcutter,Smithy,Moat"
GAMES = 3


def labels(msg):
    return [o["label"] if isinstance(o, dict) else o for o in msg["options"]]


def holder_choice(msg):
    """Buys Villages and never plays an Action: holding one is its only sign."""
    ls = labels(msg)
    if msg["kind"] != "buy":
        for want in ("end-actions", "end-turn", "pass"):
            if want in ls:
                return [ls.index(want)]
        return list(range(msg["pick"]["min"])) or [0]
    coins = int(msg["prompt"].rsplit("coins ", 1)[1].rstrip(")"))
    order = ["buy:Province", "buy:Gold"] if coins >= 6 else \
        ["buy:Village"] if coins in (3, 4) else ["buy:Silver"]
    for want in order + ["end-turn"]:
        if want in ls:
            return [ls.index(want)]
    return [0]


def agent(mode, guesses):
    out = open(guesses, "w") if guesses else None
    me = None

    def send(m):
        sys.stdout.write(json.dumps(m) + "\n")
        sys.stdout.flush()

    send({"type": "join", "name": mode})
    for raw in sys.stdin:
        msg = json.loads(raw)
        t = msg.get("type")
        if t == "hello":
            me = msg["seat"]
            send({"type": "ready"})
        elif t == "decide":
            if mode == "holder":
                choice = holder_choice(msg)
            else:
                ls = labels(msg)
                choice = [ls.index("end-actions")] if "end-actions" in ls else \
                    list(range(msg["pick"]["min"])) or [0]
            send({"type": "act", "id": msg["id"], "choice": choice})
        elif t == "event" and out:
            evs = msg["events"]
            for i, e in enumerate(evs):
                if e.get("type") == "turn" and e.get("seat") != me:
                    # Nothing of the turn after its start: the player was
                    # asked something before its Treasures were played.
                    rest = [x for x in evs[i + 1:] if x.get("seat") == e["seat"]]
                    out.write(json.dumps({"turn": e["turn"], "action": not rest}) + "\n")
                    out.flush()
        elif t == "bye":
            return


def truth(recs, seat):
    """Per turn of seat, in order: was its first decision an Action one?"""
    firsts = {}
    for r in recs:
        if r["type"] == "choice" and r["seat"] == seat and r["turn"] not in firsts:
            firsts[r["turn"]] = r["kind"] == "action"
    return [firsts[k] for k in sorted(firsts)]


def main():
    arena = os.path.abspath(sys.argv[1])
    me = os.path.abspath(__file__)
    tmp = tempfile.mkdtemp(prefix="arena-actframing-")
    try:
        right = {True: [0, 0], False: [0, 0]}  # held -> [guessed right, turns]
        whole = True
        for g in range(GAMES):
            gfile = f"{tmp}/guess{g}.jsonl"
            log = f"{tmp}/log{g}.jsonl.gz"
            cmd = [arena, "play", "dominion", f"cmd:/usr/bin/python3 {me} holder",
                   f"cmd:/usr/bin/python3 {me} spy {gfile}", "--events", "--set",
                   f"kingdom={KINGDOM}", "--set", "max_turns=25", "--seed", str(31 + g),
                   "--log", log, "--move-ms", "20000", "--startup-ms", "30000"]
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=300, cwd=tmp)
            if p.returncode != 0:
                print(f"$ {' '.join(cmd)}\nexit {p.returncode}\n{p.stderr[-2000:]}")
                print("FAIL: arena failed")
                return 1
            recs = matchlog.records(log)
            held = truth(recs, 0)
            with open(gfile) as f:
                guess = [json.loads(x) for x in f]
            # The spy guesses when the holder's turn starts; the last turn's
            # start may come with the game's end.
            for h, gs in zip(held, guess):
                right[h][1] += 1
                right[h][0] += gs["action"] == h
            for r in recs:
                if r["type"] == "msg" and r["seat"] == 1 and r["dir"] == "out" and \
                        r["msg"]["type"] == "event":
                    open_turns = set()
                    for e in r["msg"]["events"]:
                        if e.get("type") == "turn":
                            open_turns.add(e["seat"])
                        elif e.get("type") == "cleanup":
                            open_turns.discard(e["seat"])
                    if open_turns:
                        whole = False
        print(f"turns holding an Action: spy right on {right[True][0]} of {right[True][1]}; "
              f"turns without: right on {right[False][0]} of {right[False][1]}")
        if right[True][1] < 10 or right[False][1] < 10:
            print("FAIL: too few turns of each kind to judge")
            return 1
        leak = right[True][0] >= 0.9 * right[True][1] and right[False][0] >= 0.9 * right[False][1]
        if leak:
            print("FAIL: the event framing tells the spy when the holder holds an Action")
        if not whole:
            print("FAIL: an event message ends inside a turn")
        if leak or not whole:
            return 1
        print("OK: the framing tells nothing")
        return 0
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    if len(sys.argv) >= 2 and sys.argv[1] in ("holder", "spy"):
        agent(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else None)
    else:
        sys.exit(main())
