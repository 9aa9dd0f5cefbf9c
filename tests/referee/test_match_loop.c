/* The loop matches run on (match_loop_new) keeps polling while built-in
 * bots play: a match of built-in bots never waits for I/O, and on a plain
 * libevent loop its steps would starve every pipe, clock, heartbeat and
 * signal until it ended. */
#include <event2/event.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "clock.h"
#include "match.h"

static int finished, closed;
static bool timer_ran_mid_match;

static void on_done(const match_outcome *o, void *ctx)
{
    (void)ctx;
    assert_string_equal(o->reason, "normal");
    finished++;
}

static void on_closed(void *ctx)
{
    (void)ctx;
    closed++;
}

static void on_timer(evutil_socket_t fd, short what, void *ctx)
{
    (void)fd;
    (void)what;
    (void)ctx;
    timer_ran_mid_match = finished == 0;
}

static void a_timer_runs_while_built_in_bots_play(void **st)
{
    (void)st;
    struct event_base *base = match_loop_new();
    assert_non_null(base);
    char err[256];
    agent_config c = {.spec = "builtin:random", .game = "nim", .startup_ms = 1000};
    agent_limits_default(&c.limits);
    arena_agent *a = agent_new(base, &c, err, sizeof err),
                *b = agent_new(base, &c, err, sizeof err);
    assert_non_null(a);
    assert_non_null(b);
    /* About 200,000 decisions: far longer than the timer's 1 ms. */
    arena_setting set[] = {{"stones", "400000"}, {"max_take", "3"}};
    match_config mc = {.game = arena_find_game("nim"), .settings = set, .n_settings = 2};
    clock_config_default(&mc.clock);
    struct event *t = evtimer_new(base, on_timer, NULL);
    struct timeval one_ms = {0, 1000};
    evtimer_add(t, &one_ms);
    arena_agent *seats[2] = {a, b};
    double t0 = clock_now_ms();
    if (match_start(base, &mc, seats, 2, 7, on_done, NULL, err, sizeof err) != 0)
        fail_msg("%s", err);
    while (!finished)
        event_base_loop(base, EVLOOP_ONCE);
    double took = clock_now_ms() - t0;
    agent_close(a, on_closed, NULL);
    agent_close(b, on_closed, NULL);
    while (closed < 2)
        event_base_loop(base, EVLOOP_ONCE);
    event_free(t);
    event_base_free(base);
    printf("match took %.1f ms\n", took);
    assert_true(took > 5); /* else the test proves nothing */
    assert_true(timer_ran_mid_match);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_timer_runs_while_built_in_bots_play),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
