/* --freeze-idle: an agent's processes are stopped (SIGSTOP) while it is
 * not on the move, so that it cannot take the CPU that the agent on the
 * move thinks with (a bot spinning while its opponent thinks slows the
 * opponent's wall clock). Only the agent on the move runs; pondering is
 * thereby ruled out too. This is the way without cgroups: where the agent
 * has a freezer cgroup, agent.c freezes that instead, with one write and
 * no walk of its processes (cgroup.h).
 *
 * Stopping: the agent's process group at once, then every process of its
 * tree (proctree.h) not stopped yet, such as one in a session of its own
 * (and, under --sandbox, everything inside the namespace, which bwrap puts
 * in a session of its own). Those are signalled through a pidfd opened and
 * checked (its parent is the one it was found under) before the signal,
 * so that a pid reused in the meantime is never hit; the pidfds are kept
 * to continue the same processes. A process forked while the walk runs is
 * found by the next round; rounds end when one stops nothing new. */
#ifndef ARENA_FREEZE_H
#define ARENA_FREEZE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

typedef struct freezer {
    bool stopped;
    int *fds; /* pidfds of the processes outside the group it stopped */
    size_t n, cap;
} freezer;

/* root: the agent's first process, the leader of its process group; to
 * freezer_cont, 0 once it was reaped (its group id may be reused), which
 * continues only the processes held by pidfd. */
void freezer_stop(freezer *f, pid_t root);
void freezer_cont(freezer *f, pid_t root);
/* Kills (SIGKILL) the processes it still holds stopped, then forgets them. */
void freezer_free(freezer *f);

#endif
