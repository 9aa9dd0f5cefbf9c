#!/bin/sh
# Builds the libFuzzer target for the frame decoder with clang + ASan/UBSan
# and fuzzes it for a while, starting from the committed seed corpus.
#
# usage: tests/fuzz/run-libfuzzer.sh [SECONDS [BUILD_DIR [TARGET]]]
#   SECONDS    fuzzing time, default 30
#   BUILD_DIR  clang build directory, default <repo>/build-fuzz
#   TARGET     fuzz-decoder (default), or fuzz-readers: the msgpack and JSON
#              readers against the decoders they replaced
# Without clang it says so and exits 0, unless FUZZ_REQUIRE=1 is set.
# New interesting inputs go to BUILD_DIR/fuzz-corpus (the committed corpus is
# not modified); crashing inputs to BUILD_DIR/fuzz-artifacts/.
set -eu

secs=${1:-30}
root=$(cd "$(dirname "$0")/../.." && pwd)
bdir=${2:-$root/build-fuzz}
target=${3:-fuzz-decoder}

if ! command -v clang >/dev/null 2>&1; then
    echo "run-libfuzzer: clang not found, fuzzing skipped" >&2
    [ "${FUZZ_REQUIRE:-0}" = 1 ] && exit 1
    exit 0
fi

if [ ! -f "$bdir/build.ninja" ]; then
    CC=clang meson setup "$bdir" "$root" -Dfuzz=enabled -Db_sanitize=address,undefined \
        -Db_lundef=false -Dtests=true
fi
# Only the fuzz target: the rest of the tree is not needed here.
ninja -C "$bdir" "tests/fuzz/$target"

mkdir -p "$bdir/fuzz-corpus" "$bdir/fuzz-artifacts"
cp "$root"/tests/fuzz/corpus/* "$bdir/fuzz-corpus/"

# UBSan only reports by default; make every finding fatal.
UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1} \
ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1} \
    "$bdir/tests/fuzz/$target" \
    -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -max_len=8192 \
    -print_final_stats=1 -artifact_prefix="$bdir/fuzz-artifacts/" \
    "$bdir/fuzz-corpus"
