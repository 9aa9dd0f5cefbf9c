#!/usr/bin/python3
"""Fair verdicts: a correct bot that answers late is never charged for it
when its opponent faulted meanwhile or when its answer is to a decision
that already timed out; the match's timer, left set from one decision to
the next, neither ends a decision early nor times one out late; on an idle
loop no answer gets lag taken off. Plays nim through the real `arena play`
with the laggard agent (laggard.py) and reads the verdicts and match logs.

usage: verdicts.py ARENA CASE
"""
import glob
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import cgroups  # noqa: E402  (tests/cgroups.py: what agents' cgroups to expect)
import matchlog  # noqa: E402  (tests/matchlog.py: gzip or plain logs)
import timing  # noqa: E402  (tests/timing.py: the host's load, on a failure)

ARENA = os.path.abspath(sys.argv[1])
CASE = sys.argv[2]
LAGGARD = os.path.join(os.path.dirname(os.path.abspath(__file__)), "laggard.py")
FLOODER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "flooder.py")
TRICKLER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "trickler.py")
# Roomy clocks: nothing here should time out unless the case wants it to.
ROOMY = ["--move-ms", "5000", "--bank-ms", "5000", "--startup-ms", "10000"]
# The wall clock unless a case says otherwise: these cases measure what a
# bot is charged against the time it took by its own wall clock, lag
# credited, which the fair clock (the default) would lower further by the
# time it waited for a CPU on a loaded host.
COMMON = ["--seed", "3", "--exit-grace-ms", "200", "--limit-as", "0", "--json", "--clock", "wall"]


class Failure(Exception):
    pass


def check(cond, what):
    if not cond:
        raise Failure(what)


def laggard(*flags):
    return "cmd:/usr/bin/python3 " + LAGGARD + " " + " ".join(flags)


# The referee's run-queue wait in the last play(), in ms: the time a busy
# host kept its loop from a CPU, which is the lag it may rightly credit.
referee_waited_ms = 0.0


def play(agents, extra, tmp, limit=60.0, game="nim"):
    """Runs arena play (nim) with match logs in tmp/log; returns the games."""
    global referee_waited_ms
    os.makedirs(f"{tmp}/log", exist_ok=True)
    cmd = [ARENA, "play", game, *agents, *COMMON, "--log", f"{tmp}/log/", *extra]
    t0 = time.monotonic()
    with tempfile.TemporaryFile() as out_f, tempfile.TemporaryFile() as err_f:
        p = subprocess.Popen(cmd, stdout=out_f, stderr=err_f, start_new_session=True, cwd=tmp)
        # Waited for without reaping it, so that its schedstat stays to read.
        while not os.waitid(os.P_PID, p.pid, os.WEXITED | os.WNOWAIT | os.WNOHANG):
            if time.monotonic() - t0 > limit:
                os.killpg(p.pid, signal.SIGKILL)
                p.wait()
                raise Failure(f"arena still running after {limit:.0f} s: {' '.join(cmd)}")
            time.sleep(0.005)
        referee_waited_ms = timing.run_delay_ms(p.pid)
        p.wait()
        out_f.seek(0)
        err_f.seek(0)
        out, err = out_f.read(), err_f.read()
    print(f"$ {' '.join(cmd)}\nexit {p.returncode} in {time.monotonic() - t0:.1f} s, "
          f"{referee_waited_ms:.1f} ms of it waiting for a CPU")
    games = [json.loads(x) for x in out.decode().splitlines() if x.startswith("{")]
    for g in games:
        print(json.dumps(g))
    if err:
        print("stderr:", err.decode(errors="replace")[-2000:])
    check(p.returncode == 0, f"arena exit {p.returncode}")
    return games


def log_lines(tmp):
    lines = []
    for path in sorted(glob.glob(f"{tmp}/log/*.jsonl.gz")):
        lines += matchlog.records(path)
    return lines


def dropped_notes(tmp, what):
    notes = [x for x in log_lines(tmp) if x["type"] == "note" and "dropped" in x["text"]]
    print("drop notes:", notes)
    check(any(what in x["text"] for x in notes), f"no log note says a late {what} was dropped")


