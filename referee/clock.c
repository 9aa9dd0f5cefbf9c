#include "clock.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "procfile.h"
#include "proctree.h"
#include "util.h"

void clock_config_default(clock_config *c)
{
    c->move_ms = 1000;
    c->bank_ms = 10000;
    c->game_ms = -1;
    c->startup_ms = 5000;
    c->mode = CLOCK_FAIR;
}

const char *clock_mode_name(clock_mode m)
{
    return m == CLOCK_CPU ? "cpu" : m == CLOCK_FAIR ? "fair" : "wall";
}

double clock_recharge(const clock_evidence *e)
{
    switch (e->mode) {
    case CLOCK_CPU: return e->cpu_ms > 0 ? e->cpu_ms : 0;
    case CLOCK_FAIR: return clock_fair_charge(e->wall_ms, e->lag_ms, e->cpu_ms, e->wait_ms);
    default: {
        double c = e->wall_ms - (e->lag_ms > 0 ? e->lag_ms : 0);
        return c > 0 ? c : 0;
    }
    }
}

bool clock_evidence_holds(const clock_evidence *e, double tolerance_ms)
{
    double c = clock_recharge(e);
    /* The charge follows from the figures, and is over the allowance (or,
     * under a wall cap, the decision ran out of wall time). */
    bool cap = e->mode != CLOCK_WALL && e->charged_ms == e->allowance_ms;
    return (cap || (c - e->charged_ms <= tolerance_ms && e->charged_ms - c <= tolerance_ms)) &&
           e->charged_ms + tolerance_ms >= e->allowance_ms;
}

void seat_clock_start(seat_clock *c, const clock_config *cfg)
{
    c->bank_left = (double)cfg->bank_ms;
    c->game_left = cfg->game_ms < 0 ? -1.0 : (double)cfg->game_ms;
}

double clock_allowance(const clock_config *cfg, const seat_clock *c)
{
    double a = (double)cfg->move_ms + (c->bank_left > 0 ? c->bank_left : 0);
    if (c->game_left >= 0 && c->game_left < a) a = c->game_left;
    return a;
}

bool clock_charge(const clock_config *cfg, seat_clock *c, double used)
{
    bool ok = true;
    double over = used - (double)cfg->move_ms;
    if (over > 0) {
        c->bank_left -= over;
        if (c->bank_left < 0) {
            c->bank_left = 0;
            ok = false;
        }
    }
    if (c->game_left >= 0) {
        c->game_left -= used;
        if (c->game_left < 0) {
            c->game_left = 0;
            ok = false;
        }
    }
    return ok;
}

double clock_wall_cap(const clock_config *cfg)
{
    return (cfg->mode == CLOCK_FAIR ? CLOCK_FAIR_WALL_CAP : CLOCK_CPU_WALL_CAP) *
           (double)cfg->move_ms;
}

double clock_cap_left(clock_mode mode, double limit_ms, double wall, double wait)
{
    double end_left = CLOCK_FAIR_WALL_CAP * limit_ms - wall;
    if (mode != CLOCK_CPU) return end_left;
    double cap_left = CLOCK_CPU_WALL_CAP * limit_ms - (wall - (wait > 0 ? wait : 0));
    return cap_left < end_left ? cap_left : end_left;
}

double clock_startup_left(double limit_ms, double t0, double used, double cpu0, double wait,
                          double now)
{
    double wall = now - t0;
    if (used < 0) return limit_ms - wall;
    double left = limit_ms - (used - cpu0),
           cap_left = clock_cap_left(CLOCK_CPU, limit_ms, wall, wait);
    return cap_left < left ? cap_left : left;
}

double clock_fair_wait(const clock_task *t, size_t n, double cpu_ms)
{
    double most = 0;
    for (size_t i = 0; i < n; i++) {
        double q = t[i].wait_ms > 0 ? t[i].wait_ms : 0, r = t[i].run_ms > 0 ? t[i].run_ms : 0;
        if (q > 0 && q + r > most) most = q + r;
    }
    double w = most - (cpu_ms > 0 ? cpu_ms : 0);
    return w > 0 ? w : 0;
}

double clock_fair_charge(double wall_ms, double lag_ms, double cpu_ms, double wait_ms)
{
    double c = wall_ms - (lag_ms > 0 ? lag_ms : 0) - (wait_ms > 0 ? wait_ms : 0);
    if (cpu_ms > c) c = cpu_ms;
    return c > 0 ? c : 0;
}

double clock_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

