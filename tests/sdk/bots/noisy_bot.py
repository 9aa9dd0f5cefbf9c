#!/usr/bin/python3
"""Test bot: prints to stdout (which must not reach the protocol stream),
answers by label, and sends log lines."""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "sdk", "python"))
from arena_sdk import Bot, run  # noqa: E402


class NoisyBot(Bot):
    def on_game_start(self, game):
        print("starting", game.name, "in seat", game.seat)

    def decide(self, view, options, pick):
        print("stones:", view.get("stones"), "options:", options.labels())
        sys.stdout.write("more noise\n")
        self.log("about to take %d" % pick.max)
        return options.labels()[:pick.max]

    def on_game_end(self, result, view):
        print("game over, rank", result.rank)


if __name__ == "__main__":
    sys.exit(run(NoisyBot))
