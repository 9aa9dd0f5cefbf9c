"""The bot base class and the protocol loop.

A bot is a class with ``decide(view, options, pick) -> choice``. The SDK
sends ``join``, answers every ``hello`` with ``ready``, calls ``decide`` for
every ``decide`` message, reports ``over``, and exits on ``bye`` or when the
referee closes the connection.
"""

import argparse
import os
import random
import socket
import sys
import threading
import traceback

from .clock import Clock
from .codec import make_codec, detect_codec, ProtocolError

PROTOCOL_VERSION = 1


class Options(list):
    """The option list of one decision: a list of maps, each with ``label``."""

    def labels(self):
        return [o.get("label") for o in self]

    def find(self, label):
        """Index of the option with exactly this label, or None."""
        for i, o in enumerate(self):
            if o.get("label") == label:
                return i
        return None

    def index_of(self, label):
        """Index of the option with exactly this label; KeyError if absent."""
        i = self.find(label)
        if i is None:
            raise KeyError("no option labelled %r (have: %s)" % (label, ", ".join(map(str, self.labels()))))
        return i

    def has(self, label):
        return self.find(label) is not None

    def with_prefix(self, prefix):
        """Indices of the options whose label starts with ``prefix``."""
        return [i for i, o in enumerate(self) if str(o.get("label", "")).startswith(prefix)]

    def by_prefix(self, prefix):
        """{rest of label: index} for labels starting with ``prefix``:
        ``options.by_prefix("buy:")`` -> ``{"Silver": 2, "Province": 5}``."""
        out = {}
        for i, o in enumerate(self):
            label = str(o.get("label", ""))
            if label.startswith(prefix):
                out.setdefault(label[len(prefix):], i)
        return out


class Pick:
    """How many option indices an answer holds: ``min``..``max`` distinct
    indices; ``ordered`` says whether their order matters."""

    __slots__ = ("min", "max", "ordered")

    def __init__(self, info=None):
        info = info or {}
        self.min = int(info.get("min", 1))
        self.max = int(info.get("max", 1))
        self.ordered = bool(info.get("ordered", False))

    def __repr__(self):
        return "Pick(min=%d, max=%d, ordered=%s)" % (self.min, self.max, self.ordered)


class Decision:
    """Everything one ``decide`` message carried."""

    def __init__(self, msg, clock=None):
        self.id = msg.get("id")
        self.kind = msg.get("kind")
        self.prompt = msg.get("prompt", "")
        self.options = Options(msg.get("options") or [])
        self.pick = Pick(msg.get("pick"))
        self.view = msg.get("view") or {}
        self.events = msg.get("events") or []
        self.clock = clock if clock is not None else Clock()
        self.clock.start(msg.get("clock"))
        self.raw = msg


class Game:
    """What ``hello`` said about the game that starts."""

    def __init__(self, msg):
        self.protocol = msg.get("protocol")
        self.name = msg.get("game")
        self.options = msg.get("options") or {}
        self.seat = msg.get("seat")
        self.players = msg.get("players")
        self.names = msg.get("names") or []
        self.match = msg.get("match")
        self.clock = msg.get("clock") or {}
        self.raw = msg


class Result:
    """What ``over`` said, seen from this seat."""

    def __init__(self, result, seat):
        result = result or {}
        self.ranks = result.get("ranks") or []
        self.scores = result.get("scores") or []
        self.reason = result.get("reason")
        self.forfeits = result.get("forfeits") or []
        self.seat = seat
        self.raw = result

    @property
    def rank(self):
        if self.seat is None or self.seat >= len(self.ranks):
            return None
        return self.ranks[self.seat]

    @property
    def score(self):
        if self.seat is None or self.seat >= len(self.scores):
            return None
        return self.scores[self.seat]

    @property
    def won(self):
        """True when this seat ranked first alone."""
        r = self.rank
        return r == 1 and self.ranks.count(1) == 1


def random_choice(options, pick, rng=random):
    """A uniformly random legal answer: a count in [min, max], then that many
    distinct indices in random order."""
    n = len(options)
    hi = min(pick.max, n)
    lo = min(max(pick.min, 0), hi)
    k = rng.randint(lo, hi)
    return rng.sample(range(n), k)


def normalize_choice(choice, options, pick):
    """Turns what ``decide`` returned into a list of option indices and checks
    it. Accepted: an index, a label, an option map, or a list of those."""
    if choice is None:
        raise ValueError("decide returned None")
    items = list(choice) if isinstance(choice, (list, tuple)) else [choice]
    out = []
    for c in items:
        if isinstance(c, bool):
            raise ValueError("a choice item cannot be a bool: %r" % (c,))
        if isinstance(c, int):
            i = c
        elif isinstance(c, str):
            i = options.index_of(c)
        elif isinstance(c, dict) and "label" in c:
            i = options.index_of(c["label"])
        else:
            raise ValueError("cannot turn %r into an option index" % (c,))
        if not 0 <= i < len(options):
            raise ValueError("option index %d out of range 0..%d" % (i, len(options) - 1))
        out.append(i)
    if len(set(out)) != len(out):
        raise ValueError("option indices repeat: %r" % (out,))
    if not pick.min <= len(out) <= pick.max:
        raise ValueError("%d indices picked, the decision wants %d..%d" % (len(out), pick.min, pick.max))
    return out


