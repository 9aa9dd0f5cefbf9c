/* Two matches on one event loop with real agent processes: a hostile agent
 * in one must not stall the other. Match A seats an agent that never sends
 * `join`; match B is two well-behaved bots (random-c speaking JSON) playing
 * a long nim game.
 * B must finish normally before A's startup timeout expires, and A must end
 * in a forfeit with cause timeout. Then the same for every fault of the
 * hostile agent (tests/hostile): each gets its verdict while a normal match
 * shares the loop and finishes normally.
 *
 * Robust on a loaded machine: times are measured with the referee's own
 * clock from before the agents start (spawning blocks), bounds are
 * generous, every wait has a deadline that exits at once instead of
 * hanging, and assertions come only once every agent is closed, so a
 * failure leaves nothing running into the next test.
 * Usage: two-matches RANDOM_C HOSTILE */
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

#include "builtins.h"
#include "clock.h"
#include "match.h"

static const char *random_c, *hostile;
static struct event_base *base;

#define WAIT_LIMIT_MS 60000.0 /* any wait longer than this is a hang */

/* Runs the loop until *count reaches want; a hang exits the binary at once
 * (cmocka cannot recover a loop with agents still on it). */
static void loop_until(const int *count, int want, const char *what)
{
    double deadline = clock_now_ms() + WAIT_LIMIT_MS;
    while (*count < want) {
        if (clock_now_ms() > deadline) {
            fprintf(stderr, "two-matches: %s still not done after %.0f ms\n", what, WAIT_LIMIT_MS);
            exit(1);
        }
        event_base_loop(base, EVLOOP_ONCE);
    }
}

typedef struct done_rec {
    match_outcome o;
    double at;
    int order;
} done_rec;

static int finished;

static void on_done(const match_outcome *o, void *ctx)
{
    done_rec *r = ctx;
    r->o = *o;
    r->at = clock_now_ms();
    r->order = ++finished;
}

static arena_agent *agent(struct event_base *b, const char *spec, int64_t startup)
{
    agent_config c = {.spec = spec, .game = "nim", .startup_ms = startup, .exit_grace_ms = 200};
    agent_limits_default(&c.limits);
    char err[256];
    arena_agent *a = agent_new(b, &c, err, sizeof err);
    if (!a) fail_msg("%s", err);
    return a;
}

/* Match A seats `hostile_spec` (seat 0) against builtin:random, on clock
 * `clk`; match B two JSON bots on a 150-stone nim with a roomy clock. Both
 * run on one loop until they have ended. t0 is taken before any agent
 * starts: the referee times A's join from its spawn. */
typedef struct pair_run {
    arena_agent *agents[4];
    done_rec a, b;
    double t0;
} pair_run;

static void run_beside(const char *hostile_spec, const clock_config *clk, pair_run *r)
{
    struct event_base *b = base;
    char s1[512], s2[512], err[256];
    snprintf(s1, sizeof s1, "cmd:%s --json --seed 1", random_c);
    snprintf(s2, sizeof s2, "cmd:%s --json --seed 2", random_c);
    memset(r, 0, sizeof *r);
    r->t0 = clock_now_ms();
    r->agents[0] = agent(b, hostile_spec, clk->startup_ms);
    r->agents[1] = agent(b, "builtin:random", clk->startup_ms);
    r->agents[2] = agent(b, s1, 10000);
    r->agents[3] = agent(b, s2, 10000);
    match_config mc = {.game = arena_find_game("nim"), .on_fault = FAULT_FORFEIT, .max_strikes = 3};
    mc.clock = *clk;
    arena_setting longer[] = {{"stones", "150"}};
    match_config mc_b = mc;
    mc_b.settings = longer;
    mc_b.n_settings = 1;
    /* B's bots are correct: only a clock no loaded machine misses. */
    mc_b.clock.move_ms = 5000;
    mc_b.clock.bank_ms = 10000;
    mc_b.clock.startup_ms = 10000;
    finished = 0;
    if (match_start(b, &mc, r->agents, 2, 5, on_done, &r->a, err, sizeof err) != 0 ||
        match_start(b, &mc_b, r->agents + 2, 2, 6, on_done, &r->b, err, sizeof err) != 0) {
        fprintf(stderr, "two-matches: %s\n", err);
        exit(1);
    }
    loop_until(&finished, 2, "the two matches");
}

/* The normal match always ends normally, whatever its neighbour did. */
static void assert_b_normal(const pair_run *r)
{
    assert_string_equal(r->b.o.reason, "normal");
    assert_true(r->b.o.decisions[0] + r->b.o.decisions[1] >= 50); /* <= 3 stones a move */
}

static int closed_count;
static void count_closed(void *ctx)
{
    (void)ctx;
    closed_count++;
}

/* Closes all four agents and runs the loop until they are released; returns
 * how long that took. */
static double close_all(pair_run *r)
{
    closed_count = 0;
    double t0 = clock_now_ms();
    for (int i = 0; i < 4; i++)
        agent_close(r->agents[i], count_closed, NULL);
    loop_until(&closed_count, 4, "closing the agents");
    return clock_now_ms() - t0;
}

