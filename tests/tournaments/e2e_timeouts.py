#!/usr/bin/env python3
"""The figures of every timeout forfeit, kept in the results store and shown
by `arena report`, checked by `arena audit`, through the real `arena`
binary. Usage: e2e_timeouts.py ARENA WORKDIR CASE.

The bot that overthinks: tests/e2e/bots/cpu_burner.py burning 400 ms of CPU
before each answer, against a 50 ms move and no bank, forfeits on time in
every game where it is asked to move.

Cases:
  evidence   each timeout forfeit is stored with its fault record's figures:
             the text, JSON and HTML reports show them (mode, allowance,
             charged > allowance, wall, CPU, waits, lag, host pressure), the
             JSON's equal to the log's fault record figure for figure, and
             per agent how many the figures bear out; the audit is clean; an
             agent name made of markup stays text in the HTML
  old_schema a DB from before the figures were stored (no timeout_clocks
             column) still reports (text, JSON, HTML: no figures) and
             audits clean, saying that their figures were not stored
  forged     the stored figures edited: a charge under the allowance, a
             host pressure that is not the log's, a seat's figures removed;
             the audit names the game each time, with the log and (for the
             first) without it; without the log, a timeout stored as a
             crash still carries its figures, and the audit names that
  hostile    a crafted figures column (not JSON, a negative figure or one
             past any clock, a list of the wrong length, bytes that are not
             UTF-8) is refused by report and audit with one line, never a
             crash
"""
import gzip
import json
import os
import re
import shutil
import sqlite3
import sys

from e2e_common import CASE, HERE, arena, check, path, rows

sys.path.insert(0, os.path.join(HERE, ".."))
from timing import load_report  # noqa: E402

BURNER = os.path.abspath(os.path.join(HERE, "..", "e2e", "bots", "cpu_burner.py"))
MOVE_MS = 50
KEYS = ["allowance_ms", "charged_ms", "wall_ms", "cpu_ms", "wait_ms", "wait_sum_ms", "lag_ms",
        "host_psi_ms"]


def tournament(name):
    db, logs = path(f"{name}.sqlite"), path(f"{name}.logs")
    r = arena("tournament", "--game", "nim", "--set", "stones=12",
              "--agent", f"burner=cmd:/usr/bin/python3 -S {BURNER} burn 400",
              "--agent", "rnd=builtin:random", "--games-per-pairing", "2",
              "--move-ms", str(MOVE_MS), "--bank-ms", "0", "--seed", "7", "--concurrency", "2",
              "--db", db, "--logs", logs, "--quiet", timeout=180)
    check(r.returncode == 0, f"tournament: {r.returncode} {r.stderr}")
    return db, logs


def execute(db, *sql):
    con = sqlite3.connect(db)
    try:
        for s in sql:
            con.execute(s)
        con.commit()
    finally:
        con.close()


def copy(db, name):
    p = path(name)
    shutil.copy(db, p)
    return p


def log_clock(logs, game, seat):
    """The figures of the seat's last timeout fault record in its log."""
    with gzip.open(os.path.join(logs, f"game-{game:06d}.jsonl.gz"), "rt") as f:
        recs = [json.loads(x) for x in f]
    faults = [x for x in recs if x["type"] == "fault" and x["cause"] == "timeout"
              and x["seat"] == seat and "clock" in x]
    return faults[-1]["clock"] if faults else None


def timeout_games(db):
    return rows(db, "SELECT id, forfeits, timeout_clocks FROM games "
                    "WHERE forfeits LIKE '%timeout%' ORDER BY id")


def report_json(db):
    r = arena("report", db, "--format", "json")
    check(r.returncode == 0, f"report json: {r.returncode} {r.stderr}")
    return json.loads(r.stdout)


def audit(db, *extra):
    r = arena("audit", db, *extra)
    print(f"$ arena audit {db} {' '.join(extra)}\nexit {r.returncode}\n{r.stdout}{r.stderr}")
    return r


