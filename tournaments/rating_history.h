/* An entrant's rating over time, from its games: the rating after some of
 * its games, each the leaderboard's own fit (a callback: ladder_fit, or the
 * report's) over every rated game up to that one. A fit is refitted from
 * scratch for each point, so points are bounded (RATING_HISTORY_MAX): an
 * entrant with more games gets evenly spaced ones, its last game always
 * among them. The last point is the fit over every rated game, the
 * leaderboard's rating itself. */
#ifndef ARENA_RATING_HISTORY_H
#define ARENA_RATING_HISTORY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ranked.h"

#define RATING_HISTORY_MAX 200

/* Ratings (Elo) and 95 % half-widths of agents 0..n-1 over n_games games. */
typedef void rating_fit_fn(void *ctx, const ranked_game *g, size_t n_games, int n, double *elo,
                           double *ci95);

typedef struct rating_point {
    int64_t games;   /* the entrant's rated games up to this point */
    int64_t game;    /* the store id of the entrant's game it follows */
    int64_t through; /* the id of the last game fitted (game, or for the last point the last
                        rated game of the store) */
    int agent;       /* the entrant's agent (ladder version) in that game */
    double rating, ci95;
} rating_point;

/* g[0..n_games-1]: the rated games in store order, ids[] their store ids;
 * mine[0..n-1]: the entrant's agents. Writes up to max points (oldest
 * first) to out and returns their count; *entrant_games gets the
 * entrant's rated games. */
size_t rating_history(const ranked_game *g, const int64_t *ids, size_t n_games, int n,
                      const bool *mine, rating_fit_fn *fit, void *ctx, size_t max,
                      rating_point *out, int64_t *entrant_games);

#endif
