"""What the host was doing when a test's bound on time failed.

A timing assertion must hold on a loaded machine; when one does not, the
load it saw says whether the machine or the code was at fault. Test drivers
call print_load() when a case fails (tests/timing.h is the same for C).
"""
import ctypes
import os
import subprocess
import sys

PATHS = ("/proc/loadavg", "/proc/pressure/cpu")


def load_report():
    """/proc/loadavg and, where the kernel has it, /proc/pressure/cpu."""
    parts = []
    for path in PATHS:
        try:
            with open(path) as f:
                text = f.read().strip()
        except OSError:
            continue
        parts.append(f"{path}: {' | '.join(text.splitlines())}")
    return "; ".join(parts) or "no load figures in /proc"


def run_delay_ms(pid):
    """The run-queue wait of process pid's main thread so far, in ms: the
    time it was ready to run while others held the CPU. Readable until the
    process is reaped (a zombie's too); 0 where the kernel does not say."""
    try:
        with open(f"/proc/{pid}/schedstat") as f:
            return int(f.read().split()[1]) / 1e6
    except (OSError, IndexError, ValueError):
        return 0.0


def print_load(file=None):
    print(f"host load: {load_report()}", file=file or sys.stdout, flush=True)


def spinners(n):
    """n processes that spin on a CPU, to load the host. Each dies with the
    test that started it (PR_SET_PDEATHSIG), so a test killed by its timeout
    or a stopped run leaves none behind to load the tests after it."""
    parent = os.getpid()
    libc = ctypes.CDLL(None, use_errno=True)

    def die_with_parent():
        libc.prctl(1, 9)  # PR_SET_PDEATHSIG, SIGKILL
        if os.getppid() != parent:  # the test died before the prctl
            os._exit(0)

    return [subprocess.Popen(["sh", "-c", "while :; do :; done"], preexec_fn=die_with_parent)
            for _ in range(n)]
