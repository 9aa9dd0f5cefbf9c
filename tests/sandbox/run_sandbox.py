#!/usr/bin/python3
"""End-to-end tests of `--sandbox` and of stopping `arena` (run with the real
binary and real agent processes).

usage: run_sandbox.py ARENA HOSTILE RANDOM_C CASE

  escape_root   tests/sandbox/escape.py attacks its victim and the host from
                inside `arena play --sandbox` run by root (as the current
                user when the suite does not run as root)
  escape_user   the same with arena run by an unprivileged user: `nobody`
                when the suite runs as root, else the current user
  escape_private  escape_root with the work directory (the agents, the DB,
                the logs, the working directory) below a 0700 directory,
                as a user's files under /root are: the agents must start
                and every attack still fail
  bots_work     bots started the usual ways play under --sandbox: a Python
                SDK bot by a relative path, a Node bot, ./random-c, a bot under
                /tmp; as root and as the unprivileged user
  symlink_dir   a bot reached through a symlinked directory (absolute and
                relative) starts under --sandbox, as root and as the
                unprivileged user, and the match logs in that directory
                stay masked through the link
  tournament_db a sandboxed tournament agent never sees the results DB: one
                whose directory holds it is refused, one elsewhere plays
  cpu_helper    --clock cpu under --sandbox charges a bot for the CPU of its
                double-forked setsid helper, which dies with the match
  agent_cgroups each agent is in a memory, a pids and a cpu group of its
                own (and a freezer and cpuacct group where its clock needs them), where
                mounted; --limit-mem caps the memory of all of an
                agent's processes together (escape.py hog: setsid'd children
                that each touch 64 MiB, which no rlimit bounds), with and
                without --sandbox;
                an agent killed at its cap is told so, and check-bot warns
                one near it; every process the hog
                moved out of its group dies with it, even when arena is
                SIGKILLed; arena's cgroups are removed, and the next arena
                removes those a dead one left. Run by an unprivileged user
                (or where cgroup v1's memory hierarchy is not mounted) an
                explicit --limit-mem is refused, and --sandbox notes that
                the default cap does not hold
  procs_cap     without --sandbox, --limit-procs stops escape.py's fork bomb
                also when arena runs as root, whom RLIMIT_NPROC does not bind
                (its cgroup's pids.max); root without cgroup v1 cannot
  stop_plain    SIGTERM, SIGINT, SIGHUP and SIGKILL of `arena play` leave no
  stop_sandbox  agent process behind (hostile ignore_term: ignores SIGTERM and
                EOF, keeps a child), without and with --sandbox
"""
import json
import os
import pwd
import re
import shutil
import signal
import stat
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import cgroups  # noqa: E402  (tests/cgroups.py)
import timing  # noqa: E402  (tests/timing.py: the host's load, on a failure)

ARENA, HOSTILE, RANDOM_C = (os.path.abspath(p) for p in sys.argv[1:4])
CASE = sys.argv[4]
HERE = os.path.dirname(os.path.abspath(__file__))
SECRET = "arena-test-secret-4242"
LIMIT_PROCS = 32
TMP_MIB = 64  # --limit-tmp's default
MEM_CAP = 256  # MiB; escape.py's hog spreads 8 x 64 MiB over its children
# How many times slower than the host this machine may run: tests/vm's
# emulated one sets 4, where a busy host stretches the guest's time and
# its CPU time alike (a starved virtual CPU counts as running), and Python
# bots under --sandbox did not join within 15 s beside 4 spinning processes.
SLOW = int(os.environ.get("ARENA_TEST_SLOW", "1"))
STARTUP_MS = str(15000 * SLOW)


class Failure(Exception):
    pass


def check(cond, what):
    if not cond:
        raise Failure(what)


def games(out):
    return [json.loads(x) for x in out.splitlines() if x.startswith("{")]


def as_user(uid, gid):
    def drop():
        os.setgroups([])
        os.setgid(gid)
        os.setuid(uid)
    return drop


def reachable(path):
    """Whether another uid can reach path (a tree below a 0700 directory, a
    clone in /root, is out of `nobody`'s reach)."""
    path = os.path.abspath(path)
    while path != "/":
        path = os.path.dirname(path)
        if not os.stat(path).st_mode & stat.S_IXOTH:
            return False
    return True


