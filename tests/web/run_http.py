#!/usr/bin/python3
"""The web front served by a run (--http) where the other web tests do not
look: a PostgreSQL ladder whose games `arena worker`s play, a resumed SPRT,
and spectators that never read.

usage: run_http.py CASE ARENA WORKDIR [RANDOM_C]
CASE:
  pg-ladder    `arena ladder run postgresql://...#NAME --concurrency 0 --http`
               (a real PostgreSQL server the test starts, tests/pg/pgserver.py)
               with two `arena worker`s: `/`, `/api/standings` and `/events`
               follow the games the workers finish (the ranked count rises
               and /events carries it at least 8 times by 30 games: every
               poll, not only every 5 s); `/live` and `/api/live` answer,
               `running`, and list only the validation games the run plays
               itself: the workers' games are not on the coordinator's loop
               (docs/web.md says so).
  sprt-resume  an SPRT stopped by SIGINT, resumed with `--resume DB --http`:
               its standings (kind sprt, `running`), settings (elo0, elo1) and
               `/events` serve, and the finished count rises while it plays.
  slow-readers spectators that connect with a small receive buffer (SO_RCVBUF
               4 KiB) and never read. A board stream: a tournament of two
               games of nim (100,000 stones, random-c bots: boards of some
               20 KB ten times a second) with --http; 16 silent streams on the
               second game's /live/ID/events (the first warms the run's memory
               up). /events: a gauntlet of a slow bot against 59 built-in ones
               with long names, 59,000 games, ended by SIGINT once its
               streams are checked (standings events of some 13 KB, from two
               a second to one in three as the store grows and its snapshot
               takes longer); 16 silent streams. Each time /api/live's
               `dropped` counts the 16 (the cap is 256 KiB a stream) and each
               silent stream reads to its end (EOF) at last; a reading
               spectator keeps getting boards (standings) after the drops; the
               watched game ends normally and no game of either run is
               forfeited; the referee's RSS grows by at most 1.5 times the cap
               a silent board stream (plus 2 MiB). Prints the memory per silent spectator."""
import json
import os
import re
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time

case, arena, work = sys.argv[1], os.path.abspath(sys.argv[2]), os.path.abspath(sys.argv[3])
random_c = os.path.abspath(sys.argv[4]) if len(sys.argv) > 4 else None
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "pg"))
from children import fail, procs, until, rss_kb  # noqa: E402
import http_get  # noqa: E402

SLOW_BOT = os.path.join(HERE, "slow_bot.py")
CAP = 262144  # --http's --spectator-buffer (docs/web.md)


def slow(ms):
    return "cmd:/usr/bin/python3 -S %s %d" % (SLOW_BOT, ms)


def start(args, tag):
    """An arena process whose stderr goes to WORKDIR/TAG.err; its web
    address (if it serves one) read from there."""
    errfile = os.path.join(work, tag + ".err")
    p = subprocess.Popen([arena, *args], cwd=work, stdout=subprocess.DEVNULL,
                         stderr=open(errfile, "w"))
    p.errfile = errfile
    procs.append(p)
    return p


def address(p, timeout=60):
    def found():
        if p.poll() is not None:
            fail("%s exited %s: %s" % (p.args[1], p.returncode, open(p.errfile).read()[-2000:]))
        m = re.search(r"serving on http://([0-9.]+):(\d+)/", open(p.errfile).read())
        return (m.group(1), int(m.group(2))) if m else None
    return until(found, timeout, "the web address on stderr")


def request(addr, path):
    code, _, body, _ = http_get.get(addr, path)
    return code, body


def api(addr, path):
    code, body = request(addr, path)
    if code != 200:
        fail("%s: %d %r" % (path, code, body[:200]))
    return json.loads(body)


