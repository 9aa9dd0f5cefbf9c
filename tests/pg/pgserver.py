"""A real, throw-away PostgreSQL server for the tests (no mocks).

initdb into a fresh temporary directory as an unprivileged user (`nobody`
when the tests run as root, the user itself otherwise), trust
authentication, superuser `arena`, database `arena`, listening only on a
unix socket in that directory; stopped and removed on exit, also when the
test fails or is terminated (meson's timeout sends SIGTERM, which Python
would otherwise die of without running any cleanup).

    with PgServer() as pg:
        url = pg.url("t1")   # postgresql://arena@/arena?host=DIR&port=N#t1
"""
import glob
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile


def _terminated(signum, frame):
    # An exception, so that every `finally` and `with` on the way out runs.
    raise SystemExit(f"terminated by signal {signum}")


def _bindir():
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"),
                   key=lambda p: int(p.split("/")[4]) if p.split("/")[4].isdigit() else 0)
    if not found:
        raise SystemExit("PostgreSQL server binaries not found (/usr/lib/postgresql/*/bin): "
                         "run scripts/setup --deps-only")
    return os.path.dirname(found[-1])


def _free_port():
    # The port only names the socket file; a free TCP port keeps it unique.
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class PgServer:
    def __init__(self):
        self.bin = _bindir()
        self.dir = None
        self.port = _free_port()
        self.prefix = []
        if os.geteuid() == 0:
            self.prefix = ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups",
                           "--reset-env", "--"]

    def _run(self, *args, check=True):
        return subprocess.run(self.prefix + [os.path.join(self.bin, args[0])] + list(args[1:]),
                              cwd=self.dir, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              text=True, check=check, timeout=120)

    def __enter__(self):
        self.old_term = signal.signal(signal.SIGTERM, _terminated)
        self.dir = tempfile.mkdtemp(prefix="arena-pg-")
        if self.prefix:
            nobody = pwd.getpwnam("nobody")
            os.chown(self.dir, nobody.pw_uid, nobody.pw_gid)
        self.data = os.path.join(self.dir, "data")
        try:
            self._run("initdb", "-D", self.data, "--auth=trust", "-U", "arena", "-E", "UTF8",
                      "--no-sync")
            self.start()
            self._run("createdb", "-h", self.dir, "-p", str(self.port), "-U", "arena", "arena")
        except BaseException as e:
            out = getattr(e, "output", "")
            self.__exit__(None, None, None)
            raise SystemExit(f"cannot start PostgreSQL: {e}\n{out}")
        return self

    def start(self):
        opts = (f"-c listen_addresses='' -c unix_socket_directories={self.dir} "
                f"-p {self.port} -c fsync=off -c max_connections=200")
        self._run("pg_ctl", "-D", self.data, "-l", os.path.join(self.dir, "log"), "-w",
                  "-t", "60", "-o", opts, "start")

    def stop(self, mode="fast"):
        self._run("pg_ctl", "-D", self.data, "-m", mode, "-w", "-t", "60", "stop", check=False)

    def url(self, name=None):
        u = f"postgresql://arena@/arena?host={self.dir}&port={self.port}"
        return u + (f"#{name}" if name else "")

    def psql(self, sql):
        r = subprocess.run([os.path.join(self.bin, "psql"), "-X", "-A", "-t", "-q",
                            "-h", self.dir, "-p", str(self.port), "-U", "arena", "-d", "arena",
                            "-c", sql], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           text=True, timeout=60)
        if r.returncode != 0:
            raise AssertionError(f"psql {sql!r}: {r.stderr}")
        return r.stdout.strip()

    def processes(self):
        """The postmaster and every process below it (its backends)."""
        with open(os.path.join(self.data, "postmaster.pid")) as f:
            root = int(f.readline())
        children = {}
        for d in os.listdir("/proc"):
            if not d.isdigit():
                continue
            try:
                with open(f"/proc/{d}/stat") as f:
                    stat = f.read()
            except OSError:
                continue
            ppid = int(stat[stat.rindex(")") + 2:].split()[1])
            children.setdefault(ppid, []).append(int(d))
        found, todo = [], [root]
        while todo:
            pid = todo.pop()
            found.append(pid)
            todo.extend(children.get(pid, []))
        return found

    def log(self):
        try:
            with open(os.path.join(self.dir, "log")) as f:
                return f.read()
        except OSError:
            return ""

    def _kill_strays(self):
        """Whatever still runs on the directory: initdb's bootstrap backend
        outlives an initdb killed mid-run, and would refill it."""
        for d in os.listdir("/proc"):
            if not d.isdigit():
                continue
            try:  # our tools run in the directory (cwd), the server names it
                with open(f"/proc/{d}/cmdline", "rb") as f:
                    named = self.dir.encode() in f.read()
                if named or os.readlink(f"/proc/{d}/cwd").startswith(self.dir):
                    os.kill(int(d), signal.SIGKILL)
            except OSError:
                pass

    def __exit__(self, *exc):
        if self.dir:
            if os.path.exists(os.path.join(self.data, "postmaster.pid")):
                self.stop("immediate")
            self._kill_strays()
            shutil.rmtree(self.dir, ignore_errors=True)
            self.dir = None
            signal.signal(signal.SIGTERM, self.old_term)
        return False
