#!/usr/bin/env python3
"""A results DB from a hostile party (a DB sent for audit, a file copied
around): `arena report`, `arena audit` and `arena tournament --resume` refuse
a stored number outside its schedule as a corrupt file, with one clear line,
and never crash, allocate for it or print what it stores raw.
Usage: e2e_hostile_db.py ARENA WORKDIR CASE.

Cases:
  edited_group    games.grp set to 2^63-1, 2^31-1, 0, -1 in an SPRT run (report
                  and audit) and in a tournament (--resume): 2^63-1 would wrap
                  the SPRT count's allocation size (a heap overflow), 2^31-1
                  ask for 64 GiB, and --resume abort "out of memory"
  edited_numbers  an id far past the schedule, a turn count that overflows a
                  report's sums, a clock time that is not a number, settings
                  naming a schedule of 10^9 games
  many_agents     200,000 agents in a DB, and an `arena elo` file of 30,000
                  names: every rating fit holds two agents x agents tables
                  (a DB of 200,000 asked for 640 GB and aborted "out of
                  memory"); past ELO_MAX_AGENTS the file is refused
  agent_ids       an agent's id moved (1 -> 5000), or all shifted by 100: games name
                  agents by position, so a moved id credited a game to
                  another agent (and another seat's stderr to its author's
                  page); refused as corrupt
  escapes         stored text with terminal escapes is printed masked, by
                  report, audit and `arena elo` (a results file's names)
"""
import json
import os
import resource
import shutil
import sqlite3
import subprocess

from e2e_common import ARENA, CASE, check, no_crash, path

AGENTS = ["--agent", "a=builtin:random", "--agent", "b=builtin:random"]
# Peak RSS any of these commands may reach on a DB of a few games (trusting
# the edited numbers would reach 64 GiB or die on the way). ASan's own shadow counts too.
RSS_CAP_MIB = 300
WITH_ASAN = b"__asan_init" in open(ARENA, "rb").read()


def limit():
    # A reader that trusted the settings would ask for 64 GiB and write it:
    # keep such a failure off the machine's memory. ASan reserves terabytes of address space, so
    # under it the cap is left to ASan's own allocator.
    if not WITH_ASAN:
        resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))


def measured(*args):
    """Runs arena; returns (rc, stdout, stderr, peak RSS in MiB)."""
    out, err = path("out.txt"), path("err.txt")
    with open(out, "w") as fo, open(err, "w") as fe:
        p = subprocess.Popen([ARENA, *args], stdout=fo, stderr=fe, preexec_fn=limit)
        _, status, usage = os.wait4(p.pid, 0)
    p.returncode = os.waitstatus_to_exitcode(status)
    r = subprocess.CompletedProcess(args, p.returncode, open(out).read(), open(err).read())
    no_crash(r, "arena " + " ".join(args))
    return r.returncode, r.stdout, r.stderr, usage.ru_maxrss / 1024


def refused(db, *args, want="is corrupt"):
    rc, out, err, rss = measured(*args)
    print(f"$ arena {' '.join(args)}\nexit {rc}, peak RSS {rss:.0f} MiB\n{err.strip()}")
    check(rc in (1, 2), f"{args}: exit {rc}, want a refusal: {out[-300:]} {err[-300:]}")
    check(want in err and err.count("\n") == 1, f"{args}: want one line with '{want}': {err}")
    check(rss < RSS_CAP_MIB, f"{args}: peak RSS {rss:.0f} MiB, cap {RSS_CAP_MIB}")


def sprt_db():
    db = path("sprt.sqlite")
    rc, _, err, _ = measured("sprt", "--game", "nim", *AGENTS, "--elo0", "0", "--elo1", "10",
                             "--max-pairs", "4", "--db", db, "--logs", path("sprt.logs"),
                             "--seed", "5", "--quiet")
    check(rc == 0, f"sprt: {rc} {err}")
    return db


def tournament_db():
    db = path("t.sqlite")
    rc, _, err, _ = measured("tournament", "--game", "nim", *AGENTS, "--games-per-pairing", "6",
                             "--db", db, "--logs", path("t.logs"), "--seed", "5", "--quiet")
    check(rc == 0, f"tournament: {rc} {err}")
    return db


def edited(db, name, *sql):
    """A copy of db with the statements applied."""
    copy = path(name)
    shutil.copy(db, copy)
    con = sqlite3.connect(copy)
    for s in sql:
        con.execute(s)
    con.commit()
    con.close()
    return copy


