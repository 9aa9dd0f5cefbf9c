/* An agent that closes its stdout and lives on (tests/hostile: close_linger)
 * must not stall the event loop while the referee waits up to EXIT_WAIT_MS
 * for its exit to name the crash: every other match on the loop would stop
 * that long, once per game such an entrant plays.
 *
 * ROUNDS matches run one after another on one loop, each the hostile
 * against builtin:random; a ticker (a 1 ms timer, standing for any other
 * match) measures, between two of its runs, how long this thread slept
 * voluntarily: wall time less its CPU time and its run-queue wait
 * (schedstat). A loaded machine delays the loop by preemption, which is run-
 * queue wait, not sleep; a loop that sleeps in a callback is blocked. The
 * ticker's own sleep in epoll is a few ms at most. So the check holds on a
 * loaded machine: no gap of BLOCK_MS or more. It also checks, by order, that
 * the ticker ran while each hostile's verdict was pending, and that the
 * verdict and its text are those of an agent whose process still ran.
 * Usage: exit-wait HOSTILE */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <event2/event.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "builtins.h"
#include "clock.h"
#include "match.h"
#include "runner.h" /* agent_ending: whether a verdict is pending */
#include "../timing.h"

#define ROUNDS 5
#define BLOCK_MS 15.0 /* a sleep this long inside a callback: the loop was blocked */
#define WAIT_LIMIT_MS 60000.0

static const char *hostile;
static struct event_base *base;

static double thread_cpu_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* The ticker: how often the loop slept BLOCK_MS or more between two of its
 * runs, and how often it ran while a hostile's verdict was pending. */
typedef struct ticker {
    struct event *ev;
    double wall, cpu, wait; /* at its last run */
    int ticks, blocks;
    double blocked_ms, worst_ms;
    arena_agent *watch[ROUNDS];
    int ticks_pending[ROUNDS];
} ticker;

static void ticker_sample(ticker *t, double *wall, double *cpu, double *wait)
{
    *wall = clock_now_ms();
    *cpu = thread_cpu_ms();
    *wait = timing_run_delay_ms();
    (void)t;
}

static void on_tick(evutil_socket_t fd, short what, void *arg)
{
    (void)fd, (void)what;
    ticker *t = arg;
    double wall, cpu, wait;
    ticker_sample(t, &wall, &cpu, &wait);
    double slept = (wall - t->wall) - (cpu - t->cpu) - (wait - t->wait);
    if (slept > t->worst_ms) t->worst_ms = slept;
    if (slept >= BLOCK_MS) {
        t->blocks++;
        t->blocked_ms += slept;
    }
    for (int i = 0; i < ROUNDS; i++)
        if (t->watch[i] && agent_ending(t->watch[i])) t->ticks_pending[i]++;
    t->wall = wall, t->cpu = cpu, t->wait = wait;
    t->ticks++;
    struct timeval ms = {0, 1000};
    event_add(t->ev, &ms);
}

static void loop_until(const int *count, int want, const char *what)
{
    double deadline = clock_now_ms() + WAIT_LIMIT_MS;
    while (*count < want) {
        if (clock_now_ms() > deadline) {
            fprintf(stderr, "exit-wait: %s still not done after %.0f ms\n", what, WAIT_LIMIT_MS);
            exit(1);
        }
        event_base_loop(base, EVLOOP_ONCE);
    }
}

static int finished;
static match_outcome outcomes[ROUNDS];

static void on_done(const match_outcome *o, void *ctx)
{
    *(match_outcome *)ctx = *o;
    finished++;
}

static int closed_count;
static void count_closed(void *ctx)
{
    (void)ctx;
    closed_count++;
}

static arena_agent *agent(const char *spec)
{
    agent_config c = {.spec = spec, .game = "nim", .startup_ms = 20000, .exit_grace_ms = 200};
    agent_limits_default(&c.limits);
    char err[256];
    arena_agent *a = agent_new(base, &c, err, sizeof err);
    if (!a) fail_msg("%s", err);
    return a;
}

static void test_closed_output_does_not_block_the_loop(void **st)
{
    (void)st;
    char spec[512];
    snprintf(spec, sizeof spec, "cmd:%s --fault close_linger", hostile);
    arena_agent *agents[ROUNDS][2];
    /* Every process starts before the ticker looks: a fork may sleep. */
    for (int i = 0; i < ROUNDS; i++) {
        agents[i][0] = agent(spec);
        agents[i][1] = agent("builtin:random");
    }
    ticker t = {0};
    t.ev = evtimer_new(base, on_tick, &t);
    ticker_sample(&t, &t.wall, &t.cpu, &t.wait);
    struct timeval ms = {0, 1000};
    event_add(t.ev, &ms);
    clock_config clk;
    clock_config_default(&clk);
    clk.move_ms = 20000; /* no verdict here is a timeout */
    clk.bank_ms = 20000;
    clk.startup_ms = 20000;
    match_config mc = {.game = arena_find_game("nim"), .on_fault = FAULT_FORFEIT, .max_strikes = 3};
    mc.clock = clk;
    finished = 0;
    for (int i = 0; i < ROUNDS; i++) { /* one at a time: each EOF on its own */
        char err[256];
        t.watch[i] = agents[i][0];
        if (match_start(base, &mc, agents[i], 2, (uint64_t)(7 + i), on_done, &outcomes[i], err,
                        sizeof err) != 0)
            fail_msg("%s", err);
        loop_until(&finished, i + 1, "a hostile's match");
        t.watch[i] = NULL;
        int next = t.ticks + 1; /* a stall at the match's end shows at the next tick */
        loop_until(&t.ticks, next, "the ticker");
    }
    event_free(t.ev);
    closed_count = 0;
    for (int i = 0; i < ROUNDS; i++) {
        agent_close(agents[i][0], count_closed, NULL);
        agent_close(agents[i][1], count_closed, NULL);
    }
    loop_until(&closed_count, 2 * ROUNDS, "closing the agents");

    int pending_seen = 0;
    for (int i = 0; i < ROUNDS; i++) {
        pending_seen += t.ticks_pending[i] > 0;
        assert_string_equal(outcomes[i].reason, "forfeit");
        assert_int_equal(outcomes[i].forfeit[0], CAUSE_CRASH);
        assert_int_equal(outcomes[i].forfeit[1], CAUSE_NONE);
        assert_string_equal(outcomes[i].fault_message[0],
                            "the agent closed its output (EOF); its process was still running");
    }
    print_message("%d rounds: %d blocks of the loop >= %.0f ms (%.1f ms in all, worst sleep "
                  "%.1f ms); the ticker ran during %d of %d pending verdicts\n",
                  ROUNDS, t.blocks, BLOCK_MS, t.blocked_ms, t.worst_ms, pending_seen, ROUNDS);
    /* A sleep, not a delay: preemption is run-queue wait, so this holds
     * under load. */
    assert_timely(t.blocks == 0);
    /* The loop ran on while each verdict waited: the ticker's timer is due
     * before the wait's own (ordering, not time). */
    assert_int_equal(pending_seen, ROUNDS);
}

int main(int argc, char **argv)
{
    arena_builtins_install();
    if (argc < 2) {
        fprintf(stderr, "usage: exit-wait HOSTILE\n");
        return 2;
    }
    hostile = argv[1];
    signal(SIGPIPE, SIG_IGN);
    base = event_base_new();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_closed_output_does_not_block_the_loop),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    event_base_free(base);
    return rc;
}
