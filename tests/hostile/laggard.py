#!/usr/bin/python3
"""laggard: a correct bot that answers late (and, for the other seat, a bot
that faults at a chosen moment), for the fair-verdict tests (verdicts.py).

Every `hello` gets a `ready` and every `decide` an `act`, in order, as the
protocol asks; the options below only choose *when*:

  --hold-ready        answer the first hello only once that game's `over`
                      has arrived (its opponent faulted meanwhile)
  --hold-act          answer the first decide only once `over` has arrived
  --hold-timeouts N   answer nothing until N timeout errors have arrived,
                      then answer every held decide in order
  --delays MS,MS,...  sleep MS before answering the first, second, ...
                      decide (those past the list: at once)
  --spin              spend the delays busy on a CPU instead of asleep
  --straddle          after each answer stay runnable, busy till the next
                      message comes: on a crowded CPU it is then often
                      waiting for that CPU when its next decide goes out
  --cpu N             run on CPU N only
  --overrun N         answer each of the first N decides 0.2 ms after all
                      the time its clock allows (move + bank, or what is
                      left of game_ms), from when it was read: late, but
                      before the referee's timer has run (busy, to be exact)
  --children N        first fork N children that only wait for it to end
  --touch FILE        create FILE when the first decide arrives
  --crash-on-hello    (the faulting seat) exit on the first hello
  --crash-when FILE   (the faulting seat) answer the first decide, wait
                      until FILE exists, then exit
  --report FILE       append one line per message received
  --act-then-garbage  (the faulting seat) write its first act and a line
                      that is no message in one write
Speaks JSON lines.
"""
import json
import os
import select
import sys
import time


def send(msg):
    sys.stdout.write(json.dumps(msg) + "\n")
    sys.stdout.flush()


def wait(seconds, spin):
    if not spin:
        time.sleep(seconds)
        return
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        pass


def lines(busy):
    """stdin's lines; with busy, never blocked while waiting for one."""
    buf = b""
    while True:
        while b"\n" not in buf:
            while busy and not select.select([0], [], [], 0)[0]:
                pass
            chunk = os.read(0, 65536)
            if not chunk:
                return
            buf += chunk
        line, buf = buf.split(b"\n", 1)
        yield line.decode()


def act(decide):
    pick = decide["pick"]
    n = pick["min"] if pick["min"] > 0 else (1 if pick["max"] > 0 else 0)
    send({"type": "act", "id": decide["id"], "choice": list(range(n))})


def main():
    args = sys.argv[1:]
    opt = {}
    i = 0
    while i < len(args):
        a = args[i]
        if a in ("--hold-ready", "--hold-act", "--crash-on-hello", "--spin", "--act-then-garbage",
                 "--straddle"):
            opt[a] = True
        elif a in ("--hold-timeouts", "--touch", "--crash-when", "--report", "--delays",
                   "--children", "--overrun", "--cpu") and i + 1 < len(args):
            i += 1
            opt[a] = args[i]
        else:
            sys.stderr.write(f"laggard: bad argument {a}\n")
            return 2
        i += 1
    report = open(opt["--report"], "a") if "--report" in opt else None
    hold_ready = "--hold-ready" in opt
    hold_act = "--hold-act" in opt
    hold_timeouts = int(opt.get("--hold-timeouts", 0))
    delays = [int(x) for x in opt["--delays"].split(",")] if "--delays" in opt else []
    overrun = int(opt.get("--overrun", 0))
    if "--cpu" in opt:
        os.sched_setaffinity(0, {int(opt["--cpu"])})
    end_r, end_w = os.pipe()  # the children's: at its end, they read EOF
    for _ in range(int(opt.get("--children", 0))):
        if os.fork() == 0:
            os.close(end_w)
            os.read(end_r, 1)
            os._exit(0)
    held = []  # decides (and a hello, as None) not answered yet, in order
    timeouts = 0
    decides = 0
    send({"type": "join", "name": "laggard"})
    for line in lines("--straddle" in opt):
        t_read = time.monotonic()
        msg = json.loads(line)
        kind = msg.get("type")
        if report:
            extra = msg.get("id", msg.get("code", ""))
            if kind == "decide":
                extra = f"{msg['id']} bank {msg['clock']['bank_ms']} game {msg['clock']['game_ms']}"
            if kind == "error":
                extra = f"{msg['code']} {msg['id']}"
            if kind == "over":
                extra = msg["result"]["reason"]
            report.write(f"{kind} {extra}\n")
            report.flush()
        if kind == "hello":
            if "--crash-on-hello" in opt:
                sys.exit(3)
            if hold_ready:
                hold_ready = False
                held.append(None)
            elif held:
                held.append(None)
            else:
                send({"type": "ready"})
        elif kind == "decide":
            decides += 1
            if decides == 1 and "--touch" in opt:
                open(opt["--touch"], "w").close()
            if hold_act and decides == 1:
                held.append(msg)
            elif hold_timeouts and timeouts < hold_timeouts:
                held.append(msg)
            elif held:
                held.append(msg)
            else:
                if decides <= len(delays):
                    wait(delays[decides - 1] / 1000, "--spin" in opt)
                if decides == 1 and "--act-then-garbage" in opt:
                    pick = msg["pick"]
                    n = pick["min"] if pick["min"] > 0 else 1
                    sys.stdout.write(json.dumps({"type": "act", "id": msg["id"],
                                                 "choice": list(range(n))}) + "\n{oops\n")
                    sys.stdout.flush()
                    continue
                if decides <= overrun:
                    c = msg["clock"]
                    allowed = c["move_ms"] + c["bank_ms"]
                    if c["game_ms"] is not None:
                        allowed = min(allowed, c["game_ms"])
                    wait(t_read + (allowed + 0.2) / 1000 - time.monotonic(), True)
                act(msg)
            if decides == 1 and "--crash-when" in opt:
                deadline = time.monotonic() + 30
                while not os.path.exists(opt["--crash-when"]) and time.monotonic() < deadline:
                    time.sleep(0.01)
                sys.exit(3)
        elif kind == "error" and msg.get("code") == "timeout":
            timeouts += 1
        elif kind == "bye":
            return 0
        release = kind == "over" or (hold_timeouts and timeouts >= hold_timeouts)
        if release and held:
            for h in held:
                if h is None:
                    send({"type": "ready"})
                else:
                    act(h)
            held = []
    return 0


if __name__ == "__main__":
    sys.exit(main())
