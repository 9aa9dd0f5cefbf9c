#!/bin/sh
# Builds a libFuzzer target with clang + ASan/UBSan (all of the code it runs
# instrumented for coverage) and fuzzes it for a while, starting from the
# committed seed corpus.
#
# usage: tests/fuzz/run-libfuzzer.sh [SECONDS [BUILD_DIR [TARGET]]]
#   SECONDS    fuzzing time, default 30
#   BUILD_DIR  clang build directory, default <repo>/build-fuzz
#   TARGET     fuzz-decoder (default), or fuzz-readers: the msgpack and JSON
#              readers against the decoders they replaced; or a reader of
#              files Arena reads (seeds in tests/fuzz/corpus-NAME):
#              fuzz-matchlog, fuzz-cards, fuzz-spec, fuzz-store-row
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

# Coverage of the libraries the targets link too, not only of their own file.
if [ ! -f "$bdir/build.ninja" ]; then
    CC=clang meson setup "$bdir" "$root" -Dfuzz=enabled -Db_sanitize=address,undefined \
        -Db_lundef=false -Dtests=true -Dc_args=-fsanitize=fuzzer-no-link
elif ! grep -q 'fuzzer-no-link' "$bdir/meson-info/intro-buildoptions.json" 2>/dev/null; then
    meson configure "$bdir" -Dc_args=-fsanitize=fuzzer-no-link
fi
# Only the fuzz target: the rest of the tree is not needed here.
ninja -C "$bdir" "tests/fuzz/$target"

# The readers of files have seeds of their own and longer inputs (a match
# log's header alone is some KB).
seeds=$root/tests/fuzz/corpus-${target#fuzz-}
corpus=$bdir/fuzz-corpus-${target#fuzz-}
max_len=65536
if [ ! -d "$seeds" ]; then
    seeds=$root/tests/fuzz/corpus corpus=$bdir/fuzz-corpus max_len=8192
fi
mkdir -p "$corpus" "$bdir/fuzz-artifacts"
cp "$seeds"/* "$corpus/"

# UBSan only reports by default; make every finding fatal.
UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1} \
ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1} \
    "$bdir/tests/fuzz/$target" \
    -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -max_len="$max_len" \
    -print_final_stats=1 -artifact_prefix="$bdir/fuzz-artifacts/" \
    "$corpus"
