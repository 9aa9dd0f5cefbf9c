#!/usr/bin/python3
"""Spectator twin test: what a live spectator is sent depends only on
public information, on the wire. usage: spectator_twins.py ARENA TWIN_PROBE
GAME... (of dominion, pacifica, xibalba; meson runs all three. A board
cut where the game next stops, not at its turn mark, fails the Dominion
pair at board 3: Treasures played in one twin, an Action decision in the
other)

Method. For Dominion, Pacifica and Xibalba, two runs of the real `arena
tournament --http` play twin games A and B (tests/testgame/twin.c, as
twins.py makes them) that differ only in hidden information: in B one
hidden Estate of seat 0 is a Village (village=0), seat 0 draws another
first card (hand=0), or the soldier deck's 2nd card lies deep down
(deck=soldier:2). Both runs have the same schedule (two games, seats
rotated, side by side) on different master seeds, which the twin games do
not use. The agents (gated_bot.py) choose from what they receive, so the
twins play the same public moves; they hold their `ready` until the test
has opened every game's /live/ID/events stream (and /live/ID/omniscient,
under --spectator-delay 3600), and answer each decide 110 ms late so that
every turn gets its own board (the front sends at most ten a second).

twin-probe spectator replays the two logs and finds the first board whose
public events (EVENTS_SPECTATOR) or result differ, from the game's events,
never from public_view. Up to that board the two spectator streams must be
byte-identical, with nothing masked: the same game ids, turns, views and
events. Every board of the game comes, one per turn, from the second (the
start's board is built before anybody can watch). The twins' public
information must differ somewhere in the Pacifica and Xibalba pairs (so the
comparison stops for a reason), and where it does, the boards must differ.

Nothing any spectator page or stream sent while the games ran (/live,
/api/live, /live/ID, /api/live/ID, both streams) holds a seed in decimal or
hex (the master seeds, the games' seeds, the real games' seed); the
omniscient stream sends no board before its game ends; Pacifica's two
first cards of seat 0 (hidden, each in its own twin) are not named before
the board where the public information differs.
"""
import gzip
import json
import os
import random
import re
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "web"))
from children import fail, procs  # noqa: E402
import http_get  # noqa: E402

ARENA, PROBE = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
GAMES = sys.argv[3:]
PY = "/usr/bin/python3"
BOT = os.path.join(HERE, "gated_bot.py")
PACE_MS = 110
CLOCK = ["--move-ms", "20000", "--startup-ms", "60000"]
DOMINION = ["kingdom=Village,Festival,Market,Laboratory,Cellar,Chapel,Workshop,Woodcutter,"
            "Smithy,Gardens", "max_turns=8"]
CASES = [  # game, settings of both, B's own, agent name, public info must differ
    ("dominion", DOMINION, ["village=0"], "passive", False),
    ("pacifica", [], ["hand=0"], "keeper7-", False),
    ("xibalba", ["max_rounds=12"], ["deck=soldier:2"], "rec", True),
]


def check(cond, what):
    if not cond:
        fail(what)


def seed_forms(seed):
    return {str(seed), format(seed, "x"), format(seed, "X"), format(seed, "016x")}


def request(addr, path):
    return http_get.get(addr, path, timeout=30)



class Stream(threading.Thread):
    """One SSE stream, read whole until the server closes it."""

    def __init__(self, addr, path):
        super().__init__(daemon=True)
        self.sock = socket.create_connection(addr, timeout=120)
        self.sock.sendall(("GET %s HTTP/1.1\r\nHost: x\r\n\r\n" % path).encode())
        self.data = b""
        self.start()

    def run(self):
        try:
            while True:
                c = self.sock.recv(65536)
                if not c:
                    break
                self.data += c
        except OSError:
            pass

    def messages(self):
        """The SSE messages (event: NAME / data: ...), raw bytes each."""
        head, _, body = self.data.partition(b"\r\n\r\n")
        check(b"text/event-stream" in head, "not an event stream: %r" % head)
        body = http_get.unchunk(head, body)
        check(body.startswith(b"retry: "), "the stream does not open with retry: %r" % body[:80])
        # each message from its event line (the first one follows `retry:`)
        return [m[m.index(b"event: "):] for m in body.split(b"\n\n") if b"event: " in m]


