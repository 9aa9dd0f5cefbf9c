#!/usr/bin/python3
"""A tcp: entrant whose host name resolves slowly stalls no other game.

For a `tcp:HOST:PORT` agent the referee looks HOST up. The lookup was a
blocking getaddrinfo on the one event loop that serves every match: an
entrant with a slow name server stalled every game in flight for as long
as its server took (3.3 s and 6.4 s were seen).

The test is hermetic: it runs in a user, mount and network namespace of its
own (unshare), where /etc/resolv.conf names a name server on its loopback,
a tiny one in this script that answers after a delay:

  slow.arena.test  after 1.5 s: the entrant's agent server (a random bot)
  late.arena.test  after 6 s, past the startup clock (3 s)

Through the real `arena tournament` (nim, two bots that take 20 ms a move
and record when each decide reaches them, and the two entrants, three games
at a time), every lookup must be covered by the other games' moves, without
a gap of half the shorter delay; the slow entrant plays its games, the late
one forfeits its games on its startup clock while the run goes on.

usage: slow_dns.py ARENA
"""
import json
import os
import random
import shutil
import socket
import sqlite3
import struct
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.abspath(__file__)
STARTUP_MS = 3000
DELAYS = {"slow.arena.test": 1.5, "late.arena.test": 6.0}
GAP = 0.75  # half the shorter delay


def check(cond, what):
    if not cond:
        with open("/proc/loadavg") as f:
            load = f.read().strip()
        raise AssertionError(f"{what} (load: {load})")


def bot(ticks):
    """An innocent bot: 20 ms a move, takes the first option, and appends
    the time (CLOCK_MONOTONIC, as this script's) each decide reaches it."""
    out = open(ticks, "a", buffering=1)

    def send(msg):
        sys.stdout.write(json.dumps(msg) + "\n")
        sys.stdout.flush()

    send({"type": "join", "name": "ticker"})
    for line in sys.stdin:
        msg = json.loads(line)
        if msg["type"] == "hello":
            send({"type": "ready"})
        elif msg["type"] == "decide":
            out.write(f"{time.monotonic()}\n")
            time.sleep(0.02)
            send({"type": "act", "id": msg["id"], "choice": [0]})
        elif msg["type"] == "bye":
            break


def lo_up():
    import fcntl
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    flags = struct.unpack("16sH", fcntl.ioctl(s, 0x8913, struct.pack("16sH", b"lo", 0)))[1]
    fcntl.ioctl(s, 0x8914, struct.pack("16sH", b"lo", flags | 1))  # SIOCSIFFLAGS, IFF_UP
    s.close()


def dns_server(lookups):
    """Answers A with 127.0.0.1 and AAAA with nothing, each after its
    name's delay; other names: NXDOMAIN at once. lookups gets (name, time
    of the first query)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sock.bind(("127.0.0.1", 53))

    def answer(data, peer, name, qtype, qend):
        delay = DELAYS.get(name)
        if delay is not None:
            time.sleep(delay)
        head = struct.pack(">HHHHHH", struct.unpack(">H", data[:2])[0],
                           0x8180 if delay is not None else 0x8183, 1,
                           1 if delay is not None and qtype == 1 else 0, 0, 0)
        reply = head + data[12:qend]
        if delay is not None and qtype == 1:
            reply += struct.pack(">HHHIH", 0xC00C, 1, 1, 60, 4) + socket.inet_aton("127.0.0.1")
        sock.sendto(reply, peer)

    while True:
        data, peer = sock.recvfrom(512)
        labels, i = [], 12
        while data[i]:
            labels.append(data[i + 1:i + 1 + data[i]].decode())
            i += 1 + data[i]
        name = ".".join(labels).lower()
        (qtype,) = struct.unpack(">H", data[i + 1:i + 3])
        if name in DELAYS and qtype == 1:
            lookups.append((name, time.monotonic()))
        threading.Thread(target=answer, args=(data, peer, name, qtype, i + 5),
                         daemon=True).start()


def agent_server(srv):
    """The entrants' agent server: a JSON random bot on every connection."""
    def play(conn):
        rng = random.Random(4)
        f = conn.makefile("rwb")

        def send(msg):
            f.write((json.dumps(msg) + "\n").encode())
            f.flush()

        try:
            send({"type": "join", "name": "tcp-random"})
            for line in f:
                msg = json.loads(line)
                if msg["type"] == "hello":
                    send({"type": "ready"})
                elif msg["type"] == "decide":
                    k = rng.randint(msg["pick"]["min"], msg["pick"]["max"])
                    send({"type": "act", "id": msg["id"],
                          "choice": rng.sample(range(len(msg["options"])), k)})
                elif msg["type"] == "bye":
                    break
        except OSError:
            pass
        conn.close()

    while True:
        conn, _ = srv.accept()
        threading.Thread(target=play, args=(conn,), daemon=True).start()


