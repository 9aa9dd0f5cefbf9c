#!/usr/bin/env python3
"""End-to-end checks of `arena elo|tournament|report|sprt`: ratings against an
independent computation, argument errors, determinism from the seed, tournament
files, 3-player tables, the JSON report shape, SPRT runs.

usage: e2e_cli.py TCLI WORKDIR"""
import json
import math
import os
import shutil
import sqlite3
import subprocess
import sys

tcli, work = sys.argv[1], sys.argv[2]
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
failures = []


def check(cond, msg):
    if not cond:
        failures.append(msg)
        print("FAIL:", msg)


def run(*args, timeout=120):
    return subprocess.run([tcli, *args], capture_output=True, text=True, timeout=timeout)


def write(name, text):
    path = os.path.join(work, name)
    with open(path, "w") as f:
        f.write(text)
    return path


def usage_error(r, what):
    lines = r.stderr.strip().splitlines()
    check(r.returncode == 2, "%s: exit %d, want 2" % (what, r.returncode))
    check(len(lines) == 1 and lines[0].startswith("arena: "),
          "%s: want one 'arena: ...' line, got %r" % (what, r.stderr))


# --- arena elo: two agents, closed form -----------------------------------
two = write("two.txt", "A B\n" * 30 + "B A\n" * 10 + "A = B\n" * 10)
r = run("elo", two, "--prior", "0", "--format", "json")
check(r.returncode == 0, "elo two exit %d %s" % (r.returncode, r.stderr))
j = json.loads(r.stdout)
rat = {x["agent"]: x for x in j["ratings"]}
s = 35 / 50
diff = -400 * math.log10(1 / s - 1)
check(abs(rat["A"]["elo"] - rat["B"]["elo"] - diff) < 0.15, "elo diff %r" % j)
k = math.log(10) / 400
sd_diff = 1 / math.sqrt(k * k * 50 * s * (1 - s))
check(abs(rat["A"]["error"] - 1.959964 * sd_diff / 2) < 0.15, "elo error %r" % rat["A"])
check(rat["A"]["games"] == 50 and abs(rat["A"]["score"] - 0.7) < 1e-9, "games/score %r" % rat)
check(set(rat["A"]) == {"agent", "elo", "error", "games", "score"}, "rating keys %r" % rat["A"])
check(j["ratings"][0]["agent"] == "A", "best first")
los = j["los"]["A"]["B"]
want_los = 0.5 * math.erfc(-(diff / sd_diff) / math.sqrt(2))
check(abs(los - want_los) < 1e-3, "LOS %r want %r" % (los, want_los))

# Anchored at B: B is 0 with no error bar.
r = run("elo", two, "--prior", "0", "--anchor", "B", "--format", "json")
rat = {x["agent"]: x for x in json.loads(r.stdout)["ratings"]}
check(rat["B"]["elo"] == 0 and rat["B"]["error"] == 0, "anchor %r" % rat)
check(abs(rat["A"]["elo"] - diff) < 0.15, "anchored diff %r" % rat)

# --- arena elo: multiplayer lines vs Hunter's MM in Python -----------------
lines = ["X Y = Z"] * 7 + ["Y X Z"] * 5 + ["Z X Y"] * 3 + ["X = Y = Z"] * 2 + ["Y Z"] * 4
multi = write("multi.txt", "# three agents\n" + "\n".join(lines) + "\n\n")
names = ["X", "Y", "Z"]
w = {(a, b): 0.0 for a in names for b in names}
g = {(a, b): 0.0 for a in names for b in names}
for ln in lines:
    toks = ln.split()
    rank, order, tie = 0, [], False
    for t in toks:
        if t == "=":
            tie = True
            continue
        if not tie:
            rank = len(order) + 1
        order.append((t, rank))
        tie = False
    for i in range(len(order)):
        for jx in range(i + 1, len(order)):
            (a, ra), (b, rb) = order[i], order[jx]
            sc = 1.0 if ra < rb else 0.5 if ra == rb else 0.0
            w[a, b] += sc
            w[b, a] += 1 - sc
            g[a, b] += 1
            g[b, a] += 1
gam = {a: 1.0 for a in names}
for _ in range(5000):
    for a in names:
        num = sum(w[a, b] for b in names if b != a)
        den = sum(g[a, b] / (gam[a] + gam[b]) for b in names if b != a)
        gam[a] = num / den
    m = sum(math.log10(v) for v in gam.values()) / 3
    gam = {a: v / 10 ** m for a, v in gam.items()}