def stale_ready(tmp):
    """The opponent crashes at hello; our ready for game 1 arrives once game 2
    has begun. It answers game 1's hello, not game 2's."""
    games = play([laggard("--crash-on-hello"), laggard("--hold-ready", "--report", f"{tmp}/r")],
                 ROOMY + ["--games", "2"], tmp)
    check(len(games) == 2, f"{len(games)} games, want 2")
    # Both laggards join as "laggard": tell them apart by seat rotation.
    for n, g in enumerate(games):
        crasher = n % 2  # agent 0 sits in seat 0 in game 1, seat 1 in game 2
        got = [(f["seat"], f["cause"]) for f in g["forfeits"]]
        check(got == [(crasher, "crash")], f"game {n + 1}: forfeits {got}, want [({crasher}, 'crash')]")
    dropped_notes(tmp, "'ready'")


def stale_act(tmp):
    """The opponent crashes while we think; our act arrives after `over`."""
    sync = f"{tmp}/decided"
    games = play([laggard("--crash-when", sync),
                  laggard("--hold-act", "--touch", sync, "--report", f"{tmp}/r")],
                 ROOMY + ["--games", "2"], tmp)
    check(len(games) == 2, f"{len(games)} games, want 2")
    for n, g in enumerate(games):
        crasher = n % 2
        got = [(f["seat"], f["cause"]) for f in g["forfeits"]]
        check(got == [(crasher, "crash")], f"game {n + 1}: forfeits {got}, want [({crasher}, 'crash')]")
    dropped_notes(tmp, "'act'")


def late_twice(tmp):
    """Fallback mode: two decisions in a row time out; the late answers to
    both arrive afterwards and are ignored, as the docs promise."""
    games = play([laggard("--hold-timeouts", "2", "--report", f"{tmp}/r"), "builtin:random"],
                 ["--move-ms", "600", "--bank-ms", "0", "--startup-ms", "10000",
                  "--on-fault", "fallback", "--max-strikes", "3", "--set", "stones=60"], tmp)
    check(len(games) == 1, f"{len(games)} games, want 1")
    g = games[0]
    check(g["forfeits"] == [], f"forfeits {g['forfeits']}, want none")
    check(g["reason"] == "normal", f"reason {g['reason']!r}")
    with open(f"{tmp}/r") as f:
        seen = f.read().split("\n")
    errors = [x for x in seen if x.startswith("error")]
    check(len(errors) == 2 and all(x.startswith("error timeout") for x in errors),
          f"errors {errors}, want exactly two timeouts")
    check(g["decisions"][0] >= 3, f"decisions {g['decisions']}: the bot played on")
    dropped_notes(tmp, "'act'")


def stale_timer(tmp):
    """The match keeps one timer, left set for the previous decision when it
    is due no later than the next one's deadline (match.c, arm_by). Such a
    timer firing during a later decision must not end it, and one due later
    than a new, shorter deadline must not delay that decision's timeout."""
    # Seat 0 answers its first decide after 1,200 ms; the timer set for it
    # (2,000 ms) fires 800 ms into seat 1's first decide, which takes 1,500.
    games = play([laggard("--delays", "1200"), laggard("--delays", "1500")],
                 ["--move-ms", "2000", "--bank-ms", "0", "--startup-ms", "10000"], tmp)
    check(len(games) == 1, "one game")
    g = games[0]
    check(g["reason"] == "normal" and not g["forfeits"],
          f"a timer set for an earlier decision ended a later one: {g['reason']}, {g['fault_message']}")
    # 300 ms a move and a 5,000 ms bank. Seat 0 answers at once, leaving the
    # timer set for 5,300 ms; seat 1 spends 3,700 of its bank on its first
    # decide (4,000 ms). Seat 0's second decide takes 2,000 ms: the timer
    # fires 1,300 ms into it and is set again for the rest of its 5,300.
    # Seat 1's second decide then has 1,600 ms, far sooner than that, and
    # seat 1 never answers it.
    os.makedirs(f"{tmp}/b", exist_ok=True)
    games = play([laggard("--delays", "0,2000"), laggard("--delays", "4000,60000")],
                 ["--move-ms", "300", "--bank-ms", "5000", "--startup-ms", "10000"], f"{tmp}/b")
    check(len(games) == 1, "one game")
    g = games[0]
    check(g["reason"] == "forfeit" and [f["seat"] for f in g["forfeits"]] == [1],
          f"seat 1 should forfeit on time: {g['reason']}, {g['forfeits']}")
    # 4,000 ms on the first decide, 1,600 on the second (+ the loop's
    # slack); a timeout that waited for seat 0's timer would charge 3,300
    # for the second (7,300 in all).
    t = g["time_ms"][1]
    check(5100 < t < 6600, f"seat 1 charged {t:.0f} ms: its timeout came late")


