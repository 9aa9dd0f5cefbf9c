#!/usr/bin/python3
"""Unit tests of the Python SDK (sdk/python/arena_sdk), run in-process."""

import io
import os
import random
import struct
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "sdk", "python"))

import arena_sdk  # noqa: E402
from arena_sdk import (Bot, Clock, Options, Pick, normalize_choice, random_choice, games,  # noqa: E402
                       JsonCodec, MsgpackCodec, ProtocolError, play, Result)


class ScriptConn:
    """In-memory connection: replays messages, records what the bot sent."""

    def __init__(self, messages):
        self.inbox = list(messages)
        self.sent = []

    def send(self, msg):
        self.sent.append(msg)

    def recv(self):
        return self.inbox.pop(0) if self.inbox else None


def decide_msg(i, labels, pmin=1, pmax=1, view=None, events=None):
    return {"type": "decide", "id": i, "kind": "k", "prompt": "p",
            "options": [{"label": lab} for lab in labels],
            "pick": {"min": pmin, "max": pmax, "ordered": False}, "view": view or {},
            "events": events or [], "clock": {"move_ms": 100, "bank_ms": 1000, "game_ms": None}}


HELLO = {"type": "hello", "protocol": 1, "game": "nim", "options": {"stones": 5}, "seat": 1,
         "players": 2, "names": ["a", "b"], "match": "m1", "clock": {"move_ms": 100}}
OVER = {"type": "over", "result": {"ranks": [2, 1], "scores": [0, 1], "reason": "normal",
                                   "forfeits": []}, "view": {"stones": 0}}


class OptionsTest(unittest.TestCase):
    def setUp(self):
        self.o = Options([{"label": "buy:Silver"}, {"label": "buy:Province"},
                          {"label": "end-turn"}, {"label": "play:Smithy"}])

    def test_lookup(self):
        self.assertEqual(self.o.labels(), ["buy:Silver", "buy:Province", "end-turn", "play:Smithy"])
        self.assertEqual(self.o.find("end-turn"), 2)
        self.assertIsNone(self.o.find("buy:Gold"))
        self.assertTrue(self.o.has("play:Smithy"))
        self.assertEqual(self.o.index_of("buy:Province"), 1)
        with self.assertRaises(KeyError):
            self.o.index_of("buy:Gold")
        self.assertEqual(self.o.with_prefix("buy:"), [0, 1])
        self.assertEqual(self.o.by_prefix("buy:"), {"Silver": 0, "Province": 1})
        self.assertEqual(games.dominion.buys(self.o), {"Silver": 0, "Province": 1})
        self.assertEqual(games.dominion.plays(self.o), {"Smithy": 3})
        self.assertEqual(games.dominion.card("buy:Province"), "Province")
        self.assertIsNone(games.dominion.card("end-turn"))

    def test_game_helpers(self):
        self.assertEqual(games.split_label("buy:soldier:2:Bomber"), ["buy", "soldier", 2, "Bomber"])
        o = Options([{"label": "end"}, {"label": "buy:soldier:2:Bomber"}, {"label": "attack:ark"},
                     {"label": "buy:civilian:0:Farmer"}])
        self.assertEqual(games.xibalba.with_verb(o, "buy"),
                         [(1, ["soldier", 2, "Bomber"]), (3, ["civilian", 0, "Farmer"])])
        view = {"seat": 1, "coins": 5, "buys": 2, "players": [{"seat": 0}, {"seat": 1, "hand": ["Gold"]}],
                "symbols": [{"T": 9}, {"S": 2, "B": 1, "T": 1}],
                "idols": [{"name": "Resources", "owner": -1, "need": 3, "secured": False}]}
        self.assertEqual(games.dominion.coins(view), 5)
        self.assertEqual(games.dominion.buys_left(view), 2)
        self.assertEqual(games.dominion.hand(view), ["Gold"])
        self.assertEqual(games.pacifica.category_count(view, "Resources"), 3)
        self.assertEqual(games.pacifica.category_count(view, "Treasure", 0), 9)
        self.assertEqual(games.pacifica.idols(view)["Resources"]["need"], 3)
        cards = games.pacifica.cards({"card_list": ["K16 Knowledge red symbols=KMF discard=A",
                                                    "F01 Festival green symbols=F effect=draw:1"]})
        self.assertEqual(cards["K16"]["discard"], "A")
        self.assertEqual(cards["K16"]["symbols"], "KMF")
        self.assertEqual(cards["F01"]["effect"], "draw:1")
        self.assertEqual(cards["F01"]["activation"], "green")

    def test_normalize(self):
        one = Pick({"min": 1, "max": 1})
        self.assertEqual(normalize_choice(2, self.o, one), [2])
        self.assertEqual(normalize_choice("end-turn", self.o, one), [2])
        self.assertEqual(normalize_choice({"label": "buy:Silver"}, self.o, one), [0])
        two = Pick({"min": 0, "max": 2})
        self.assertEqual(normalize_choice(["buy:Province", 0], self.o, two), [1, 0])
        self.assertEqual(normalize_choice([], self.o, two), [])
        for bad, pick in [(None, one), (4, one), (-1, one), ([0, 1], one), ([0, 0], two),
                          ("nope", one), (True, one), (1.5, one), ([], one)]:
            with self.assertRaises((ValueError, KeyError), msg=repr(bad)):
                normalize_choice(bad, self.o, pick)

    def test_random_choice_is_legal_and_covers_range(self):
        rng = random.Random(7)
        pick = Pick({"min": 1, "max": 3, "ordered": True})
        sizes = set()
        for _ in range(300):
            c = random_choice(self.o, pick, rng)
            self.assertEqual(normalize_choice(c, self.o, pick), c)
            sizes.add(len(c))
        self.assertEqual(sizes, {1, 2, 3})
        # pick.max beyond the option count is clamped
        c = random_choice(Options([{"label": "x"}]), Pick({"min": 1, "max": 5}), rng)
        self.assertEqual(c, [0])


