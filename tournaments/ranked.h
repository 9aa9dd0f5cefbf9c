/* Ranked game results (one game = agents with ranks, 1 = best, equal ranks
 * tie) and their conversion into pairwise results, plus the plain results
 * file read by `arena elo`. */
#ifndef ARENA_RANKED_H
#define ARENA_RANKED_H

#include <stddef.h>

#include "elo.h"

#define RANKED_MAX 8
_Static_assert(RANKED_MAX <= ELO_SET_MAX, "a whole table must fit in one likelihood term");

typedef struct ranked_game {
    int k;
    int agent[RANKED_MAX];
    int rank[RANKED_MAX];
} ranked_game;

typedef struct ranked_set {
    char **names;
    int n_names;
    ranked_game *games;
    size_t n_games, cap;
} ranked_set;

/* Index of name, added if new. */
int ranked_agent(ranked_set *s, const char *name);
void ranked_push(ranked_set *s, const ranked_game *g);
void ranked_free(ranked_set *s);

/* Every two agents at the table give one pairwise result: a better rank
 * wins, equal ranks draw. (Pairs from one game are not independent.) */
void ranked_to_pairwise(const ranked_game *g, elo_data *d);

/* How games become ratings: pairwise splits every game into a result per
 * two players (one game counts up to six times at a 4-player table, so
 * its error bars are too narrow); plackett-luce fits finishing orders. */
typedef enum { RATING_PAIRWISE, RATING_PLACKETT_LUCE } rating_model;
const char *rating_model_name(rating_model m); /* "pairwise", "plackett-luce" */
/* Returns 0 and sets *m, or -1 for an unknown name. */
int rating_model_parse(const char *name, rating_model *m);
/* plackett-luce when any game has 3 or more players, else pairwise (the
 * two agree on 2-player games). */
rating_model rating_model_default(const ranked_game *g, size_t n);

/* Fits n_games games between n_agents agents under model m (prior and anchor
 * as for elo_fit_compute). pw: the pairwise tallies of the same games,
 * filled with ranked_to_pairwise by the caller. */
void ranked_fit(rating_model m, const ranked_game *g, size_t n_games, const elo_data *pw,
                double prior, int anchor, elo_fit *f);

/* Parses the plain results format: one game per line, names from best to
 * worst separated by spaces, "=" between two names sharing a rank; blank
 * lines and lines starting with '#' are ignored. Returns 0, or -1 with a
 * message naming the line in err. */
int ranked_parse(ranked_set *s, const char *text, char *err, size_t errlen);

#endif
