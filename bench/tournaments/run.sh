#!/usr/bin/env bash
# Tournament throughput (games/s) with built-in and spawned C agents at
# concurrency 1 and 2, and the overhead of the tournament layer (schedule,
# SQLite store, one transaction per game) over bare `arena play --games N`
# with the same agents, game and settings. Each case is run REPEATS times;
# the best wall time and the best CPU time (user + sys of the referee and its
# agents) are kept, CPU time being the steadier figure on a busy machine.
#   bench/tournaments/run.sh BUILD_DIR [REPEATS]
set -euo pipefail
B=${1:-build-bench}
REP=${2:-3}
ARENA=$B/arena
T=$B/bench/tournaments/bench-tournament
BOT=$B/agents/random-c/random-c
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
TIMEFORMAT='%R %U %S'

# Prints "best_wall best_cpu" over REP runs, in seconds.
best() {
  local bw="" bc="" out w u s c
  for _ in $(seq "$REP"); do
    rm -rf "$TMP"/db*
    out=$( { time "$@" >/dev/null 2>"$TMP/err" || { cat "$TMP/err" >&2; echo "failed: $*" >&2; exit 1; }; } 2>&1 )
    read -r w u s <<<"$out"
    c=$(awk -v u="$u" -v s="$s" 'BEGIN { printf "%.3f", u + s }')
    if [ -z "$bw" ] || awk -v a="$w" -v b="$bw" 'BEGIN { exit !(a < b) }'; then bw=$w; fi
    if [ -z "$bc" ] || awk -v a="$c" -v b="$bc" 'BEGIN { exit !(a < b) }'; then bc=$c; fi
  done
  echo "$bw $bc"
}

tourn() { # GAMES CONCURRENCY SPEC_A SPEC_B GAME SETTINGS...
  local n=$1 j=$2 a=$3 b=$4 g=$5
  shift 5
  best "$T" tournament --game "$g" --agent "a=$a" --agent "b=$b" --games-per-pairing "$n" \
    --concurrency "$j" --db "$TMP/db.sqlite" --logs none --quiet "$@"
}

play() { # GAMES SPEC_A SPEC_B GAME SETTINGS...
  local n=$1 a=$2 b=$3 g=$4
  shift 4
  best "$ARENA" play "$g" "$a" "$b" --games "$n" --seed 1 "$@"
}

printf "%-48s %6s %8s %9s %8s\n" "case" "games" "wall s" "games/s" "cpu s"
row() { # LABEL GAMES "WALL CPU"
  local w c
  read -r w c <<<"$3"
  awk -v l="$1" -v n="$2" -v w="$w" -v c="$c" \
    'BEGIN { printf "%-48s %6d %8.3f %9.1f %8.3f\n", l, n, w, n / w, c }'
}
overhead() { # LABEL GAMES "TOURNAMENT WALL CPU" "PLAY WALL CPU"
  local tw tc pw pc
  read -r tw tc <<<"$3"
  read -r pw pc <<<"$4"
  awk -v l="$1" -v n="$2" -v tw="$tw" -v tc="$tc" -v pw="$pw" -v pc="$pc" 'BEGIN {
    printf "  %-28s wall %+6.1f %% (%+6.0f us/game)   cpu %+6.1f %% (%+6.0f us/game)\n",
      l, (tw / pw - 1) * 100, (tw - pw) / n * 1e6, (tc / pc - 1) * 100, (tc - pc) / n * 1e6 }'
}

run_case() { # LABEL GAMES SPEC_A SPEC_B GAME SETTINGS...
  local label=$1 n=$2 a=$3 b=$4 g=$5 t1 t2 p
  shift 5
  t1=$(tourn "$n" 1 "$a" "$b" "$g" "$@")
  row "$label, tournament -j1" "$n" "$t1"
  t2=$(tourn "$n" 2 "$a" "$b" "$g" "$@")
  row "$label, tournament -j2" "$n" "$t2"
  p=$(play "$n" "$a" "$b" "$g" "$@")
  row "$label, arena play" "$n" "$p"
  OVER+=("$label|$n|$t1|$p")
}

OVER=()
run_case "nim builtin:random x2" 5000 builtin:random builtin:random nim --set stones=60
run_case "nim random-c x2 (spawned)" 1000 "$BOT" "$BOT" nim --set stones=60
run_case "dominion big-money vs bmu" 2000 builtin:big-money builtin:bmu dominion \
  --set kingdom=first-game

echo
echo "tournament layer over arena play --games N, concurrency 1:"
for o in "${OVER[@]}"; do
  IFS='|' read -r l n t p <<<"$o"
  overhead "$l" "$n" "$t" "$p"
done