def evidence():
    db, logs = tournament("evidence")
    stored = timeout_games(db)
    check(stored, "the burner never timed out")
    js = report_json(db)
    tos = js["timeouts"]
    check(len(tos) == len(stored), f"JSON timeouts {tos} vs stored {stored}")
    for t in tos:
        c = t["clock"]
        check(t["agent"] == "burner" and c is not None, f"a timeout without figures: {t}")
        check(c["mode"] == "fair" and c["allowance_ms"] == MOVE_MS,
              f"game {t['game']}: clock {c}")
        check(c["charged_ms"] > c["allowance_ms"],
              f"game {t['game']}: charged {c['charged_ms']} not over the allowance "
              f"{c['allowance_ms']} (host load {load_report()})")
        check(c["cpu_ms"] is not None and c["wall_ms"] >= c["charged_ms"] - 0.002,
              f"game {t['game']}: figures {c}")
        check(t["borne_out"] is True, f"game {t['game']}: its figures do not bear it out: {t}")
        logged = log_clock(logs, t["game"], t["seat"])
        check(logged is not None, f"game {t['game']}: no fault record with figures")
        for k in ["mode"] + KEYS:
            a, b = c[k], logged[k]
            same = a == b if k == "mode" or a is None or b is None else abs(a - b) < 1e-6
            check(same, f"game {t['game']}: {k} {a} in the report, {b} in the log")
    per = next(a for a in js["agents"] if a["agent"] == "burner")["timeouts"]
    check(per["forfeits"] == len(tos) and per["with_figures"] == len(tos)
          and per["borne_out"] == len(tos) and per["max_over_ms"] > 0, f"per agent: {per}")
    rnd = next(a for a in js["agents"] if a["agent"] == "rnd")["timeouts"]
    check(rnd["forfeits"] == 0, f"rnd: {rnd}")

    text = arena("report", db).stdout
    print(text[text.find("\ntimeouts"):])
    n = len(tos)
    check(re.search(rf"\n  burner +{n} timeout forfeits?, {n} with figures, {n} borne out by them; "
                    r"at most \d+\.\d{3} ms past the allowance\n", text),
          f"text report: per agent line: {text}")
    for t in tos:
        c = t["clock"]
        line = next((x for x in text.splitlines()
                     if re.match(rf"\s+{t['game']}\s+{t['seat']} burner\s+fair ", x)), None)
        check(line is not None, f"text report: no line for game {t['game']}:\n{text}")
        check(f"{c['allowance_ms']:.3f}" in line and f"{c['charged_ms']:.3f}" in line
              and f"{c['wall_ms']:.3f}" in line and f"{c['cpu_ms']:.3f}" in line
              and line.endswith("borne out"), f"text line: {line}")

    html = arena("report", db, "--format", "html").stdout
    check('<table id="timeouts">' in html and '<table id="timeouts-by-agent">' in html,
          "HTML: the timeouts tables")
    body = html[html.find('<table id="timeouts">'):]
    body = body[:body.find("</table>")]
    for t in tos:
        c = t["clock"]
        check(f"<tr><td>{t['game']}</td><td>{t['seat']}</td>" in body
              and f"<td>{c['charged_ms']:.3f}</td>" in body, f"HTML row of game {t['game']}")
    r = audit(db)
    check(r.returncode == 0 and "0 problems" in r.stdout, "a clean run audits clean")

    # Markup in the agent's name stays text in every timeouts row.
    evil = copy(db, "evil.sqlite")
    execute(evil, "UPDATE agents SET name = '<script>alert(1)</script>' WHERE name = 'burner'")
    html = arena("report", evil, "--format", "html").stdout
    check("<script" not in html and "&lt;script&gt;alert(1)&lt;/script&gt;</td>" in html,
          "HTML: the agent's name is escaped")


def old_schema():
    db, logs = tournament("old")
    n = len(timeout_games(db))
    check(n > 0, "the burner never timed out")
    # The schema before the figures were kept: the column gone.
    execute(db, "ALTER TABLE games DROP COLUMN timeout_clocks")
    text = arena("report", db)
    check(text.returncode == 0 and "no figures stored (stored before they were)" in text.stdout
          and f"{n} timeout forfeit" in text.stdout and "0 with figures" in text.stdout,
          f"old DB, text report: {text.returncode} {text.stdout[-800:]} {text.stderr}")
    js = report_json(db)
    check(len(js["timeouts"]) == n and all(t["clock"] is None and t["borne_out"] is None
                                           for t in js["timeouts"]), f"old DB: {js['timeouts']}")
    html = arena("report", db, "--format", "html")
    check(html.returncode == 0 and "stored before they were" in html.stdout, "old DB, HTML")
    r = audit(db)
    check(r.returncode == 0 and f"not proven: {n} timeout forfeit" in r.stdout
          and "stored without" in r.stdout, "old DB: audits clean, says what is not stored")
    # Reopened, the file has the column again, empty: a resumed run stores into it.
    check(rows(db, "SELECT count(*) FROM pragma_table_info('games') "
                   "WHERE name = 'timeout_clocks'")[0][0] == 1, "the column is added on open")


