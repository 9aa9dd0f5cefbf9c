/* Ranked game results (one game = agents with ranks, 1 = best, equal ranks
 * tie) and their conversion into pairwise results, plus the plain results
 * file read by `arena elo`. */
#ifndef ARENA_RANKED_H
#define ARENA_RANKED_H

#include <stddef.h>

#include "elo.h"

#define RANKED_MAX 8

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

/* Parses the plain results format: one game per line, names from best to
 * worst separated by spaces, "=" between two names sharing a rank; blank
 * lines and lines starting with '#' are ignored. Returns 0, or -1 with a
 * message naming the line in err. */
int ranked_parse(ranked_set *s, const char *text, char *err, size_t errlen);

#endif
