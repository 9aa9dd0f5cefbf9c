/* The verdict a match log proves: the result its game and its fault records
 * give, re-derived line by line as match.c reaches it (finish()), so that a
 * result line edited together with the results DB does not pass. A forfeit
 * stands only on its fault record, a timeout only where the log's own clock
 * data (the decide's clock, the lines' times) show the time was up.
 * `arena replay` and `arena audit` both check through it (replay.c). */
#ifndef ARENA_VERDICT_H
#define ARENA_VERDICT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "game.h"
#include "value.h"

typedef struct verdict_decide {
    int64_t id;
    double t;          /* the log time the decide was written, ms */
    double allowance;  /* move_ms + bank left (capped by the game time), ms */
    bool open;         /* sent and not yet answered, struck or forfeited */
    bool ever;         /* the seat was ever sent a decide */
    bool hello, ready; /* start-up: hello sent (at hello_t), ready read */
    double hello_t, startup_ms;
} verdict_decide;

typedef struct verdict {
    int players, live;
    bool cpu_clock; /* the clock counted CPU time: the log's wall times cannot show it */
    bool ended;     /* fewer than two seats left: no move may follow */
    long moves;     /* choice lines so far */
    char forfeit[ARENA_MAX_SEATS][16]; /* the cause of each seat's forfeit, "" none */
    verdict_decide decide[ARENA_MAX_SEATS];
    long clock_unchecked; /* timeout forfeits whose time the log cannot show */
    bool aborted;         /* the result says aborted: only the referee knows why */
} verdict;

void verdict_start(verdict *v, int players, bool cpu_clock);

/* Each line of the log after the header, in order; for a choice or fault
 * line, before it is applied to the game g. Returns false with `why` when
 * the line cannot have been written by a referee that played this game. */
bool verdict_line(verdict *v, const char *type, const av *line, char *why, size_t len);

/* The result line against the game's own result: false with `why` when its
 * ranks, scores, reason or forfeits are not the ones the game and the fault
 * records give. */
bool verdict_result(verdict *v, const arena_result *res, const av *line, char *why, size_t len);

#endif
