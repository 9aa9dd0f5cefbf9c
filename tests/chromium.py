"""Headless Chromium for the page tests (the tournament report, the replay
viewer): the command line that works on a closed network, and a check that
a screenshot is not blank. Fails -- never skips -- when chromium is missing."""
import os
import shutil
import struct
import zlib


def command(profile):
    """chromium's argv prefix with a fresh profile directory."""
    exe = shutil.which("chromium") or shutil.which("chromium-browser")
    if not exe:
        raise SystemExit("FAIL: chromium is not installed (apt-get install chromium)")
    return [exe, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
            "--no-first-run", "--disable-background-networking", "--disable-component-update",
            "--disable-sync", "--user-data-dir=" + profile]


def png_size(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        return None
    return struct.unpack(">II", data[16:24])


def png_not_blank(path):
    """True when the image has some variety (a blank page is one colour)."""
    if not os.path.exists(path) or png_size(path) is None:
        return False
    data, idat, pos = open(path, "rb").read(), b"", 8
    while pos < len(data):
        ln, typ = struct.unpack(">I4s", data[pos:pos + 8])
        if typ == b"IDAT":
            idat += data[pos + 8:pos + 8 + ln]
        pos += 12 + ln
    return len(set(zlib.decompress(idat)[:2000000])) >= 20
