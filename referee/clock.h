/* Clock arithmetic of protocol.md §4, kept pure so it is unit-tested apart
 * from any I/O. Times are milliseconds as doubles (sub-ms wall precision). */
#ifndef ARENA_CLOCK_H
#define ARENA_CLOCK_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "match.h"

typedef struct seat_clock {
    double bank_left; /* bank_ms still unused this game */
    double game_left; /* game_ms still unused; < 0 when no game cap */
} seat_clock;

void seat_clock_start(seat_clock *c, const clock_config *cfg);

/* How long the next decision may take in total before it times out:
 * move_ms + bank left, capped by the game time left. */
double clock_allowance(const clock_config *cfg, const seat_clock *c);

/* Charges `used` ms for one decision: time over move_ms comes out of the
 * bank, all of it out of the game cap. Returns false (timed out) when the
 * bank or the game time would go negative. */
bool clock_charge(const clock_config *cfg, seat_clock *c, double used);

/* In cpu mode the wall clock still caps a decision at 10 x move_ms (and a
 * start-up at 10 x startup_ms), leaving out the time the agent's tree
 * waited for a CPU: a sleeping or blocked agent times out, a starved one
 * does not (beside 8 spinning processes and a loaded host, a bot needing
 * 30 ms of CPU took over 1 s). The fair clock charges sleep itself. Either
 * way a decision whose agent cannot get a CPU at all ends at 100 x. */
#define CLOCK_CPU_WALL_CAP 10
#define CLOCK_FAIR_WALL_CAP 100
/* The earliest wall time a decision can reach its cap (no waits). */
double clock_wall_cap(const clock_config *cfg);
/* The wall time left before the cap of a decision (or start-up) of
 * `limit_ms` under clock `mode` that has run `wall` ms, `wait` of them
 * waiting for a CPU (clock_probe_wait; 0 where not read); <= 0: over. */
double clock_cap_left(clock_mode mode, double limit_ms, double wall, double wait);
/* What is left of a start-up span of `limit_ms` begun at wall time `t0`
 * (startup_ms: exec to join, hello to ready), <= 0 when it is over. With
 * the agent's CPU time `used` (>= 0; -1: wall time), counted in the CPU
 * time it used since it had `cpu0`, within the wall cap, which leaves out
 * `wait`, the span's time the agent's tree waited for a CPU no task of it
 * held (clock_probe_wait): an opponent that starves the host of CPU then
 * cannot make an agent miss its start-up, however long it starves it
 * (600 ms of CPU took over 15 s of wall time, the whole cap, beside
 * 8 spinning processes on a loaded 2-core host). A tree that cannot get a
 * CPU at all is still ended at CLOCK_FAIR_WALL_CAP x limit_ms. */
double clock_startup_left(double limit_ms, double t0, double used, double cpu0, double wait,
                          double now);

/* The fair clock (protocol.md §5): a decision is charged the wall time
 * its agent's processes ran or chose to wait (sleep, I/O), not the time
 * their runnable tasks waited for a CPU someone else held; and never less
 * than the CPU time of all its tasks, so a bot gains nothing from its own
 * parallelism (threads crowding each other pay).
 *
 * Per task i of the tree the kernel gives its run time r_i and run-queue
 * wait q_i over the decision (schedstat). The wait to discount is the
 * time no task of the tree ran while one waited, which the sums cannot
 * give exactly: waits of parallel tasks overlap. A lower bound of it is
 * sound (the bot is never charged less than it did): task i waited q_i,
 * and of that at most the other tasks' run time, cpu - r_i, had another
 * task running, so at least max_i(q_i + r_i) - cpu had none. Exact for a
 * single task; a tree whose tasks wait at once is discounted only the
 * longest such wait. */
typedef struct clock_task {
    double run_ms, wait_ms; /* over the decision */
} clock_task;
double clock_fair_wait(const clock_task *t, size_t n, double cpu_ms);
/* max(cpu, wall - lag - wait), never below 0: wall time from the decide to
 * the answer, the referee's lag credited (lag.h), the CPU time of the tree,
 * and clock_fair_wait. */
double clock_fair_charge(double wall_ms, double lag_ms, double cpu_ms, double wait_ms);

/* The charge that e's figures give under e's clock: wall - lag, cpu, or
 * clock_fair_charge. */
double clock_recharge(const clock_evidence *e);

/* A figure in ms cut to the microsecond, as the log and the store keep it.
 * The nudge keeps a figure already cut as it is (4.020 is just under in
 * binary), so a figure read back and written again stays the same. */
static inline double clock_cut_us(double ms)
{
    return (double)(long long)(ms * 1000 + 1e-6) / 1000.0;
}
/* Whether e's figures bear out a timeout: the charge recomputed from them
 * is the one recorded (within tolerance_ms, the log's rounding) and is
 * not under the allowance. */
bool clock_evidence_holds(const clock_evidence *e, double tolerance_ms);

