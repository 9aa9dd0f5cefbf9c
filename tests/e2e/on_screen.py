#!/usr/bin/python3
"""What a user sees on screen (issue 12): forfeit reasons with the bot's last
stderr lines, fallback moves and SDK-caught failures, --trace, the running
score of --games N, check-bot's consistency and --repeat, and one exit code
for one error in every command.

Usage: on_screen.py ARENA HOSTILE CASE — runs one named case."""
import json
import os
import re
import subprocess
import sys
import tempfile
import time

ARENA = os.path.abspath(sys.argv[1])
HOSTILE = os.path.abspath(sys.argv[2])
BOTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "bots")
VBOT = os.path.join(BOTS, "verdict_bot.py")
JSON_BOT = os.path.join(BOTS, "json_random.py")


def arena(*args, env=None, timeout=100):
    p = subprocess.run([ARENA, *args], capture_output=True, text=True, timeout=timeout, env=env)
    return p.returncode, p.stdout, p.stderr


def check(cond, what):
    if not cond:
        raise AssertionError(what)


def vbot(mode):
    return f"cmd:{VBOT} {mode}"


def jsonl(stdout):
    return [json.loads(line) for line in stdout.splitlines() if line.startswith("{")]


def case_forfeit_shows_reason_and_stderr_tail():
    rc, out, err = arena("play", "nim", f"cmd:{HOSTILE} --fault wrong_id", "builtin:random",
                         "--seed", "1")
    print(out, err)
    check(rc == 0, f"exit {rc}")
    check(re.search(r"FORFEIT \(protocol\): act for id \d+, expected \d+", out),
          "the wrong id is named next to the forfeit")
    rc, out, err = arena("play", "nim", vbot("raise"), "builtin:random", "--seed", "1")
    print(out, err)
    check("FORFEIT (crash): " in out, "crash reason shown")
    check("| ValueError: no move for 1 stones" in out, "the exception is in the stderr tail")
    check("| warming up step 30" in out and "| warming up step 1\n" not in out,
          "the tail is the last lines, capped")
    tail = [l for l in out.splitlines() if l.strip().startswith("| ")]
    check(0 < len(tail) <= 10, f"at most 10 stderr lines, got {len(tail)}")
    rc, out, err = arena("play", "nim", vbot("debug_stdout"), "builtin:random", "--seed", "1",
                         "--json")
    g = jsonl(out)[0]
    ff = g["forfeits"]
    check(len(ff) == 1 and ff[0]["seat"] == 0 and ff[0]["cause"] == "protocol", f"{ff}")
    msg = g["fault_message"]
    check("DEBUG" in msg[0], f"--json message quotes the line: {msg[0]!r}")
    check(msg[1] == "", "the other seat has no fault")
    check(g["stderr_tail"][0].endswith("warming up step 30"), "--json carries the stderr tail")
    check(len(g["stderr_tail"][0]) < 600, "the tail is capped")


def case_crash_names_exit_status_or_signal():
    """A bot that dies says how: its exit status or its signal, in `play`
    (text and --json), the match log, `check-bot` and the tournament report."""
    how = {"raise": "the agent process exited with status 1",
           "segv": "the agent process was killed by signal 11 (SIGSEGV)"}
    with tempfile.TemporaryDirectory() as tmp:
        for mode, words in how.items():
            log = os.path.join(tmp, mode + ".jsonl")
            rc, out, err = arena("play", "nim", vbot(mode), "builtin:random", "--seed", "1",
                                 "--log", log, "--log-plain")
            print(out, err)
            check(f"FORFEIT (crash): {words}\n" in out, f"play names how {mode} died")
            faults = [json.loads(l) for l in open(log) if '"fault"' in l]
            check(len(faults) == 1 and faults[0]["message"] == words, f"the log: {faults}")
            rc, out, err = arena("play", "nim", vbot(mode), "builtin:random", "--seed", "1",
                                 "--json")
            check(jsonl(out)[0]["fault_message"][0] == words, f"--json: {out}")
            rc, out, err = arena("check-bot", vbot(mode), "--games", "1",
                                 env=dict(os.environ, TMPDIR=tmp))
            print(out, err)
            check(rc == 1 and f"died or closed its output: {words}\n" in out,
                  f"check-bot names how {mode} died")
        db = os.path.join(tmp, "t.db")
        rc, out, err = arena("tournament", "--game", "nim", "--agent", "segv=" + vbot("segv"),
                             "--agent", "rnd=builtin:random", "--games-per-pairing", "2",
                             "--db", db, "--logs", os.path.join(tmp, "logs"), "--quiet")
        print(out, err)
        check(rc == 0, f"tournament exit {rc}")
        rc, out, err = arena("report", db)
        print(out, err)
        check(f"segv  crash: {how['segv']}" in out, "the report names the signal")


