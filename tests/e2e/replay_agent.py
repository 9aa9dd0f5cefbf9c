#!/usr/bin/python3
"""`arena replay LOG --seat N --agent SPEC`: a bot replays its own logged
game decision by decision, a changed bot is caught at its first different
choice, and the bot is sent exactly what the log says its seat was sent.
Real processes, a real arena, logs written by `arena play --log`.
Usage: replay_agent.py ARENA CASE"""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import matchlog  # noqa: E402  (tests/matchlog.py)

ARENA = os.path.abspath(sys.argv[1])
HERE = os.path.dirname(os.path.abspath(__file__))
BOT = os.path.join(HERE, "bots", "first_option.py")
SEED = 8812345678901  # long enough that it cannot turn up by chance


def arena(*args, timeout=300):
    p = subprocess.run([ARENA, *args], capture_output=True, text=True, timeout=timeout)
    return p.returncode, p.stdout, p.stderr


def check(cond, what):
    if not cond:
        raise AssertionError(what)


def bot(*flags):
    return "cmd:" + " ".join([BOT, *flags])


def play(d, game, seats, *extra):
    log = os.path.join(d, f"{game}.jsonl.gz")
    rc, out, err = arena("play", game, *seats, "--seed", str(SEED), "--log", log, *extra)
    check(rc == 0 and os.path.exists(log), f"play {game}: {rc} {out} {err}")
    return log


def sent_to(log, seat):
    """What the log says the referee sent the seat, in order."""
    return [r["msg"] for r in matchlog.records(log)
            if r.get("type") == "msg" and r.get("seat") == seat and r.get("dir") == "out"]


def choices_of(log, seat):
    return {r["id"]: r for r in matchlog.records(log)
            if r.get("type") == "choice" and r.get("seat") == seat}


def first_and_last(m):
    k = len(m["options"])
    want = min(max(m["pick"]["min"], 1 if m["pick"]["max"] >= 1 else 0), k)
    return list(range(want)), list(range(k - want, k))


GAMES = [  # game, seats as played, the seat replayed, the codec it replays in
    ("nim", [BOT, "builtin:random"], 0, [], ["--set", "stones=40"]),
    ("xibalba", [BOT, bot("--msgpack")], 1, ["--msgpack"], []),
    ("dominion", [bot("--msgpack"), "builtin:random"], 0, [], []),
]


def case_same_bot_reproduces_its_game():
    with tempfile.TemporaryDirectory() as d:
        for game, seats, seat, flags, extra in GAMES:
            log = play(d, game, seats, *extra)
            k = sum(1 for m in sent_to(log, seat) if m["type"] == "decide")
            check(k >= 5, f"{game}: only {k} decisions")
            # The codec it played in, and the other one: the same choices.
            for f in (flags, ["--msgpack"] if not flags else []):
                rc, out, err = arena("replay", log, "--seat", str(seat), "--agent", bot(*f))
                check(rc == 0 and f"seat {seat}: all {k} decisions chose as recorded" in out,
                      f"{game} seat {seat} {f}: {rc} {out} {err}")


def case_changed_bot_reports_first_divergence():
    with tempfile.TemporaryDirectory() as d:
        for game, seats, seat, flags, extra in GAMES:
            log = play(d, game, seats, *extra)
            decides = [m for m in sent_to(log, seat) if m["type"] == "decide"]
            # The first decision from #5 on where the last options differ
            # from the first ones: there the changed bot diverges.
            i, m = next((i, m) for i, m in enumerate(decides, 1)
                        if i >= 5 and first_and_last(m)[0] != first_and_last(m)[1])
            first, last = first_and_last(m)
            c = choices_of(log, seat)[m["id"]]
            labels = lambda idx: ", ".join(m["options"][x]["label"] for x in idx)  # noqa: E731
            want = (f"seat {seat}: first divergence at decision #{i} (turn {c['turn']}, kind "
                    f"{c['kind']}): recorded {first} ({labels(first)}), now {last} ({labels(last)})")
            rc, out, err = arena("replay", log, "--seat", str(seat), "--agent",
                                 bot(*flags, "--last-from", "5"))
            check(rc == 1 and want in out, f"{game}: {rc}\nwant {want}\ngot {out} {err}")


