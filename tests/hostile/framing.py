#!/usr/bin/python3
"""Event framing: under --events, where `event` messages fall must not tell
a seat what it may not see.

Some decisions are asked only because of a hidden card. Dominion's Library
asks whether to set aside each Action it draws, so that decision's
existence says the player drew an Action into a hand nobody else sees. An
old referee sent each seat an `event` message after every decision that
made events the seat may see: the opponent's Library draws came split at
each Action drawn, and a seat that counts messages learned what the
opponent drew (protocol.md, `event`). Turn boundaries are public, so
`event` messages must fall only there: this case plays Dominion games with
--events between a recording agent and the engine bot in a kingdom of
Library and cheap Actions (the engine's Libraries draw Actions in most of
these games), and reads every game's log for an `event` message to the
recorder between two decisions of one turn.

usage: framing.py ARENA
"""
import glob
import os
import shutil
import signal
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import matchlog  # noqa: E402  (tests/matchlog.py: gzip or plain logs)

ARENA = os.path.abspath(sys.argv[1])
RECORDER = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                        "visibility", "recorder.py")
KINGDOM = "Library,Village,Festival,Market,Laboratory,Cellar,Chapel,Workshop,Woodcutter,Smithy"
GAMES = 4


def main():
    tmp = tempfile.mkdtemp(prefix="arena-framing-")
    try:
        cmd = [ARENA, "play", "dominion", f"cmd:/usr/bin/python3 {RECORDER} /dev/null rec",
               "builtin:engine", "--events", "--set", f"kingdom={KINGDOM}", "--set",
               "max_turns=30", "--seed", "11", "--games", str(GAMES), "--log", f"{tmp}/log/",
               "--json"]
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=300, cwd=tmp)
        print(f"$ {' '.join(cmd)}\nexit {p.returncode}\n{p.stderr[-2000:]}")
        if p.returncode != 0:
            print("FAIL: arena failed")
            return 1
        logs = sorted(glob.glob(f"{tmp}/log/*.jsonl*"))
        if len(logs) != GAMES:
            print(f"FAIL: {len(logs)} logs, want {GAMES}")
            return 1
        framed, secret, messages = [], 0, 0
        for path in logs:
            recs = matchlog.records(path)
            rec_seat = next(r for r in recs if r["type"] == "seats")["agents"].index("rec")
            choices = [(i, r) for i, r in enumerate(recs) if r["type"] == "choice"]
            for i, r in enumerate(recs):
                if not (r["type"] == "msg" and r["seat"] == rec_seat and r["dir"] == "out"
                        and r["msg"]["type"] == "event"):
                    continue
                messages += 1
                before = [c for j, c in choices if j < i]
                after = [c for j, c in choices if j > i]
                if not before or not after or before[-1]["turn"] != after[0]["turn"]:
                    continue  # at a turn boundary: public
                turn = before[-1]["turn"]
                kinds = {c["kind"] for c in before + after if c["turn"] == turn
                         and c["seat"] != rec_seat}
                framed.append((os.path.basename(path), turn))
                secret += "library-set-aside" in kinds
        print(f"{messages} event messages to the recorder; {len(framed)} inside a turn, "
              f"{secret} of them in a turn where the opponent was asked about a drawn Action")
        if not messages:
            print("FAIL: no event messages at all: --events did nothing")
            return 1
        if framed:
            print(f"FAIL: event messages between two decisions of one turn: {framed[:8]}")
            return 1
        print("ok")
        return 0
    except subprocess.TimeoutExpired:
        print("FAIL: arena still running after 300 s")
        return 1
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
