"""Typed helpers per game: option labels and view keys by name.

Each helper works on the ``options`` (an :class:`arena_sdk.Options`) and
``view`` (a dict) handed to ``decide``. See docs/games/*.md for every
decision kind, label and view key.
"""


def split_label(label):
    """'buy:soldier:2:Bomber' -> ['buy', 'soldier', 2, 'Bomber']: the label's
    colon-separated fields, whole numbers as ints."""
    return [int(f) if f.isdigit() else f for f in str(label).split(":")]


class nim:
    """The hidden test game: take 1..max_take stones (pick that many options)."""

    KIND = "take"

    @staticmethod
    def take(options, n):
        """Answer taking ``n`` stones (clamped to what the pick allows)."""
        n = max(1, min(n, len(options)))
        return list(range(n))


class dominion:
    """Dominion: action phase (kind "action": ``play:<Card>`` and
    ``end-actions``) and buy phase (kind "buy": ``buy:<Card>`` and
    ``end-turn``)."""

    ACTION = "action"
    BUY = "buy"
    END_ACTIONS = "end-actions"
    END_TURN = "end-turn"

    @staticmethod
    def card(label):
        """'buy:Province' -> 'Province'; None for labels without a card."""
        if not isinstance(label, str) or ":" not in label:
            return None
        return label.split(":", 1)[1]

    @staticmethod
    def buys(options):
        """{card name: option index} of the buy options."""
        return options.by_prefix("buy:")

    @staticmethod
    def plays(options):
        """{card name: option index} of the play options."""
        return options.by_prefix("play:")

    # view keys (docs/games/dominion.md)
    @staticmethod
    def coins(view):
        """Coins available now (treasures are played for you at the buy phase)."""
        return int(view.get("coins", 0))

    @staticmethod
    def buys_left(view):
        return int(view.get("buys", 0))

    @staticmethod
    def actions_left(view):
        return int(view.get("actions", 0))

    @staticmethod
    def me(view):
        """This seat's entry of ``view["players"]`` (hand, in_play, sizes...)."""
        seat = view.get("seat")
        for p in view.get("players", []):
            if p.get("seat") == seat:
                return p
        return {}

    @staticmethod
    def hand(view):
        """Card names in this seat's hand."""
        return list(dominion.me(view).get("hand", []))

    @staticmethod
    def supply(view):
        """{card name: cards left in its pile}."""
        return dict(view.get("supply", {}))


class pacifica:
    """Pacifica. Main action (kind "action"): ``draw:<Category>``,
    ``play:<card id>``, ``activate`` or ``end``; inside a step: ``activate:<id>``,
    ``done``, ``discard:<id>``, ``skip``, ``search:<Category>``, ``take:<id>``,
    ``copy:<id>``. Every decision picks exactly one option."""

    ACTION = "action"
    CATEGORIES = ("Treasure", "Population", "Resources", "Architecture", "Knowledge",
                  "Machines", "Festival")
    # symbol letters (view["symbols"][seat]) that count for each category
    CATEGORY_LETTERS = {"Treasure": "T", "Population": "P", "Resources": "SB",
                        "Architecture": "A", "Knowledge": "K", "Machines": "M",
                        "Festival": "F"}

    @staticmethod
    def draws(options):
        """{category: option index} of the ``draw:`` options."""
        return options.by_prefix("draw:")

    @staticmethod
    def plays(options):
        """{card id: option index} of the ``play:`` options."""
        return options.by_prefix("play:")

    @staticmethod
    def category_count(view, category, seat=None):
        """Active symbols a seat has toward a category's idol."""
        seat = view.get("seat") if seat is None else seat
        syms = (view.get("symbols") or [{}] * 2)[seat] or {}
        return sum(int(syms.get(ch, 0)) for ch in pacifica.CATEGORY_LETTERS.get(category, ""))

    @staticmethod
    def idols(view):
        """{idol name: its map (owner, need, secured)}."""
        return {i.get("name"): i for i in view.get("idols", [])}

    @staticmethod
    def parse_card_line(line):
        """One ``card_list`` line of the game options (``T09 Treasure grey
        symbols=TT need=P``) -> dict id, category, activation, symbols, need,
        discard, effect."""
        parts = line.split()
        card = {"id": parts[0], "category": parts[1] if len(parts) > 1 else None,
                "activation": parts[2] if len(parts) > 2 else None,
                "symbols": "", "need": "", "discard": "", "effect": None}
        for p in parts[3:]:
            key, _, val = p.partition("=")
            if key in card:
                card[key] = val
        return card

    @staticmethod
    def cards(game_options):
        """{card id: parsed card} from the ``card_list`` game option (empty if absent)."""
        out = {}
        for line in (game_options or {}).get("card_list", []) or []:
            if isinstance(line, str) and line.strip():
                c = pacifica.parse_card_line(line)
                out[c["id"]] = c
        return out


class xibalba:
    """Xibalba: labels are colon-separated fields, e.g. ``buy:soldier:2:Bomber``,
    ``attack:ark``, ``keep:3:res2``, ``end`` (docs/games/xibalba.md)."""

    KINDS = ("effect_order", "dice_pool", "dice_effect_order", "keep", "action",
             "attack_dice", "block", "destroy", "place", "reorganize")

    @staticmethod
    def with_verb(options, verb):
        """[(index, fields after the verb)] of the options whose first field is
        ``verb``: ``with_verb(options, "buy")`` -> ``[(4, ['soldier', 2, 'Bomber'])]``."""
        out = []
        for i, label in enumerate(options.labels()):
            fields = split_label(label)
            if fields and fields[0] == verb:
                out.append((i, fields[1:]))
        return out
