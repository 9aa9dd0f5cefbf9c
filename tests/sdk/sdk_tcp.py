#!/usr/bin/python3
"""SDK TCP test. usage: sdk_tcp.py json|msgpack BOT_COMMAND...

1. --tcp: the fake referee listens, the bot connects with --tcp and --token;
   checks the token in join, plays two nim games, bye, clean exit.
2. --serve: the bot listens on a free port (printed on stderr), the fake
   referee dials it twice at once, each connection gets its own games.
"""

import os
import re
import signal
import socket
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fakeref  # noqa: E402
from fakeref import check  # noqa: E402


def dial_mode(codec, cmd):
    srv = socket.create_server(("127.0.0.1", 0))
    port = srv.getsockname()[1]
    proc = fakeref.spawn(cmd + ["--tcp", "127.0.0.1:%d" % port, "--token", "tok-123"])
    srv.settimeout(10)
    try:
        sock, _ = srv.accept()
    except socket.timeout:
        proc.kill()
        raise fakeref.Fail("bot never connected: " + proc.stderr.read().decode())
    ref = fakeref.socket_referee(sock)
    j = ref.join()
    check(j.get("token") == "tok-123", "join token %r" % j.get("token"))
    check(ref.codec == codec, "bot speaks %s over TCP, expected %s" % (ref.codec, codec))
    fakeref.play_nim(ref, games=2, seat=1)
    ref.bye()
    rc, err = fakeref.finish(proc)
    check(rc == 0, "tcp bot exited with %r: %s" % (rc, err))
    sock.close()
    srv.close()


def serve_mode(codec, cmd):
    proc = fakeref.spawn(cmd + ["--serve", "127.0.0.1:0"])
    try:
        ch = fakeref.Channel(proc.stderr.fileno(), None)
        m = None
        while m is None:  # skip anything printed before the serving line
            line = ch.read_line()
            check(line is not None, "bot printed no serving line")
            m = re.search(rb"serving on .*:(\d+)\s*$", line)
        port = int(m.group(1))
        socks = [socket.create_connection(("127.0.0.1", port), timeout=10) for _ in range(2)]
        refs = [fakeref.socket_referee(s) for s in socks]
        for r in refs:
            j = r.join()
            check("token" not in j, "a served bot sends no token")
            check(r.codec == codec, "served bot speaks %s, expected %s" % (r.codec, codec))
        for r in refs:  # both connections are open at once, each with its own bot
            fakeref.play_nim(r, games=1)
            r.bye()
        for s in socks:
            s.settimeout(10)
            check(s.recv(1) == b"", "served connection stays open after bye")
            s.close()
        check(proc.poll() is None, "the server exited after its connections")
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
        proc.wait()


def main():
    codec, cmd = sys.argv[1], sys.argv[2:]
    dial_mode(codec, cmd + ["--" + codec])
    serve_mode(codec, cmd + ["--" + codec])


if __name__ == "__main__":
    fakeref.main_wrapper(main)
