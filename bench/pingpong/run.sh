#!/bin/bash
# Compares the referee's decision rate with the bare pipe floor:
#   arena play nim cmd:random-c cmd:random-c (one long game: decisions/s)
#   bench-pingpong with nim-sized frames       (round trips/s), both with one
#   peer (two processes) and with two peers taking turns, as in the game
# Each arena decision is one decide/act round trip over a pipe, so the ratio
# (arena / ping-pong) is the share of the IPC floor the referee achieves
# (the arena side also includes the bots' decoding and encoding).
#
# usage: bench/pingpong/run.sh [BUILD_DIR] [STONES]
#   BUILD_DIR defaults to build; ARENA, RANDOM_C, PINGPONG override binaries.
#   STONES (default 100000) sizes the game: about STONES/2 decisions.
#   CODEC=json runs both sides in JSON instead of msgpack.
set -euo pipefail

build=${1:-build}
stones=${2:-100000}
codec=${CODEC:-msgpack}
arena=${ARENA:-$build/arena}
random_c=${RANDOM_C:-$build/agents/random-c/random-c}
pingpong=${PINGPONG:-$build/bench/pingpong/bench-pingpong}
for b in "$arena" "$random_c" "$pingpong"; do
    [[ -x $b ]] || { echo "run.sh: $b: not built" >&2; exit 1; }
done
flag=
[[ $codec == json ]] && flag=--json

t0=$(date +%s%N)
line=$("$arena" play nim "cmd:$random_c --seed 1 $flag" "cmd:$random_c --seed 2 $flag" \
    --set "stones=$stones" --seed 1 --json | grep '^{')
t1=$(date +%s%N)
pp1=$("$pingpong" --codec "$codec" --rounds 200000 --json)
pp2=$("$pingpong" --codec "$codec" --rounds 200000 --peers 2 --json)

/usr/bin/python3 - "$line" "$pp1" "$pp2" "$t0" "$t1" <<'PY'
import json, sys
game, pp1, pp2 = (json.loads(x) for x in sys.argv[1:4])
secs = (int(sys.argv[5]) - int(sys.argv[4])) / 1e9
if game["reason"] != "normal":
    sys.exit(f"run.sh: the arena game did not end normally: {game['reason']} {game['forfeits']}")
decisions = sum(game["decisions"])
arena_rate = decisions / secs
print(f"arena play nim ({pp1['codec']}): {decisions} decisions in {secs:.3f} s = "
      f"{arena_rate:.0f} decisions/s ({1e6 / arena_rate:.2f} us each)")
for pp in (pp1, pp2):
    rate = pp["round_trips_per_s"]
    print(f"pipe ping-pong, {pp['peers']} peer(s), {pp['decide_bytes']}+{pp['act_bytes']} byte "
          f"frames: {rate:.0f} round trips/s ({pp['us_per_round_trip']:.2f} us each); "
          f"ratio arena/ping-pong {arena_rate / rate:.3f}")
PY
