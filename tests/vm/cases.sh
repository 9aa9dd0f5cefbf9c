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
grep -q "cgroup2 /sys/fs/cgroup " /proc/mounts || { echo "FAIL: no cgroup v2 here"; exit 1; }
run referee-cgroup "$test_cgroup"
for c in agent_cgroups procs_cap cpu_helper stop_plain stop_sandbox escape_root; do
  run "sandbox_$c" /usr/bin/python3 "$here/../sandbox/run_sandbox.py" "$arena" "$hostile" "$random_c" "$c"
done
echo "$failed failed"
[ "$failed" -eq 0 ]