def case_fallback_moves_and_caught_failures_shown():
    rc, out, err = arena("play", "nim", vbot("slow"), "builtin:random", "--seed", "1",
                         "--on-fault", "fallback", "--max-strikes", "100", "--move-ms", "150",
                         "--bank-ms", "0")
    print(out, err)
    check(rc == 0, f"exit {rc}")
    m = re.search(r"the fallback played (\d+) moves? for it; the last after timeout: ", out)
    check(m and int(m.group(1)) >= 1, "fallback moves are shown with their cause")
    rc, out, err = arena("play", "nim", vbot("slow"), "builtin:random", "--seed", "1",
                         "--on-fault", "fallback", "--max-strikes", "100", "--move-ms", "150",
                         "--bank-ms", "0", "--json")
    g = jsonl(out)[0]
    check(g["fallbacks"][0] >= 1 and g["fallback_last"][0].startswith("timeout: "), f"{g}")
    check(g["fallbacks"][1] == 0, "the builtin had none")
    rc, out, err = arena("play", "nim", vbot("logs"), "builtin:random", "--seed", "1")
    print(out, err)
    check(re.search(r"\d+ `log` lines? from the bot, the last: decide failed: KeyError", out),
          "the SDK-style caught failures are shown")


def case_trace_shows_both_directions_with_times():
    rc, out, err = arena("play", "nim", JSON_BOT, "builtin:random", "--seed", "3", "--trace")
    check(rc == 0, f"exit {rc}: {err}")
    lines = out.splitlines()
    stamp = re.compile(r"^\s*(-?\d+\.\d{3}) ms  seat (\d)  (.*)$")
    traced = [stamp.match(l) for l in lines if stamp.match(l)]
    check(any(m.group(3).startswith('-> {"type":"hello"') for m in traced), "hello sent")
    check(any(m.group(3).startswith('<- {"type":"ready"') for m in traced), "ready received")
    decides = [m for m in traced if m.group(3).startswith('-> {"type":"decide"')]
    acts = [m for m in traced if m.group(3).startswith('<- {"type":"act"')]
    check(decides and len(decides) == len(acts), "every decide and act, both ways")
    check(any(re.search(r"answer to id \d+: [\d.]+ ms charged", m.group(3)) for m in traced),
          "the charged time")
    check(any('-> {"type":"over"' in m.group(3) for m in traced), "over sent")
    times = [float(m.group(1)) for m in traced]
    check(times == sorted(times), "time stamps never go back")
    check(any(l.startswith("game 1/1") for l in lines), "the result still follows")
    # With --json the trace goes to stderr: stdout stays JSON lines.
    rc, out, err = arena("play", "nim", JSON_BOT, "builtin:random", "--seed", "3", "--trace",
                         "--json")
    check(all(l.startswith("{") for l in out.splitlines()), "stdout is only JSON")
    check('<- {"type":"act"' in err, "the trace is on stderr")


