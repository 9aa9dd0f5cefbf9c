#!/usr/bin/env python3
"""embed.py IN OUT NAME: writes a C header defining `static const char
NAME[]` with the bytes of IN (NUL-terminated), so the viewer template ships
inside the arena binary."""
import sys

src, dst, name = sys.argv[1:4]
data = open(src, "rb").read()
with open(dst, "w") as f:
    f.write("/* Generated from %s by embed.py; do not edit. */\n" % src.split("/")[-1])
    f.write("static const char %s[] = {\n" % name)
    for i in range(0, len(data), 16):
        f.write("    " + ", ".join("0x%02x" % b for b in data[i:i + 16]) + ",\n")
    f.write("    0x00};\n")
