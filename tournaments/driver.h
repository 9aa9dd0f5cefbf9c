/* Drives tournament games through the match runner (referee/match.h): one
 * libevent loop, up to `concurrency` matches in flight, agent processes
 * kept alive and reused across games (a crashed one is replaced), a live
 * progress line. What to play next and what to do with a result come from
 * the caller (a fixed schedule, or an SPRT that decides as it goes). */
#ifndef ARENA_DRIVER_H
#define ARENA_DRIVER_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "game.h"
#include "live_hooks.h"
#include "runopts.h"
#include "store.h"

typedef struct driver_src {
    /* Fills the next game to start; false when there is none right now. */
    bool (*next)(void *ctx, sched_game *g);
    /* A game ended (g->done set, result filled). Returns false to stop
     * starting games (the ones in flight still finish and are reported);
     * sets *fatal to abort at once. */
    bool (*done)(void *ctx, const tgame *g, const char *log_path, bool *fatal);
    /* One short phrase for the progress line ("leader: A 61%"), may be NULL. */
    void (*status)(void *ctx, char *buf, size_t len);
    void *ctx;
    /* Optional, for a source that others fill too (a shared database):
     * when next() has nothing, whether games may still come (the driver
     * then asks again every poll_ms instead of ending) ... */
    bool (*more)(void *ctx);
    /* ... and called every poll_ms while the driver runs (heartbeats). */
    void (*tick)(void *ctx);
    /* Optional, for a source whose agents come and go (a ladder): whether
     * agent i may still play. Instances of an agent that may not are
     * closed when their game ends, and idle ones at the next poll. */
    bool (*active)(void *ctx, int agent);
} driver_src;

typedef struct driver_cfg {
    const arena_game_vt *game;
    const run_options *ro;
    /* The agents by index. A source may append agents while the driver runs
     * (names, specs and n_agents are read afresh); under --sandbox every
     * agent's files are then hidden from the agents spawned after it, and
     * instances spawned before it are replaced when their game ends. */
    char *const *names;
    char *const *specs;
    int n_agents;
    /* An agent that cannot start (no such program, a refused connect)
     * forfeits its game as a crash instead of stopping the run. */
    bool start_failure_forfeits;
    int concurrency;
    const char *log_dir; /* NULL: no match logs */
    int64_t total;       /* games in the whole run (0: open-ended) */
    int64_t done_before; /* finished before this run started (resume) */
    FILE *progress;      /* NULL: silent */
    int poll_ms;         /* with src->more or src->tick (default 500) */
    /* --http: the web front on this run's loop (live_hooks.h); NULL or no
     * listen address: none. */
    const live_cfg *live;
} driver_cfg;

enum { DRIVER_OK = 0, DRIVER_FAILED = 1, DRIVER_INTERRUPTED = 3 };

/* concurrency 0 plays nothing: the driver only ticks until more() says
 * false (a coordinator that only watches). Runs until the source is exhausted (or asks to stop) and
 * every match in flight has ended. Returns a DRIVER_* code; err holds the reason. */
int driver_run(const driver_cfg *cfg, const driver_src *src, char *err, size_t errlen);

/* Default concurrency: the number of online cores. */
int driver_default_concurrency(void);

#endif