def no_false_lag(tmp):
    """Lag is credited only for a stall of the referee's loop (lag.h). On an
    idle loop there is none: a bot that sleeps SLEEP ms before each answer
    must be charged at least that for every one. (The probe once ran on
    libevent's coarse clock, 4 ms a tick here: it looked late by up to ~6
    ms on an idle loop, and an answer read soon after got that and more
    taken off, so a bot could overrun its move time and still be in time.)"""
    sleep, moves = 25, 60
    games = play([laggard("--delays", ",".join([str(sleep)] * moves)), laggard()],
                 ROOMY + ["--set", f"stones={2 * moves}"], tmp)
    check(len(games) == 1 and games[0]["reason"] == "normal", "one normal game")
    lines = log_lines(tmp)
    mine = [x for x in lines if x["type"] == "choice" and x["seat"] == 0]
    check(len(mine) == moves, f"{len(mine)} decisions of seat 0, want {moves}")
    # A vCPU descheduled for a few ms is a real stall, and so is the loop
    # waiting for a CPU on a busy host: a stall going on when an answer is
    # read is credited whole (lag.h), so it may take more than a hair off
    # that answer. Nothing else may: each answer is charged its sleep, less
    # its own logged credit; and the credits are the loop's waits for a CPU
    # (its schedstat), or at most two vCPU hiccups.
    credit = {x["id"]: x["lag_ms"] for x in lines if x["type"] == "lag" and x.get("seat") == 0}
    short = [(x["id"], x["ms"], credit.get(x["id"])) for x in mine
             if x["ms"] + credit.get(x["id"], 0) < sleep - 2]
    credits = [x for x in lines if x["type"] == "lag" and "seat" in x]
    credited = sum(x["lag_ms"] for x in credits)
    check(not short and (len(credits) <= 2 or credited <= referee_waited_ms),
          f"{len(short)} of {moves} answers charged over 2 ms less than the {sleep} ms slept, "
          f"credit aside (id, ms, credit): {short}; lag credited: {credited:.1f} ms, the "
          f"referee waited {referee_waited_ms:.1f} ms for a CPU: {credits}")


def no_free_time_under_load(tmp):
    """On a busy host no answer is charged less than the bot took: a bot
    woken by its decide may take the referee's core before the referee has
    noted the time, and the clock then started late (the bot below, busy
    25 ms a move beside two spinners, was charged 20-24 ms on 5 or 6 moves
    in 60). Only lag the log credits to a decision may take time off it."""
    busy, moves = 25, 60
    spinners = timing.spinners(os.cpu_count() or 2)
    try:
        games = play([laggard("--spin", "--delays", ",".join([str(busy)] * moves)),
                      laggard()], ROOMY + ["--set", f"stones={2 * moves}"], tmp)
    finally:
        for s in spinners:
            s.kill()
            s.wait()
    charged_at_least(tmp, games, busy, moves, "took")


