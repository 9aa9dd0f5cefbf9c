#!/usr/bin/python3
"""trickler: a bot that thinks while the referee is still writing its decide.

It shrinks its input pipe to one page (F_SETPIPE_SZ needs no privilege), so
a decide larger than that cannot be written at once, and reads only the
decide's head: its id, options and pick come before the view. When the pipe
is then full, the rest waits in the referee: it thinks THINK_MS, answers,
and only then reads the rest. A clock started at the decide's last byte
would charge such a move nothing. Speaks JSON lines (larger decides).

usage: trickler.py THINK_MS REPORT
  REPORT gets one line per decide: "trickled ID" when it answered before
  the decide was whole, "whole ID" otherwise.
"""
import array
import fcntl
import json
import os
import re
import sys
import termios
import time

F_SETPIPE_SZ = 1031
PAGE, CHUNK = 4096, 512


def waiting():
    """Bytes in the input pipe. Its one page holds at most PAGE - CHUNK
    after a read of CHUNK (a writer cannot reuse the head of a page that is
    still being read), so that many mean the referee still holds the rest
    of the decide."""
    n = array.array("i", [0])
    fcntl.ioctl(0, termios.FIONREAD, n)
    return n[0]


def main():
    think, report = int(sys.argv[1]) / 1000, open(sys.argv[2], "a")
    try:
        fcntl.fcntl(0, F_SETPIPE_SZ, PAGE)
    except OSError as e:
        report.write(f"cannot shrink the pipe: {e}\n")
    out = os.fdopen(1, "w")

    def send(msg):
        out.write(json.dumps(msg) + "\n")
        out.flush()

    send({"type": "join", "name": "trickler"})
    buf, answered, looked = b"", set(), set()
    while True:
        chunk = os.read(0, CHUNK)
        if not chunk:
            return
        buf += chunk
        head = buf.split(b"\n", 1)[0]
        if head.startswith(b'{"type":"decide"') and b"\n" not in buf and b'"view"' in head:
            ident = int(re.search(rb'"id":(\d+)', head).group(1))
            least = int(re.search(rb'"pick":\{"min":(\d+)', head).group(1))
            if ident not in answered and ident not in looked:
                looked.add(ident)
                time.sleep(0.005)  # the referee fills the pipe if the rest fits
            if ident not in answered and waiting() >= PAGE - CHUNK:
                report.write(f"trickled {ident}\n")  # first: a forfeit ends us
                report.flush()
                time.sleep(think)
                send({"type": "act", "id": ident, "choice": list(range(least))})
                answered.add(ident)
        while b"\n" in buf:
            line, buf = buf.split(b"\n", 1)
            msg = json.loads(line)
            kind = msg["type"]
            if kind == "hello":
                send({"type": "ready"})
            elif kind == "decide" and msg["id"] not in answered:
                pick = msg["pick"]["min"]
                send({"type": "act", "id": msg["id"], "choice": list(range(pick))})
                report.write(f"whole {msg['id']}\n")
                report.flush()
            elif kind == "bye":
                return


main()
