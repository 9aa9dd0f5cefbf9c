#!/usr/bin/env python3
"""Regenerates tests/fuzz/corpus/: seed streams for the frame decoder fuzz
target, valid and invalid, in both codecs. Needs python3-msgpack.

usage: tests/fuzz/make-corpus.py [OUT_DIR]"""
import json
import os
import struct
import sys

import msgpack

OUT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "corpus")

CLOCK = {"move_ms": 1000, "bank_ms": 9000, "game_ms": None}
MESSAGES = {
    "hello": {"type": "hello", "protocol": 1, "game": "dominion",
              "options": {"kingdom": ["Smithy", "Moat"]}, "seat": 0, "players": 2,
              "names": ["a", "b"], "match": "m1",
              "clock": dict(CLOCK, startup_ms=5000, mode="wall")},
    "decide": {"type": "decide", "id": 7, "kind": "buy", "prompt": "Buy a card",
               "options": [{"label": "buy:Smithy", "cost": 4}, {"label": "pass"}],
               "pick": {"min": 1, "max": 1, "ordered": False},
               "view": {"hand": ["Copper", "Copper"], "coins": 2, "r": 0.5},
               "events": [{"type": "draw", "seat": 0, "n": 5}], "clock": CLOCK},
    "event": {"type": "event", "events": [{"type": "buy", "seat": 1, "card": "Silver"}]},
    "over": {"type": "over", "result": {"ranks": [1, 2], "scores": [30, 12],
                                        "reason": "forfeit",
                                        "forfeits": [{"seat": 1, "cause": "timeout"}]},
             "view": {}},
    "error": {"type": "error", "id": 7, "code": "illegal", "message": "index 9 out of range",
              "strikes_left": 2},
    "bye": {"type": "bye"},
    "join": {"type": "join", "name": "bot", "version": "1", "token": "t0k"},
    "ready": {"type": "ready"},
    "act": {"type": "act", "id": 7, "choice": [0]},
    "act-int": {"type": "act", "id": 7, "choice": 1},
    "log": {"type": "log", "text": "line with \"quotes\" and \u00e9"},
}


def mp_frame(obj=None, raw=None):
    body = raw if raw is not None else msgpack.packb(obj, use_bin_type=True)
    return struct.pack(">I", len(body)) + body


def js_line(obj):
    return (json.dumps(obj, separators=(",", ":"), ensure_ascii=False) + "\n").encode()


def write(name, data):
    with open(os.path.join(OUT, name), "wb") as f:
        f.write(data)


def main():
    os.makedirs(OUT, exist_ok=True)
    for k, m in MESSAGES.items():
        write(f"mp-{k}", mp_frame(m))
        write(f"json-{k}", js_line(m))
    conv = ["join", "hello", "ready", "decide", "act", "log", "over", "bye"]
    write("mp-conversation", b"".join(mp_frame(MESSAGES[k]) for k in conv))
    write("json-conversation",
          b"\n\r\n".join(js_line(MESSAGES[k]).rstrip(b"\n") for k in conv) + b"\r\n\n")

    # invalid msgpack streams
    write("bad-mp-oversize", struct.pack(">I", (1 << 20) + 1) + b"\x80")
    write("bad-mp-empty-frame", struct.pack(">I", 0))
    write("bad-mp-c1", mp_frame(raw=b"\xc1"))
    write("bad-mp-ext", mp_frame(raw=b"\x81\xa1t\xd4\x01\x02"))
    write("bad-mp-int-key", mp_frame(raw=b"\x81\x01\x02"))
    write("bad-mp-trailing", mp_frame(raw=b"\x80\x00\x00"))
    write("bad-mp-top-list", mp_frame([1, 2]))
    write("bad-mp-truncated", mp_frame(raw=b"\x82\xa4type\xa3act"))
    write("bad-mp-huge-count", mp_frame(raw=b"\x81\xa1t\xdd\xff\xff\xff\xff"))
    write("bad-mp-nul-key", mp_frame(raw=b"\x81\xa2t\x00\xc0"))
    deep = {"type": "log", "text": "x"}
    for _ in range(40):
        deep = {"d": deep}
    write("bad-mp-deep", mp_frame(deep))
    write("mp-bigint", mp_frame({"type": "act", "id": 2**64 - 1, "choice": [2**63]}))
    write("mp-bin-and-float32", mp_frame(raw=b"\x83\xa4type\xa3log\xa4text\xc4\x02hi\xa1f\xca\x3f\x80\x00\x00"))

    # invalid or odd JSON streams
    write("bad-first-byte", b"hello\n")
    write("bad-json-syntax", b'{"type": }\n')
    write("bad-json-top-list", b"[1,2,3]\n")
    write("bad-json-trailing", b'{"type":"bye"} x\n')
    write("bad-json-utf8", b'{"type":"log","text":"\xff"}\n')
    write("bad-json-no-newline", b'{"type":"log","text":"' + b"a" * 200)
    write("json-bigint", b'{"type":"act","id":99999999999999999999,"choice":[-9223372036854775809]}\n')
    write("json-escapes", b'{"type":"log","text":"\\u0000\\n\\ud83c\\udca1\\"\\\\"}\n')
    write("bad-json-deep", b'{"type":"log","x":' + b"[" * 40 + b"]" * 40 + b"}\n")
    write("bad-decide-no-label", js_line(dict(MESSAGES["decide"], options=[{"x": 1}])))
    write("bad-unknown-type", js_line({"type": "dance"}))
    # a NaN float32 (found by libFuzzer): trees with it must compare by bits,
    # since a NaN is not equal to itself
    write("log-with-nan-float", mp_frame(raw=b"\x83\xa4type\xa3log\xa4text\xc4\x02hi"
                                             b"\xa1f\xca\xff\xff\xff\xff") + b"\xff\xff\x00e?\x00\x00\x00")


if __name__ == "__main__":
    main()