def charged_at_least(tmp, games, least, moves, what):
    """Every answer of seat 0 in the one game was charged at least `least`
    ms, the lag its log credits aside."""
    check(len(games) == 1 and games[0]["reason"] == "normal", "one normal game")
    lines = log_lines(tmp)
    credit = {x["id"]: x["lag_ms"] for x in lines if x["type"] == "lag" and x.get("seat") == 0}
    mine = [x for x in lines if x["type"] == "choice" and x["seat"] == 0]
    check(len(mine) == moves, f"{len(mine)} decisions of seat 0, want {moves}")
    short = [(x["id"], x["ms"], credit.get(x["id"])) for x in mine
             if x["ms"] + credit.get(x["id"], 0) < least]
    print(f"charged {sum(x['ms'] for x in mine):.1f} ms for {moves} moves of {least} ms")
    check(not short, f"{len(short)} of {moves} answers charged less than the {least} ms the bot "
          f"{what}, lag credited aside (id, ms, credit): {short}")


def no_credit_before_decide(tmp):
    """The fair clock discounts the decision's waits for a CPU, none from
    before its decide. A bot that stays runnable after each answer, on a
    CPU it shares with two spinners, is often waiting for that CPU when
    its next decide goes out; schedstat counts that wait once the bot
    runs, all of it. Discounted whole, it made a bot that sleeps 20 ms a
    move be charged less than its sleeps (a few ms a move)."""
    sleep, moves = 20, 40
    cpu = min(os.sched_getaffinity(0))
    spinners = timing.spinners(2)
    try:
        for s in spinners:
            os.sched_setaffinity(s.pid, {cpu})
        # The other seat sleeps as long: the bot is busy that long between
        # its answer and its next decide, on a third of the CPU.
        delays = ",".join([str(sleep)] * moves)
        games = play([laggard("--straddle", "--cpu", str(cpu), "--delays", delays),
                      laggard("--delays", delays)],
                     ROOMY + ["--set", f"stones={2 * moves}", "--clock", "fair"], tmp)
    finally:
        for s in spinners:
            s.kill()
            s.wait()
    charged_at_least(tmp, games, sleep, moves, "slept")


def no_stall_by_processes(tmp):
    """An agent's processes cost the referee's loop nothing per process.
    --freeze-idle stopped an agent by a walk of its process tree, and
    --clock cpu read its CPU time by another, each reading every process:
    an agent of 500 idle processes stalled every match on the loop 20-30
    ms a stop (1.1-2.2 s of stalls in a game of 64 moves), or some 10 ms
    a reading (1.4 s). That slows every match on the loop, and under a
    wall clock an answer read at the end of a stall is credited the stall
    (a partner's gift). Its freezer cgroup stops it with one write, which
    the kernel carries out in about 3 ms for 500 processes (20-100 ms of
    stalls in that game); its cpuacct cgroup gives its CPU time with one
    read (2-4 ms in all). The fair clock reads the schedstat of the
    tasks of the tree's first 16 processes only (proctree_tasks)."""
    moves = 64
    for clock, ctl in ((["--freeze-idle"], "freezer"), (["--clock", "cpu"], "cpuacct"),
                       (["--clock", "fair"], "cpuacct")):
        shutil.rmtree(f"{tmp}/log", ignore_errors=True)
        games = play([laggard("--children", "500"), laggard()],
                     ROOMY + [*clock, "--set", f"stones={2 * moves}"], tmp)
        check(len(games) == 1 and games[0]["reason"] == "normal", f"{clock}: one normal game")
        # The log's summary of the loop's stalls (none when it had none).
        total = [x for x in log_lines(tmp) if x["type"] == "lag" and "stalls" in x]
        check(len(total) <= 1, f"{clock}: lag summaries: {total}")
        lag = total[0] if total else {"stalls": 0, "lag_ms": 0.0}
        print(f"{clock}: the loop's stalls: {lag}")
        if cgroups.agent_groups(ctl):
            check(lag["lag_ms"] < 700, f"{clock}: the agent's 500 processes stalled the loop "
                  f"{lag['lag_ms']:.0f} ms over {moves} moves ({lag['stalls']} stalls)")