def scratch_dir():
    """Beside the build (outside /tmp, like a user's files), when writable and
    reachable by the agents' uids; else in /tmp."""
    d = os.path.dirname(ARENA)
    return d if os.access(d, os.W_OK) and reachable(d) else None


REPO = os.path.dirname(os.path.dirname(HERE))


def make_work(owner, parent=None):
    """A directory laid out as a user's: the DB, a host UNIX socket, the
    attacker in bots/ with the match logs beside it, the victim in opp/.
    Beside the build (outside /tmp) for the current user; for another user
    (owner), in /tmp with copies of arena and the SDKs, since the build may
    sit where that user cannot reach."""
    work = tempfile.mkdtemp(prefix="sandbox-", dir=parent or (None if owner else scratch_dir()))
    os.chmod(work, 0o755)
    if owner:
        shutil.copy(ARENA, os.path.join(work, "arena"))
        shutil.copytree(os.path.join(REPO, "sdk", "python"), os.path.join(work, "sdk", "python"))
        shutil.copytree(os.path.join(REPO, "sdk", "js"), os.path.join(work, "sdk", "js"))
    db = sqlite3.connect(os.path.join(work, "results.sqlite"))
    db.execute("create table results (game text, winner text)")
    db.execute("insert into results values ('nim', 'escape')")
    db.commit()
    db.close()
    for d in ("bots", "opp"):
        os.mkdir(os.path.join(work, d))
        shutil.copy(os.path.join(HERE, "escape.py"), os.path.join(work, d, "escape.py"))
    os.mkdir(os.path.join(work, "bots", "logs"))
    for dirpath, dirs, files in os.walk(work):
        for n in dirs + files:
            p = os.path.join(dirpath, n)
            executable = os.path.isdir(p) or n.endswith(".py") or n == "arena"
            os.chmod(p, 0o755 if executable else 0o644)
            if owner:
                os.chown(p, owner[0], owner[1])
    if owner:
        os.chown(work, owner[0], owner[1])
    return work


def run_arena(args, work, user=None, env_extra=None, limit=60):
    limit *= SLOW
    env = dict(os.environ, ARENA_TEST_SECRET=SECRET, **(env_extra or {}))
    cmd = [os.path.join(work, "arena") if user else ARENA, *args]
    p = subprocess.run(cmd, cwd=work, env=env, capture_output=True, text=True, timeout=limit,
                       preexec_fn=as_user(*user) if user else None)
    print(f"$ {' '.join(cmd)}\nexit {p.returncode}\n{p.stdout}{p.stderr[-3000:]}")
    return p.returncode, p.stdout, p.stderr


def pins_oom(user):
    """Whether arena, run by user (None: us), has CAP_SYS_RESOURCE."""
    if user:
        return False
    with open("/proc/self/status") as f:
        eff = next(int(l.split()[1], 16) for l in f if l.startswith("CapEff:"))
    return bool(eff >> 24 & 1)


def facts_of(game):
    """The attacker's findings, from its `log` line."""
    text = game["bot_log_last"][0]
    check(text.startswith("escape:"), f"attacker's log line {text!r}")
    return {k: int(v) for k, v in (kv.split("=") for kv in text[len("escape:"):].split(","))}


