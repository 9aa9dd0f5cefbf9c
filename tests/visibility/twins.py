#!/usr/bin/python3
"""Transcript twin test: what goes over the wire to a seat depends only on
what that seat may know. Usage: twins.py ARENA TWIN_PROBE MODE (play|serve|
tournament).

Method. The hidden `twin` game (tests/testgame/twin.c) wraps a real game
with its own fixed seed, and with salt=N calls the game's determinize(seat,
N), which replaces everything hidden from that seat and keeps view(seat)
byte-identical. For every game and every seat S we run two matches through
the real `arena` command (play, serve or tournament): twin A is the game as
dealt, twin B the same game determinized for S; the two matches also run on
different match/master seeds, which must not show at all. Every seat is a
recording agent (recorder.py) that tees the bytes it receives to a file and
chooses only from what it received. play and serve run with --events, so
`event` messages are on the wire too.

twin-probe replays both match logs in-process and finds the first state at
which S's knowledge (view, visible events, its decisions, the result)
differs between A and B; S's own hidden draws legitimately reveal themselves
there. Up to that point the two streams to S must be byte-identical, apart
from hello.match (an opaque id) and the clock's bank_ms/game_ms (timing).
That prefix must hold hello, and a decide for the seat that moves first (a
later seat may legitimately see the first mover, whose own hidden cards
were redrawn or whose dice were rolled anew, play differently before it
decides). A third match C, the
deal of A on yet another match seed, must match A whole, for every seat.
nim's determinize redraws only secrets that never sway play (the recorder
decides from the decision, not the view), so there A and B match whole
too; games without determinize make A and B the same deal.
Village twins (play and serve): Dominion deals that differ only in whether a
hidden card makes a decision (one hidden Estate of a seat is a Village that
seat never plays) must send the other seat the same bytes up to the game's
end: where `event` messages split must not tell a decision it cannot see.
Pacifica twins (play and serve): deals that differ only in the card a seat
H draws first (twin.c, hand=H), which the other seat sees as a card back of
its category. No Pacifica card acts from a hand, so a hidden card changes
the labels of its owner's options (play:ID), never how many decisions it
is asked. Both seats choose from what the other sees too and H keeps that
card (recorder.py, keeper), so the other seat must get the same bytes
until one of the two cards comes into its sight: one is played or put
into a city, that seat draws the one H did not get (the deepest unknown
card of the stack) or is offered it in a search.
Xibalba twins (play and serve): at the Xibalba table no seat knows more
than another (only the decks' order and future dice are hidden, from all
alike), so there is no hidden card of a seat; the deals differ in a deck's
order (twin.c, deck=F:K) and every seat must get the same bytes until the
message that reveals the K-th card of that deck.
Finally no byte stream to any agent may contain a seed (decimal or hex):
the match seeds, the tournament master seed, the per-game seeds, the real
game's seed.
"""
import json
import os
import random
import re
import socket
import sqlite3
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import matchlog  # noqa: E402  (tests/matchlog.py: gzip or plain logs)

ARENA = os.path.abspath(sys.argv[1])
PROBE = os.path.abspath(sys.argv[2])
MODE = sys.argv[3]
HERE = os.path.dirname(os.path.abspath(__file__))
RECORDER = os.path.join(HERE, "recorder.py")
PY = "/usr/bin/python3"
GAMES = ["nim", "dominion", "pacifica", "xibalba"]
PLAYERS = 2
rng_pairs = random.Random()
# Generous clock: a slow machine must not change bank_ms, but it is masked anyway.
CLOCK = ["--move-ms", "20000", "--startup-ms", "30000"]


def check(cond, what):
    if not cond:
        raise AssertionError(what)


def big_seed(rng):
    return rng.randrange(1 << 50, 1 << 53)


def seed_forms(seed):
    return {str(seed), format(seed, "x"), format(seed, "X"), format(seed, "016x")}


def no_seed_in(stream, seeds, what):
    text = stream.decode("utf-8", "replace")
    for s in seeds:
        for form in seed_forms(s):
            check(form not in text, f"{what}: the stream contains seed {s} as '{form}'")


