#!/usr/bin/python3
"""An entrant's private pages on a real `arena web`, over a real ladder
(tokens from `ladder add --token-file`) and a real tournament (tokens from
`arena web --tokens FILE`).

usage: author_pages.py ARENA WORKDIR api|browser

api:
- no token, a wrong token, another entrant's token, an unknown name: 403,
  one body for all; on the summary, a game's details and the log download;
- the right token: the entrant's stderr, `log` lines and views, and none of
  the other entrant's (its stderr, its log lines, its seat's secret);
- the downloaded log holds no seed and no line of another seat, and the
  command shown replays it (`arena replay LOG --seat N --agent SPEC`: every
  decision as recorded);
- after NETLIMIT_BURST (5) wrong tries from this network, 429 (bounded by
  the refill the elapsed time allows); the right token still gets in; no
  token is not a try;
- no token, no token's hash or salt in any public page, API body or event,
  nor in `ladder status --format json`, nor in the author's own answers;
- a weak token (short, or typed: 'password12345678') is refused by `ladder add`
  and by `web --tokens`;
- a tournament's agent with a --tokens line: its own page with its token,
  403 with another's.
browser (real headless Chromium, tests/web/cdp.py):
- the author page refuses a wrong token (says so, shows no data), then
  with the right one shows the entrant's stderr; the XSS lines of that
  stderr (<script>, <img onerror>, a javascript: link) are text: no script
  of theirs runs, no <img>, no link off this server, the token in no URL;
- games that end while the page is open show without a reload (it follows
  /events), and the game whose details are open stays open."""
import http.client
import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

arena, work, mode = sys.argv[1], sys.argv[2], sys.argv[3]
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
BOT = os.path.join(HERE, "author_bot.py")
from children import fail, procs  # noqa: E402


def spec(who):
    return "cmd:/usr/bin/python3 -S %s --who %s" % (BOT, who)


def write(name, text):
    path = os.path.join(work, name)
    with open(path, "w") as f:
        f.write(text)
    return path


def token(seed):
    return os.urandom(12).hex() + seed  # 24 hex characters and a tag


def run(*args, ok=True):
    r = subprocess.run([arena, *args], capture_output=True, text=True, timeout=120)
    if ok and r.returncode != 0:
        fail("arena %s: %s" % (" ".join(args), r.stderr))
    return r


def start_web(db, *extra):
    web = subprocess.Popen([arena, "web", db, "--listen", "127.0.0.1:0", "--poll-ms", "100",
                            *extra], stdout=subprocess.PIPE,
                           stderr=open(os.path.join(work, "web.err"), "a"), text=True)
    procs.append(web)
    line = web.stdout.readline()
    if "http://" not in line:
        fail("arena web printed no address: %r" % line)
    return web, "http://" + line.split("http://", 1)[1].strip().rstrip("/")


def get(base, path, tok=None, src="127.0.0.1"):
    """GET from the source address src: each 127.0.N.1 is a network of its
    own to the server's limit (a /24)."""
    host, port = base.split("//", 1)[1].rsplit(":", 1)
    c = http.client.HTTPConnection(host, int(port), timeout=30, source_address=(src, 0))
    c.request("GET", path, headers={} if tok is None else {"Authorization": "Bearer " + tok})
    r = c.getresponse()
    body = r.read().decode()
    c.close()
    return r.status, body


# ---- a ladder of two authors, each with a token ----
DB = os.path.join(work, "ladder.db")
TOK = {"alice": token("a"), "bob": token("b")}
files = {who: write(who + ".token", TOK[who] + "\n") for who in TOK}
weak = write("weak.token", "hunter2\n")
ladder_run = subprocess.Popen([arena, "ladder", "run", DB, "--game", "nim", "--set", "stones=9",
                               "--concurrency", "2", "--limit-as", "0", "--quiet",
                               "--games", "12"], stdout=subprocess.DEVNULL,
                              stderr=open(os.path.join(work, "run.err"), "w"))
procs.append(ladder_run)
end = time.time() + 60
while not (os.path.exists(DB) and run("ladder", "status", DB, ok=False).returncode == 0):
    if time.time() > end:
        fail("the ladder was not made")
    time.sleep(0.2)
