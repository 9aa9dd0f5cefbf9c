#!/usr/bin/env python3
"""The HTML report of a crafted DB, and the viewer of a game whose bot wrote
hostile stderr and `log` lines, in headless Chromium: no injected markup
runs or becomes an element, the hostile text shows as text, no link has a
scheme, and the report carries a Content-Security-Policy whose style hash
is its style block's. Every payload would set document.title, or add an
element, if it ran. Fails -- never skips -- when chromium is missing.

The viewer links resolve wherever `-o` writes: a report written from
another directory into a third one links the viewers that exist.

usage: e2e_html_hostile.py ARENA WORKDIR"""
import base64
import gzip
import hashlib
import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile

arena, work = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import chromium  # noqa: E402  (tests/chromium.py)

chromium.command("")  # fails now, before any work, when chromium is missing


def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)


def payload(tag):
    """Markup that sets the title to PWNED-tag if it ever runs."""
    return (f"<script>document.title='PWNED-{tag}'</script>"
            f"<img src=x onerror=\"document.title='PWNED-{tag}'\">"
            f"</text></svg><svg onload=\"document.title='PWNED-{tag}'\"></svg>"
            f"\"'><b id=\"injected-{tag}\">x</b>")


bot = os.path.join(work, "hostile_bot.py")
with open(bot, "w") as f:
    f.write(f"""import json, sys, time
STDERR, LOG = {payload('stderr')!r}, {payload('botlog')!r}
def send(m):
    sys.stdout.write(json.dumps(m) + "\\n"); sys.stdout.flush()
send({{"type": "join", "name": "hostile"}})
for line in sys.stdin:
    m = json.loads(line)
    if m["type"] == "hello":
        send({{"type": "ready"}})
    elif m["type"] == "decide":
        sys.stderr.write(STDERR + "\\n"); sys.stderr.flush()
        send({{"type": "log", "text": LOG}})
        time.sleep(0.3)  # past --move-ms: a timeout forfeit, so a viewer is written
""")

db, logs = os.path.join(work, "t.sqlite"), os.path.join(work, "logs")
# Run in WORKDIR with relative paths: the DB stores "logs/game-N...".
r = subprocess.run([arena, "tournament", "--game", "nim", "--set", "stones=12", "--agent",
                    f"host=cmd:/usr/bin/python3 -S {bot}", "--agent", "rnd=builtin:random",
                    "--games-per-pairing", "2", "--move-ms", "50", "--bank-ms", "0", "--db",
                    "t.sqlite", "--logs", "logs", "--quiet"], cwd=work, capture_output=True,
                   text=True, timeout=120)
if r.returncode != 0:
    fail(f"tournament: {r.returncode} {r.stderr}")

# The DB as a hostile supplier sends it: names, log paths, messages, settings.
NAME = payload("name")
con = sqlite3.connect(db)
con.execute("UPDATE agents SET name = ? WHERE name = 'host'", (NAME,))
con.execute("UPDATE agents SET spec = ? WHERE name = 'rnd'", (payload("spec"),))
con.execute("UPDATE meta SET value = ? WHERE key = 'game'", ("nim" + payload("game"),))
con.execute("UPDATE meta SET value = ? WHERE key = 'created'", (payload("created"),))
con.execute("UPDATE meta SET value = ? WHERE key = 'args'", (json.dumps([payload("args")]),))
ids = [g for (g,) in con.execute("SELECT id FROM games WHERE forfeits LIKE '%timeout%' ORDER BY id")]
if len(ids) != 2:
    fail(f"want 2 forfeited games, got {ids}")
con.execute("UPDATE games SET log = ? WHERE id = ?",
            ("javascript:document.title='PWNED-href'//", ids[0]))
con.execute("UPDATE games SET fault_msgs = ? WHERE id = ?",
            (json.dumps([payload("fault")] * 2), ids[1]))
con.commit()
con.close()

page = os.path.join(work, "report.html")
r = subprocess.run([arena, "report", db, "--format", "html", "--anchor", NAME, "-o", page],
                   capture_output=True, text=True, timeout=60)
if r.returncode != 0:
    fail(f"report: {r.returncode} {r.stderr}")
src = open(page, encoding="utf-8").read()

