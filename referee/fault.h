/* The fault policy of protocol.md §5, pure so it is unit-tested. */
#ifndef ARENA_FAULT_H
#define ARENA_FAULT_H

#include <stdbool.h>
#include <stddef.h>

#include "match.h"

typedef enum {
    VERDICT_FORFEIT,  /* the seat forfeits now */
    VERDICT_FALLBACK, /* the referee plays a random legal choice; strike counted */
} fault_verdict;

/* Decides what a fault costs. Crashes, protocol errors and missed startup
 * always forfeit. Timeouts and illegal answers forfeit under the forfeit
 * policy; under fallback they add a strike, and the strike that reaches
 * max_strikes forfeits. *strikes is updated. */
fault_verdict fault_judge(fault_policy policy, int max_strikes, int *strikes, fault_cause cause,
                          bool at_startup);

/* Strikes a seat has left before it forfeits (for the `error` message). */
int fault_strikes_left(fault_policy policy, int max_strikes, int strikes);

/* How a process ended, from its waitpid status, for a crash verdict:
 * "exited with status 1", "was killed by signal 11 (SIGSEGV)". `sandboxed`:
 * the process is bwrap, which reports its bot's signal S as status 128 + S. */
void fault_describe_exit(int wait_status, bool sandboxed, char *buf, size_t size);

#endif