r = run("ladder", "add", DB, "carol", "builtin:random", "--token-file", weak, ok=False)
if r.returncode != 2 or "16 to 255" not in r.stderr:
    fail("a weak token was taken by ladder add: %d %r" % (r.returncode, r.stderr))
# Long enough, but typed, not random (red team: all were taken).
for typed in ("password12345678", "aaaaaaaaaaaaaaaa", "0000000000000000"):
    r = run("ladder", "add", DB, "carol", "builtin:random", "--token-file",
            write("typed.token", typed + "\n"), ok=False)
    if r.returncode != 2 or "looks weak" not in r.stderr:
        fail("a typed token was taken by ladder add: %s %d %r" % (typed, r.returncode, r.stderr))
for who in ("alice", "bob"):
    run("ladder", "add", DB, who, spec(who), "--token-file", files[who])
if ladder_run.wait(timeout=300) != 0:
    fail("the ladder run failed")

con = sqlite3.connect(DB)
records = [v for (v,) in con.execute("SELECT value FROM meta WHERE key LIKE 'token:%'")]
meta_text = " ".join(v for (v,) in con.execute("SELECT value FROM meta"))
con.close()
if len(records) != 2 or not all(r.startswith("sha256:") for r in records):
    fail("the store does not hold two token records: %r" % records)
for t in TOK.values():
    if t in meta_text:
        fail("a token is stored in clear")
SECRETS = list(TOK.values()) + [p for rec in records for p in rec.split(":")[1:]] + records

web, BASE = start_web(DB)


def author_paths(name, game):
    return ["/api/author/" + name, "/api/author/%s/game/%d" % (name, game),
            "/author/%s/log/%d" % (name, game)]


def games_of(summary):
    return [g for g in summary["games"] if g["details"]]


