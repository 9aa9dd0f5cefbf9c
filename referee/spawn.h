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

#include "cgroup.h"
#include "match.h"

typedef struct spawned {
    pid_t pid;       /* also the process group id */
    int to_fd;       /* the child's stdin */
    int from_fd;     /* the child's stdout */
    int err_fd;      /* the child's stderr */
    int exec_fd;     /* readable once the child exec'd or failed to: see below;
                      * -1 with cfg->wait_exec (the exec was waited for) */
    agent_cgroup cg; /* none where cgroups are not usable */
} spawned;

/* command: for `cmd:LINE` the line, run by /bin/sh -c "exec LINE"; for a
 * bare path the path itself (argv = {path}). Limits, --sandbox and
 * --pass-env come from cfg. Returns 0 once forked, without waiting for the
 * exec (see spawn_exec_result) unless cfg->wait_exec, or -1 with err when
 * the program cannot be started (not found, not executable; with wait_exec
 * also a failed exec), or SPAWN_HOST_FAULT with err when this host cannot
 * start any agent now (no descriptors for its pipes, no process, its
 * cgroup not made): a failure that says nothing of the agent. */
#define SPAWN_HOST_FAULT (-2)
int spawn_agent(const char *command, bool shell, const agent_config *cfg, spawned *out, char *err,
                size_t errlen);

/* Polls exec_fd (non-blocking): 1 the child exec'd, 0 not yet, -1 the exec
 * failed with *child_errno. The caller closes exec_fd once it is not 0. */
int spawn_exec_result(int exec_fd, int *child_errno);

/* The caller reaped the agent's leader (pid): its group leaves the list. */
void spawn_forget(pid_t pid);

/* SIGKILLs every agent process group still on the list. Async-signal-safe:
 * for signal handlers. */
void spawn_kill_all(void);

/* Descriptors the referee holds for one agent of this spec while it runs:
 * 4 pipes for a spawned process, a socket for tcp:, none for builtin:. */
int spawn_fds_per_agent(const char *spec);

/* Descriptors the referee needs besides its agents (stdio, the event loop,
 * the watchdog, a results database, pipes of a spawn in progress). */
#define SPAWN_FD_SLACK 64

/* Raises the soft RLIMIT_NOFILE to `need` descriptors, at most to the hard
 * limit (never lowers it). Returns the soft limit in force afterwards. */
long spawn_raise_fd_limit(long need);

#endif
