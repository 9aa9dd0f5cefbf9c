#include "clock.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "proctree.h"

void clock_config_default(clock_config *c)
{
    c->move_ms = 1000;
    c->bank_ms = 10000;
    c->game_ms = -1;
    c->startup_ms = 5000;
    c->mode = CLOCK_WALL;
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
    return CLOCK_CPU_WALL_CAP * (double)cfg->move_ms;
}

double clock_startup_left(double limit_ms, double t0, double used, double cpu0, double now)
{
    double wall_left = limit_ms - (now - t0);
    if (used < 0) return wall_left;
    double cpu_left = limit_ms - (used - cpu0),
           cap_left = CLOCK_CPU_WALL_CAP * limit_ms - (now - t0);
    return cpu_left < cap_left ? cpu_left : cap_left;
}

double clock_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
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
