/* `arena web DB|URL --listen ADDR`: the command line of the web front. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cliargs.h"
#include "web.h"

static void web_help(FILE *out)
{
    fputs("usage: arena web DB|URL [--listen HOST:PORT] [options]\n"
          "\n"
          "Serves a live web front over a results store: a tournament, SPRT or ladder\n"
          "database (an SQLite file or postgresql://...#NAME), read only, while the run\n"
          "that writes it goes on or after it ended. Pages, each with a JSON twin:\n"
          "  /            the leaderboard (ladder) or standings    /api/standings\n"
          "  /games       finished games, ?agent=NAME filters      /api/games\n"
          "  /entrant/N   versions, results per opponent, faults   /api/entrant/N\n"
          "  /settings    the stored settings                      /api/settings\n"
          "  /events      Server-Sent Events: new standings when the store changed\n"
          "  /games/ID/viewer  the replay viewer, once the game (and its seed group)\n"
          "               ended and its log is on this host's disk\n"
          "  /author/N    an entrant's private page: its stderr and log lines, faults\n"
          "               with clock evidence, its seat's view at each decision, a\n"
          "               seat-filtered log and the `arena replay` command; only with\n"
          "               its token (Authorization: Bearer; the page asks for it)\n"
          "               /api/author/N, /api/author/N/game/ID, /author/N/log/ID\n"
          "  /live        games in progress: served by a run itself (arena tournament,\n"
          "               sprt, ladder run --http), with each game's live board\n"
          "No seed is ever served. Plain HTTP: put it behind a reverse proxy for TLS.\n"
          "See docs/web.md.\n"
          "\n"
          "  --listen HOST:PORT      where to listen (default 127.0.0.1:8080; port 0:\n"
          "                          any free port, printed on the first line)\n"
          "  --max-spectators N      open /events streams at most (default 1000;\n"
          "                          more get 503)\n"
          "  --spectator-buffer B    bytes a stream may have unread before it is\n"
          "                          dropped (default 262144)\n"
          "  --poll-ms MS            how often the store is looked at (default 500)\n"
          "  --tokens FILE           the private pages' tokens: lines 'TOKEN NAME', NAME an\n"
          "                          agent (tournament, SPRT) or entrant (ladder); a token\n"
          "                          is 16 to 255 printable characters, no space (make it\n"
          "                          random: openssl rand -hex 16). A ladder's entrants\n"
          "                          also have those of `ladder add --token-file`. A wrong\n"
          "                          or missing token gets 403; 5 wrong ones from a\n"
          "                          network, 429 for a while (the right one still works)\n",
          out);
}

int cmd_web(int argc, char **argv)
{
    web_opts o = {.listen = "127.0.0.1:8080",
                  .max_spectators = 1000,
                  .spectator_buffer = 262144,
                  .poll_ms = 500};
    const char *db = NULL, *v;
    for (int i = 1; i < argc; i++) {
        int r;
        int64_t x;
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            web_help(stdout);
            return 0;
        } else if ((r = cli_value(argc, argv, &i, "--listen", &v)) != 0) {
            if (r < 0) return 2;
            o.listen = v;
        } else if ((r = cli_value(argc, argv, &i, "--max-spectators", &v)) != 0) {
            if (r < 0 || !cli_int(v, 1, 100000, &x))
                return cli_usage_error("web: --max-spectators takes 1..100000");
            o.max_spectators = (int)x;
        } else if ((r = cli_value(argc, argv, &i, "--spectator-buffer", &v)) != 0) {
            if (r < 0 || !cli_int(v, 1024, 64 << 20, &x))
                return cli_usage_error("web: --spectator-buffer takes 1024..67108864 bytes");
            o.spectator_buffer = (size_t)x;
        } else if ((r = cli_value(argc, argv, &i, "--tokens", &v)) != 0) {
            if (r < 0) return 2;
            o.tokens = v;
        } else if ((r = cli_value(argc, argv, &i, "--poll-ms", &v)) != 0) {
            if (r < 0 || !cli_int(v, 50, 60000, &x))
                return cli_usage_error("web: --poll-ms takes 50..60000");
            o.poll_ms = (int)x;
        } else if (argv[i][0] == '-' || db) {
            return cli_usage_error("web: unknown argument '%s' (see arena web --help)", argv[i]);
        } else {
            db = argv[i];
        }
    }
    if (!db) return cli_usage_error("web needs DB or URL (see arena web --help)");
    char err[512];
    store *s = store_open(db, false, err, sizeof err);
    if (!s) {
        fprintf(stderr, "arena: web: %s\n", err);
        return 1;
    }
    int rc = web_serve(s, &o);
    store_close(s);
    return rc;
}