def escape(user, parent=None):
    owner = user[:2] if user else None
    work = make_work(owner, parent)
    srv = socket.socket(socket.AF_UNIX)
    srv.bind(os.path.join(work, "host.sock"))
    os.chmod(os.path.join(work, "host.sock"), 0o777)
    srv.listen(8)
    try:
        attacker = f"cmd:/usr/bin/python3 bots/escape.py attack {work}"
        victim = f"cmd:/usr/bin/python3 {work}/opp/escape.py victim"
        clocks = ["--move-ms", "5000", "--startup-ms", STARTUP_MS, "--exit-grace-ms", "200",
                  "--limit-as", "0", "--json"]
        # Outside the sandbox the harmless attacks work: they are real.
        rc, out, _ = run_arena(["play", "nim", f"cmd:/usr/bin/python3 bots/escape.py probe {work}",
                                victim, "--log", "bots/logs", *clocks, "--seed", "3"], work, user)
        g = games(out)
        check(rc == 0 and len(g) == 1, f"control run: exit {rc}")
        f = facts_of(g[0])
        for k in ("write", "db", "env", "sock", "seen", "opp"):
            check(f[k] == 1, f"without --sandbox attack {k!r} should work: {f}")
        check(f["oom"] == 0, f"an agent's oom_score_adj is 1000 with or without --sandbox: {f}")
        os.unlink(os.path.join(work, "pwned"))
        # Under --sandbox every attack fails and the victim plays normally.
        rc, out, err = run_arena(["play", "nim", attacker, victim, "--sandbox", "--log",
                                  "bots/logs", "--limit-procs", str(LIMIT_PROCS), *clocks, "--seed", "4"],
                                 work, user)
        g = games(out)
        check(rc == 0 and len(g) == 1, f"sandboxed run: exit {rc}")
        f = facts_of(g[0])
        print("attacks:", f)
        # "write" is judged on the host below: when the work directory is
        # under /tmp, the bot's write lands in its private /tmp, harmlessly.
        # Only an arena with CAP_SYS_RESOURCE (root, usually) can stop its
        # agents from lowering their oom_score_adj again.
        allowed = ("forks", "write", "tmp", "shm") + (() if pins_oom(user) else ("oom_undo",))
        broken = [k for k, v in f.items() if k not in allowed and v]
        check(not broken, f"escapes that worked under --sandbox: {broken} ({f})")
        for k in ("tmp", "shm"):
            check(1 <= f[k] <= TMP_MIB, f"{k}: {f[k]} MiB written, want 1..{TMP_MIB}: {f}")
        # A nested user namespace could mount a tmpfs of its own, which no
        # --limit-tmp bounds: none may be made (bwrap --disable-userns).
        check(1 <= f["forks"] < LIMIT_PROCS,
              f"forks {f['forks']}: the per-agent limit {LIMIT_PROCS} should stop the bomb")
        check(g[0]["forfeits"] == [], f"the victim must not suffer: {g[0]}")
        check(g[0]["reason"] == "normal", f"reason {g[0]['reason']}")
        check(not os.path.exists(os.path.join(work, "pwned")), "a file appeared on the host")
        db = sqlite3.connect(os.path.join(work, "results.sqlite"))
        rows = db.execute("select * from results").fetchall()
        db.close()
        check(rows == [("nim", "escape")], f"results rewritten: {rows}")
    finally:
        srv.close()
        shutil.rmtree(work, ignore_errors=True)


def unprivileged():
    """(uid, gid) of nobody when we are root, else None (the current user)."""
    if os.geteuid() != 0:
        return None
    nobody = pwd.getpwnam("nobody")
    return (nobody.pw_uid, nobody.pw_gid)


def bots_work():
    for user in (None, unprivileged()):
        work = make_work(user)
        repo = work if user else REPO
        # As docs/writing-a-bot.md sets up the SDKs.
        env = {"PYTHONPATH": f"{repo}/sdk/python", "NODE_PATH": f"{repo}/sdk/js"}
        shutil.copy(RANDOM_C, os.path.join(work, "random-c"))
        os.chmod(os.path.join(work, "random-c"), 0o755)
        tmpbot = tempfile.mkdtemp(prefix="arena-bot-")
        os.chmod(tmpbot, 0o755)
        shutil.copy(os.path.join(HERE, "escape.py"), tmpbot)
        try:
            py = os.path.relpath(f"{repo}/sdk/python/examples/random_bot.py", work)
            pairs = [(f"cmd:python3 {py}", f"cmd:node {repo}/sdk/js/examples/random-bot.js",
                      ["random-py", "random-js"]),
                     ("./random-c", f"cmd:python3 {tmpbot}/escape.py victim",
                      ["random-c", "victim"])]
            for a, b, names in pairs:
                rc, out, err = run_arena(["play", "nim", a, b, "--sandbox", "--json", "--games",
                                          "2", "--move-ms", "5000", "--startup-ms", STARTUP_MS,
                                          "--limit-as", "0"], work, user, env)
                g = games(out)
                check(rc == 0 and len(g) == 2, f"{a} vs {b}: exit {rc}")
                for x in g:
                    check(x["reason"] == "normal" and x["forfeits"] == [], f"{a} vs {b}: {x}")
                    check(sorted(x["agents"]) == sorted(names), f"join names {x['agents']}")
        finally:
            shutil.rmtree(work, ignore_errors=True)
            shutil.rmtree(tmpbot, ignore_errors=True)


