#!/usr/bin/python3
"""`arena web` in real headless Chromium, over a real running ladder.

usage: web_pages.py ARENA WORKDIR

- the leaderboard changes without a reload when games end (entrants are
  added while the page is open; a marker set on the page survives);
- XSS attempts in an author and its validation reason render as text: no
  script of theirs runs (each would set window.pwned or open a dialog), no
  <img> appears, every link stays on this server; a bot's stderr holding
  the same is on no public page;
- an entrant's rating history is bounded (RATING_HISTORY_MAX points), ends
  at the leaderboard's rating, and is drawn as an SVG beside its versions;
  a tournament agent's hostile name (written into its store) shows as text
  on its entrant page, history included;
- every response carries Content-Security-Policy default-src 'self' and
  nosniff; no API body or event carries the master seed or a game's seed.
Screenshots of every page go to WORKDIR/shots/."""
import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
import urllib.parse
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import cdp  # noqa: E402

arena, work = sys.argv[1], sys.argv[2]
shutil.rmtree(work, ignore_errors=True)
os.makedirs(os.path.join(work, "shots"))
DB = os.path.join(work, "ladder.db")
AUTHOR = '<img src=x onerror="window.pwned=\'author\'"><script>window.pwned="author2"</script>'
from children import fail, procs, until  # noqa: E402


def ladder(*args, ok=True):
    r = subprocess.run([arena, "ladder", *args], capture_output=True, text=True, timeout=60)
    if ok and r.returncode != 0:
        fail("arena ladder %s: %s" % (" ".join(args), r.stderr))
    return r


run = subprocess.Popen([arena, "ladder", "run", DB, "--game", "nim", "--set", "stones=9",
                        "--concurrency", "2", "--limit-as", "0", "--quiet", "--games", "600"],
                       stdout=subprocess.DEVNULL, stderr=open(os.path.join(work, "run.err"), "w"))
procs.append(run)
until(lambda: os.path.exists(DB) and ladder("status", DB, ok=False).returncode == 0, 30,
      "the ladder to be made")
ladder("add", DB, "xss", "cmd:/usr/bin/python3 -S " + os.path.join(HERE, "hostile_bot.py"),
       "--author", AUTHOR)
until(lambda: json.loads(ladder("status", DB, "--format", "json").stdout)["entrants"][0]["state"]
      == "disabled", 30, "the hostile bot to fail validation")

web = subprocess.Popen([arena, "web", DB, "--listen", "127.0.0.1:0"], stdout=subprocess.PIPE,
                       stderr=open(os.path.join(work, "web.err"), "w"), text=True)
procs.append(web)
line = web.stdout.readline()
if "http://" not in line:
    fail("arena web printed no address: %r" % line)
BASE = line.split("http://", 1)[1].strip().rstrip("/")
BASE = "http://" + BASE


def get(path):
    with urllib.request.urlopen(BASE + path, timeout=10) as r:
        return r.status, dict(r.headers), r.read().decode()


