#!/usr/bin/python3
"""SDK protocol test over pipes: plays two scripted nim games against a bot.

usage: sdk_protocol.py json|msgpack [--stderr-has TEXT] [--log-has TEXT] BOT_COMMAND...
Checks: the codec the bot picked, join, ready, every act (id echo, pick
bounds, distinct in-range indices), tolerance of event/unknown messages, and a
clean exit after bye.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fakeref  # noqa: E402
from fakeref import check  # noqa: E402


def main():
    codec, cmd = sys.argv[1], sys.argv[2:]
    want_err, want_log = [], []
    while cmd and cmd[0] in ("--stderr-has", "--log-has"):
        (want_err if cmd[0] == "--stderr-has" else want_log).append(cmd[1])
        cmd = cmd[2:]
    proc = fakeref.spawn(cmd)
    ref = fakeref.pipe_referee(proc)
    try:
        ref.join()
        check(ref.codec == codec, "bot speaks %s, expected %s" % (ref.codec, codec))
        fakeref.play_nim(ref, games=2)
        ref.bye()
    except fakeref.Fail:
        proc.kill()
        sys.stderr.write(proc.stderr.read().decode("utf-8", "replace"))
        raise
    rc, err = fakeref.finish(proc)
    check(rc == 0, "bot exited with %r; stderr:\n%s" % (rc, err))
    for w in want_err:
        check(w in err, "stderr lacks %r:\n%s" % (w, err))
    for w in want_log:
        check(any(w in t for t in ref.logs), "no log message holds %r (got %r)" % (w, ref.logs))


if __name__ == "__main__":
    fakeref.main_wrapper(main)