class Reader:
    """A spectator that reads an event stream in a thread and keeps what
    came, with the time each event arrived."""

    def __init__(self, addr, path):
        # A receive buffer of 8 MiB, set before connecting (SO_RCVBUFFORCE
        # as root, past rmem_max): a stream of 70 KB boards fills the run's
        # 256 KiB cap in 4 boards, and on a loaded host this thread may be
        # off the CPU that long; the kernel then holds what comes meanwhile,
        # as a browser's socket would.
        self.s = socket.socket()
        try:
            self.s.setsockopt(socket.SOL_SOCKET, getattr(socket, "SO_RCVBUFFORCE", 33), 8 << 20)
        except OSError:
            self.s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 8 << 20)
        self.s.settimeout(120)
        self.s.connect(addr)
        self.s.sendall(("GET %s HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n" % path).encode())
        self.nbytes = 0
        self.events = []  # (arrival time, name, data JSON)
        self.ended = self.closed = False
        self.t = threading.Thread(target=self.run, daemon=True)
        self.t.start()

    def run(self):
        # Only the unfinished event is kept: a reader that copied all it got
        # at every read fell behind a board stream on a loaded host, and the
        # run dropped it as a slow reader.
        pending = b""
        try:
            while not self.ended:
                c = self.s.recv(65536)
                if not c:
                    break
                self.nbytes += len(c)
                *done, pending = (pending + c.replace(b"\r", b"")).split(b"\n\n")
                for block in done:
                    m = re.search(rb"event: (\w+)\ndata: (.*)", block)
                    if m:
                        self.events.append((time.time(), m.group(1).decode(),
                                            json.loads(m.group(2))))
                        # a board stream's last event (the connection stays)
                        self.ended = self.ended or m.group(1) == b"end"
        except OSError:
            pass
        self.closed = True

    def named(self, name):
        return [e for e in self.events if e[1] == name]


def silent(addr, path):
    """A spectator that asks for a stream and never reads: a small receive
    buffer, set before connecting so the window stays small."""
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    s.settimeout(20)
    s.connect(addr)
    s.sendall(("GET %s HTTP/1.1\r\nHost: x\r\n\r\n" % path).encode())
    return s


def drained_to_end(s, timeout=20):
    """Reads a silent stream at last: True when the server closed it (EOF or
    reset) after what it had queued, False when it is still open."""
    s.settimeout(timeout)
    end = time.time() + timeout
    try:
        while time.time() < end:
            c = s.recv(1 << 20)
            if not c:
                return True
    except ConnectionResetError:
        return True
    except socket.timeout:
        return False
    return False


def case_pg_ladder():
    from pgserver import PgServer
    with PgServer() as pg:
        url = pg.url("webpg")
        bot = slow(30)  # some 0.4 s a game: the counts rise step by step
        run = start(["ladder", "run", url, "--game", "nim", "--set", "stones=12",
                     "--concurrency", "0", "--limit-as", "0", "--http", "127.0.0.1:0"], "ladder")
        addr = address(run)
        workers = []
        for w in ("w1", "w2"):
            workers.append(start(["worker", "--db", url, "--name", w, "--concurrency", "1",
                                  "--lease", "10", "--logs", os.path.join(work, "logs-" + w)], w))
        code, body = request(addr, "/")
        if code != 200 or b"<html" not in body.lower():
            fail("/: %d %r" % (code, body[:200]))
        events = Reader(addr, "/events")
        for name in ("a", "b", "c"):
            r = subprocess.run([arena, "ladder", "add", url, name, bot], capture_output=True,
                               text=True, timeout=60)
            if r.returncode != 0:
                fail("ladder add %s: %s" % (name, r.stderr))
        seen = []  # (ranked games, /api/live games) as the workers play

        def progressed():
            st = api(addr, "/api/standings")
            lv = api(addr, "/api/live")
            seen.append((st["games"], [g["seats"] for g in lv["games"]]))
            return st if st["games"] >= 30 else None
        st = until(progressed, 200, "30 ranked games on /api/standings")
        if st["kind"] != "ladder" or sorted(e["name"] for e in st["entrants"]) != ["a", "b", "c"]:
            fail("/api/standings: %r" % st)
        counts = [g for g, _ in seen]
        if len(set(counts)) < 3 or counts != sorted(counts):
            fail("/api/standings did not follow the games: %r" % counts)
        games = api(addr, "/api/games")
        if games["finished"] < 28 or not games["games"]:  # one snapshot may lag a game
            fail("/api/games: %r" % games)
        played_by = set(pg.psql("SELECT DISTINCT g.worker FROM arena_games g JOIN "
                                "arena_tournaments t ON t.id = g.tid WHERE t.name = 'webpg' "
                                "AND g.done").split())
        if not played_by or not played_by <= {"w1", "w2"}:
            fail("games played by %r, not the workers" % played_by)
        # /events: an event as the ranked count rose (every poll of 0.5 s
        # at most, not only every 5 s), in order.
        time.sleep(1)
        ranked = [d["games"] for _, _, d in events.named("standings")]
        if ranked != sorted(ranked) or ranked[-1] < 30 or len(set(ranked)) < 8:
            fail("/events: standings with ranked counts %r" % ranked)
        # /live: the run plays only the validation games of new versions
        # (every seat the version itself); the workers' ranked games are not
        # on its loop and never listed.
        lv = api(addr, "/api/live")
        code, _ = request(addr, "/live")
        listed = [seats for _, games_ in seen for seats in games_]
        if code != 200 or not lv["running"] or lv["games"] or \
                any(len(set(seats)) != 1 for seats in listed):
            fail("/live %d, /api/live %r, games listed while the workers played: %r"
                 % (code, lv, listed))
        run.send_signal(signal.SIGINT)
        try:
            run.wait(timeout=60)
        except subprocess.TimeoutExpired:
            fail("the ladder run did not stop on SIGINT")
        if not events.closed:
            events.t.join(5)
        if not events.closed:
            fail("/events was not closed when the run ended")
        for w in workers:  # before the database goes
            w.send_signal(signal.SIGTERM)
        for w in workers:
            if w.wait(timeout=60) != 0:
                fail("a worker exited %s on SIGTERM" % w.returncode)
        print("pg ladder with 2 workers: /api/standings went through %d ranked counts (%s), "
              "/events carried %d standings events (%d distinct), /api/live listed %d validation "
              "games and no ranked one" % (len(set(counts)), sorted(set(counts))[:8], len(ranked),
                                           len(set(ranked)), len({tuple(x) for x in listed})))


