/* An agent's processes: a pid and its descendants, found through
 * /proc/PID/task/TID/children. The walk uses an explicit stack, so a chain
 * of any depth is followed (a depth limit would let a deep enough helper
 * go uncharged by --clock cpu, or run on under --freeze-idle). */
#ifndef ARENA_PROCTREE_H
#define ARENA_PROCTREE_H

#include <sys/types.h>

#define PROCTREE_MAX 65536 /* processes walked: pid_max is 4M, an agent's far fewer */

/* Calls visit(pid, parent, ctx) for every descendant of root (not root),
 * parents before their children. */
void proctree_walk(pid_t root, void (*visit)(pid_t pid, pid_t parent, void *ctx), void *ctx);

/* Reads /proc/PID/stat into buf and returns where its third field (the
 * state; then the parent, ..., 14-17 the CPU times: proc(5)) starts; NULL
 * if the process is gone. */
const char *proctree_stat(pid_t pid, char *buf, size_t len);

#endif
