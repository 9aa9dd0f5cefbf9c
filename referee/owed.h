/* Answers an agent still owes for hellos and decisions the referee no
 * longer waits for: the game ended first, or the decision timed out. The
 * protocol answers every hello and every decide, in order, so such an
 * answer can still arrive; it must be recognised as late, dropped and
 * logged, and never taken for the answer to a later hello or decision (or
 * charged as a protocol error). Pure, so it is unit-tested apart from I/O. */
#ifndef ARENA_OWED_H
#define ARENA_OWED_H

#include <stdbool.h>
#include <stdint.h>

/* Late decisions remembered per agent; beyond that the oldest is forgotten
 * (a bot that leaves that many unanswered is not waiting to answer them). */
#define OWED_MAX_IDS 64

typedef struct owed_answers {
    int readies;                /* hellos of ended games still unanswered */
    uint64_t ids[OWED_MAX_IDS]; /* decides no longer waited for, oldest first */
    int n_ids;
} owed_answers;

/* A game ended before this agent's `ready` to its hello arrived. */
void owed_add_ready(owed_answers *o);
/* A `ready` arrived: true when it answers an earlier game's hello (so it
 * is late and must be dropped), false when it is for the current hello. */
bool owed_take_ready(owed_answers *o);

/* Decision `id` timed out, or its game ended while it was pending. */
void owed_add_act(owed_answers *o, uint64_t id);
/* An `act` for `id` arrived: true when it answers a decision no longer
 * waited for. That decision and every one sent before it are settled
 * (answers come in order). Ids repeat across games; the oldest matches
 * first, which is right because answers come in the order decides went out. */
bool owed_take_act(owed_answers *o, uint64_t id);
/* The decision being waited for was answered: the late ones before it
 * will not be (the agent skipped them), so they are forgotten. */
void owed_forget_acts(owed_answers *o);

#endif
