#!/usr/bin/python3
"""Hostile TCP peers for `arena serve`. Usage: nasty_client.py PORT MODE
  slowloris  sends a valid join one byte every 100 ms
  flood      sends JSON without a newline, 64 KiB at a time, for 5 s
  bigframe   sends a msgpack header announcing a 2 GiB frame, then waits
Prints how the referee ended the connection ("closed after N s") and exits."""
import socket
import struct
import sys
import time

port, mode = int(sys.argv[1]), sys.argv[2]
for _ in range(100):
    try:
        s = socket.create_connection(("127.0.0.1", port))
        break
    except OSError:
        time.sleep(0.05)
s.settimeout(0.1)
t0 = time.monotonic()


def closed():
    try:
        data = s.recv(65536)
        return data == b""
    except socket.timeout:
        return False
    except OSError:
        return True


try:
    if mode == "slowloris":
        for b in b'{"type":"join","name":"slow","token":"secret-a"}\n':
            s.send(bytes([b]))
            if closed():
                break
            time.sleep(0.1)
    elif mode == "flood":
        s.send(b'{"type":"join","name":"')
        chunk = b"x" * 65536
        while time.monotonic() - t0 < 5:
            s.send(chunk)
    elif mode == "bigframe":
        s.send(struct.pack(">I", 2 << 30) + b"\x81")
    while not closed() and time.monotonic() - t0 < 10:
        pass
except OSError:
    pass
print(f"closed after {time.monotonic() - t0:.1f} s", flush=True)
