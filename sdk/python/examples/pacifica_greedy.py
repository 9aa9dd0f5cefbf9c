#!/usr/bin/python3
"""Greedy Pacifica bot: always moves toward the idol it is closest to.

Each category is valued by how few active symbols are still missing for its
next idol level; a card is worth the values of the symbols it shows. The bot
activates whenever it can, plays its most valuable card, otherwise draws from
the most promising stack, and ends only when nothing else is left. Sub-steps
(which card to activate, discard, take) follow the same values.
"""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.realpath(__file__)), ".."))

from arena_sdk import Bot, run  # noqa: E402
from arena_sdk.games import pacifica  # noqa: E402

LETTER_CATEGORY = {ch: cat for cat, letters in pacifica.CATEGORY_LETTERS.items() for ch in letters}
ID_CATEGORY = {"T": "Treasure", "P": "Population", "R": "Resources", "A": "Architecture",
               "K": "Knowledge", "M": "Machines", "F": "Festival"}


class GreedyPacifica(Bot):
    name = "greedy-pacifica-py"

    def on_game_start(self, game):
        self.cards = pacifica.cards(game.options)

    # ---- valuation ------------------------------------------------------
    def category_values(self, view):
        seat = view.get("seat")
        idols = pacifica.idols(view)
        values = {}
        for cat in pacifica.CATEGORIES:
            idol = idols.get(cat, {})
            if idol.get("secured"):
                values[cat] = 0.1
                continue
            need = int(idol.get("need", 3) or 3)
            gap = max(need - pacifica.category_count(view, cat, seat), 0)
            values[cat] = 1.0 / (1 + gap)
        return values

    def card_value(self, card_id, values):
        card = self.cards.get(card_id)
        if card is None:  # no card list in the game options: guess from the id
            cat = ID_CATEGORY.get(str(card_id)[:1])
            return values.get(cat, 0.2)
        v = sum(values.get(LETTER_CATEGORY.get(ch), 0.0) for ch in card["symbols"])
        if card["activation"] == "green":
            v *= 1.5  # active at once
        elif card["activation"] == "red":
            v *= 0.7  # costs discards
        return v + (0.3 if card.get("effect") else 0.0)

    def best(self, by_key, score):
        """Option index of the highest-scoring key of {key: index}."""
        return by_key[max(by_key, key=lambda k: (score(k), -by_key[k]))]

    # ---- decisions --------------------------------------------------------
    def decide(self, view, options, pick):
        values = self.category_values(view)
        card_score = lambda cid: self.card_value(cid, values)  # noqa: E731
        draws = pacifica.draws(options)
        draw_score = lambda cat: values.get(cat, 0.0)  # noqa: E731
        kind = self.decision.kind

        if kind == pacifica.ACTION:
            if options.has("activate"):
                return "activate"
            plays = pacifica.plays(options)
            if plays:
                return self.best(plays, card_score)
            if draws:
                return self.best(draws, draw_score)
            if options.has("end"):
                return "end"
        for prefix, score in (("activate:", card_score), ("take:", card_score),
                              ("copy:", card_score), ("search:", draw_score)):
            found = options.by_prefix(prefix)
            if found:
                return self.best(found, score)
        discards = options.by_prefix("discard:")
        if discards:
            return self.best(discards, lambda cid: -card_score(cid))
        if draws:
            return self.best(draws, draw_score)
        return self.random_choice(options, pick)


if __name__ == "__main__":
    sys.exit(run(GreedyPacifica))
