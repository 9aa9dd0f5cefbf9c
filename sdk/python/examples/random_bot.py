#!/usr/bin/python3
"""Random bot for every Arena game: picks a uniformly random legal answer."""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.realpath(__file__)), ".."))

from arena_sdk import Bot, run  # noqa: E402


class RandomBot(Bot):
    name = "random-py"

    def decide(self, view, options, pick):
        return self.random_choice(options, pick)


if __name__ == "__main__":
    sys.exit(run(RandomBot))
