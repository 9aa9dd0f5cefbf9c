#!/bin/sh
# Inside tests/vm's cgroup v2 machine: the tests of agents' cgroups and of
# what they contain, each as the suite runs it on the host.
# usage: cases.sh ARENA HOSTILE RANDOM_C TEST_CGROUP [CASE...]  (default: all)
arena=$1 hostile=$2 random_c=$3 test_cgroup=$4
shift 4
only=" $* "
here=$(dirname "$0")
failed=0
run() { # NAME COMMAND...
  name=$1
  shift
  [ "$only" = "  " ] || case "$only" in *" $name "*) ;; *) return ;; esac
  start=$(date +%s)
  if "$@" >/tmp/case.out 2>&1; then
    echo "ok   $name ($(($(date +%s) - start)) s)"
  else
    cat /tmp/case.out
    echo "FAIL $name"
    failed=$((failed + 1))
  fi
}
# systemd's layout: arena in a scope that holds other processes, so may not
# give its children controllers, below a slice that does. The agents'
# groups go below the slice.
in_a_scope() {
  slice=/sys/fs/cgroup/test.slice
  mkdir -p $slice/session.scope && echo "+memory +pids" >$slice/cgroup.subtree_control || return 1
  sleep 600 &
  echo $! >$slice/session.scope/cgroup.procs # the session's shell, say
  sh -c 'echo $$ >"$0"/session.scope/cgroup.procs && exec "$@"' $slice "$arena" play nim \
    "cmd:/bin/sh -c 'cat /proc/self/cgroup >&2; exec $random_c'" builtin:random --json \
    --limit-mem 64 >/tmp/scope.json
  rc=$?
  kill $!
  [ $rc = 0 ] || return 1
  cat /tmp/scope.json
  grep -q '"stderr_tail":\["0::/test.slice/arena-[0-9]*/1"' /tmp/scope.json &&
    [ -z "$(find $slice -name 'arena-*')" ]
}
# Where no group gives memory, none is made and an explicit cap is refused,
# with what to enable. (First: the root's controllers are in use later.)
no_memory_given() {
  echo "-cpu -memory -pids" >/sys/fs/cgroup/cgroup.subtree_control || return 1
  "$arena" play nim builtin:random builtin:random --limit-mem 64 2>/tmp/refused.err
  rc=$?
  echo "+cpu +memory +pids" >/sys/fs/cgroup/cgroup.subtree_control
  cat /tmp/refused.err
  [ $rc = 2 ] && grep -q "no group above ours (/sys/fs/cgroup) gives its children the memory" \
    /tmp/refused.err && grep -q "+memory +pids into /sys/fs/cgroup/cgroup.subtree_control" \
    /tmp/refused.err
}
# A group arena is alone in and may write, as a systemd unit with
# Delegate=yes and User=nobody has: an unprivileged arena makes its agents'
# groups inside it (the hog's children hold at most the cap, not 512 MiB),
# and leaves it as it found it.
delegated() {
  d=/sys/fs/cgroup/deleg.service w=$(mktemp -d) # (the tree may be in a 0700 directory)
  cp "$arena" "$here/../sandbox/escape.py" "$w" && chmod -R a+rX "$w" || return 1
  mkdir -p $d && chown nobody $d $d/cgroup.procs $d/cgroup.subtree_control $d/cgroup.threads ||
    return 1
  (cd "$w" && sh -c 'echo $$ >"$0"/cgroup.procs && exec setpriv --reuid=nobody --regid=nogroup \
    --clear-groups "$@"' $d ./arena play nim "cmd:/usr/bin/python3 escape.py hog spread" \
    builtin:random --limit-mem 256 --limit-as 0 --startup-ms 60000 --json) >/tmp/deleg.json
  rc=$?
  cat /tmp/deleg.json
  [ $rc = 0 ] || { echo "arena exited $rc"; return 1; }
  /usr/bin/python3 -c 'import json, sys
g = json.load(open("/tmp/deleg.json"))
held = int(g["bot_log_last"][0].split("=")[1])
sys.exit(f"the hog held {held} MiB, cap 256" if not 0 < held <= 256 else 0)' || return 1
  as_found $d || return 1
  # SIGKILLed mid-game: its watchdog kills the agents and undoes the rest.
  (cd "$w" && exec sh -c 'echo $$ >"$0"/cgroup.procs && exec setpriv --reuid=nobody \
    --regid=nogroup --clear-groups "$@"' $d ./arena play nim "cmd:/usr/bin/python3 escape.py victim" \
    builtin:random --games 100000 --startup-ms 60000) >/dev/null &
  pid=$!
  for _ in $(seq 300); do [ -d $d/arena-$pid/1 ] && break; sleep 0.1; done
  [ -d $d/arena-$pid/1 ] || { echo "no agent's group in $d"; kill -9 $pid; return 1; }
  kill -9 $pid
  as_found $d
}
# Whether delegated group $1 is as arena found it, once its watchdog ended
# (within 15 s: the VM is slow, more so under ASan).
as_found() {
  for _ in $(seq 150); do
    [ -z "$(ls "$1" | grep arena-)$(cat "$1"/cgroup.procs)$(cat "$1"/cgroup.subtree_control)" ] &&
      return 0
    sleep 0.1
  done
  echo "$1: left $(ls "$1" | grep arena-); holds $(cat "$1"/cgroup.procs);" \
    "gives $(cat "$1"/cgroup.subtree_control)"
  return 1
}
grep -q "cgroup2 /sys/fs/cgroup " /proc/mounts || { echo "FAIL: no cgroup v2 here"; exit 1; }
run no_memory_given no_memory_given
run referee-cgroup "$test_cgroup"
# This emulated machine runs several times slower than the host, more on
# a busy one: agents get longer to start (run_sandbox.py).
export ARENA_TEST_SLOW=4
for c in agent_cgroups procs_cap cpu_helper stop_plain stop_sandbox escape_root; do
  run "sandbox_$c" /usr/bin/python3 "$here/../sandbox/run_sandbox.py" "$arena" "$hostile" "$random_c" "$c"
done
run in_a_scope in_a_scope
run delegated delegated
echo "$failed failed"
[ "$failed" -eq 0 ]
