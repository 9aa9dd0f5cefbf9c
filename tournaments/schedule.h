/* Tournament schedules. Games come in groups that share one seed with the
 * seats rotated (2 players: a seat-swapped pair), so the luck of the deal
 * cancels within a group. Deterministic from the seed. */
#ifndef ARENA_SCHEDULE_H
#define ARENA_SCHEDULE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ranked.h"

typedef enum { FORMAT_ROUND_ROBIN, FORMAT_GAUNTLET } tourn_format;

typedef struct sched_game {
    int64_t id;    /* 1-based position in the schedule */
    int64_t group; /* 1-based; games of a group share the seed */
    uint64_t seed;
    int players;
    int seat[RANKED_MAX]; /* agent index per seat */
} sched_game;

typedef struct schedule {
    sched_game *games;
    size_t n;
    bool sampled; /* the full schedule exceeded max_games */
} schedule;

typedef struct schedule_params {
    int n_agents;
    int players;         /* table size */
    tourn_format format; /* gauntlet: agent 0 meets everyone else */
    int64_t per_pairing; /* games per table subset; a multiple of players */
    int64_t max_games;   /* > 0: sample a balanced schedule of at most this many */
    uint64_t seed;
} schedule_params;

/* Returns 0, or -1 with a one-line reason in err. */
int schedule_build(const schedule_params *p, schedule *out, char *err, size_t errlen);
void schedule_free(schedule *s);
/* Number of games of the full schedule (no sampling); -1 if it overflows. */
int64_t schedule_full_size(const schedule_params *p);
/* The seed of group g (1-based) under a master seed. */
uint64_t schedule_group_seed(uint64_t master, int64_t group);

#endif
