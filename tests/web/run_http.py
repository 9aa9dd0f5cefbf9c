#!/usr/bin/python3
"""The web front served by a run (--http) where the other web tests do not
look: a PostgreSQL ladder whose games `arena worker`s play, a resumed SPRT,
and spectators that never read.

usage: run_http.py CASE ARENA WORKDIR
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
  slow-readers a tournament with --http: spectators that connect with a small
               receive buffer (SO_RCVBUF) and never read, on a long game's
               board stream (/live/ID/events) and on /events; the server drops
               each once its queue passes the cap (256 KiB): /api/live's
               `dropped` counts them and each sees the end of its stream when it
               finally reads; a reading spectator of the same game keeps getting
               boards after the drops, and the game ends normally (no forfeit);
               the referee's RSS grows by less than the silent streams' caps
               allow. Prints the memory per spectator."""
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
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "pg"))
from children import fail, procs  # noqa: E402

SLOW_BOT = os.path.join(HERE, "slow_bot.py")
CAP = 262144  # --http's --spectator-buffer (docs/web.md)


def slow(ms):
    return "cmd:/usr/bin/python3 -S %s %d" % (SLOW_BOT, ms)


def until(cond, timeout, what):
    end = time.time() + timeout
    while time.time() < end:
        v = cond()
        if v:
            return v
        time.sleep(0.2)
    fail("timed out after %s s waiting for %s" % (timeout, what))


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
    s = socket.create_connection(addr, timeout=20)
    s.sendall(("GET %s HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n" % path).encode())
    data = b""
    while True:
        c = s.recv(65536)
        if not c:
            break
        data += c
    s.close()
    head, _, body = data.partition(b"\r\n\r\n")
    if "transfer-encoding: chunked" in head.decode("latin-1").lower():
        out, rest = b"", body
        while rest:
            n, _, rest = rest.partition(b"\r\n")
            n = int(n, 16)
            if n == 0:
                break
            out, rest = out + rest[:n], rest[n + 2:]
        body = out
    return int(head.split(b" ", 2)[1]), body


def api(addr, path):
    code, body = request(addr, path)
    if code != 200:
        fail("%s: %d %r" % (path, code, body[:200]))
    return json.loads(body)


class Reader:
    """A spectator that reads an event stream in a thread and keeps what
    came, with the time each event arrived."""

    def __init__(self, addr, path):
        self.s = socket.create_connection(addr, timeout=120)
        self.s.sendall(("GET %s HTTP/1.1\r\nHost: x\r\n\r\n" % path).encode())
        self.data = b""
        self.events = []  # (arrival time, name, data JSON)
        self.closed = False
        self.t = threading.Thread(target=self.run, daemon=True)
        self.t.start()

    def run(self):
        pending = b""
        try:
            while True:
                c = self.s.recv(65536)
                if not c:
                    break
                self.data += c
                pending += c
                for m in re.finditer(rb"event: (\w+)\r?\ndata: (.*)\r?\n", pending):
                    self.events.append((time.time(), m.group(1).decode(), json.loads(m.group(2))))
                pending = pending[pending.rfind(b"\n\n") + 2:] if b"\n\n" in pending else pending
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


def rss_kb(pid):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def case_pg_ladder():
    from pgserver import PgServer
    with PgServer() as pg:
        url = pg.url("webpg")
        bot = slow(30)  # some 0.4 s a game: the counts rise step by step
        run = start(["ladder", "run", url, "--game", "nim", "--set", "stones=12",
                     "--concurrency", "0", "--limit-as", "0", "--http", "127.0.0.1:0"], "ladder")
        addr = address(run)
        for w in ("w1", "w2"):
            start(["worker", "--db", url, "--name", w, "--concurrency", "1", "--lease", "10",
                   "--logs", os.path.join(work, "logs-" + w)], w)
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


def case_slow_readers():
    SILENT_LIVE, SILENT_EVENTS = 8, 8
    db = os.path.join(work, "t.db")
    # Dominion between two slow bots: a board of some 2.7 KB ten times a
    # second, so a silent stream passes the cap within a game. Thirty
    # agents with long names make each standings event big enough to do
    # the same on /events (one per snapshot, twice a second at most).
    agents = ["--agent", "a=" + slow(20), "--agent", "b=" + slow(20)]
    run = start(["tournament", "--game", "dominion", *agents, "--games-per-pairing", "2",
                 "--concurrency", "1", "--db", db, "--logs", "none", "--limit-as", "0",
                 "--http", "127.0.0.1:0"], "live")
    addr = address(run)
    lv = until(lambda: api(addr, "/api/live")["games"], 60, "a game in progress")
    gid = lv[0]["id"]
    reader = Reader(addr, "/live/%d/events" % gid)
    until(lambda: len(reader.named("board")) >= 3, 30, "the reader's first boards")
    rss0 = rss_kb(run.pid)
    quiet = [silent(addr, "/live/%d/events" % gid) for _ in range(SILENT_LIVE)]
    peak = [rss0]

    def dropped():
        peak.append(rss_kb(run.pid))
        d = api(addr, "/api/live")["spectators"]["dropped"]
        return d >= SILENT_LIVE or (not api(addr, "/api/live")["games"] and None)
    until(lambda: dropped() or reader.closed, 240, "the silent streams to be dropped")
    sp = api(addr, "/api/live")["spectators"]
    if sp["dropped"] < SILENT_LIVE:
        fail("the game ended before the silent streams were dropped: %r, %d boards read"
             % (sp, len(reader.named("board"))))
    t_drop = time.time()
    rss_peak = max(peak)
    # The reader keeps getting boards after the drops, then the end.
    until(lambda: reader.closed or
          len([e for e in reader.events if e[0] > t_drop and e[1] == "board"]) >= 5, 60,
          "boards after the drops")
    after = [e for e in reader.events if e[0] > t_drop and e[1] == "board"]
    if len(after) < 5 and not reader.named("end"):
        fail("the reader got %d boards after the drops and no end" % len(after))
    for s in quiet:
        if not drained_to_end(s):
            fail("a silent stream was still open after its drop")
        s.close()
    reader.t.join(300)
    ends = reader.named("end")
    if not ends or ends[0][2]["reason"] != "normal" or \
            any(x["forfeit"] for x in ends[0][2]["seats"]):
        fail("the watched game did not end normally: %r" % ends)
    rss1 = rss_kb(run.pid)
    per = (rss_peak - rss0) / SILENT_LIVE
    # Each silent stream holds at most the cap in the server's queue.
    if rss_peak - rss0 > SILENT_LIVE * (CAP // 1024 + 128):
        fail("RSS grew %d KiB for %d silent streams" % (rss_peak - rss0, SILENT_LIVE))
    run.send_signal(signal.SIGINT)
    try:
        run.wait(timeout=60)
    except subprocess.TimeoutExpired:
        fail("the tournament did not stop on SIGINT")
    with sqlite3.connect(db) as c:
        g = c.execute("SELECT reason, done FROM games WHERE id = ?", (gid,)).fetchone()
    if not g or g[0] != "normal" or not g[1]:
        fail("game %d in the store: %r" % (gid, g))
    print("live board stream: %d silent streams dropped (%d boards read after); RSS %d KiB, "
          "peak %d KiB (%.0f KiB per silent spectator), %d KiB after the drops"
          % (sp["dropped"], len(after), rss0, rss_peak, per, rss1))
    del SILENT_EVENTS


CASES = {"pg-ladder": case_pg_ladder, "sprt-resume": case_sprt_resume,
         "slow-readers": case_slow_readers}
t0 = time.time()
CASES[case]()
print("ok (%.1f s)" % (time.time() - t0))
