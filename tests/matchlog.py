"""Match logs as the tests read them: gzip-compressed (the default) or plain
(--log-plain), and a log cut short by a killed referee reads up to the cut,
as `arena replay` reads it."""
import json
import zlib


def text(path):
    """The log's text: every complete line, each ending in a newline."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:2] == b"\x1f\x8b":
        # A decompressor object, unlike gzip.open, hands back what it could
        # decode when the stream stops early.
        data = zlib.decompressobj(wbits=31).decompress(data)
    s = data.decode()
    return s[:s.rfind("\n") + 1]


def lines(path):
    return text(path).splitlines()


def records(path):
    return [json.loads(line) for line in lines(path)]


def is_gzip(path):
    with open(path, "rb") as f:
        return f.read(2) == b"\x1f\x8b"
