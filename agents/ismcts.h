/* builtin:ismcts — information-set MCTS for any game (see ismcts.c). */
#ifndef ARENA_ISMCTS_H
#define ARENA_ISMCTS_H

#include "policy.h"

/* Iterations per decision when the argument gives none: per game for the
 * three games (with the game's own bot as rollout policy, see ismcts.c),
 * ISMCTS_DEFAULT_ITERS (random rollouts) for any other game. */
#define ISMCTS_DEFAULT_ITERS 1000
#define ISMCTS_DOMINION_ITERS 1000
#define ISMCTS_PACIFICA_ITERS 100
#define ISMCTS_XIBALBA_ITERS 50
/* Share of the match's move clock (percent) the search may use; the
 * iteration budget usually ends it well before. */
#define ISMCTS_CLOCK_SHARE_PCT 30
/* Rollout decisions before the scores rank the seats. */
#define ISMCTS_DEFAULT_DEPTH 2000

typedef struct ismcts_stats {
    long decisions;  /* searched decisions (forced ones are not searched) */
    long iterations; /* over all searched decisions */
} ismcts_stats;

/* Counters of a policy made by arena_policy_ismcts(_arg).create. */
ismcts_stats ismcts_get_stats(const void *self);

/* `ismcts` (default budget) and `ismcts:ITER[:MS]`. */
extern const arena_policy_vt arena_policy_ismcts;
extern const arena_policy_vt arena_policy_ismcts_arg;

#endif
