#!/bin/bash
# Compares the referee's cost per decision with two floors:
#   arena play nim cmd:random-c cmd:random-c (one long game)
#   the same-bots floor: bench-pingpong --bots random-c, a do-nothing referee
#     that sends the same two random-c bots a pre-encoded nim decide in turn
#     and reads their acts, as many times as the game had decisions
#   the ping-pong (reference): bench-pingpong with nim-sized frames and no
#     bots, with one peer and with two peers taking turns
# The goal is judged against the same-bots floor: the referee process's CPU
# per decision against the do-nothing referee's (referee ratio), and the
# CPU of every process of the run against the floor's (system ratio). Every
# run is pinned to one core (taskset), so all pay the same process
# switches; CPU (user + system) is the steadier figure on a shared machine.
# The arena's own CPU is read from /proc/PID/stat while it is a zombie
# (10 ms ticks: about 2 % of a 50,000-decision game).
#
# usage: bench/pingpong/run.sh [BUILD_DIR] [STONES]
#   BUILD_DIR defaults to build; ARENA, RANDOM_C, PINGPONG override binaries.
#   STONES (default 100000) sizes the game: about STONES/2 decisions.
#   CODEC=json runs both sides in JSON instead of msgpack.
#   CLOCK=wall|cpu|fair times the arena's game by that clock (default: the
#   arena's default, fair, which reads each bot's /proc twice a decision).
#   CPU=N pins to core N (default: the last one); CPU=none does not pin.
#   ROUNDS=R (default 3): the arena and the ping-pongs run in turn R times;
#   the last line gives the median ratio and the range of the rounds' own
#   (one run can land in a slow spell of a shared machine and not the next).
set -euo pipefail

build=${1:-build}
stones=${2:-100000}
codec=${CODEC:-msgpack}
cpu=${CPU:-$(($(nproc) - 1))}
arena=${ARENA:-$build/arena}
random_c=${RANDOM_C:-$build/agents/random-c/random-c}
pingpong=${PINGPONG:-$build/bench/pingpong/bench-pingpong}
for b in "$arena" "$random_c" "$pingpong"; do
    [[ -x $b ]] || { echo "run.sh: $b: not built" >&2; exit 1; }
done
pin=()
[[ $cpu == none ]] || pin=(taskset -c "$cpu")
flag=
[[ $codec == json ]] && flag=--json

/usr/bin/python3 - "$codec" "$cpu" "$stones" "$flag" "$arena" "$random_c" "$pingpong" \
    "${ROUNDS:-3}" "${CLOCK:-fair}" "${pin[@]}" <<'PY'
import json, os, resource, statistics, subprocess, sys, time
codec, cpu, stones, flag, arena, random_c, pingpong = sys.argv[1:8]
rounds = int(sys.argv[8])
clock = sys.argv[9]
pin = sys.argv[10:]

def run(cmd):
    """stdout, wall seconds, CPU seconds of cmd and everything it waited for"""
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    out = subprocess.run(pin + cmd, check=True, capture_output=True, text=True).stdout
    wall = time.monotonic() - t0
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    return out, wall, (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)

def run_own(cmd):
    """stdout, wall seconds, CPU seconds of cmd's own process, CPU seconds
    of it and everything it waited for"""
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    p = subprocess.Popen(pin + cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    out = p.stdout.read()
    os.waitid(os.P_PID, p.pid, os.WEXITED | os.WNOWAIT)  # a zombie: its stat stays
    wall = time.monotonic() - t0
    with open(f"/proc/{p.pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    own = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    if p.wait() != 0:
        sys.exit(f"run.sh: {cmd[0]} exited {p.returncode}")
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    return out, wall, own, (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)

bot = f"cmd:{random_c} --seed %d {flag}".rstrip()
where = "not pinned" if not pin else f"pinned to core {cpu}"
ratios = {1: [], 2: [], "referee": [], "system": []}  # arena / floor CPU, per round
for r in range(1, rounds + 1):
    out, secs, own_s, cpu_s = run_own([arena, "play", "nim", bot % 1, bot % 2, "--set",
                                       f"stones={stones}", "--seed", "1", "--json", "--clock", clock])
    game = json.loads(next(l for l in out.splitlines() if l.startswith("{")))
    if game["reason"] != "normal":
        sys.exit(f"run.sh: the arena game did not end normally: {game['reason']} {game['forfeits']}")
    decisions = sum(game["decisions"])
    us, cpu_us, own_us = secs * 1e6 / decisions, cpu_s * 1e6 / decisions, own_s * 1e6 / decisions
    print(f"round {r}: arena play nim ({codec}, {clock} clock, {where}): {decisions} decisions in {secs:.3f} s = "
          f"{decisions / secs:.0f} decisions/s ({us:.2f} us each, {cpu_us:.2f} us CPU, "
          f"{own_us:.2f} us of the referee)")
    fl = json.loads(run([pingpong, "--codec", codec, "--rounds", str(decisions), "--bots",
                         random_c, "--json"])[0])
    ratios["referee"].append(own_us / fl["referee_cpu_us_per_round_trip"])
    ratios["system"].append(cpu_us / fl["cpu_us_per_round_trip"])
    print(f"round {r}: same-bots floor ({decisions} decides to two random-c): "
          f"{fl['cpu_us_per_round_trip']:.2f} us CPU per decision, "
          f"{fl['referee_cpu_us_per_round_trip']:.2f} us of the do-nothing referee; "
          f"referee {ratios['referee'][-1]:.2f} x, system {ratios['system'][-1]:.2f} x")
    for peers in (1, 2):
        pp = json.loads(run([pingpong, "--codec", codec, "--rounds", "200000", "--peers",
                             str(peers), "--json"])[0])
        ratios[peers].append(cpu_us / pp['cpu_us_per_round_trip'])
        print(f"round {r}: pipe ping-pong, {peers} peer(s), {pp['decide_bytes']}+{pp['act_bytes']} "
              f"byte frames: {pp['round_trips_per_s']:.0f} round trips/s "
              f"({pp['us_per_round_trip']:.2f} us each, {pp['cpu_us_per_round_trip']:.2f} us CPU); "
              f"arena/ping-pong {us / pp['us_per_round_trip']:.2f} x wall, "
              f"{ratios[peers][-1]:.2f} x CPU")
for what, goal in (("referee", 1.2), ("system", 1.1)):
    v = ratios[what]
    print(f"arena/same-bots floor ({codec}, {clock} clock, {what} CPU): median {statistics.median(v):.2f} x "
          f"over {rounds} round(s), range {min(v):.2f}-{max(v):.2f} x (goal {goal} x)")
for peers in (2, 1):
    v = ratios[peers]
    print(f"arena/ping-pong ({codec}, {peers} peer(s)), CPU: median {statistics.median(v):.2f} x "
          f"over {rounds} round(s), range {min(v):.2f}-{max(v):.2f} x")
PY
