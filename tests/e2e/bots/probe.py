#!/usr/bin/python3
"""Reports what the agent's environment allows, through its join name:
  rofs=1     writing under /usr failed (read-only root)
  marker=1   the file named by $ARENA_PROBE_MARKER (made by the test in /tmp)
             is visible
  net=0      a TCP connect to the port in argv[1] on 127.0.0.1 failed
  as=N       RLIMIT_AS in MiB (-1: unlimited), core=N RLIMIT_CORE
  pgid=1     it runs in its own process group (pgid == pid)
Then plays as a random JSON bot."""
import json
import os
import random
import resource
import socket
import sys


def can_write():
    try:
        with open("/usr/arena-probe", "w"):
            pass
        os.unlink("/usr/arena-probe")
        return True
    except OSError:
        return False


def can_connect(port):
    try:
        s = socket.create_connection(("127.0.0.1", port), timeout=1)
        s.close()
        return True
    except OSError:
        return False


soft_as = resource.getrlimit(resource.RLIMIT_AS)[0]
facts = {
    "rofs": int(not can_write()),
    "marker": int(os.path.exists(os.environ["ARENA_PROBE_MARKER"])),
    "net": int(can_connect(int(sys.argv[1]))),
    "as": -1 if soft_as == resource.RLIM_INFINITY else soft_as >> 20,
    "core": resource.getrlimit(resource.RLIMIT_CORE)[0],
    "pgid": int(os.getpgid(0) == os.getpid()),
}
name = "probe:" + ",".join(f"{k}={v}" for k, v in facts.items())
rng = random.Random(1)


def send(msg):
    sys.stdout.write(json.dumps(msg) + "\n")
    sys.stdout.flush()


send({"type": "join", "name": name})
for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "hello":
        send({"type": "ready"})
    elif msg["type"] == "decide":
        send({"type": "act", "id": msg["id"], "choice": [0]})
    elif msg["type"] == "bye":
        break
