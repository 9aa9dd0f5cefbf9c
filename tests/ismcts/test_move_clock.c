/* builtin:ismcts keeps within the match's move clock. The referee does not
 * time built-in bots out, so it tells them move_ms (policy set_move_ms) and
 * the search stops at its share of it. Full games through the referee
 * (match_start, as `arena play` runs them); the outcome's longest move of
 * the search bot must stay under move_ms: for the default budget on every
 * game, and for a budget no machine finishes in a move (only the clock can
 * end that search). The bounds leave most of a move for a loaded machine. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <event2/event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtins.h"
#include "clock.h"
#include "match.h"
#include "../timing.h"

#define DEADLINE_MS 120000 /* fail fast rather than hang the suite */

typedef struct done_rec {
    match_outcome o;
    bool done;
} done_rec;

static void on_done(const match_outcome *o, void *ctx)
{
    done_rec *r = ctx;
    r->o = *o;
    r->done = true;
}

static arena_agent *agent(struct event_base *b, const char *game, const char *spec)
{
    agent_config c = {.spec = spec, .game = game, .startup_ms = 10000, .exit_grace_ms = 200};
    agent_limits_default(&c.limits);
    char err[256];
    arena_agent *a = agent_new(b, &c, err, sizeof err);
    if (!a) fail_msg("%s: %s", spec, err);
    return a;
}

/* Plays one game of `search` (seat 0) against `other` with move_ms a move;
 * returns the search bot's longest move in ms. */
static double worst_move(const char *game, const char *search, const char *other,
                         const arena_setting *set, size_t nset, int64_t move_ms)
{
    struct event_base *base = event_base_new();
    arena_agent *ag[2] = {agent(base, game, search), agent(base, game, other)};
    match_config cfg = {.game = arena_find_game(game),
                        .settings = set,
                        .n_settings = nset,
                        .on_fault = FAULT_FORFEIT,
                        .max_strikes = 1};
    assert_non_null(cfg.game);
    clock_config_default(&cfg.clock);
    cfg.clock.move_ms = move_ms;
    done_rec r = {0};
    char err[256];
    if (match_start(base, &cfg, ag, 2, 5, on_done, &r, err, sizeof err) != 0)
        fail_msg("%s: %s", game, err);
    double deadline = clock_now_ms() + DEADLINE_MS;
    while (!r.done) {
        if (clock_now_ms() > deadline)
            fail_msg("%s: game still running after %d ms", game, DEADLINE_MS);
        event_base_loop(base, EVLOOP_ONCE);
    }
    for (int i = 0; i < 2; i++)
        agent_close(ag[i], NULL, NULL);
    event_base_dispatch(base);
    event_base_free(base);
    if (strcmp(r.o.reason, "normal") != 0) fail_msg("%s: %s (%s)", game, r.o.reason, r.o.error);
    assert_true(r.o.decisions[0] > 0);
    printf("%s: %s, %ld decisions, longest %.1f ms of %lld\n", game, search, r.o.decisions[0],
           r.o.move_max_ms[0], (long long)move_ms);
    return r.o.move_max_ms[0];
}

static void test_default_ismcts_stays_within_the_move_clock_in_every_game(void **st)
{
    (void)st;
    arena_setting first_game = {"kingdom", "first-game"};
    assert_timely(worst_move("dominion", "builtin:ismcts", "builtin:bm-with:Smithy", &first_game, 1,
                             1000) < 1000);
    assert_timely(worst_move("pacifica", "builtin:ismcts", "builtin:greedy", NULL, 0, 1000) < 1000);
    assert_timely(worst_move("xibalba", "builtin:ismcts", "builtin:heuristic", NULL, 0, 1000) <
                  1000);
}

static void test_move_clock_ends_a_search_the_budget_would_not(void **st)
{
    (void)st;
    /* 10^8 iterations take hours a move: only the clock (30 % of 700 ms)
     * can end these searches. */
    arena_setting first_game = {"kingdom", "first-game"};
    assert_timely(worst_move("dominion", "builtin:ismcts:100000000", "builtin:bm-with:Smithy",
                             &first_game, 1, 700) < 700);
}

int main(void)
{
    arena_builtins_install();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_default_ismcts_stays_within_the_move_clock_in_every_game),
        cmocka_unit_test(test_move_clock_ends_a_search_the_budget_would_not),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