/* schedstat counts a wait for a CPU once it is over (the task runs): a
 * task that waits now has its wait missing, and /proc does not tell a
 * runnable task that waits from one that runs, nor since when it waits.
 * So under the fair clock a decision found over its allowance (its CPU
 * time under it) while a task of the agent is runnable is looked at again
 * this much later (at least a scheduler tick), not timed out: it is timed
 * out once no task of it is runnable (every wait counted), its CPU time is
 * over, or the wall cap. Deciding on the waits the looks saw go on timed
 * out 30-50 % of an innocent bot's moves on an overloaded host (issue 34). */
#define CLOCK_FAIR_SETTLE_STEP_MS 10.0

/* A task runnable at the start may be waiting for a CPU then, since a
 * moment /proc does not tell, and schedstat counts that wait whole once
 * the task runs: discounted whole, it gave a bot that stays busy after
 * its answer, on a crowded CPU, up to 3.6 ms of free time a move
 * (verdict_no_credit_before_decide). So such a task's waits count only
 * from the start: up to the first look that sees it ran, at most the
 * time from the start that it did not run, and none of that look's span
 * if it also blocked in it (how long it slept is not known). A decision
 * with such a task is looked at this soon after its start, and again
 * after as long again as it is old, until each has been seen to run: the
 * wait it may go without is at most that span. */
#define CLOCK_FAIR_STRADDLE_LOOK_MS 1.0

/* A reading of an agent's tree (proctree_tasks) for the fair clock's
 * charge and the cpu clock's wall cap: its tasks' schedstat at a span's
 * start, and the host's CPU pressure. */
#define CLOCK_PROBE_TASKS 256 /* tasks followed (proctree_tasks) */
typedef struct clock_probe {
    struct proctree_task *t; /* by tid */
    size_t n, cap;
    struct proctree_task *last; /* at the last look (clock_probe_wait), by tid */
    size_t n_last;
    double t0, t_last;          /* the start, and when last looked (clock_now_ms) */
    double t_look;              /* when the last look's reading began */
    size_t straddling;          /* tasks runnable at the start, not seen to run since */
    struct proctree_keep *keep; /* the agent's (proctree.h), or NULL */
    bool whole;                 /* every task of the tree is in t */
    double host_psi_us;         /* /proc/pressure/cpu "some" total; < 0: none */
} clock_probe;
/* `fresh`: the tree began with this span (its exec was just waited for),
 * so no wait of it predates the start (CLOCK_FAIR_STRADDLE_LOOK_MS).
 * `keep` (may be NULL): where the tree's root keeps its /proc files open
 * (proctree_tasks), for this span's looks; it must outlive them. */
void clock_probe_start(clock_probe *p, pid_t root, struct proctree_keep *keep, bool fresh);
/* Since clock_probe_start: clock_fair_wait of the tree, given its CPU
 * time `cpu_ms` over the decision; into *wait_sum the sum of its tasks'
 * run-queue waits (with the wait going on of a task that did not block
 * since the last look: clock_pending_wait); into *stalled whether one of
 * them is runnable: it may be waiting for a CPU now, a wait not all in
 * these figures yet (CLOCK_FAIR_SETTLE_STEP_MS). A task at a lower
 * priority than the agent started with (SCHED_IDLE, a higher nice:
 * proctree_task_yields) chose to yield the CPU: its wait is left out of
 * both, and it is not taken as runnable. */
double clock_probe_wait(clock_probe *p, pid_t root, double cpu_ms, double *wait_sum, bool *stalled);
void clock_probe_free(clock_probe *p);
/* Of the waits `waited` that the looks give task `t` since the start,
 * the part that may predate it: `was` its reading at the start, when it
 * was runnable; `ran` its run time since; `since_start` and `since_look`
 * the time since the start and since the look before this one. -1 while
 * it has not run or blocked since the start, which leaves that part
 * unknown (CLOCK_FAIR_STRADDLE_LOOK_MS). (Exposed for tests.) */
double clock_straddle_pre(const struct proctree_task *t, const struct proctree_task *was,
                          double waited, double ran, double since_start, double since_look);
/* A lower bound of the wait task `t` is in now, not in schedstat yet:
 * runnable now and at the last look `was`, `span` ms ago, and never
 * blocked since (it did not sleep), it was running or waiting all that
 * time. What schedstat shows since holds the wait going on then (at
 * least was->pend_ms) once the task ran; the rest of span + pend_ms that
 * it does not show is a wait going on now. (Exposed for tests.) */
double clock_pending_wait(const struct proctree_task *t, const struct proctree_task *was,
                          double span);
/* The host's CPU pressure (/proc/pressure/cpu, "some" total, us); -1 if
 * the kernel has no PSI. */
double clock_host_psi_us(void);

/* Monotonic wall time in ms. */
double clock_now_ms(void);
/* CPU time (user + system) in ms of a process and all its descendants,
 * to the microsecond as far as the kernel has counted it (up to a
 * scheduler tick of a running process may not be), but for reaped
 * children's (10 ms ticks); -1 if the process is gone. */
double proc_tree_cpu_ms(pid_t pid);

#endif
