"""A local clock helper.

The referee measures time, never the agent; this helper only lets a bot
budget its own thinking. It starts when the SDK has read a ``decide`` message,
so it already counts the time spent decoding it; the referee started its own
clock a little earlier (when it wrote the last byte), hence the safety margin.
"""

import time


class Clock:
    def __init__(self, info=None, mode="wall", now=None):
        self.mode = mode
        self.move_ms = 0
        self.bank_ms = 0
        self.game_ms = None
        self.started = time.monotonic()
        if info is not None:
            self.start(info, now)

    def start(self, info, now=None):
        """Restart for a new decision from its ``clock`` map."""
        self.started = time.monotonic() if now is None else now
        info = info or {}
        self.move_ms = int(info.get("move_ms") or 0)
        self.bank_ms = int(info.get("bank_ms") or 0)
        game = info.get("game_ms")
        self.game_ms = None if game is None else int(game)

    def elapsed_ms(self, now=None):
        """Milliseconds since this decision arrived."""
        now = time.monotonic() if now is None else now
        return (now - self.started) * 1000.0

    def limit_ms(self):
        """Time after which this decision has timed out (move + bank, capped by
        what is left of the game clock)."""
        limit = self.move_ms + self.bank_ms
        if self.game_ms is not None:
            limit = min(limit, self.game_ms)
        return limit

    def budget_ms(self, bank_share=0.05, safety=0.1, min_safety_ms=5.0):
        """A sensible time to spend on this decision: the per-move allowance
        plus a small share of the bank, never beyond the game clock, minus a
        safety margin (``safety`` of it, at least ``min_safety_ms``)."""
        budget = self.move_ms + bank_share * self.bank_ms
        budget = min(budget, self.limit_ms())
        margin = max(min_safety_ms, safety * budget)
        return max(0.0, budget - margin)

    def remaining_ms(self, now=None, **budget_args):
        """What is left of :meth:`budget_ms` (negative once spent)."""
        return self.budget_ms(**budget_args) - self.elapsed_ms(now)

    def expired(self, now=None, **budget_args):
        """True once :meth:`budget_ms` is spent: time to answer."""
        return self.remaining_ms(now, **budget_args) <= 0

    def __repr__(self):
        return "Clock(move_ms=%d, bank_ms=%d, game_ms=%r, elapsed=%.1fms)" % (
            self.move_ms, self.bank_ms, self.game_ms, self.elapsed_ms())