def symlink_dir():
    for user in (None, unprivileged()):
        work = make_work(user)
        try:
            real = os.path.join(work, "real")
            os.mkdir(real)
            os.mkdir(os.path.join(real, "logs"))
            shutil.copy(os.path.join(HERE, "escape.py"), real)
            os.symlink("real", os.path.join(work, "link"))
            for p in (real, os.path.join(real, "logs")):
                os.chmod(p, 0o755)
                if user:
                    os.chown(p, *user)
            os.chmod(os.path.join(real, "escape.py"), 0o755)
            # escape.py looks for the logs beside itself: through the link.
            a = f"cmd:/usr/bin/python3 {work}/link/escape.py probe {work}"
            b = "cmd:/usr/bin/python3 link/escape.py victim"
            rc, out, err = run_arena(["play", "nim", a, b, "--sandbox", "--json", "--log",
                                      "real/logs", "--move-ms", "5000", "--startup-ms", STARTUP_MS,
                                      "--limit-as", "0", "--seed", "3"], work, user)
            g = games(out)
            check(rc == 0 and len(g) == 1, f"exit {rc}")
            check(g[0]["reason"] == "normal" and g[0]["forfeits"] == [],
                  f"bots through a symlinked directory must start: {g[0]}")
            f = facts_of(g[0])
            check(f["log"] == 0 and f["db"] == 0, f"masks hold through the link: {f}")
        finally:
            shutil.rmtree(work, ignore_errors=True)


def tournament_db():
    work = make_work(None)
    try:
        os.unlink(os.path.join(work, "results.sqlite"))
        victim = f"cmd:/usr/bin/python3 {work}/opp/escape.py victim"
        base = ["tournament", "--game", "nim", "--agent", f"v={victim}", "--games-per-pairing",
                "2", "--sandbox", "--startup-ms", STARTUP_MS, "--move-ms", "5000", "--limit-as", "0"]
        # The DB in the directory of agent w's program: w is refused.
        rc, out, err = run_arena([*base, "--agent", f"w={victim.replace('/opp/', '/bots/')}",
                                  "--db", "bots/t.sqlite"], work)
        check(rc != 0 and "private to the referee" in err and "t.sqlite" in err,
              f"an agent beside the DB must be refused: exit {rc}")
        # Elsewhere the tournament runs; the DB stays private and intact.
        rc, out, err = run_arena([*base, "--agent", f"w={victim.replace('/opp/', '/bots/')}",
                                  "--db", "results.sqlite"], work)
        check(rc == 0, f"tournament with the DB outside the agents' directories: exit {rc}")
        db = sqlite3.connect(os.path.join(work, "results.sqlite"))
        n = db.execute("select count(*) from sqlite_master").fetchone()[0]
        db.close()
        check(n > 0, "the tournament DB was written")
    finally:
        shutil.rmtree(work, ignore_errors=True)


def cpu_helper():
    work = make_work(None)
    try:
        bot = f"cmd:/usr/bin/python3 {work}/bots/escape.py ponder"
        # 300 ms of sleep is under the 10 x move-ms wall cap; the helper burns
        # far more than 50 ms of CPU meanwhile, even sharing a loaded CPU.
        rc, out, _ = run_arena(["play", "nim", bot, "builtin:random", "--sandbox", "--clock",
                                "cpu", "--move-ms", "50", "--bank-ms", "0", "--startup-ms",
                                STARTUP_MS, "--exit-grace-ms", "200", "--limit-as", "0", "--json",
                                "--seed", "5"], work)
        g = games(out)
        check(rc == 0 and len(g) == 1, f"exit {rc}")
        check(g[0]["forfeits"] == [{"seat": 0, "cause": "timeout"}],
              f"the helper's thinking went uncharged: {g[0]}")
        marker = f"{work}/bots/escape.py"
        deadline = time.monotonic() + 5
        while agent_pids(marker, -1) and time.monotonic() < deadline:
            time.sleep(0.05)
        left = agent_pids(marker, -1)
        check(not left, f"the helper survived the match: {left}")
    finally:
        shutil.rmtree(work, ignore_errors=True)


