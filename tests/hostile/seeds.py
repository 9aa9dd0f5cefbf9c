#!/usr/bin/python3
"""Seed foresight: whoever learns one game's seed must learn no other game's.

A game's seed decides every deal, shuffle and die of that game (`arena
replay` re-runs a game from it), and every match log carries its game's
seed. Logs get published during events (replays, a viewer, a post-mortem
handed to an entrant), so a seed that leads to the seeds of games still to
come gives their hidden cards away. Each case plays real games through the
real `arena`, takes what an attacker would have, and tries to predict the
seeds of the other games from it:

- tournament: one published log (its seed, and its game id, from its file
  name). Were per-game seeds SplitMix64 of the master seed mixed with the
  game id, inverting that bijection would give the master seed back, and
  with it every game's seed.
- sprt: nothing at all. Were the master seed a fixed default (1), an
  entrant could compute every game's seed before the run, even under
  `--pairing independent`, the pairing `sprt --help` gives for bots you do
  not trust.
- play: the first game's log of `arena play --games N`. Were game i played
  on the first seed plus i - 1 without `--seed`, it would give the rest.

Each attack is checked against a reference of the SplitMix64 derivation
(the one results files made before the one-way derivation hold) computed
here, so a broken attacker cannot pass for a defence.

usage: seeds.py ARENA CASE
"""
import glob
import os
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import matchlog  # noqa: E402  (tests/matchlog.py: gzip or plain logs)

ARENA = os.path.abspath(sys.argv[1])
CASE = sys.argv[2]
M64 = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15
GAME_MUL, GAME_XOR = 0x9FB21C651E98DF25, 0x1D8E4E27C47D124F  # SplitMix64 game seeds
GROUP_MUL = 0xD1342543DE82EF95  # SplitMix64 group (duplicate pair) seeds


class Failure(Exception):
    pass


def check(cond, what):
    if not cond:
        raise Failure(what)


def splitmix(x):
    z = (x + GOLDEN) & M64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
    return z ^ (z >> 31)


def unshift(z, k):
    """Inverts z = x ^ (x >> k)."""
    x = z
    for _ in range(64 // k + 1):
        x = z ^ (x >> k)
    return x


def unsplitmix(z):
    z = unshift(z, 31)
    z = (z * pow(0x94D049BB133111EB, -1, 1 << 64)) & M64
    z = unshift(z, 27)
    z = (z * pow(0xBF58476D1CE4E5B9, -1, 1 << 64)) & M64
    z = unshift(z, 30)
    return (z - GOLDEN) & M64


def old_game_seed(master, gid):
    return splitmix(master ^ ((gid * GAME_MUL) & M64) ^ GAME_XOR)


def old_group_seed(master, grp):
    return splitmix(master ^ ((grp * GROUP_MUL) & M64))


def masters_from(seed, gid, ids):
    """The master seeds one game's seed leads to under the SplitMix64 derivations:
    as game `gid`'s own seed, or as the seed of any group in `ids`."""
    yield unsplitmix(seed) ^ ((gid * GAME_MUL) & M64) ^ GAME_XOR
    for grp in ids:
        yield unsplitmix(seed) ^ ((grp * GROUP_MUL) & M64)


def predictions(master, ids):
    return {old_game_seed(master, i) for i in ids} | {old_group_seed(master, i) for i in ids}


def self_check():
    """The attacker works: it recovers a master seed from one SplitMix64 seed."""
    master = 0x123456789ABCDEF
    check(any(m == master for m in masters_from(old_game_seed(master, 7), 7, [])),
          "attacker: no master from an old game seed")
    check(any(m == master for m in masters_from(old_group_seed(master, 3), 1, [3])),
          "attacker: no master from an old group seed")


def run(cmd, tmp, limit=120.0):
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         start_new_session=True, cwd=tmp, text=True)
    try:
        out, err = p.communicate(timeout=limit)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        p.communicate()
        raise Failure(f"still running after {limit:.0f} s: {' '.join(cmd)}")
    print(f"$ {' '.join(cmd)}\nexit {p.returncode}\n{out[-1500:]}{err[-1500:]}")
    check(p.returncode == 0, f"exit {p.returncode}")
    return out, err


def log_seeds(pattern, key):
    """{key(path): seed} of every match log matching pattern."""
    seeds = {}
    for path in sorted(glob.glob(pattern)):
        head = matchlog.records(path)[0]
        check(head.get("type") == "match" and "seed" in head, f"{path}: no seed in the header")
        seeds[key(path)] = head["seed"] & M64  # a log may write the bits signed
    return seeds


