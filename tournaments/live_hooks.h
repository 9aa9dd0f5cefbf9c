/* --http: the web front served from a running tournament, SPRT or ladder
 * run, on the driver's own event loop, with the boards of the games in
 * progress (docs/web.md). web/ sits above tournaments/, so the driver
 * reaches it only through this table, which the program that runs it
 * (cli/main.c) installs, the way it installs the built-in bots. */
#ifndef ARENA_LIVE_HOOKS_H
#define ARENA_LIVE_HOOKS_H

#include <stdint.h>
#include <stdio.h>

#include "match.h"
#include "store.h"

struct event_base;

typedef struct live_cfg {
    const char *listen; /* HOST:PORT; NULL: no web front */
    const char *db;     /* the store (file or URL), which the front reads on its own */
    /* Seconds behind play of the omniscient board of a game in progress;
     * < 0 (the default): none, the omniscient replay only once it ended. */
    double spectator_delay;
} live_cfg;

typedef struct live_hooks {
    /* Starts serving on base; NULL with err when it cannot listen. */
    void *(*start)(struct event_base *base, const live_cfg *c, char *err, size_t errlen);
    /* A game starts (its agents' names by seat): the context of its match's
     * watch. g's seed stays here: it is never served. */
    void *(*game_begin)(void *srv, const sched_game *g, const char *const *names);
    /* The game ended with result g; NULL: it was aborted (played again). */
    void (*game_end)(void *srv, void *game, const tgame *g);
    /* Closes every connection and frees the server, so the loop can end. */
    void (*stop)(void *srv);
    const match_watch *watch;
} live_hooks;

/* Installs the table (kept, not copied); before, --http is refused. */
void live_hooks_install(const live_hooks *h);
const live_hooks *live_hooks_installed(void); /* NULL: none */

/* The commands' --http and --spectator-delay: 1 when argv[*i] was one
 * (consumed), 0 when it is another argument, 2 after a usage error. */
int live_parse_arg(int argc, char **argv, int *i, live_cfg *c);
/* After parsing: 0; 2 after a usage error (a delay without --http, a bad
 * address); 1 when the address cannot be listened on (in use): checked
 * before the run creates its store, so that it leaves nothing behind. */
int live_cfg_check(const live_cfg *c);
/* Their lines of a --help, descriptions at column col (0-based). */
void live_help(FILE *out, int col);

#endif