def flood_charged(tmp, seat, agents, think, moves):
    """Plays agents with ROOMY clocks; every decision of `seat`, a bot that
    takes `think` ms, must be charged that much, however busy its own or
    another bot's messages kept the referee's loop. Returns the log."""
    games = play(agents, ROOMY + ["--set", f"stones={2 * moves}"], tmp)
    check(len(games) == 1 and games[0]["reason"] == "normal", "one normal game")
    lines = log_lines(tmp)
    charged = [x["ms"] for x in lines if x["type"] == "choice" and x["seat"] == seat]
    check(len(charged) == moves, f"{len(charged)} decisions of seat {seat}, want {moves}")
    # A real stall is credited (over 2 ms, lag.h): with the cores busy
    # flooding, the referee may be descheduled once. A flood that worked
    # took 6 ms or more off several answers.
    short = [round(ms) for ms in charged if ms < think - 2]
    check(len(short) <= 1 and all(ms >= think - 5 for ms in charged),
          f"{len(short)} of {moves} answers charged over 2 ms less than the {think} ms "
          f"taken: {short}; all: {[round(ms) for ms in charged]}")
    return lines


def flood_self(tmp):
    """The referee's time on a bot's own messages is the bot's time (lag.h).
    A bot that floods the loop with costly `log`s while it thinks must be
    charged its thinking time: an old referee counted the stall it caused
    as its own lag and took 10-80 ms off each 300 ms answer."""
    think, moves = 300, 6
    flood_charged(tmp, 0, ["cmd:/usr/bin/python3 " + FLOODER + " self " + str(think), laggard()],
                  think, moves)


def flood_other(tmp):
    """A bot cannot win time for another by flooding the loop: the referee
    decodes little of it per wake-up, so the loop never stalls long enough
    to credit the thinking bot (its opponent here, a colluding partner in
    a game of more seats or in another match on the loop)."""
    think, moves = 300, 6
    flood_charged(tmp, 1, ["cmd:/usr/bin/python3 " + FLOODER + " always",
                           laggard("--delays", ",".join([str(think)] * moves))], think, moves)


def flood_stderr(tmp):
    """The same for a bot that floods its stderr with empty lines: the
    referee drains a bounded amount of it per wake-up as well. And the
    match log keeps a bounded number of its lines: each costs a record
    (about 50 bytes written, 2 us of the loop), so the log cap counts that
    much per line, not the 1 byte of an empty one, which let 262,000 empty
    records into the log of one game."""
    think, moves = 300, 6
    lines = flood_charged(tmp, 1, ["cmd:/usr/bin/python3 " + FLOODER + " stderr",
                                   laggard("--delays", ",".join([str(think)] * moves))],
                          think, moves)
    kept = sum(1 for x in lines if x["type"] == "stderr" and x["seat"] == 0)
    dropped = any(x["type"] == "note" and x["seat"] == 0 and "stderr beyond the log cap"
                  in x["text"] for x in lines)
    print(f"stderr records kept: {kept}; drop noted: {dropped}")
    check(dropped, "the log does not say the flood's stderr was dropped")
    check(kept <= (256 << 10) // 48, f"{kept} empty stderr lines logged, want at most "
          f"{(256 << 10) // 48} (256 KiB at 48 bytes a record)")


def late_answer_charged(tmp):
    """An answer that comes after the deadline but before the referee's
    timer has run is as late as one the timer catches: under --on-fault
    fallback it costs a strike and all the time it took, bank and game clock
    alike. Judged late without being charged, each strike would be a whole
    move + bank of free thought and the game clock would never run out;
    the bot answers 0.2 ms late to try for that."""
    rep = f"{tmp}/r"
    games = play([laggard("--overrun", "2", "--report", rep), "builtin:random"],
                 ["--move-ms", "100", "--bank-ms", "400", "--game-ms", "2000",
                  "--on-fault", "fallback", "--set", "stones=30"], tmp)
    check(len(games) == 1, f"{len(games)} games, want 1")
    g = games[0]
    with open(rep) as f:
        seen = f.read().splitlines()
    print("\n".join(seen[:8]))
    decides = [x.split() for x in seen if x.startswith("decide ")]  # decide ID bank B game G
    timeouts = [x for x in seen if x.startswith("error timeout")]
    check(len(decides) >= 3, f"{len(decides)} decides, want 3 or more")
    check(len(timeouts) == 2, f"timeouts {timeouts}: both late answers are late")
    bank2, game3 = float(decides[1][3]), float(decides[2][5])
    check(bank2 == 0, f"after a first answer 500 ms late the bank shows {bank2} ms, want 0")
    check(game3 <= 2000 - 500 - 100, f"after two late answers (500 and 100 ms allowed) the game "
          f"clock shows {game3} ms, want at most 1400")
    check(g["time_ms"][0] >= 600, f"seat 0 charged {g['time_ms'][0]:.0f} ms, want 600 or more")


