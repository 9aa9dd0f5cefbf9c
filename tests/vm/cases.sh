#!/bin/sh
# Inside tests/vm's cgroup v2 machine: the tests of agents' cgroups and of
# what they contain, each as the suite runs it on the host.
# usage: cases.sh ARENA HOSTILE RANDOM_C TEST_CGROUP
arena=$1 hostile=$2 random_c=$3 test_cgroup=$4
here=$(dirname "$0")
failed=0
run() { # NAME COMMAND...
  name=$1
  shift
  start=$(date +%s)
  if "$@" >/tmp/case.out 2>&1; then
    echo "ok   $name ($(($(date +%s) - start)) s)"
  else
    cat /tmp/case.out
    echo "FAIL $name"
    failed=$((failed + 1))
  fi
}
# systemd's layout: arena in a scope, which holds processes and so may not
# give its children controllers, below a slice that does. The agents'
# groups go below the slice.
in_a_scope() {
  slice=/sys/fs/cgroup/test.slice
  mkdir -p $slice/session.scope && echo "+memory +pids" >$slice/cgroup.subtree_control || return 1
  sh -c 'echo $$ >"$0"/session.scope/cgroup.procs && exec "$@"' $slice "$arena" play nim \
    "cmd:/bin/sh -c 'cat /proc/self/cgroup >&2; exec $random_c'" builtin:random --json \
    --limit-mem 64 >/tmp/scope.json || return 1
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
grep -q "cgroup2 /sys/fs/cgroup " /proc/mounts || { echo "FAIL: no cgroup v2 here"; exit 1; }
run no_memory_given no_memory_given
run referee-cgroup "$test_cgroup"
for c in agent_cgroups procs_cap cpu_helper stop_plain stop_sandbox escape_root; do
  run "sandbox_$c" /usr/bin/python3 "$here/../sandbox/run_sandbox.py" "$arena" "$hostile" "$random_c" "$c"
done
run in_a_scope in_a_scope
echo "$failed failed"
[ "$failed" -eq 0 ]
