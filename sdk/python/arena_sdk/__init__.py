"""Arena bot SDK for Python (standard library only; msgpack when installed).

    from arena_sdk import Bot, run

    class MyBot(Bot):
        def decide(self, view, options, pick):
            return 0          # an option index, a label, or a list of them

    if __name__ == "__main__":
        run(MyBot)
"""

from .bot import (Bot, Options, Pick, Decision, Game, Result, Connection, RefereeError,
                  random_choice, normalize_choice, play, run, argument_parser, PROTOCOL_VERSION)
from .clock import Clock
from .codec import (JsonCodec, MsgpackCodec, ProtocolError, make_codec, detect_codec,
                    msgpack_available)
from . import games

__version__ = "0.1.0"

__all__ = ["Bot", "Options", "Pick", "Decision", "Game", "Result", "Connection", "Clock",
           "RefereeError",
           "random_choice", "normalize_choice", "play", "run", "argument_parser",
           "JsonCodec", "MsgpackCodec", "ProtocolError", "make_codec", "detect_codec",
           "msgpack_available", "games", "PROTOCOL_VERSION"]
