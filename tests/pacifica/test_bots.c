/* Bot strength: builtin:greedy must beat builtin:random in at least 90% of
 * 1,000 seeded games (seats alternate). PACIFICA_BOT_GAMES overrides the
 * count. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h>

#include "builtins.h"
#include "games/pacifica/pacifica.h"
#include "selfplay.h"

static void test_greedy_beats_random(void **state)
{
    (void)state;
    const char *env = getenv("PACIFICA_BOT_GAMES");
    long games = env && *env ? strtol(env, NULL, 10) : 1000;
    long wins = 0, turns = 0;
    for (long i = 0; i < games; i++) {
        int gs = (int)(i % 2); /* greedy's seat */
        const char *pols[2] = {gs == 0 ? "greedy" : "random", gs == 0 ? "random" : "greedy"};
        arena_selfplay_opts o = {.seed = 7000 + (uint64_t)i,
                                 .players = 2,
                                 .flags = ARENA_GAME_NO_EVENTS,
                                 .max_decisions = 200000};
        arena_selfplay_stats st;
        char err[256];
        if (arena_selfplay(&pacifica_game, pols, &o, &st, err, sizeof err) != 0)
            fail_msg("seed %ld: %s", 7000 + i, err);
        if (st.result.ranks[gs] == 1 && st.result.ranks[1 - gs] == 2) wins++;
        turns += st.result.turns;
    }
    double rate = (double)wins / (double)games;
    print_message("greedy beat random in %ld of %ld games (%.1f%%), %.1f turns per game\n", wins,
                  games, 100 * rate, (double)turns / (double)games);
    assert_true(rate >= 0.90);
}

static void test_greedy_is_deterministic(void **state)
{
    (void)state;
    const char *pols[2] = {"greedy", "greedy"};
    arena_result r[2];
    long dec[2];
    for (int k = 0; k < 2; k++) {
        arena_selfplay_opts o = {.seed = 99, .players = 2, .max_decisions = 200000};
        arena_selfplay_stats st;
        char err[256];
        assert_int_equal(arena_selfplay(&pacifica_game, pols, &o, &st, err, sizeof err), 0);
        r[k] = st.result;
        dec[k] = st.decisions;
    }
    assert_int_equal(dec[0], dec[1]);
    assert_memory_equal(&r[0], &r[1], sizeof r[0]);
    assert_true(r[0].over);
}

int main(void)
{
    arena_builtins_install();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_greedy_is_deterministic),
        cmocka_unit_test(test_greedy_beats_random),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
