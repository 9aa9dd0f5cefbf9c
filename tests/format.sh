#!/bin/sh
# Every tracked C file is formatted by the committed .clang-format. One
# clang-format process for all files: one per file took minutes on a loaded
# machine.
cd "$(dirname "$0")/.." || exit 1
out=$(git ls-files -z '*.c' '*.h' | xargs -0 clang-format --dry-run -Werror 2>&1) && exit 0
echo "$out" | grep -o '^[^:]*\.[ch]:[0-9]*:' | cut -d: -f1 | sort -u |
    sed 's/.*/not formatted: & (run: clang-format -i &)/'
exit 1
