#!/usr/bin/python3
"""`arena check-bot` against one hostile agent (or the good random-c bot):
the verdict and the plain-words finding must match the fault.
Usage: check_bot.py ARENA HOSTILE RANDOM_C FAULT"""
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import cgroups  # noqa: E402  (tests/cgroups.py)

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
# check-bot keeps a failing bot's logs in $TMPDIR: give it one of our own, so
# that we can look at them and nothing is left behind.
with tempfile.TemporaryDirectory() as tmp:
    p = subprocess.run([arena, "check-bot", agent, "--move-ms", "200", "--bank-ms", "300",
                        "--startup-ms", "1500", "--exit-grace-ms", "500", "--games", "2"],
                       capture_output=True, text=True, timeout=100,
                       env=dict(os.environ, TMPDIR=tmp))
    print(p.stdout, p.stderr)
    want_rc = 0 if fault == "good" else 1
    assert p.returncode == want_rc, f"exit {p.returncode}, want {want_rc}"
    assert EXPECT[fault] in p.stdout, f"report lacks {EXPECT[fault]!r}"
    kept = os.listdir(tmp)
    if fault == "good":
        assert kept == [], f"a compliant bot's logs were kept: {kept}"
        # With a cgroup of its own (protocol.md §7) the bot's peak is known.
        mem = "memory: peak" if cgroups.agent_groups() else "memory not measured"
        assert mem in p.stdout, f"report lacks {mem!r}"
    else:
        assert "NOT COMPLIANT" in p.stdout
        assert len(kept) == 1 and kept[0].startswith("arena-check-"), kept
        logs = os.path.join(tmp, kept[0])
        assert f"logs: {logs}" in p.stdout, "the report names the kept logs"
        assert os.listdir(logs), "the kept log directory holds the logs"
print("ok")
