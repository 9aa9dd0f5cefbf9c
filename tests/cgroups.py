"""What the tests may expect of agents' cgroups on this machine
(docs/protocol.md §7, referee/cgroup.h): arena makes them where cgroup v1's
memory hierarchy is mounted and it may write there (root)."""
import os


def v1_mounted(ctl):
    """Whether cgroup v1's hierarchy of controller ctl is mounted here."""
    with open("/proc/self/mountinfo") as f:
        for line in f:
            fs = line.split(" - ", 1)[1].split()
            if fs[0] == "cgroup" and ctl in fs[2].split(","):
                return True
    return False


def agent_groups(ctl="memory", euid=None):
    """Whether an arena run by euid (default: ours) gives each agent a group
    of controller ctl."""
    root = (os.geteuid() if euid is None else euid) == 0
    off = os.environ.get("ARENA_NO_CGROUPS")  # arena makes none (protocol.md §7)
    return root and not off and v1_mounted("memory") and v1_mounted(ctl)
