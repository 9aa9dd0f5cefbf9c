#!/usr/bin/python3
"""A Python SDK bot whose `decide` raises, as a bot written for another game
does on nim (it reads a key nim's view lacks). The SDK catches each exception
and answers at random.

  sdk_raiser.py always     every decision raises
  sdk_raiser.py sometimes  every second decision raises"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "sdk", "python"))
from arena_sdk import Bot, run  # noqa: E402

MODE = sys.argv.pop(1)


class Raiser(Bot):
    name = "raiser-" + MODE
    calls = 0

    def decide(self, view, options, pick):
        self.calls += 1
        if MODE == "always" or self.calls % 2 == 0:
            return options.index(view["hand"][0])
        return [0] if pick.min else []


sys.exit(run(Raiser))