static void test_hostile_match_does_not_stall_a_normal_one(void **st)
{
    (void)st;
    clock_config clk;
    clock_config_default(&clk);
    clk.startup_ms = 5000; /* B needs well under that even on a loaded machine */
    pair_run r;
    run_beside("cmd:sleep 30", &clk, &r);
    close_all(&r);
    assert_b_normal(&r);
    /* B was done while A still waited for its join. */
    assert_int_equal(r.b.order, 1);
    assert_string_equal(r.a.o.reason, "forfeit");
    assert_int_equal(r.a.o.forfeit[0], CAUSE_TIMEOUT);
    assert_int_equal(r.a.o.ranks[0], 2);
    assert_int_equal(r.a.o.ranks[1], 1);
    /* Never before startup_ms (a millisecond for libevent's coarser
     * monotonic clock); no upper bound: lateness is the machine's. */
    assert_true(r.a.at - r.t0 >= (double)clk.startup_ms - 2);
}

typedef struct fault_case {
    const char *fault;
    const char *reason; /* expected reason of the hostile's match */
    fault_cause cause;  /* expected forfeit cause of seat 0, or CAUSE_NONE */
} fault_case;

static const fault_case cases[] = {
    {"no_join", "forfeit", CAUSE_TIMEOUT},    {"slow", "forfeit", CAUSE_TIMEOUT},
    {"wrong_id", "forfeit", CAUSE_PROTOCOL},  {"illegal", "forfeit", CAUSE_ILLEGAL},
    {"big_frame", "forfeit", CAUSE_PROTOCOL}, {"garbage", "forfeit", CAUSE_PROTOCOL},
    {"crash", "forfeit", CAUSE_CRASH},        {"stderr_flood", "normal", CAUSE_NONE},
    {"ignore_term", "normal", CAUSE_NONE},    {"log_flood", "normal", CAUSE_NONE},
};

/* One hostile fault beside a normal match on the same loop. */
static void test_each_hostile_fault_beside_a_normal_match(void **st)
{
    const fault_case *fc = *st;
    char hspec[512];
    snprintf(hspec, sizeof hspec, "cmd:%s --fault %s", hostile, fc->fault);
    clock_config clk;
    clock_config_default(&clk);
    if (fc->cause == CAUSE_TIMEOUT) { /* the fault is a timeout: make it quick */
        clk.move_ms = 300;
        clk.bank_ms = 300;
        clk.startup_ms = 1000;
    } else { /* any other fault must be found as itself, never as a timeout */
        clk.move_ms = 5000;
        clk.bank_ms = 20000;
        clk.startup_ms = 10000;
    }
    pair_run r;
    run_beside(hspec, &clk, &r);
    double closing = close_all(&r);
    print_message("fault %s: %s, cause %d\n", fc->fault, r.a.o.reason, (int)r.a.o.forfeit[0]);
    assert_b_normal(&r);
    assert_string_equal(r.a.o.reason, fc->reason);
    assert_int_equal(r.a.o.forfeit[0], fc->cause);
    assert_int_equal(r.a.o.forfeit[1], CAUSE_NONE);
    /* Closing reaps everything, the agent that ignores SIGTERM included,
     * within the grace time (200 ms) and a wide margin. */
    assert_true(closing < 5000);
}

/* A `log` of almost 1 MiB with ~120,000 distinct keys: a decoder quadratic
 * in the keys would hold the loop for tens of seconds, timing out the
 * neighbouring match. It is over an agent's PROTO_MAX_VALUES_IN and refused
 * at the first value past it: the sender forfeits for that
 * protocol error (not for a timeout), and the neighbour plays on. The
 * clocks are generous so a loaded machine or a sanitizer build does not
 * matter. */
static void test_many_keys_log_beside_a_normal_match(void **st)
{
    (void)st;
    char hspec[512];
    snprintf(hspec, sizeof hspec, "cmd:%s --fault many_keys", hostile);
    clock_config clk;
    clock_config_default(&clk);
    clk.move_ms = 1000;
    clk.bank_ms = 2000;
    clk.startup_ms = 5000;
    pair_run r;
    run_beside(hspec, &clk, &r);
    assert_string_equal(r.a.o.reason, "forfeit");
    assert_int_equal(r.a.o.forfeit[0], CAUSE_PROTOCOL);
    assert_non_null(strstr(r.a.o.fault_message[0], "more than 1024 values"));
    assert_int_equal(r.a.o.forfeit[1], CAUSE_NONE);
    assert_b_normal(&r);
    close_all(&r);
}

int main(int argc, char **argv)
{
    arena_builtins_install();
    if (argc < 3) {
        fprintf(stderr, "usage: two-matches RANDOM_C HOSTILE\n");
        return 2;
    }
    random_c = argv[1];
    hostile = argv[2];
    signal(SIGPIPE, SIG_IGN);
    base = event_base_new();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hostile_match_does_not_stall_a_normal_one),
#define FAULT_TEST(i)                                                                              \
    cmocka_unit_test_prestate(test_each_hostile_fault_beside_a_normal_match, (void *)&cases[i])
        FAULT_TEST(0),
        FAULT_TEST(1),
        FAULT_TEST(2),
        FAULT_TEST(3),
        FAULT_TEST(4),
        FAULT_TEST(5),
        FAULT_TEST(6),
        FAULT_TEST(7),
        FAULT_TEST(8),
        FAULT_TEST(9),
        cmocka_unit_test(test_many_keys_log_beside_a_normal_match),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    event_base_free(base);
    return rc;
}