if mode == "api":
    # Refusals: all the same 403 (each path from a network of its own, two
    # wrong tries each: under the limit).
    forbidden = None
    for i, path in enumerate(author_paths("alice", 1) + author_paths("nobody", 1)):
        for tok in (None, "", "wrong-" + TOK["alice"], TOK["bob"]):
            st, body = get(BASE, path, tok, src="127.0.%d.1" % (i + 1))
            if st != 403:
                fail("%s with %r: %d, not 403" % (path, tok, st))
            if forbidden is None:
                forbidden = body
            if body != forbidden:
                fail("%s: a 403 body differs: %r vs %r" % (path, body, forbidden))
    time.sleep(12 / 4.0 + 1)  # all networks' bucket refills (those were 12 wrong tries)

    # The right token: alice's, and nothing of bob's.
    st, body = get(BASE, "/api/author/alice", TOK["alice"])
    if st != 200:
        fail("alice's token on her page: %d %s" % (st, body))
    summary = json.loads(body)
    mine = games_of(summary)
    if not mine or any(g["agent"] != "alice/v1" for g in summary["games"]):
        fail("alice's games: %r" % summary["games"][:3])
    g = mine[0]
    st, body = get(BASE, "/api/author/alice/game/%d" % g["id"], TOK["alice"])
    if st != 200:
        fail("alice's game details: %d" % st)
    detail = json.loads(body)
    if "stderr-of-alice" not in body or "log-of-alice" not in body:
        fail("alice's stderr or log lines are not on her page: %s" % body[:400])
    if "stderr-of-bob" in body or "log-of-bob" in body:
        fail("bob's stderr or log lines are on alice's page")
    seat = detail["seats"][0]
    if [s["seat"] for s in detail["seats"]] != [g["seat"]] or not detail["replayed"]:
        fail("the details' seats: %r" % detail["seats"])
    if not seat["decisions"] or any("view" not in d for d in seat["decisions"]):
        fail("no views at alice's decisions")
    # Nim's view holds a per-seat secret: alice's only, never bob's.
    with subprocess.Popen(["zcat", os.path.join(DB + ".logs", "game-%06d.jsonl.gz" % g["id"])],
                          stdout=subprocess.PIPE, text=True) as z:
        full = [json.loads(line) for line in z.stdout]
    secret = {}
    for e in full:
        if e["type"] == "msg" and e["dir"] == "out" and e["msg"].get("type") == "decide":
            secret[e["seat"]] = e["msg"]["view"]["secret"]
    other = 1 - g["seat"]
    if secret.get(g["seat"]) is None or secret.get(other) is None:
        fail("the log does not show both seats' secrets: %r" % secret)
    if any(d["view"]["secret"] != secret[g["seat"]] for d in seat["decisions"]):
        fail("a view on alice's page is not her seat's")
    if str(secret[other]) in body:
        fail("bob's seat's secret is on alice's page")

    # The log download: this seat's lines, no seed, and it replays.
    st, log = get(BASE, "/author/alice/log/%d" % g["id"], TOK["alice"])
    if st != 200:
        fail("the log download: %d" % st)
    lines = [json.loads(x) for x in log.splitlines()]
    seed = next(e["seed"] for e in full if e["type"] == "match")
    if any("seed" in e for e in lines) or str(seed) in log:
        fail("the downloaded log holds the seed")
    if any("seat" in e and e["seat"] != g["seat"] for e in lines):
        fail("the downloaded log holds another seat's lines")
    if str(secret[other]) in log or "stderr-of-bob" in log or "log-of-bob" in log:
        fail("the downloaded log holds something of bob's")
    path = write(os.path.basename("game-%06d-private.jsonl" % g["id"]), log)
    cmd = seat["replay"]
    want = "arena replay game-%06d-private.jsonl --seat %d --agent '%s'" % (g["id"], g["seat"],
                                                                         spec("alice"))
    if cmd != want:
        fail("the replay command: %r, not %r" % (cmd, want))
    r = subprocess.run([arena, "replay", path, "--seat", str(g["seat"]), "--agent",
                        spec("alice")], capture_output=True, text=True, timeout=120)
    if r.returncode != 0 or "chose as recorded" not in r.stdout:
        fail("the downloaded log does not replay: %d %s %s" % (r.returncode, r.stdout, r.stderr))

    # bob's token reads bob's page, not alice's.
    st, body = get(BASE, "/api/author/bob", TOK["bob"])
    if st != 200 or "alice/v1" in json.dumps(json.loads(body)["games"]):
        fail("bob's page with bob's token: %d" % st)

    # The limit: 5 wrong tries from one network, then 429; the right token
    # still gets in; another network is not limited.
    LIM = "127.0.100.1"
    t0 = time.time()
    refused = 0
    while True:
        st, body = get(BASE, "/api/author/alice", "x" * 20, src=LIM)
        if st == 429:
            break
        if st != 403:
            fail("a wrong try: %d" % st)
        refused += 1
        if refused > 40:
            fail("no 429 after 40 wrong tries in %.1f s" % (time.time() - t0))
    allowed = 5 + (time.time() - t0) / 2.0 + 1
    if refused < 5 or refused > allowed:
        fail("429 after %d wrong tries in %.1f s (5 to %.0f expected)"
             % (refused, time.time() - t0, allowed))
    if get(BASE, "/api/author/nobody", "y" * 20, src=LIM)[0] != 429:
        fail("an unknown name is not limited alike")
    if get(BASE, "/api/author/alice", TOK["alice"], src=LIM)[0] != 200:
        fail("the right token was locked out by wrong tries")
    if get(BASE, "/api/author/alice", src=LIM)[0] != 403:
        fail("no token at all is not a plain 403")
    if get(BASE, "/api/author/alice", "z" * 20, src="127.0.101.1")[0] != 403:
        fail("another network is limited too")
    print("limit: 429 after %d wrong tries" % refused)

    # No token, hash or salt on a public page, API body or event, nor in
    # the author's own answers, nor in ladder status.
    bodies = []
    for p in ["/", "/games", "/settings", "/entrant/alice", "/author/alice", "/app.js",
              "/api/standings", "/api/games?limit=all", "/api/settings", "/api/entrant/alice",
              "/api/entrant/bob"]:
        st, body = get(BASE, p)
        if st != 200:
            fail("%s: %d" % (p, st))
        bodies.append(body)
    for p in author_paths("alice", g["id"]):
        bodies.append(get(BASE, p, TOK["alice"])[1])
    bodies.append(subprocess.run(["curl", "-sN", "--max-time", "2", BASE + "/events"],
                                 capture_output=True, text=True).stdout)
    bodies.append(run("ladder", "status", DB, "--format", "json").stdout)
    for s in SECRETS:
        for body in bodies:
            if s in body:
                fail("a token, hash or salt was served: %s" % s[:12])

    # A tournament: tokens from --tokens FILE.
    web.send_signal(signal.SIGTERM)
    web.wait(timeout=20)
    TDB = os.path.join(work, "t.db")
    run("tournament", "--game", "nim", "--set", "stones=9", "--agent", "alice=" + spec("alice"),
        "--agent", "bob=" + spec("bob"), "--games-per-pairing", "2", "--db", TDB, "--quiet",
        "--limit-as", "0")
    bad = write("weak.tokens", "hunter2 alice\n")
    r = subprocess.run([arena, "web", TDB, "--listen", "127.0.0.1:0", "--tokens", bad],
                       capture_output=True, text=True, timeout=30)
    if r.returncode == 0 or "16 to 255" not in r.stderr:
        fail("arena web took a weak token: %d %r" % (r.returncode, r.stderr))
    toks = write("t.tokens", "# TOKEN NAME\n%s alice\n%s bob\n" % (TOK["alice"], TOK["bob"]))
    web, BASE = start_web(TDB, "--tokens", toks)
    st, body = get(BASE, "/api/author/alice", TOK["alice"])
    if st != 200 or not games_of(json.loads(body)):
        fail("the tournament's alice with her token: %d %s" % (st, body[:200]))
    tg = games_of(json.loads(body))[0]["id"]
    st, body = get(BASE, "/api/author/alice/game/%d" % tg, TOK["alice"])
    if st != 200 or "stderr-of-alice" not in body or "stderr-of-bob" in body:
        fail("the tournament's alice's game: %d" % st)
    for p in author_paths("alice", tg):
        if get(BASE, p, TOK["bob"])[0] != 403:
            fail("bob's token opens %s" % p)
    for p in ["/api/standings", "/api/settings", "/api/entrant/alice"]:
        if TOK["alice"] in get(BASE, p)[1]:
            fail("a token on %s" % p)
    # Under duplicate pairing a game's group shares its seed: while one
    # game of the group is still played, an ended one's seat views (the
    # cards that game deals to others) open to no one, author or public.
    con = sqlite3.connect(TDB)
    grp = con.execute("SELECT grp FROM games WHERE id = ?", (tg,)).fetchone()[0]
    mates = [i for (i,) in con.execute("SELECT id FROM games WHERE grp = ? AND id != ?",
                                        (grp, tg))]
    if not mates:
        fail("game %d has no group mate: the tournament is not duplicate-paired" % tg)
    con.execute("UPDATE games SET done = 0 WHERE id = ?", (mates[0],))
    con.commit()
    con.close()
    end = time.time() + 30
    while get(BASE, "/api/author/alice/game/%d" % tg, TOK["alice"])[0] != 404:
        if time.time() > end:
            fail("game %d's details stay open while its group mate %d is played" % (tg, mates[0]))
        time.sleep(0.2)
    if get(BASE, "/author/alice/log/%d" % tg, TOK["alice"])[0] != 404:
        fail("game %d's seat log is served while its group mate is played" % tg)
    if get(BASE, "/games/%d/viewer" % tg)[0] != 404:
        fail("game %d's viewer is served while its group mate is played" % tg)
    print("ok: 403s alike, private data for its author only, a seedless seat log that replays,"
          " 429 after the burst, no token or hash served")

