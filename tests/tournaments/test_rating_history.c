/* rating_history: the points are bounded, in order, each the fit of the
 * games up to its game (checked by calling the same fit on the prefix),
 * and the last one is the fit of every game (the leaderboard's rating). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#include <cmocka.h>

#include "ladder.h"
#include "rating_history.h"

static int fits; /* calls of the fit: one per point */

static void fit(void *ctx, const ranked_game *g, size_t n_games, int n, double *elo, double *ci95)
{
    (void)ctx;
    fits++;
    ladder_fit(g, n_games, n, elo, ci95);
}

/* n_games 2-player games among 4 agents; agent 0 (of the entrant, with
 * agent 3 its later version) wins 60 %. */
static ranked_game *games(size_t n_games, int64_t **ids)
{
    ranked_game *g = calloc(n_games, sizeof *g);
    *ids = calloc(n_games, sizeof **ids);
    unsigned x = 12345;
    for (size_t t = 0; t < n_games; t++) {
        x = x * 1103515245u + 12345u;
        int a = (int)((x >> 16) % 4), b = (a + 1 + (int)((x >> 8) % 3)) % 4;
        if (t < n_games / 2 && (a == 3 || b == 3)) a = 1, b = 2; /* version 2 comes later */
        int win = (int)((x >> 4) % 10) < 6 ? 0 : 1;
        g[t] = (ranked_game){.k = 2, .agent = {a, b}, .rank = {1 + win, 2 - win}};
        (*ids)[t] = (int64_t)t * 2 + 1; /* ids need not be consecutive */
    }
    return g;
}

static void check(size_t n_games, size_t max)
{
    int64_t *ids;
    ranked_game *g = games(n_games, &ids);
    bool mine[4] = {true, false, false, true};
    rating_point *p = calloc(max, sizeof *p);
    int64_t eg = 0;
    fits = 0;
    size_t k = rating_history(g, ids, n_games, 4, mine, fit, NULL, max, p, &eg);
    int64_t want = 0;
    for (size_t t = 0; t < n_games; t++)
        want += mine[g[t].agent[0]] || mine[g[t].agent[1]];
    assert_int_equal(eg, want);
    assert_int_equal(k, (size_t)want < max ? (size_t)want : max);
    assert_int_equal(fits, (int)k);
    assert_int_equal(p[k - 1].games, want);
    double elo[4], ci[4];
    ladder_fit(g, n_games, 4, elo, ci);
    assert_int_equal(p[k - 1].through, ids[n_games - 1]);
    assert_true(p[k - 1].rating == elo[p[k - 1].agent]);
    assert_true(p[k - 1].ci95 == ci[p[k - 1].agent]);
    for (size_t j = 1; j < k; j++)
        assert_true(p[j].games > p[j - 1].games && p[j].game > p[j - 1].game);
    /* A middle point: the fit of the games through its own. */
    size_t j = k / 2, upto = 0;
    while (ids[upto] != p[j].game)
        upto++;
    assert_true(mine[p[j].agent] &&
                (g[upto].agent[0] == p[j].agent || g[upto].agent[1] == p[j].agent));
    ladder_fit(g, upto + 1, 4, elo, ci);
    assert_int_equal(p[j].through, p[j].game);
    assert_true(p[j].rating == elo[p[j].agent]);
    free(p);
    free(g);
    free(ids);
}

static void test_few_games(void **st)
{
    (void)st;
    check(40, RATING_HISTORY_MAX); /* a point after every game */
}

static void test_bounded(void **st)
{
    (void)st;
    check(20000, RATING_HISTORY_MAX);
}

static void test_no_games(void **st)
{
    (void)st;
    int64_t *ids;
    ranked_game *g = games(100, &ids);
    bool mine[4] = {false};
    rating_point p[4];
    int64_t eg = -1;
    fits = 0;
    assert_int_equal(rating_history(g, ids, 100, 4, mine, fit, NULL, 4, p, &eg), 0);
    assert_int_equal(eg, 0);
    assert_int_equal(fits, 0);
    free(g);
    free(ids);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_few_games),
        cmocka_unit_test(test_bounded),
        cmocka_unit_test(test_no_games),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