def agent_pids(marker, arena_pid):
    """Host pids of live processes other than arena whose command line holds
    marker."""
    found = []
    for p in os.listdir("/proc"):
        if not p.isdigit() or int(p) in (os.getpid(), arena_pid):
            continue
        try:
            with open(f"/proc/{p}/cmdline", "rb") as f:
                cmd = f.read()
            with open(f"/proc/{p}/stat") as f:
                stat = f.read()
        except OSError:
            continue
        if marker.encode() in cmd and stat[stat.rindex(")") + 2] != "Z":
            found.append(int(p))
    return found


def stop(sandbox):
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP, signal.SIGKILL):
        work = tempfile.mkdtemp(prefix="stop-", dir=scratch_dir())
        marker = os.path.join(work, f"pids-{sig.name}")
        agent = f"cmd:{HOSTILE} --fault ignore_term --pidfile {marker}"
        cmd = [ARENA, "play", "nim", agent, agent, "--games", "100000", "--limit-as", "0",
               "--exit-grace-ms", "60000", "--move-ms", "5000", "--startup-ms", STARTUP_MS]
        if sandbox:
            cmd.append("--sandbox")
        p = subprocess.Popen(cmd, cwd=work, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                             start_new_session=True)
        try:
            # Both hostiles and their children.
            deadline = time.monotonic() + 20
            while len(agent_pids(marker, p.pid)) < 4:
                if p.poll() is not None:
                    raise Failure(f"arena exited early: {p.stderr.read()}")
                check(time.monotonic() < deadline, f"agents never started: {agent_pids(marker, p.pid)}")
                time.sleep(0.05)
            time.sleep(0.3)
            p.send_signal(sig)
            try:
                p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                raise Failure(f"{sig.name}: arena still running 10 s later")
            deadline = time.monotonic() + 5
            while agent_pids(marker, p.pid) and time.monotonic() < deadline:
                time.sleep(0.05)
            left = agent_pids(marker, p.pid)
            print(f"{sig.name}: arena exit {p.returncode}, agents left {left}")
            check(not left, f"{sig.name}{' --sandbox' if sandbox else ''}: agent processes "
                            f"{left} still running after arena stopped")
            if sig != signal.SIGKILL:
                check(p.returncode == 128 + sig or p.returncode == -sig,
                      f"{sig.name}: exit {p.returncode}, want death by the signal")
        finally:
            for q in agent_pids(marker, p.pid):
                os.kill(q, signal.SIGKILL)
            if p.poll() is None:
                os.killpg(p.pid, signal.SIGKILL)
                p.wait()
            p.stderr.close()
            shutil.rmtree(work, ignore_errors=True)


def groups_of(pid):
    """The cgroup directories arena (pid) made, in any hierarchy."""
    found = []
    tops = [cgroups.V2_ROOT] if cgroups.v2_only() else [
        f"/sys/fs/cgroup/{c}" for c in ("memory", "pids", "cpu", "freezer", "cpuacct")]
    for top in tops:
        for d, dirs, _ in os.walk(top):
            found += [os.path.join(d, x) for x in dirs if x == f"arena-{pid}"]
    return found


def wait_dead(pids, s=5):
    deadline = time.monotonic() + s
    alive = pids
    while alive and time.monotonic() < deadline:
        time.sleep(0.05)
        alive = [p for p in pids if agent_pids("escape.py", -1).count(p)]
    return alive


def hog_play(work, extra, pidfile=None):
    """arena play with the hog as seat 0: (exit, games, stderr, arena's pid)."""
    hog = f"cmd:/usr/bin/python3 {work}/bots/escape.py hog spread" + (f" {pidfile}" if pidfile else "")
    victim = f"cmd:/usr/bin/python3 {work}/opp/escape.py victim"
    cmd = [ARENA, "play", "nim", hog, victim, "--move-ms", "5000", "--startup-ms", STARTUP_MS,
           "--exit-grace-ms", "200", "--limit-as", "0", "--json", "--seed", "6", *extra]
    p = subprocess.Popen(cmd, cwd=work, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True)
    out, err = p.communicate(timeout=120 * SLOW)
    print(f"$ {' '.join(cmd)}\nexit {p.returncode}\n{out}{err[-3000:]}")
    return p.returncode, games(out), err, p.pid


def held(game):
    text = game["bot_log_last"][0]
    check(text.startswith("hog:held="), f"hog's log line {text!r}")
    return int(text[len("hog:held="):])


