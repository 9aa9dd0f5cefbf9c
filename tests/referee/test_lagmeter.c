/* The loop's lag probe on a real event loop (lag.h): an idle loop has no
 * stalls but the time a busy host kept it from a CPU (its run-queue wait),
 * a callback that blocks the loop is one, and without a descriptor
 * for its timerfd the probe falls back to libevent's coarse timer and still
 * tells the two apart; a holder hears of each stall's end. (test_verdicts.c
 * checks the accounting alone.)
 * Timing: run alone (meson is_parallel false), so that a busy machine does
 * not stall the loop for real. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <event2/event.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "lag.h"
#include "../timing.h"

#define IDLE_MS 1000 /* a hundred probes */
#define BLOCK_MS 60

static void block_loop(evutil_socket_t fd, short what, void *arg)
{
    (void)fd, (void)what, (void)arg;
    struct timespec ts = {0, BLOCK_MS * 1000000L};
    while (nanosleep(&ts, &ts) != 0) {
    }
}

static int stall_ends; /* calls of the holder's on_stall_end */
static void count_stall_end(void *arg)
{
    (void)arg;
    stall_ends++;
}

/* Runs base for IDLE_MS; with `block`, a callback blocks it BLOCK_MS half
 * way through. Returns the meter's stalls; *lag gets their total and
 * *waited the time the loop could not run meanwhile (a loaded host's share
 * of the stalls): its run-queue wait, and the hypervisor's steal, which
 * a VM's run-queue wait does not show (an idle loop 10.9 ms late with none
 * of it, on CI). The holder must hear of each stall's end once. */
static long run(struct event_base *base, bool block, double *lag, double *waited)
{
    double wait0 = timing_run_delay_ms(), steal0 = timing_steal_ms();
    lag_hold h = {.on_stall_end = count_stall_end};
    stall_ends = 0;
    lag_meter *m = lag_meter_hold(base, &h);
    long before = lag_meter_stalls(m);
    double lag0 = lag_meter_total(m, clock_now_ms());
    struct event *ev = evtimer_new(base, block_loop, NULL);
    struct timeval half = {0, IDLE_MS * 500}, all = {IDLE_MS / 1000, IDLE_MS % 1000 * 1000};
    if (block) evtimer_add(ev, &half);
    event_base_loopexit(base, &all);
    event_base_dispatch(base);
    event_free(ev);
    long stalls = lag_meter_stalls(m) - before;
    *lag = lag_meter_total(m, clock_now_ms()) - lag0;
    double run_wait = timing_run_delay_ms() - wait0, steal = timing_steal_ms() - steal0;
    *waited = run_wait + steal;
    lag_meter_release(m, &h);
    fprintf(stderr,
            "%s loop: %ld stalls, %.1f ms of lag, %.1f ms waiting for a CPU, %.1f ms stolen "
            "by the hypervisor\n",
            block ? "blocked" : "idle", stalls, *lag, run_wait, steal);
    assert_int_equal(stall_ends, stalls);
    return stalls;
}

/* Stalls a loop may see beyond those it caused: each one is at least
 * LAG_STALL_MS of waiting for a CPU, plus two of a VM's vCPU descheduled. */
static long stalls_by_host(double waited)
{
    return 2 + (long)(waited / LAG_STALL_MS);
}

/* An idle loop: no stall but those of a busy host, whose lag is time the
 * loop waited for a CPU (the lag a partner's answer is credited must be
 * time the referee could not run). On libevent's own timer the probe saw
 * 12-19 "stalls" a second, 90-120 ms in all: the coarse clock's 4 ms tick
 * and epoll's millisecond. */
static void assert_idle(long stalls, double lag, double waited)
{
    assert_timely(stalls <= stalls_by_host(waited));
    assert_timely(lag < 10 + waited);
}

static void test_idle_loop_has_no_stall(void **st)
{
    (void)st;
    struct event_base *base = event_base_new();
    double lag, waited;
    long stalls = run(base, false, &lag, &waited);
    event_base_free(base);
    assert_idle(stalls, lag, waited);
}

static void test_blocked_loop_is_one_stall(void **st)
{
    (void)st;
    struct event_base *base = event_base_new();
    double lag, waited;
    long stalls = run(base, true, &lag, &waited);
    event_base_free(base);
    assert_timely(stalls >= 1 && stalls <= 1 + stalls_by_host(waited));
    assert_timely(lag >= BLOCK_MS - LAG_PROBE_MS - 1 && lag <= BLOCK_MS + 10 + waited);
}

/* With every descriptor in use the timerfd cannot be made: the probe runs
 * on libevent's timer, and its slack keeps the coarse clock's lateness from
 * counting as stalls, while a real one still counts (less that slack). */
static void test_coarse_fallback_tells_stall_from_tick(void **st)
{
    (void)st;
    struct event_base *base = event_base_new();
    struct rlimit was, none;
    assert_int_equal(getrlimit(RLIMIT_NOFILE, &was), 0);
    int probe = open("/dev/null", O_RDONLY); /* the lowest free descriptor */
    assert_true(probe >= 0);
    close(probe);
    none = was;
    none.rlim_cur = (rlim_t)probe;
    assert_int_equal(setrlimit(RLIMIT_NOFILE, &none), 0);
    double idle_lag, lag, idle_waited, waited;
    long idle = run(base, false, &idle_lag, &idle_waited);
    long blocked = run(base, true, &lag, &waited);
    assert_int_equal(setrlimit(RLIMIT_NOFILE, &was), 0);
    event_base_free(base);
    assert_idle(idle, idle_lag, idle_waited);
    assert_timely(blocked >= 1 && blocked <= 1 + stalls_by_host(waited));
    assert_timely(lag >= BLOCK_MS - 3 * LAG_PROBE_MS && lag <= BLOCK_MS + 10 + waited);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_idle_loop_has_no_stall),
        cmocka_unit_test(test_blocked_loop_is_one_stall),
        cmocka_unit_test(test_coarse_fallback_tells_stall_from_tick),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