r = run("elo", multi, "--prior", "0", "--format", "json", "--model", "pairwise")
check(r.returncode == 0, "elo multi exit %d %s" % (r.returncode, r.stderr))
check(json.loads(r.stdout)["model"] == "pairwise", "elo --model pairwise")
got = {x["agent"]: x for x in json.loads(r.stdout)["ratings"]}
for a in names:
    check(abs(got[a]["elo"] - 400 * math.log10(gam[a])) < 0.15,
          "multi %s: %r vs %r" % (a, got[a]["elo"], 400 * math.log10(gam[a])))
check(got["X"]["games"] == 17, "multi games %r" % got["X"])
# Without --model, 3-player lines are fitted by Plackett-Luce, whose error
# bars are wider: one game does not count as three pairwise results.
r = run("elo", multi, "--prior", "0", "--format", "json")
pl = json.loads(r.stdout)
check(pl["model"] == "plackett-luce", "default model for 3 players %r" % pl["model"])
plr = {x["agent"]: x for x in pl["ratings"]}
check(all(plr[a]["error"] > got[a]["error"] for a in names), "PL wider %r %r" % (plr, got))
check(run("elo", multi, "--model", "bogus").returncode == 2, "elo --model bogus exits 2")

# Perfect scores stay finite; text output works.
perfect = write("perfect.txt", "P Q\n" * 8 + "P R\n" * 8 + "Q R\nR Q\n")
r = run("elo", perfect, "--prior", "0", "--format", "json")
check(r.returncode == 0, "perfect exit %d" % r.returncode)
pr = {x["agent"]: x for x in json.loads(r.stdout)["ratings"]}
check(all(math.isfinite(x["elo"]) and math.isfinite(x["error"]) for x in pr.values()),
      "perfect finite %r" % pr)
check(pr["P"]["elo"] > pr["Q"]["elo"], "perfect order")
r = run("elo", perfect)
check(r.returncode == 0 and "LOS" in r.stdout and "P" in r.stdout, "elo text %r" % r.stdout)

# Argument errors: exit 2 with one line.
usage_error(run("elo"), "elo without file")
usage_error(run("elo", two, "--format", "xml"), "elo bad format")
usage_error(run("elo", two, "--anchor", "nobody"), "elo bad anchor")
usage_error(run("elo", write("bad.txt", "A = \n")), "elo bad file")
usage_error(run("elo", two, "--prior", "-1"), "elo bad prior")
for cmd in ("elo", "tournament", "report", "sprt"):
    r = run(cmd, "--help")
    check(r.returncode == 0 and "usage: arena " + cmd in r.stdout, "%s --help" % cmd)

# --- tournaments ------------------------------------------------------------
def games_rows(db):
    con = sqlite3.connect(db)
    try:
        return con.execute("SELECT id, grp, seed, players, seats FROM games ORDER BY id").fetchall()
    finally:
        con.close()


spec = write("nim.tournament", """# a test tournament
game = nim
agent = a=builtin:random
agent = b=builtin:random   # comment after a value
agent = c=builtin:random
format = round-robin
games-per-pairing = 4
seed = 11
set = stones=12
move-ms = 2000
""")
db1, db2, db3 = (os.path.join(work, n) for n in ("d1.sqlite", "d2.sqlite", "d3.sqlite"))
r1 = run("tournament", spec, "--db", db1, "--quiet", "--logs", "none")
check(r1.returncode == 0, "file tournament exit %d %s" % (r1.returncode, r1.stderr))
check("games: 12 of 12 finished" in r1.stdout, "final report %r" % r1.stdout[:300])
r2 = run("tournament", spec, "--db", db2, "--quiet", "--concurrency", "1", "--logs", "none")
check(r2.returncode == 0, "second run %s" % r2.stderr)
check(games_rows(db1) == games_rows(db2), "same file and seed, same schedule and seeds")
r3 = run("tournament", spec, "--db", db3, "--seed", "12", "--quiet", "--logs", "none")
check(r3.returncode == 0, "third run %s" % r3.stderr)
s1, s3 = games_rows(db1), games_rows(db3)
check(len(s1) == len(s3) and [x[2] for x in s1] != [x[2] for x in s3], "seed changes seeds")
# Independent pairing (the default): pairs swap seats, every game has its own seed.
check(len({x[2] for x in s1}) == len(s1), "independent: one seed per game %r" % s1)
for x, y in zip(s1[0::2], s1[1::2]):
    check(x[1] == y[1] and x[4].split(",") == y[4].split(",")[::-1], "pair %r %r" % (x, y))
