/* Two matches on one event loop with real agent processes: a hostile agent
 * in one must not stall the other. Match A seats an agent that never sends
 * `join`; match B is two well-behaved JSON bots playing a long nim game.
 * B must finish normally before A's startup timeout expires, and A must end
 * in a forfeit with cause timeout. Then the same for every fault of the
 * hostile agent (tests/hostile): each gets its verdict while a normal match
 * shares the loop and finishes normally.
 * Usage: two-matches JSON_BOT HOSTILE */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <event2/event.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "clock.h"
#include "match.h"

static const char *json_bot, *hostile;
static struct event_base *base;

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

/* Match A seats `hostile_spec` (seat 0) against builtin:random; match B two
 * JSON bots on a 300-stone nim. Both run on one loop until they have ended. */
typedef struct pair_run {
    arena_agent *agents[4];
    done_rec a, b;
    double t0;
} pair_run;

static void run_beside(const char *hostile_spec, const clock_config *clk, pair_run *r)
{
    struct event_base *b = base;
    char s1[512], s2[512], err[256];
    snprintf(s1, sizeof s1, "cmd:%s 1", json_bot);
    snprintf(s2, sizeof s2, "cmd:%s 2", json_bot);
    memset(r, 0, sizeof *r);
    r->agents[0] = agent(b, hostile_spec, clk->startup_ms);
    r->agents[1] = agent(b, "builtin:random", clk->startup_ms);
    r->agents[2] = agent(b, s1, 5000);
    r->agents[3] = agent(b, s2, 5000);
    match_config mc = {.game = arena_find_game("nim"), .on_fault = FAULT_FORFEIT, .max_strikes = 3};
    mc.clock = *clk;
    arena_setting longer[] = {{"stones", "300"}};
    match_config mc_b = mc;
    mc_b.settings = longer;
    mc_b.n_settings = 1;
    finished = 0;
    r->t0 = clock_now_ms();
    assert_int_equal(match_start(b, &mc, r->agents, 2, 5, on_done, &r->a, err, sizeof err), 0);
    assert_int_equal(match_start(b, &mc_b, r->agents + 2, 2, 6, on_done, &r->b, err, sizeof err),
                     0);
    while (finished < 2)
        event_base_loop(b, EVLOOP_ONCE);
    /* The normal match always ends normally, whatever its neighbour did. */
    assert_string_equal(r->b.o.reason, "normal");
    assert_true(r->b.o.decisions[0] + r->b.o.decisions[1] >= 100); /* <= 3 stones a move */
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
    event_base_dispatch(base);
    assert_int_equal(closed_count, 4);
    return clock_now_ms() - t0;
}

static void test_hostile_match_does_not_stall_a_normal_one(void **st)
{
    (void)st;
    clock_config clk;
    clock_config_default(&clk);
    clk.startup_ms = 1500;
    pair_run r;
    run_beside("cmd:sleep 30", &clk, &r);
    assert_int_equal(r.b.order, 1);
    assert_true(r.b.at - r.t0 < 1500); /* done while A still waits for its join */
    assert_string_equal(r.a.o.reason, "forfeit");
    assert_int_equal(r.a.o.forfeit[0], CAUSE_TIMEOUT);
    assert_int_equal(r.a.o.ranks[0], 2);
    assert_int_equal(r.a.o.ranks[1], 1);
    assert_true(r.a.at - r.t0 >= 1400);
    close_all(&r);
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
    {"ignore_term", "normal", CAUSE_NONE},
};

/* One hostile fault beside a normal match on the same loop. */
static void test_each_hostile_fault_beside_a_normal_match(void **st)
{
    const fault_case *fc = *st;
    char hspec[512];
    snprintf(hspec, sizeof hspec, "cmd:%s --fault %s", hostile, fc->fault);
    clock_config clk;
    clock_config_default(&clk);
    clk.move_ms = 300;
    clk.bank_ms = 300;
    clk.startup_ms = 1000;
    pair_run r;
    run_beside(hspec, &clk, &r);
    assert_string_equal(r.a.o.reason, fc->reason);
    assert_int_equal(r.a.o.forfeit[0], fc->cause);
    assert_int_equal(r.a.o.forfeit[1], CAUSE_NONE);
    /* Closing reaps everything, the agent that ignores SIGTERM included,
     * within the grace time (200 ms) and a margin. */
    assert_true(close_all(&r) < 3000);
}

/* A legal `log` of almost 1 MiB with ~120,000 distinct keys: decoding it
 * must not hold the loop long enough to time out the neighbouring match,
 * nor the sender itself (its message was legal). The clocks are generous so
 * a loaded machine or a sanitizer build does not matter: the decoder used to
 * be quadratic in the keys and took tens of seconds. */
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
    assert_string_equal(r.a.o.reason, "normal");
    assert_int_equal(r.a.o.forfeit[0], CAUSE_NONE);
    assert_int_equal(r.a.o.forfeit[1], CAUSE_NONE);
    assert_true(r.a.o.decisions[0] >= 1);
    close_all(&r);
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: two-matches JSON_BOT HOSTILE\n");
        return 2;
    }
    json_bot = argv[1];
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
        cmocka_unit_test(test_many_keys_log_beside_a_normal_match),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    event_base_free(base);
    return rc;
}
