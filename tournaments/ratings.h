/* Presenting a rating fit: ordering, the text table and the JSON shape
 * shared by `arena elo` and `arena report`:
 * {"ratings": [{"agent", "elo", "error", "games", "score"}, ...], "los": {A: {B: p}}} */
#ifndef ARENA_RATINGS_H
#define ARENA_RATINGS_H

#include <stdint.h>
#include <stdio.h>

#include "elo.h"
#include "value.h"

/* order[0..n-1]: agent indices by rating, best first (ties by name). */
void ratings_order(const elo_fit *f, char *const *names, int *order);
/* games[i]: games agent i played (a multiplayer game counts once). */
av *ratings_json(const elo_fit *f, char *const *names, const int64_t *games);
av *ratings_los_json(const elo_fit *f, char *const *names);
void ratings_text(FILE *out, const elo_fit *f, char *const *names, const int64_t *games);
/* Rounds to the precision printed in reports (keeps JSON readable). */
double ratings_round(double x, int decimals);

#endif
