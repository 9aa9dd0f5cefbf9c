/* The ladder's matchmaking policy (tournaments/matchmake.h), rule by rule. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "matchmake.h"

#define N 12

typedef struct field {
    mm_entrant e[N];
    int64_t met[N][N];
    int n;
} field;

static int64_t met_of(void *ctx, int a, int b)
{
    return ((field *)ctx)->met[a][b];
}

static void field_init(field *f, int n)
{
    memset(f, 0, sizeof *f);
    f->n = n;
    for (int i = 0; i < n; i++)
        f->e[i] = (mm_entrant){.id = i, .author = -1, .rating = 0, .se = 300};
}

/* Plays table t as the ladder would: every rotation is a game. */
static void play(field *f, const int *t, int players)
{
    for (int r = 0; r < players; r++)
        for (int k = 0; k < players; k++) {
            f->e[t[k]].games++;
            for (int j = 0; j < players; j++)
                if (j != k) f->met[t[k]][t[j]]++;
        }
}

static const mm_params two = {.players = 2, .window = MM_WINDOW, .variety = MM_VARIETY};

/* Need: the entrant with the fewest games is the focal one. */
static void test_need_picks_the_fewest_games(void **state)
{
    (void)state;
    field f;
    field_init(&f, 5);
    for (int i = 0; i < 5; i++)
        f.e[i].games = 10 + i;
    f.e[3].games = 2;
    arena_rng r;
    arena_rng_seed(&r, 1);
    int t[2];
    for (int k = 0; k < 50; k++) {
        assert_true(mm_pick(f.e, f.n, &two, met_of, &f, &r, t));
        assert_int_equal(t[0], 3);
        assert_int_not_equal(t[1], 3);
    }
}

/* Need, tie: the one idle longest. */
static void test_need_tie_goes_to_the_longest_idle(void **state)
{
    (void)state;
    field f;
    field_init(&f, 4);
    for (int i = 0; i < 4; i++)
        f.e[i].last = 100 + i;
    f.e[2].last = 7;
    arena_rng r;
    arena_rng_seed(&r, 2);
    int t[2];
    assert_true(mm_pick(f.e, f.n, &two, met_of, &f, &r, t));
    assert_int_equal(t[0], 2);
}

/* Information: an opponent near in rating is drawn far more often than one
 * 800 Elo away, when both ratings are settled. */
static void test_information_prefers_near_ratings(void **state)
{
    (void)state;
    field f;
    field_init(&f, 3);
    for (int i = 0; i < 3; i++)
        f.e[i].se = 20;
    f.e[0].games = 0; /* focal */
    f.e[1].games = f.e[2].games = 5;
    f.e[1].rating = 50;
    f.e[2].rating = 800;
    arena_rng r;
    arena_rng_seed(&r, 3);
    int near = 0, t[2];
    for (int k = 0; k < 1000; k++) {
        assert_true(mm_pick(f.e, f.n, &two, met_of, &f, &r, t));
        near += t[1] == 1;
    }
    assert_true(near > 950);
}

/* Variety: over a long run of one field, every pair meets, and no pair
 * meets more than a few times as often as the average. */
static void test_variety_no_fixed_partners(void **state)
{
    (void)state;
    field f;
    field_init(&f, 8);
    arena_rng r;
    arena_rng_seed(&r, 4);
    int t[2];
    for (int k = 0; k < 800; k++) {
        assert_true(mm_pick(f.e, f.n, &two, met_of, &f, &r, t));
        play(&f, t, 2);
    }
    int64_t lo = INT64_MAX, hi = 0, total = 0;
    for (int i = 0; i < 8; i++)
        for (int j = i + 1; j < 8; j++) {
            lo = f.met[i][j] < lo ? f.met[i][j] : lo;
            hi = f.met[i][j] > hi ? f.met[i][j] : hi;
            total += f.met[i][j];
        }
    double mean = (double)total / 28;
    print_message("pairs: fewest %lld, most %lld, mean %.1f\n", (long long)lo, (long long)hi, mean);
    assert_true(lo > 0);
    assert_true((double)hi < 2.0 * mean);
    /* and need keeps the entrants' games within two tables (2 x 2 games) */
    int64_t gmin = INT64_MAX, gmax = 0;
    for (int i = 0; i < 8; i++) {
        gmin = f.e[i].games < gmin ? f.e[i].games : gmin;
        gmax = f.e[i].games > gmax ? f.e[i].games : gmax;
    }
    print_message("games: %lld to %lld\n", (long long)gmin, (long long)gmax);
    assert_true(gmax - gmin <= 4);
}

/* Authors: with separate_authors, one author's versions never share a table,
 * and a field of one author forms no table at all. */
static void test_authors_never_meet(void **state)
{
    (void)state;
    field f;
    field_init(&f, 4);
    f.e[0].author = f.e[1].author = 0;
    f.e[2].author = f.e[3].author = 2;
    mm_params p = two;
    p.separate_authors = true;
    arena_rng r;
    arena_rng_seed(&r, 5);
    int t[2];
    for (int k = 0; k < 200; k++) {
        assert_true(mm_pick(f.e, f.n, &p, met_of, &f, &r, t));
        assert_int_not_equal(f.e[t[0]].author, f.e[t[1]].author);
        play(&f, t, 2);
    }
    f.e[2].author = f.e[3].author = 0;
    assert_false(mm_pick(f.e, f.n, &p, met_of, &f, &r, t));
}

/* Tables of 3 and 4: distinct entrants; every rotation gives each seat to
 * each entrant once. */
static void test_tables_of_three_and_four(void **state)
{
    (void)state;
    for (int players = 3; players <= 4; players++) {
        field f;
        field_init(&f, 6);
        mm_params p = two;
        p.players = players;
        arena_rng r;
        arena_rng_seed(&r, (uint64_t)players);
        int t[4];
        for (int k = 0; k < 100; k++) {
            assert_true(mm_pick(f.e, f.n, &p, met_of, &f, &r, t));
            for (int a = 0; a < players; a++)
                for (int b = a + 1; b < players; b++)
                    assert_int_not_equal(t[a], t[b]);
            int seen[4][6] = {{0}};
            for (int rot = 0; rot < players; rot++)
                for (int s = 0; s < players; s++)
                    seen[s][mm_rotation(t, players, rot, s)]++;
            for (int s = 0; s < players; s++)
                for (int a = 0; a < players; a++)
                    assert_int_equal(seen[s][t[a]], 1);
            play(&f, t, players);
        }
        assert_false(mm_pick(f.e, players - 1, &p, met_of, &f, &r, t));
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_need_picks_the_fewest_games),
        cmocka_unit_test(test_need_tie_goes_to_the_longest_idle),
        cmocka_unit_test(test_information_prefers_near_ratings),
        cmocka_unit_test(test_variety_no_fixed_partners),
        cmocka_unit_test(test_authors_never_meet),
        cmocka_unit_test(test_tables_of_three_and_four),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
