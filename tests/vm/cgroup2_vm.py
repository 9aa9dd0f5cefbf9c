#!/usr/bin/python3
"""Runs a command on a host with cgroup v2 only, as a fresh Debian 12 is:
Debian's own kernel (linux-image-amd64), booted by qemu with this machine's
files as its root (read-only, over 9p), so that the command runs the same
arena and Python as the host does. The machines the suite runs on mount
cgroup v1; this is how the tests reach arena's cgroup v2 code.

usage: cgroup2_vm.py [--cwd DIR] [--timeout S] COMMAND [ARG...]

Exits with the command's status; stops the VM after S seconds (900) and
fails. Inside, cgroup2 is mounted at
/sys/fs/cgroup, and its root gives its children the cpu, memory and pids
controllers, as systemd does. /tmp, /run and /var/tmp are empty tmpfs;
nothing the command writes elsewhere survives or reaches the host.
"""
import gzip
import glob
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import threading

# In load order (modules.dep lists each one's dependencies).
MODULES = ["virtio_ring", "virtio", "virtio_pci_modern_dev", "virtio_pci_legacy_dev",
           "virtio_pci", "9pnet", "9pnet_virtio", "netfs", "fscache", "9p", "overlay"]
MARK = "cgroup2-vm-exit:"

INIT = r"""#!/bin/busybox sh
/bin/busybox --install -s /bin
mount -t proc proc /proc
mount -t devtmpfs dev /dev
for m in {modules}; do insmod /mod/$m.ko || echo "cgroup2-vm: insmod $m failed"; done
# The host's files, read-only, under a tmpfs that takes every write.
mkdir -p /lower /rw
mount -t 9p -o trans=virtio,version=9p2000.L,ro,msize=262144,cache=loose host /lower || poweroff -f
mount -t tmpfs -o mode=755 tmpfs /rw
mkdir -p /rw/upper /rw/work
mount -t overlay -o lowerdir=/lower,upperdir=/rw/upper,workdir=/rw/work overlay /host || poweroff -f
mount -t proc proc /host/proc
mount -t sysfs sys /host/sys
mount -t devtmpfs dev /host/dev
mkdir -p /host/dev/pts /host/dev/shm
mount -t devpts devpts /host/dev/pts
mount -t tmpfs -o mode=755 tmpfs /host/run
mount -t tmpfs -o mode=1777 tmpfs /host/dev/shm
mount -t cgroup2 cgroup2 /host/sys/fs/cgroup
echo "+cpu +memory +pids" > /host/sys/fs/cgroup/cgroup.subtree_control
ip link set lo up
cp /bin/busybox /host/run/busybox
cat > /host/run/vm-run.sh <<'END'
/usr/bin/env -i PATH=/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin HOME=/root LANG=C.UTF-8 \
  {env} /bin/sh -c {script} < /dev/console > /dev/console 2>&1
rc=$?
printf '\n{mark}%s\n' $rc > /dev/console
/run/busybox poweroff -f
END
# Not chroot: a chrooted process may not make user namespaces (bwrap).
exec switch_root /host /run/busybox sh /run/vm-run.sh
"""


def kernel():
    """The newest Debian kernel in /boot with its modules, or exits 77."""
    found = sorted(glob.glob("/boot/vmlinuz-*"), key=lambda p: os.path.getmtime(p))
    for image in reversed(found):
        version = image[len("/boot/vmlinuz-"):]
        if os.path.isdir(f"/lib/modules/{version}/kernel/fs/9p"):
            return image, version
    sys.exit("cgroup2_vm: no Debian kernel with 9p modules in /boot; run scripts/setup "
             "(it installs linux-image-amd64, qemu-system-x86 and busybox-static)")


def initramfs(dest, version, script):
    root = os.path.join(dest, "root")
    for d in ("bin", "mod", "proc", "dev", "host"):
        os.makedirs(os.path.join(root, d))
    shutil.copy("/bin/busybox", os.path.join(root, "bin", "busybox"))
    for m in MODULES:
        hits = glob.glob(f"/lib/modules/{version}/kernel/**/{m}.ko*", recursive=True)
        if not hits:
            sys.exit(f"cgroup2_vm: module {m} not found for {version}")
        data = open(hits[0], "rb").read()
        if hits[0].endswith(".xz") or hits[0].endswith(".zst"):
            sys.exit(f"cgroup2_vm: compressed module {hits[0]} is not handled")
        open(os.path.join(root, "mod", m + ".ko"), "wb").write(data)
    env = " ".join(shlex.quote(f"{k}={v}") for k, v in os.environ.items()
                   if k in ("CI", "ARENA_NO_CGROUPS") or k.startswith("ASAN_") or
                   k.startswith("UBSAN_"))
    init = INIT.format(modules=" ".join(MODULES), env=env, script=shlex.quote(script), mark=MARK)
    with open(os.path.join(root, "init"), "w") as f:
        f.write(init)
    os.chmod(os.path.join(root, "init"), 0o755)
    listing = subprocess.run(["find", "."], cwd=root, capture_output=True, check=True).stdout
    cpio = subprocess.run(["cpio", "-o", "-H", "newc", "--quiet"], cwd=root, input=listing,
                          capture_output=True, check=True).stdout
    path = os.path.join(dest, "initrd.gz")
    with gzip.open(path, "wb", compresslevel=1) as f:
        f.write(cpio)
    return path


def main():
    args = sys.argv[1:]
    cwd, timeout = os.getcwd(), 900
    while args[:1] in (["--cwd"], ["--timeout"]) and len(args) > 1:
        if args[0] == "--cwd":
            cwd = args[1]
        else:
            timeout = float(args[1])
        args = args[2:]
    if not args:
        sys.exit(__doc__)
    if not shutil.which("qemu-system-x86_64"):
        sys.exit("cgroup2_vm: qemu-system-x86_64 is missing; run scripts/setup")
    image, version = kernel()
    script = f"cd {shlex.quote(cwd)} && exec {shlex.join(args)}"
    with tempfile.TemporaryDirectory(prefix="cgroup2-vm-") as tmp:
        initrd = initramfs(tmp, version, script)
        # TCG: the machines here have /dev/kvm but no nested virtualization.
        cmd = ["qemu-system-x86_64", "-accel", "tcg,thread=multi", "-cpu", "max", "-smp", "2",
               "-m", "2048", "-nographic", "-no-reboot", "-nic", "none",
               "-kernel", image, "-initrd", initrd,
               "-append", "console=ttyS0 quiet loglevel=1 panic=-1",
               "-virtfs", "local,path=/,mount_tag=host,security_model=none,readonly=on,multidevs=remap"]
        p = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT)
        timer = threading.Timer(timeout, p.kill)
        timer.start()
        status = None
        for raw in p.stdout:
            line = raw.decode(errors="replace").replace("\r", "")
            if line.startswith(MARK):
                status = int(line[len(MARK):])
            sys.stdout.write(line)
            sys.stdout.flush()
        p.wait()
        timer.cancel()
    if status is None:
        how = f", killed after {timeout:g} s" if p.returncode == -9 else ""
        sys.exit(f"cgroup2_vm: the VM ended (qemu exit {p.returncode}{how}) without the "
                 "command's status")
    sys.exit(status)


if __name__ == "__main__":
    main()
