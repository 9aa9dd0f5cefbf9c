#!/usr/bin/python3
"""A live game's board advances in a real browser without a reload: headless
Chromium (tests/web/cdp.py) on the web front of a running nim tournament
(--http) between two slow bots.

usage: live_chromium.py ARENA WORKDIR

Asserts: /live lists the games in progress and links each; a game's page
shows its seats and a board whose turn counts up and whose heap of stones
goes down, in the same page (a mark set on window survives); the page ends
with the result once the game is over; no script error, no `secret` on the
page."""
import os
import re
import shutil
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cdp  # noqa: E402

arena, work = sys.argv[1], sys.argv[2]
shutil.rmtree(work, ignore_errors=True)
os.makedirs(os.path.join(work, "shots"))
HERE = os.path.dirname(os.path.abspath(__file__))
BOT = "cmd:/usr/bin/python3 -S %s 60" % os.path.join(HERE, "slow_bot.py")
from children import fail, procs  # noqa: E402


run = subprocess.Popen([arena, "tournament", "--game", "nim", "--agent", "a=" + BOT,
                        "--agent", "b=" + BOT, "--games-per-pairing", "2", "--set", "stones=80",
                        "--concurrency", "1", "--db", os.path.join(work, "t.db"),
                        "--logs", "none", "--http", "127.0.0.1:0"],
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
procs.append(run)
addr = []


def read_stderr():
    for line in run.stderr:
        m = re.search(r"serving on (http://[0-9.]+:\d+)/", line)
        if m and not addr:
            addr.append(m.group(1))


threading.Thread(target=read_stderr, daemon=True).start()
end = time.time() + 30
while not addr and time.time() < end:
    time.sleep(0.05)
if not addr:
    fail("no address on stderr")
BASE = addr[0]

b = cdp.Browser()
try:
    b.navigate(BASE + "/live")
    href = b.wait("(document.querySelector('main a[href^=\"/live/\"]') || {}).getAttribute && "
                  "document.querySelector('main a[href^=\"/live/\"]').getAttribute('href')", 30,
                  "a game in progress on /live")
    b.navigate(BASE + href)
    b.wait("document.body.dataset.turn !== undefined", 20, "the first board")
    b.eval("window.__mark = 'same page'")
    seats = b.eval("document.getElementById('head').textContent")
    if "a" not in seats or "b" not in seats:
        fail("the seats: %r" % seats)

    def board():
        return (int(b.eval("document.body.dataset.turn")),
                int(b.eval("[...document.querySelectorAll('#board td')].find((td, i, all) => "
                           "all[i - 1] && all[i - 1].textContent === 'stones').textContent")))

    t0, s0 = board()
    b.wait("Number(document.body.dataset.turn) >= %d" % (t0 + 5), 30, "the board to advance")
    t1, s1 = board()
    if not (t1 > t0 and s1 < s0):
        fail("the board did not advance: turn %d -> %d, stones %d -> %d" % (t0, t1, s0, s1))
    if b.eval("window.__mark") != "same page":
        fail("the page reloaded")
    if b.eval("document.querySelectorAll('#events li').length") < 3:
        fail("no events listed")
    b.screenshot(os.path.join(work, "shots", "live.png"))
    b.wait("document.body.dataset.ended === '1'", 60, "the game's end on its page")
    text = b.eval("document.body.innerText")
    if "ended (normal)" not in text or "secret" in text:
        fail("the end of the game: %r" % text[-300:])
    errors = [e for e in b.events if e.get("method") == "Runtime.exceptionThrown"]
    if errors:
        fail("a script error: %r" % errors[0])
    print("ok: the board went from turn %d (%d stones) to %d (%d stones) in one page" %
          (t0, s0, t1, s1))
finally:
    b.close()
run.wait(timeout=60)