elif mode == "browser":
    import cdp  # noqa: E402
    b = cdp.Browser()
    try:
        b.navigate(BASE + "/author/alice")
        b.wait("document.getElementById('token') !== null", 30, "the token form")
        b.eval("document.getElementById('token').value = %s;"
               "document.getElementById('token-form').requestSubmit()"
               % json.dumps("wrong-" + TOK["alice"]))
        b.wait("document.getElementById('author-error') !== null", 30, "the wrong token refused")
        text = b.eval("document.body.innerText")
        if "stderr-of-alice" in text or "Wrong token" not in text:
            fail("a wrong token: %r" % text[:400])
        if b.eval("sessionStorage.length") != 0:
            fail("a refused token stays in sessionStorage")
        b.eval("document.getElementById('token').value = %s;"
               "document.getElementById('token-form').requestSubmit()" % json.dumps(TOK["alice"]))
        b.wait("document.querySelector('pre.stderr') !== null && "
               "document.querySelector('pre.stderr').textContent.indexOf('stderr-of-alice') >= 0",
               60, "alice's stderr")
        time.sleep(0.5)
        text = b.eval("document.body.innerText")
        for p in ('<script>window.pwned="stderr-script"</script>',
                  '<img src=x onerror="window.pwned=\'stderr-img\'">',
                  '<a href="javascript:window.pwned=\'stderr-js\'">click</a>'):
            if p not in text:
                fail("the stderr line %r is not shown as text" % p)
        if "stderr-of-bob" in text:
            fail("bob's stderr is on alice's page")
        if b.eval("window.pwned") is not None:
            fail("a payload ran: %r" % b.eval("window.pwned"))
        if b.eval("document.querySelectorAll('img').length") != 0:
            fail("an <img> came from the stderr")
        # the shell's two (boards.js, app.js) and no other
        if b.eval("[...document.querySelectorAll('script')].map(s => s.getAttribute('src'))"
                  ".join(' ')") != "/boards.js /app.js":
            fail("a <script> came from the stderr")
        hrefs = b.eval("[...document.querySelectorAll('a')].map(a => a.getAttribute('href'))")
        if [h for h in hrefs if not h.startswith("/") or h.startswith("//")]:
            fail("links off this server: %r" % hrefs)
        if TOK["alice"] in b.eval("location.href"):
            fail("the token is in the URL")
        if b.eval("sessionStorage.getItem('arena-token:alice')") != TOK["alice"]:
            fail("the token is not kept in sessionStorage")
        dialogs = [e for e in b.events if e["method"] == "Page.javascriptDialogOpening"]
        if dialogs:
            fail("a payload opened a dialog: %r" % dialogs)
        b.screenshot(os.path.join(work, "author.png"))
        # The page follows /events: games that end while it is open show
        # without a reload, and the game whose details are open stays open.
        heading = ("[...document.querySelectorAll('h3')].map(h => h.textContent)"
                   ".find(t => t.startsWith('Games (')) || ''")
        before = b.eval(heading)
        b.eval("window.kept = 1; document.getElementById('author-game').dataset.kept = '1'")
        more = subprocess.Popen([arena, "ladder", "run", DB, "--concurrency", "2", "--quiet",
                                 "--games", "6"],
                                stdout=subprocess.DEVNULL,
                                stderr=open(os.path.join(work, "run2.err"), "w"))
        procs.append(more)
        b.wait("(%s) !== %s" % (heading, json.dumps(before)), 120,
               "the games heading to change without a reload (was %r)" % before)
        if b.eval("window.kept") != 1:
            fail("the author page reloaded to show new games")
        if b.eval("document.getElementById('author-game').dataset.kept") != "1":
            fail("the open game's details were closed by a refresh")
        if more.wait(timeout=120) != 0:
            fail("the second ladder run failed")
        print("followed /events: %r -> %r" % (before, b.eval(heading)))
        # A reload keeps the tab's token; another name asks for its own.
        b.navigate(BASE + "/author/bob")
        b.wait("document.getElementById('token') !== null", 30, "bob's token form")
        if "stderr-of-" in b.eval("document.body.innerText"):
            fail("bob's page shows stderr without bob's token")
    finally:
        b.close()
    print("ok: a wrong token refused, the right one shows its stderr as text, no script ran")
else:
    fail("mode is api or browser")

web.send_signal(signal.SIGTERM)
if web.wait(timeout=20) != 0:
    fail("arena web did not stop cleanly")
