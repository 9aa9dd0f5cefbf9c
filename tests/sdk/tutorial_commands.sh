#!/usr/bin/env bash
# Runs the commands of docs/writing-a-bot.md as written, in order, in one
# shell, and checks their output.
#
# usage: tutorial_commands.sh BUILD_ROOT SOURCE_ROOT
#
# Every ```sh block of the page runs; ```shell blocks are shown to readers but
# not run (the page says why next to each). A code block right after a
# `<!-- file: NAME -->` line is written to NAME first. The commands run in a
# scratch directory laid out like a built checkout (sdk/ and the built
# binaries under build/), so nothing is written into the source tree. The
# only change made to the commands: the fixed TCP port of the --serve example
# is replaced by a free one, so that parallel test runs cannot collide.
set -euo pipefail

build=$(realpath "$1")
root=$(realpath "$2")
doc="$root/docs/writing-a-bot.md"
[ -x "$build/arena" ] || { echo "FAIL: no $build/arena"; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
ln -s "$root/sdk" "$work/sdk"
ln -s "$build" "$work/build"

port=$(/usr/bin/python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')

/usr/bin/python3 - "$doc" "$work" "$port" <<'PY'
import os, re, sys
doc, work, port = sys.argv[1], sys.argv[2], sys.argv[3]
lines = open(doc, encoding="utf-8").read().split("\n")
script = ["trap 'kill $(jobs -p) 2>/dev/null || true' EXIT"]
files = blocks = 0
prev = ""
i = 0
while i < len(lines):
    m = re.match(r"^```(\S*)\s*$", lines[i])
    if not m:
        if lines[i].strip():
            prev = lines[i].strip()
        i += 1
        continue
    lang = m.group(1)
    j = i + 1
    while j < len(lines) and not lines[j].startswith("```"):
        j += 1
    body = "\n".join(lines[i + 1:j]) + "\n"
    fm = re.match(r"^<!--\s*file:\s*(\S+)\s*-->$", prev)
    if fm:
        with open(os.path.join(work, fm.group(1)), "w", encoding="utf-8") as f:
            f.write(body)
        files += 1
    elif lang == "sh":
        script.append("echo '+++ block %d'" % (blocks + 1))
        script.append(body.replace("7401", port))
        blocks += 1
    prev = ""
    i = j + 1
if blocks < 10 or files < 2:
    sys.exit("tutorial extraction found only %d sh blocks and %d files" % (blocks, files))
with open(os.path.join(work, "tutorial.sh"), "w") as f:
    f.write("\n".join(script))
print("extracted %d command blocks and %d files" % (blocks, files))
PY

cd "$work"
[ -n "${TUTORIAL_KEEP:-}" ] && trap - EXIT && echo "scratch: $work"
status=0
bash -euo pipefail tutorial.sh >out.txt 2>&1 || status=$?
if [ "$status" -ne 0 ]; then
    echo "FAIL: the tutorial's commands exited with $status; output:"
    cat out.txt
    exit 1
fi

fail() { echo "FAIL: $1"; echo "--- output:"; cat out.txt; exit 1; }
grep -q '{"type":"act","id":1,"choice":\[0\]}' out.txt || fail "the hand-fed bot did not answer as the page says"
grep -q '{"type":"join","name":"my-nim-bot"}' out.txt || fail "the hand-fed bot did not join"
grep -q 'replay OK' out.txt || fail "arena replay did not reproduce the logged game"
grep -q 'stones left, taking' out.txt || fail "the bot's log lines are not in the match log"
grep -q '^refused: exit 1$' out.txt || fail "the tutorial's bot (a bare run(...)) did not exit 1 on a refused token"
grep -q 'NimBot' out.txt || fail "the JS bot did not play"
grep -q 'random-c' out.txt || fail "the C bot did not play"
if grep -qE 'FORFEIT|(forfeit|aborted), [0-9]+ turns|"reason":"(forfeit|aborted)"' out.txt; then
    fail "a game ended abnormally"
fi
normal=$(grep -c 'normal' out.txt || true)
[ "$normal" -ge 26 ] || fail "expected at least 26 normal game endings, saw $normal"
wins=$(grep -cE 'my-nim-bot +1st' out.txt || true)
[ "$wins" -ge 10 ] || fail "the perfect nim bot won only $wins games"
echo "ok: tutorial commands ran ($normal normal endings, my-nim-bot won $wins games)"
