#!/usr/bin/python3
"""Joins and answers correctly, but burns CPU (mode "burn") or sleeps
(mode "sleep") for a given number of ms before every answer: the clock tests'
agent. Mode "start" burns MS ms of its own CPU before it joins, mode
"ready" before each ready; both then answer at once; mode "nap" sleeps
MS ms before it joins. Mode "cpu" burns MS ms of its own CPU time, however long that takes,
and sends a `log` "cpu X" before each answer: X, the ms of CPU it used from
reading the decide to writing the answer, by its own clock.
Mode "far" does the same in a worker child forked after N idle ones
(a third argument), so the referee's look at the bot's tree, child by child,
reads the worker last.
Mode "work" does a fixed amount of work instead, MS loop iterations
(in thousands), however long that takes; mode "calibrate" prints the MS
for "work" whose work takes MS ms of CPU on this machine, alone, and exits
(machines of one kind here differ by up to 3 x). Mode "reaped" burns in short-lived children it waits for, so the CPU
is spent by processes gone from the tree when the referee next looks. Mode
"orphan" leaves a helper that burns CPU for MS (no longer: it would outlive
the test) in a new session, whose parent exits at once, and sleeps 300 ms
before every answer: the helper is no child of the bot's, unless the bot is
a child subreaper.
Modes "idle" and "nice" sleep MS before every answer beside a helper child
of their own that spins the whole game at SCHED_IDLE ("idle") or nice 19
("nice"): on a busy host the helper is runnable but starved, a wait the
fair clock must not discount (it chose to yield the CPU).
Usage: cpu_burner.py MODE MS [N]"""
import gc
import json
import os
import sys
import time

mode, ms = sys.argv[1], int(sys.argv[2])


def fork(work):
    """A child that runs work() and exits."""
    pid = os.fork()
    if pid == 0:
        try:
            work()
        finally:
            os._exit(0)
    return pid


def send(msg):
    sys.stdout.write(json.dumps(msg) + "\n")
    sys.stdout.flush()


def work(thousands):
    x = 0
    for i in range(thousands * 1000):
        x += i
    return x


if mode == "calibrate":
    best = None
    for _ in range(5):  # the quickest: the least disturbed
        cpu0 = time.process_time()
        work(100)
        took = (time.process_time() - cpu0) * 1000 / 100  # ms a thousand
        best = took if best is None else min(best, took)
    print(max(1, round(ms / best)))
    sys.exit(0)


def burn_cpu(ms):
    stop = time.process_time() + ms / 1000.0
    while time.process_time() < stop:
        pass


def burn_start(ms, what):
    """A heavy start-up; its wall time on stderr, for a failure to show."""
    t0 = time.monotonic()
    burn_cpu(ms)
    sys.stderr.write(f"{what}: {ms} ms of CPU took {(time.monotonic() - t0) * 1000:.0f} ms\n")
    sys.stderr.flush()


startup = 0
if mode == "nap":
    time.sleep(ms / 1000.0)
    mode, ms = "sleep", 0
if mode in ("start", "ready"):  # a heavy start-up: MS ms of CPU, then quick answers
    startup = ms
    if mode == "start":
        burn_start(ms, "before join")
    mode, ms = "sleep", 0

if mode == "orphan":
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            end = time.monotonic() + ms / 1000.0
            while time.monotonic() < end:
                pass
            os._exit(0)
        os._exit(0)
    os.wait()
    mode, ms = "sleep", 300

if mode in ("idle", "nice"):
    bot = os.getpid()
    if os.fork() == 0:
        if mode == "idle":
            os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
        else:
            os.nice(19)
        while os.getppid() == bot:  # till the bot is gone
            pass
        os._exit(0)
    mode = "sleep"

if mode == "far":
    # No collector: a full collection writes to every object's header, and
    # each page the idle children still share is then copied (1-2 ms of
    # CPU), at a moment this bot does not measure, such as its act's write.
    gc.disable()
    hold_r, hold_w = os.pipe()  # idle children wait for its end: the bot's exit
    for _ in range(int(sys.argv[3])):
        fork(lambda: (os.close(hold_w), os.read(hold_r, 1)))
    go_r, go_w = os.pipe()
    done_r, done_w = os.pipe()

    def worker():
        while os.read(go_r, 1):
            cpu0 = time.process_time()
            burn_cpu(ms)
            os.write(done_w, b"%.3f\n" % ((time.process_time() - cpu0) * 1000))

    fork(worker)
    done = os.fdopen(done_r)
    # One round before the game: pages first written after the forks are
    # copied then (1-1.5 ms of CPU under load), not on the first move, where
    # part of it fell outside the window this bot measures.
    os.write(go_w, b"x")
    json.dumps({"type": "log", "text": f"cpu {float(done.readline()):.3f}"})

send({"type": "join", "name": "cpu-" + mode})
for line in sys.stdin:
    cpu0 = time.process_time()
    msg = json.loads(line)
    if msg["type"] == "hello":
        if startup and sys.argv[1] == "ready":
            burn_start(startup, "before ready")
        send({"type": "ready"})
    elif msg["type"] == "decide":
        end = time.monotonic() + ms / 1000.0
        if mode == "work":
            work(ms)
        elif mode == "reaped":
            # 20 ms a child: each is gone before a look at the tree (the
            # referee's timer) could see it over a move's budget.
            while time.monotonic() < end:
                child = os.fork()
                if child == 0:
                    stop = min(end, time.monotonic() + 0.02)
                    while time.monotonic() < stop:
                        pass
                    os._exit(0)
                os.waitpid(child, 0)
        elif mode == "far":
            os.write(go_w, b"x")
            used = float(done.readline()) + (time.process_time() - cpu0) * 1000
            send({"type": "log", "text": f"cpu {used:.3f}"})
        elif mode == "cpu":
            stop = time.process_time() + ms / 1000.0
            while time.process_time() < stop:
                pass
            used = (time.process_time() - cpu0) * 1000
            send({"type": "log", "text": f"cpu {used:.3f}"})
        elif mode == "burn":
            x = 0
            while time.monotonic() < end:
                x += 1
        else:
            time.sleep(ms / 1000.0)
        send({"type": "act", "id": msg["id"], "choice": [0]})
    elif msg["type"] == "bye":
        break
