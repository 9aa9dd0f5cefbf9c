#!/usr/bin/python3
"""Hostile peers against the real `arena serve` (loopback only).

Usage: serve_attacks.py ARENA CASE — runs one named case, exits 0 on success.
Every case starts `arena serve nim`, attacks it, and then checks that real
players still join and play, and what the attackers were told."""
import json
import os
import resource
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time

import msgpack

ARENA = os.path.abspath(sys.argv[1])
BOTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "bots")
CLIENT = os.path.join(BOTS, "tcp_client.py")


def check(cond, what):
    if not cond:
        raise AssertionError(what)


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


class Serve:
    """`arena serve nim` with the given remote seats (token, name) and local agents."""

    def __init__(self, d, seats, local=(), extra=(), nofile=None):
        tokens = os.path.join(d, "tokens")
        with open(tokens, "w") as f:
            for tok, name in seats:
                f.write(f"{tok} {name}\n")
        self.port = free_port()
        self.p = subprocess.Popen([ARENA, "serve", "nim", "--listen", f"127.0.0.1:{self.port}",
                                   "--tokens", tokens, "--json", "--seed", "5", *local, *extra],
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                  preexec_fn=(lambda: resource.setrlimit(
                                      resource.RLIMIT_NOFILE, (nofile, nofile)))
                                  if nofile else None)
        # Read as it comes: a pipe left full would stall the referee's loop
        # on its next line of stderr (one per dropped connection).
        self._out = {}
        self._readers = [threading.Thread(target=self._read, args=(k, f), daemon=True)
                         for k, f in (("out", self.p.stdout), ("err", self.p.stderr))]
        for t in self._readers:
            t.start()
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:  # wait until it listens
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return
            except OSError:
                time.sleep(0.05)
        raise AssertionError("arena serve did not start listening")

    def connect(self, source="127.0.0.1"):
        s = socket.socket()
        s.bind((source, 0))
        s.connect(("127.0.0.1", self.port))
        return s

    def _read(self, key, f):
        lines = self._out.setdefault(key, [])
        for line in f:
            lines.append(line)


    def finish(self, timeout=60):
        self.p.wait(timeout=timeout)
        for t in self._readers:
            t.join(timeout=10)
        out, err = "".join(self._out.get("out", [])), "".join(self._out.get("err", []))
        games = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
        return self.p.returncode, games, err


def read_reply(s, timeout=10):
    """Everything the referee sends until it closes: (bytes, seconds)."""
    s.settimeout(timeout)
    t0 = time.monotonic()
    data = b""
    try:
        while True:
            chunk = s.recv(65536)
            if not chunk:
                break
            data += chunk
    except socket.timeout:
        raise AssertionError(f"no close within {timeout} s (got {data[:200]!r})")
    except ConnectionResetError:
        pass
    return data, time.monotonic() - t0


def error_of(data):
    """The `error` message in a reply (msgpack frame or JSON line)."""
    if data[:1] == b"{":
        msg = json.loads(data.split(b"\n")[0])
    else:
        check(len(data) >= 4, f"reply too short: {data!r}")
        n = struct.unpack(">I", data[:4])[0]
        msg = msgpack.unpackb(data[4:4 + n], raw=False)
    check(msg.get("type") == "error" and msg.get("code") == "protocol", f"not an error: {msg}")
    return msg["message"]


def players(port, tokens):
    return [subprocess.Popen([CLIENT, str(port), t], stdout=subprocess.PIPE, text=True)
            for t in tokens]


def played_to_the_end(srv, clients, what):
    rc, games, err = srv.finish()
    check(rc == 0, f"{what}: serve exit {rc}: {err[-2000:]}")
    check(len(games) == 1 and games[0]["reason"] == "normal", f"{what}: {games} {err[-2000:]}")
    for c in clients:
        out = c.communicate(timeout=20)[0]
        check(c.returncode == 0, f"{what}: a player did not finish: {out}")
    return err


