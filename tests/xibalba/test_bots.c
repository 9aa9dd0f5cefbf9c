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

/* Counts turn_start events, so the test sees every turn that began. */
static bool count_turn_starts(const arena_game *g, void *ctx, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    long *starts = ctx;
    starts[0] = 0;
    size_t n = g->vt->event_count(g);
    for (size_t i = 0; i < n; i++) {
        const char *type = av_get_str(g->vt->event(g, i, -1), "type");
        if (type && strcmp(type, "turn_start") == 0) starts[0]++;
    }
    return true;
}

/* Rule: `turns` counts every turn played, the one in which the game ended
 * included (4-player Apocalypse, seed 40: three turns start, so 3, not 2). */
static void turns_count_the_turn_the_game_ended_in(void **state)
{
    (void)state;
    const char *modes[2] = {"normal", "apocalypse"};
    for (int players = 2; players <= 4; players++)
        for (int m = 0; m < 2; m++)
            for (uint64_t seed = 0; seed < 60; seed++) {
                const char *pol[4] = {"heuristic", "heuristic", "heuristic", "heuristic"};
                arena_setting set[1] = {{"mode", modes[m]}};
                long starts = 0;
                arena_selfplay_opts o = {.settings = set,
                                         .n_settings = 1,
                                         .seed = seed,
                                         .players = players,
                                         .check = count_turn_starts,
                                         .check_ctx = &starts};
                arena_selfplay_stats st;
                char err[256];
                if (arena_selfplay(&xibalba_game, pol, &o, &st, err, sizeof err) != 0)
                    fail_msg("%s", err);
                if (st.result.turns != starts)
                    fail_msg("%dp %s seed %llu: %ld turns started, result says %d", players,
                             modes[m], (unsigned long long)seed, starts, st.result.turns);
            }
}

int main(void)
{
    arena_builtins_install();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(heuristic_plays_legal_2p_3p),
        cmocka_unit_test(turns_count_the_turn_the_game_ended_in),
        cmocka_unit_test(heuristic_beats_random_4p),
        cmocka_unit_test(heuristic_beats_random_4p_apocalypse),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
