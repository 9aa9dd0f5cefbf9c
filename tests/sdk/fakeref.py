"""A tiny scripted referee for the SDK unit tests: speaks the Arena protocol
over a bot's pipes (or a socket) in either codec, and checks every answer."""

import json
import os
import select
import signal
import struct
import subprocess
import sys
import time

try:
    import msgpack
except ImportError:  # the tests that need it say so
    msgpack = None


class Fail(Exception):
    pass


def check(cond, what):
    if not cond:
        raise Fail(what)


class Channel:
    """Byte channel over a pipe pair or a socket, with a read deadline."""

    def __init__(self, rfd, wfd, timeout=10.0):
        self.rfd, self.wfd, self.timeout = rfd, wfd, timeout
        self.buf = b""

    def _fill(self):
        deadline = time.monotonic() + self.timeout
        while True:
            left = deadline - time.monotonic()
            check(left > 0, "timed out waiting for the bot")
            r, _, _ = select.select([self.rfd], [], [], left)
            if r:
                data = os.read(self.rfd, 65536)
                if not data:
                    return False
                self.buf += data
                return True

    def read_exact(self, n):
        while len(self.buf) < n:
            if not self._fill():
                return None
        out, self.buf = self.buf[:n], self.buf[n:]
        return out

    def read_line(self):
        while b"\n" not in self.buf:
            if not self._fill():
                return None
        line, _, self.buf = self.buf.partition(b"\n")
        return line

    def write(self, data):
        view = memoryview(data)
        while view:
            n = os.write(self.wfd, view)
            view = view[n:]


class FakeReferee:
    def __init__(self, channel):
        self.ch = channel
        self.codec = None
        self.logs = []
        self.sent_ids = 0

    def recv(self, allow_log=True):
        """Next message that is not a `log` (those are collected)."""
        while True:
            if self.codec is None:
                first = self.ch.read_exact(1)
                check(first is not None, "bot closed before sending anything")
                self.codec = "json" if first == b"{" else "msgpack" if first == b"\x00" else None
                check(self.codec is not None, "first byte %r is neither { nor 0x00" % first)
                self.ch.buf = first + self.ch.buf
            if self.codec == "json":
                line = self.ch.read_line()
                if line is None:
                    return None
                check(b"\r" not in line, "carriage return in a JSON frame")
                msg = json.loads(line.decode("utf-8"))
            else:
                head = self.ch.read_exact(4)
                if head is None:
                    return None
                (n,) = struct.unpack(">I", head)
                check(n <= 1 << 20, "frame too large")
                body = self.ch.read_exact(n)
                check(body is not None, "truncated msgpack frame")
                msg = msgpack.unpackb(body, raw=False)
            check(isinstance(msg, dict) and isinstance(msg.get("type"), str), "message without type: %r" % (msg,))
            if msg["type"] == "log" and allow_log:
                check(isinstance(msg.get("text"), str), "log without text")
                self.logs.append(msg["text"])
                continue
            return msg

    def send(self, msg):
        if self.codec == "json":
            self.ch.write(json.dumps(msg).encode("utf-8") + b"\n")
        else:
            body = msgpack.packb(msg, use_bin_type=True)
            self.ch.write(struct.pack(">I", len(body)) + body)

    def expect(self, mtype):
        msg = self.recv()
        check(msg is not None, "bot closed the stream, expected %s" % mtype)
        check(msg["type"] == mtype, "expected %s, got %r" % (mtype, msg))
        return msg

    def join(self):
        msg = self.expect("join")
        check(isinstance(msg.get("name"), str) and msg["name"], "join without a name")
        return msg

    def hello(self, game="nim", seat=0, players=2, options=None, clock=None):
        self.send({"type": "hello", "protocol": 1, "game": game, "options": options or {},
                   "seat": seat, "players": players,
                   "names": ["bot%d" % i for i in range(players)], "match": "m-test",
                   "clock": clock or {"move_ms": 1000, "bank_ms": 5000, "game_ms": None,
                                      "startup_ms": 5000, "mode": "wall"}})
        self.expect("ready")

    def decide(self, kind, labels, view, pick_min=1, pick_max=1, ordered=False, events=None,
               prompt="choose", extra=None):
        """Sends one decision, returns the validated answer as a list of indices."""
        self.sent_ids += 1
        did = self.sent_ids
        msg = {"type": "decide", "id": did, "kind": kind, "prompt": prompt,
               "options": [{"label": lab} for lab in labels],
               "pick": {"min": pick_min, "max": pick_max, "ordered": ordered},
               "view": view, "events": events or [],
               "clock": {"move_ms": 1000, "bank_ms": 5000, "game_ms": None}}
        if extra:
            msg.update(extra)
        self.send(msg)
        ans = self.expect("act")
        check(ans.get("id") == did, "act id %r, expected %r" % (ans.get("id"), did))
        choice = ans.get("choice")
        if isinstance(choice, int) and not isinstance(choice, bool):
            check(pick_max == 1, "a bare int answer needs pick.max == 1")
            choice = [choice]
        check(isinstance(choice, list), "choice is not a list: %r" % (choice,))
        check(all(isinstance(c, int) and not isinstance(c, bool) for c in choice), "non-int in choice")
        check(pick_min <= len(choice) <= pick_max, "choice %r breaks pick %d..%d" % (choice, pick_min, pick_max))
        check(len(set(choice)) == len(choice), "repeated index in %r" % (choice,))
        check(all(0 <= c < len(labels) for c in choice), "index out of range in %r" % (choice,))
        return choice

    def over(self, ranks, scores, view=None, reason="normal"):
        self.send({"type": "over", "result": {"ranks": ranks, "scores": scores, "reason": reason,
                                              "forfeits": []}, "view": view or {}})

    def bye(self):
        self.send({"type": "bye"})


def play_nim(ref, games=2, seat=0):
    """A scripted nim exchange: the bot always moves; checks every answer."""
    for g in range(games):
        ref.hello("nim", seat=seat, players=2, options={"stones": 7, "max_take": 3})
        stones = 7
        turn = 0
        while stones > 0:
            k = min(3, stones)
            labels = ["stone:%d" % (i + 1) for i in range(k)]
            view = {"stones": stones, "max_take": 3, "to_move": seat, "taken": [0, 0], "secret": 42}
            events = [{"type": "take", "seat": 1 - seat, "n": 1, "left": stones}] if turn else []
            if turn == 1:
                # things a bot must tolerate between decisions
                ref.send({"type": "event", "events": [{"type": "note"}]})
                ref.send({"type": "future-message-type", "x": 1})
            choice = ref.decide("take", labels, view, 1, k, False, events,
                                prompt="%d stones left" % stones)
            stones -= len(choice)
            turn += 1
        ref.over([1, 2], [1, 0], {"stones": 0})


def spawn(cmd, env=None):
    return subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=env, start_new_session=True)


def finish(proc, timeout=10.0):
    """Closes stdin, waits for exit, returns (rc, stderr text)."""
    try:
        proc.stdin.close()
    except OSError:
        pass
    try:
        rc = proc.wait(timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        raise Fail("bot did not exit after bye")
    err = proc.stderr.read().decode("utf-8", "replace")
    return rc, err


def pipe_referee(proc, timeout=10.0):
    return FakeReferee(Channel(proc.stdout.fileno(), proc.stdin.fileno(), timeout))


def socket_referee(sock, timeout=10.0):
    return FakeReferee(Channel(sock.fileno(), sock.fileno(), timeout))


def main_wrapper(fn):
    try:
        fn()
    except Fail as e:
        print("FAIL:", e)
        sys.exit(1)
    print("ok")
