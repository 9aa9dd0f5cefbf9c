#!/usr/bin/env python3
"""A PostgreSQL test stopped by SIGTERM (what meson sends at its timeout)
leaves nothing behind: no server, no worker, no directory. Without the
cleanup in pgserver.py the server and the workers outlived the test and its
directory stayed in /tmp.

The `workers` case of e2e_pg.py is terminated at several moments: while
initdb runs, while the server starts, and once its workers play.

usage: terminated.py ARENA WORKDIR"""
import os
import shutil
import signal
import subprocess
import sys
import time

arena, work = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
here = os.path.dirname(os.path.abspath(__file__))


def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)


def users_of(path):
    """Processes running in path or naming it on their command line."""
    found = []
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open(f"/proc/{d}/cmdline", "rb") as f:
                cmd = f.read()
            cwd = os.readlink(f"/proc/{d}/cwd")
        except OSError:
            continue
        if path.encode() in cmd or cwd.startswith(path):
            text = cmd.replace(b"\0", b" ").decode(errors="replace")
            found.append(f"{d}: {text[:160]}")
    return found


def workers_running(case_dir):
    return any(" worker " in u for u in users_of(case_dir))


for at in (0.3, 1.0, "workers"):
    when = "once the workers run" if at == "workers" else f"at {at} s"
    tmp = os.path.join(work, f"tmp-{at}")
    shutil.rmtree(tmp, ignore_errors=True)
    os.makedirs(tmp)
    os.chmod(tmp, 0o777)  # the server's directory is made here, owned by its user
    env = dict(os.environ, TMPDIR=tmp)
    p = subprocess.Popen([sys.executable, os.path.join(here, "e2e_pg.py"), "workers", arena,
                          os.path.join(work, f"case-{at}")],
                         env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if at == "workers":
        deadline = time.time() + 60
        while not workers_running(os.path.join(work, f"case-{at}")) and time.time() < deadline:
            time.sleep(0.05)
    else:
        time.sleep(at)
    if p.poll() is not None:
        fail(f"the test ended before SIGTERM {when}: {p.stdout.read()}")
    p.send_signal(signal.SIGTERM)
    try:
        out, _ = p.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        p.kill()
        fail(f"SIGTERM {when}: the test did not end within 60 s")
    # The server's last backends and the workers' agents may take a moment.
    deadline = time.time() + 10
    while (left := users_of(tmp) + users_of(os.path.join(work, f"case-{at}"))) and \
            time.time() < deadline:
        time.sleep(0.1)
    if left:
        fail(f"SIGTERM {when} left running:\n" + "\n".join(left))
    if os.listdir(tmp):
        fail(f"SIGTERM {when} left in the temporary directory: {os.listdir(tmp)}")
    print(f"SIGTERM {when}: exit {p.returncode}, nothing left "
          f"({out.strip().splitlines()[-1] if out.strip() else 'no output'})")
print("ok")