class ClockTest(unittest.TestCase):
    def test_budget(self):
        c = Clock({"move_ms": 100, "bank_ms": 1000, "game_ms": None}, now=10.0)
        self.assertEqual(c.limit_ms(), 1100)
        self.assertAlmostEqual(c.budget_ms(), 150 - 15)
        self.assertAlmostEqual(c.elapsed_ms(now=10.05), 50.0)
        self.assertAlmostEqual(c.remaining_ms(now=10.05), 85.0)
        self.assertFalse(c.expired(now=10.1))
        self.assertTrue(c.expired(now=10.2))

    def test_game_clock_caps(self):
        c = Clock({"move_ms": 100, "bank_ms": 1000, "game_ms": 40}, now=0.0)
        self.assertEqual(c.limit_ms(), 40)
        self.assertAlmostEqual(c.budget_ms(), 35)  # minimum margin 5 ms
        c = Clock({"move_ms": 0, "bank_ms": 0, "game_ms": None}, now=0.0)
        self.assertEqual(c.budget_ms(), 0)


class CodecTest(unittest.TestCase):
    MSG = {"type": "log", "text": "two\nlines \u00e9", "n": [1, -2, 1 << 40], "m": {"a": None}}

    def roundtrip(self, codec):
        data = codec.encode(self.MSG) + codec.encode({"type": "bye"})
        stream = io.BytesIO(data)
        self.assertEqual(codec.read(stream), self.MSG)
        self.assertEqual(codec.read(stream), {"type": "bye"})
        self.assertIsNone(codec.read(stream))

    def test_json(self):
        c = JsonCodec()
        enc = c.encode(self.MSG)
        self.assertEqual(enc[:1], b"{")
        self.assertEqual(enc.count(b"\n"), 1)
        self.roundtrip(c)
        with self.assertRaises(ProtocolError):
            c.read(io.BytesIO(b"[1,2]\n"))
        with self.assertRaises(ProtocolError):
            c.read(io.BytesIO(b"{nope\n"))

    def test_msgpack(self):
        self.assertTrue(arena_sdk.msgpack_available(), "Debian python3-msgpack should be installed")
        c = MsgpackCodec()
        enc = c.encode(self.MSG)
        self.assertEqual(struct.unpack(">I", enc[:4])[0], len(enc) - 4)
        self.assertEqual(enc[:1], b"\x00")
        self.roundtrip(c)
        with self.assertRaises(ProtocolError):
            c.read(io.BytesIO(struct.pack(">I", (1 << 20) + 1)))
        with self.assertRaises(ProtocolError):
            c.read(io.BytesIO(b"\x00\x00\x00\x05ab"))
        with self.assertRaises(ProtocolError):
            c.read(io.BytesIO(b"\x00\x00\x00\x01\x05"))  # an int, not a map
        self.assertEqual(arena_sdk.make_codec().name, "msgpack")
        self.assertEqual(arena_sdk.detect_codec(b"{").name, "json")
        self.assertEqual(arena_sdk.detect_codec(0).name, "msgpack")