def run_twin(d, tag, game, sets, name):
    """One tournament of twin games with --http, watched from the start:
    its streams, everything else the spectator pages sent, its games."""
    gate = os.path.join(d, tag + ".gate")
    db, logs = os.path.join(d, tag + ".db"), os.path.join(d, tag + ".logs")
    master = random.randrange(1 << 50, 1 << 53)
    agents = []
    for a in "ab":
        agents += ["--agent", "%s=cmd:%s -S -E %s %s %d %s" % (a, PY, BOT, gate, PACE_MS, name)]
    args = [ARENA, "tournament", "--game", "twin", *agents, "--games-per-pairing", "2",
            "--concurrency", "2", "--seed", str(master), "--db", db, "--logs", logs,
            "--quiet", "--http", "127.0.0.1:0", "--spectator-delay", "3600", *CLOCK]
    for kv in sets:
        args += ["--set", kv]
    run = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    procs.append(run)
    err, addr = [], []

    def read_err():
        for line in run.stderr:
            err.append(line)
            m = re.search(rb"serving on http://([0-9.]+):(\d+)/", line)
            if m and not addr:
                addr.append((m.group(1).decode(), int(m.group(2))))

    threading.Thread(target=read_err, daemon=True).start()
    end = time.time() + 30
    while not addr and time.time() < end and run.poll() is None:
        time.sleep(0.05)
    check(addr, "%s: no address on stderr: %r" % (tag, err))
    addr = addr[0]
    pages = []  # every byte the spectator pages sent
    end = time.time() + 30
    while True:
        code, head, body, raw = request(addr, "/api/live")
        pages.append(raw)
        games = json.loads(body)["games"]
        if len(games) == 2 or time.time() > end:
            break
        time.sleep(0.05)
    check(len(games) == 2, "%s: the two games are not both in progress: %r" % (tag, games))
    ids = sorted(g["id"] for g in games)
    streams = {i: Stream(addr, "/live/%d/events" % i) for i in ids}
    omni = {i: Stream(addr, "/live/%d/omniscient" % i) for i in ids}
    end = time.time() + 60  # both streams of each game open on the server before a move
    while True:
        code, head, body, raw = request(addr, "/api/live")
        pages.append(raw)
        games = json.loads(body)["games"]
        if all(g["spectators"] == 2 for g in games) or time.time() > end:
            break
        time.sleep(0.05)
    check(len(games) == 2 and all(g["spectators"] == 2 for g in games),
          "%s: the streams are not open: %r" % (tag, games))
    for path in ["/live"] + ["/live/%d" % i for i in ids]:
        code, _, _, raw = request(addr, path)
        check(code == 200, "%s: %s answers %d" % (tag, path, code))
        pages.append(raw)
    open(gate, "w").close()
    while run.poll() is None:  # /api/live/ID while the game goes on
        for i in ids:
            try:
                code, _, _, raw = request(addr, "/api/live/%d" % i)
            except OSError:
                break
            if code == 200:
                pages.append(raw)
        time.sleep(0.5)
    check(run.wait() == 0, "%s: tournament exit %d: %s" % (tag, run.returncode, b"".join(err)))
    for s in list(streams.values()) + list(omni.values()):
        s.join(timeout=30)
    con = sqlite3.connect(db)
    rows = con.execute("SELECT id, seed, seats, log FROM games ORDER BY id").fetchall()
    con.close()
    check([r[0] for r in rows] == ids, "%s: games %r, watched %r" % (tag, rows, ids))
    seeds = [master] + [r[1] & ((1 << 64) - 1) for r in rows]
    return {r[0]: (r[2], r[3], streams[r[0]].messages(), omni[r[0]]) for r in rows}, pages, seeds


def board_turn(msg):
    return json.loads(msg.split(b"\ndata: ", 1)[1])["turn"]


def own_first_card(log, seat):
    """The card a seat's first own draw event names, from its messages in
    the log (hidden from the others: twin.c hand=H)."""
    with gzip.open(log, "rt") as f:
        for line in f:
            r = json.loads(line)
            if r.get("type") != "msg" or r.get("seat") != seat or r.get("dir") != "out":
                continue
            for e in (r.get("msg") or {}).get("events") or []:
                if e.get("type") == "draw" and e.get("seat") == seat and "card" in e:
                    return e["card"]
    return None


def dealt(game, sets):
    """Whether twin.c takes these settings (a Village needs a hidden Estate)."""
    p = subprocess.run([ARENA, "play", "twin", "builtin:random", "builtin:random",
                        "--set", "max_turns=1"] + [x for kv in sets for x in ("--set", kv)],
                       capture_output=True, text=True, timeout=60)
    check(p.returncode == 0 or "no hidden Estate" in p.stderr, "%s: %s" % (game, p.stderr))
    return p.returncode == 0