TOURNAMENT = ["--game", "dominion", "--agent", "bm=builtin:bigmoney", "--agent",
              "rnd=builtin:random", "--games-per-pairing", "6", "--concurrency", "2", "--quiet"]


def game_id(path):
    return int(re.search(r"game-(\d+)\.jsonl", path).group(1))


def tournament(tmp):
    """One published log of a tournament on a random master seed."""
    for pairing in ("independent", "duplicate"):
        db = f"{tmp}/{pairing}.sqlite"
        run([ARENA, "tournament", *TOURNAMENT, "--pairing", pairing, "--db", db,
             "--logs", f"{tmp}/{pairing}"], tmp)
        seeds = log_seeds(f"{tmp}/{pairing}/game-*.jsonl*", game_id)
        check(len(seeds) == 6, f"{pairing}: {len(seeds)} logs, want 6")
        ids = sorted(seeds)
        published = ids[0]
        others = {s for i, s in seeds.items() if s != seeds[published]}
        check(others, f"{pairing}: every game on one seed")
        for master in masters_from(seeds[published], published, ids):
            hit = predictions(master, range(1, 100)) & others
            check(not hit, f"{pairing}: game {published}'s log gives away the seeds of "
                  f"{len(hit)} other games (master seed {master})")


def sprt(tmp):
    """No log at all: the seeds must not follow from a default master seed."""
    masters = []
    for k in (1, 2):
        _, err = run([ARENA, "sprt", "--game", "dominion", "--agent", "new=builtin:bigmoney",
                      "--agent", "old=builtin:random", "--elo0", "0", "--elo1", "10",
                      "--pairing", "independent", "--max-pairs", "3", "--concurrency", "2",
                      "--db", f"{tmp}/sprt{k}.sqlite", "--logs", f"{tmp}/sprt{k}"], tmp)
        seeds = log_seeds(f"{tmp}/sprt{k}/game-*.jsonl*", game_id)
        check(len(seeds) >= 2, f"run {k}: {len(seeds)} logs")
        hit = predictions(1, range(1, 1000)) & set(seeds.values())
        check(not hit, f"run {k}: {len(hit)} of {len(seeds)} games on seeds that follow "
              "from master seed 1")
        m = re.search(r", seed (\d+)$", err.splitlines()[0])
        check(m, f"run {k}: the master seed is not printed")
        with sqlite3.connect(f"{tmp}/sprt{k}.sqlite") as db:
            stored = db.execute("SELECT value FROM meta WHERE key = 'seed'").fetchone()
        check(stored and int(stored[0]) == int(m.group(1)),
              f"run {k}: stored seed {stored}, printed {m.group(1)}")
        masters.append(int(m.group(1)))
    check(masters[0] != masters[1], f"two runs on one master seed: {masters[0]}")


def play(tmp):
    """The first game's log of a series on a random seed."""
    run([ARENA, "play", "dominion", "builtin:bigmoney", "builtin:random", "--games", "4",
         "--log", f"{tmp}/play/", "--json"], tmp)
    seeds = sorted(log_seeds(f"{tmp}/play/*.jsonl*", os.path.basename).values())
    check(len(seeds) == 4 and len(set(seeds)) == 4, f"seeds {seeds}, want 4 distinct")
    for s in seeds:
        guessed = {s + d for d in range(-8, 9) if d}
        hit = guessed & set(seeds)
        check(not hit, f"the seed of one game, {s}, gives away {sorted(hit)}")
    # An explicit --seed keeps the documented series N, N+1, ...
    run([ARENA, "play", "dominion", "builtin:bigmoney", "builtin:random", "--games", "3",
         "--seed", "40", "--log", f"{tmp}/fixed/", "--json"], tmp)
    fixed = sorted(log_seeds(f"{tmp}/fixed/*.jsonl*", os.path.basename).values())
    check(fixed == [40, 41, 42], f"--seed 40 --games 3 played seeds {fixed}")


CASES = {"tournament": tournament, "sprt": sprt, "play": play}


def main():
    tmp = tempfile.mkdtemp(prefix="arena-seeds-")
    try:
        self_check()
        CASES[CASE](tmp)
    except Failure as e:
        print(f"FAIL {CASE}: {e}")
        return 1
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"ok {CASE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
