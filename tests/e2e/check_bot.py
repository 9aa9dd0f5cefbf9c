#!/usr/bin/python3
"""`arena check-bot` against one hostile agent (or the good random-c bot):
the verdict and the plain-words finding must match the fault.
Usage: check_bot.py ARENA HOSTILE RANDOM_C FAULT"""
import subprocess
import sys

arena, hostile, random_c, fault = sys.argv[1:5]
EXPECT = {  # fault -> words the report must contain
    "good": "COMPLIANT",
    "no_join": "never sent a valid `join`",
    "slow": "too slow or missing",
    "wrong_id": "broke the protocol",
    "illegal": "illegal choice",
    "big_frame": "broke the protocol",
    "garbage": "broke the protocol",
    "crash": "died or closed its output",
    "stderr_flood": "flooded stderr",
    "ignore_term": "did not exit within",
}
agent = f"cmd:{random_c}" if fault == "good" else f"cmd:{hostile} --fault {fault}"
p = subprocess.run([arena, "check-bot", agent, "--move-ms", "200", "--bank-ms", "300",
                    "--startup-ms", "1500", "--exit-grace-ms", "500", "--games", "2"],
                   capture_output=True, text=True, timeout=100)
print(p.stdout, p.stderr)
want_rc = 0 if fault == "good" else 1
assert p.returncode == want_rc, f"exit {p.returncode}, want {want_rc}"
assert EXPECT[fault] in p.stdout, f"report lacks {EXPECT[fault]!r}"
if fault != "good":
    assert "NOT COMPLIANT" in p.stdout
    assert "logs: /tmp/arena-check-" in p.stdout
print("ok")
