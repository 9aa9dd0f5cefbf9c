#!/usr/bin/python3
"""Spectators cannot take `arena web` down: the real server over a ladder
that keeps playing, with 200 Server-Sent-Events clients that read and 50
that never read (small receive buffers), loopback only, about 40 s.

usage: web_load.py ARENA WORKDIR

Asserts: one stream over --max-spectators gets 503; /api/standings answers
within 1 s every time while all are open; the readers get the updates; the
never-reading streams are dropped once their queue passes
--spectator-buffer (the server's descriptors fall back); the server's RSS
grows by less than 64 MB; malformed and huge requests get 4xx; the ladder
plays on without a fault. Prints the memory per spectator."""
import json
import os
import selectors
import shutil
import signal
import socket
import subprocess
import sys
import time

arena, work = sys.argv[1], sys.argv[2]
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
DB = os.path.join(work, "ladder.db")
READERS, SILENT = 200, 50
from children import fail, procs, until, rss_kb  # noqa: E402
from timing import load_report  # noqa: E402


def ladder(*args, ok=True):
    r = subprocess.run([arena, "ladder", *args], capture_output=True, text=True, timeout=60)
    if ok and r.returncode != 0:
        fail("arena ladder %s: %s" % (" ".join(args), r.stderr))
    return r


def nfds(pid):
    return len(os.listdir("/proc/%d/fd" % pid))


# A bot that thinks 10 ms a decision changes the store at a rate a real
# event has, tens of games a second. (At the referee's own pace, a thousand
# games a second, the store grew by 36,000 games in the test, and the
# server's RSS with it, past the 64 MB bound meant for the spectators.)
BOT = "cmd:/usr/bin/python3 -S " + os.path.join(os.path.dirname(os.path.abspath(__file__)), "..",
                                                "ladder", "ladder_bot.py") + " slow"
run = subprocess.Popen([arena, "ladder", "run", DB, "--game", "nim", "--set", "stones=9",
                        "--concurrency", "1", "--limit-as", "0", "--quiet", "--logs", "none"],
                       stdout=subprocess.DEVNULL, stderr=open(os.path.join(work, "run.err"), "w"))
procs.append(run)
until(lambda: os.path.exists(DB) and ladder("status", DB, ok=False).returncode == 0, 30,
      "the ladder to be made")
ladder("add", DB, "alice", "builtin:random")
ladder("add", DB, "bob", BOT)

web = subprocess.Popen([arena, "web", DB, "--listen", "127.0.0.1:0", "--poll-ms", "100",
                        "--max-spectators", str(READERS + SILENT), "--spectator-buffer", "16384"],
                       stdout=subprocess.PIPE, stderr=open(os.path.join(work, "web.err"), "w"),
                       text=True)
procs.append(web)
line = web.stdout.readline()
if "http://" not in line:
    fail("arena web printed no address: %r" % line)
host, port = line.split("http://", 1)[1].strip().rstrip("/").rsplit(":", 1)
ADDR = (host, int(port))


def request(path, raw=None, timeout=5):
    s = socket.create_connection(ADDR, timeout=timeout)
    s.sendall(raw or ("GET %s HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n" % path).encode())
    data = b""
    while True:
        c = s.recv(65536)
        if not c:
            break
        data += c
        if raw and b"\r\n" in data:  # a kept-alive connection: the status line is enough
            break
    s.close()
    return data


def status_of(resp):
    try:
        return int(resp.split(b" ", 2)[1])
    except (IndexError, ValueError):
        return 0


