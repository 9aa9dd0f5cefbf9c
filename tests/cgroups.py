"""What the tests may expect of agents' cgroups on this machine
(docs/protocol.md §7, referee/cgroup.h): as root, arena makes them in
cgroup v1's hierarchies where its memory hierarchy is mounted, and in
cgroup v2 where only that is (tests/vm runs the tests so)."""
import os

V2_ROOT = "/sys/fs/cgroup"


def v1_mounted(ctl):
    """Whether cgroup v1's hierarchy of controller ctl is mounted here."""
    with open("/proc/self/mountinfo") as f:
        for line in f:
            fs = line.split(" - ", 1)[1].split()
            if fs[0] == "cgroup" and ctl in fs[2].split(","):
                return True
    return False


def v2_only():
    """Whether the host has cgroup v2 alone, mounted at /sys/fs/cgroup."""
    with open("/proc/self/mountinfo") as f:
        for line in f:
            fields = line.split(" - ", 1)
            if fields[0].split()[4] == V2_ROOT and fields[1].split()[0] == "cgroup2":
                return not v1_mounted("memory")
    return False


def v2_gives(ctl):
    """Whether v2's root gives its children controller ctl (the VM's init,
    or systemd, enables them); freezing and CPU time are every group's."""
    if ctl in ("freezer", "cpuacct"):
        return True
    with open(os.path.join(V2_ROOT, "cgroup.subtree_control")) as f:
        return ctl in f.read().split()


def agent_groups(ctl="memory", euid=None):
    """Whether an arena run by euid (default: ours) gives each agent a group
    of controller ctl (or, for freezer and cpuacct, what v1 does by them)."""
    root = (os.geteuid() if euid is None else euid) == 0
    if not root or os.environ.get("ARENA_NO_CGROUPS"):  # arena makes none (protocol.md §7)
        return False
    if v2_only():
        return v2_gives("memory") and v2_gives(ctl)
    return v1_mounted("memory") and v1_mounted(ctl)
