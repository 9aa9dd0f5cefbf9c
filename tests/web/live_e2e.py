#!/usr/bin/python3
"""A game watched live from a running tournament (--http): the real
`arena tournament` of nim between two slow bots, its web front on the
tournament's own loop.

usage: live_e2e.py ARENA WORKDIR

Asserts: the address is printed on stderr; /api/live lists the games in
progress with their seats; a game's stream (/live/ID/events) carries its
board as the game goes on (the turn counts up, the heap of stones goes
down) and ends with an `end` event holding the result; /api/live/ID and the
pages answer with the headers of every page; without --spectator-delay
there is no omniscient board (404). Nothing a spectator was sent while the
games ran holds a seed (the master seed, any game's seed from the logs) or
a seat's secret (nim's per-seat secret numbers, hidden information that
the logs record): no `secret` key, and no secret's digits. The tournament
then ends on its own, exit 0, every game played without a fault.

Then --spectator-delay: a tournament (independent pairing) streams a game
omnisciently at /live/ID/omniscient, its first board no sooner than the
delay after the stream opened, holding the seats' secrets; an SPRT (duplicate
pairing: a group's games share a deal) refuses that stream (403) and lists
its games in progress."""
import gzip
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import threading
import time

arena, work = sys.argv[1], sys.argv[2]
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
HERE = os.path.dirname(os.path.abspath(__file__))
BOT = "cmd:/usr/bin/python3 -S %s 40" % os.path.join(HERE, "slow_bot.py")
from children import fail, procs  # noqa: E402
import http_get  # noqa: E402


