"""Wire codecs for the Arena protocol (version 1).

Two codecs exist. msgpack frames are a 4-byte big-endian length followed by
one msgpack map; JSON frames are one object per line. The agent speaks first,
so the codec this side picks is the codec of the whole connection.

The msgpack codec needs the ``msgpack`` module (Debian: python3-msgpack); the
JSON codec needs only the standard library.
"""

import json
import struct

try:  # optional dependency
    import msgpack as _msgpack
except ImportError:  # pragma: no cover - depends on the host
    _msgpack = None

MAX_FRAME = 1 << 20  # protocol default: one message is at most 1 MiB


class ProtocolError(Exception):
    """The peer sent something that is not a valid frame."""


def msgpack_available():
    """True when the msgpack codec can be used on this interpreter."""
    return _msgpack is not None


def _read_exact(stream, n):
    buf = b""
    while len(buf) < n:
        chunk = stream.read(n - len(buf))
        if not chunk:
            if buf:
                raise ProtocolError("connection closed in the middle of a frame")
            return None
        buf += chunk
    return buf


class JsonCodec:
    name = "json"

    def __init__(self, max_frame=MAX_FRAME):
        self.max_frame = max_frame

    def encode(self, msg):
        text = json.dumps(msg, separators=(",", ":"), ensure_ascii=False)
        return text.encode("utf-8") + b"\n"

    def read(self, stream):
        """Next message as a dict, or None at end of stream."""
        while True:
            line = stream.readline(self.max_frame + 2)
            if not line:
                return None
            if not line.endswith(b"\n") and len(line) > self.max_frame:
                raise ProtocolError("JSON frame longer than %d bytes" % self.max_frame)
            if line.strip():
                break
        try:
            msg = json.loads(line.decode("utf-8"))
        except (UnicodeDecodeError, ValueError) as e:
            raise ProtocolError("bad JSON frame: %s" % e)
        if not isinstance(msg, dict):
            raise ProtocolError("JSON frame is not an object")
        return msg


class MsgpackCodec:
    name = "msgpack"

    def __init__(self, max_frame=MAX_FRAME):
        if _msgpack is None:
            raise RuntimeError("the msgpack module is not installed (Debian: python3-msgpack)")
        self.max_frame = max_frame

    def encode(self, msg):
        body = _msgpack.packb(msg, use_bin_type=True)
        return struct.pack(">I", len(body)) + body

    def read(self, stream):
        head = _read_exact(stream, 4)
        if head is None:
            return None
        (n,) = struct.unpack(">I", head)
        if n > self.max_frame:
            raise ProtocolError("msgpack frame of %d bytes exceeds %d" % (n, self.max_frame))
        body = _read_exact(stream, n)
        if body is None:
            raise ProtocolError("connection closed in the middle of a frame")
        try:
            msg = _msgpack.unpackb(body, raw=False, strict_map_key=False)
        except Exception as e:  # msgpack raises several exception types
            raise ProtocolError("bad msgpack frame: %s" % e)
        if not isinstance(msg, dict):
            raise ProtocolError("msgpack frame is not a map")
        return msg


def make_codec(name=None):
    """'json', 'msgpack' or None (msgpack when installed, JSON otherwise)."""
    if name is None:
        name = "msgpack" if _msgpack is not None else "json"
    if name == "json":
        return JsonCodec()
    if name == "msgpack":
        return MsgpackCodec()
    raise ValueError("unknown codec %r (json or msgpack)" % name)


def detect_codec(first_byte):
    """Codec a peer picked with the first byte it sent (referee side helper)."""
    if first_byte == b"{"[0] or first_byte == b"{":
        return JsonCodec()
    if first_byte == 0 or first_byte == b"\x00":
        return MsgpackCodec()
    raise ProtocolError("first byte %r is neither '{' nor 0x00" % (first_byte,))
