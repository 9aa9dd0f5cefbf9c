#!/usr/bin/python3
"""The replay viewer (`arena replay LOG --format html`) in headless Chromium,
for every game: a logged game is turned into one self-contained page; the
DOM must show the agents' names and the decision count, stepping with the
arrow key must change the drawn board, a seat's file must hold no other
seat's options and no omniscient view, and a screenshot must not be blank.
Also the text record (`arena replay` without --format) for the same logs.
Fails -- never skips -- when chromium is missing.

usage: viewer.py ARENA WORKDIR"""
import html
import html.parser
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

arena, work = os.path.abspath(sys.argv[1]), sys.argv[2]
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import chromium  # noqa: E402  (tests/chromium.py)
import matchlog  # noqa: E402  (tests/matchlog.py: gzip or plain logs)

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)


profile = tempfile.mkdtemp(prefix="arena-viewer-")
BASE = chromium.command(profile)


class Texts(html.parser.HTMLParser):
    """Text under each element id, and the count of li.chosen under #options."""

    def __init__(self):
        super().__init__()
        self.stack, self.text, self.chosen, self.options = [], {}, 0, 0

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if any(s == "options" for s in self.stack) and tag == "li":
            self.options += 1
            self.chosen += "chosen" in (a.get("class") or "")
        if tag not in ("meta", "br", "input", "link", "option"):
            self.stack.append(a.get("id"))

    def handle_endtag(self, tag):
        if tag not in ("meta", "br", "input", "link", "option") and self.stack:
            self.stack.pop()

    def handle_data(self, data):
        for i in self.stack:
            if i:
                self.text[i] = self.text.get(i, "") + data


def dom(page, frag):
    r = subprocess.run(BASE + ["--dump-dom", "file://" + page + "#" + frag],
                       capture_output=True, text=True, timeout=180)
    check(r.returncode == 0 and "<html" in r.stdout, "dump-dom %s: %s" % (page, r.stderr[-300:]))
    t = Texts()
    t.feed(r.stdout)
    # the event lines, one by one
    t.events = [html.unescape(m) for m in re.findall(r'<div class="ev">([^<]*)</div>', r.stdout)]
    return t


BOTS = {"dominion": "builtin:bigmoney", "pacifica": "builtin:greedy", "xibalba": "builtin:heuristic"}
try:
    for game, strong in BOTS.items():
        log = os.path.join(work, game + ".jsonl.gz")
        r = subprocess.run([arena, "play", game, strong, "builtin:random", "--seed", "7",
                            "--log", log], capture_output=True, text=True, timeout=120)
        check(r.returncode == 0, "%s: play: %s" % (game, r.stderr))
        choices = sum(1 for e in matchlog.records(log) if e["type"] == "choice")

        # The text record.
        r = subprocess.run([arena, "replay", log], capture_output=True, text=True, timeout=120)
        check(r.returncode == 0 and "replay OK: %d decisions" % choices in r.stdout,
              "%s: text replay: %s" % (game, r.stderr))
        r_text = r.stdout
        check("final standing (normal" in r.stdout and "turn 1: seat" in r.stdout,
              "%s: text record has turns and a final standing" % game)
        check(not any(ln.startswith('{"') or ln.startswith("result {") for ln in r.stdout.splitlines()),
              "%s: no raw JSON lines in the record" % game)

        page = os.path.join(work, game + ".html")
        r = subprocess.run([arena, "replay", log, "--format", "html", "-o", page],
                           capture_output=True, text=True, timeout=120)
        check(r.returncode == 0 and os.path.exists(page), "%s: html: %s" % (game, r.stderr))
        src = open(page, encoding="utf-8").read()
        for banned in ("http://", "https://", "<link", " src="):
            check(banned not in src, "%s: page is not self-contained (%r)" % (game, banned))

        first, later = dom(page, "step=0"), dom(page, "step=0&keys=5")
        for name in (strong, "builtin:random"):
            check(name in first.text.get("names", ""), "%s: agent %s shown" % (game, name))
        check(first.text.get("step", "").strip() == "decision 1 / %d" % choices,
              "%s: step counter %r, want 1 / %d" % (game, first.text.get("step"), choices))
        check(later.text.get("step", "").strip() == "decision 6 / %d" % choices,
              "%s: five presses of the arrow key: %r" % (game, later.text.get("step")))
        check(first.text.get("board") and first.text.get("board") != later.text.get("board"),
              "%s: stepping changes the drawn board" % game)
        check(first.options >= 1 and first.chosen >= 0, "%s: options listed" % game)

        # Events read as `arena replay` prints them, not as raw JSON.
        record = {ln.strip().split("   [")[0] for ln in r_text.splitlines()}
        evs = [e for f in ("step=30", "step=31", "step=60") for e in dom(page, f).events]
        check(evs, "%s: events shown" % game)
        for e in evs:
            check(e in record, "%s: viewer event %r is not a line of `arena replay`" % (game, e))

        # The end of the game: nobody is to play; the header says what the
        # numbers are.
        end = dom(page, "step=%d" % choices)
        check("to play" not in end.text.get("board", ""),
              "%s: 'to play' after the game is over" % game)
        head = first.text.get("result", "")
        check(re.search(r"final ranks and scores: 1st seat \d .*, score -?\d+", head),
              "%s: the header's result names ranks and scores: %r" % (game, head))
        if game == "pacifica":  # cards by id and name from the card table
            board = later.text.get("board", "") + dom(page, "step=40").text.get("board", "")
            check(re.search(r"[TPRAKMF]\d\d (Coins|Settlers|Quarry|Hoard|Wall|Gears|Feast)",
                            board), "pacifica: the board names its cards: %r" % board[:300])
            # each card with its symbols and what activating it costs
            facts = re.findall(r"[TPRAKMF]\d\d \w+ [TPSBAKMF]+ · (free|needs [A-Z]+|discard [A-Z]+)",
                               board)
            check({"free", "needs", "discard"} <= {f.split()[0] for f in facts},
                  "pacifica: cards show symbols and cost: %r" % board[:300])
            check(" name " in r_text and "card " in r_text,
                  "pacifica: the text record names the cards in its events")

        # A seat's own file: no omniscient view, no step for another seat's
        # decisions (some exist only because of a hidden card), not even its kind.
        seat_page = os.path.join(work, game + "-seat1.html")
        r = subprocess.run([arena, "replay", log, "--format", "html", "--seat", "1", "-o",
                            seat_page], capture_output=True, text=True, timeout=120)
        check(r.returncode == 0, "%s: --seat 1 html: %s" % (game, r.stderr))
        data = json.loads(open(seat_page, encoding="utf-8").read().split(
            '<script type="application/json" id="data">')[1].split("</script>")[0])
        check(data["readers"] == [1], "%s: seat file has one reader" % game)
        others = [s for s in data["steps"] if s["seat"] != 1]
        check(data["steps"] and not others,
              "%s: seat file holds no other seat's decisions: %r" % (game, others[:1]))
        check(all(len(s["view"]) == 1 for s in data["steps"]), "%s: one view per step" % game)

        shot = os.path.join(work, game + ".png")
        r = subprocess.run(BASE + ["--screenshot=" + shot, "--window-size=1200,900",
                                   "file://" + page + "#step=30"],
                           capture_output=True, text=True, timeout=180)
        check(r.returncode == 0 and os.path.exists(shot) and chromium.png_not_blank(shot),
              "%s: screenshot missing or blank" % game)
finally:
    shutil.rmtree(profile, ignore_errors=True)

if failures:
    sys.exit(1)
print("ok: viewer and text record checked for", ", ".join(BOTS))