def refused(user):
    """An explicit --limit-mem is refused, with the reason, for user."""
    p = subprocess.run([ARENA, "play", "nim", "builtin:random", "builtin:random", "--limit-mem",
                        str(MEM_CAP)], capture_output=True, text=True, timeout=60 * SLOW,
                       preexec_fn=as_user(*user) if user else None)
    check(p.returncode == 2 and "--limit-mem cannot be enforced here" in p.stderr,
          f"--limit-mem without a cgroup: exit {p.returncode}, {p.stderr!r}")


def agent_cgroups():
    user = unprivileged()
    if user:
        refused(user)  # no group of its own: the cap it asks for cannot hold
    if not cgroups.agent_groups():
        # Not root: refused for us too, and the default cap is said not to
        # hold.
        refused(None)
        work = make_work(None)
        try:
            rc, g, err, _ = hog_play(work, ["--sandbox"])
            check(rc == 0 and "--limit-mem is not enforced" in err, f"no note: {err!r}")
        finally:
            shutil.rmtree(work, ignore_errors=True)
        return
    work = make_work(None)
    try:
        # The agent's own group in every hierarchy: memory, pids (its
        # processes), cpu under every clock (one agent's share, however
        # many processes it runs), under --freeze-idle freezer (its stops), and with a
        # CPU-timed clock or start-up (--clock fair or cpu, --freeze-idle's
        # start-up) cpuacct. Under v2 one
        # group has them all: its controllers (cpu only where wanted), and
        # freezing and CPU time, which every v2 group has.
        v2 = cgroups.v2_only()
        shell = ("cmd:/bin/sh -c 'cat /proc/self/cgroup >&2; "
                 + ("echo ctl:$(cat /sys/fs/cgroup$(sed -n s/^0:://p /proc/self/cgroup)/"
                    "cgroup.controllers) >&2; " if v2 else "")
                 + f"exec /usr/bin/python3 {work}/opp/escape.py victim'")
        for clock, want in (([], ("memory", "pids", "cpu", "cpuacct")),
                            (["--clock", "wall"], ("memory", "pids", "cpu")),
                            (["--clock", "cpu"], ("memory", "pids", "cpu", "cpuacct")),
                            (["--freeze-idle"], ("memory", "pids", "cpu", "freezer", "cpuacct")),
                            (["--freeze-idle", "--clock", "wall"],
                             ("memory", "pids", "cpu", "freezer", "cpuacct"))):
            rc, out, _ = run_arena(["play", "nim", shell, "builtin:random", "--json",
                                    "--startup-ms", STARTUP_MS, *clock], work)
            g = games(out)
            check(rc == 0 and len(g) == 1, f"exit {rc}")
            mine, lines = {}, g[0]["stderr_tail"][0].splitlines()
            for line in lines:
                if line.startswith("ctl:"):  # v2: its group's controllers
                    v2_path = mine.pop("")
                    for c in line[4:].split() + ["freezer", "cpuacct"]:
                        mine[c] = v2_path
                    continue
                _, ctls, path = line.split(":", 2)
                for c in ctls.split(","):
                    mine[c] = path
            for c in ("memory", "pids", "cpu", "freezer", "cpuacct"):
                own = bool(re.search(r"/arena-[0-9]+/[0-9]+$", mine.get(c, "")))
                expect = c in want or (v2 and c in ("freezer", "cpuacct"))
                check(own == (expect and cgroups.agent_groups(c)),
                      f"{clock}: the agent's {c} group: {lines}")
        # Uncapped, the hog's children hold all they touched.
        rc, g, _, _ = hog_play(work, ["--limit-mem", "0"])
        check(rc == 0 and len(g) == 1 and held(g[0]) == 8 * 64,
              f"uncapped, the hog should hold 512 MiB: {g}")
        for sandbox in ([], ["--sandbox"]):
            pidfile = None if sandbox else os.path.join(work, "hog-pids")
            rc, g, err, pid = hog_play(work, ["--limit-mem", str(MEM_CAP), *sandbox], pidfile)
            what = "--sandbox" if sandbox else "plain"
            check(rc == 0 and len(g) == 1, f"{what}: exit {rc}")
            check(0 < held(g[0]) <= MEM_CAP, f"{what}: the hog held {held(g[0])} MiB, cap {MEM_CAP}")
            check(g[0]["forfeits"] == [] and g[0]["reason"] == "normal",
                  f"{what}: the victim must not suffer: {g[0]}")
            check(not groups_of(pid), f"{what}: cgroups left: {groups_of(pid)}")
            if pidfile:
                with open(pidfile) as f:
                    kids = [int(x) for x in f.read().split()]
                left = wait_dead(kids)
                check(not left, f"the hog's setsid'd children outlived the match: {left}")
        # Over its cap in its own process: killed, and told why.
        hog = f"cmd:/usr/bin/python3 {work}/bots/escape.py hog self {2 * MEM_CAP}"
        rc, out, _ = run_arena(["play", "nim", hog, "builtin:random", "--limit-mem",
                                str(MEM_CAP), "--limit-as", "0", "--json", "--startup-ms",
                                STARTUP_MS], work)
        g = games(out)
        check(rc == 0 and len(g) == 1 and g[0]["forfeits"] == [{"seat": 0, "cause": "crash"}],
              f"the hog over its cap should crash: {g}")
        check(f"killed a process of it at --limit-mem {MEM_CAP}" in g[0]["fault_message"][0],
              f"the verdict should name the cap: {g[0]['fault_message']}")
        # check-bot warns a bot that holds over 3/4 of its cap.
        p = subprocess.run([ARENA, "check-bot", f"cmd:/usr/bin/python3 {work}/bots/escape.py hog self "
                            f"{MEM_CAP * 7 // 8}", "--limit-mem", str(MEM_CAP), "--games", "1",
                            "--startup-ms", STARTUP_MS], capture_output=True, text=True,
                           timeout=120 * SLOW,
                           cwd=work, env=dict(os.environ, TMPDIR=work))
        print(p.stdout, p.stderr)
        check(p.returncode == 0 and re.search(r"warn +memory: peak 2[2-5][0-9]\.[0-9] MiB", p.stdout),
              f"check-bot should warn of the hog's peak: {p.stdout}")
        # SIGKILL of arena: the watchdog still kills what left the group.
        pidfile = os.path.join(work, "hog-pids-kill")
        hog = f"cmd:/usr/bin/python3 {work}/bots/escape.py hog spread {pidfile}"
        p = subprocess.Popen([ARENA, "play", "nim", hog, "builtin:random", "--games", "100000",
                              "--limit-mem", "0", "--limit-as", "0", "--startup-ms", STARTUP_MS],
                             cwd=work, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            deadline = time.monotonic() + 30
            while not os.path.exists(pidfile) or not groups_of(p.pid):
                check(p.poll() is None and time.monotonic() < deadline, "the hog never started")
                time.sleep(0.05)
            time.sleep(0.5)
            parents = [os.path.dirname(d) for d in groups_of(p.pid)]
            kill_arena(p, pidfile, "SIGKILL of arena")
            # Had its watchdog died too, the next arena removes what is left.
            dead = subprocess.Popen(["true"])
            dead.wait()
            stale = [os.path.join(d, f"arena-{dead.pid}", "1") for d in parents]
            for d in stale:
                os.makedirs(d)
            rc, _, _ = run_arena(["play", "nim", f"cmd:/usr/bin/python3 {work}/opp/escape.py victim",
                                  "builtin:random", "--json", "--startup-ms", STARTUP_MS], work)
            left = [d for d in stale if os.path.exists(os.path.dirname(d))]
            for d in left:
                os.rmdir(d)
                os.rmdir(os.path.dirname(d))
            check(rc == 0 and not left, f"a dead arena's cgroups were not removed: {left}")
        finally:
            if p.poll() is None:
                p.kill()
                p.wait()
        if cgroups.agent_groups("freezer"):
            killed_while_frozen(work)
    finally:
        for q in agent_pids(work, -1):  # a failed check leaves no hog behind
            os.kill(q, signal.SIGKILL)
        shutil.rmtree(work, ignore_errors=True)


def kill_arena(p, pidfile, what):
    """SIGKILLs arena (p): the hog's setsid'd children, listed in pidfile,
    must die all the same, and arena's cgroups go (its watchdog's work)."""
    with open(pidfile) as f:
        kids = [int(x) for x in f.read().split()]
    p.kill()
    p.wait()
    left = wait_dead(kids)
    check(not left, f"{what}: the hog's children survived: {left}")
    deadline = time.monotonic() + 5
    while groups_of(p.pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    check(not groups_of(p.pid), f"{what}: cgroups left: {groups_of(p.pid)}")


def killed_while_frozen(work):
    """SIGKILL of arena while --freeze-idle holds an agent frozen: a frozen
    process takes its SIGKILL only once thawed, so the watchdog must thaw
    what it kills, or the hog's children would live on, frozen."""
    pidfile = os.path.join(work, "hog-pids-frozen")
    hog = f"cmd:/usr/bin/python3 {work}/bots/escape.py hog spread {pidfile}"
    slow = ("cmd:/usr/bin/python3 " + os.path.join(os.path.dirname(HERE), "hostile", "laggard.py")
            + " --delays " + ",".join(["500"] * 100))
    p = subprocess.Popen([ARENA, "play", "nim", hog, slow, "--freeze-idle", "--set", "stones=200",
                          "--limit-mem", "0", "--limit-as", "0", "--startup-ms", STARTUP_MS],
                         cwd=work, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 30
        frozen = []
        while not frozen or not os.path.exists(pidfile):
            check(p.poll() is None and time.monotonic() < deadline, "the hog was never frozen")
            time.sleep(0.05)
            frozen = [g for g in agent_dirs(p.pid) if frozen_group(g)]
        kill_arena(p, pidfile, "SIGKILL of arena with the hog frozen")
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()


def agent_dirs(pid):
    """The agents' groups of arena (pid), in any hierarchy."""
    return [os.path.join(d, g) for d in groups_of(pid) for g in os.listdir(d) if g.isdigit()]


def frozen_group(g):
    """Whether group g is frozen (v1: in the freezer hierarchy)."""
    name, want = ("cgroup.freeze", "1") if cgroups.v2_only() else ("freezer.state", "FROZEN")
    try:
        with open(os.path.join(g, name)) as f:
            return f.read().strip() == want
    except OSError:  # a v1 group outside the freezer's hierarchy, or gone
        return False


def procs_cap():
    work = make_work(None)
    try:
        rc, out, _ = run_arena(["play", "nim", f"cmd:/usr/bin/python3 {work}/bots/escape.py bomb",
                                "builtin:random", "--limit-procs", str(LIMIT_PROCS),
                                "--startup-ms", STARTUP_MS, "--json"], work)
        g = games(out)
        check(rc == 0 and len(g) == 1 and g[0]["forfeits"] == [], f"exit {rc}: {g}")
        text = g[0]["bot_log_last"][0]
        check(text.startswith("bomb:forks="), f"bomb's log line {text!r}")
        forks = int(text[len("bomb:forks="):])
        if os.geteuid() == 0 and not cgroups.agent_groups("pids"):
            # Documented: root is exempt from RLIMIT_NPROC, and no group binds it.
            check(forks == 200, f"root without cgroups: {forks} forks, want all 200")
        else:
            check(1 <= forks < LIMIT_PROCS, f"{forks} forks under --limit-procs {LIMIT_PROCS}")
    finally:
        for q in agent_pids(work, -1):
            os.kill(q, signal.SIGKILL)
        shutil.rmtree(work, ignore_errors=True)


def main():
    if CASE == "escape_root":
        escape(None)
    elif CASE == "escape_user":
        escape(unprivileged())
    elif CASE == "escape_private":
        private = tempfile.mkdtemp(prefix="private-")
        os.chmod(private, 0o700)
        try:
            escape(None, private)
        finally:
            shutil.rmtree(private, ignore_errors=True)
    elif CASE == "bots_work":
        bots_work()
    elif CASE == "symlink_dir":
        symlink_dir()
    elif CASE == "tournament_db":
        tournament_db()
    elif CASE == "cpu_helper":
        cpu_helper()
    elif CASE == "agent_cgroups":
        agent_cgroups()
    elif CASE == "procs_cap":
        procs_cap()
    elif CASE in ("stop_plain", "stop_sandbox"):
        stop(CASE == "stop_sandbox")
    else:
        print(f"unknown case {CASE}")
        return 2
    print(f"ok {CASE}")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except Failure as e:
        print(f"FAIL {CASE}: {e}")
        timing.print_load()
        sys.exit(1)