b = cdp.Browser()
try:
    # The leaderboard before any game, then live as games end.
    b.navigate(BASE + "/")
    b.wait("document.getElementById('summary') !== null", 20, "the leaderboard")
    b.eval("window.__mark = 'same page'")
    before = b.eval("document.getElementById('summary').textContent")
    if "0 ranked games" not in before:
        fail("leaderboard before any game: %r" % before)
    ladder("add", DB, "alice", "builtin:random")
    ladder("add", DB, "bob", "builtin:random", "--author", AUTHOR)
    b.wait("document.getElementById('summary').textContent.indexOf(' 0 ranked games') < 0 && "
           "document.querySelectorAll('tbody tr').length === 3", 60,
           "the leaderboard to change without a reload")
    if b.eval("window.__mark") != "same page":
        fail("the page reloaded instead of updating")
    if b.eval("document.getElementById('live').textContent") != "live":
        fail("the page does not say it is live")
    b.screenshot(os.path.join(work, "shots", "standings.png"))
    ladder("add", DB, "alice", "builtin:random")  # a second version of alice
    run.wait(timeout=120)  # --games 600: the ladder ends on its own

    # The rating history: bounded, in order, and its last point is the
    # leaderboard's rating of the version that played last.
    # (The ladder may end before alice's second version is added: the front
    # sees that only at its next look at the store.)
    until(lambda: json.loads(get("/api/standings")[2])["finished"] >= 600 and
          len(json.loads(get("/api/entrant/alice")[2])["versions"]) == 2, 30,
          "the front to read the ended ladder and alice's second version")
    board = {e["agent"]: e for e in json.loads(get("/api/standings")[2])["entrants"]}
    for who in ("alice", "bob"):
        ent = json.loads(get("/api/entrant/" + who)[2])
        h, pts = ent["history"], ent["history"]["points"]
        if not pts or len(pts) > h["max"] or len(pts) != min(h["games"], h["max"]):
            fail("%s: %d history points for %d games (max %d)"
                 % (who, len(pts), h["games"], h["max"]))
        if [p["games"] for p in pts] != sorted(set(p["games"] for p in pts)) \
                or pts[-1]["games"] != h["games"]:
            fail("%s: history points out of order or not ending at its last game" % who)
        last = pts[-1]
        if (last["rating"], last["ci95"]) != (board[last["agent"]]["rating"],
                                              board[last["agent"]]["ci95"]):
            fail("%s: history ends at %r, the leaderboard says %r"
                 % (who, last, board[last["agent"]]))
        vs = {v["agent"]: v for v in ent["versions"]}
        for agent, v in vs.items():
            if (v["games"], v["rating"]) != (board[agent]["games"], board[agent]["rating"]):
                fail("%s: version %r differs from the leaderboard's %r" % (who, v, board[agent]))
        if sum(v["games"] for v in vs.values()) != h["games"]:
            fail("%s: the versions' games do not add up to the history's" % who)
    bob_games = json.loads(get("/api/entrant/bob")[2])["history"]["games"]
    if bob_games <= 200:
        fail("bob played %d games: too few to test the bound" % bob_games)
    alice = json.loads(get("/api/entrant/alice")[2])
    if [v["version"] for v in alice["versions"]] != [1, 2]:
        fail("alice's versions: %r" % alice["versions"])
    b.navigate(BASE + "/entrant/alice")
    b.wait("document.querySelector('#history polyline') !== null", 20, "the history chart")
    drawn = b.eval("document.querySelector('#history polyline').getAttribute('points')"
                   ".split(' ').length")
    if drawn != len(alice["history"]["points"]):
        fail("the chart draws %r points of %d" % (drawn, len(alice["history"]["points"])))
    rows = b.eval("[...document.querySelectorAll('#versions tbody tr')]"
                  ".map(r => r.cells[0].textContent + ' ' + r.cells[6].textContent)")
    if rows != ["alice/v%d %d" % (v["version"], v["games"]) for v in alice["versions"]]:
        fail("the versions table shows %r" % rows)

    pages = ["/", "/games", "/games?agent=bob", "/entrant/xss", "/entrant/bob", "/entrant/alice",
             "/settings"]
    for path in pages:
        b.navigate(BASE + path)
        b.wait("document.querySelector('main table, main pre') !== null", 20, path)
        b.wait("document.getElementById('live').textContent === 'live'", 20,
               path + " to say it is live")
        time.sleep(0.5)
        text = b.eval("document.body.innerText")
        if b.eval("window.pwned") is not None:
            fail("%s: a payload ran: window.pwned = %r" % (path, b.eval("window.pwned")))
        if b.eval("document.title").split(" \u00b7 ")[0] != "Arena":
            fail("%s: the title changed: %r" % (path, b.eval("document.title")))
        if b.eval("document.querySelectorAll('img').length") != 0:
            fail("%s: an <img> element came from the data" % path)
        # the shell's two (boards.js, app.js) and no other
        if b.eval("[...document.querySelectorAll('script')].map(s => s.getAttribute('src'))"
                  ".join(' ')") != "/boards.js /app.js":
            fail("%s: a <script> element came from the data" % path)
        hrefs = b.eval("[...document.querySelectorAll('a')].map(a => a.getAttribute('href'))")
        bad = [h for h in hrefs if not h.startswith("/") or h.startswith("//")]
        if bad:
            fail("%s: links off this server: %r" % (path, bad))
        if path in ("/", "/entrant/bob") and "<img src=x onerror=" not in text:
            fail("%s: the hostile author is not shown as text: %r" % (path, text[:800]))
        if path == "/entrant/xss":
            # A bot's stderr is its author's: it stays off the public pages
            # (arena ladder status --format json shows it to the organiser).
            for payload in ("stderr-script", "stderr-img", "stderr-js"):
                if payload in text:
                    fail("/entrant/xss: the bot's stderr (%r) is on a public page" % payload)
        if path == "/games?agent=bob" and "bob/v1" not in text:
            fail("the games of bob are not listed")
        name = path.strip("/").replace("/", "-").replace("?", "-").replace("=", "-") or "standings"
        b.screenshot(os.path.join(work, "shots", name + ".png"))
    dialogs = [e for e in b.events if e["method"] == "Page.javascriptDialogOpening"]
    if dialogs:
        fail("a payload opened a dialog: %r" % dialogs)

    # The viewer of a finished game opens from the games page.
    b.navigate(BASE + "/games?agent=alice")
    href = b.wait("(document.querySelector('a[href$=\"/viewer\"]') || {}).getAttribute && "
                  "document.querySelector('a[href$=\"/viewer\"]').getAttribute('href')", 20,
                  "a viewer link")
    b.navigate(BASE + href)
    b.wait("document.getElementById('board') && document.getElementById('board')"
           ".textContent.length > 0", 20, "the viewer to draw")
    b.screenshot(os.path.join(work, "shots", "viewer.png"))