def case_sprt_resume():
    db = os.path.join(work, "sprt.db")
    # b is the stronger bot, a slow one: the test takes many games to decide.
    first = start(["sprt", "--game", "nim", "--set", "stones=15", "--agent", "a=builtin:random",
                   "--agent", "b=" + slow(5), "--elo0", "0", "--elo1", "5", "--alpha", "0.01",
                   "--beta", "0.01", "--db", db, "--concurrency", "2", "--logs", "none",
                   "--limit-as", "0"], "sprt1")

    def done():
        try:
            with sqlite3.connect("file:%s?mode=ro" % db, uri=True, timeout=5) as c:
                return c.execute("SELECT count(*) FROM games WHERE done").fetchone()[0]
        except sqlite3.Error:
            return 0
    until(lambda: done() >= 6, 60, "6 games of the first run")
    first.send_signal(signal.SIGINT)
    try:
        first.wait(timeout=60)
    except subprocess.TimeoutExpired:
        fail("the SPRT did not stop on SIGINT")
    stopped_at = done()
    run = start(["sprt", "--resume", db, "--concurrency", "2", "--http", "127.0.0.1:0"], "sprt2")
    addr = address(run)
    events = Reader(addr, "/events")
    st0 = api(addr, "/api/standings")
    settings = api(addr, "/api/settings")
    if st0["kind"] != "sprt" or st0["sprt"] != "running" or st0["finished"] < stopped_at or \
            sorted(e["name"] for e in st0["entrants"]) != ["a", "b"]:
        fail("/api/standings of the resumed SPRT: %r" % st0)
    s = settings["settings"]
    if s.get("elo1") in (None, "") or float(s["elo1"]) != 5 or s.get("kind") != "sprt":
        fail("/api/settings of the resumed SPRT: %r" % settings)
    code, _ = request(addr, "/")
    if code != 200:
        fail("/: %d" % code)
    until(lambda: api(addr, "/api/standings")["finished"] >= st0["finished"] + 10, 120,
          "10 more games on /api/standings")
    until(lambda: len({d["finished"] for _, _, d in events.named("standings")}) >= 5, 120,
          "5 standings with distinct finished counts on /events")
    finished = [d["finished"] for _, _, d in events.named("standings")]
    if finished != sorted(finished) or finished[0] > st0["finished"]:
        fail("/events of the resumed SPRT: finished counts %r" % finished)
    run.send_signal(signal.SIGINT)
    try:
        run.wait(timeout=60)
    except subprocess.TimeoutExpired:
        fail("the resumed SPRT did not stop on SIGINT")
    print("sprt stopped at %d games, resumed with --http: standings from %d to %d finished, "
          "%d standings events" % (stopped_at, st0["finished"], finished[-1], len(finished)))