def case_score_line_matches_results():
    args = ["play", "nim", "builtin:random", "builtin:random", "--games", "7", "--seed", "21"]
    rc, out, err = arena(*args, "--json")
    check(rc == 0, f"exit {rc}: {err}")
    w = d = l = 0
    for i, g in enumerate(jsonl(out)):
        a = i % 2  # seats rotate one place a game: agent 1 sits at seat i mod 2
        b = 1 - a
        if g["ranks"][a] < g["ranks"][b]:
            w += 1
        elif g["ranks"][a] == g["ranks"][b]:
            d += 1
        else:
            l += 1
    check(w + d + l == 7, "7 games")
    rc, out, err = arena(*args, "--score-every", "3")
    print(out)
    scores = re.findall(r"^Score of builtin:random vs builtin:random: (\d+) - (\d+) - (\d+)  "
                        r"\[(\d\.\d{3})\] (\d+)$", out, re.M)
    check(len(scores) == 3, f"after games 3, 6 and 7: {scores}")
    check([int(s[4]) for s in scores] == [3, 6, 7], f"{scores}")
    last = scores[-1]
    check((int(last[0]), int(last[1]), int(last[2])) == (w, l, d), f"{last} vs W-L-D {w}-{l}-{d}")
    check(abs(float(last[3]) - (w + d / 2) / 7) < 0.0006, "score fraction")
    check(re.search(r"^Elo difference: -?(inf|[\d.]+) \+/- (inf|[\d.]+), LOS: [\d.]+ %, "
                    r"DrawRatio: [\d.]+ %$", out, re.M), "Elo, error, LOS line")
    rc, out, err = arena("play", "nim", "builtin:random", "builtin:random", "--seed", "2")
    check("Score of" not in out, "no score line for a single game")


def case_check_bot_lines_agree():
    tmp = tempfile.mkdtemp()
    env = dict(os.environ, TMPDIR=tmp)
    rc, out, err = arena("check-bot", vbot("slow"), "--move-ms", "150", "--bank-ms", "0",
                         "--games", "1", env=env)
    print(out, err)
    check(rc == 1 and "too slow or missing" in out, "the slow answers fail")
    check("first: no answer within" in out or "first: answer took" in out, "quotes the first")
    check(not re.search(r"^\s+ok\s+answer times", out, re.M), "no 'ok' times next to timeouts")
    rc, out, err = arena("check-bot", vbot("raise"), "--games", "1", env=env)
    print(out, err)
    check("exception: ValueError: no move for 1 stones" in out, "quotes the exception")
    check("all legal" not in out, "no 'all legal' next to a crash")
    check("| ValueError: no move for 1 stones" in out, "the stderr tail")
    check(len(os.listdir(tmp)) == 2, "the logs of the two failing runs are kept")
    for d in os.listdir(tmp):
        subprocess.run(["rm", "-rf", os.path.join(tmp, d)], check=True)
    rc, out, err = arena("check-bot", vbot("steady"), "--games", "2", env=env)
    check(rc == 0 and "COMPLIANT" in out, out)
    rc, out, err = arena("check-bot", "/nonexistent/bot", env=env)
    check(rc == 2 and err.startswith("arena: "), f"missing program: {rc} {err!r}")
    check(os.listdir(tmp) == [], f"nothing left behind: {os.listdir(tmp)}")
    os.rmdir(tmp)
    rc, out, _ = arena("check-bot", "--help")
    check("--on-fault" not in out and "--max-strikes" not in out, "help lists no flag it refuses")
    check("--repeat N" in out and "[3]" in out and "--seed N" in out, "help has its defaults")


def case_check_bot_fails_when_every_decision_raises():
    """A bot whose every decision raised passed only by its SDK's random
    fallback: that fails, and check-bot says it played nim by default."""
    raiser = os.path.join(BOTS, "sdk_raiser.py")
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, TMPDIR=tmp)
        rc, out, err = arena("check-bot", f"cmd:{raiser} always", "--games", "1", env=env)
        print(out, err)
        check(rc == 1 and "NOT COMPLIANT" in out, f"exit {rc}")
        check(re.search(r"FAIL\s+every decision raised an exception \((\d+) of \1\)", out),
              "the failure is named")
        check(re.search(r"^check-bot: .* on nim,", out, re.M), "the game is named")
        check("nim is the default game" in out and "--game G" in out
              and "dominion" in out, "how to pick the game is said")
        check("all legal" not in out, "no 'all legal' for random answers")
        rc, out, err = arena("check-bot", f"cmd:{raiser} sometimes", "--games", "1",
                             "--game", "nim", env=env)
        print(out, err)
        check(rc == 0 and "warn  reported" in out, "a bot that fails sometimes is warned")
        check("default game" not in out, "no default notice with --game")


