#!/usr/bin/python3
"""Match logs from a hostile party: every reader (replay, its --seat record,
the HTML viewer) refuses what a log may not hold with a clear error, and
neither crashes nor runs out of memory nor reads a file the log names.
Usage: hostile_logs.py ARENA CASE"""
import gzip
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import matchlog  # noqa: E402  (tests/matchlog.py)

ARENA = os.path.abspath(sys.argv[1])
READERS = ([], ["--seat", "0"], ["--format", "html"], ["--format", "html", "--seat", "1"])


def arena(*args, timeout=120):
    p = subprocess.run([ARENA, *args], capture_output=True, text=True, timeout=timeout)
    return p.returncode, p.stdout, p.stderr


def check(cond, what):
    if not cond:
        raise AssertionError(what)


def play(d, game, players, seed, plain=True):
    log = os.path.join(d, f"{game}-{seed}.jsonl" + ("" if plain else ".gz"))
    rc, _, err = arena("play", game, *["builtin:random"] * players, "--seed", str(seed),
                       "--log", log, *(["--log-plain"] if plain else []))
    check(rc == 0, f"play {game}: {rc} {err}")
    return log


def refused(log, want):
    """Every reader exits 1 with `want` in its one-line error."""
    for extra in READERS:
        rc, out, err = arena("replay", log, *extra)
        check(rc == 1 and want in err, f"replay {extra}: rc {rc}, want '{want}': {err[-400:]}")
        check("ERROR: AddressSanitizer" not in err and "runtime error" not in err,
              f"replay {extra}: a sanitizer finding: {err[-400:]}")


def case_second_header_is_refused():
    """The viewer's reader table is sized by the header: a header repeated
    wrote past it (a stack overflow). A log holds one game, one header."""
    with tempfile.TemporaryDirectory() as d:
        for game, players in (("nim", 2), ("dominion", 4)):
            lines = matchlog.lines(play(d, game, players, 7))
            for copies in (2, 4, 8):
                bad = os.path.join(d, f"{game}-{copies}.jsonl")
                with open(bad, "w") as f:
                    f.write("\n".join([lines[0]] * copies + lines[1:]) + "\n")
                refused(bad, f"{bad}:2: a second match header")
            # A second header later in the game is refused the same way.
            bad = os.path.join(d, f"{game}-late.jsonl")
            with open(bad, "w") as f:
                f.write("\n".join(lines[:4] + [lines[0]] + lines[4:]) + "\n")
            refused(bad, f"{bad}:5: a second match header")


# The longest line a log may hold (referee/matchlog.h MATCHLOG_MAX_LINE, as
# docs/replay.md gives it): a 1 MiB frame written as JSON, 6 bytes a byte at
# worst, and 64 KiB for the line's own keys.
MAX_LINE = 6 * (1 << 20) + (64 << 10)
RSS_CAP_MIB = 100


def measured(*args):
    """Runs arena; returns (rc, stdout tail, stderr, its peak RSS in MiB)."""
    with tempfile.TemporaryFile() as fo, tempfile.TemporaryFile() as fe:
        p = subprocess.Popen([ARENA, *args], stdout=fo, stderr=fe)
        _, status, usage = os.wait4(p.pid, 0)
        fo.seek(max(0, fo.seek(0, 2) - 4000))
        fe.seek(0)
        out, err = fo.read().decode(errors="replace"), fe.read().decode(errors="replace")
    return os.waitstatus_to_exitcode(status), out, err, usage.ru_maxrss / 1024


def note(size):
    """A note line of exactly `size` bytes."""
    head, tail = '{"type":"note","t":1.0,"seat":0,"text":"', '"}'
    return head + "a" * (size - len(head) - len(tail)) + tail


def write_bomb(path, lines, size):
    """A gzip log whose second line is a note of `size` bytes, written in
    blocks (it compresses about 1000 to 1)."""
    with gzip.open(path, "wb", compresslevel=6) as f:
        f.write((lines[0] + "\n").encode())
        head, tail = b'{"type":"note","t":1.0,"seat":0,"text":"', b'"}\n'
        f.write(head)
        block, left = b"a" * (1 << 20), size - len(head) - len(tail) + 1
        while left > 0:
            f.write(block[:left])
            left -= len(block)
        f.write(tail)
        f.write(("\n".join(lines[1:]) + "\n").encode())