DB, LOGS = os.path.join(work, "t.db"), os.path.join(work, "logs")
run = subprocess.Popen([arena, "tournament", "--game", "nim", "--agent", "a=" + BOT,
                        "--agent", "b=" + BOT, "--games-per-pairing", "4", "--set", "stones=60",
                        "--concurrency", "2", "--db", DB, "--logs", LOGS,
                        "--http", "127.0.0.1:0"],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
procs.append(run)
err_lines = []
addr = []


def read_stderr():
    for line in run.stderr:
        err_lines.append(line)
        m = re.search(r"serving on http://([0-9.]+):(\d+)/", line)
        if m and not addr:
            addr.append((m.group(1), int(m.group(2))))


threading.Thread(target=read_stderr, daemon=True).start()
end = time.time() + 30
while not addr and time.time() < end and run.poll() is None:
    time.sleep(0.05)
if not addr:
    fail("no address on stderr: %r" % err_lines)
ADDR = addr[0]
sent = []  # every byte a spectator got


def request(path):
    code, head, body, raw = http_get.get(ADDR, path, timeout=10)
    sent.append(raw)
    return code, head.decode("latin-1"), body





# The games in progress.
live = None
end = time.time() + 30
while time.time() < end:
    code, head, body = request("/api/live")
    live = json.loads(body)
    if live["games"]:
        break
    time.sleep(0.1)
if not live or not live["games"]:
    fail("no game in progress on /api/live: %r" % live)
if not live["running"] or any(sorted(g["seats"]) != ["a", "b"] for g in live["games"]):
    fail("/api/live: %r" % live)
gid = live["games"][0]["id"]
for path in ("/live", "/live/%d" % gid):
    code, head, _ = request(path)
    if code != 200 or "default-src 'self'" not in head or "nosniff" not in head:
        fail("%s: %d %s" % (path, code, head))
code, _, _ = request("/live/%d/omniscient" % gid)
if code != 404:
    fail("an omniscient board without --spectator-delay: %d" % code)
code, head, body = request("/api/live/%d" % gid)
if code != 200:
    fail("/api/live/%d: %d" % (gid, code))

# The game's stream, until its end event.
s = socket.create_connection(ADDR, timeout=30)
s.sendall(("GET /live/%d/events HTTP/1.1\r\nHost: x\r\n\r\n" % gid).encode())
stream = b""
end = time.time() + 60
while b"event: end" not in stream and time.time() < end:
    c = s.recv(65536)
    if not c:
        break
    stream += c
s.close()
sent.append(stream)
if b"text/event-stream" not in stream.split(b"\r\n\r\n", 1)[0]:
    fail("not an event stream: %r" % stream[:200])
boards = [json.loads(m) for m in re.findall(rb"event: board\r?\ndata: (.*)\r?\n", stream)]
ends = [json.loads(m) for m in re.findall(rb"event: end\r?\ndata: (.*)\r?\n", stream)]
if len(boards) < 5:
    fail("%d boards of game %d: %r" % (len(boards), gid, stream[-500:]))
turns = [b["turn"] for b in boards]
stones = [b["view"]["stones"] for b in boards]
if turns != sorted(set(turns)) or stones != sorted(stones, reverse=True) or stones[0] == stones[-1]:
    fail("the board did not advance: turns %r, stones %r" % (turns, stones))
if not ends or ends[0]["id"] != gid or ends[0]["reason"] != "normal" or \
        sorted(x["rank"] for x in ends[0]["seats"]) != [1, 2]:
    fail("no end event with the result: %r %r" % (ends, stream[-600:]))
if not any(b["events"] and b["events"][0]["type"] == "take" for b in boards):
    fail("no public event in the boards: %r" % boards[:3])

# Keep watching what is left of the run, then let it end.
while run.poll() is None:
    try:
        request("/api/live")
    except OSError:
        break
    time.sleep(0.2)
out = run.stdout.read()
if run.wait(timeout=60) != 0:
    fail("the tournament failed: %s" % "".join(err_lines[-5:]))
if "games: 4 of 4 finished" not in out:
    fail("the report: %s" % out[:400])

# What must never reach a spectator: the seeds and the seats' secrets.
secrets, seeds = set(), set()
m = re.search(r"seed (\d+)", "".join(err_lines))
if m:
    seeds.add(m.group(1))
for name in os.listdir(LOGS):
    if not name.endswith(".jsonl.gz"):
        continue
    with gzip.open(os.path.join(LOGS, name), "rt") as f:
        for line in f:
            rec = json.loads(line)
            if "seed" in rec:
                seeds.add(str(rec["seed"]))
            for v in re.findall(r'"secrets?": ?\[?([0-9, ]+)', line):
                secrets.update(x.strip() for x in v.split(",") if x.strip())
if len(secrets) < 2 or len(seeds) < 3:
    fail("the logs hold %d secrets and %d seeds: the test reads them wrong" %
         (len(secrets), len(seeds)))
everything = b"".join(sent)
if b"secret" in everything:
    fail("a spectator was sent a 'secret'")
for v in secrets | seeds:
    # Short numbers turn up as stone counts; a secret of 4+ digits is not one.
    if len(v) >= 4 and re.search(rb"(?<![0-9])" + v.encode() + rb"(?![0-9])", everything):
        fail("a spectator was sent %s, a secret or a seed" % v)
print("ok: %d boards of game %d, turns %d..%d; %d bytes to spectators, none secret" %
      (len(boards), gid, turns[0], turns[-1], len(everything)), flush=True)


def start(args):
    """A run with --http; its address."""
    global run, ADDR
    run = subprocess.Popen([arena] + args + ["--http", "127.0.0.1:0"], stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, text=True)
    procs.append(run)
    del err_lines[:], addr[:]
    threading.Thread(target=read_stderr, daemon=True).start()
    end = time.time() + 30
    while not addr and time.time() < end and run.poll() is None:
        time.sleep(0.05)
    if not addr:
        fail("no address on stderr: %r" % err_lines)
    ADDR = addr[0]


def first_game():
    end = time.time() + 30
    while time.time() < end:
        code, head, body = request("/api/live")
        games = json.loads(body)["games"]
        if games:
            return games[0]["id"]
        time.sleep(0.1)
    fail("no game in progress")


DELAY = 1.0
start(["tournament", "--game", "nim", "--agent", "a=" + BOT, "--agent", "b=" + BOT,
       "--games-per-pairing", "2", "--set", "stones=60", "--concurrency", "1",
       "--db", os.path.join(work, "d.db"), "--logs", "none", "--spectator-delay", str(DELAY)])
gid = first_game()
s = socket.create_connection(ADDR, timeout=30)
t_open = time.time()
s.sendall(("GET /live/%d/omniscient HTTP/1.1\r\nHost: x\r\n\r\n" % gid).encode())
stream = b""
while b"event: board" not in stream:
    c = s.recv(65536)
    if not c:
        fail("the omniscient stream closed: %r" % stream[-300:])
    stream += c
t_first = time.time()
while b"\n\n" not in stream.split(b"event: board", 1)[1]:
    stream += s.recv(65536)
s.close()
board = json.loads(re.search(rb"event: board\r?\ndata: (.*)\r?\n", stream).group(1))
if t_first - t_open < DELAY - 0.05:
    fail("an omniscient board %.2f s after the stream opened, before the delay of %.1f s" %
         (t_first - t_open, DELAY))
if len(board["view"].get("secrets", [])) != 2:
    fail("the omniscient board holds no secrets: %r" % board)
run.wait(timeout=60)

start(["sprt", "--game", "nim", "--agent", "a=" + BOT, "--agent", "b=" + BOT, "--elo0", "0",
       "--elo1", "100", "--max-pairs", "1", "--set", "stones=60", "--concurrency", "2",
       "--db", os.path.join(work, "s.db"), "--spectator-delay", str(DELAY)])
gid = first_game()
code, _, body = request("/live/%d/omniscient" % gid)
if code != 403:
    fail("an omniscient stream under duplicate pairing: %d %r" % (code, body[:100]))
run.wait(timeout=60)
print("ok: the omniscient board came %.2f s after its stream opened (delay %.1f s); refused "
      "under duplicate pairing" % (t_first - t_open, DELAY))