def case_check_bot_repeat_finds_nondeterminism():
    rc, out, err = arena("check-bot", vbot("steady"), "--repeat", "3")
    print(out, err)
    check(rc == 0, f"exit {rc}")
    check(re.search(r"ok\s+deterministic: 3 games with seed 1, the same \d+ choices", out),
          "a deterministic bot is called deterministic")
    rc, out, err = arena("check-bot", vbot("clocky"), "--repeat", "4", "--seed", "9")
    print(out, err)
    check(re.search(r"warn\s+not deterministic: with the same seed, game 1 and game \d differ "
                    r"at its decision \d+: turn \d+ 'take' \[.*\] by agent vs", out),
          "the first difference is named")
    rc, _, err = arena("check-bot", vbot("steady"), "--repeat", "3", "--games", "2")
    check(rc == 2, "--repeat and --games conflict")


def case_missing_file_exits_2_everywhere():
    missing = "/nonexistent/arena-test-file"
    for args in (["play", "nim", "builtin:random", missing],
                 ["play", "nim", "builtin:random", f"cmd:{missing} --flag"],
                 ["check-bot", missing],
                 ["replay", missing],
                 ["serve", "nim", "--listen", "127.0.0.1:0", "--tokens", missing],
                 ["tournament", missing],
                 ["elo", missing],
                 ["report", missing]):
        rc, out, err = arena(*args)
        check(rc == 2, f"{args}: exit {rc}")
        check(len(err.strip().splitlines()) == 1 and err.startswith("arena: "),
              f"{args}: stderr {err!r}")


def case_seats_count_from_0_everywhere():
    """Results, errors, the trace and the report count seats from 0, as the
    protocol does (`hello`'s seat): no "agent 2" for the agent in seat 1."""
    rc, out, err = arena("play", "nim", "builtin:random", "/nonexistent/bot")
    check(rc == 2 and err.startswith("arena: seat 1: cannot run '/nonexistent/bot'"),
          f"the missing program is named by its seat: {err!r}")
    rc, out, err = arena("play", "nim", "builtin:random", "tcp:127.0.0.1:9", "--clock", "cpu")
    check(rc == 2 and err.startswith("arena: seat 1 (tcp:127.0.0.1:9): --clock cpu"),
          f"the clock misfit is named by its seat: {err!r}")
    rc, out, err = arena("play", "nim", vbot("steady"), "builtin:random", "--seed", "1", "--json")
    g = jsonl(out)[0]
    check(g["agents"][0] == "verdict-steady", f"seat 0 is the first AGENT in game 1: {g}")
    rc, out, err = arena("play", "nim", vbot("steady"), "builtin:random", "--seed", "1")
    check(re.search(r"^  seat 0  verdict-steady ", out, re.M), f"text seat 0: {out}")
    rc, out, err = arena("play", "--help")
    check("Seats count from 0" in out, "play --help says how seats count")
    with tempfile.TemporaryDirectory() as tmp:
        db = os.path.join(tmp, "t.db")
        rc, out, err = arena("tournament", "--game", "nim", "--agent", "a=builtin:random",
                             "--agent", "b=builtin:random", "--games-per-pairing", "2",
                             "--db", db, "--logs", "none", "--quiet")
        check(rc == 0, f"tournament: {err}")
        rc, out, err = arena("report", db)
        check("first-seat advantage: seat 0 (first in seat order) scores" in out, out)
        check("seat 1 scores" not in out, "no 1-based seat in the report")


def case_documented_bots_are_listed():
    """Every `builtin:NAME` the README and the docs name is one `arena bots`
    lists, by its listed name (the lookup also forgives '-' and '_')."""
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    rc, out, err = arena("bots")
    listed = {m.group(1) for m in re.finditer(r"^builtin:([a-z][a-z0-9-]*)", out, re.M)}
    check(rc == 0 and "big-money" in listed, f"arena bots: {out}")
    pages = [os.path.join(root, "README.md")]
    for d, _, files in os.walk(os.path.join(root, "docs")):
        pages += [os.path.join(d, f) for f in files if f.endswith(".md")]
    named = 0
    for page in pages:
        text = open(page, encoding="utf-8").read()
        for m in re.finditer(r"builtin:([a-z][a-z0-9_-]*)", text):
            named += 1
            check(m.group(1) in listed,
                  f"{os.path.relpath(page, root)} names builtin:{m.group(1)}, "
                  f"which `arena bots` does not list")
    check(named > 20, f"only {named} bot names found in the docs")


