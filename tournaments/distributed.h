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
#include "schedule.h"
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
    bool linger;          /* a worker: on a ladder, wait a while for its next tables */
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
    /* Optional, for a ladder's run, which schedules as it goes: games played
     * here that the store does not hold (its validation games), asked for
     * before a game is claimed and played even with concurrency 0 (then one
     * at a time), and their results; ... */
    bool (*local_next)(void *ctx, sched_game *g);
    void (*local_done)(void *ctx, const tgame *g);
    /* ... whether it will still schedule games (while it does, the driver
     * waits for them when none is unfinished); ... */
    bool (*going)(void *ctx);
    /* ... its fatal error (the message), or NULL: no game is started after
     * one, and dist_play returns DRIVER_FAILED with it; ... */
    const char *(*failed)(void *ctx);
    /* ... and whether an agent may still play (driver_src.active). A ladder
     * played without it (a worker) takes that from the roster. */
    bool (*active)(void *ctx, int agent);
} dist_cfg;

/* dist_play could not read the tournament's settings because the database
 * went away (between store_pg_pick and the read): nothing was played; try
 * again once it is back. */
#define DIST_DB_DOWN 4

/* Nothing was played: the tournament scales its clocks per host
 * (--tc-scale auto) and this host's speed is out of its range
 * (hostspeed.h). */
#define DIST_REFUSED 5

/* Plays the tournament chosen in db (store_pg_pick, or opened by name)
 * until none of its games is unfinished. A ladder's games may seat
 * versions added after the start: the agents are read again when a game
 * seats one not known yet, and (without cfg->active) the instances of
 * versions that no longer play are closed once idle. Returns a DRIVER_*
 * code or DIST_DB_DOWN; err holds the reason. */
int dist_play(store *db, const dist_cfg *c, char *err, size_t errlen);

#endif
