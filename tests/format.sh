#!/bin/sh
# Every tracked C file is formatted by the committed .clang-format.
cd "$(dirname "$0")/.." || exit 1
bad=0
for f in $(git ls-files '*.c' '*.h'); do
    if ! clang-format --dry-run -Werror "$f" >/dev/null 2>&1; then
        echo "not formatted: $f (run: clang-format -i $f)"
        bad=1
    fi
done
exit $bad
