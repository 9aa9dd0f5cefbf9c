#!/usr/bin/python3
"""A live game's board advances in a real browser without a reload: headless
Chromium (tests/web/cdp.py) on the web front of a running tournament
(--http) between two slow bots, of nim (a game the viewer has no drawing
of) and then of Dominion.

usage: live_chromium.py ARENA WORKDIR

Asserts: /live lists the games in progress and links each; a game's page
shows its seats and a board whose turn counts up and whose heap of stones
goes down, in the same page (a mark set on window survives); the page ends
with the result once the game is over; no script error, no `secret` on the
page. Dominion's page draws the replay viewer's Dominion board (/boards.js)
from the public view: the supply as piles with Province and Copper, each
seat's section with its name and its hand face down, no hand's cards; the
board advances (its turn badge and the body's turn count up); stepping back
holds the board shown while newer boards arrive, and the last button
follows the game again; the events that came with a board are listed as
`arena replay` prints them. Pacifica's and Xibalba's pages draw their own
boards too (Pacifica's hands as backs showing their category, its face-up
cards with their symbols and cost: the card list comes with the seats)."""
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
from children import fail, procs  # noqa: E402


def start(game, delay_ms, *extra):
    """A tournament of two bots taking delay_ms a move, serving --http; its
    process and address."""
    bot = "cmd:/usr/bin/python3 -S %s %d" % (os.path.join(HERE, "slow_bot.py"), delay_ms)
    run = subprocess.Popen([arena, "tournament", "--game", game, "--agent", "a=" + bot,
                            "--agent", "b=" + bot, "--games-per-pairing", "2",
                            "--concurrency", "1", "--db", os.path.join(work, game + ".db"),
                            "--logs", "none", "--http", "127.0.0.1:0"] + list(extra),
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
        fail("%s: no address on stderr" % game)
    return run, addr[0]


def open_game(b, base):
    """Opens the first game /live links; its first board drawn."""
    b.navigate(base + "/live")
    href = b.wait("(document.querySelector('main a[href^=\"/live/\"]') || {}).getAttribute && "
                  "document.querySelector('main a[href^=\"/live/\"]').getAttribute('href')", 30,
                  "a game in progress on /live")
    b.navigate(base + href)
    b.wait("document.body.dataset.turn !== undefined", 20, "the first board")


def script_errors(b):
    return [e for e in b.events if e.get("method") == "Runtime.exceptionThrown" or
            (e.get("method") == "Runtime.consoleAPICalled" and e["params"].get("type") == "error")]


run, BASE = start("nim", 60, "--set", "stones=80")
b = cdp.Browser()
try:
    open_game(b, BASE)
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
    if not b.eval("document.querySelectorAll('#events li').length"):
        fail("no events listed")
    b.screenshot(os.path.join(work, "shots", "live.png"))
    b.wait("document.body.dataset.ended === '1'", 60, "the game's end on its page")
    text = b.eval("document.body.innerText")
    if "ended (normal)" not in text or "secret" in text:
        fail("the end of the game: %r" % text[-300:])
    errors = script_errors(b)
    if errors:
        fail("a script error: %r" % errors[0])
    print("ok: the board went from turn %d (%d stones) to %d (%d stones) in one page" %
          (t0, s0, t1, s1))
    run.wait(timeout=60)

    # Dominion: the viewer's own drawing of its board, from the public view.
    # The first option each time: some 120 decisions a game, 0.15 s each,
    # about 20 s to watch.
    run, BASE = start("dominion", 150)
    open_game(b, BASE)
    b.eval("window.__mark = 'same page'")
    if b.eval("document.body.dataset.game") != "dominion" or \
            "dominion" not in b.eval("document.getElementById('head').textContent"):
        fail("the game's name: %r" % b.eval("document.getElementById('head').textContent"))
    piles = b.eval("[...document.querySelectorAll('#board .supply .tile')]"
                   ".map(t => t.firstChild.textContent)") or []
    if len(piles) < 10 or "Province" not in piles or "Copper" not in piles:
        fail("no supply piles drawn: %r (board: %r)" %
             (piles, b.eval("document.getElementById('board').innerText")[:300]))
    players = b.eval("[...document.querySelectorAll('#board .player h3')]"
                     ".map(h => h.textContent)") or []
    if len(players) != 2 or not any("seat 0 " in p for p in players) or \
            not all(re.search(r"seat [01] [ab]\b", p) for p in players):
        fail("the seats' sections: %r" % players)
    # A spectator sees hands face down, never their cards.
    hands = b.eval("[...document.querySelectorAll('#board .player')].map(p => "
                   "p.querySelectorAll('.chip.hidden').length)")
    if not hands or sum(hands) < 5:
        fail("the hands face down: %r" % hands)

    def dturn():
        """The body's turn and the drawn turn badge."""
        badge = b.eval("([...document.querySelectorAll('#board .badge')]"
                       ".find(x => x.textContent.startsWith('turn: ')) || {}).textContent")
        return int(b.eval("document.body.dataset.turn")), badge

    t0, badge0 = dturn()
    b.wait("Number(document.body.dataset.turn) >= %d" % (t0 + 6), 60, "dominion's board to advance")
    t1, badge1 = dturn()
    if not badge0 or not badge1 or badge0 == badge1 or t1 <= t0:
        fail("dominion's board did not advance: turn %d %r -> %d %r" % (t0, badge0, t1, badge1))
    if b.eval("document.querySelectorAll('#board .supply .tile').length") != len(piles):
        fail("the supply went from the board")
    # The events that came with a board, as `arena replay` prints them
    # ("turn: seat 1, turn 4, extra false"), here and a board before.
    EVS = "[...document.querySelectorAll('#events li')].map(l => l.textContent)"
    evs = b.eval(EVS) or []
    # Step back: the board shown stays while newer ones arrive.
    b.eval("document.getElementById('prev').click()")
    evs += b.eval(EVS) or []
    if not any(re.match(r"turn: seat [01], turn \d+", e) for e in evs) or \
            any(e.startswith("{") or e.startswith("type") for e in evs):
        fail("the events with the boards: %r" % evs)
    if b.eval("document.body.dataset.following") != "0":
        fail("stepping back still follows the game")
    held = int(b.eval("document.body.dataset.turn"))
    board_held = b.eval("document.getElementById('board').innerText")
    newest = int(b.eval("document.body.dataset.newest"))
    if held >= newest:
        fail("the board before is turn %d, the newest %d" % (held, newest))
    b.wait("Number(document.body.dataset.newest) >= %d" % (newest + 2), 60, "newer boards")
    if int(b.eval("document.body.dataset.turn")) != held or \
            b.eval("document.getElementById('board').innerText") != board_held:
        fail("the board stepped back to moved on with the game")
    step = b.eval("document.getElementById('step').textContent")
    if not re.match(r"board \d+ of \d+ \(turn %d\)$" % held, step):
        fail("the step line: %r" % step)
    b.eval("document.getElementById('last').click()")
    if b.eval("document.body.dataset.following") != "1" or \
            b.eval("document.body.dataset.turn") != b.eval("document.body.dataset.newest"):
        fail("the last button does not follow the game again")
    b.wait("Number(document.body.dataset.turn) > %d" % int(b.eval("document.body.dataset.newest")),
           60, "the followed board to advance again")
    if b.eval("window.__mark") != "same page":
        fail("the page reloaded")
    b.screenshot(os.path.join(work, "shots", "live-dominion.png"))
    text = b.eval("document.body.innerText")
    if "secret" in text:
        fail("a secret on the page")
    errors = script_errors(b)
    if errors:
        fail("a script error: %r" % errors[0])
    print("ok: dominion's board drawn with %d supply piles, turn %d -> %d, stepped back to %d "
          "and followed again" % (len(piles), t0, t1, held))
    run.terminate()  # its second game is not watched
    run.wait(timeout=60)

    # Pacifica and Xibalba: their own drawings cope with the public view
    # (Pacifica's hands as card backs showing their category).
    for game, part in (("pacifica", "idols (dials)"), ("xibalba", "market")):
        run, BASE = start(game, 100)
        open_game(b, BASE)
        t0 = int(b.eval("document.body.dataset.turn"))
        b.wait("Number(document.body.dataset.turn) >= %d" % (t0 + 3), 60,
               "%s's board to advance" % game)
        parts = b.eval("[...document.querySelectorAll('#board h3')].map(h => h.textContent)") or []
        seats = [p for p in parts if re.match(r"seat [01] [ab]\b", p)]
        if part not in parts or len(seats) != 2:
            fail("%s: not its own drawing: %r" % (game, parts))
        if game == "pacifica":
            backs = b.eval("[...document.querySelectorAll('#board .chip.hidden')]"
                           ".map(c => c.textContent)") or []
            if not backs or not all(c in ("Treasure", "Population", "Resources", "Architecture",
                                          "Knowledge", "Machines", "Festival") for c in backs):
                fail("pacifica: the hands' backs: %r" % backs)
            # The card list comes with the seats (the game's settings): a
            # face-up card shows its symbols and cost, not its id alone.
            b.wait("document.querySelectorAll('#board .chip .facts').length > 0", 60,
                   "pacifica: a face-up card with its facts")
        errors = script_errors(b)
        if errors:
            fail("%s: a script error: %r" % (game, errors[0]))
        run.terminate()
        run.wait(timeout=60)
        print("ok: %s drawn with its own board, turn %d -> %s" %
              (game, t0, b.eval("document.body.dataset.turn")))
finally:
    b.close()
