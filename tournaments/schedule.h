/* Tournament schedules. Games come in groups with the seats rotated (2
 * players: a seat-swapped pair). With duplicate pairing the games of a group
 * share one seed, so the luck of the deal cancels within it, but a bot that
 * remembers the first game knows the deal of the next; with independent
 * pairing every game has its own seed. Deterministic from the seed. */
#ifndef ARENA_SCHEDULE_H
#define ARENA_SCHEDULE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ranked.h"

typedef enum { FORMAT_ROUND_ROBIN, FORMAT_GAUNTLET } tourn_format;
typedef enum { PAIRING_INDEPENDENT, PAIRING_DUPLICATE } tourn_pairing;

/* "duplicate" / "independent"; parse returns false on anything else. */
const char *schedule_pairing_name(tourn_pairing p);
bool schedule_pairing_parse(const char *s, tourn_pairing *out);

typedef struct sched_game {
    int64_t id;    /* 1-based position in the schedule */
    int64_t group; /* 1-based; seats rotate within a group (duplicate: one seed) */
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
    tourn_pairing pairing;
} schedule_params;

/* Returns 0, or -1 with a one-line reason in err. */
int schedule_build(const schedule_params *p, schedule *out, char *err, size_t errlen);
void schedule_free(schedule *s);
/* Number of games of the full schedule (no sampling); -1 if it overflows. */
int64_t schedule_full_size(const schedule_params *p);
/* The seed of group g (1-based) under a master seed (duplicate pairing). */
uint64_t schedule_group_seed(uint64_t master, int64_t group);
/* The seed of game `id` (1-based) under a master seed (independent pairing). */
uint64_t schedule_game_seed(uint64_t master, int64_t id);

#endif
