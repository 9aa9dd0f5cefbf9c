#!/usr/bin/python3
"""The example bots' strategies, checked against scripted decisions.

usage: test_examples.py [--js-only]   (default: the Python examples)
Big Money (Python, JS) must follow its buy rules and never play actions;
the greedy Pacifica bot (Python) must activate, play and draw by its values.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import fakeref  # noqa: E402
from fakeref import check  # noqa: E402

ROOT = os.path.join(HERE, "..", "..")
BUY = ["buy:Copper", "buy:Curse", "buy:Estate", "buy:Silver", "buy:Smithy", "buy:Gold",
       "buy:Duchy", "buy:Province", "end-turn"]


def dom_view(coins, buys=1):
    return {"turn": 3, "current": 0, "actions": 1, "buys": buys, "coins": coins, "seat": 0,
            "supply": {"Province": 8, "Gold": 30, "Silver": 40},
            "players": [{"seat": 0, "hand": ["Copper"] * 4 + ["Smithy"], "hand_size": 5},
                        {"seat": 1, "hand_size": 5}]}


def labels_of(labels, choice):
    return [labels[i] for i in choice]


def bigmoney(cmd):
    for codec in (["json", "msgpack"] if cmd[0].endswith(".py") else ["json"]):
        proc = fakeref.spawn(cmd + ["--" + codec])
        ref = fakeref.pipe_referee(proc)
        try:
            ref.join()
            ref.hello("dominion", seat=0, players=2, options={"kingdom": "first-game"})
            acts = ["play:Smithy", "play:Village", "end-actions"]
            got = labels_of(acts, ref.decide("action", acts, dom_view(0)))
            check(got == ["end-actions"], "big money played an action: %r" % got)
            for coins, want in [(8, "buy:Province"), (11, "buy:Province"), (7, "buy:Gold"),
                                (6, "buy:Gold"), (5, "buy:Silver"), (3, "buy:Silver"),
                                (2, "end-turn"), (0, "end-turn")]:
                affordable = [lab for lab in BUY if lab == "end-turn" or
                              {"Copper": 0, "Curse": 0, "Estate": 2, "Silver": 3, "Smithy": 4,
                               "Gold": 6, "Duchy": 5, "Province": 8}[lab[4:]] <= coins]
                got = labels_of(affordable, ref.decide("buy", affordable, dom_view(coins)))
                check(got == [want], "with %d coins big money chose %r, not %s" % (coins, got, want))
            # no Province pile left: the best remaining treasure
            opts = [lab for lab in BUY if lab != "buy:Province"]
            got = labels_of(opts, ref.decide("buy", opts, dom_view(9)))
            check(got == ["buy:Gold"], "without Provinces big money chose %r" % got)
            # an attack to answer: any legal answer (fakeref checks the pick)
            hand = ["card:Copper", "card:Estate", "card:Silver", "card:Gold", "card:Copper"]
            ref.decide("militia-discard", hand, dom_view(0), 2, 2)
            ref.over([1, 2], [30, 10])
            ref.bye()
        except fakeref.Fail:
            proc.kill()
            sys.stderr.write(proc.stderr.read().decode("utf-8", "replace"))
            raise
        rc, err = fakeref.finish(proc)
        check(rc == 0, "big money exited with %r: %s" % (rc, err))
        print("ok: big money", cmd[0], codec)


def pac_view(symbols, hand):
    idols = [{"name": n, "owner": -1, "need": 3, "secured": False}
             for n in ["Treasure", "Population", "Resources", "Architecture", "Knowledge",
                       "Machines", "Festival"]] + [{"name": "Diversity", "owner": -1, "need": 1,
                                                    "secured": False}]
    return {"seat": 0, "to_move": 0, "turn": 4, "actions_left": 3, "hand": hand,
            "hand_sizes": [len(hand), 3], "hand_limits": [3, 3], "cities": [[], []],
            "symbols": [symbols, {}], "stacks": {}, "idols": idols, "winner": -1}


def greedy(cmd):
    cards = ["T01 Treasure green symbols=T", "T09 Treasure grey symbols=TT need=P",
             "P01 Population green symbols=P", "A01 Architecture green symbols=A",
             "K16 Knowledge red symbols=KK discard=R"]
    for codec in ("json", "msgpack"):
        proc = fakeref.spawn(cmd + ["--" + codec])
        ref = fakeref.pipe_referee(proc)
        try:
            ref.join()
            ref.hello("pacifica", seat=0, players=2, options={"cards": "designed", "card_list": cards})
            # 2 Treasure symbols already: Treasure is one short of its idol
            syms = {"T": 2, "P": 0}
            opts = ["draw:Treasure", "draw:Population", "play:P01", "play:T01", "activate"]
            got = labels_of(opts, ref.decide("action", opts, pac_view(syms, ["P01", "T01"])))
            check(got == ["activate"], "greedy did not activate: %r" % got)
            opts = ["draw:Treasure", "draw:Population", "play:P01", "play:T01"]
            got = labels_of(opts, ref.decide("action", opts, pac_view(syms, ["P01", "T01"])))
            check(got == ["play:T01"], "greedy played %r, not the Treasure" % got)
            opts = ["draw:Population", "draw:Treasure", "draw:Knowledge"]
            got = labels_of(opts, ref.decide("action", opts, pac_view(syms, [])))
            check(got == ["draw:Treasure"], "greedy drew %r" % got)
            got = labels_of(["end"], ref.decide("action", ["end"], pac_view(syms, [])))
            check(got == ["end"], "greedy did not end")
            opts = ["activate:A01", "activate:T09", "done"]
            got = labels_of(opts, ref.decide("activate-pick", opts, pac_view(syms, [])))
            check(got == ["activate:T09"], "greedy activated %r" % got)
            opts = ["discard:T01", "discard:A01"]
            got = labels_of(opts, ref.decide("discard-pick", opts, pac_view(syms, ["T01", "A01"])))
            check(got == ["discard:A01"], "greedy discarded %r, not its least useful card" % got)
            opts = ["draw:Treasure", "skip"]
            got = labels_of(opts, ref.decide("start-draw", opts, pac_view(syms, [])))
            check(got == ["draw:Treasure"], "greedy skipped a free draw: %r" % got)
            ref.over([1, 2], [3, 1])
            ref.bye()
        except fakeref.Fail:
            proc.kill()
            sys.stderr.write(proc.stderr.read().decode("utf-8", "replace"))
            raise
        rc, err = fakeref.finish(proc)
        check(rc == 0, "greedy exited with %r: %s" % (rc, err))
        print("ok: greedy pacifica", codec)


def main():
    if "--js-only" in sys.argv:
        bigmoney([os.path.join(ROOT, "sdk", "js", "examples", "dominion-bigmoney.js")])
    else:
        bigmoney([os.path.join(ROOT, "sdk", "python", "examples", "dominion_bigmoney.py")])
        greedy([os.path.join(ROOT, "sdk", "python", "examples", "pacifica_greedy.py")])


if __name__ == "__main__":
    fakeref.main_wrapper(main)
