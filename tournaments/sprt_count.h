/* An SPRT's count. Pairs count in schedule order (group 1, 2, ...), each
 * once both its games are done, and the test decides at the first pair
 * whose count leaves the bounds; nothing after that pair counts. Never in
 * the order games finish: the verdict then follows from the results alone,
 * the same live, on --resume, in `arena report` and in `arena audit`, and a
 * bot that answers slowly when losing cannot hold its losses back until the
 * test has stopped. */
#ifndef ARENA_SPRT_COUNT_H
#define ARENA_SPRT_COUNT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stats.h"

typedef struct sprt_count {
    double elo0, elo1;
    sprt_bounds b;
    double penta[5]; /* counted pairs by A's points, in half points */
    double wdl[3];   /* their games: A's wins, draws, losses */
    double llr;
    int64_t pairs; /* counted: groups 1..pairs */
    int decided;   /* 0 running, 1 H1, -1 H0 */
    /* By group: A's points in its first and second finished game (-1:
     * not yet). */
    double *first, *second;
    size_t cap;
    double *trace; /* optional, the caller's: the LLR after each counted pair */
    size_t trace_cap;
} sprt_count;

void sprt_count_init(sprt_count *c, double elo0, double elo1, const sprt_bounds *b);
void sprt_count_free(sprt_count *c);
/* A finished game of group g (1-based) in which A scored a_points (1, 0.5,
 * 0). Counts what it completes in order; true when it decided the test.
 * Games after the decision are ignored. */
bool sprt_count_game(sprt_count *c, int64_t group, double a_points);
/* sprt_count_game for a stored game of the run (agent 0 is A). */
struct tgame;
bool sprt_count_stored(sprt_count *c, const struct tgame *g);

#endif
