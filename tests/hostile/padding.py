#!/usr/bin/python3
"""A legal bot cannot fill the organiser's disk or stall the loop through the
match log (padder.py plays Dominion against builtin:big-money with --log).

  pad      every message carries ~1 MB of incompressible text in a key the
           protocol does not know. The log keeps what the referee read of
           each (an act's id and choice), so it is the size of a plain
           game's log, and the loop compresses no padding: it stalled some
           35 ms an answer when the log kept messages as they came (a 34 MB
           log for one game of 41 answers, 1.5 s of stalls).
  logtext  a 64 KiB `log` before each answer, and a short one: each big one
           is a note in the log (over the cap of one message), every short
           one is kept.

Either way `arena replay` verifies the log.

usage: padding.py ARENA CASE
"""
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import matchlog  # noqa: E402  (tests/matchlog.py: gzip or plain logs)

ARENA = os.path.abspath(sys.argv[1])
CASE = sys.argv[2]
PADDER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "padder.py")
KNOWN = {"join": {"type", "name"}, "ready": {"type"}, "act": {"type", "id", "choice"},
         "log": {"type", "text"}}


def check(cond, what):
    if not cond:
        with open("/proc/loadavg") as f:
            load = f.read().strip()
        raise AssertionError(f"{what} (load: {load})")


def main():
    tmp = tempfile.mkdtemp(prefix="padding-")
    try:
        log = os.path.join(tmp, "game.jsonl.gz")
        cmd = [ARENA, "play", "dominion", f"cmd:/usr/bin/python3 {PADDER} {CASE} 1",
               "builtin:big-money", "--seed", "1", "--log", log, "--limit-as", "0",
               "--move-ms", "5000", "--bank-ms", "20000"]
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
        print(f"$ {' '.join(cmd)}\nexit {r.returncode}\n{r.stdout}{r.stderr[-2000:]}")
        check(r.returncode == 0 and "normal" in r.stdout, "the game did not end normally")
        size = os.path.getsize(log)
        recs = matchlog.records(log)
        text = sum(len(line) + 1 for line in matchlog.lines(log))
        ins = [x["msg"] for x in recs if x["type"] == "msg" and x["dir"] == "in"]
        acts = sum(1 for m in ins if m["type"] == "act")
        notes = [x["text"] for x in recs if x["type"] == "note"]
        lag = [x for x in recs if x["type"] == "lag" and "stalls" in x]
        stalled = lag[0]["lag_ms"] if lag else 0.0
        print(f"log: {size} bytes ({text} as text), {acts} acts logged, "
              f"{len(notes)} notes; the loop stalled {stalled:.1f} ms in all")
        check(acts >= 20, f"only {acts} acts logged")
        for m in ins:
            check(set(m) <= KNOWN[m["type"]], f"logged more than the referee read: {list(m)}")
        # A plain game of these seats logs some 100 KB of text, 8 KB gzipped.
        check(size < 64 << 10 and text < 1 << 20,
              f"the log holds {size} bytes ({text} as text) for {acts} answers")
        if CASE == "logtext":
            big = [n for n in notes if n.startswith("a 'log' message of 65")]
            kept = [m for m in ins if m["type"] == "log"]
            check(len(big) == acts and len(kept) == acts
                  and all(m["text"].startswith("deciding ") for m in kept),
                  f"{acts} answers: {len(big)} notes of big logs, {len(kept)} short logs kept")
        # The loop's stalls, as its own lag meter saw them. A stall is a
        # probe 2 ms late; the loop compressing 1 MB stalled 35 ms an answer.
        check(stalled < 5 * acts, f"the loop stalled {stalled:.1f} ms over {acts} answers")
        rp = subprocess.run([ARENA, "replay", log], capture_output=True, text=True, timeout=60)
        print(rp.stdout[-300:], rp.stderr)
        check(rp.returncode == 0 and "replay OK" in rp.stdout, "arena replay does not verify")
        print("ok")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


main()
