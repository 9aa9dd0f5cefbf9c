/* Two matches on one event loop with real agent processes: a hostile agent
 * in one must not stall the other. Match A seats an agent that never sends
 * `join`; match B is two well-behaved JSON bots playing a long nim game.
 * B must finish normally before A's startup timeout expires, and A must end
 * in a forfeit with cause timeout. Usage: two-matches JSON_BOT */
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

static const char *json_bot;

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

static void on_closed(void *ctx) { (void)ctx; }

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

    match_config mc = {.game = arena_find_game("nim"), .on_fault = FAULT_FORFEIT,
                       .max_strikes = 3};
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
    while (finished < 2) event_base_loop(b, EVLOOP_ONCE);

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
    for (int i = 0; i < 4; i++) agent_close(all[i], on_closed, NULL);
    event_base_dispatch(b);
    event_base_free(b);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: two-matches JSON_BOT\n");
        return 2;
    }
    json_bot = argv[1];
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hostile_match_does_not_stall_a_normal_one),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
