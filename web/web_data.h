/* What the web front shows, read from a results store (a tournament, SPRT
 * or ladder) into one snapshot. The server polls a cheap stamp of the
 * store and builds a new snapshot only when it changed, so a request never
 * waits on the store and many spectators cost one read. Nothing here
 * carries a seed: the snapshot never reads the master seed, and the games
 * keep theirs only to be dropped (web_data.c). */
#ifndef ARENA_WEB_DATA_H
#define ARENA_WEB_DATA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ladder.h"
#include "ranked.h"
#include "store.h"

typedef struct web_snap {
    char *kind, *game; /* kind: tournament | sprt | ladder */
    uint64_t stamp;
    int64_t scheduled, finished;
    int n;                 /* agents of the store */
    char **names, **specs; /* by agent index */
    bool ladder;
    ladder_roster roster; /* ladder only */
    tgame *games;         /* schedule order; seeds zeroed */
    size_t n_games;
    bool *viewable; /* per game: its whole group (one seed) ended */
    store_forfeit *ff;
    size_t n_ff;
    char *logs;         /* the stored logs directory, "" none */
    ranked_game *rated; /* the games the ratings count, store order */
    int64_t *rated_id;  /* their ids */
    size_t n_rated;
    double *rating, *ci95;   /* by agent: the leaderboard's fit of `rated` */
    int64_t *rated_games;    /* by agent: its games among them */
    struct web_cache *cache; /* /api/entrant bodies made from this snapshot */
    char *standings_json;    /* the body of /api/standings */
    char *settings_json;     /* the body of /api/settings */
} web_snap;

/* A number that changes when the store does: games scheduled and finished,
 * agents, and (ladder) every entrant's state. 0 with err on a store error. */
uint64_t web_stamp(store *s, char *err, size_t errlen);
/* A fresh snapshot; NULL with err. */
web_snap *web_snap_load(store *s, char *err, size_t errlen);
void web_snap_free(web_snap *w);

/* The JSON bodies of /api/games (agent: an agent or entrant name, or
 * NULL; limit: games at most, newest first) and /api/entrant/NAME (NULL
 * when no agent or entrant has that name). malloc'ed. An entrant's body
 * refits the ratings for its history (up to RATING_HISTORY_MAX fits over
 * the games): it is made once per snapshot and kept (WEB_CACHE_N names). */
#define WEB_CACHE_N 32
char *web_games_json(const web_snap *w, const char *agent, int64_t limit);
char *web_entrant_json(const web_snap *w, const char *name);
/* Appends to list the forfeits of the agents marked in mine (by agent
 * index): {game, agent, cause, message} each. */
void web_faults_add(const web_snap *w, const bool *mine, av *list);
/* A finished game's log path (malloc'ed) when its viewer may be served:
 * its log is on disk and every game of its group (one seed under duplicate
 * pairing) has ended. NULL otherwise. */
char *web_viewer_log(const web_snap *w, int64_t game);
/* The same for w->games[i]; the file is looked at when asked, as the run
 * may write it after the snapshot. */
char *web_game_log(const web_snap *w, size_t i);

#endif