def open_stream(rcvbuf=None):
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    if rcvbuf:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    s.connect(ADDR)
    s.sendall(b"GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
    return s


until(lambda: json.loads(request("/api/standings").split(b"\r\n\r\n", 1)[1])["games"] > 0, 30,
      "the first games")
time.sleep(0.5)
base_rss, base_fds = rss_kb(web.pid), nfds(web.pid)

sel = selectors.DefaultSelector()
got = {}
readers = []
for i in range(READERS):
    s = open_stream()
    s.setblocking(False)
    sel.register(s, selectors.EVENT_READ)
    got[s] = b""
    readers.append(s)
silent = [open_stream(rcvbuf=4096) for _ in range(SILENT)]


def pump(seconds):
    end = time.time() + seconds
    while time.time() < end:
        for key, _ in sel.select(timeout=0.05):
            try:
                c = key.fileobj.recv(65536)
            except BlockingIOError:
                continue
            if c:
                got[key.fileobj] = (got[key.fileobj] + c)[-4096:] if len(got[key.fileobj]) > 1 \
                    << 20 else got[key.fileobj] + c
            else:
                sel.unregister(key.fileobj)


pump(2)
until(lambda: nfds(web.pid) >= base_fds + READERS + SILENT, 20, "every stream to be accepted")
full_rss = rss_kb(web.pid)
per = (full_rss - base_rss) * 1024 / (READERS + SILENT)
over = request("/events", timeout=5)
if status_of(over) != 503:
    fail("a stream over --max-spectators got %r" % over[:80])

# Under load: /api/standings stays quick while the store changes.
worst, t_end, n_req = 0.0, time.time() + 20, 0
first_events = {s: got[s].count(b"event: standings") for s in readers}
while time.time() < t_end:
    pump(0.3)
    t0 = time.time()
    r = request("/api/standings")
    dt = time.time() - t0
    worst = max(worst, dt)
    n_req += 1
    if status_of(r) != 200:
        fail("/api/standings under load: %r" % r[:80])
if worst > 1.0:
    fail("/api/standings took %.3f s under load" % worst)
behind = [s for s in readers if got[s].count(b"event: standings") < first_events[s] + 10]
if behind:
    fail("%d reading spectators got fewer than 10 updates in 20 s" % len(behind))

# The never-reading streams are dropped (their queues passed 16 KiB).
until(lambda: nfds(web.pid) <= base_fds + READERS + 2, 30, "the silent streams to be dropped")
peak_rss = rss_kb(web.pid)
if peak_rss - base_rss > 64 * 1024:
    fail("RSS grew by %d KiB" % (peak_rss - base_rss))

# Malformed and huge requests: 4xx, and the server still answers.
for raw, what in [(b"GET /" + b"a" * 5000 + b" HTTP/1.1\r\nHost: x\r\n\r\n", "a huge path"),
                  (b"GET /api/entrant/%zz%00 HTTP/1.1\r\nHost: x\r\n\r\n", "a bad escape"),
                  (b"POST /api/standings HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc",
                   "a POST"),
                  (b"GET /api/games?limit=99999999999 HTTP/1.1\r\nHost: x\r\n\r\n", "a huge limit"),
                  (b"GET /games/-1/viewer HTTP/1.1\r\nHost: x\r\n\r\n", "a bad game"),
                  (b"GET /../etc/passwd HTTP/1.1\r\nHost: x\r\n\r\n", "a path out"),
                  (b"\x00\xff garbage\r\n\r\n", "garbage")]:
    code = status_of(request(None, raw=raw))
    if not 400 <= code < 500 and code != 0:
        fail("%s got %d" % (what, code))
    if status_of(request("/api/standings")) != 200:
        fail("the server stopped answering after %s" % what)

for s in readers + silent:
    s.close()
web.send_signal(signal.SIGTERM)
if web.wait(timeout=10) != 0:
    fail("arena web did not stop cleanly")
run.send_signal(signal.SIGINT)
run.wait(timeout=60)
st = json.loads(ladder("status", DB, "--format", "json").stdout)
if any(e["faults"] for e in st["entrants"]) or st["games"] < 20:
    fail("the ladder suffered: %s" % json.dumps(st)[:500])
print("ok: %d readers + %d silent streams; /api/standings worst %.1f ms over %d requests; "
      "RSS %d -> %d KiB with all open (%.1f KiB per spectator), %d KiB at the end; "
      "%d ranked games meanwhile; load %s"
      % (READERS, SILENT, worst * 1000, n_req, base_rss, full_rss, per / 1024, peak_rss,
         st["games"], load_report()))