def trickle_charged(tmp):
    """A bot that reads a decide's head (id, options, pick), thinks while the
    referee waits to write the rest into its one-page pipe, and answers
    before reading on (trickler.py) is charged its thinking: the clock runs
    from when its input backed up. The referee started it at the last byte,
    and 800 ms of thought a move under --move-ms 200 were charged 0 ms.
    4-player Xibalba in JSON: some decides are over 4 KiB past their view."""
    rep = f"{tmp}/r"
    games = play([f"cmd:/usr/bin/python3 {TRICKLER} 800 {rep}"] + ["builtin:random"] * 3,
                 ["--move-ms", "200", "--bank-ms", "0"], tmp, game="xibalba")
    with open(rep) as f:
        seen = f.read().splitlines()
    print("trickler:", seen[:6])
    trickled = [x for x in seen if x.startswith("trickled")]
    check(trickled, f"no decide was answered before it was whole: {seen[:6]}")
    g = games[0]
    check(g["forfeits"] == [{"seat": 0, "cause": "timeout"}],
          f"forfeits {g['forfeits']}: 800 ms answers under --move-ms 200 went unpunished")
    check(len(trickled) == 1, f"{trickled}: the game went on after the first")


def act_then_garbage(tmp):
    """An act and a line that is no message, in one write: the seat
    forfeits on the garbage, and its act, read with it, is not played (not
    even after the forfeit, as the agent's move)."""
    games = play([laggard("--act-then-garbage"), "builtin:random", "builtin:random"], ROOMY,
                 tmp, game="xibalba")  # three seats: the game goes on without it
    check(len(games) == 1, f"{len(games)} games, want 1")
    g = games[0]
    check(g["forfeits"] == [{"seat": 0, "cause": "protocol"}], f"forfeits {g['forfeits']}")
    mine = [x for x in log_lines(tmp) if x["type"] == "choice" and x["seat"] == 0]
    print("seat 0's choices:", mine[:2])
    check(mine and mine[0]["by"] != "agent", f"the forfeited seat's act was played: {mine[:1]}")


CASES = {"stale_ready": stale_ready, "stale_act": stale_act, "late_twice": late_twice,
         "stale_timer": stale_timer, "no_false_lag": no_false_lag,
         "no_free_time_under_load": no_free_time_under_load,
         "no_credit_before_decide": no_credit_before_decide,
         "no_stall_by_processes": no_stall_by_processes, "flood_self": flood_self,
         "flood_other": flood_other, "flood_stderr": flood_stderr,
         "late_answer_charged": late_answer_charged, "trickle_charged": trickle_charged,
         "act_then_garbage": act_then_garbage}


def main():
    if CASE not in CASES:
        print(f"unknown case {CASE!r}; known: {', '.join(CASES)}")
        return 2
    with tempfile.TemporaryDirectory(prefix=f"verdict-{CASE}-") as tmp:
        try:
            CASES[CASE](tmp)
        except Failure as e:
            print(f"FAIL {CASE}: {e}")
            timing.print_load()
            for path in glob.glob(f"{tmp}/log/*.jsonl.gz"):
                print(f"--- {path}")
                print("\n".join(x for x in matchlog.lines(path)
                                if json.loads(x)["type"] != "msg")[-4000:])
            return 1
    print(f"ok {CASE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
