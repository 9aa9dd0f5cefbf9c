#!/usr/bin/python3
"""A bot that plays every game through and writes, to stderr and as
protocol `log` lines, a marker of its own (--who NAME: "stderr-of-NAME",
"log-of-NAME") and XSS payloads: the private pages must show its author
those lines, as text, and show them to nobody else. It takes the first
options it may, so `arena replay LOG --seat N --agent` reproduces it."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.realpath(__file__)), "..", "..",
                                "sdk", "python"))

from arena_sdk import Bot, run  # noqa: E402

PAYLOADS = ['<script>window.pwned="stderr-script"</script>',
            '<img src=x onerror="window.pwned=\'stderr-img\'">',
            '<a href="javascript:window.pwned=\'stderr-js\'">click</a>']


class AuthorBot(Bot):
    name = "author-bot"

    def decide(self, view, options, pick):
        who = self.args_extra[self.args_extra.index("--who") + 1]
        sys.stderr.write("stderr-of-%s\n" % who)
        for p in PAYLOADS:
            sys.stderr.write(p + "\n")
        sys.stderr.flush()
        self.log("log-of-%s %s" % (who, PAYLOADS[1]))
        return list(range(min(max(pick.min, 1), pick.max, len(options))))


if __name__ == "__main__":
    sys.exit(run(AuthorBot))
