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

static void on_closed(void *ctx)
{
    (void)ctx;
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

static void test_hostile_match_does_not_stall_a_normal_one(void **st)
{
    (void)st;
    signal(SIGPIPE, SIG_IGN);
    struct event_base *b = event_base_new();
    char spec[512];
    snprintf(spec, sizeof spec, "cmd:%s 1", json_bot);
    char spec2[512];
    snprintf(spec2, sizeof spec2, "cmd:%s 2", json_bot);
    arena_agent *silent = agent(b, "cmd:sleep 30", 1500);
    arena_agent *rnd = agent(b, "builtin:random", 1500);
    arena_agent *p1 = agent(b, spec, 5000), *p2 = agent(b, spec2, 5000);

    match_config mc = {.game = arena_find_game("nim"), .on_fault = FAULT_FORFEIT, .max_strikes = 3};
    clock_config_default(&mc.clock);
    mc.clock.startup_ms = 1500;
    arena_setting longer[] = {{"stones", "300"}};
    match_config mc_b = mc;
    mc_b.settings = longer;
    mc_b.n_settings = 1;
    done_rec ra = {0}, rb = {0};
    char err[256];
    double t0 = clock_now_ms();
    arena_agent *sa[] = {silent, rnd}, *sb[] = {p1, p2};
    assert_int_equal(match_start(b, &mc, sa, 2, 1, on_done, &ra, err, sizeof err), 0);
    assert_int_equal(match_start(b, &mc_b, sb, 2, 2, on_done, &rb, err, sizeof err), 0);
    while (finished < 2)
        event_base_loop(b, EVLOOP_ONCE);

    assert_string_equal(rb.o.reason, "normal");
    assert_true(rb.o.decisions[0] + rb.o.decisions[1] >= 100); /* 300 stones, <= 3 a move */
    assert_int_equal(rb.order, 1);
    assert_true(rb.at - t0 < 1500); /* done while A still waits for its join */
    assert_string_equal(ra.o.reason, "forfeit");
    assert_int_equal(ra.o.forfeit[0], CAUSE_TIMEOUT);
    assert_int_equal(ra.o.ranks[0], 2);
    assert_int_equal(ra.o.ranks[1], 1);
    assert_true(ra.at - t0 >= 1400);

    arena_agent *all[] = {silent, rnd, p1, p2};
    for (int i = 0; i < 4; i++)
        agent_close(all[i], on_closed, NULL);
    event_base_dispatch(b);
    event_base_free(b);
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

static int closed_count;
static void count_closed(void *ctx)
{
    (void)ctx;
    closed_count++;
}

/* One hostile fault beside a normal match on the same loop. */
static void test_each_hostile_fault_beside_a_normal_match(void **st)
{
    const fault_case *fc = *st;
    struct event_base *b = event_base_new();
    char hspec[512], s1[512], s2[512];
    snprintf(hspec, sizeof hspec, "cmd:%s --fault %s", hostile, fc->fault);
    snprintf(s1, sizeof s1, "cmd:%s 1", json_bot);
    snprintf(s2, sizeof s2, "cmd:%s 2", json_bot);
    arena_agent *h = agent(b, hspec, 1000), *rnd = agent(b, "builtin:random", 1000);
    arena_agent *p1 = agent(b, s1, 5000), *p2 = agent(b, s2, 5000);
    match_config mc = {.game = arena_find_game("nim"), .on_fault = FAULT_FORFEIT, .max_strikes = 3};
    clock_config_default(&mc.clock);
    mc.clock.move_ms = 300;
    mc.clock.bank_ms = 300;
    mc.clock.startup_ms = 1000;
    arena_setting longer[] = {{"stones", "300"}};
    match_config mc_b = mc;
    mc_b.settings = longer;
    mc_b.n_settings = 1;
    done_rec ra = {0}, rb = {0};
    char err[256];
    finished = 0;
    arena_agent *sa[] = {h, rnd}, *sb[] = {p1, p2};
    assert_int_equal(match_start(b, &mc, sa, 2, 5, on_done, &ra, err, sizeof err), 0);
    assert_int_equal(match_start(b, &mc_b, sb, 2, 6, on_done, &rb, err, sizeof err), 0);
    while (finished < 2)
        event_base_loop(b, EVLOOP_ONCE);

    assert_string_equal(rb.o.reason, "normal");
    assert_true(rb.o.decisions[0] + rb.o.decisions[1] >= 100);
    assert_string_equal(ra.o.reason, fc->reason);
    assert_int_equal(ra.o.forfeit[0], fc->cause);
    assert_int_equal(ra.o.forfeit[1], CAUSE_NONE);

    /* Closing reaps everything, the agent that ignores SIGTERM included,
     * within the grace time (200 ms) and a margin. */
    closed_count = 0;
    double t0 = clock_now_ms();
    arena_agent *all[] = {h, rnd, p1, p2};
    for (int i = 0; i < 4; i++)
        agent_close(all[i], count_closed, NULL);
    event_base_dispatch(b);
    assert_int_equal(closed_count, 4);
    assert_true(clock_now_ms() - t0 < 3000);
    event_base_free(b);
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: two-matches JSON_BOT HOSTILE\n");
        return 2;
    }
    json_bot = argv[1];
    hostile = argv[2];
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
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
