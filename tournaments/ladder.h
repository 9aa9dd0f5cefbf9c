/* A ladder's entrants, kept in the results store beside its games, so that
 * `arena ladder add|retire|status` act on it from another process while
 * `arena ladder run` plays.
 *
 * Every version of an entrant is an agent of the store, named NAME/vN, with
 * a record in the meta key "entrant:NAME/vN" (JSON: name, version, author,
 * state, reason, stderr, added). Which version plays is derived, never
 * written twice: a version is retired once a newer version of its name
 * exists, or once "retired:NAME" (written by `ladder retire`) reaches its
 * number. So a running ladder that writes a version's state (validated,
 * disabled) can never bring a retired one back. */
#ifndef ARENA_LADDER_H
#define ARENA_LADDER_H

#include <stdbool.h>
#include <stddef.h>

#include "ranked.h"
#include "store.h"
#include "value.h"

typedef enum { LADDER_VALIDATING, LADDER_ACTIVE, LADDER_DISABLED, LADDER_RETIRED } ladder_state;

const char *ladder_state_name(ladder_state s); /* "validating", ... */

typedef struct ladder_entrant {
    int agent; /* the store's agent index */
    char *name;
    int version;
    char *author; /* "" when none */
    char *spec;
    ladder_state state;
    char *reason; /* why it is disabled or retired, "" otherwise */
    char *err;    /* the stderr lines and fault of a failed validation */
    char *added;  /* ISO UTC */
} ladder_entrant;

typedef struct ladder_roster {
    ladder_entrant *e; /* by agent index: e[i].agent == i */
    int n;
} ladder_roster;

/* The longest entrant name; names are letters, digits, '-', '_' and '.'. */
#define LADDER_NAME_MAX 40

/* The whole roster, states derived. -1 with err on a store error or a
 * record that does not parse (a corrupt file is refused, not guessed). */
int ladder_load(store *s, ladder_roster *r, char *err, size_t errlen);
void ladder_roster_free(ladder_roster *r);

/* Adds a version of NAME (version 1, or one above its latest). token: the
 * record (token.h) of the name's token for its private pages, written in
 * the same transaction, replacing the name's earlier one; NULL keeps it.
 * -1 with err on a bad name or a store error. */
int ladder_add(store *s, const char *name, const char *spec, const char *author, const char *token,
               int *version, char *err, size_t errlen);
/* The meta key of NAME's token record ("token:NAME"): one per name, for
 * all its versions. Read only by key, never listed: no report, status or
 * page shows it. */
#define LADDER_TOKEN_KEY "token:"
/* Retires NAME's current version. -1 with err when NAME has none. */
int ladder_retire(store *s, const char *name, char *err, size_t errlen);
/* A version's line on the leaderboard, from its finished ranked games. */
typedef struct ladder_line {
    int64_t games, wins, losses, draws; /* W/L/D pairwise: per opponent at the table */
    int64_t faults;                     /* games it forfeited (timeout, crash, ...) */
    int64_t last_game;                  /* id of its last finished game, 0: none */
    double rating, ci95;                /* Elo (mean 0) and its 95 % half-width */
} ladder_line;

/* The rating fit every leaderboard uses: the whole history, as `arena
 * report` fits it (pairwise Bradley-Terry, or Plackett-Luce for 3+
 * players), with LADDER_PRIOR virtual draws per pair that met. elo and ci95
 * get n entries; an agent without games gets 0 and LADDER_CI_UNKNOWN. */
#define LADDER_PRIOR 2.0
#define LADDER_CI_UNKNOWN 1000.0
void ladder_fit(const ranked_game *g, size_t n_games, int n, double *elo, double *ci95);

/* A rating is provisional while its 95 % interval is wider than this. */
#define LADDER_SETTLED_CI 100.0

/* Whether game x is one of the ranked games the leaderboard of agents
 * 0..n-1 counts (finished, ids in [from, to), to 0: no end), and if so
 * its result in out. */
bool ladder_ranked(const tgame *x, int n, int64_t from, int64_t to, ranked_game *out);

/* The leaderboard lines of agents 0..n-1 over the finished games with ids
 * in [from, to) (to 0: no end), and their count. -1 with err on a store
 * error. */
int ladder_standings(store *s, int n, int64_t from, int64_t to, ladder_line *out, int64_t *games,
                     char *err, size_t errlen);
/* The same from games g[0..ng-1] already read (store order). */
void ladder_lines(const tgame *g, size_t ng, int n, int64_t from, int64_t to, ladder_line *out,
                  int64_t *games);

/* A version's leaderboard line as a JSON-ready map: name, version, author,
 * state, games, rating and ci95 (nil before its first game, 0.1 Elo),
 * provisional, wins, losses, draws, faults, last_game (nil: none), reason. */
av *ladder_line_json(const ladder_entrant *e, const ladder_line *l);

/* Writes a version's new state (LADDER_ACTIVE or LADDER_DISABLED), why,
 * and for a failed validation what the bot wrote. */
int ladder_set_state(store *s, const ladder_entrant *e, ladder_state st, const char *reason,
                     const char *err_text);

#endif