def case_progress_eta_is_never_a_question_mark():
    """The tournament's progress line on a terminal: before the ETA can be
    measured it says when it will be, and the last line says how long the
    run took, instead of `ETA ?` all through a short run."""
    import pty
    import select
    with tempfile.TemporaryDirectory() as tmp:
        master, slave = pty.openpty()
        p = subprocess.Popen([ARENA, "tournament", "--game", "nim", "--agent",
                              "a=" + vbot("sleepy"), "--agent", "b=builtin:random",
                              "--games-per-pairing", "4", "--concurrency", "1",
                              "--db", os.path.join(tmp, "t.db"), "--logs", "none"],
                             stdout=subprocess.DEVNULL, stderr=slave)
        os.close(slave)
        seen = b""
        while True:
            r, _, _ = select.select([master], [], [], 60)
            if not r:
                break
            try:
                chunk = os.read(master, 4096)
            except OSError:
                break
            if not chunk:
                break
            seen += chunk
        p.wait(timeout=60)
        os.close(master)
    lines = [l.split(b"\x1b[K")[-1].decode() for l in re.split(rb"[\r\n]", seen) if l]
    progress = [l for l in lines if " games  " in l]
    print("\n".join(progress))
    check(p.returncode == 0, f"exit {p.returncode}")
    check(not any("ETA ?" in l for l in progress), "no 'ETA ?'")
    check(any("ETA after 5 games and 3 s" in l for l in progress[:-1]),
          "the first lines say when the ETA comes")
    check(re.search(r"^4/4 games .* done in \d+:\d\d", progress[-1]), "the last line: done in")


def case_help_cmd_and_did_you_mean():
    """`arena help CMD` is `arena CMD --help`, and a mistyped command or
    option gets the near one it probably meant."""
    for cmd in ("play", "check-bot", "tournament", "replay", "report"):
        rc1, out1, _ = arena("help", cmd)
        rc2, out2, _ = arena(cmd, "--help")
        check(rc1 == rc2 == 0 and out1 == out2 and out1.startswith("usage: arena " + cmd),
              f"arena help {cmd}: {out1[:80]!r}")
    rc, out, err = arena("help", "plya")
    check(rc == 2 and "did you mean `arena play`?" in err, f"help plya: {err!r}")
    for args, want in [(["paly"], "unknown command 'paly' (did you mean `arena play`?"),
                       (["tournamnet"], "(did you mean `arena tournament`?"),
                       (["chek-bot"], "(did you mean `arena check-bot`?"),
                       (["play", "nim", "builtin:random", "builtin:random", "--move", "9"],
                        "unknown option '--move' (did you mean --move-ms?"),
                       (["play", "nim", "builtin:random", "builtin:random", "--sed=4"],
                        "unknown option '--sed=4' (did you mean --seed?"),
                       (["play", "nim", "builtin:random", "builtin:random", "--on-falt", "x"],
                        "(did you mean --on-fault?"),
                       (["check-bot", "./x", "--repaet", "3"], "(did you mean --repeat?"),
                       (["serve", "nim", "--listne", "127.0.0.1:1"], "(did you mean --listen?"),
                       (["serve", "nim", "--tokns", "t"], "(did you mean --tokens?")]:
        rc, out, err = arena(*args)
        check(rc == 2 and want in err and err.count("\n") == 1, f"{args}: {err!r}")
    rc, out, err = arena("play", "nim", "a", "b", "--xyzzy")
    check(rc == 2 and "did you mean" not in err, f"nothing near --xyzzy: {err!r}")
    rc, out, err = arena("frobnicate")
    check(rc == 2 and "did you mean" not in err, f"nothing near frobnicate: {err!r}")


def case_wording_singular_turn():
    rc, out, err = arena("play", "nim", "builtin:random", "builtin:random", "--set", "stones=1",
                         "--seed", "1")
    check(rc == 0 and ", 1 turn\n" in out and "1 turns" not in out, out)


CASES = {k[5:]: v for k, v in globals().items() if k.startswith("case_")}

if __name__ == "__main__":
    name = sys.argv[3]
    t0 = time.monotonic()
    CASES[name]()
    print(f"ok {name} ({time.monotonic() - t0:.1f}s)")
