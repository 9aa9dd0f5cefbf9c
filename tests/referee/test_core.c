/* The game-interface helpers, built-in policy lookup, self-play, and the
 * shared command-line options, exercised on the test game (nim). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "builtins.h"
#include "game.h"
#include "policy.h"
#include "runopts.h"
#include "selfplay.h"

static void test_check_choice_counts_range_distinct(void **st)
{
    (void)st;
    arena_decision d = {.seat = 0, .kind = "k", .n_options = 4, .pick_min = 1, .pick_max = 2};
    int ok[] = {3, 0}, dup[] = {1, 1}, out[] = {4}, three[] = {0, 1, 2};
    assert_null(arena_check_choice(&d, ok, 2));
    assert_null(arena_check_choice(&d, ok, 1));
    assert_non_null(arena_check_choice(&d, ok, 0));
    assert_non_null(arena_check_choice(&d, dup, 2));
    assert_non_null(arena_check_choice(&d, out, 1));
    assert_non_null(arena_check_choice(&d, three, 3));
}

static void test_random_choice_is_legal_and_uniform(void **st)
{
    (void)st;
    arena_decision d = {.n_options = 5, .pick_min = 0, .pick_max = 2};
    arena_rng r;
    arena_rng_seed(&r, 7);
    int counts[3] = {0}, hits[5] = {0}, c[5];
    const int N = 30000;
    for (int i = 0; i < N; i++) {
        int n = arena_random_choice(&r, &d, c);
        assert_null(arena_check_choice(&d, c, n));
        counts[n]++;
        for (int k = 0; k < n; k++)
            hits[c[k]]++;
    }
    for (int k = 0; k < 3; k++)
        assert_in_range(counts[k], N / 3 - 600, N / 3 + 600);
    /* Each index appears with probability E[count]/5 = 1/5 per draw. */
    for (int k = 0; k < 5; k++)
        assert_in_range(hits[k], N / 5 - 500, N / 5 + 500);
}

static void test_rank_by_score_ties_and_tiebreak(void **st)
{
    (void)st;
    int64_t scores[] = {10, 12, 10, 3}, turns[] = {5, 6, 4, 5};
    int ranks[4];
    arena_rank_by_score(4, scores, NULL, ranks);
    assert_int_equal(ranks[1], 1);
    assert_int_equal(ranks[0], 2);
    assert_int_equal(ranks[2], 2);
    assert_int_equal(ranks[3], 4);
    arena_rank_by_score(4, scores, turns, ranks);
    assert_int_equal(ranks[2], 2); /* fewer turns wins the tie */
    assert_int_equal(ranks[0], 3);
}

static void test_policy_lookup_generic_specific_and_args(void **st)
{
    (void)st;
    const char *arg = "x";
    const arena_policy_vt *p = arena_find_policy("nim", "random", &arg);
    assert_non_null(p);
    assert_ptr_equal(p, &arena_policy_random);
    assert_null(arg);
    assert_null(arena_find_policy("nim", "no-such-bot", &arg));
    assert_null(arena_find_policy("nim", "random:extra", &arg)); /* random takes no arg */
}

static void test_policy_lookup_ignores_dashes(void **st)
{
    (void)st;
    const char *arg;
    const arena_policy_vt *a = arena_find_policy("dominion", "big-money", &arg);
    const arena_policy_vt *b = arena_find_policy("dominion", "bigmoney", &arg);
    assert_non_null(a);
    assert_ptr_equal(a, b);
}

static void test_selfplay_nim_terminates_with_one_winner(void **st)
{
    (void)st;
    const arena_game_vt *nim = arena_find_game("nim");
    assert_non_null(nim);
    const char *bots[] = {"random", "random", "random"};
    arena_setting s[] = {{"stones", "40"}};
    for (uint64_t seed = 0; seed < 50; seed++) {
        arena_selfplay_opts o = {.settings = s, .n_settings = 1, .seed = seed, .players = 3};
        arena_selfplay_stats stats;
        char err[200];
        assert_int_equal(arena_selfplay(nim, bots, &o, &stats, err, sizeof err), 0);
        assert_true(stats.result.over);
        int firsts = 0;
        for (int p = 0; p < 3; p++)
            firsts += stats.result.ranks[p] == 1;
        assert_int_equal(firsts, 1);
        assert_true(stats.decisions >= 14); /* at most 3 a turn from 40 */
    }
}

static void test_nim_view_hides_other_secrets(void **st)
{
    (void)st;
    const arena_game_vt *nim = arena_find_game("nim");
    char err[100];
    arena_game *g = nim->create(NULL, 0, 99, 2, 0, err, sizeof err);
    assert_non_null(g);
    av *all = arena_view_tree(nim, g, -1);
    const av *secrets = av_get(all, "secrets");
    for (int s = 0; s < 2; s++) {
        av *v = arena_view_tree(nim, g, s);
        int64_t mine;
        assert_true(av_get_int(v, "secret", &mine));
        assert_int_equal(mine, secrets->u.list.items[s]->u.i);
        assert_null(av_get(v, "secrets"));
        char *text = av_to_json(v);
        char other[32];
        snprintf(other, sizeof other, "%lld", (long long)secrets->u.list.items[1 - s]->u.i);
        assert_null(strstr(text, other));
        free(text);
        av_free(v);
        /* The secret event reaches only its seat. */
        assert_non_null(nim->event(g, (size_t)s, s));
        assert_null(nim->event(g, (size_t)s, 1 - s));
    }
    av_free(all);
    game_free(g);
}

