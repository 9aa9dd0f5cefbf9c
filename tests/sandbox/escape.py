#!/usr/bin/python3
"""A bot that tries to break out of `arena play --sandbox`, for
tests/sandbox/run_sandbox.py. It reports what worked through its join name
in a `log` line ("escape:KEY=0|1,...", 1 meaning the attack succeeded; a
join name would be cut to 64 bytes), then plays nim as a
JSON bot answering option 0.

  escape.py attack WORKDIR   try every escape; WORKDIR holds the test's
                             results.sqlite, host.sock and the opponent's
                             opp/escape.py; the match logs are in logs/
                             beside this file
  escape.py probe WORKDIR    only the harmless attacks (reads, write,
                             socket, env, seen), to check outside the
                             sandbox that they do detect what they look for
  escape.py ponder           leaves a double-forked setsid helper burning CPU
                             (its "thinking") and answers each decision after
                             300 ms of sleep: with --clock cpu only a clock
                             that follows the helper charges the thinking
  escape.py victim           the opponent: forks a child at every decision
                             (exits 3 when it cannot) and waits to be attacked
  escape.py hog spread [PIDFILE]  forks HOG_CHILDREN children that each leave
                             its process group (setsid), touch HOG_MIB MiB and
                             keep them, writing their pids to PIDFILE; then
                             logs "hog:held=MIB" (what its live children hold)
                             and plays. No rlimit bounds the sum.
  escape.py hog self MIB     touches MIB MiB in its own process after join,
                             then plays
  escape.py bomb             forks until it cannot (at most MAX_FORKS; the
                             children stay), logs "bomb:forks=N", plays

Attacks (KEY):
  remount  mount(2) MS_REMOUNT of / read-write
  umount   umount2(2) of the private /tmp, then of /proc (to see the host's)
  write    creating WORKDIR/pwned (the test also looks for it on the host)
  db, log  reading WORKDIR/results.sqlite, a file under logs/
  opp      reading the opponent's program WORKDIR/opp/escape.py
  env      $ARENA_TEST_SECRET is set
  sock     connecting to the host UNIX socket WORKDIR/host.sock
  fds      reading results.sqlite by walking up ("..") from any inherited
           descriptor of a host directory (the referee binds directories
           by descriptor when it runs as root)
  seen     the victim's process is visible in /proc
  ptrace   PTRACE_ATTACH to the victim
  kill     SIGKILL to the victim
  forks    how many processes it could fork (they stay alive, holding the
           per-agent process count for the whole game)
  tmp, shm MiB it could write to /tmp and /dev/shm (memory, not disk: no
           rlimit bounds it; up to FILL_MIB)
  userns   MiB it could write to a tmpfs of its own, mounted in a nested user
           and mount namespace (`unshare -Urm`: past --limit-tmp); 0 when no
           nested user namespace could be made
  dev, mask  writing a file to /dev, or into the masked logs directory
           (both memory too)
  oom      its oom_score_adj is below 1000: the kernel's OOM killer could
           pick the referee before the agents
  oom_undo lowering its oom_score_adj back to 0 worked
  cgroup   moving itself out of its cgroups (their memory and process caps)
           worked"""
import ctypes
import json
import os
import signal
import socket
import sys
import time

MS_RDONLY, MS_REMOUNT, MS_BIND = 1, 32, 4096
MNT_DETACH = 2
PTRACE_ATTACH = 16
MAX_FORKS = 200
HOG_CHILDREN, HOG_MIB = 8, 64
FILL_MIB = 96  # past --limit-tmp's default of 64

libc = ctypes.CDLL(None, use_errno=True)


def remount():
    ok = libc.mount(None, b"/", None, MS_REMOUNT | MS_BIND, None) == 0
    return ok or libc.mount(None, b"/", None, MS_REMOUNT, None) == 0


def umount():
    tmp = libc.umount2(b"/tmp", MNT_DETACH) == 0
    proc = libc.umount2(b"/proc", MNT_DETACH) == 0
    return tmp or proc