def readers(db):
    return [("report", db), ("report", db, "--format", "json"),
            ("report", db, "--format", "html", "-o", path("r.html")), ("audit", db)]


def edited_group():
    sdb, tdb = sprt_db(), tournament_db()
    for args in readers(sdb):
        rc, _, err, _ = measured(*args)
        check(rc == 0, f"the unedited run reads: {args}: {rc} {err}")
    for grp in (2**63 - 1, 2**31 - 1, 0, -1):
        db = edited(sdb, f"sprt-{grp}.sqlite", f"UPDATE games SET grp = {grp} WHERE id = 3")
        for args in readers(db):
            refused(db, *args, want=f"game 3 in the results file is corrupt: group {grp}")
        # A pending game with that group: --resume sizes its early stop by it.
        db = edited(tdb, f"t-{grp}.sqlite",
                    f"UPDATE games SET grp = {grp}, done = 0, ranks = NULL WHERE id = 3")
        refused(db, "tournament", "--resume", db, "--quiet",
                want=f"game 3 in the results file is corrupt: group {grp}")


def edited_numbers():
    sdb, tdb = sprt_db(), tournament_db()
    attacks = {
        "id": (["UPDATE games SET id = 2147483647, grp = 2147483647 WHERE id = 8"],
               "game 2147483647 in the results file is corrupt: id past its schedule"),
        "id-max": ([f"UPDATE games SET id = {2**63 - 1}, grp = {2**63 - 1} WHERE id = 8"],
                   f"game {2**63 - 1} in the results file is corrupt: id past its schedule"),
        "turns": (["UPDATE games SET turns = 2147483647 WHERE id = 2",
                   "UPDATE games SET turns = -2147483647 WHERE id = 4"],
                  "game 2 in the results file is corrupt: turn count 2147483647"),
        "time": (["UPDATE games SET time_ms = 'nan,1.000' WHERE id = 2"],
                 "game 2 in the results file is corrupt: a clock time"),
        "wall": (["UPDATE games SET wall_ms = -1 WHERE id = 2"],
                 "game 2 in the results file is corrupt: a clock time"),
    }
    for name, (sql, want) in attacks.items():
        db = edited(sdb, f"sprt-{name}.sqlite", *sql)
        for args in readers(db):
            refused(db, *args, want=want)
    # The audit builds the schedule its settings name: 10^9 games of a few
    # dozen bytes each were allocated before anything was compared.
    args = ('["--game","nim","--agent","a=builtin:random","--agent","b=builtin:random",'
            '"--games-per-pairing","1000000000","--seed","5"]')
    db = edited(tdb, "t-args.sqlite", f"UPDATE meta SET value = '{args}' WHERE key = 'args'")
    refused(db, "audit", db, want="its settings name a schedule of 1000000000 games")


def many_agents():
    tdb = tournament_db()
    db = edited(tdb, "many.sqlite",
                "WITH RECURSIVE n(i) AS (SELECT 2 UNION ALL SELECT i + 1 FROM n WHERE i < 200001)"
                " INSERT INTO agents SELECT i, 'x' || i, 'builtin:random' FROM n")
    want = "the results file is corrupt: it names 200002 agents, more than the 1024"
    for args in readers(db):
        refused(db, *args, want=want)
    refused(db, "tournament", "--resume", db, "--quiet", want=want)
    # Just over the bound as well, and a plain results file for `arena elo`.
    db = edited(tdb, "just-over.sqlite",
                "WITH RECURSIVE n(i) AS (SELECT 2 UNION ALL SELECT i + 1 FROM n WHERE i < 1024)"
                " INSERT INTO agents SELECT i, 'x' || i, 'builtin:random' FROM n")
    refused(db, "report", db, want="it names 1025 agents, more than the 1024")
    results = path("many.txt")
    with open(results, "w") as f:
        f.writelines(f"a{i} b{i}\n" for i in range(15000))
    refused(results, "elo", results, want="more than 1024 agents")


def agent_ids():
    tdb = tournament_db()
    for name, sql, want in (
            ("moved", "UPDATE agents SET id = 5000 WHERE id = 1",
             "agent ids are not 0, 1, 2, ... (the agent at position 1 has id 5000)"),
            ("shifted", "UPDATE agents SET id = id + 100",
             "agent ids are not 0, 1, 2, ... (the agent at position 0 has id 100)")):
        db = edited(tdb, f"ids-{name}.sqlite", sql)
        for args in readers(db):
            refused(db, *args, want=want)
        refused(db, "tournament", "--resume", db, "--quiet", want=want)