def normalize(line):
    """Masks what may differ between honest twins: the opaque match id and
    the clock's remaining times."""
    msg = json.loads(line)
    t = msg.get("type")
    if t == "hello" and "match" in msg:
        check(isinstance(msg["match"], str) and msg["match"], "hello.match is a string")
        line = line.replace(json.dumps(msg["match"]).encode(), b'"<id>"', 1)
    if t == "decide":
        line = re.sub(rb'"(bank_ms|game_ms)":(-?[0-9]+|null)', rb'"\1":0', line)
    return line


def lines(path):
    with open(path, "rb") as f:
        return f.read().splitlines(keepends=True)


def split_games(stream):
    """A recorder's stream cut into games (hello ... over)."""
    games, cur = [], None
    for ln in stream:
        t = json.loads(ln).get("type")
        if t == "hello":
            cur = []
            games.append(cur)
        if cur is not None:
            cur.append(ln)
    return games


def probe(seat, log_a, log_b):
    p = subprocess.run([PROBE, str(seat), log_a, log_b], capture_output=True, text=True,
                       timeout=120)
    check(p.returncode == 0, f"twin-probe: {p.stderr}")
    k, na, nb = map(int, p.stdout.split())
    return k, na, nb


def played_out(log, what):
    last = matchlog.records(log)[-1]
    check(last.get("type") == "result" and last.get("reason") == "normal",
          f"{what}: the game did not end normally: {last}")


def first_mover(log):
    """The seat of the game's first decision (not always seat 0: Xibalba
    rolls for the start player)."""
    for e in matchlog.records(log):
        if e.get("type") == "choice":
            return e["seat"]
    return 0


def compare(what, seat, a_lines, b_lines, log_a, log_b, whole, need_decide):
    played_out(log_a, what)
    played_out(log_b, what)
    k, na, nb = probe(seat, log_a, log_b)
    check(na == nb, f"{what}: {na} vs {nb} messages before the views diverge (K={k})")
    if whole:
        check(k == -1, f"{what}: seat {seat}'s knowledge differs at choice {k} where nothing "
                       "hidden can differ")
    prefix_a, prefix_b = a_lines[:na], b_lines[:nb]
    types = [json.loads(x)["type"] for x in prefix_a]
    check(len(prefix_a) == na and len(prefix_b) == nb,
          f"{what}: the recorder got fewer messages than the log lists")
    check(types[:1] == ["hello"] and (not need_decide or "decide" in types),
          f"{what}: comparable prefix too short ({types}, K={k})")
    for i, (x, y) in enumerate(zip(prefix_a, prefix_b)):
        check(normalize(x) == normalize(y),
              f"{what}: message {i} to seat {seat} differs between twins:\n  {x!r}\n  {y!r}")
    if k == -1:
        check(len(a_lines) == len(b_lines), f"{what}: stream lengths differ")
    return k, na


def twin_sets(game, seat, inner_seed, salt, extra=()):
    out = ["--set", f"game={game}", "--set", f"seed={inner_seed}", "--set", f"seat={seat}",
           "--set", f"salt={salt}"]
    for kv in extra:
        out += ["--set", kv]
    return out


def run_play(d, tag, game, seat, match_seed, inner_seed, salt, extra=(), name="rec"):
    streams = [os.path.join(d, f"{tag}-s{i}.bin") for i in range(PLAYERS)]
    log = os.path.join(d, f"{tag}.jsonl.gz")
    agents = [f"cmd:{PY} -S -E {RECORDER} {streams[i]} {name}{i}" for i in range(PLAYERS)]
    p = subprocess.run([ARENA, "play", "twin", *agents, "--seed", str(match_seed), "--log", log,
                        "--events", *twin_sets(game, seat, inner_seed, salt, extra), *CLOCK],
                       capture_output=True, timeout=300)
    check(p.returncode == 0, f"{tag}: play exit {p.returncode}: {p.stderr.decode()}")
    return [lines(s) for s in streams], [log], [match_seed]