def edit_figures(db, game, seat, fn):
    (clocks,) = rows(db, f"SELECT timeout_clocks FROM games WHERE id = {game}")[0]
    v = json.loads(clocks)
    v[seat] = fn(v[seat])
    execute(db, f"UPDATE games SET timeout_clocks = '{json.dumps(v)}' WHERE id = {game}")


def forged():
    db, logs = tournament("forged")
    check(audit(db).returncode == 0, "clean before the edits")
    game, forfeits, _ = timeout_games(db)[0]
    seat = forfeits.split(",").index("timeout")

    def under(c):  # charged under the allowance: no timeout by its own figures
        c["charged_ms"] = c["allowance_ms"] - 5
        return c

    def pressure(c):  # bears out still, but not the log's
        c["host_psi_ms"] = 0.0 if c["host_psi_ms"] else 7.0
        return c

    cases = [("under", under, "do not bear out its verdict"),
             ("pressure", pressure, "are not its log's"),
             ("removed", lambda c: None, "(none) are not its log's")]
    for name, fn, want in cases:
        f = copy(db, f"forged-{name}.sqlite")
        edit_figures(f, game, seat, fn)
        r = audit(f, "--logs", logs)
        check(r.returncode == 1 and f"game {game}: " in r.stdout and want in r.stdout,
              f"{name}: audit exit {r.returncode}, want 1 naming game {game}: {want}")
    # Without its log, the figures alone still have to give the verdict.
    nolog = path("nolog")
    shutil.copytree(logs, nolog)
    os.remove(os.path.join(nolog, f"game-{game:06d}.jsonl.gz"))
    f = copy(db, "forged-nolog.sqlite")
    edit_figures(f, game, seat, under)
    r = audit(f, "--logs", nolog)
    check(r.returncode == 1 and f"game {game}: its stored figures" in r.stdout,
          "without its log: forged figures caught")
    f = copy(db, "forged-crash.sqlite")
    execute(f, f"UPDATE games SET forfeits = replace(forfeits, 'timeout', 'crash') "
               f"WHERE id = {game}")
    r = audit(f, "--logs", nolog)
    check(r.returncode == 1 and f"game {game}: stores timeout figures for seat {seat}, which "
          "forfeited by crash" in r.stdout, "without its log: a timeout relabelled a crash")


def hostile():
    db, _ = tournament("hostile")
    game, forfeits, _ = timeout_games(db)[0]
    seat = forfeits.split(",").index("timeout")
    good = {"mode": "wall", "allowance_ms": 1, "charged_ms": 2, "wall_ms": 2, "lag_ms": 0}
    attacks = {
        "not-json": "'[{'",
        "negative": "'" + json.dumps([dict(good, charged_ms=-3) if s == seat else None
                                      for s in range(2)]) + "'",
        "huge": "'" + json.dumps([dict(good, wall_ms=1e300) if s == seat else None
                                  for s in range(2)]) + "'",
        "short": "'[null]'",
        "blob": "X'5b6e756c6c2cff5d'",
    }
    for name, value in attacks.items():
        f = copy(db, f"hostile-{name}.sqlite")
        execute(f, f"UPDATE games SET timeout_clocks = {value} WHERE id = {game}")
        for args in (("report", f), ("report", f, "--format", "json"),
                     ("report", f, "--format", "html", "-o", path("r.html")), ("audit", f)):
            r = arena(*args)
            print(f"$ arena {' '.join(args)}\nexit {r.returncode}\n{r.stderr}")
            check(r.returncode in (1, 2) and r.stderr.count("\n") == 1
                  and f"game {game} in the results file is corrupt" in r.stderr,
                  f"{name}: {args}: exit {r.returncode}, want one line refusing it: {r.stderr}")


{"evidence": evidence, "old_schema": old_schema, "forged": forged, "hostile": hostile}[CASE]()
print("ok", CASE)
