#!/usr/bin/python3
"""A bot whose every string tries to become markup on the web front: it
writes XSS payloads to stderr and exits before joining, so its validation
fails and the ladder stores that stderr as the version's validation output
(shown on its entrant page)."""
import sys

sys.stderr.write('<script>window.pwned="stderr-script"</script>\n'
                 '<img src=x onerror="window.pwned=\'stderr-img\'">\n'
                 '<a href="javascript:window.pwned=\'stderr-js\'">click</a>\n')
sys.exit(3)
