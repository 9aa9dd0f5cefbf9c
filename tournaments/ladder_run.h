/* `arena ladder run`: plays a ladder until stopped, on the tournament driver
 * (driver.h) as a source that picks each next table as it goes
 * (matchmake.h), validates new versions first, disables versions that
 * fault too often, and takes up entrants added or retired from another
 * process within LADDER_RELOAD_MS. */
#ifndef ARENA_LADDER_RUN_H
#define ARENA_LADDER_RUN_H

#include <stdbool.h>
#include <stdint.h>

#include "game.h"
#include "live_hooks.h"
#include "runopts.h"
#include "schedule.h"
#include "store.h"

/* The ladder's own settings, fixed when it is made (stored in its meta). */
typedef struct ladder_settings {
    const arena_game_vt *game;
    int players;
    int validation_games;   /* before a version's first ranked game */
    int64_t max_faults;     /* ranked games forfeited that disable a version */
    double max_fault_rate;  /* ... or this share of them, after LADDER_RATE_MIN_GAMES */
    double window, variety; /* matchmake.h */
    bool separate_authors;
    tourn_pairing pairing;
    uint64_t seed; /* secret master seed: every game's seed derives from it */
} ladder_settings;

#define LADDER_VALIDATION_GAMES 2
#define LADDER_MAX_FAULTS 10
#define LADDER_MAX_FAULT_RATE 0.1
#define LADDER_RATE_MIN_GAMES 20
#define LADDER_RELOAD_MS 1000
/* Validation games are numbered from here, apart from the ranked games (not
 * stored: they rate nobody). */
#define LADDER_VALIDATION_ID 1000000000000LL

/* What this run may do. */
typedef struct ladder_limits {
    int concurrency;
    int64_t games;    /* ranked games to hand out, 0: no limit */
    double hours;     /* 0: no limit */
    const char *logs; /* match logs directory, NULL: none (PostgreSQL: the root,
                         the ladder's own folder below it) */
    double lease;     /* PostgreSQL: the lease of a game this run plays, s (0: default) */
    bool quiet;
    const live_cfg *live; /* --http; NULL: none */
} ladder_limits;

/* Runs until a limit, SIGINT/SIGTERM, or a fatal error. Returns a DRIVER_*
 * code; err holds the reason. In PostgreSQL the run schedules each table
 * into the store, where `arena worker`s (and this run, with concurrency
 * above 0) claim its games under leases (distributed.h), and reads their
 * results back as they are posted; it plays the validation games itself.
 * With a limit (or the finals' freeze) it stops scheduling and ends once
 * every scheduled game is finished. */
int ladder_run(store *db, const ladder_settings *ls, const run_options *ro,
               const ladder_limits *lim, char *err, size_t errlen);

#endif