double clock_host_psi_us(void)
{
    /* Read at every decide: one descriptor, kept open, read from the top. */
    static int fd = -2;
    char buf[512];
    if (!procfile_read(procfile_keep(&fd, "/proc/pressure/cpu"), buf, sizeof buf)) return -1;
    /* "some avg10=... total=N" first, then "full ...". */
    const char *t = strstr(buf, "total=");
    return !strncmp(buf, "some ", 5) && t ? strtod(t + 6, NULL) : -1;
}

static int by_tid(const void *a, const void *b)
{
    pid_t x = ((const proctree_task *)a)->tid, y = ((const proctree_task *)b)->tid;
    return (x > y) - (x < y);
}

void clock_probe_start(clock_probe *p, pid_t root, proctree_keep *keep, bool fresh)
{
    if (!p->t) {
        p->cap = CLOCK_PROBE_TASKS;
        p->t = xmalloc(p->cap * sizeof *p->t);
        p->last = xmalloc(p->cap * sizeof *p->last);
    }
    p->keep = keep;
    p->n = root > 0 ? proctree_tasks(root, keep, p->t, p->cap, true, &p->whole) : 0;
    qsort(p->t, p->n, sizeof *p->t, by_tid);
    p->straddling = 0;
    for (size_t i = 0; i < p->n; i++) {
        bool unknown = !fresh && p->t[i].state == 'R';
        p->t[i].pre_ms = unknown ? -1 : 0;
        p->straddling += unknown;
    }
    memcpy(p->last, p->t, p->n * sizeof *p->t);
    p->n_last = p->n;
    /* Taken once the reading is done: a look's span must not hold time
     * before a reading (the referee's own delay, when it was preempted
     * between a clock reading and /proc's), or a task runnable at both
     * looks is credited a wait it spent asleep before the first. */
    p->t0 = p->t_last = p->t_look = clock_now_ms();
    p->host_psi_us = clock_host_psi_us();
}

double clock_straddle_pre(const proctree_task *t, const proctree_task *was, double waited,
                          double ran, double since_start, double since_look)
{
    bool same = t->run_ns == was->run_ns && t->wait_ns == was->wait_ns && t->vol == was->vol &&
                t->state == 'R';
    if (same) return -1;
    double most = since_start - ran;
    if ((t->vol != was->vol || t->state != 'R' || t->torn) && since_start - since_look < most)
        most = since_start - since_look;
    if (most < 0) most = 0;
    return waited > most ? waited - most : 0;
}

double clock_pending_wait(const proctree_task *t, const proctree_task *was, double span)
{
    if (!was || t->state != 'R' || was->state != 'R' || t->vol != was->vol || t->torn || was->torn)
        return 0;
    /* The wait going on at the last look is in schedstat once the task
     * ran: it is part of what schedstat shows since, not of this span. */
    double seen = (double)(t->run_ns - was->run_ns + t->wait_ns - was->wait_ns) / 1e6,
           pend = span + was->pend_ms - seen;
    return pend > 0 ? pend : 0;
}

/* The priority a spawned agent starts with: the referee's own, which a
 * fork passes on (spawn.c changes neither). Read once. */
static void start_priority(int *nice, int *policy)
{
    static int known, n, pol;
    if (!known) {
        errno = 0;
        n = getpriority(PRIO_PROCESS, 0);
        if (errno) n = 0;
        pol = sched_getscheduler(0);
        if (pol < 0) pol = SCHED_OTHER;
        pol &= ~SCHED_RESET_ON_FORK;
        known = 1;
    }
    *nice = n;
    *policy = pol;
}

static bool yields(const proctree_task *t)
{
    int nice, policy;
    start_priority(&nice, &policy);
    return proctree_task_yields(t, nice, policy);
}