def silent_drops(addr, run, path, n, what):
    """n silent streams on path: waits until /api/live counts them dropped
    (the run's RSS sampled meanwhile), then reads each to its end. Returns
    (RSS before they connected, peak RSS, time of the drops)."""
    d0 = api(addr, "/api/live")["spectators"]["dropped"]
    rss0 = rss_kb(run.pid)
    quiet = [silent(addr, path) for _ in range(n)]
    peak = [rss0]

    def dropped():
        peak.append(rss_kb(run.pid))
        if run.poll() is not None:
            fail("the run ended before %s's silent streams were dropped" % what)
        try:
            return api(addr, "/api/live")["spectators"]["dropped"] - d0 >= n
        except OSError as e:
            fail("the run stopped serving before %s's silent streams were dropped: %s" % (what, e))
    # /events drops a silent stream after some 22 standings events, and in a
    # run a snapshot waits 20 times as long as the last took: under ASan
    # that took 228-255 s.
    until(dropped, 480, "%d silent streams of %s to be dropped" % (n, what))
    t_drop = time.time()
    for s in quiet:
        if not drained_to_end(s):
            fail("a silent stream of %s was still open after its drop" % what)
        s.close()
    return rss0, max(peak), t_drop


def case_slow_readers():
    SILENT = 16
    # Nim of 100,000 stones between two random-c bots: thousands of moves a
    # second, a board ten times a second with every move since the last
    # (some 20 KB a board), so a silent stream passes the cap within
    # seconds, and the game lasts some 20 s.
    db = os.path.join(work, "boards.db")
    run = start(["tournament", "--game", "nim", "--set", "stones=100000",
                 "--agent", "a=" + random_c, "--agent", "b=" + random_c,
                 "--games-per-pairing", "2", "--concurrency", "1", "--db", db, "--logs", "none",
                 "--http", "127.0.0.1:0"], "boards")
    addr = address(run)
    # The first game, watched by a reader only, warms the run's memory up
    # (a game's events are freed with it and reused by the next).
    lv = until(lambda: api(addr, "/api/live")["games"], 60, "a game in progress")
    first = Reader(addr, "/live/%d/events" % lv[0]["id"])
    first.t.join(300)
    lv = until(lambda: [g for g in api(addr, "/api/live")["games"] if g["id"] != lv[0]["id"]], 60,
               "the second game")
    gid = lv[0]["id"]
    reader = Reader(addr, "/live/%d/events" % gid)
    until(lambda: len(reader.named("board")) >= 3, 30, "the reader's first boards")
    rss0, peak, t_drop = silent_drops(addr, run, "/live/%d/events" % gid, SILENT, "a board")
    # The reader keeps getting boards after the drops, then the end.
    until(lambda: reader.closed or
          len([e for e in reader.events if e[0] > t_drop and e[1] == "board"]) >= 5, 60,
          "boards after the drops")
    after = len([e for e in reader.events if e[0] > t_drop and e[1] == "board"])
    reader.t.join(300)
    ends = reader.named("end")
    if after < 5 and not ends:
        fail("the reader got %d boards after the drops and no end (%d events, %d KiB in all; "
             "its stream closed: %s)" % (after, len(reader.events), reader.nbytes // 1024,
                                         reader.closed))
    if not ends or ends[0][2]["reason"] != "normal" or \
            any(x["forfeit"] for x in ends[0][2]["seats"]):
        fail("the watched game did not end normally: %r" % ends)
    sent = reader.nbytes
    if run.wait(timeout=120) != 0:
        fail("the tournament exited %s" % run.returncode)
    with sqlite3.connect(db) as c:
        rows = c.execute("SELECT reason FROM games WHERE done").fetchall()
    if rows != [("normal",), ("normal",)]:
        fail("games in the store: %r" % rows)
    print("board stream: %d silent streams dropped, the reader got %d boards after (%d KiB in "
          "all); RSS %d KiB, peak %d KiB with them: %.0f KiB per silent spectator (the cap is "
          "%d KiB)" % (SILENT, after, sent // 1024, rss0, peak, (peak - rss0) / SILENT,
                       CAP // 1024))
    # A queue holds the cap and one board at most; without the cap each
    # would hold all the reader got.
    if peak - rss0 > SILENT * (CAP // 1024 * 3 // 2) + 2048:
        fail("RSS grew %d KiB for %d silent streams" % (peak - rss0, SILENT))

    # /events: a gauntlet of a slow bot against 59 built-in ones with long
    # names, a game every few tens of ms: a standings event of some 13 KB at
    # each snapshot, which come further apart as the store grows. The run
    # must outlast the drops (100 games a pairing ended first on a loaded
    # host): it is stopped once they are checked.
    db = os.path.join(work, "events.db")
    agents = ["--agent", "slow=" + slow(5)]
    for i in range(59):
        agents += ["--agent", "%s%02d=builtin:random" % ("e" * 60, i)]
    run = start(["tournament", "--game", "nim", "--set", "stones=6", "--format", "gauntlet",
                 *agents, "--games-per-pairing", "1000", "--concurrency", "2", "--db", db,
                 "--logs", "none", "--limit-as", "0", "--http", "127.0.0.1:0"], "events")
    addr = address(run)
    reader = Reader(addr, "/events")
    until(lambda: len(reader.named("standings")) >= 2, 60, "two standings events")
    rss0, peak, t_drop = silent_drops(addr, run, "/events", SILENT, "/events")
    until(lambda: len([e for e in reader.events if e[0] > t_drop]) >= 3, 60,
          "standings after the drops")
    size = max(len(json.dumps(e[2])) for e in reader.events)
    run.send_signal(signal.SIGINT)
    run.wait(timeout=60)
    with sqlite3.connect(db) as c:
        ff = c.execute("SELECT count(*) FROM games WHERE done AND reason != 'normal'").fetchone()[0]
    if ff:
        fail("%d games forfeited" % ff)
    # (Its RSS is printed, not bounded: the run's own growth meanwhile, the
    # store's snapshot, is of the size of the silent streams' queues.)
    print("/events: %d silent streams dropped (events of %d bytes), the reader got %d events "
          "after; RSS %d KiB, peak %d KiB (the run's own growth included)" %
          (SILENT, size, len([e for e in reader.events if e[0] > t_drop]), rss0, peak))


def case_busy_port():
    """--http on an address in use: each run refuses before it creates its
    store (nothing left behind), and a store given to --resume is untouched."""
    d = os.path.join(work, "busy")
    os.makedirs(d, exist_ok=True)
    done = os.path.join(d, "done.db")
    p = subprocess.run([arena, "tournament", "--game", "nim", "--set", "stones=5", "--agent",
                        "a=builtin:random", "--agent", "b=builtin:random", "--games-per-pairing",
                        "2", "--db", done, "--logs", "none", "--quiet"], capture_output=True,
                       text=True, timeout=120)
    if p.returncode != 0:
        fail("the tournament to resume: %s" % p.stderr)
    before = open(done, "rb").read()
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    http = ["--http", "127.0.0.1:%d" % taken.getsockname()[1]]
    runs = {"tournament": ["tournament", "--game", "nim", "--agent", "a=builtin:random",
                           "--agent", "b=builtin:random", "--db", os.path.join(d, "t.db")],
            "sprt": ["sprt", "--game", "nim", "--agent", "a=builtin:random", "--agent",
                     "b=builtin:random", "--elo0", "0", "--elo1", "5", "--db",
                     os.path.join(d, "s.db")],
            "ladder run": ["ladder", "run", os.path.join(d, "l.db"), "--game", "nim"],
            "tournament --resume": ["tournament", "--resume", done]}
    for what, args in runs.items():
        p = subprocess.run([arena] + args + http, capture_output=True, text=True, timeout=60)
        if p.returncode == 0 or "cannot listen" not in p.stderr:
            fail("%s --http on a port in use: exit %d, %r" % (what, p.returncode, p.stderr))
    left = sorted(set(os.listdir(d)) - {"done.db"})
    if left:
        fail("runs refused for --http left %s behind" % left)
    if open(done, "rb").read() != before:
        fail("a store given to --resume changed under a refused --http")
    taken.close()


CASES = {"pg-ladder": case_pg_ladder, "sprt-resume": case_sprt_resume,
         "slow-readers": case_slow_readers, "busy-port": case_busy_port}
t0 = time.time()
CASES[case]()
print("ok (%.1f s)" % (time.time() - t0))