def nested_tmpfs():
    """In a child: a new user and mount namespace (root mapped to our uid),
    a tmpfs of its own on /tmp, filled. Returns the MiB written (0: no
    namespace)."""
    CLONE_NEWNS, CLONE_NEWUSER = 0x00020000, 0x10000000
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        done = 0
        try:
            uid, gid = os.getuid(), os.getgid()
            if libc.unshare(CLONE_NEWUSER | CLONE_NEWNS) == 0:
                for path, text in (("setgroups", "deny"), ("uid_map", f"0 {uid} 1"),
                                   ("gid_map", f"0 {gid} 1")):
                    try:
                        with open(f"/proc/self/{path}", "w") as f:
                            f.write(text)
                    except OSError:
                        pass
                done = 1  # a namespace, at least
                if libc.mount(b"nested", b"/tmp", b"tmpfs", 0, None) == 0:
                    done = max(1, fill("/tmp"))
        finally:
            os.write(w, str(done).encode())
            os._exit(0)
    os.close(w)
    got = b""
    while True:
        b = os.read(r, 64)
        if not b:
            break
        got += b
    os.close(r)
    os.waitpid(pid, 0)
    return int(got or b"0")


def fill(d):
    """MiB written below d in 8 MiB files (under --limit-fsize) until a
    write fails or FILL_MIB; the files are removed again."""
    chunk, done, names = b"x" * (1 << 20), 0, []
    try:
        while done < FILL_MIB:
            names.append(os.path.join(d, f"fill-{len(names)}"))
            with open(names[-1], "wb") as f:
                for _ in range(8):
                    f.write(chunk)
                    f.flush()
                    done += 1
    except OSError:
        pass
    for n in names:
        try:
            os.unlink(n)
        except OSError:
            pass
    return done


def oom_adj():
    with open("/proc/self/oom_score_adj") as f:
        return int(f.read())


def lower_oom_adj():
    try:
        with open("/proc/self/oom_score_adj", "w") as f:
            f.write("0")
    except OSError:
        pass
    return oom_adj() < 1000


def leave_cgroups():
    """Moves itself into the root group of every cgroup hierarchy it is in
    below the root, v1's and v2's (out of its memory and pids caps)."""
    left = False
    with open("/proc/self/cgroup") as f:
        for line in f:
            _, ctls, path = line.rstrip("\n").split(":", 2)
            if path == "/":
                continue
            top = f"/sys/fs/cgroup/{ctls.split(',')[0]}" if ctls else "/sys/fs/cgroup"
            try:
                with open(f"{top}/cgroup.procs", "w") as g:
                    g.write(str(os.getpid()))
                left = True
            except OSError:
                pass
    return left


def can_read(path):
    try:
        with open(path, "rb") as f:
            return len(f.read(64)) > 0
    except OSError:
        return False


def can_read_log(logs):
    try:
        return any(can_read(os.path.join(logs, n)) for n in os.listdir(logs))
    except OSError:
        return False


def can_write(path):
    try:
        with open(path, "w") as f:
            f.write("escaped\n")
        return True
    except OSError:
        return False


def can_connect(path):
    try:
        s = socket.socket(socket.AF_UNIX)
        s.settimeout(1)
        s.connect(path)
        s.close()
        return True
    except OSError:
        return False


def can_walk_up_from_fds(work):
    """Whether an inherited directory descriptor leads to results.sqlite:
    the DB lies in WORKDIR, one or two levels above the agents' dirs."""
    for name in os.listdir("/proc/self/fd"):
        fd = int(name)
        if fd < 3:
            continue
        for up in ("..", "../.."):
            try:
                db = os.open(f"{up}/results.sqlite", os.O_RDONLY, dir_fd=fd)
            except OSError:
                continue
            os.close(db)
            return True
    return False


def find_victim(wait_s):
    deadline = time.monotonic() + wait_s
    while True:
        try:
            pids = [int(p) for p in os.listdir("/proc") if p.isdigit()]
        except OSError:
            pids = []
        for pid in pids:
            try:
                with open(f"/proc/{pid}/cmdline", "rb") as f:
                    cmd = f.read().split(b"\0")
            except OSError:
                continue
            if b"victim" in cmd and any(w.endswith(b"escape.py") for w in cmd):
                return pid
        if time.monotonic() > deadline:
            return None
        time.sleep(0.05)


def fork_bomb():
    n = 0
    while n < MAX_FORKS:
        try:
            pid = os.fork()
        except OSError:
            break
        if pid == 0:
            signal.pause()
            os._exit(0)
        n += 1
    return n


