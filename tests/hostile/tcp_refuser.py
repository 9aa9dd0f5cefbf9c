#!/usr/bin/python3
"""A tcp: entrant that refuses a connection to void a game it is in.

For a `tcp:HOST:PORT` agent the referee connects to the entrant's own
server, so the entrant decides when a connection fails. Were a failed
connect to stop the whole tournament ("continue with: arena tournament
--resume"), the games in flight would be dropped unscored, to be played
again, from the start and on the same deal, by --resume: an entrant losing
a game could give itself a fresh try, as often as it liked.

The attacker here (a thread of this script) serves two connections, then
closes its listening socket. Its first connection plays one game and hangs
up, so the referee needs a new connection for its next game; its second
stalls 2 s at its first decision, as a losing bot would before it pulls the
plug, so that game is in flight when the connect is refused. Through the
real `arena tournament` (nim, the attacker against a built-in bot, 4 games,
2 at a time) every game must be scored: the one in flight played out, the
ones after the hang-up forfeited by the attacker as crashes, the refused
connection's with the reason in its log, and the run must end normally.

usage: tcp_refuser.py ARENA
"""
import json
import os
import shutil
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import matchlog  # noqa: E402  (tests/matchlog.py: gzip or plain logs)

ARENA = os.path.abspath(sys.argv[1])


def check(cond, what):
    if not cond:
        raise AssertionError(what)


CLOSED = threading.Event()  # the listener is closed


def play(conn, hang_up_after_game, stall_first):
    """A JSON-lines nim bot on one connection: always takes 1 stone."""
    f = conn.makefile("rwb")

    def send(msg):
        f.write((json.dumps(msg) + "\n").encode())
        f.flush()

    try:
        send({"type": "join", "name": "refuser"})
        for line in f:
            msg = json.loads(line)
            if msg["type"] == "hello":
                send({"type": "ready"})
            elif msg["type"] == "decide":
                if stall_first:
                    time.sleep(2)
                    stall_first = False
                send({"type": "act", "id": msg["id"], "choice": [0]})
            elif msg["type"] == "over" and hang_up_after_game:
                CLOSED.wait(10)  # so the next connect meets a closed port
                break
            elif msg["type"] == "bye":
                break
    except OSError:
        pass
    conn.close()


def serve(srv):
    threads = []
    for n in range(2):
        conn, _ = srv.accept()
        t = threading.Thread(target=play, args=(conn, n == 0, n == 1), daemon=True)
        t.start()
        threads.append(t)
    srv.close()  # every later connect is refused
    CLOSED.set()
    for t in threads:
        t.join()


def main():
    tmp = tempfile.mkdtemp(prefix="tcp-refuser-")
    try:
        srv = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        srv.bind(("127.0.0.1", 0))
        srv.listen(4)
        port = srv.getsockname()[1]
        threading.Thread(target=serve, args=(srv,), daemon=True).start()
        db, logs = os.path.join(tmp, "t.sqlite"), os.path.join(tmp, "logs")
        cmd = [ARENA, "tournament", "--game", "nim", "--set", "stones=9",
               "--agent", f"refuser=tcp:127.0.0.1:{port}", "--agent", "rnd=builtin:random",
               "--games-per-pairing", "4", "--concurrency", "2", "--move-ms", "10000",
               "--db", db, "--logs", logs, "--quiet"]
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
        print(f"$ {' '.join(cmd)}\nexit {r.returncode}\n{r.stdout}{r.stderr}")
        check(r.returncode >= 0 and "AddressSanitizer" not in r.stderr
              and "runtime error" not in r.stderr, "arena crashed or a sanitizer spoke")
        check(r.returncode == 0, f"a refused connection stopped the run (exit {r.returncode}): "
              "the games in flight go unscored, to be replayed on --resume")
        con = sqlite3.connect(db)
        games = con.execute("SELECT id, done, forfeits FROM games ORDER BY id").fetchall()
        con.close()
        print("games:", games)
        check(len(games) == 4 and all(done for _, done, _ in games),
              f"every game is scored: {games}")
        refused = [g for g, _, forfeits in games if "crash" in forfeits]
        played = [g for g, _, forfeits in games if not forfeits.strip(",")]
        check(len(played) >= 2, f"the attacker's two connections played their games: {games}")
        check(refused, f"a game that needed the refused connection is forfeited: {games}")
        # The hung-up connection may already hold the next game (a crash on
        # EOF); a game after it meets the refusal.
        why = [g for g in refused
               if "cannot connect" in matchlog.text(os.path.join(logs, f"game-{g:06d}.jsonl.gz"))]
        check(why, f"no forfeited game's log says the connect was refused: {refused}")
        print("ok")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


main()