class Bot:
    """Subclass and override :meth:`decide`; every hook is optional.

    Attributes the SDK sets: ``game`` (a :class:`Game`, at each ``hello``),
    ``decision`` (the current :class:`Decision`), ``clock`` (a :class:`Clock`
    for the current decision), ``rng`` (a ``random.Random``; seeded by
    ``--seed``). One bot object plays every game of its connection in turn,
    so reset per-game state in :meth:`on_game_start`.
    """

    name = None  # defaults to the class name
    version = None
    author = None
    # When decide raises or returns an invalid choice: True -> print the
    # traceback to stderr, send it as a log line, and answer randomly;
    # False -> let the exception end the program (the seat forfeits).
    fallback_on_exception = True

    def __init__(self):
        self.game = None
        self.decision = None
        self.clock = Clock()
        self.rng = random.Random()
        self._conn = None

    # ---- hooks -----------------------------------------------------------
    def on_game_start(self, game):
        """Called at ``hello``, before ``ready`` is sent."""

    def decide(self, view, options, pick):
        """Returns the choice: an option index, a label, or a list of them."""
        raise NotImplementedError("override Bot.decide")

    def on_events(self, events):
        """Called with the events carried by ``decide`` and ``event``."""

    def on_error(self, error):
        """Called when the referee rejected an answer (an ``error`` map)."""

    def on_game_end(self, result, view):
        """Called at ``over`` with a :class:`Result` and the final view."""

    # ---- helpers ---------------------------------------------------------
    def log(self, text):
        """Stores a debug line in the match log (shown by ``arena replay``)."""
        if self._conn is not None:
            self._conn.send({"type": "log", "text": str(text)})

    def random_choice(self, options, pick):
        return random_choice(options, pick, self.rng)


class Connection:
    def __init__(self, rfile, wfile, codec):
        self.rfile = rfile
        self.wfile = wfile
        self.codec = codec
        self.lock = threading.Lock()

    def send(self, msg):
        data = self.codec.encode(msg)
        with self.lock:
            self.wfile.write(data)
            self.wfile.flush()

    def recv(self):
        return self.codec.read(self.rfile)


def _decide(bot, msg):
    d = Decision(msg, bot.clock)
    bot.decision = d
    if d.events:
        bot.on_events(d.events)
    try:
        choice = bot.decide(d.view, d.options, d.pick)
        return normalize_choice(choice, d.options, d.pick)
    except Exception:
        if not bot.fallback_on_exception:
            raise
        text = traceback.format_exc()
        sys.stderr.write("[arena_sdk] decide failed, answering at random:\n" + text)
        sys.stderr.flush()
        bot.log("decide failed, answered at random: " + text.strip().splitlines()[-1])
        return random_choice(d.options, d.pick, bot.rng)


class RefereeError(Exception):
    """The referee ended the connection with a protocol ``error`` (for
    example ``unknown token``); ``run`` prints it and exits with status 1
    (raises ``SystemExit(1)``)."""


def _guarded(bot, hook, fn, *args):
    """Calls a hook; with ``fallback_on_exception`` an exception is shown on
    stderr and in the match log instead of ending the program."""
    try:
        return fn(*args)
    except Exception:
        if not bot.fallback_on_exception:
            raise
        text = traceback.format_exc()
        sys.stderr.write("[arena_sdk] %s failed, going on:\n%s" % (hook, text))
        sys.stderr.flush()
        bot.log("%s failed: %s" % (hook, text.strip().splitlines()[-1]))
        return None


def play(bot, conn, token=None):
    """Runs one connection to its end. Returns the number of games played."""
    bot._conn = conn
    join = {"type": "join", "name": bot.name or type(bot).__name__}
    if bot.version is not None:
        join["version"] = str(bot.version)
    if bot.author is not None:
        join["author"] = str(bot.author)
    if token is not None:
        join["token"] = token
    conn.send(join)
    games = 0
    while True:
        msg = conn.recv()
        if msg is None:  # the referee closed the connection
            break
        t = msg.get("type")
        if t == "hello":
            if msg.get("protocol") not in (None, PROTOCOL_VERSION):
                sys.stderr.write("[arena_sdk] referee speaks protocol %r, this SDK %d\n"
                                 % (msg.get("protocol"), PROTOCOL_VERSION))
            bot.game = Game(msg)
            _guarded(bot, "on_game_start", bot.on_game_start, bot.game)
            conn.send({"type": "ready"})
        elif t == "decide":
            choice = _decide(bot, msg)
            conn.send({"type": "act", "id": msg.get("id"), "choice": choice})
        elif t == "event":
            bot.on_events(msg.get("events") or [])
        elif t == "error":
            bot.on_error(msg)
            if msg.get("code") == "protocol":  # a refused join, or a fatal break
                raise RefereeError(str(msg.get("message") or "(no message)"))
        elif t == "over":
            games += 1
            seat = bot.game.seat if bot.game is not None else None
            bot.on_game_end(Result(msg.get("result"), seat), msg.get("view") or {})
        elif t == "bye":
            break
        # unknown types are ignored (forward compatibility)
    return games