def play(name, on_decide=None, facts=None):
    def send(m):
        sys.stdout.write(json.dumps(m) + "\n")
        sys.stdout.flush()

    send({"type": "join", "name": name})
    for line in sys.stdin:
        m = json.loads(line)
        if m["type"] == "hello":
            send({"type": "ready"})
            if facts:
                send({"type": "log", "text": facts})
        elif m["type"] == "decide":
            if on_decide:
                on_decide()
            send({"type": "act", "id": m["id"], "choice": [0]})
        elif m["type"] == "bye":
            break


def attack(work, harmless):
    f = {} if harmless else {"remount": remount(), "umount": umount()}
    f["write"] = can_write(os.path.join(work, "pwned"))
    f["db"] = can_read(os.path.join(work, "results.sqlite"))
    here = os.path.dirname(os.path.abspath(__file__))
    f["log"] = can_read_log(os.path.join(here, "logs"))
    f["opp"] = can_read(os.path.join(work, "opp", "escape.py"))
    f["env"] = "ARENA_TEST_SECRET" in os.environ
    f["sock"] = can_connect(os.path.join(work, "host.sock"))
    f["fds"] = can_walk_up_from_fds(work)
    victim = find_victim(2.0)
    f["seen"] = victim is not None
    f["oom"] = oom_adj() < 1000
    if harmless:
        play("escape", facts="escape:" + ",".join(f"{k}={int(v)}" for k, v in f.items()))
        return
    f["tmp"] = fill("/tmp")
    f["shm"] = fill("/dev/shm")
    f["userns"] = nested_tmpfs()
    f["dev"] = fill("/dev") > 0
    f["mask"] = fill(os.path.join(here, "logs")) > 0
    f["oom_undo"] = lower_oom_adj()
    f["cgroup"] = leave_cgroups()
    f["ptrace"] = victim is not None and libc.ptrace(PTRACE_ATTACH, victim, None, None) == 0
    if victim is not None:
        try:
            os.kill(victim, signal.SIGKILL)
            f["kill"] = True
        except OSError:
            f["kill"] = False
    else:
        f["kill"] = False
    facts = {k: int(v) for k, v in f.items()}
    facts["forks"] = fork_bomb()
    play("escape", facts="escape:" + ",".join(f"{k}={v}" for k, v in facts.items()))


def victim():
    def fork_once():
        try:
            pid = os.fork()
        except OSError as e:
            sys.stderr.write(f"victim: fork failed: {e}\n")
            sys.exit(3)
        if pid == 0:
            os._exit(0)
        os.waitpid(pid, 0)

    play("victim", fork_once)


def ponder():
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            while True:  # the helper: pure CPU, outside the bot's group
                sum(i * i for i in range(10000))
        os._exit(0)
    os.wait()
    play("ponder", lambda: time.sleep(0.3))


def hog(how, arg):
    if how == "self":
        held = b"\x01" * (int(arg) << 20)  # written, so every page is charged
        play("hog", facts=f"hog:held={len(held) >> 20}")
        return
    r, w = os.pipe()
    kids = []
    for _ in range(HOG_CHILDREN):
        pid = os.fork()
        if pid == 0:
            os.close(r)
            os.setsid()
            held = b"\x01" * (HOG_MIB << 20)
            os.write(w, b"1")
            os.close(w)
            signal.pause()
            os._exit(len(held) & 1)
        kids.append(pid)
    os.close(w)
    if arg:
        with open(arg, "w") as f:
            f.write(" ".join(map(str, kids)))
    # Every child either reports or is killed (its end of the pipe closes).
    while os.read(r, 64):
        pass
    alive = sum(os.waitpid(k, os.WNOHANG) == (0, 0) for k in kids)
    play("hog", facts=f"hog:held={alive * HOG_MIB}")


if __name__ == "__main__":
    if sys.argv[1] in ("attack", "probe"):
        attack(sys.argv[2], sys.argv[1] == "probe")
    elif sys.argv[1] == "ponder":
        ponder()
    elif sys.argv[1] == "hog":
        hog(sys.argv[2], sys.argv[3] if len(sys.argv) > 3 else None)
    elif sys.argv[1] == "bomb":
        play("bomb", facts=f"bomb:forks={fork_bomb()}")
    else:
        victim()
