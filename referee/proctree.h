/* An agent's processes: a pid and its descendants, found through
 * /proc/PID/task/TID/children. The walk uses an explicit stack, so a chain
 * of any depth is followed (a depth limit would let a deep enough helper
 * go uncharged by --clock cpu, or run on under --freeze-idle). */
#ifndef ARENA_PROCTREE_H
#define ARENA_PROCTREE_H

#include <dirent.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#define PROCTREE_MAX 65536 /* processes walked: pid_max is 4M, an agent's far fewer */

/* Calls visit(pid, parent, ctx) for every descendant of root (not root),
 * parents before their children. */
void proctree_walk(pid_t root, void (*visit)(pid_t pid, pid_t parent, void *ctx), void *ctx);

/* The same, reading the children of at most `max` processes (root first,
 * then depth first: a tree's first processes). */
void proctree_walk_max(pid_t root, void (*visit)(pid_t pid, pid_t parent, void *ctx), void *ctx,
                       size_t max);

/* Reads /proc/PID/stat into buf and returns where its third field (the
 * state; then the parent, ..., 14-17 the CPU times: proc(5)) starts; NULL
 * if the process is gone. */
const char *proctree_stat(pid_t pid, char *buf, size_t len);

/* One thread's schedstat (proc(5)): time on a CPU and time runnable on a
 * run queue waiting for one, both ns since it started. */
typedef struct proctree_task {
    pid_t pid, tid; /* its process, itself */
    unsigned long long run_ns, wait_ns;
    /* With `states` (proctree_tasks): of its stat, its state ('R' running
     * or runnable), nice and scheduling policy; of its status, only where
     * the state is 'R' (status costs 8.5 us a read, stat 3.3), how often it
     * blocked (0 elsewhere); torn: its schedstat moved while these were
     * read, so they need not agree (a task that blocked in between showed
     * 'R' with the block counted). */
    char state;
    int nice, policy;
    unsigned long long vol;
    bool torn;
    /* The caller's (clock.c): a wait going on, not counted yet; and the
     * part of the counted waits that predates the caller's start. */
    double pend_ms, pre_ms;
} proctree_task;

/* What proctree_tasks keeps open for its root (may be NULL): the list of
 * its tasks and its main thread's files, read again from the top at each
 * call. The fair clock reads an agent's tree twice a decision, and opening
 * a /proc file costs 3-4 us more than reading it again (procfs looks the
 * path up and makes the file anew): about 40 us a decision for a
 * single-threaded bot. A descriptor stays bound to the task it was opened
 * for: once that is gone it reads nothing, whatever took its pid. Zero it
 * to start; PROCTREE_KEEP_FDS descriptors at most. */
typedef struct proctree_keep {
    pid_t pid;                             /* whose files these are; 0: none */
    DIR *dir;                              /* /proc/PID/task */
    int schedstat, status, children, stat; /* its main thread's; -2: not opened yet */
    /* Its threads at the last reading of its stat (0: unknown). While
     * that is 1 the task list is not read (2.5 us): the main thread's stat
     * says whether a thread came since, and the list is read then. */
    long threads;
} proctree_keep;
#define PROCTREE_KEEP_FDS 5
void proctree_keep_close(proctree_keep *k);

/* Every thread of root and of its descendants, at most cap of them into
 * out (with root's files kept open in keep, if not NULL); with `states`, also each one's state.
 * Returns how many it put in out (0 if root is gone or schedstat unreadable), and into *whole
 * whether that is all of them. Only the children of the first
 * PROCTREE_TASK_PROCS processes are looked for, so that it costs the
 * referee's loop little however many an agent runs (an agent of 500 idle
 * processes stalled it 7.7 s in 64 moves, verdict_no_stall_by_processes);
 * the tasks beyond are left out (*whole false). */
#define PROCTREE_TASK_PROCS 16
size_t proctree_tasks(pid_t root, proctree_keep *keep, proctree_task *out, size_t cap, bool states,
                      bool *whole);

/* Whether task t (read with `states`) runs at a lower priority than `nice`
 * and `policy` (what the agent started with): its policy SCHED_IDLE (and
 * `policy` not), or its nice above `nice`. Such a task chose to yield the
 * CPU to the host's others. False where its stat was not read. */
bool proctree_task_yields(const proctree_task *t, int nice, int policy);

/* Whether the kernel keeps the run-queue wait of tasks (CONFIG_SCHED_INFO:
 * /proc/self/schedstat readable). Decided once. */
bool proctree_schedstat(void);

#endif
