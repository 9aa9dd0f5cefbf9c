#!/bin/sh
# A bot that starves the others of CPU: N busy loops per core (4 unless
# given) in its own process group (so they die with it), then it plays as
# json_random.py. Usage: starver.sh [N]
n=$((${1:-4} * $(nproc)))
while [ "$n" -gt 0 ]; do
    (while :; do :; done) &
    n=$((n - 1))
done
exec /usr/bin/python3 "$(dirname "$0")/json_random.py"