# Duplicate pairing: the two games of a pair share a seed with seats swapped.
dbdup = os.path.join(work, "dup.sqlite")
rdup = run("tournament", spec, "--db", dbdup, "--quiet", "--logs", "none", "--pairing", "duplicate")
check(rdup.returncode == 0 and "duplicate pairing" in rdup.stdout, "duplicate run %s" % rdup.stderr)
sdup = games_rows(dbdup)
for x, y in zip(sdup[0::2], sdup[1::2]):
    check(x[1] == y[1] and x[2] == y[2] and x[4].split(",") == y[4].split(",")[::-1],
          "duplicate pair %r %r" % (x, y))
check(len({x[2] for x in sdup}) == len(sdup) // 2, "duplicate: one seed per pair")
usage_error(run("tournament", spec, "--db", os.path.join(work, "dup2.sqlite"), "--pairing", "x"),
            "bad pairing")

# A tournament file from someone else: not UTF-8, a NUL byte, past 1 MiB
# (read whole before) are refused in one line, and nothing is stored.
for name, data, why in (("latin1.tournament", b"game = nim\nagent = \xe9=builtin:random\n",
                         "not UTF-8 text"),
                        ("nul.tournament", b"game = nim\n\0agent = a=builtin:random\n",
                         "NUL byte"),
                        ("huge.tournament", b"# " + b"x" * (1 << 20) + b"\ngame = nim\n",
                         "not a tournament file")):
    bad = os.path.join(work, name)
    with open(bad, "wb") as f:
        f.write(data)
    r = run("tournament", bad, "--db", os.path.join(work, name + ".sqlite"), "--quiet")
    usage_error(r, name)
    check(why in r.stderr, "%s: %r" % (name, r.stderr))
    check(not os.path.exists(os.path.join(work, name + ".sqlite")), name + ": a DB was made")

# An existing tournament is never overwritten; resume of a finished one is a no-op.
usage_error(run("tournament", spec, "--db", db1, "--quiet"), "tournament onto an existing db")
r = run("tournament", "--resume", db1, "--quiet")
check(r.returncode == 0 and len(games_rows(db1)) == 12, "resume finished %s" % r.stderr)
usage_error(run("tournament", "--resume", db1, "--game", "nim"), "resume with settings")

usage_error(run("tournament", "--game", "nope", "--agent", "a=builtin:random",
                "--agent", "b=builtin:random", "--db", os.path.join(work, "x.sqlite")),
            "unknown game")
usage_error(run("tournament", "--game", "nim", "--agent", "a=builtin:random", "--agent",
                "b=builtin:random", "--games-per-pairing", "3",
                "--db", os.path.join(work, "y.sqlite")), "odd games per pairing")
usage_error(run("tournament", "--game", "nim", "--agent", "a=builtin:random", "--format", "swiss"),
            "bad format")
usage_error(run("tournament", "--game", "nim", "--agent", "a=builtin:random",
                "--agent", "a=builtin:random"), "duplicate agent")
usage_error(run("tournament", "--game", "nim", "--agent", "a=builtin:random", "--agent",
                "b=builtin:random", "--set", "nosuch=1", "--db", os.path.join(work, "z.sqlite")),
            "bad game setting")
usage_error(run("report", os.path.join(work, "missing.sqlite")), "report missing db")

# JSON report shape.
r = run("report", db1, "--format", "json")
check(r.returncode == 0, "report json %s" % r.stderr)
j = json.loads(r.stdout)
check(j["games"] == 12 and len(j["ratings"]) == 3, "report games/ratings %r" % j.get("games"))
check(set(j["ratings"][0]) == {"agent", "elo", "error", "games", "score"}, "report rating keys")
for key in ("los", "crosstable", "head_to_head", "agents", "game_length"):
    check(key in j, "report json lacks %s" % key)
check(abs(sum(x["elo"] for x in j["ratings"])) < 0.5, "mean anchored at 0")
r = run("report", db1, "-o", os.path.join(work, "r.txt"))
check(r.returncode == 0 and "crosstable" in open(os.path.join(work, "r.txt")).read(),
      "text report to a file")

# Three players a game: every 3-subset in every rotation.
db4 = os.path.join(work, "d4.sqlite")
r = run("tournament", "--game", "nim", "--players", "3", "--games-per-pairing", "3",
        "--set", "stones=10", "--quiet", "--db", db4, "--logs", "none",
        *sum((["--agent", n + "=builtin:random"] for n in "pqrs"), []))
check(r.returncode == 0, "3-player tournament %s" % r.stderr)
rows = games_rows(db4)
check(len(rows) == 12, "3-player schedule %d" % len(rows))
seat_counts = {}
for row in rows:
    for seat, a in enumerate(row[4].split(",")):
        seat_counts[a, seat] = seat_counts.get((a, seat), 0) + 1
check(set(seat_counts.values()) == {3}, "balanced seats %r" % seat_counts)
j = json.loads(run("report", db4, "--format", "json").stdout)
check(j["games"] == 12 and j["rating_model"]["model"] == "plackett-luce"
      and not j["rating_model"]["pairwise_from_multiplayer"], "3p report %r" % j["rating_model"])
check("Plackett-Luce" in run("report", db4).stdout, "3p model named in the text report")

# Gauntlet: the first agent meets every other, the others never meet.
db5 = os.path.join(work, "d5.sqlite")
r = run("tournament", "--game", "nim", "--format", "gauntlet", "--games-per-pairing", "2",
        "--quiet", "--db", db5, "--logs", "none",
        *sum((["--agent", n + "=builtin:random"] for n in "gxyz"), []))
check(r.returncode == 0, "gauntlet %s" % r.stderr)
rows = games_rows(db5)
check(len(rows) == 6 and all("0" in row[4].split(",") for row in rows), "gauntlet rows")

# A crashing agent forfeits every game (restarted each time), the run completes.
db7 = os.path.join(work, "d7.sqlite")
r = run("tournament", "--game", "nim", "--agent", "ok=builtin:random", "--agent",
        "crasher=cmd:exit 1", "--games-per-pairing", "4", "--quiet", "--db", db7,
        "--logs", "none", "--concurrency", "2")
check(r.returncode == 0, "crashing agent run %d %s" % (r.returncode, r.stderr))
j = json.loads(run("report", db7, "--format", "json").stdout)
ag = {a["agent"]: a for a in j["agents"]}
check(j["games"] == 4 and ag["crasher"]["forfeits"]["crash"] == 4 and
      ag["ok"]["forfeits"]["crash"] == 0, "crash forfeits %r" % ag)
check("crash 4" in run("report", db7).stdout, "forfeits by cause in the text report")

# --- SPRT -------------------------------------------------------------------
db6 = os.path.join(work, "s.sqlite")
r = run("sprt", "--game", "nim", "--agent", "new=builtin:random", "--agent",
        "old=builtin:random", "--elo0", "0", "--elo1", "10", "--max-pairs", "30",
        "--set", "stones=9", "--db", db6, "--concurrency", "2")
check(r.returncode == 0, "sprt exit %d %s" % (r.returncode, r.stderr))
last = r.stdout.strip().splitlines()[-1] if r.stdout.strip() else ""
check(last in ("H0 accepted", "H1 accepted", "inconclusive"), "sprt verdict %r" % last)
check("LLR" in r.stdout and "bounds [-2.944, 2.944]" in r.stdout, "sprt LLR line %r" % r.stdout)
check("LLR" in r.stderr, "sprt progress shows the LLR")
j = json.loads(run("report", db6, "--format", "json").stdout)
check(j["kind"] == "sprt" and j["games"] >= 2 and j["games"] % 2 == 0 or j["games"] >= 2,
      "sprt report %r" % j.get("games"))
# A clear difference is accepted as H1 (Big Money never loses to random play;
# with fishtest's regularisation that takes 53 perfect pairs for [0, 20]).
db8 = os.path.join(work, "s8.sqlite")
r = run("sprt", "--game", "dominion", "--agent", "bm=builtin:big-money", "--agent",
        "rnd=builtin:random", "--elo0", "0", "--elo1", "20", "--max-pairs", "500",
        "--set", "kingdom=first-game", "--db", db8, "--quiet")
check(r.returncode == 0 and r.stdout.strip().endswith("H1 accepted"), "sprt H1 %r" % r.stdout)
check("pairs 53 " in r.stdout, "sprt stops at the first crossing %r" % r.stdout)
usage_error(run("sprt", "--game", "nim", "--agent", "a=builtin:random", "--agent",
                "b=builtin:random", "--elo0", "5", "--elo1", "0"), "sprt elo1 <= elo0")

if failures:
    print("%d failure(s)" % len(failures))
    sys.exit(1)
print("ok")
