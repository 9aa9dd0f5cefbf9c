#!/usr/bin/python3
"""scripts/setup shows the compiler's errors and exits non-zero when the build
fails. A scratch copy of the source tree gets a C file with a deliberate
error; the system packages are already installed, so setup runs no apt.
Usage: setup_errors.py SOURCE_ROOT BUILD_ROOT"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

root, build = os.path.realpath(sys.argv[1]), os.path.realpath(sys.argv[2])


def check(cond, what):
    if not cond:
        raise AssertionError(what)


def skip_dirs(d, names):
    full = [os.path.realpath(os.path.join(d, n)) for n in names]
    return [n for n, f in zip(names, full)
            if f == build or n in (".git", ".deps", ".logs", "node_modules")
            or (d == root and n.startswith("build"))]


with tempfile.TemporaryDirectory(prefix="arena-setup-") as tmp:
    tree = os.path.join(tmp, "arena")
    shutil.copytree(root, tree, ignore=skip_dirs, symlinks=True)
    # The pinned JS package is checked for by setup before it builds; a copy
    # (or its version marker) keeps it from going to the network.
    setup_text = open(os.path.join(root, "scripts", "setup")).read()
    version = re.search(r"^MSGPACK_JS=(\S+)", setup_text, re.M).group(1)
    pkg = os.path.join(tree, ".deps", "node", "node_modules", "@msgpack", "msgpack")
    src = os.path.join(root, ".deps", "node", "node_modules", "@msgpack", "msgpack")
    if os.path.isdir(src):
        shutil.copytree(src, pkg)
    else:
        os.makedirs(pkg)
        with open(os.path.join(pkg, "package.json"), "w") as f:
            f.write('{\n  "version": "%s"\n}\n' % version)

    # The first library the build compiles, so it fails within seconds.
    broken = os.path.join(tree, "protocol", "util.c")
    with open(broken, "a") as f:
        f.write("\nint arena_setup_test_broken(void) { return undeclared_on_purpose; }\n")

    p = subprocess.run([os.path.join(tree, "scripts", "setup")], cwd=tree,
                       capture_output=True, text=True, timeout=600)
    print("exit", p.returncode)
    print("stdout:", p.stdout[-1500:])
    print("stderr:", p.stderr[-3000:])
    check("installing" not in p.stdout, "setup tried to install packages")
    check(p.returncode != 0, "setup exits non-zero when the build fails")
    check("undeclared_on_purpose" in p.stderr and "error" in p.stderr
          and "util.c" in p.stderr, "the compiler's error (file, name) is on stderr")
    check("setup: the build failed" in p.stderr, "setup says the build failed")
    check("setup: built" not in p.stdout, "no success line after a failed build")
print("ok")
