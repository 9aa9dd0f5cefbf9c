#!/usr/bin/env python3
"""embed.py IN OUT NAME [FILE...]: writes a C header defining `static const
char NAME[]` with the bytes of IN (NUL-terminated), so the viewer template
and the web front's files ship inside the arena binary. Each FILE given
replaces the mark @INLINE:BASENAME@ in IN: the viewer stays one page with
the boards' code (boards.js, boards.css) shared with the web front."""
import os
import sys

src, dst, name = sys.argv[1:4]
data = open(src, "rb").read()
for inc in sys.argv[4:]:
    mark = b"@INLINE:" + os.path.basename(inc).encode() + b"@"
    body = open(inc, "rb").read()
    if mark not in data:
        sys.exit("embed.py: no %s in %s" % (mark.decode(), src))
    if b"</script" in body.lower() or b"</style" in body.lower():
        sys.exit("embed.py: %s would close its element" % inc)
    data = data.replace(mark, body)
with open(dst, "w") as f:
    f.write("/* Generated from %s by embed.py; do not edit. */\n" % src.split("/")[-1])
    f.write("static const char %s[] = {\n" % name)
    for i in range(0, len(data), 16):
        f.write("    " + ", ".join("0x%02x" % b for b in data[i:i + 16]) + ",\n")
    f.write("    0x00};\n")