finally:
    b.close()

# A tournament whose agent's name was made hostile in its store (the CLI
# refuses such names; a store may come from anywhere): its entrant page,
# history included, shows the name as text.
TDB = os.path.join(work, "t.db")
# (No '/': a path segment cannot hold one.)
HOSTILE = '<img src=x onerror="window.pwned=\'name\'"><svg onload="window.pwned=\'svg\'">'
r = subprocess.run([arena, "tournament", "--game", "nim", "--set", "stones=9", "--agent",
                    "a=builtin:random", "--agent", "b=builtin:random", "--db", TDB,
                    "--games-per-pairing", "20", "--quiet"], capture_output=True, timeout=120)
if r.returncode != 0:
    fail("the tournament failed: %r" % r.stderr[-400:])
con = sqlite3.connect(TDB)
con.execute("UPDATE agents SET name = ? WHERE name = 'a'", (HOSTILE,))
con.commit()
con.close()
tweb = subprocess.Popen([arena, "web", TDB, "--listen", "127.0.0.1:0"], stdout=subprocess.PIPE,
                        stderr=open(os.path.join(work, "tweb.err"), "w"), text=True)
procs.append(tweb)
TBASE = "http://" + tweb.stdout.readline().split("http://", 1)[1].strip().rstrip("/")
with urllib.request.urlopen(TBASE + "/api/entrant/" + urllib.parse.quote(HOSTILE, safe=""),
                            timeout=10) as resp:
    tent = json.loads(resp.read().decode())
tstand = {e["name"]: e for e in json.loads(urllib.request.urlopen(
    TBASE + "/api/standings", timeout=10).read().decode())["entrants"]}
tlast = tent["history"]["points"][-1]
if len(tent["history"]["points"]) != 20 or tlast["agent"] != HOSTILE or \
        tlast["rating"] != tstand[HOSTILE]["rating"]:
    fail("the tournament's history: %r (standings %r)" % (tent["history"], tstand[HOSTILE]))
b = cdp.Browser()
try:
    b.navigate(TBASE + "/entrant/" + urllib.parse.quote(HOSTILE, safe=""))
    b.wait("document.querySelector('#history polyline') !== null", 20, "the tournament's chart")
    time.sleep(0.5)
    if b.eval("window.pwned") is not None or b.eval("document.querySelectorAll('img').length"):
        fail("a hostile agent name ran or made an <img>: %r" % b.eval("window.pwned"))
    if b.eval("document.querySelectorAll('svg').length") != 1:
        fail("a hostile agent name made an <svg> element")
    if b.eval("document.body.innerText").count(HOSTILE) < 3:  # title, versions, history note
        fail("the hostile name is not shown as text: %r" % b.eval("document.body.innerText"))
    b.screenshot(os.path.join(work, "shots", "entrant-hostile.png"))
finally:
    b.close()
tweb.send_signal(signal.SIGTERM)
tweb.wait(timeout=10)

# Headers, and no seed anywhere.
con = sqlite3.connect(DB)
seeds = [str(s) for (s,) in con.execute("SELECT seed FROM games")]
seeds += [v for (v,) in con.execute("SELECT value FROM meta WHERE key = 'seed'")]
con.close()
seeds = [s for s in seeds if len(s) >= 6]
if not seeds:
    fail("no seeds found to look for")
bodies = []
for path in ["/", "/games", "/settings", "/entrant/bob", "/app.js", "/api/standings",
             "/api/games?limit=all", "/api/settings", "/api/entrant/bob", "/api/entrant/xss"]:
    status, h, body = get(path)
    if h.get("Content-Security-Policy") != "default-src 'self'":
        fail("%s: CSP %r" % (path, h.get("Content-Security-Policy")))
    if h.get("X-Content-Type-Options") != "nosniff":
        fail("%s: no nosniff" % path)
    if path.endswith((".js",)) is False and path.startswith("/") and not path.startswith("/api") \
            and "<script>" in body:
        fail("%s: an inline script" % path)
    bodies.append(body)
ev = subprocess.run(["curl", "-sN", "--max-time", "2", BASE + "/events"], capture_output=True,
                    text=True).stdout
if "event: standings" not in ev:
    fail("/events sent no standings event: %r" % ev[:300])
bodies.append(ev)
for s in seeds:
    for body in bodies:
        if s in body:
            fail("a seed (%s) was served" % s)
web.send_signal(signal.SIGTERM)
if web.wait(timeout=10) != 0:
    fail("arena web did not stop cleanly on SIGTERM")
print("ok: live leaderboard, XSS as text, CSP, no seed; screenshots in",
      os.path.join(work, "shots"))
