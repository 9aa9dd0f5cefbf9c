/* A ladder's matchmaking: who plays the next table. Pure (no I/O), so the
 * policy is unit-tested and benchmarked on its own (bench/ladder).
 *
 * The policy, in the order it decides:
 * 1. Need. While any entrant's rating is provisional (a new version), the
 *    focal entrant is the provisional one with the fewest ranked games
 *    (counting those in flight): a new version plays at once and until its
 *    rating settles. Otherwise it is the one with the fewest games per
 *    table handed out since it became active, its fair share; a tie goes to
 *    the one idle longest. A version that joins late is not then owed the
 *    hundreds of games the others played before it came.
 * 2. Information. Each opponent is drawn at random with a weight that is
 *    highest for entrants near the focal one in rating, widened by both
 *    ratings' uncertainty: exp(-d^2 / 2(window^2 + se_f^2 + se_j^2)). An
 *    entrant with few games (a wide se) is a useful opponent for anyone.
 * 3. Variety. The weight is divided by (1 + games the two already played
 *    against each other)^variety, so no two entrants become fixed partners,
 *    and by how far the candidate is ahead of the focal entrant in fair
 *    share, so that opponents are drawn from those who need games too.
 * 4. Authors. With separate_authors, two versions of one author never sit
 *    at one table.
 * Fairness of seats is the caller's: it plays every table once in each
 * rotation of its seats (mm_rotation). */
#ifndef ARENA_MATCHMAKE_H
#define ARENA_MATCHMAKE_H

#include <stdbool.h>
#include <stdint.h>

#include "rng.h"

typedef struct mm_entrant {
    int id;           /* the caller's index (an agent) */
    int author;       /* -1: none; entrants of one author share a value >= 0 */
    int64_t games;    /* ranked games, finished and in flight */
    int64_t last;     /* when it last got a game (any increasing count), 0: never */
    double rating;    /* Elo */
    double se;        /* the rating's standard error, Elo (large when unknown) */
    bool provisional; /* its rating is not settled yet */
    int64_t since;    /* mm_params.tables when it became active */
} mm_entrant;

typedef struct mm_params {
    int players;           /* table size */
    double window;         /* Elo (default MM_WINDOW) */
    double variety;        /* exponent of the repeat penalty (default MM_VARIETY) */
    bool separate_authors; /* one author's versions never meet */
    int64_t tables;        /* tables handed out so far (the clock of `since`) */
} mm_params;

#define MM_WINDOW 200.0
#define MM_VARIETY 1.0

/* Games two entrants (by id) have played against each other. */
typedef int64_t (*mm_met_fn)(void *ctx, int a, int b);

/* Fills table[0..players) with indices into e[] (the focal entrant first).
 * False when no table can be formed (too few entrants, or authors forbid). */
bool mm_pick(const mm_entrant *e, int n, const mm_params *p, mm_met_fn met, void *ctx,
             arena_rng *rng, int *table);

/* Seat k of rotation r of a table of `players`: every entrant takes every
 * seat once over `players` rotations. */
static inline int mm_rotation(const int *table, int players, int r, int k)
{
    return table[(k + r) % players];
}

#endif
