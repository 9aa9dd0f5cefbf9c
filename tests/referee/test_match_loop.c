/* The loop matches run on (match_loop_new) keeps polling while built-in
 * bots play: a match of built-in bots never waits for I/O, and on a plain
 * libevent loop its steps would starve every pipe, clock, heartbeat and
 * signal until it ended. And a match refuses to time an agent over TCP by
 * its CPU. */
#include <arpa/inet.h>
#include <event2/event.h>
#include <netinet/in.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cmocka.h>

#include "builtins.h"
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

static void close_both(struct event_base *base, arena_agent *a, arena_agent *b)
{
    closed = 0;
    agent_close(a, on_closed, NULL);
    agent_close(b, on_closed, NULL);
    while (closed < 2)
        event_base_loop(base, EVLOOP_ONCE);
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
    close_both(base, a, b);
    event_free(t);
    event_base_free(base);
    printf("match took %.1f ms\n", took);
    assert_true(took > 5); /* else the test proves nothing */
    assert_true(timer_ran_mid_match);
}

/* The commands refuse --clock cpu with a tcp: agent up front (runopts.h);
 * match_start refuses it too, for a worker whose host maps an agent to a
 * tcp: spec. Its CPU would count as none at all. */
static void cpu_clock_refuses_a_tcp_agent(void **st)
{
    (void)st;
    int ls = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in sa = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t len = sizeof sa;
    assert_int_equal(bind(ls, (struct sockaddr *)&sa, sizeof sa), 0);
    assert_int_equal(listen(ls, 1), 0);
    assert_int_equal(getsockname(ls, (struct sockaddr *)&sa, &len), 0);
    char spec[64], err[256];
    snprintf(spec, sizeof spec, "tcp:127.0.0.1:%d", ntohs(sa.sin_port));
    struct event_base *base = match_loop_new();
    agent_config c = {.spec = spec, .game = "nim", .startup_ms = 1000};
    agent_limits_default(&c.limits);
    arena_agent *a = agent_new(base, &c, err, sizeof err);
    if (!a) fail_msg("%s", err);
    c.spec = "builtin:random";
    arena_agent *b = agent_new(base, &c, err, sizeof err);
    assert_non_null(b);
    match_config mc = {.game = arena_find_game("nim")};
    clock_config_default(&mc.clock);
    mc.clock.mode = CLOCK_CPU;
    arena_agent *seats[2] = {a, b};
    err[0] = 0;
    assert_int_equal(match_start(base, &mc, seats, 2, 7, on_done, NULL, err, sizeof err), -1);
    assert_non_null(strstr(err, "--clock cpu cannot time an agent over TCP"));
    close_both(base, a, b);
    event_base_free(base);
    close(ls);
}

int main(void)
{
    arena_builtins_install();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_timer_runs_while_built_in_bots_play),
        cmocka_unit_test(cpu_clock_refuses_a_tcp_agent),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