def case_idle_connections_do_not_lock_out_players():
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = 1000
    limit = hard if hard != resource.RLIM_INFINITY else 65536
    resource.setrlimit(resource.RLIMIT_NOFILE, (limit, hard))
    n = min(want, limit - 200)
    if n < want:
        print(f"note: open-file hard limit {hard}: {n} idle connections, not {want}")
    with tempfile.TemporaryDirectory() as d:
        srv = Serve(d, [("tok-a", "alice"), ("tok-b", "bob")],
                    extra=["--startup-ms", "30000", "--join-timeout", "30000"])
        # Idle peers from many loopback networks (127.X.Y.1, a /24 each):
        # each stays under the per-network cap, together they are 1,000.
        idle = [srv.connect(f"127.{8 + i // 256}.{i % 256}.1") for i in range(n)]
        # ... and one address that tries to hold more than its share.
        greedy = [srv.connect("127.2.0.1") for _ in range(20)]
        time.sleep(0.5)
        t0 = time.monotonic()
        clients = players(srv.port, ["tok-a", "tok-b"])
        err = played_to_the_end(srv, clients, "players after 1,000 idle connections")
        took = time.monotonic() - t0
        check(took < 30, f"the game waited for the idle connections ({took:.1f} s)")
        evicted = [l for l in err.splitlines() if "connection from 127.2.0.1:" in l
                   and "wait to join; this was the oldest" in l]
        check(len(evicted) == 20 - 8, f"per-source cap (8): {len(evicted)} of the greedy "
              f"source's oldest gave way\n{err[-1500:]}")
        # The referee closed every idle connection once the games began.
        for s in idle[:: max(1, n // 50)] + greedy:
            data, _ = read_reply(s, timeout=10)
            s.close()
        for s in idle:
            s.close()


def case_idle_connections_expire_on_their_own():
    with tempfile.TemporaryDirectory() as d:
        srv = Serve(d, [("tok-a", "alice")], local=["builtin:random"],
                    extra=["--startup-ms", "500", "--join-timeout", "30000"])
        # More than a table of 64 would hold, from different networks; nothing
        # else happens on the server while they wait.
        idle = [srv.connect(f"127.4.{i}.1") for i in range(70)]
        for s in idle:
            data, secs = read_reply(s, timeout=15)
            check(data == b"", f"an idle connection is closed without a word: {data!r}")
            s.close()
        clients = players(srv.port, ["tok-a"])
        err = played_to_the_end(srv, clients, "after idle connections expired")
        expired = [l for l in err.splitlines() if "connection from 127.4." in l
                   and "no 'join' within startup_ms" in l]
        check(len(expired) == 70, f"one line per expired connection: {len(expired)}")


def case_full_table_drops_the_oldest_waiting():
    # With 150 open files the referee keeps at most 43 waiting connections:
    # 100 idle peers overflow it, and the players, arriving last, still play.
    with tempfile.TemporaryDirectory() as d:
        srv = Serve(d, [("tok-a", "alice"), ("tok-b", "bob")], nofile=150,
                    extra=["--startup-ms", "30000", "--join-timeout", "30000"])
        idle = [srv.connect(f"127.5.{i}.1") for i in range(100)]
        time.sleep(0.3)
        clients = players(srv.port, ["tok-a", "tok-b"])
        err = played_to_the_end(srv, clients, "players after the table overflowed")
        check("the open-file limit is 150: at most 43 connections" in err, err[:500])
        evicted = [l for l in err.splitlines() if "connection from 127.5." in l
                   and "this was the oldest" in l]
        check(len(evicted) >= 100 - 43, f"the oldest gave way: {len(evicted)}\n{err[-1500:]}")
        for s in idle:
            s.close()


def case_prejoin_big_frame_is_refused_quickly():
    with tempfile.TemporaryDirectory() as d:
        srv = Serve(d, [("tok-a", "alice")], local=["builtin:random"],
                    extra=["--join-timeout", "30000"])
        # A msgpack `join` of 1 MiB (legal size after a join, not before):
        # 120,000 keys that an anonymous peer must not make us decode.
        body = {"type": "join", "name": "big", "token": "wrong"}
        body.update({f"k{i:x}": 0 for i in range(120000)})
        payload = msgpack.packb(body)
        check(len(payload) < (1 << 20), "the frame is under the 1 MiB cap")
        line = b'{"type":"join","name":"' + b"x" * ((1 << 20) - 100) + b'"}\n'
        for frame in (struct.pack(">I", len(payload)) + payload, line):
            s = srv.connect()
            sender = threading.Thread(target=lambda: _send_quietly(s, frame))
            sender.start()
            data, secs = read_reply(s, timeout=10)
            sender.join(timeout=10)
            s.close()
            why = error_of(data)
            check("65536 bytes" in why, f"pre-join frame cap: {why}")
            check(secs < 5, f"refused after {secs:.1f} s")
        clients = players(srv.port, ["tok-a"])
        err = played_to_the_end(srv, clients, "after big pre-join frames")
        check(err.count("dropped: protocol error") >= 2, f"each refusal logged: {err}")


def _send_quietly(s, data):
    try:
        s.sendall(data)
    except OSError:
        pass  # the referee closed on us: expected


def case_garbage_and_early_messages_get_an_error():
    with tempfile.TemporaryDirectory() as d:
        srv = Serve(d, [("tok-a", "alice")], local=["builtin:random"],
                    extra=["--join-timeout", "30000"])
        attempts = [(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n", "bad first byte"),
                    (b'{"type":"ready"}\n', "not 'join'"),
                    (b'{"type": "join", "token": ]]\n', "invalid JSON"),
                    (b"\x00\x00\x00\x02\xc1\xc1", "0xc1")]
        for raw, want in attempts:
            s = srv.connect()
            s.sendall(raw)
            data, secs = read_reply(s, timeout=10)
            s.close()
            why = error_of(data)
            check(want in why, f"{raw!r}: error {why!r}, want {want!r}")
            check(secs < 5, f"{raw!r}: closed after {secs:.1f} s")
        clients = players(srv.port, ["tok-a"])
        err = played_to_the_end(srv, clients, "after garbage")
        dropped = [l for l in err.splitlines() if "connection from 127.0.0.1:" in l]
        check(len(dropped) >= 4, f"one line per dropped connection: {err}")


def join(srv, token, source="127.0.0.1"):
    s = srv.connect(source)
    s.sendall((json.dumps({"type": "join", "name": "x", "token": token}) + "\n").encode())
    data, _ = read_reply(s, timeout=10)
    s.close()
    return error_of(data)


def case_wrong_tokens_are_rate_limited():
    with tempfile.TemporaryDirectory() as d:
        srv = Serve(d, [("tok-a", "alice")], local=["builtin:random"],
                    extra=["--join-timeout", "30000"])
        answers = [join(srv, f"guess-{i}", "127.3.0.1") for i in range(8)]
        check(all("unknown token" in a for a in answers[:5]), f"first guesses: {answers}")
        check(all("too many failed joins" in a for a in answers[5:]), f"later: {answers}")
        # While limited even the right token is refused: guessing cannot win.
        check("too many failed joins" in join(srv, "tok-a", "127.3.0.1"), "limited source")
        # Another network is not affected (the limit holds for 127.3.0.0/24).
        check("unknown token" in join(srv, "nope", "127.3.1.2"), "other network")
        # The bucket refills with time (one attempt per 2 s).
        time.sleep(2.5)
        clients = [subprocess.Popen([CLIENT, str(srv.port), "tok-a"], stdout=subprocess.PIPE,
                                    text=True)]
        err = played_to_the_end(srv, clients, "after the bucket refilled")
        lines = [l for l in err.splitlines() if "connection from 127.3.0.1:" in l]
        check(len(lines) == 9, f"each refusal logged with its address: {lines}")


def case_a_shared_address_cannot_lock_out_a_player():
    """Entrants behind one address (an SSH tunnel, as protocol.md advises,
    or a NAT) share its limits. Bob, seated, then spends the address's
    failed-join credit and holds its eight waiting slots; Alice, from the
    same address, must still join with her strong token. The old referee
    refused her ("too many failed joins") or closed her connection at once,
    and she forfeited."""
    alice, bob = "alice-3f9c2a7e5d1b8c4e", "bob-8e1d4c7a2f6b9e3d"
    with tempfile.TemporaryDirectory() as d:
        srv = Serve(d, [(alice, "alice"), (bob, "bob")],
                    extra=["--startup-ms", "30000", "--join-timeout", "8000"])
        clients = players(srv.port, [bob])
        time.sleep(0.5)
        guesses = [join(srv, f"guess-{i}") for i in range(8)]
        check(any("too many failed joins" in g for g in guesses), f"not limited: {guesses}")
        held = [srv.connect() for _ in range(8)]
        time.sleep(0.2)
        clients += players(srv.port, [alice])
        played_to_the_end(srv, clients, "alice after bob locked the address")
        for s in held:
            s.close()


def _churn(port, first, n_addrs, keep, stop):
    """One attacking process: silent connections, each from the next of
    n_addrs loopback addresses, each in a /24 of its own (127.X.Y.1), as
    fast as it can; it keeps the latest `keep` open, closes older ones."""
    import collections
    resource.setrlimit(resource.RLIMIT_NOFILE, resource.getrlimit(resource.RLIMIT_NOFILE)[1:] * 2)
    held = collections.deque()
    i = 0
    while not stop.is_set():
        k = first + i % n_addrs
        i += 1
        s = socket.socket()
        s.setblocking(False)
        # The port is picked at connect, per destination: binds would use
        # up the ephemeral ports the player needs too.
        s.setsockopt(socket.IPPROTO_IP, 24, 1)  # IP_BIND_ADDRESS_NO_PORT
        try:
            s.bind((f"127.{40 + k // 256}.{k % 256}.1", 0))
            s.connect_ex(("127.0.0.1", port))
        except OSError:
            s.close()
            time.sleep(0.01)
            continue
        held.append(s)
        if len(held) > keep:
            old = held.popleft()
            # A reset, not a close: no TIME_WAIT holding a port.
            old.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            old.close()


def case_churn_cannot_drop_a_player():
    """Silent connections from 1,024 addresses (a per-source cap of 8
    would let 512 fill a 4,096-entry table) cycle the waiting table: were
    each new one to push out the oldest, faster than the referee reads a
    player's join, a player with a strong token would be dropped on every
    try. Its join must win its slot at the first try."""
    import multiprocessing
    alice = "alice-5b2e9d0c7a4f1e38"
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    with tempfile.TemporaryDirectory() as d:
        srv = Serve(d, [(alice, "alice")], local=["builtin:random"],
                    extra=["--startup-ms", "30000", "--join-timeout", "60000"])
        stop = multiprocessing.Event()
        churn = [multiprocessing.Process(target=_churn, args=(srv.port, 342 * j, 342, 6000, stop))
                 for j in range(3)]
        for p in churn:
            p.start()
        time.sleep(3)  # such a table would turn over within 2 s
        tries, t0 = [], time.monotonic()
        while time.monotonic() - t0 < 60:
            c = subprocess.Popen([CLIENT, str(srv.port), alice], stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True)
            try:
                out, cerr = c.communicate(timeout=20)
                out = out.strip() or cerr.strip().splitlines()[-1]
            except subprocess.TimeoutExpired:  # its connect not yet accepted
                c.kill()
                out = c.communicate()[0].strip() + " (still waiting after 20 s)"
            tries.append(out)
            if c.returncode == 0:
                break
        stop.set()
        for p in churn:
            p.join(timeout=10)
        rc, games, err = srv.finish()
        # The player connects from 127.0.0.1, the attackers from 127.40.0.1 on.
        attack = [l for l in err.splitlines() if "connection from 127.4" in l]
        pushed = sum(1 for l in attack if "this was the oldest" in l)
        lost = [l for l in err.splitlines() if "connection from 127.0.0.1:" in l
                and "this was the oldest" in l]
        print(f"tries: {tries}; the attack's connections: {len(attack)} closed, {pushed} of "
              f"them pushed out of the table; the player's connections pushed out: {lost}")
        check(len(attack) >= 5000, f"the attack made only {len(attack)} connections")
        check(not lost, f"the player's join lost its slot: {lost}")
        check(tries[-1].startswith("played"), f"the player's tries: {tries}")
        check(rc == 0 and len(games) == 1 and games[0]["reason"] == "normal",
              f"serve exit {rc}: {games} {err[-1500:]}")


def case_many_addresses_cannot_guess_a_weak_token():
    """Wrong joins from 1,000 addresses, each in a /24 of its own, guess a
    weak token (one of 1,000). The failed-join limit was per address, in
    a table of 256: with 1,000 addresses no limit held, the token was found
    and its seat taken. A global ceiling on failed joins stops the guessing
    long before; the seat's owner then joins."""
    weak = "w501"
    with tempfile.TemporaryDirectory() as d:
        srv = Serve(d, [(weak, "wendy")], local=["builtin:random"],
                    extra=["--startup-ms", "30000", "--join-timeout", "60000"])
        answers, won = [], None
        for i in range(1000):
            s = srv.connect(f"127.{60 + i // 256}.{i % 256}.1")
            tok = f"w{(i * 7 + 1) % 1000:03d}"  # every one of them, w501 at i = 500
            s.sendall((json.dumps({"type": "join", "name": "x", "token": tok}) + "\n").encode())
            s.settimeout(10)
            try:
                first = s.makefile("rb").readline()
            except OSError as e:
                raise AssertionError(f"guess {i} ({tok}): no answer: {e}; before: {answers[-3:]}")
            msg = json.loads(first) if first else {}
            if msg.get("type") == "hello":
                won = (i, tok)
                s.close()
                break
            answers.append(msg.get("message", ""))
            s.close()
        limited = sum(1 for a in answers if "too many failed joins" in a)
        print(f"{len(answers)} wrong guesses, {limited} of them refused by the limit; won: {won}")
        check(won is None, f"the attacker guessed the weak token: {won} (try, token)")
        check(limited >= 900, f"only {limited} of {len(answers)} guesses were limited")
        # The limit refills: the seat's owner joins a few seconds later.
        time.sleep(3)
        clients = players(srv.port, [weak])
        played_to_the_end(srv, clients, "the owner of the weak token after the guessing")


CASES = {k[5:]: v for k, v in globals().items() if k.startswith("case_")}

def _lo_up():
    import fcntl
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    flags = struct.unpack("16sH", fcntl.ioctl(s, 0x8913, struct.pack("16sH", b"lo", 0)))[1]
    fcntl.ioctl(s, 0x8914, struct.pack("16sH", b"lo", flags | 1))  # SIOCSIFFLAGS, IFF_UP
    s.close()


# Cases that flood the loopback with connections run in a network namespace
# of their own (and a user namespace to make one): their tens of thousands
# of connections use up no ports of the host's.
ALONE = {"churn_cannot_drop_a_player"}

if __name__ == "__main__":
    name = sys.argv[2]
    if name in ALONE and os.environ.get("SERVE_ATTACKS_NETNS") != "1":
        env = dict(os.environ, SERVE_ATTACKS_NETNS="1")
        sys.exit(subprocess.run(["unshare", "--user", "--map-root-user", "--net",
                                 sys.executable, os.path.abspath(__file__), *sys.argv[1:]],
                                env=env).returncode)
    if name in ALONE:
        _lo_up()
    t0 = time.monotonic()
    CASES[name]()
    print(f"ok {name} ({time.monotonic() - t0:.1f}s)")