def run_serve(d, tag, game, seat, match_seed, inner_seed, salt, extra=(), name="rec"):
    streams = [os.path.join(d, f"{tag}-s{i}.bin") for i in range(PLAYERS)]
    log = os.path.join(d, f"{tag}.jsonl.gz")
    tokens = os.path.join(d, f"{tag}.tokens")
    with open(tokens, "w") as f:
        for i in range(PLAYERS):
            f.write(f"tok{i}-{tag} {name}{i}\n")
    # A free port, taken by another process before serve binds it, is
    # taken again: serve says where it listens once it does.
    for _ in range(5):
        s = socket.socket()
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
        s.close()
        srv = subprocess.Popen([ARENA, "serve", "twin", "--listen", f"127.0.0.1:{port}",
                                "--tokens", tokens, "--seed", str(match_seed), "--log", log,
                                "--join-timeout", "60000", "--events",
                                *twin_sets(game, seat, inner_seed, salt, extra), *CLOCK],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        first = srv.stderr.readline()
        if b"Address already in use" not in first:
            break
        srv.wait()
    clients = []
    try:
        # The token, not the order of connecting, gives the seat; a recorder
        # that comes before the listener retries.
        for i in range(PLAYERS):
            clients.append(subprocess.Popen([PY, "-S", "-E", RECORDER, streams[i], f"{name}{i}",
                                             str(port), f"tok{i}-{tag}"]))
        out, err = srv.communicate(timeout=300)
        err = first + err
        check(srv.returncode == 0, f"{tag}: serve exit {srv.returncode}: {err.decode()}")
        for c in clients:
            c.wait(timeout=30)
    finally:
        for c in clients + [srv]:
            if c.poll() is None:
                c.kill()
    return [lines(s) for s in streams], [log], [match_seed]


def run_tournament(d, tag, game, seat, master_seed, inner_seed, salt):
    streams = [os.path.join(d, f"{tag}-a{i}.bin") for i in range(PLAYERS)]
    db = os.path.join(d, f"{tag}.sqlite")
    logs = os.path.join(d, f"{tag}.logs")
    agents = []
    for i in range(PLAYERS):
        agents += ["--agent", f"rec{i}=cmd:{PY} -S -E {RECORDER} {streams[i]} rec{i}"]
    p = subprocess.run([ARENA, "tournament", "--game", "twin", *agents, "--games-per-pairing",
                        "2", "--concurrency", "1", "--seed", str(master_seed), "--db", db,
                        "--logs", logs, "--quiet", *twin_sets(game, seat, inner_seed, salt),
                        *CLOCK], capture_output=True, timeout=300)
    check(p.returncode == 0, f"{tag}: tournament exit {p.returncode}: {p.stderr.decode()}")
    con = sqlite3.connect(db)
    rows = con.execute("SELECT id, seed, seats, log FROM games ORDER BY id").fetchall()
    con.close()
    # Both agents play every game (concurrency 1): agent i's stream holds
    # its games in schedule order. Per game, the stream of whoever sits in
    # `seat` is the one to compare.
    per_agent = [split_games(lines(s)) for s in streams]
    seeds = [master_seed] + [r[1] & ((1 << 64) - 1) for r in rows]
    out_streams, out_logs = [], []
    check(all(len(g) == len(rows) for g in per_agent), f"{tag}: every agent plays every game")
    for gi, (gid, _seed, seats, log) in enumerate(rows):
        who = [int(x) for x in seats.split(",")]
        out_streams.append([per_agent[who[s]][gi] for s in range(PLAYERS)])
        out_logs.append(log)
    return out_streams, out_logs, seeds, [lines(s) for s in streams]


def run(runner, d, tag, game, seat, seed, inner_seed, salt):
    """One match (play/serve) or a 2-game tournament: per game, the stream
    to each seat and the log; the seeds used; every agent's whole stream."""
    if runner is run_tournament:
        return runner(d, tag, game, seat, seed, inner_seed, salt)
    st, logs, seeds = runner(d, tag, game, seat, seed, inner_seed, salt)
    return [st], logs, seeds, st


VILLAGE_SETS = ["kingdom=Village,Festival,Market,Laboratory,Cellar,Chapel,Workshop,Woodcutter,"
                "Smithy,Gardens", "max_turns=15"]


def action_choices(log, seat):
    return sum(1 for r in matchlog.records(log)
               if r.get("type") == "choice" and r["seat"] == seat and r["kind"] == "action")


def before_end(stream):
    """The messages before the game's end, where the twins' scores differ."""
    out = []
    for ln in stream:
        if json.loads(ln).get("type") == "over" or b'"game_end"' in ln:
            break
        out.append(ln)
    return out


VIEWER = os.path.join(os.path.dirname(os.path.dirname(HERE)), "referee", "viewer",
                      "viewer.html")


def seat_records(log, seat):
    """`arena replay LOG --seat S` as text and as the viewer's data, cut
    where the game ends (the twins' scores differ there), own times masked
    (they are the seat's own, and differ from run to run)."""
    t = subprocess.run([ARENA, "replay", log, "--seat", str(seat)], capture_output=True,
                       timeout=120)
    check(t.returncode == 0, f"replay --seat: {t.stderr.decode()}")
    text = []
    for ln in t.stdout.decode().splitlines():
        if "game_end" in ln or ln.startswith("final standing"):
            break
        text.append(re.sub(r"  \([0-9]+ ms\)", "", ln))
    h = subprocess.run([ARENA, "replay", log, "--seat", str(seat), "--format", "html"],
                       capture_output=True, timeout=120)
    check(h.returncode == 0, f"replay --seat --format html: {h.stderr.decode()}")
    with open(VIEWER, encoding="utf-8") as f:
        template = f.read()
    for name in ("boards.js", "boards.css"):  # what embed.py puts in at build time
        with open(os.path.join(os.path.dirname(VIEWER), name), encoding="utf-8") as f:
            template = template.replace(f"@INLINE:{name}@", f.read())
    before, after = template.split("@ARENA_REPLAY_DATA@")
    page = h.stdout.decode()
    check(page.startswith(before) and page.endswith(after), "viewer page around its data")
    data = json.loads(page[len(before):len(page) - len(after)])
    check(data["readers"] == [seat], f"a seat's viewer file has only that reader: {data['readers']}")
    steps = []
    for st in data["steps"]:
        st = dict(st, ms=0, view=[data["views"][i] for i in st["view"]])
        steps.append(st)
    return text, {k: data[k] for k in ("names", "options", "clock")}, steps


def village_twins(runner, d, rng):
    """Dominion twins that differ only in whether a hidden card makes a
    decision: in B one hidden Estate of seat H is a Village (twin.c,
    village=H). Both seats never play an Action, so B plays the same game
    as A, but H is asked "play an Action?" whenever it holds the Village.
    Through the game (the scores differ by the Estate's point at its end)
    the other seat must get the same bytes, `event` messages included."""
    compared = 0
    for hidden in range(PLAYERS):
        seer = 1 - hidden
        for attempt in range(20):
            inner = big_seed(rng)
            tags = [f"village{hidden}-{attempt}-{x}" for x in "AB"]
            try:
                b = runner(d, tags[1], "dominion", seer, big_seed(rng), inner, 0,
                           VILLAGE_SETS + [f"village={hidden}"], "passive")
            except AssertionError as e:
                check("no hidden Estate" in str(e), str(e))
                continue  # all three Estates of H in sight: another deal
            a = runner(d, tags[0], "dominion", seer, big_seed(rng), inner, 0, VILLAGE_SETS,
                       "passive")
            break
        else:
            raise AssertionError("no deal with a hidden Estate in 20")
        (sa, (la,), _), (sb, (lb,), _) = a, b
        played_out(la, "village A")
        played_out(lb, "village B")
        extra = action_choices(lb, hidden) - action_choices(la, hidden)
        check(extra > 0, f"village twins: seat {hidden} was never asked about the Village")
        pa, pb = before_end(sa[seer]), before_end(sb[seer])
        what = f"{MODE} village twins, seat {seer} watching seat {hidden}"
        check(sum(b'"type":"event"' in x for x in pa) > 5, f"{what}: few event messages")
        for i, (x, y) in enumerate(zip(pa, pb)):
            check(normalize(x) == normalize(y),
                  f"{what}: message {i} differs between twins:\n  {x!r}\n  {y!r}")
        check(len(pa) == len(pb), f"{what}: {len(pa)} vs {len(pb)} messages before the end")
        # The seat's own record, text and viewer, holds what the seat was
        # sent, no more: the twins' records agree as their streams do.
        (ta, ha, sa_), (tb, hb, sb_) = seat_records(la, seer), seat_records(lb, seer)
        for i, (x, y) in enumerate(zip(ta, tb)):
            check(x == y, f"{what}: line {i} of the seat's text record differs:\n  {x}\n  {y}")
        check(len(ta) == len(tb), f"{what}: the seat's text records differ in length")
        check(ha == hb, f"{what}: the seat's viewer files differ in their header data")
        for i, (x, y) in enumerate(zip(sa_, sb_)):
            check(x == y, f"{what}: step {i} of the seat's viewer file differs:\n  {x}\n  {y}")
        check(len(sa_) == len(sb_), f"{what}: the seat's viewer files differ in steps")
        print(f"{what}: twins agree on {len(pa)} messages, {len(ta)} record lines and "
              f"{len(sa_)} viewer steps; {extra} more Action decisions in B")
        compared += len(pa)
    return compared


def first_difference(a, b):
    """Index of the first message that differs between two streams (masked
    as normalize does), None when they are the same."""
    for i, (x, y) in enumerate(zip(a, b)):
        if normalize(x) != normalize(y):
            return i
    return None if len(a) == len(b) else min(len(a), len(b))


def own_draws(stream, seat):
    """The ids of the cards `seat` drew, in order, as its own stream says."""
    out = []
    for ln in stream:
        for e in json.loads(ln).get("events") or []:
            if e.get("type") == "draw" and e.get("seat") == seat and "card" in e:
                out.append(e["card"])
    return out


def decide_labels(stream):
    return [[o["label"] for o in m["options"]] for m in map(json.loads, stream)
            if m["type"] == "decide"]


def run_pair(runner, d, tag, game, seat, sets_b, name, extra=()):
    """Twin A (as dealt) and twin B (with sets_b), side by side."""
    inner = big_seed(rng_pairs)
    with ThreadPoolExecutor(2) as ex:
        fa = ex.submit(runner, d, tag + "-A", game, seat, big_seed(rng_pairs), inner, 0,
                       list(extra), name)
        fb = ex.submit(runner, d, tag + "-B", game, seat, big_seed(rng_pairs), inner, 0,
                       list(extra) + sets_b, name)
        (sa, (la,), _), (sb, (lb,), _) = fa.result(), fb.result()
    played_out(la, tag + " A")
    played_out(lb, tag + " B")
    return sa, la, sb, lb


def up_to_sight(what, seer, sa, la, sb, lb):
    """The seer's streams must agree up to where its knowledge differs
    (twin-probe), which must be a message that differs. Returns (K, the
    first differing message index or None)."""
    k, na, nb = probe(seer, la, lb)
    check(na == nb, f"{what}: {na} vs {nb} messages before the views diverge (K={k})")
    i = first_difference(sa[seer], sb[seer])
    if i is not None and (k == -1 or i < na):
        x, y = (st[i] if i < len(st) else b"(none)" for st in (sa[seer], sb[seer]))
        raise AssertionError(f"{what}: message {i} differs before the seat's knowledge does "
                             f"(K={k}, message {na}):\n  {x!r}\n  {y!r}")
    check(k == -1 or i is not None, f"{what}: the seat's knowledge differs, its bytes not")
    return k, i


def enough_events(what, stream, n):
    check(sum(b'"type":"event"' in x for x in stream[:n]) > 5,
          f"{what}: few event messages before the twins part ({n} messages)")


def categories(stream):
    """Pacifica card id -> category, from hello.options.card_list."""
    opts = json.loads(stream[0]).get("options") or {}
    return {x.split()[0]: x.split()[1] for x in opts.get("card_list") or []}


def first_events_apart(x, y):
    """The first event in which two messages differ, as (event in x, event
    in y), either None where its list is shorter; None when their events
    agree."""
    ex, ey = (json.loads(m).get("events") or [] for m in (x, y))
    for j in range(max(len(ex), len(ey))):
        a, b = (e[j] if j < len(e) else None for e in (ex, ey))
        if a != b:
            return a, b
    return None


def in_sight(x, y, seer, cards, cats):
    """How one of the twin cards comes into the seer's sight where messages
    x and y part, the only ways it may: the first event that differs plays
    it or puts it into a city (face up), is the seer's own draw of it, or
    is a search of its stack by the other seat, who saw it there, putting
    another card of it into a city; or, the events agreeing, the seer is
    offered it in a search of its own. None if not."""
    apart = first_events_apart(x, y)
    for e in apart or ():
        if e is None:
            continue
        if e.get("card") in cards and (e["type"] in ("play", "to_city") or
                                      (e["type"] == "draw" and e["seat"] == seer)):
            return f"{e['card']} {e['type']} by seat {e['seat']}"
        if (e["type"] == "to_city" and e.get("from") == "search" and
                cats.get(e["card"]) == cats.get(cards[0])):
            return f"seat {e['seat']} searched the {cats[e['card']]} stack and took {e['card']}"
    if apart is None:
        for o in [o for m in (x, y) for o in json.loads(m).get("options") or []]:
            if o["label"] in [f"take:{c}" for c in cards]:
                return f"a search offers {o['label']}"
    return None


def pacifica_twins(runner, d):
    """Pacifica twins that differ only in the card seat H draws first
    (twin.c, hand=H); both seats play as keeper (recorder.py), so H never
    plays it while it can do anything else. Until one of the two cards
    comes into the other seat's sight, that seat must get the same bytes,
    `event` messages included, whatever H's options are."""
    compared = 0
    for hidden in range(PLAYERS):
        seer = 1 - hidden
        what = f"{MODE} pacifica twins, seat {seer} watching seat {hidden}"
        sa, la, sb, lb = run_pair(runner, d, f"pacifica{hidden}", "pacifica", seer,
                                  [f"hand={hidden}"], f"keeper{rng_pairs.randrange(1 << 30)}-")
        ca, cb = own_draws(sa[hidden], hidden)[0], own_draws(sb[hidden], hidden)[0]
        check(ca != cb, f"{what}: the twins' first cards of seat {hidden} are both {ca}")
        # The hidden card changes the owner's options, not how many it has.
        oa, ob = decide_labels(sa[hidden]), decide_labels(sb[hidden])
        differ = sum(1 for x, y in zip(oa, ob) if f"play:{ca}" in x and f"play:{cb}" in y)
        check(differ > 0, f"{what}: seat {hidden} never had the hidden card among its options")
        k, i = up_to_sight(what, seer, sa, la, sb, lb)
        if i is None:
            where = "the whole game"
            check(len(oa) == len(ob), f"{what}: seat {hidden} was asked {len(oa)} vs {len(ob)} "
                                      "decisions")
            records = seat_records(la, seer), seat_records(lb, seer)
            check(records[0] == records[1], f"{what}: the seat's replay records differ")
        else:
            x, y = sa[seer][i], sb[seer][i]
            cats = categories(sa[seer])
            how = in_sight(x, y, seer, (ca, cb), cats)
            check(how, f"{what}: message {i} differs, yet neither {ca} nor {cb} came into the "
                       f"seat's sight there:\n  {x!r}\n  {y!r}")
            where = f"{i} messages, to where {how} (choice {k})"
        n = len(sa[seer]) if i is None else i
        enough_events(what, sa[seer], n)
        print(f"{what}: twins agree on {where}; the hidden card was {ca} or {cb}, among "
              f"seat {hidden}'s options in {differ} of its {len(oa)} decisions")
        compared += n
    return compared


XIBALBA_DECK = ("soldier", 12)


def reveals(msg_line, deck):
    return [e["card"] for e in json.loads(msg_line).get("events") or []
            if e.get("type") == "reveal" and e.get("deck") == deck]


def xibalba_twins(runner, d):
    """Xibalba twins that differ only in a deck's order, hidden from every
    seat alike (twin.c, deck=F:K): every seat must get the same bytes until
    the message that reveals the K-th card of that deck."""
    fam, k_th = XIBALBA_DECK
    sa, la, sb, lb = run_pair(runner, d, "xibalba-deck", "xibalba", 0, [f"deck={fam}:{k_th}"],
                              "rec", ["max_rounds=40"])
    compared = 0
    for seat in range(PLAYERS):
        what = f"{MODE} xibalba twins, seat {seat}"
        k, i = up_to_sight(what, seat, sa, la, sb, lb)
        if i is None:
            where = "the whole game (the card was never revealed)"
        else:
            # The first event that differs is that deck's reveal.
            apart = first_events_apart(sa[seat][i], sb[seat][i])
            check(apart and all(e and e["type"] == "reveal" and e["deck"] == fam for e in apart),
                  f"{what}: message {i} differs where no {fam} is revealed:\n"
                  f"  {sa[seat][i]!r}\n  {sb[seat][i]!r}")
            seen = sum(len(reveals(x, fam)) for x in sa[seat][:i]) + \
                reveals(sa[seat][i], fam).index(apart[0]["card"]) + 1
            where = (f"{i} messages, to the {fam} reveal {seen} ({apart[0]['card']} / "
                     f"{apart[1]['card']})")
        n = len(sa[seat]) if i is None else i
        enough_events(what, sa[seat], n)
        print(f"{what}: twins agree on {where}")
        compared += n
    return compared


def main():
    rng = random.Random()
    runner = {"play": run_play, "serve": run_serve, "tournament": run_tournament}[MODE]
    compared = 0
    with tempfile.TemporaryDirectory() as d:
        for game in GAMES:
            inner_seed = big_seed(rng)
            salts = [big_seed(rng) for _ in range(PLAYERS)]
            # A and C: the same deal on different match seeds, so nothing
            # hidden differs: every seat's whole stream must match.
            # The four matches run side by side: they wait on agents, not CPUs.
            jobs = [(f"{game}-A", 0, 0), (f"{game}-C", 0, 0)] + \
                [(f"{game}-B{s}", s, salts[s]) for s in range(PLAYERS)]
            seeds = [big_seed(rng) for _ in jobs]
            with ThreadPoolExecutor(len(jobs)) as ex:
                futs = [ex.submit(run, runner, d, tag, game, seat, seed, inner_seed, salt)
                        for (tag, seat, salt), seed in zip(jobs, seeds)]
                ra, rc, *rbs = [f.result() for f in futs]
            secret = [inner_seed] + salts
            for r in [ra, rc] + rbs:
                secret += r[2]
            for r in [ra, rc] + rbs:
                for raw in r[3]:
                    no_seed_in(b"".join(raw), secret, game)
            if MODE == "serve":
                check(any(b'"type":"event"' in ln for st in ra[3] for ln in st),
                      f"{game}: --events put event messages on the wire")
            for gi in range(len(ra[1])):
                for s in range(PLAYERS):
                    what = f"{MODE} {game} game {gi + 1} seat {s}"
                    k, n = compare(what + " A/C", s, ra[0][gi][s], rc[0][gi][s], ra[1][gi],
                                   rc[1][gi], whole=True, need_decide=True)
                    compared += n
                    k, n = compare(what + " A/B", s, ra[0][gi][s], rbs[s][0][gi][s], ra[1][gi],
                                   rbs[s][1][gi], whole=game == "nim",
                                   need_decide=s == first_mover(ra[1][gi]) or game == "nim")
                    compared += n
                    print(f"{what}: twins agree on {n} messages (K={k})")
    if MODE != "tournament":  # tournaments have no --events
        with tempfile.TemporaryDirectory() as d:
            compared += village_twins(runner, d, rng)
            compared += pacifica_twins(runner, d)
            compared += xibalba_twins(runner, d)
    check(compared > 0, "nothing compared")
    print(f"{MODE}: OK, {compared} messages compared")


if __name__ == "__main__":
    main()
