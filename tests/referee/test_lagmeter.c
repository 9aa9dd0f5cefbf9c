/* The loop's lag probe on a real event loop (lag.h): an idle loop has no
 * stalls, a callback that blocks the loop is one, and without a descriptor
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
 * way through. Returns the meter's stalls; *lag gets their total. The
 * holder must hear of each stall's end once. */
static long run(struct event_base *base, bool block, double *lag)
{
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
    lag_meter_release(m, &h);
    assert_int_equal(stall_ends, stalls);
    return stalls;
}

/* An idle loop: no stall, or so few and short that they are the
 * machine's (a VM's vCPU descheduled a few ms). On libevent's own timer
 * the probe saw 12-19 "stalls" a second, 90-120 ms in all: the coarse
 * clock's 4 ms tick and epoll's millisecond. */
static void assert_idle(long stalls, double lag)
{
    assert_true(stalls <= 2);
    assert_true(lag < 10);
}

static void test_idle_loop_has_no_stall(void **st)
{
    (void)st;
    struct event_base *base = event_base_new();
    double lag;
    long stalls = run(base, false, &lag);
    event_base_free(base);
    assert_idle(stalls, lag);
}

static void test_blocked_loop_is_one_stall(void **st)
{
    (void)st;
    struct event_base *base = event_base_new();
    double lag;
    long stalls = run(base, true, &lag);
    event_base_free(base);
    assert_true(stalls >= 1 && stalls <= 3);
    assert_true(lag >= BLOCK_MS - LAG_PROBE_MS - 1 && lag <= BLOCK_MS + 10);
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
    double idle_lag, lag;
    long idle = run(base, false, &idle_lag);
    long blocked = run(base, true, &lag);
    assert_int_equal(setrlimit(RLIMIT_NOFILE, &was), 0);
    event_base_free(base);
    assert_idle(idle, idle_lag);
    assert_true(blocked >= 1 && blocked <= 3);
    assert_true(lag >= BLOCK_MS - 3 * LAG_PROBE_MS && lag <= BLOCK_MS + 10);
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