/* events_release frees a prefix: indices and the count stay those of the
 * whole list, released events read as NULL, the rest as before. */
static void test_events_release_keeps_indices_and_count(void **st)
{
    (void)st;
    arena_events e = {0};
    for (int i = 0; i < 200; i++)
        events_push(&e, i % 2 ? EVENTS_SEAT(1) : EVENTS_ALL, av_int(i));
    events_release(&e, 150);
    events_release(&e, 120); /* going back does nothing */
    assert_int_equal(e.len, 200);
    assert_int_equal(events_held(&e), 50);
    assert_null(events_get(&e, 0, -1));
    assert_null(events_get(&e, 149, -1));
    for (size_t i = 150; i < 200; i++) {
        assert_int_equal(events_get(&e, i, -1)->u.i, (int64_t)i);
        assert_int_equal(events_get(&e, i, 1)->u.i, (int64_t)i);
        if (i % 2)
            assert_null(events_get(&e, i, 0));
        else
            assert_non_null(events_get(&e, i, 0));
    }
    assert_null(events_get(&e, 200, -1));
    /* Pushes after a release land at the next index; a held list reuses
     * its room instead of growing with the game. */
    size_t cap = e.cap;
    for (int round = 0; round < 100; round++) {
        for (int i = 0; i < 30; i++)
            events_push(&e, EVENTS_ALL, av_int((int64_t)e.len));
        assert_int_equal(events_last(&e)->u.i, (int64_t)e.len - 1);
        events_release(&e, e.len - 10);
    }
    assert_int_equal(e.len, 200 + 3000);
    assert_int_equal(events_held(&e), 10);
    assert_int_equal(events_get(&e, 3199, 0)->u.i, 3199);
    assert_int_equal(e.cap, cap);
    events_release(&e, 100000); /* capped at the count */
    assert_int_equal(events_held(&e), 0);
    assert_null(events_last(&e));
    assert_int_equal(e.len, 3200);
    events_push(&e, EVENTS_ALL, av_int(3200));
    assert_int_equal(events_get(&e, 3200, 1)->u.i, 3200);
    events_free(&e);
}

static void test_runopts_parses_shared_flags(void **st)
{
    (void)st;
    run_options o;
    run_options_default(&o);
    char a0[] = "x", a1[] = "--move-ms", a2[] = "50", a3[] = "--clock=cpu", a4[] = "--set",
         a5[] = "stones=9", a6[] = "--on-fault", a7[] = "fallback", a8[] = "--max-strikes=2",
         a9[] = "--sandbox";
    char *argv[] = {a0, a1, a2, a3, a4, a5, a6, a7, a8, a9};
    int argc = 10;
    for (int i = 1; i < argc; i++)
        assert_int_equal(run_options_parse(&o, argc, argv, &i), 1);
    assert_int_equal(o.clock.move_ms, 50);
    assert_int_equal(o.clock.mode, CLOCK_CPU);
    assert_int_equal(o.n_settings, 1);
    assert_string_equal(o.settings[0].key, "stones");
    assert_string_equal(o.settings[0].value, "9");
    assert_int_equal(o.on_fault, FAULT_FALLBACK);
    assert_int_equal(o.max_strikes, 2);
    assert_true(o.sandbox);
}

static void test_runopts_rejects_bad_values(void **st)
{
    (void)st;
    run_options o;
    run_options_default(&o);
    char a0[] = "x", b1[] = "--move-ms=-5", b2[] = "--clock=sundial", b3[] = "--set=novalue",
         b4[] = "--bank-ms", b5[] = "--play";
    char *argv[] = {a0, b1, b2, b3, b4};
    for (int i = 1; i < 5; i++) {
        int j = i;
        assert_int_equal(run_options_parse(&o, i == 4 ? 5 : 5, argv, &j), -1);
    }
    char *argv2[] = {a0, b5};
    int j = 1;
    assert_int_equal(run_options_parse(&o, 2, argv2, &j), 0);
}

int main(void)
{
    arena_builtins_install();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_check_choice_counts_range_distinct),
        cmocka_unit_test(test_random_choice_is_legal_and_uniform),
        cmocka_unit_test(test_rank_by_score_ties_and_tiebreak),
        cmocka_unit_test(test_policy_lookup_generic_specific_and_args),
        cmocka_unit_test(test_policy_lookup_ignores_dashes),
        cmocka_unit_test(test_selfplay_nim_terminates_with_one_winner),
        cmocka_unit_test(test_nim_view_hides_other_secrets),
        cmocka_unit_test(test_events_release_keeps_indices_and_count),
        cmocka_unit_test(test_runopts_parses_shared_flags),
        cmocka_unit_test(test_runopts_rejects_bad_values),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
