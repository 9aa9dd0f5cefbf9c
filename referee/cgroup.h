/* A control group per spawned agent. rlimits bind one process at a time;
 * a group binds what all of an agent's processes charge together: memory
 * of every kind (heaps, tmpfs and System V shared memory, memfds, pipe
 * buffers) and the number of processes, which RLIMIT_NPROC does not bound
 * for root. Its CPU share is per agent, not per process, so helpers that
 * spin cannot crowd out an opponent's thinking. It also lists every
 * process the agent started, setsid or not, so that all of them die with
 * it.
 *
 * cgroup v1's memory hierarchy (and pids, cpu, freezer and cpuacct, when
 * mounted) is used where the referee may create groups below its own, as
 * root usually can. Where v1 has no memory hierarchy, cgroup v2 is: one
 * group per agent, below the nearest group above the referee's that gives
 * its children the memory controller (v2 lets no group with processes of
 * its own do that), as systemd's slices and the root do. Elsewhere the
 * limits stay per process. */
#ifndef ARENA_CGROUP_H
#define ARENA_CGROUP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* cpu: a group of the default weight, so that under contention an agent
 * gets the CPU of one, however many processes or threads it runs; the
 * group of them all weighs as many default processes as it holds agents,
 * so that together they are not squeezed into one process's share of the
 * host. Made
 * only when asked: many groups slow the scheduler (under v2, once one
 * agent asked, every later one has it). freezer: stops all the agent's
 * processes with one write (--freeze-idle), where freeze.h's walk reads
 * each of them on the referee's loop. cpuacct: the CPU time of all of them,
 * ended ones too, with one read (a CPU-timed clock), where clock.h's walk
 * reads each of them. Under v2 every group can freeze and count CPU. */
enum { CGROUP_MEMORY, CGROUP_PIDS, CGROUP_CPU, CGROUP_FREEZER, CGROUP_CPUACCT, CGROUP_NCTL };

typedef struct agent_cgroup {
    unsigned id;               /* 0: none (zeroed memory is "none") */
    bool cpu;                  /* it has a cpu group (weighed in its parent's) */
    int procs_fd[CGROUP_NCTL]; /* cgroup.procs, open for the child to join */
    int usage_fd;              /* its CPU usage file, kept open once read (procfile_keep) */
} agent_cgroup;

/* Whether agents get groups here; if not, *why says why. Decided once per
 * process: finds the hierarchies, removes what SIGKILLed referees left,
 * and makes this referee's own directory. */
bool cgroup_usable(const char **why);

/* Makes one agent's groups: memory capped at mem_mb MiB (0: uncapped, but
 * still counted), at most procs processes (0: no cap), and those of the
 * optional controllers in `want` (bits 1 << CGROUP_CPU, CGROUP_FREEZER,
 * CGROUP_CPUACCT) where mounted (v2: where given). 0, or -1 with err. */
int cgroup_open(agent_cgroup *cg, int64_t mem_mb, int64_t procs, unsigned want, char *err,
                size_t errlen);

/* In the child between fork and exec: joins cg. Async-signal-safe. */
int cgroup_enter(const agent_cgroup *cg);

/* In the parent once forked: closes what only the child needed. */
void cgroup_entered(agent_cgroup *cg);

/* How often the kernel killed one of cg's processes for memory. */
long cgroup_oom_kills(const agent_cgroup *cg);

/* The most memory cg's processes held at once, in bytes; -1 if unknown. */
int64_t cgroup_mem_peak(const agent_cgroup *cg);

/* Freezes (or thaws) every process in cg: true if cg has a freezer group
 * and it was told so. A frozen process dies of SIGKILL only once thawed:
 * cgroup_kill and cgroup_close thaw. */
bool cgroup_freeze(const agent_cgroup *cg, bool frozen);

/* The CPU time in ms that cg's processes used, those that ended included;
 * -1 if cg has no cpuacct group. */
double cgroup_cpu_ms(agent_cgroup *cg);

/* How many agents the group of the agents' cpu groups weighs, read back
 * from its cpu.shares (v1, / 1024) or cpu.weight (v2, / 100); 0 if there
 * is none. */
unsigned cgroup_cpu_weight(void);

/* SIGKILLs every process in cg (a few passes, for processes forked
 * meanwhile), then thaws it so that they die. */
void cgroup_kill(const agent_cgroup *cg);

/* Kills what is left in cg and removes it; a group not empty yet is tried
 * again by later calls and at exit. cg becomes none. */
void cgroup_close(agent_cgroup *cg);

/* For the watchdog, once the referee is gone (even SIGKILLed): kills every
 * process in every group this referee made, and removes the groups. */
void cgroup_sweep(void);

/* Parsing, exposed for tests. From a /proc/self/mountinfo line of a cgroup
 * v1 hierarchy that carries `ctl` (ctl NULL: of cgroup v2): its mount point
 * and the path of the hierarchy it shows (both into bufs of `len`). From a
 * /proc/self/cgroup line of that hierarchy: the group's path. Each returns
 * false otherwise. */
bool cgroup_parse_mount(const char *line, const char *ctl, char *mnt, char *root, size_t len);
bool cgroup_parse_self(const char *line, const char *ctl, char *path, size_t len);

#endif
