/* Random self-play fuzz with invariants after every decision, determinism of
 * whole games (events and views byte for byte), and clone independence. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <cmocka.h>

#include "builtins.h"
#include "selfplay.h"
#include "util.h"
#include "xb_test.h"

static long env_long(const char *name, long dflt)
{
    const char *v = getenv(name);
    return v && *v ? strtol(v, NULL, 10) : dflt;
}

static void fuzz_games(void **state)
{
    (void)state;
    long games = env_long("XB_FUZZ_GAMES", 10000);
    static const char *const pol[] = {"random", "random", "random", "random"};
    long over_by_target = 0, decisions = 0, calls = 0;
    for (long i = 0; i < games; i++) {
        int players = 2 + (int)(i % 3);
        arena_setting set[1] = {{"mode", (i / 3) % 2 ? "apocalypse" : "normal"}};
        arena_selfplay_opts o = {.settings = set,
                                 .n_settings = 1,
                                 .seed = 0x5eed0000u + (uint64_t)i,
                                 .players = players,
                                 .flags = ARENA_GAME_NO_EVENTS,
                                 .max_decisions = 2000000,
                                 .check = xb_check_invariants,
                                 .check_ctx = &calls};
        arena_selfplay_stats st;
        char err[256];
        int rc = arena_selfplay(&xibalba_game, pol, &o, &st, err, sizeof err);
        if (rc != 0) fail_msg("game %ld (%dp, %s): %s", i, players, set[0].value, err);
        assert_true(st.result.over);
        decisions += st.decisions;
        int firsts = 0;
        for (int s = 0; s < players; s++)
            firsts += st.result.ranks[s] == 1;
        assert_true(firsts >= 1);
        if (st.result.turns < 100 * players) over_by_target++;
    }
    print_message("fuzz: %ld games, %ld decisions, %ld ended at the target\n", games, decisions,
                  over_by_target);
    /* random play must still reach the target in most games */
    assert_true(over_by_target * 2 > games);
}

/* Plays a whole game with random choices drawn from a seeded rng; returns the
 * concatenated JSON of all events and the final omniscient view. */
static char *play_log(uint64_t seed, int players, const char *mode)
{
    arena_setting set[1] = {{"mode", mode}};
    char err[256];
    arena_game *g = xibalba_game.create(set, 1, seed, players, 0, err, sizeof err);
    assert_non_null(g);
    arena_rng r;
    arena_rng_seed(&r, seed ^ 77);
    arena_decision d;
    int choice[XB_OPT_MAX];
    abuf b = {0};
    char label[128];
    while (xibalba_game.decision(g, &d)) {
        for (int i = 0; i < d.n_options; i++) {
            xibalba_game.label(g, i, label, sizeof label);
            abuf_adds(&b, label);
            abuf_addc(&b, ',');
        }
        int n = arena_random_choice(&r, &d, choice);
        assert_true(xibalba_game.apply(g, choice, n));
    }
    for (size_t i = 0; i < xibalba_game.event_count(g); i++) {
        char *j = av_to_json(xibalba_game.event(g, i, -1));
        abuf_adds(&b, j);
        free(j);
    }
    av *v = game_view(g, -1);
    char *j = av_to_json(v);
    abuf_adds(&b, j);
    free(j);
    av_free(v);
    game_free(g);
    abuf_addc(&b, '\0');
    return (char *)b.data;
}

static void determinism(void **state)
{
    (void)state;
    for (int players = 2; players <= 4; players++) {
        char *a = play_log(1234 + (uint64_t)players, players, "normal");
        char *b = play_log(1234 + (uint64_t)players, players, "normal");
        assert_string_equal(a, b);
        char *c = play_log(999 + (uint64_t)players, players, "normal");
        assert_true(strcmp(a, c) != 0);
        free(a), free(b), free(c);
    }
    char *a = play_log(42, 3, "apocalypse"), *b = play_log(42, 3, "apocalypse");
    assert_string_equal(a, b);
    free(a), free(b);
}

/* Events on or off must not change the game. */
static void no_events_same_game(void **state)
{
    (void)state;
    static const char *const pol[] = {"random", "random", "random"};
    arena_selfplay_stats s1, s2;
    char err[256];
    arena_selfplay_opts o = {.seed = 31337, .players = 3};
    assert_int_equal(arena_selfplay(&xibalba_game, pol, &o, &s1, err, sizeof err), 0);
    o.flags = ARENA_GAME_NO_EVENTS;
    assert_int_equal(arena_selfplay(&xibalba_game, pol, &o, &s2, err, sizeof err), 0);
    assert_int_equal(s1.decisions, s2.decisions);
    assert_memory_equal(s1.result.scores, s2.result.scores, sizeof s1.result.scores);
}

static void clone_independent(void **state)
{
    (void)state;
    char err[256];
    arena_game *g = xibalba_game.create(NULL, 0, 5, 4, 0, err, sizeof err);
    assert_non_null(g);
    arena_game *c = xibalba_game.clone(g);
    assert_int_equal(xibalba_game.event_count(c), 0);
    av *v1 = game_view(g, -1);
    arena_rng r;
    arena_rng_seed(&r, 1);
    arena_decision d;
    int choice[XB_OPT_MAX];
    for (int k = 0; k < 50 && xibalba_game.decision(c, &d); k++) {
        int n = arena_random_choice(&r, &d, choice);
        assert_true(xibalba_game.apply(c, choice, n));
    }
    av *v2 = game_view(g, -1);
    assert_true(av_equal(v1, v2));
    av_free(v1), av_free(v2);
    game_free(c);
    game_free(g);
}

/* A minimal card file: decks run dry, market slots stay empty, discard
 * piles are reshuffled all the time. */
static void fuzz_tiny_card_file(void **state)
{
    (void)state;
    char path[] = "/tmp/xb-tiny-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fprintf(
        f, "soldier name=S cost=1 phase=action effect=attack_str arg=1 str=2 res=2 par=2 copies=3\n"
           "civilian name=C cost=1 phase=effect effect=gain_res arg=1\n"
           "building name=B cost=2 phase=action effect=forge arg=1\n"
           "event name=E cost=1 effect=ev_sabotage\n");
    fclose(f);
    static const char *const pol[] = {"random", "random", "heuristic", "random"};
    long calls = 0;
    for (long i = 0; i < 300; i++) {
        arena_setting set[2] = {{"cards", path}, {"mode", i % 2 ? "apocalypse" : "normal"}};
        arena_selfplay_opts o = {.settings = set,
                                 .n_settings = 2,
                                 .seed = (uint64_t)i,
                                 .players = 2 + (int)(i % 3),
                                 .flags = ARENA_GAME_NO_EVENTS,
                                 .max_decisions = 2000000,
                                 .check = xb_check_invariants,
                                 .check_ctx = &calls};
        arena_selfplay_stats st;
        char err[256];
        if (arena_selfplay(&xibalba_game, pol, &o, &st, err, sizeof err) != 0)
            fail_msg("game %ld: %s", i, err);
        assert_true(st.result.over);
    }
    unlink(path);
}

int main(void)
{
    arena_builtins_install();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(determinism),       cmocka_unit_test(no_events_same_game),
        cmocka_unit_test(clone_independent), cmocka_unit_test(fuzz_tiny_card_file),
        cmocka_unit_test(fuzz_games),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
