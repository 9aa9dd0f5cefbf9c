/* Playing a tournament stored in PostgreSQL, shared with other hosts: the
 * games are claimed one at a time under a lease (renewed by a heartbeat)
 * and played by the ordinary driver (driver.h) with the tournament's stored
 * settings, seeds and agents; each result is posted in one transaction. A
 * result the database cannot take right now (connection lost) is kept and
 * posted again; one that arrives after another worker's is dropped and
 * logged. Used by `arena worker` and by the coordinator. */
#ifndef ARENA_DISTRIBUTED_H
#define ARENA_DISTRIBUTED_H

#include <stdio.h>

#include "live_hooks.h"
#include "store.h"

/* Where match logs go by default, under the current directory of each host
 * (TOURNAMENT/game-NNNNNN.jsonl.gz below it), and a lease's default length. */
#define DIST_LOGS_DEFAULT "arena-logs"
#define DIST_LEASE_DEFAULT 60.0

typedef struct dist_cfg {
    int concurrency;      /* matches in flight; 0: only watch */
    const char *log_root; /* logs in LOG_ROOT/TOURNAMENT/; NULL: none */
    double lease_s;       /* lease of a claimed game */
    const char *who;      /* for messages: "worker NAME", "coordinator" */
    FILE *progress;       /* the progress line from the database; NULL: none */
    bool quiet;           /* no per-tournament lines */
    /* This host's speed (hostspeed.h), recorded in the tournament and, under
     * --tc-scale auto, the measure of its clocks; 0: the host that made the
     * tournament (its reference: clocks as set). */
    double speed;
    /* Optional, for a coordinator that decides as results come in (SPRT):
     * called before the first game, on every tick and before the driver
     * could end (it may append games or withdraw them); status adds a
     * phrase to the progress line. */
    void (*watch)(void *ctx);
    void (*status)(void *ctx, char *buf, size_t len);
    void *ctx;
    const live_cfg *live; /* --http: the web front on the driver's loop; NULL: none */
} dist_cfg;

/* dist_play could not read the tournament's settings because the database
 * went away (between store_pg_pick and the read): nothing was played; try
 * again once it is back. */
#define DIST_DB_DOWN 4

/* Nothing was played: the tournament scales its clocks per host
 * (--tc-scale auto) and this host's speed is out of its range
 * (hostspeed.h), or it is a ladder (its own run plays its games). */
#define DIST_REFUSED 5

/* Plays the tournament chosen in db (store_pg_pick, or opened by name)
 * until none of its games is unfinished. Returns a DRIVER_* code or
 * DIST_DB_DOWN; err holds the reason. */
int dist_play(store *db, const dist_cfg *c, char *err, size_t errlen);

#endif
