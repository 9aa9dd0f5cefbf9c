/* Links from the HTML report to the viewers of forfeited games. The log
 * path a DB stores is data, not a URL: it is never written as an href.
 * The link is made from the viewer file as it is found on disk, relative to
 * the directory the page is written to, so it resolves wherever `-o`
 * writes. */
#ifndef ARENA_REPORT_LINK_H
#define ARENA_REPORT_LINK_H

#include <stdint.h>

/* The real directory a page written to `outpath` (NULL: stdout, the
 * current directory) lies in; malloc'ed, NULL when it cannot be found. */
char *report_page_dir(const char *outpath);

/* The href, from page_dir, of the viewer of game `game` whose log the DB
 * `db` stores as `log`: LOG.html, found as `log` names it from the current
 * directory or, relative, from the DB's directory; it must be named
 * game-NNNNNN.jsonl[.gz].html for this game. Relative, percent-encoded
 * (no scheme, no leading '/'; '..' only as the steps up this function
 * computes); malloc'ed, NULL when there is no such file. */
char *report_viewer_link(const char *log, int64_t game, const char *db, const char *page_dir);

#endif
