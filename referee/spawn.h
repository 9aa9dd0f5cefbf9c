/* Starting an agent process: its own process group, pipes for stdin,
 * stdout and stderr (non-blocking on our side), resource limits, and
 * optionally a bubblewrap sandbox (sandbox.h). Every agent process group
 * is on a referee-wide list, so that no agent outlives the referee: see
 * spawn_kill_all() and the watchdog below. */
#ifndef ARENA_SPAWN_H
#define ARENA_SPAWN_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "match.h"

typedef struct spawned {
    pid_t pid;   /* also the process group id */
    int to_fd;   /* the child's stdin */
    int from_fd; /* the child's stdout */
    int err_fd;  /* the child's stderr */
} spawned;

/* command: for `cmd:LINE` the line, run by /bin/sh -c "exec LINE"; for a
 * bare path the path itself (argv = {path}). Limits, --sandbox and
 * --pass-env come from cfg. Returns 0, or -1 with err when the program
 * cannot be started (not found, not executable). */
int spawn_agent(const char *command, bool shell, const agent_config *cfg, spawned *out, char *err,
                size_t errlen);

/* The caller reaped the agent's leader (pid): its group leaves the list. */
void spawn_forget(pid_t pid);

/* SIGKILLs every agent process group still on the list. Async-signal-safe:
 * for signal handlers. */
void spawn_kill_all(void);

#endif
