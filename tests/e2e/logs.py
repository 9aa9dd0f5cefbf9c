#!/usr/bin/python3
"""Match logs are gzip-compressed by default and every reader takes both
forms; a log whose referee was killed reads up to the cut.
Usage: logs.py ARENA CASE"""
import os
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import matchlog  # noqa: E402  (tests/matchlog.py)

ARENA = os.path.abspath(sys.argv[1])
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
BIGMONEY = os.path.join(ROOT, "sdk", "python", "examples", "dominion_bigmoney.py")
BURNER = os.path.join(HERE, "bots", "cpu_burner.py")


def arena(*args, timeout=120):
    p = subprocess.run([ARENA, *args], capture_output=True, text=True, timeout=timeout)
    return p.returncode, p.stdout, p.stderr


def check(cond, what):
    if not cond:
        raise AssertionError(what)


def replay(log, *extra):
    rc, out, err = arena("replay", log, *extra)
    html = "html" in extra
    check(rc == 0 and ("</html>" in out if html else "replay OK" in out), f"replay {log} {extra}: {rc} {out[-300:]} {err}")
    return out


def case_compressed_and_plain_replay_the_same():
    with tempfile.TemporaryDirectory() as d:
        # A spawned bot (the Python SDK's example) against a built-in one.
        rc, out, err = arena("play", "dominion", BIGMONEY, "builtin:random", "--seed", "5",
                             "--log", d + "/gz/")
        gz = os.path.join(d, "gz", "dominion-5.jsonl.gz")
        check(rc == 0 and os.path.exists(gz), f"play --log DIR: {rc} {err} {os.listdir(d)}")
        check(matchlog.is_gzip(gz), "the default log is gzip-compressed")
        rc, _, err = arena("play", "dominion", BIGMONEY, "builtin:random", "--seed", "5",
                           "--log", d + "/plain/", "--log-plain")
        written_plain = os.path.join(d, "plain", "dominion-5.jsonl")
        check(rc == 0 and os.path.exists(written_plain), f"--log-plain: {rc} {err}")
        check(not matchlog.is_gzip(written_plain)
              and open(written_plain).readline().startswith('{"type":"match"'),
              "--log-plain writes JSON lines")
        replay(written_plain)

        # The same game's log in both forms: every reader's output is the same.
        plain = os.path.join(d, "same.jsonl")
        with open(plain, "w") as f:
            f.write(matchlog.text(gz))
        for extra in ([], ["--seat", "1"], ["--format", "html"]):
            a, b = replay(gz, *extra), replay(plain, *extra)
            check(a == b, f"replay {extra}: compressed and plain logs differ")
        text = replay(gz)
        check("result matches" in text, "the compressed log reproduces to the result")
        check("seat 0: " + BIGMONEY in text and "seat 0 joined as bigmoney-py" in text,
              "the record names the spawned agent's spec, then the name it joined as")

        size_gz, size_plain = os.path.getsize(gz), os.path.getsize(plain)
        print(f"dominion log: {size_plain} bytes plain, {size_gz} gzip "
              f"({size_plain / size_gz:.1f}x)")
        check(size_gz * 5 < size_plain, "the compressed log is at least 5x smaller")


def choices_in(path):
    return sum(1 for e in matchlog.records(path) if e["type"] == "choice")


def reproduced(out):
    return int(out.rsplit("replay OK: ", 1)[1].split()[0])


def case_cut_log_reads_to_the_cut():
    with tempfile.TemporaryDirectory() as d:
        full = os.path.join(d, "full.jsonl.gz")
        rc, _, err = arena("play", "nim", "cmd:" + BURNER + " sleep 0", "builtin:random", "--seed", "3",
                           "--set", "stones=60", "--log", full)
        check(rc == 0, f"play: {err}")
        data = open(full, "rb").read()
        total = choices_in(full)
        # Cut anywhere: every decision before the cut is read, none is lost.
        last = 0
        for k in range(1, 21):
            cut = os.path.join(d, f"cut{k}.jsonl.gz")
            with open(cut, "wb") as f:
                f.write(data[:len(data) * k // 21])
            if not matchlog.records(cut):  # not even the header: nothing to replay
                rc, _, err = arena("replay", cut)
                check(rc == 1 and "no match header" in err, f"cut {k}/21: {rc} {err}")
                continue
            out = replay(cut)
            n = reproduced(out)
            check(n == choices_in(cut), f"cut {k}/21: replay read {n} decisions, "
                  f"the file holds {choices_in(cut)}")
            check(n >= last, f"cut {k}/21: fewer decisions than an earlier cut")
            check("cut short" in out, f"cut {k}/21 is not reported as cut: {out[-200:]}")
            last = n
        check(0 < last <= total and last >= total // 2,
              f"the last cut keeps most decisions: {last} of {total}")
        # A plain log cut mid-line: the part line is dropped, the rest read.
        text = matchlog.text(full)
        cut = os.path.join(d, "cut.jsonl")
        with open(cut, "w") as f:
            f.write(text[:text.rindex('{"type":"choice"') + 20])
        out = replay(cut)
        check(reproduced(out) == total - 1 and "cut short" in out,
              f"plain log cut inside its last choice: {out[-200:]}")

        # A real kill: the referee dies mid-game; the log reads to its last step.
        killed = os.path.join(d, "killed.jsonl.gz")
        p = subprocess.Popen([ARENA, "play", "nim", "cmd:" + BURNER + " sleep 100", "builtin:random",
                              "--seed", "4", "--set", "stones=400", "--log", killed],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        seen, deadline = 0, time.monotonic() + 60
        while seen < 4 and time.monotonic() < deadline and p.poll() is None:
            time.sleep(0.1)
            if os.path.exists(killed):
                seen = choices_in(killed)
        p.send_signal(signal.SIGKILL)
        p.wait(timeout=30)
        check(seen >= 4, f"only {seen} decisions logged within 60 s")
        out = replay(killed)
        check(reproduced(out) >= seen and "cut short" in out,
              f"killed log: {seen} decisions seen before the kill, replay: {out[-200:]}")
        rc, out, err = arena("replay", killed, "--format", "html")
        check(rc == 0 and "<html" in out.lower(), f"viewer of the killed log: {rc} {err}")


CASES = {k[5:]: v for k, v in globals().items() if k.startswith("case_")}

if __name__ == "__main__":
    CASES[sys.argv[2]]()
    print("ok", sys.argv[2])