def case_bot_gets_only_its_seats_messages():
    """What the bot reads, decoded, is what the log says its seat was sent
    (then the bye), value for value: no other seat's message, no seed."""
    with tempfile.TemporaryDirectory() as d:
        for game, seats, _, _, extra in GAMES[:2]:
            log = play(d, game, [BOT, bot("--msgpack")], *extra)
            for seat, flags in ((0, []), (1, ["--msgpack"])):
                rec = os.path.join(d, f"{game}-{seat}.rec")
                rc, out, err = arena("replay", log, "--seat", str(seat), "--agent",
                                     bot(*flags, "--record", rec))
                check(rc == 0, f"{game} seat {seat}: {rc} {out} {err}")
                with open(rec) as f:
                    text = f.read()
                got = [json.loads(x) for x in text.splitlines()]
                want = sent_to(log, seat) + [{"type": "bye"}]
                check(len(got) == len(want), f"{game} seat {seat}: read {len(got)} messages, "
                      f"the log sent it {len(want) - 1} (and a bye)")
                for k, (g, w) in enumerate(zip(got, want)):
                    check(g == w, f"{game} seat {seat} message {k}: got {g}\nlogged {w}")
                check(str(SEED) not in text and f"{SEED:x}" not in text,
                      f"{game} seat {seat}: the seed reached the bot")
                other = {json.dumps(m, sort_keys=True) for m in sent_to(log, 1 - seat)}
                mine = {json.dumps(m, sort_keys=True) for m in want}
                leaked = [g for g in got if json.dumps(g, sort_keys=True) in other - mine]
                check(not leaked, f"{game} seat {seat} got the other seat's {leaked[:1]}")


def case_unreplayable_logs_and_bots_are_named():
    with tempfile.TemporaryDirectory() as d:
        log = play(d, "nim", [BOT, "builtin:random"], "--set", "stones=40")
        cases = [
            # a builtin's seat: nothing was sent to it
            (["--seat", "1", "--agent", BOT], 1, "holds no message to seat 1"),
            (["--seat", "2", "--agent", BOT], 2, "seats 0..1"),
            (["--agent", BOT], 2, "--agent wants --seat N"),
            (["--seat", "0", "--agent", "builtin:random"], 2, "takes a program"),
            (["--seat", "0", "--agent", "/bin/true"], 1, "did not join"),
            (["--seat", "0", "--agent", "cmd:echo hello"], 1, "did not join"),
            # a bot that crashes at its third decision: its stderr is shown
            (["--seat", "0", "--agent",
              "cmd:/usr/bin/python3 -c \"import sys,json\nprint(json.dumps({'type':'join','name':'x'}),"
              "flush=True)\nn=0\nfor l in sys.stdin:\n m=json.loads(l)\n"
              " if m['type']=='hello': print(json.dumps({'type':'ready'}),flush=True)\n"
              " if m['type']=='decide':\n  n+=1\n  assert n<3, 'crash-at-three'\n"
              "  print(json.dumps({'type':'act','id':m['id'],'choice':[0]}),flush=True)\""],
             1, "crash-at-three"),
        ]
        for args, want_rc, want in cases:
            rc, out, err = arena("replay", log, *args)
            check(rc == want_rc and want in out + err, f"{args}: {rc} {out} {err}")
        # A bot that never answers, under the generous clock: 10 x (move + bank).
        slow = os.path.join(d, "slow")
        os.mkdir(slow)
        quick = play(slow, "nim", [BOT, "builtin:random"], "--set", "stones=40", "--move-ms",
                     "200", "--bank-ms", "200")
        rc, out, err = arena("replay", quick, "--seat", "0", "--agent", bot("--hang-at", "2"))
        check(rc == 1 and "no answer to decision #2 within 4000 ms (a generous clock: 10x the "
              "game's move plus bank)" in out and "decision 1: [0]" in out,
              f"hanging bot: {rc} {out} {err}")
        # A log cut mid-game: the decisions up to the cut, and an error.
        lines = matchlog.text(log).splitlines(True)
        last = max(k for k, x in enumerate(lines) if '"type":"choice","t"' in x and '"seat":0' in x)
        cut = os.path.join(d, "cut.jsonl")
        with open(cut, "w") as f:
            f.write("".join(lines[:last]) + lines[last][:20])
        rc, out, err = arena("replay", cut, "--seat", "0", "--agent", BOT)
        check(rc == 1 and "cut short" in err and "chose as recorded" in out,
              f"cut log: {rc} {out} {err}")


def case_fallback_answers_compare_as_sent():
    """Where the fallback played for an illegal answer, the bot's answer is
    compared with the answer it sent (and it is sent the same error)."""
    with tempfile.TemporaryDirectory() as d:
        log = play(d, "nim", [bot("--illegal-at", "3"), "builtin:random"], "--set", "stones=40",
                   "--on-fault", "fallback")
        check(any(r.get("by") == "fallback" for r in matchlog.records(log)), "no fallback")
        rc, out, err = arena("replay", log, "--seat", "0", "--agent", bot("--illegal-at", "3"))
        check(rc == 0 and "chose as recorded" in out, f"same bot: {rc} {out} {err}")
        rc, out, err = arena("replay", log, "--seat", "0", "--agent", BOT)
        check(rc == 1 and "first divergence at decision #3 " in out and "recorded [102] (not an "
              "option) [not applied: the fallback played" in out, f"fixed bot: {rc} {out} {err}")


if __name__ == "__main__":
    globals()["case_" + sys.argv[2]]()
    print("ok")
