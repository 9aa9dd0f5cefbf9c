/* Bot strength: builtin:heuristic against three builtin:random bots in
 * 4-player games, rotating its seat. It "wins" a game when it ranks first
 * alone; the issue asks for at least 80%. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>

#include <cmocka.h>

#include "builtins.h"
#include "selfplay.h"
#include "xb_test.h"

static long env_long(const char *name, long dflt)
{
    const char *v = getenv(name);
    return v && *v ? strtol(v, NULL, 10) : dflt;
}

static void run(const char *mode, long games, double need)
{
    long wins = 0;
    for (long i = 0; i < games; i++) {
        int seat = (int)(i % 4);
        const char *pol[4] = {"random", "random", "random", "random"};
        pol[seat] = "heuristic";
        arena_setting set[1] = {{"mode", mode}};
        arena_selfplay_opts o = {.settings = set,
                                 .n_settings = 1,
                                 .seed = 0xb075u + (uint64_t)i,
                                 .players = 4,
                                 .flags = ARENA_GAME_NO_EVENTS,
                                 .check = xb_check_invariants};
        arena_selfplay_stats st;
        char err[256];
        if (arena_selfplay(&xibalba_game, pol, &o, &st, err, sizeof err) != 0)
            fail_msg("game %ld: %s", i, err);
        bool alone = st.result.ranks[seat] == 1;
        for (int s = 0; s < 4; s++)
            if (s != seat && st.result.ranks[s] == 1) alone = false;
        wins += alone;
    }
    double rate = (double)wins / (double)games;
    print_message("heuristic vs 3x random (%s): first alone in %ld/%ld = %.1f%%\n", mode, wins,
                  games, 100.0 * rate);
    assert_true(rate >= need);
}

static void heuristic_beats_random_4p(void **state)
{
    (void)state;
    run("normal", env_long("XB_BOT_GAMES", 400), 0.80);
}

static void heuristic_beats_random_4p_apocalypse(void **state)
{
    (void)state;
    run("apocalypse", env_long("XB_BOT_GAMES", 400) / 2, 0.80);
}

static void heuristic_plays_legal_2p_3p(void **state)
{
    (void)state;
    for (int players = 2; players <= 3; players++)
        for (uint64_t seed = 0; seed < 20; seed++) {
            const char *pol[3] = {"heuristic", "heuristic", "random"};
            arena_selfplay_opts o = {.seed = seed,
                                     .players = players,
                                     .flags = ARENA_GAME_NO_EVENTS,
                                     .check = xb_check_invariants};
            arena_selfplay_stats st;
            char err[256];
            if (arena_selfplay(&xibalba_game, pol, &o, &st, err, sizeof err) != 0)
                fail_msg("%s", err);
            assert_true(st.result.over);
        }
}

int main(void)
{
    arena_builtins_install();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(heuristic_plays_legal_2p_3p),
        cmocka_unit_test(heuristic_beats_random_4p),
        cmocka_unit_test(heuristic_beats_random_4p_apocalypse),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
