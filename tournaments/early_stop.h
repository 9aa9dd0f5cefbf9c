/* Early stopping during a tournament run: follows which seat-rotation
 * groups have started and finished, and asks the rule of stopping.h only
 * when a whole group has finished. After a stop, the groups already started
 * are completed and no new one starts, so duplicate pairs stay whole. */
#ifndef ARENA_EARLY_STOP_H
#define ARENA_EARLY_STOP_H

#include <stdbool.h>
#include <stddef.h>

#include "stopping.h"
#include "store.h"

typedef struct early_stop early_stop;

/* all: every game of the schedule (finished ones count as played). names
 * must outlive the tracker. */
early_stop *early_stop_new(const stop_rule *r, int n_agents, char *const *names, const tgame *all,
                           size_t n_all);
void early_stop_free(early_stop *e);
/* A game finished. True when it completed its group and the ranking is
 * settled now (why: one line). */
bool early_stop_done(early_stop *e, const tgame *g, char *why, size_t whylen);
/* The same question for the games played so far (on --resume). */
bool early_stop_check(early_stop *e, char *why, size_t whylen);
/* A game is about to be handed out: after a stop only games of groups
 * already started may be (returns false for the others). */
bool early_stop_may_start(early_stop *e, const sched_game *g, bool stopped);

#endif