# What a terminal must never receive from stored text: ESC and the other C0
# controls but the line end, DEL, C1 (CSI as one code point), bidirectional
# overrides, and bytes that are not UTF-8.
HOSTILE = "\x1b[2J\x1b]0;pwned\x07\x9b31m\u202e\x7f\r\x08"


def terminal_safe(text, what):
    bad = [c for c in text if (ord(c) < 0x20 and c != "\n") or 0x7f <= ord(c) < 0xa0
           or c in "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u2028\u2029"
           or c == "\ufffd"]
    check(not bad, f"{what}: raw control characters {sorted(set(bad))!r} in: {text[-600:]!r}")


def escapes():
    """Every stored string a text report or the audit prints is masked."""
    tdb = tournament_db()
    forged = edited(
        tdb, "escapes.sqlite",
        f"UPDATE agents SET name = 'a{HOSTILE}', spec = 'builtin:random{HOSTILE}' WHERE id = 0",
        f"UPDATE meta SET value = 'nim{HOSTILE}' WHERE key = 'game'",
        f"UPDATE meta SET value = '2026-01-01{HOSTILE}' WHERE key = 'created'",
        f"UPDATE meta SET value = 'none{HOSTILE}' WHERE key = 'stop'",
        f"UPDATE meta SET value = 'logs{HOSTILE}' WHERE key = 'logs'",
        f"UPDATE games SET reason = 'forfeit', forfeits = 'crash{HOSTILE},',"
        f" fault_msgs = '{json.dumps([f'died{HOSTILE}', ''])}', log = 'x{HOSTILE}.jsonl.gz',"
        f" finished_at = '2026{HOSTILE}' WHERE id = 2",
    )
    # Bytes that are not UTF-8 too, written as a blob cast to text.
    con = sqlite3.connect(forged)
    con.execute("UPDATE agents SET name = CAST(X'62ff1bfe5b3141' AS TEXT) WHERE id = 1")
    con.commit()
    con.close()
    # The stored logs directory, named with the same bytes, holds the logs.
    shutil.copytree(path("t.logs"), path(f"logs{HOSTILE}"))
    for args in (("report", forged), ("audit", forged), ("audit", forged, "--logs", path("t.logs"))):
        r = subprocess.run([ARENA, *args], capture_output=True, timeout=120, cwd=path("."))
        out, err = r.stdout.decode("utf-8", "replace"), r.stderr.decode("utf-8", "replace")
        no_crash(subprocess.CompletedProcess(args, r.returncode, out, err), " ".join(args))
        print(f"$ arena {' '.join(args)}\nexit {r.returncode}\n{out[-1500:]}{err[-500:]}")
        check(b"\x1b" not in r.stdout + r.stderr, f"{args}: ESC in the output")
        terminal_safe(out, f"{args} stdout")
        terminal_safe(err, f"{args} stderr")
        if args[0] == "report":
            check(r.returncode == 0 and "a?[2J" in out and "crash?[2J" in out
                  and "died?[2J" in out, f"{args}: the stored text is shown, masked: {out}")
        else:
            check(r.returncode == 1 and "game 2: " in out and "a?[2J" in out,
                  f"{args}: the audit names game 2 and the agent, masked")
            check(len(args) > 2 or "logs logs?[2J" in out, f"{args}: the stored logs path, masked")
    # A results file for `arena elo` is handed over too: its names in the
    # table and in an error that quotes them.
    results = path("escapes.txt")
    for text, rc_want in ((f"a{HOSTILE} b\nb a{HOSTILE}\n", 0), (f"a{HOSTILE} a{HOSTILE}\n", 2)):
        with open(results, "w") as f:
            f.write(text)
        r = subprocess.run([ARENA, "elo", results], capture_output=True, timeout=60)
        out, err = r.stdout.decode("utf-8", "replace"), r.stderr.decode("utf-8", "replace")
        print(f"$ arena elo {results}\nexit {r.returncode}\n{out}{err}")
        check(r.returncode == rc_want and "a?[2J" in out + err, f"elo: {r.returncode} {out} {err}")
        check(b"\x1b" not in r.stdout + r.stderr, "elo: ESC in the output")
        terminal_safe(out, "elo stdout")
        terminal_safe(err, "elo stderr")


CASES = {"edited_group": edited_group, "edited_numbers": edited_numbers,
         "many_agents": many_agents, "agent_ids": agent_ids, "escapes": escapes}
CASES[CASE]()
print("ok", CASE)
