#!/usr/bin/python3
"""The per-game helpers of the SDKs are the same: every name in Python's
``arena_sdk.games`` has its camelCase twin in JS's ``games`` and the other way
round, docs/writing-a-bot.md names only helpers both have, and the Pacifica
card parser reads the real ``card_list`` of a game the same in both. (The C
SDK has no per-game helpers: it hands the bot the decoded messages.)

usage: helper_parity.py ARENA NODE"""
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
sys.path.insert(0, os.path.join(ROOT, "sdk", "python"))
from arena_sdk import games  # noqa: E402

ARENA, NODE = sys.argv[1], sys.argv[2]
SDK_JS = os.path.abspath(os.path.join(ROOT, "sdk", "js", "arena-sdk.js"))
GAMES = ("nim", "dominion", "pacifica", "xibalba")
problems = []


def camel(name):
    """with_verb -> withVerb; CATEGORY_LETTERS stays (a constant)."""
    if name.isupper():
        return name
    head, *rest = name.split("_")
    return head + "".join(w.capitalize() for w in rest)


def python_names():
    out = {"": {camel(n) for n in ("split_label",)}}
    for g in GAMES:
        cls = getattr(games, g)
        out[g] = {camel(n) for n in vars(cls) if not n.startswith("_")}
    return out


def node(script, *args):
    p = subprocess.run([NODE, "-e", script, SDK_JS, *args], capture_output=True, text=True,
                       timeout=30)
    if p.returncode != 0:
        sys.exit("node failed: " + p.stderr)
    return json.loads(p.stdout)


JS_NAMES = """
const g = require(process.argv[1]).games;
const out = {'': Object.keys(g).filter((k) => typeof g[k] === 'function')};
for (const k of Object.keys(g)) if (typeof g[k] === 'object') out[k] = Object.keys(g[k]);
process.stdout.write(JSON.stringify(out));
"""

JS_CARDS = """
const g = require(process.argv[1]).games;
const opts = JSON.parse(require('fs').readFileSync(process.argv[2], 'utf8'));
const cards = typeof g.pacifica.cards === 'function' ? g.pacifica.cards(opts) : null;
process.stdout.write(JSON.stringify(cards));
"""

py = python_names()
js = {k: set(v) for k, v in node(JS_NAMES).items()}
for g in ("",) + GAMES:
    where = "games" + ("." + g if g else "")
    for n in sorted(py[g] - js.get(g, set())):
        problems.append(f"JS {where} lacks {n} (Python has it)")
    for n in sorted(js.get(g, set()) - py[g]):
        problems.append(f"Python {where} lacks {n} (JS has it)")
for g in set(js) - set(py):
    problems.append(f"JS games.{g} has no Python twin")

# Every helper the tutorial promises exists in both.
doc = open(os.path.join(ROOT, "docs", "writing-a-bot.md"), encoding="utf-8").read()
m = re.search(r"\* Per-game helpers:(.*?)\n\n", doc, re.S)
if not m:
    problems.append("docs/writing-a-bot.md: the per-game helpers paragraph is gone")
else:
    para = m.group(1)
    promised = 0
    for g in GAMES:
        # from the game's last mention to the next `games.`: its helpers
        at = para.rfind("games.%s`" % g)
        end = para.find("games.", at + 1) if at >= 0 else -1
        block = para[at:end if end >= 0 else len(para)] if at >= 0 else ""
        for n in re.findall(r"`(\w+)(?:\([^`]*\))?`", block):
            promised += 1
            if camel(n) not in py[g] or camel(n) not in js.get(g, set()):
                problems.append(f"the tutorial promises games.{g}.{n}, missing in an SDK")

    if promised < 8:
        problems.append(f"only {promised} helpers found in the tutorial's list: the test is stale")

# The real card list of a Pacifica game, parsed by both.
with tempfile.TemporaryDirectory() as tmp:
    log = os.path.join(tmp, "p.jsonl")
    subprocess.run([ARENA, "play", "pacifica", "builtin:random", "builtin:random", "--seed", "1",
                    "--log", log, "--log-plain"], check=True, capture_output=True, timeout=120)
    with open(log) as f:
        header = json.loads(f.readline())
    options = header["options"]
    path = os.path.join(tmp, "options.json")
    with open(path, "w") as f:
        json.dump(options, f)
    want = games.pacifica.cards(options)
    got = node(JS_CARDS, path)
    if len(want) < 100:
        problems.append(f"only {len(want)} cards in the Python parse")
    if got is None:
        problems.append("JS games.pacifica.cards is missing")
    elif got != want:
        diff = [k for k in want if got.get(k) != want[k]][:3]
        problems.append(f"JS pacifica.cards differs from Python's, e.g. {diff}")

for p in problems:
    print("FAIL:", p)
if problems:
    sys.exit(1)
print("ok: %d helper names in both SDKs; %d Pacifica cards parsed alike" %
      (sum(len(v) for v in py.values()), len(want)), flush=True)