double clock_probe_wait(clock_probe *p, pid_t root, double cpu_ms, double *wait_sum, bool *stalled)
{
    *wait_sum = 0;
    *stalled = false;
    if (root <= 0 || !p->t) return 0;
    proctree_task now[CLOCK_PROBE_TASKS];
    clock_task d[CLOCK_PROBE_TASKS];
    bool whole;
    /* The spans since the start and the last look end where this reading
     * begins, and the last look's where its reading ended: never longer
     * than the time between the readings (clock_probe_start). */
    double now_ms = p->t_look = clock_now_ms();
    size_t n = proctree_tasks(root, p->keep, now, CLOCK_PROBE_TASKS, true, &whole), k = 0;
    qsort(now, n, sizeof *now, by_tid);
    p->straddling = 0;
    for (size_t i = 0; i < n; i++) {
        proctree_task *was = bsearch(&now[i], p->t, p->n, sizeof *p->t, by_tid);
        const proctree_task *seen = bsearch(&now[i], p->last, p->n_last, sizeof *p->last, by_tid);
        if (seen && (now[i].run_ns < seen->run_ns || now[i].wait_ns < seen->wait_ns))
            seen = NULL; /* (a pid reused) */
        now[i].pend_ms = clock_pending_wait(&now[i], seen, now_ms - p->t_last);
        /* Runnable: running or waiting for a CPU, which schedstat does not
         * tell; a wait going on is counted only from what the looks saw
         * (clock_pending_wait), not since it began. */
        bool runnable = now[i].state == 'R';
        /* A task not in the start's reading began since, unless the reading
         * was cut short: then it may be older, its wait not the decision's. */
        bool counts = was || p->whole;
        unsigned long long r0 = was ? was->run_ns : 0, w0 = was ? was->wait_ns : 0;
        /* (A pid reused since counts from 0: never a credit.) */
        d[k].run_ms = now[i].run_ns >= r0 ? (double)(now[i].run_ns - r0) / 1e6 : 0;
        d[k].wait_ms = now[i].wait_ns >= w0 ? (double)(now[i].wait_ns - w0) / 1e6 : 0;
        d[k].wait_ms += now[i].pend_ms;
        /* A task at a lower priority than the agent started with chose to
         * yield the CPU: its wait is its own, and it keeps no verdict
         * waiting. It cannot raise its priority back (RLIMIT_NICE 0,
         * spawn.c), so a wait it had before it lowered it is lost to it,
         * never the other way. */
        if ((runnable || (counts && d[k].wait_ms > 0)) && yields(&now[i])) continue;
        if (runnable) *stalled = true;
        if (!counts) continue;
        if (was && was->pre_ms < 0) {
            was->pre_ms = clock_straddle_pre(&now[i], was, d[k].wait_ms, d[k].run_ms,
                                             now_ms - p->t0, now_ms - p->t_last);
            if (was->pre_ms < 0) p->straddling++;
        }
        if (was && was->pre_ms > 0)
            d[k].wait_ms = d[k].wait_ms > was->pre_ms ? d[k].wait_ms - was->pre_ms : 0;
        *wait_sum += d[k].wait_ms;
        k++;
    }
    memcpy(p->last, now, n * sizeof *now);
    p->n_last = n;
    p->t_last = clock_now_ms();
    return clock_fair_wait(d, k, cpu_ms);
}

void clock_probe_free(clock_probe *p)
{
    free(p->t);
    free(p->last);
    memset(p, 0, sizeof *p);
}

/* A process's CPU time in ms: its threads', ended ones included, to the
 * nanosecond (its CPU-time clock) as far as the kernel has counted it (a
 * thread running on another CPU is brought up to date at its scheduler
 * tick or when it blocks), and its reaped children's, which /proc gives
 * only in clock ticks (10 ms). Not the whole of it in ticks: a
 * move's charge would then be the difference of two truncated counts, off
 * by up to 10 ms either way, and a bot using 42 ms of a 50 ms move would
 * time out on about 2 moves in 21 (e2e cpu_clock_is_precise). -1 if the process is gone. */
static double proc_cpu_ms(pid_t pid)
{
    static long hz;
    if (!hz) hz = sysconf(_SC_CLK_TCK);
    char buf[1024];
    const char *p = proctree_stat(pid, buf, sizeof buf);
    long long cut = 0, cst = 0;
    if (!p ||
        sscanf(p, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u %lld %lld", &cut, &cst) != 2)
        return -1;
    clockid_t id;
    struct timespec ts;
    if (clock_getcpuclockid(pid, &id) != 0 || clock_gettime(id, &ts) != 0) return -1;
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6 +
           (double)(cut + cst) * 1000.0 / (double)hz;
}

static void add_cpu(pid_t pid, pid_t parent, void *ctx)
{
    (void)parent;
    double ms = proc_cpu_ms(pid);
    if (ms > 0) *(double *)ctx += ms; /* (gone: reaped, and counted by its parent) */
}

/* The agent's whole tree (proctree.h). A descendant a bot detaches from it
 * (its parent exits, so it is reparented) would leave the count: spawn.c
 * makes the agent a child subreaper, so only leaving the agent's own
 * process does that, as protocol.md states. */
double proc_tree_cpu_ms(pid_t pid)
{
    double total = proc_cpu_ms(pid);
    if (total >= 0) proctree_walk(pid, add_cpu, &total);
    return total;
}
