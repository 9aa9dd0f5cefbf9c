"""Headless Chromium driven through its DevTools protocol over a pipe
(--remote-debugging-pipe: NUL-terminated JSON on fds 3 and 4), so the page
tests need no websocket library. Fails -- never skips -- without chromium."""
import atexit
import base64
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import chromium  # noqa: E402  (tests/chromium.py)


class Browser:
    def __init__(self):
        self.profile = tempfile.mkdtemp(prefix="arena-cdp-")
        to_r, to_w = os.pipe()      # commands: we write, chromium reads fd 3
        from_r, from_w = os.pipe()  # replies: chromium writes fd 4
        def child():
            os.dup2(to_r, 3)
            os.dup2(from_w, 4)
        self.proc = subprocess.Popen(
            chromium.command(self.profile) + ["--remote-debugging-pipe",
                                              "--window-size=1100,800", "about:blank"],
            pass_fds=(to_r, from_w, 3, 4), preexec_fn=child,
            stdout=subprocess.DEVNULL, stderr=open(self.profile + ".log", "w"))
        # The profile and chromium's log go however the test ends: the suite
        # fails a test that leaves files in $TMPDIR.
        atexit.register(self._remove_profile)
        os.close(to_r)
        os.close(from_w)
        self.w, self.r = to_w, from_r
        self.buf = b""
        self.next_id = 0
        self.events = []
        targets = self.call("Target.getTargets")["targetInfos"]
        page = [t for t in targets if t["type"] == "page"][0]
        self.session = self.call("Target.attachToTarget",
                                 {"targetId": page["targetId"], "flatten": True})["sessionId"]
        for m in ("Page.enable", "Runtime.enable"):
            self.call(m, session=True)

    def _read(self):
        while b"\0" not in self.buf:
            chunk = os.read(self.r, 65536)
            if not chunk:
                raise SystemExit("FAIL: chromium closed its DevTools pipe")
            self.buf += chunk
        msg, self.buf = self.buf.split(b"\0", 1)
        return json.loads(msg)

    def call(self, method, params=None, session=False):
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = self.session
        os.write(self.w, json.dumps(msg).encode() + b"\0")
        while True:
            m = self._read()
            if m.get("id") == self.next_id:
                if "error" in m:
                    raise SystemExit("FAIL: %s: %s" % (method, m["error"]))
                return m.get("result", {})
            if "method" in m:
                self.events.append(m)

    def navigate(self, url):
        self.call("Page.navigate", {"url": url}, session=True)

    def eval(self, expr):
        r = self.call("Runtime.evaluate", {"expression": expr, "returnByValue": True}, session=True)
        if "exceptionDetails" in r:
            return None
        return r["result"].get("value")

    def wait(self, expr, timeout, what):
        end = time.time() + timeout
        while time.time() < end:
            v = self.eval(expr)
            if v:
                return v
            time.sleep(0.1)
        with open("/proc/loadavg") as f:
            load = f.read().strip()
        raise SystemExit("FAIL: timed out after %s s waiting for %s (load %s)"
                         % (timeout, what, load))

    def screenshot(self, path):
        data = self.call("Page.captureScreenshot", {"format": "png"}, session=True)["data"]
        with open(path, "wb") as f:
            f.write(base64.b64decode(data))

    def _remove_profile(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        shutil.rmtree(self.profile, ignore_errors=True)
        try:
            os.unlink(self.profile + ".log")
        except FileNotFoundError:
            pass

    def close(self):
        try:
            self.call("Browser.close")
        except SystemExit:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