class LoopTest(unittest.TestCase):
    def test_hooks_and_answers(self):
        calls = []

        class B(Bot):
            name = "hooky"
            version = "1.2"

            def on_game_start(self, game):
                calls.append(("start", game.name, game.seat, game.options["stones"]))

            def on_events(self, events):
                calls.append(("events", len(events)))

            def on_error(self, error):
                calls.append(("error", error["code"]))

            def decide(self, view, options, pick):
                calls.append(("decide", self.decision.kind, view["stones"], self.clock.move_ms))
                self.log("thinking")
                return options.labels()[-1]

            def on_game_end(self, result, view):
                calls.append(("end", result.rank, result.won, result.reason, view["stones"]))

        conn = ScriptConn([HELLO, decide_msg(1, ["stone:1", "stone:2"], 1, 2, {"stones": 5}, [{"t": 1}]),
                           {"type": "event", "events": [{"t": 2}, {"t": 3}]},
                           {"type": "error", "id": 1, "code": "illegal", "message": "x", "strikes_left": 1},
                           {"type": "whatever-new"},
                           decide_msg(2, ["stone:1"], view={"stones": 1}), OVER, {"type": "bye"},
                           decide_msg(3, ["never"])])
        self.assertEqual(play(B(), conn, token="t"), 1)
        self.assertEqual(conn.sent[0], {"type": "join", "name": "hooky", "version": "1.2", "token": "t"})
        self.assertEqual(conn.sent[1], {"type": "ready"})
        acts = [m for m in conn.sent if m["type"] == "act"]
        self.assertEqual(acts, [{"type": "act", "id": 1, "choice": [1]}, {"type": "act", "id": 2, "choice": [0]}])
        self.assertEqual([m["text"] for m in conn.sent if m["type"] == "log"], ["thinking", "thinking"])
        self.assertEqual(calls, [("start", "nim", 1, 5), ("events", 1), ("decide", "k", 5, 100),
                                 ("events", 2), ("error", "illegal"), ("decide", "k", 1, 100),
                                 ("end", 1, True, "normal", 0)])
        self.assertEqual(len(conn.inbox), 1, "the loop stops at bye")

    def test_exception_falls_back_to_random(self):
        class B(Bot):
            def decide(self, view, options, pick):
                raise RuntimeError("boom")

        conn = ScriptConn([HELLO, decide_msg(5, ["a", "b", "c"], 2, 2)])
        stderr, sys.stderr = sys.stderr, io.StringIO()
        try:
            play(B(), conn)
            printed = sys.stderr.getvalue()
        finally:
            sys.stderr = stderr
        self.assertEqual(conn.sent[0]["name"], "B")
        act = conn.sent[-1]
        self.assertEqual(act["type"], "act")
        self.assertEqual(len(set(act["choice"])), 2)
        self.assertTrue(any(m["type"] == "log" and "boom" in m["text"] for m in conn.sent))
        self.assertIn("RuntimeError: boom", printed)

    def test_on_game_start_exception_is_shown_and_play_goes_on(self):
        class B(Bot):
            def on_game_start(self, game):
                raise KeyError("no-such-card")

            def decide(self, view, options, pick):
                return 0

        conn = ScriptConn([HELLO, decide_msg(1, ["a"]), OVER, {"type": "bye"}])
        stderr, sys.stderr = sys.stderr, io.StringIO()
        try:
            self.assertEqual(play(B(), conn), 1)
            printed = sys.stderr.getvalue()
        finally:
            sys.stderr = stderr
        self.assertEqual([m["type"] for m in conn.sent if m["type"] != "log"],
                         ["join", "ready", "act"])
        self.assertTrue(any(m["type"] == "log" and "on_game_start" in m["text"]
                            and "no-such-card" in m["text"] for m in conn.sent))
        self.assertIn("on_game_start failed", printed)

    def test_protocol_error_ends_with_referee_error(self):
        conn = ScriptConn([{"type": "error", "code": "protocol", "message": "unknown token"}])
        with self.assertRaises(arena_sdk.RefereeError) as cm:
            play(Bot(), conn)
        self.assertIn("unknown token", str(cm.exception))

    def test_invalid_choice_raises_when_strict(self):
        class B(Bot):
            fallback_on_exception = False

            def decide(self, view, options, pick):
                return 7

        with self.assertRaises(ValueError):
            play(B(), ScriptConn([HELLO, decide_msg(1, ["a"])]))

    def test_result(self):
        r = Result({"ranks": [1, 1], "scores": [3, 3], "reason": "normal"}, 0)
        self.assertEqual(r.rank, 1)
        self.assertFalse(r.won)
        self.assertEqual(r.score, 3)


if __name__ == "__main__":
    unittest.main()