def _stdio_connection(codec):
    """Protocol over stdin/stdout. fd 1 is kept for the protocol and the
    Python-level stdout (print) is pointed at stderr, which the referee stores
    in the match log, so a stray print cannot break the stream."""
    proto_out = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    return Connection(sys.stdin.buffer, proto_out, codec)


def _split_hostport(text):
    host, sep, port = text.rpartition(":")
    if not sep or not port.isdigit():
        raise SystemExit("expected HOST:PORT, got %r" % text)
    return host.strip("[]") or "127.0.0.1", int(port)


def _socket_connection(sock, codec):
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return Connection(sock.makefile("rb"), sock.makefile("wb"), codec)


def _make_bot(factory, args):
    bot = factory()
    if args.name:
        bot.name = args.name
    if args.seed is not None:
        bot.rng.seed(args.seed)
    return bot


def argument_parser(description=None):
    p = argparse.ArgumentParser(description=description)
    g = p.add_mutually_exclusive_group()
    g.add_argument("--json", dest="codec", action="store_const", const="json",
                   help="speak JSON lines")
    g.add_argument("--msgpack", dest="codec", action="store_const", const="msgpack",
                   help="speak length-prefixed msgpack (default when installed)")
    p.add_argument("--tcp", "--connect", dest="tcp", metavar="HOST:PORT",
                   help="connect to a referee listening for agents (needs --token)")
    p.add_argument("--token", default=os.environ.get("ARENA_TOKEN"),
                   help="token for --tcp (default: $ARENA_TOKEN)")
    p.add_argument("--serve", metavar="HOST:PORT",
                   help="wait for referees to dial in (agent spec tcp:HOST:PORT)")
    p.add_argument("--name", help="name sent in join")
    p.add_argument("--seed", type=int, help="seed of the bot's random generator")
    return p


def run(factory, argv=None, description=None):
    """Entry point of a bot program: ``run(MyBot)``.

    Flags: ``--json``/``--msgpack`` pick the codec (default msgpack when the
    module is installed); ``--tcp HOST:PORT --token T`` connects to a
    referee; ``--serve HOST:PORT`` accepts referee connections, one fresh
    bot per connection; otherwise the bot talks over stdin/stdout. Unknown
    flags are left in ``bot.args_extra`` for the bot to read.

    When the referee ends the connection with a protocol ``error`` (a
    refused token, say), ``run`` prints it and exits with status 1 by itself,
    as the JS SDK's ``run`` does: a bare ``run(MyBot)`` is enough. Otherwise
    it returns 0, so ``sys.exit(run(MyBot))`` works as well.
    """
    parser = argument_parser(description or (factory.__doc__ or "").strip().split("\n")[0] or None)
    args, extra = parser.parse_known_args(argv)
    codec_name = args.codec

    def new_bot():
        bot = _make_bot(factory, args)
        bot.args_extra = extra
        return bot

    if args.serve:
        host, port = _split_hostport(args.serve)
        srv = socket.create_server((host, port), reuse_port=False)
        sys.stderr.write("[arena_sdk] serving on %s:%d\n" % srv.getsockname()[:2])
        sys.stderr.flush()

        def handle(sock):
            try:
                play(new_bot(), _socket_connection(sock, make_codec(codec_name)))
            except (OSError, ProtocolError, RefereeError) as e:
                sys.stderr.write("[arena_sdk] connection ended: %s\n" % e)
            finally:
                sock.close()

        try:
            while True:
                sock, _ = srv.accept()
                threading.Thread(target=handle, args=(sock,), daemon=True).start()
        except KeyboardInterrupt:
            return 0

    if args.tcp:
        host, port = _split_hostport(args.tcp)
        sock = socket.create_connection((host, port))
        conn = _socket_connection(sock, make_codec(codec_name))
        try:
            play(new_bot(), conn, token=args.token)
        except RefereeError as e:
            return _refused(e)
        finally:
            sock.close()
        return 0

    conn = _stdio_connection(make_codec(codec_name))
    try:
        play(new_bot(), conn)
    except RefereeError as e:
        return _refused(e)
    return 0


def _refused(e):
    """Says why on stderr and exits 1: a bot whose `run` result is dropped
    (a bare ``run(MyBot)``) must not exit 0 when it never played."""
    sys.stderr.write("[arena_sdk] the referee ended the connection: %s\n" % e)
    sys.stderr.flush()
    raise SystemExit(1)


__all__ = ["Bot", "Options", "Pick", "Decision", "Game", "Result", "Connection", "RefereeError",
           "random_choice", "normalize_choice", "play", "run", "argument_parser",
           "detect_codec", "PROTOCOL_VERSION"]