def case_long_line_is_refused_in_bounded_memory():
    """A log line may be as long as a logged message can be, and no longer:
    one 300 MB line in a 300 KB gzip file was read whole into memory."""
    with tempfile.TemporaryDirectory() as d:
        lines = matchlog.lines(play(d, "nim", 2, 7))
        bomb = os.path.join(d, "bomb.jsonl.gz")
        write_bomb(bomb, lines, 300 << 20)
        print(f"gzip log of a 300 MiB line: {os.path.getsize(bomb)} bytes")
        for extra in READERS:
            rc, out, err, rss = measured("replay", bomb, *extra)
            print(f"replay {extra}: exit {rc}, peak RSS {rss:.1f} MiB: {err.strip()}")
            check(rc == 1 and f"{bomb}:2: a line longer than {MAX_LINE} bytes" in err,
                  f"replay {extra}: exit {rc}: {err[-400:]}")
            check(rss < RSS_CAP_MIB, f"replay {extra}: peak RSS {rss:.1f} MiB, cap {RSS_CAP_MIB}")
        # The audit replays a tournament's logs with the same reader.
        db = os.path.join(d, "t.sqlite")
        rc, _, err = arena("tournament", "--game", "nim", "--agent", "a=builtin:random",
                           "--agent", "b=builtin:random", "--games-per-pairing", "2", "--db", db,
                           "--logs", os.path.join(d, "t.logs"), "--quiet")
        check(rc == 0, f"tournament: {rc} {err}")
        victim = os.path.join(d, "t.logs", "game-000001.jsonl.gz")
        write_bomb(victim, matchlog.lines(victim), 300 << 20)
        rc, out, err, rss = measured("audit", db)
        print(f"audit: exit {rc}, peak RSS {rss:.1f} MiB: {out.strip()}")
        check(rc == 1 and "a line longer than" in out + err, f"audit: exit {rc}: {out} {err}")
        check(rss < RSS_CAP_MIB, f"audit: peak RSS {rss:.1f} MiB, cap {RSS_CAP_MIB}")
        # Plain, the line just past the cap is refused and one at the cap read.
        for size, ok in ((MAX_LINE, True), (MAX_LINE + 1, False)):
            log = os.path.join(d, f"line-{size}.jsonl")
            with open(log, "w") as f:
                f.write("\n".join([lines[0], note(size)] + lines[1:]) + "\n")
            for extra in READERS:
                rc, out, err, rss = measured("replay", log, *extra)
                if ok:
                    check(rc == 0 and ("replay OK" in out or "</html>" in out),
                          f"a {size}-byte line, replay {extra}: exit {rc}: {err[-400:]}")
                else:
                    check(rc == 1 and "a line longer than" in err,
                          f"a {size}-byte line, replay {extra}: exit {rc}: {err[-400:]}")
                check(rss < RSS_CAP_MIB, f"{size}: replay {extra}: peak RSS {rss:.1f} MiB")


def with_header(lines, edit):
    """The log's lines with its header edited by edit(header dict)."""
    h = json.loads(lines[0])
    edit(h)
    return [json.dumps(h, separators=(",", ":"))] + lines[1:]


