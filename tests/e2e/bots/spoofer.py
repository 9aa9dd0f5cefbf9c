#!/usr/bin/python3
"""A JSON-lines nim bot whose text tries to drive the operator's terminal:
its join name, stderr and `log` lines carry escape sequences, carriage
returns, backspaces, DEL, C1 controls (U+009B is CSI), bidirectional
overrides and isolates, a line separator and, on stderr, bytes that are not
UTF-8. Its name also runs on for 200 characters. It takes option 99, which
is illegal: the fault, the stderr tail and the last `log` line are shown.

The joined name, were it printed raw, would wipe the line it stands on and
write a false standing in red."""
import json
import sys

FAKE = "\x1b[2K\r  seat 0  spoof  1st  score 9\x1b[8m"
TRICKS = "\x08\x7f\u009b31m\u202e\u2066\u200f\u2028"
NAME = "spoof" + FAKE + TRICKS + "x" * 200


def send(m):
    sys.stdout.write(json.dumps(m) + "\n")
    sys.stdout.flush()


sys.stderr.buffer.write(b"err\x1b]0;pwned\x07 \x9b31m \xff\r\x08" + TRICKS.encode() + b"\n")
sys.stderr.flush()
send({"type": "join", "name": NAME})
for line in sys.stdin:
    m = json.loads(line)
    if m["type"] == "hello":
        send({"type": "ready"})
    elif m["type"] == "decide":
        send({"type": "log", "text": "log" + FAKE + TRICKS})
        send({"type": "act", "id": m["id"], "choice": [99]})
    elif m["type"] == "bye":
        break