# The viewer of the second forfeited game, written by the tournament.
viewer = os.path.join(logs, f"game-{ids[1]:06d}.jsonl.gz.html")
if not os.path.exists(viewer):
    fail(f"no viewer {viewer}")

profile = tempfile.mkdtemp(prefix="arena-chromium-")
try:
    base = chromium.command(profile)
    doms = {}
    for what, p, frag in (("report", page, ""), ("viewer", viewer, "")):
        d = subprocess.run(base + ["--virtual-time-budget=3000", "--dump-dom",
                                   "file://" + os.path.abspath(p) + frag],
                           capture_output=True, text=True, timeout=120)
        if d.returncode != 0 or "<html" not in d.stdout:
            fail(f"chromium --dump-dom {what}: {d.returncode} {d.stderr[-400:]}")
        doms[what] = d.stdout
finally:
    shutil.rmtree(profile, ignore_errors=True)

for what, dom in doms.items():
    title = re.search(r"<title>(.*?)</title>", dom, re.S)
    if not title or title.group(1).strip().startswith("PWNED"):
        fail(f"{what}: an injected script ran: title {title.group(1)!r}")
    if re.search(r"<b id=\"injected-", dom) or re.search(r"<img[^>]*onerror", dom):
        fail(f"{what}: injected markup became elements")
    for m in re.finditer(r'href="([^"]*)"', dom):
        h = m.group(1)
        if re.match(r"[A-Za-z][A-Za-z0-9+.-]*:", h) or h.startswith("/"):
            fail(f"{what}: a link with a scheme or an absolute path: {h!r}")

rep = doms["report"]
# The hostile strings show as text: escaped once in the DOM's serialisation.
for tag in ("name", "spec", "game", "created", "args", "fault"):
    shown = payload(tag).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    if shown not in rep:
        fail(f"report: the hostile {tag} is not shown as text")
if "rating 0 for &lt;script&gt;" not in rep:
    fail("report: the anchor note does not show the hostile name as text")
if "javascript:" in "".join(re.findall(r'href="([^"]*)"', rep)):
    fail("report: the stored javascript: log path became a link")
links = re.findall(r'class="viewer" href="([^"]*)"', rep)
if links != [f"logs/game-{ids[1]:06d}.jsonl.gz.html"]:
    fail(f"report: viewer links {links}")
view = doms["viewer"]
for tag in ("stderr", "botlog"):
    if "PWNED-" + tag not in view:
        fail(f"viewer: the hostile {tag} text is not shown")
# The CSP: nothing may load or run; the one style block by its hash.
csp = re.search(r'<meta http-equiv="Content-Security-Policy" content="([^"]*)">', src)
if not csp or "default-src 'none'" not in csp.group(1):
    fail(f"no Content-Security-Policy with default-src 'none': {csp and csp.group(1)}")
if "unsafe-inline" in csp.group(1) or "script-src" in csp.group(1):
    fail(f"the CSP allows more than the page needs: {csp.group(1)}")
styles = re.findall(r"<style>(.*?)</style>", src, re.S)
want = "'sha256-%s'" % base64.b64encode(hashlib.sha256(styles[0].encode()).digest()).decode()
if len(styles) != 1 or want not in csp.group(1):
    fail(f"the CSP's style hash is not the style block's ({want}): {csp.group(1)}")

# The viewer links resolve from wherever the page is written: report run
# from another directory, written into a third.
other, deep = os.path.join(work, "elsewhere"), os.path.join(work, "out", "deep")
os.makedirs(other)
os.makedirs(deep)
r = subprocess.run([arena, "report", "../t.sqlite", "--format", "html", "-o",
                    "../out/deep/r.html"], cwd=other, capture_output=True, text=True, timeout=60)
if r.returncode != 0:
    fail(f"report -o elsewhere: {r.returncode} {r.stderr}")
far = re.findall(r'class="viewer" href="([^"]*)"', open(os.path.join(deep, "r.html")).read())
if not far or not all(os.path.isfile(os.path.join(deep, h)) for h in far):
    fail(f"a report written to out/deep/ links {far}, which do not resolve from there")
for h in far:
    if os.path.realpath(os.path.join(deep, h)) != os.path.realpath(viewer):
        fail(f"out/deep/r.html links {h}, not the viewer {viewer}")
print("ok: no payload ran in the report or the viewer; links", links)
