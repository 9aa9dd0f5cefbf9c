#!/bin/sh
# record.sh FILE BOT [ARGS...]: runs BOT with every byte the referee sends it
# also written to FILE.
f=$1
shift
tee "$f" | "$@"
