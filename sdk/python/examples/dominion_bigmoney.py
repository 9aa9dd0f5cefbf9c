#!/usr/bin/python3
"""Big Money for Dominion: never plays an action; buys Province with 8 or
more coins, Gold with 6-7, Silver with 3-5, and nothing with less.
Every other decision (answers to attacks and the like) is random."""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.realpath(__file__)), ".."))

from arena_sdk import Bot, run  # noqa: E402
from arena_sdk.games import dominion  # noqa: E402


def wanted(coins):
    """Cards to buy in order of preference for this many coins."""
    if coins >= 8:
        return ["Province", "Gold", "Silver"]
    if coins >= 6:
        return ["Gold", "Silver"]
    if coins >= 3:
        return ["Silver"]
    return []


class BigMoney(Bot):
    name = "bigmoney-py"

    def decide(self, view, options, pick):
        kind = self.decision.kind
        if kind == dominion.ACTION and options.has(dominion.END_ACTIONS):
            return dominion.END_ACTIONS
        if kind == dominion.BUY:
            buys = dominion.buys(options)
            for card in wanted(dominion.coins(view)):
                if card in buys:
                    return buys[card]
            if options.has(dominion.END_TURN):
                return dominion.END_TURN
        return self.random_choice(options, pick)


if __name__ == "__main__":
    sys.exit(run(BigMoney))