def inside(arena, tmp):
    lo_up()
    lookups = []
    threading.Thread(target=dns_server, args=(lookups,), daemon=True).start()
    srv = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    srv.bind(("127.0.0.1", 0))
    srv.listen(16)
    port = srv.getsockname()[1]
    threading.Thread(target=agent_server, args=(srv,), daemon=True).start()
    ticks = os.path.join(tmp, "ticks")
    db, logs = os.path.join(tmp, "t.sqlite"), os.path.join(tmp, "logs")
    ticker = f"cmd:/usr/bin/python3 -S {HERE} bot {ticks}"
    cmd = [arena, "tournament", "--game", "nim", "--set", "stones=240",
           "--agent", f"t1={ticker}", "--agent", f"t2={ticker}",
           "--agent", f"slow=tcp:slow.arena.test:{port}",
           "--agent", f"late=tcp:late.arena.test:{port}", "--games-per-pairing", "2",
           "--concurrency", "3", "--startup-ms", str(STARTUP_MS), "--db", db,
           "--logs", logs, "--quiet"]
    t0 = time.monotonic()
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=150)
    print(f"$ {' '.join(cmd)}\nexit {r.returncode} in {time.monotonic() - t0:.1f} s\n"
          f"{r.stdout}{r.stderr}")
    check(r.returncode >= 0 and "AddressSanitizer" not in r.stderr
          and "runtime error" not in r.stderr, "arena crashed or a sanitizer spoke")
    check(r.returncode == 0, f"the run stopped (exit {r.returncode})")
    con = sqlite3.connect(db)
    names = [n for (n,) in con.execute("SELECT name FROM agents ORDER BY id")]
    games = con.execute("SELECT id, seats, done, forfeits FROM games ORDER BY id").fetchall()
    con.close()
    print("games:", games)
    check(all(done for _, _, done, _ in games), f"every game is scored: {games}")
    with open(ticks) as f:
        times = sorted(float(x) for x in f)
    check(lookups, "no lookup reached the name server")
    covered = set()
    for name, t in lookups:
        # the lookup until its answer, or until the startup clock gave up
        end = t + min(DELAYS[name], STARTUP_MS / 1000)
        inner = [x for x in times if t <= x <= end]
        edges = [t] + inner + [end]
        gap = max(b - a for a, b in zip(edges, edges[1:]))
        # Other games were in flight throughout when some move comes later
        # (a stalled loop moves them again once the lookup ends).
        flowing = times and times[-1] > end
        print(f"{name}: looked up at {t - t0:.2f} s for {end - t:.1f} s; "
              f"{len(inner)} decides reached the other bots meanwhile, longest gap {gap:.2f} s"
              + ("" if flowing else " (no other game after it)"))
        if flowing:
            covered.add(name)
            check(gap < GAP, f"the other games stood still {gap:.2f} s while {name} was looked up")
    check(covered == set(DELAYS), f"other games ran through lookups of only {covered}")
    slow, late = names.index("slow"), names.index("late")
    for g, seats, _, forfeits in games:
        seats = [int(x) for x in seats.split(",")]
        causes = forfeits.split(",") if forfeits else [""] * len(seats)
        if late in seats:
            cause = causes[seats.index(late)]
            check(cause == "timeout", f"game {g}: the late entrant's cause {cause!r}")
        if slow in seats and late not in seats:
            check(not any(causes), f"game {g}: the slow entrant plays: {forfeits!r}")
    print("ok")


def main():
    if sys.argv[1] == "bot":
        return bot(sys.argv[2])
    arena = os.path.abspath(sys.argv[1])
    if len(sys.argv) > 2:  # in the namespaces, with resolv.conf bound
        return inside(arena, sys.argv[2])
    tmp = tempfile.mkdtemp(prefix="slow-dns-")
    try:
        conf = os.path.join(tmp, "resolv.conf")
        with open(conf, "w") as f:
            f.write("nameserver 127.0.0.1\noptions timeout:30 attempts:1\n")
        r = subprocess.run(
            ["unshare", "--user", "--map-root-user", "--mount", "--net", "sh", "-c",
             'mount --bind "$1" /etc/resolv.conf && exec /usr/bin/python3 "$2" "$3" "$4"',
             "sh", conf, HERE, arena, tmp], timeout=200)
        return r.returncode
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


sys.exit(main())
