#!/usr/bin/python3
"""Match logs from a hostile party: every reader (replay, its --seat record,
the HTML viewer) refuses what a log may not hold with a clear error, and
neither crashes nor runs out of memory nor reads a file the log names.
Usage: hostile_logs.py ARENA CASE"""
import gzip
import json
import os
import resource
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import matchlog  # noqa: E402  (tests/matchlog.py)

ARENA = os.path.abspath(sys.argv[1])
READERS = ([], ["--seat", "0"], ["--format", "html"], ["--format", "html", "--seat", "1"])


def arena(*args, timeout=120):
    p = subprocess.run([ARENA, *args], capture_output=True, text=True, timeout=timeout)
    return p.returncode, p.stdout, p.stderr


def check(cond, what):
    if not cond:
        raise AssertionError(what)


def play(d, game, players, seed, plain=True):
    log = os.path.join(d, f"{game}-{seed}.jsonl" + ("" if plain else ".gz"))
    rc, _, err = arena("play", game, *["builtin:random"] * players, "--seed", str(seed),
                       "--log", log, *(["--log-plain"] if plain else []))
    check(rc == 0, f"play {game}: {rc} {err}")
    return log


def refused(log, want):
    """Every reader exits 1 with `want` in its one-line error."""
    for extra in READERS:
        rc, out, err = arena("replay", log, *extra)
        check(rc == 1 and want in err, f"replay {extra}: rc {rc}, want '{want}': {err[-400:]}")
        check("ERROR: AddressSanitizer" not in err and "runtime error" not in err,
              f"replay {extra}: a sanitizer finding: {err[-400:]}")


def case_second_header_is_refused():
    """The viewer's reader table is sized by the header: a header repeated
    wrote past it (a stack overflow). A log holds one game, one header."""
    with tempfile.TemporaryDirectory() as d:
        for game, players in (("nim", 2), ("dominion", 4)):
            lines = matchlog.lines(play(d, game, players, 7))
            for copies in (2, 4, 8):
                bad = os.path.join(d, f"{game}-{copies}.jsonl")
                with open(bad, "w") as f:
                    f.write("\n".join([lines[0]] * copies + lines[1:]) + "\n")
                refused(bad, f"{bad}:2: a second match header")
            # A second header later in the game is refused the same way.
            bad = os.path.join(d, f"{game}-late.jsonl")
            with open(bad, "w") as f:
                f.write("\n".join(lines[:4] + [lines[0]] + lines[4:]) + "\n")
            refused(bad, f"{bad}:5: a second match header")


CASES = {k[5:]: v for k, v in globals().items() if k.startswith("case_")}

if __name__ == "__main__":
    CASES[sys.argv[2]]()
    print("ok", sys.argv[2])
