#!/usr/bin/env python3
"""Runs a small tournament, renders `arena report --format html` in headless
Chromium and checks the page: the DOM (ranking rows, chart points, heatmap
cells, histogram bars, the game count) and a screenshot that has the asked
size and is not blank. Fails -- never skips -- when chromium is missing.

usage: e2e_html.py TCLI WORKDIR"""
import html.parser
import os
import re
import shutil
import subprocess
import sys
import tempfile

tcli, work = sys.argv[1], sys.argv[2]
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)


def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)


sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import chromium  # noqa: E402  (tests/chromium.py)

chromium.command("")  # fails now, before any work, when chromium is missing

db = os.path.join(work, "t.sqlite")
agents = ["alice", "bob", "carol", "dave"]
cmd = [tcli, "tournament", "--game", "nim", "--games-per-pairing", "6", "--seed", "3",
       "--set", "stones=15", "--db", db, "--quiet", "--concurrency", "2"]
for a in agents:
    cmd += ["--agent", a + "=builtin:random"]
r = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
if r.returncode != 0:
    fail("tournament exited %d: %s" % (r.returncode, r.stderr))
page = os.path.join(work, "report.html")
r = subprocess.run([tcli, "report", db, "--format", "html", "-o", page],
                   capture_output=True, text=True, timeout=60)
if r.returncode != 0:
    fail("report exited %d: %s" % (r.returncode, r.stderr))
src = open(page, encoding="utf-8").read()
for banned in ("http://", "https://", "<script", "<link"):
    # The SVG namespace URI is an identifier, not a fetch.
    if banned in src.replace('xmlns="http://www.w3.org/2000/svg"', ""):
        fail("report is not self-contained: found %r" % banned)

profile = tempfile.mkdtemp(prefix="arena-chromium-")
base = chromium.command(profile)
url = "file://" + os.path.abspath(page)
try:
    dom = subprocess.run(base + ["--dump-dom", url], capture_output=True, text=True,
                         timeout=120)
    shot = os.path.join(work, "shot.png")
    ss = subprocess.run(base + ["--screenshot=" + shot, "--window-size=1000,1400", url],
                        capture_output=True, text=True, timeout=120)
finally:
    shutil.rmtree(profile, ignore_errors=True)
if dom.returncode != 0 or "<html" not in dom.stdout:
    fail("chromium --dump-dom failed (%d): %s" % (dom.returncode, dom.stderr[-500:]))


class Walk(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.stack, self.count, self.text = [], {}, {}

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        ids = [x for x in (a.get("id"),) if x] + [s.get("id") for s in self.stack if s.get("id")]
        for i in set(ids):
            key = (i, tag, a.get("class"))
            self.count[key] = self.count.get(key, 0) + 1
        if tag not in ("meta", "br", "img", "input", "link", "circle", "line", "rect"):
            self.stack.append({"tag": tag, "id": a.get("id")})
        if a.get("id"):
            self.text.setdefault(a["id"], "")

    def handle_endtag(self, tag):
        if not any(s["tag"] == tag for s in self.stack):
            return
        while self.stack:
            if self.stack.pop()["tag"] == tag:
                break

    def handle_data(self, data):
        for s in self.stack:
            if s.get("id"):
                self.text[s["id"]] = self.text.get(s["id"], "") + data


w = Walk()
w.feed(dom.stdout)
n = len(agents)
checks = [
    (("ranking", "tr", None), n + 1, "ranking table rows"),
    (("elo-chart", "circle", "elo-point"), n, "Elo chart points"),
    (("elo-chart", "line", "errbar"), n, "Elo error bars"),
    (("heatmap", "rect", "cell"), n * (n - 1), "heatmap cells"),
    (("crosstable", "tr", None), n + 1, "crosstable rows"),
    (("run", "tr", "agent-spec"), n, "agent specs in the run table"),
    (("ranking", "td", "w"), n, "W column"),
    (("ranking", "td", "l"), n, "L column"),
    (("ranking", "td", "d"), n, "D column"),
    (("elo-chart", "line", "tick zero"), 1, "the Elo axis zero"),
    (("move-times", "tr", None), n + 1, "time-per-move rows"),
    (("move-times", "td", "over90"), n, "moves over 90 % of the budget"),
    (("lengths-by-pair", "svg", "pair-lengths"), n * (n - 1) // 2, "length histogram per pairing"),
]
for key, want, what in checks:
    got = w.count.get(key, 0)
    if got != want:
        fail("%s: %d, want %d" % (what, got, want))
if w.count.get(("elo-chart", "line", "tick"), 0) < 2:
    fail("Elo axis has fewer than two ticks besides zero")
if not re.search(r'class="tick-label"[^>]*>0</text>', dom.stdout):
    fail("the Elo zero tick is not labelled 0")
hdr = dom.stdout.split('id="ranking"')[1].split("</thead>")[0]
if not (hdr.index(">W<") < hdr.index(">L<") < hdr.index(">D<")):
    fail("ranking columns are not W, L, D in that order")
if "W-L-D" not in w.text.get("h2h", ""):
    fail("head-to-head is not labelled W-L-D")
for part in ("first-seat", "forfeited-none"):
    if part not in w.text:
        fail("missing #%s" % part)
if "Seat 0 (first in seat order) scores" not in w.text.get("first-seat", ""):
    fail("first-seat advantage text: %r" % w.text.get("first-seat"))
if "--seed 3" not in w.text.get("run", "") or "builtin:random" not in w.text.get("run", ""):
    fail("run table lacks settings or specs: %r" % w.text.get("run"))
for bad in ("#3465a4", "#204a87", "#73d216", "rgb(255,75,"):
    if bad in src:
        fail("colour %s is not from the colour-blind-safe palette" % bad)
if w.count.get(("lengths", "rect", "bar"), 0) < 1:
    fail("no game-length histogram bars")
if w.text.get("games", "").strip() != str(6 * 6):
    fail("game count in the page: %r" % w.text.get("games"))
for a in agents:
    if a not in w.text.get("ranking", ""):
        fail("agent %s missing from the ranking" % a)

if ss.returncode != 0 or not os.path.exists(shot):
    fail("chromium --screenshot failed (%d): %s" % (ss.returncode, ss.stderr[-500:]))
size = chromium.png_size(shot)
if size is None:
    fail("screenshot is not a PNG")
if size != (1000, 1400):
    fail("screenshot is %dx%d, want 1000x1400" % size)
if not chromium.png_not_blank(shot):
    fail("screenshot looks blank")
print("ok: DOM checks passed, screenshot %dx%d" % size)