def case_card_file_path_is_never_opened():
    """A log replays from the cards it holds, never from the path its
    settings name: a crafted log named /etc/passwd and replay quoted its
    first line in the error."""
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    with tempfile.TemporaryDirectory() as d:
        secret = os.path.join(d, "secret.txt")
        with open(secret, "w") as f:
            f.write("TOP-SECRET-FIRST-LINE of a file the log names\n")
        fifo = os.path.join(d, "fifo")  # opening it to read would block
        os.mkfifo(fifo)
        for game, players, src in (("pacifica", 2, "pacifica/cards-example.txt"),
                                   ("xibalba", 3, "xibalba/cards-default.txt")):
            # The built-in cards, named or not, replay as before.
            for extra in ([], ["--set", "cards=" + ("designed" if game == "pacifica"
                                                    else "builtin")]):
                log = os.path.join(d, f"{game}-builtin.jsonl")
                rc, _, err = arena("play", game, *["builtin:random"] * players, "--seed", "4",
                                   *extra, "--log", log, "--log-plain")
                check(rc == 0, f"play {game} {extra}: {rc} {err}")
                for reader in READERS:
                    rc, out, err = arena("replay", log, *reader)
                    check(rc == 0, f"{game} {extra} replay {reader}: {rc} {err[-300:]}")
            cards = os.path.join(d, f"{game}-cards.txt")
            shutil.copy(os.path.join(root, "referee", "games", src), cards)
            log = os.path.join(d, f"{game}.jsonl")
            rc, _, err = arena("play", game, *["builtin:random"] * players, "--seed", "3",
                               "--set", "cards=" + cards, "--log", log, "--log-plain")
            check(rc == 0, f"play {game} --set cards=FILE: {rc} {err}")
            os.remove(cards)  # the log holds the cards: it replays without the file
            lines = matchlog.lines(log)
            logs = {"moved": lines}
            for name, target in (("secret", secret), ("fifo", fifo), ("dir", d)):
                logs[name] = with_header(lines, lambda h: h.update(
                    settings=[["cards", target]]))
            for name, ls in logs.items():
                path = os.path.join(d, f"{game}-{name}.jsonl")
                with open(path, "w") as f:
                    f.write("\n".join(ls) + "\n")
                for extra in READERS:
                    rc, out, err = arena("replay", path, *extra, timeout=60)
                    check(rc == 0 and ("replay OK" in out or "</html>" in out),
                          f"{game} {name} replay {extra}: {rc} {err[-300:]}")
                    check("TOP-SECRET" not in out + err, f"{game} {name}: the named file was read")
            # Without the cards in its options, the log does not replay, and
            # still no file it names is read.
            bare = with_header(lines, lambda h: (h.update(settings=[["cards", secret]]),
                                                 h["options"].pop("card_list", None),
                                                 h["options"].pop("card_types", None)))
            path = os.path.join(d, f"{game}-bare.jsonl")
            with open(path, "w") as f:
                f.write("\n".join(bare) + "\n")
            refused(path, "does not hold its cards")
            for extra in READERS:
                rc, out, err = arena("replay", path, *extra)
                check("TOP-SECRET" not in out + err, f"{game} bare: the named file was read")


def case_log_text_is_masked_in_errors():
    """An error that quotes the log (a decision kind, the card data) reaches
    the terminal masked, as bot text does."""
    with tempfile.TemporaryDirectory() as d:
        lines = matchlog.lines(play(d, "nim", 2, 7))
        k = next(i for i, l in enumerate(lines) if '"type":"choice"' in l)
        c = json.loads(lines[k])
        c["kind"] = "take\x1b[2J\x1b]0;pwned\x07\u202e\x9b1m"
        bad = os.path.join(d, "kind.jsonl")
        with open(bad, "w") as f:
            f.write("\n".join(lines[:k] + [json.dumps(c)] + lines[k + 1:]) + "\n")
        for extra in READERS:
            p = subprocess.run([ARENA, "replay", bad, *extra], capture_output=True, timeout=60)
            err = p.stderr.decode("utf-8", "replace")
            check(p.returncode == 1 and "does not reproduce: log has seat" in err,
                  f"replay {extra}: {p.returncode} {err}")
            check(b"\x1b" not in p.stderr and b"\xe2\x80\xae" not in p.stderr
                  and b"\xc2\x9b" not in p.stderr and "take?[2J?]0;pwned?" in err,
                  f"replay {extra}: the log's text reached the terminal raw: {p.stderr!r}")


CASES = {k[5:]: v for k, v in globals().items() if k.startswith("case_")}

if __name__ == "__main__":
    CASES[sys.argv[2]]()
    print("ok", sys.argv[2])