def compare(game, sets_a, sets_b, name, must_differ):
    inner = random.randrange(1 << 50, 1 << 53)
    # The deal with both twins' settings: a fixed kingdom draws from the rng
    # before the decks are shuffled, so it changes the deal.
    while game == "dominion" and not dealt(game, ["game=dominion", "seed=%d" % inner] + sets_a +
                                           sets_b):
        inner = random.randrange(1 << 50, 1 << 53)
    base = ["game=" + game, "seed=%d" % inner] + sets_a
    with tempfile.TemporaryDirectory() as d:
        with ThreadPoolExecutor(2) as ex:
            fa = ex.submit(run_twin, d, game + "-A", game, base, name)
            fb = ex.submit(run_twin, d, game + "-B", game, base + sets_b, name)
            (ga, pages_a, seeds_a), (gb, pages_b, seeds_b) = fa.result(), fb.result()
        secret = seeds_a + seeds_b + [inner]
        everything = b"".join(pages_a + pages_b)
        compared, apart = 0, 0
        for gid in sorted(ga):
            seats, log_a, ma, omni_a = ga[gid]
            seats_b, log_b, mb, omni_b = gb[gid]
            what = "%s game %d (seats %s)" % (game, gid, seats)
            check(seats == seats_b, "%s: the twins' schedules differ" % what)
            p = subprocess.run([PROBE, "spectator", log_a, log_b], capture_output=True,
                               text=True, timeout=120)
            check(p.returncode == 0, "twin-probe: %s" % p.stderr)
            first, n_boards = map(int, p.stdout.split())
            for o in (omni_a, omni_b):
                check(b"event: board" not in o.data,
                      "%s: an omniscient board before the end: %r" % (what, o.data[-300:]))
            for m in (ma, mb):
                check(m and m[0].startswith(b"event: seats") and m[-1].startswith(b"event: end"),
                      "%s: the stream is not seats .. end: %r" % (what, m[:1] + m[-1:]))
                turns = [board_turn(x) for x in m if x.startswith(b"event: board")]
                check(turns[:1] == [2] and turns == list(range(2, 2 + len(turns))),
                      "%s: not every board from the first move on: turns %r" % (what, turns))
            check(len([x for x in ma if x.startswith(b"event: board")]) == n_boards - 1,
                  "%s: twin-probe counts %d boards, the stream %d" % (what, n_boards, len(ma)))
            # The messages before board `first` (all of them when none differs).
            cut = [len(m) if first < 0 else
                   next((i for i, x in enumerate(m) if x.startswith(b"event: board") and
                         board_turn(x) >= first), len(m)) for m in (ma, mb)]
            pa, pb = ma[:cut[0]], mb[:cut[1]]
            for i, (x, y) in enumerate(zip(pa, pb)):
                check(x == y, "%s: spectator message %d differs between the twins before the "
                              "public information does (board %d):\n  A %s\n  B %s"
                      % (what, i, first, x[:2000], y[:2000]))
            check(len(pa) == len(pb), "%s: %d vs %d messages before board %d" %
                  (what, len(pa), len(pb), first))
            if first < 0:
                check(len(ma) == len(mb), "%s: the streams' lengths differ" % what)
            else:
                apart += 1
                check(cut[0] < len(ma) and cut[1] < len(mb) and ma[cut[0]] != mb[cut[1]],
                      "%s: board %d's public events differ, its messages not" % (what, first))
            if game == "pacifica":
                seat0 = seats.split(",")[0]
                cards = {own_first_card(log_a, 0), own_first_card(log_b, 0)}
                check(len(cards) == 2 and None not in cards,
                      "%s: seat 0 (agent %s) drew %r first in the twins" % (what, seat0, cards))
                for c in cards:
                    check(not any(b'"%s"' % c.encode() in x for x in pa + pb),
                          "%s: hidden card %s named before board %d" % (what, c, first))
            everything += b"".join(ma + mb) + omni_a.data + omni_b.data
            compared += len(pa)
            print("%s: %d of %d boards alike, the first to differ: %s" %
                  (what, sum(x.startswith(b"event: board") for x in pa), n_boards - 1,
                   first if first > 0 else "none"), flush=True)
        check(apart or not must_differ, "%s: the twins' public information never differs: "
                                        "the twins are not twins" % game)
        text = everything.decode("utf-8", "replace")
        for s in secret:
            for form in seed_forms(s):
                check(form not in text, "%s: a spectator was sent seed %d as '%s'" %
                      (game, s, form))
        return compared, len(everything)


def main():
    total, nbytes = 0, 0
    cases = [c for c in CASES if c[0] in GAMES]
    check(len(cases) == len(GAMES), "games: %s, of %s" % (GAMES, [c[0] for c in CASES]))
    with ThreadPoolExecutor(len(cases)) as ex:
        for c, n in ex.map(lambda c: compare(*c), cases):
            total, nbytes = total + c, nbytes + n
    print("ok: %d spectator messages alike between twins; %d bytes to spectators, no seed" %
          (total, nbytes))


if __name__ == "__main__":
    main()
