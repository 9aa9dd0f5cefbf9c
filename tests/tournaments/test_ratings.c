/* Rating and statistics formulas against independent computations: hand
 * cases, and second implementations written differently from the library
 * (Hunter's MM algorithm for the MLE, finite differences for the Hessian,
 * raw sums for the moments). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "elo.h"
#include "ranked.h"
#include "sprt_count.h"
#include "stats.h"

#define LN10 2.302585092994046

static void near(double got, double want, double tol)
{
    if (fabs(got - want) > tol) fail_msg("got %.9g, want %.9g (tol %g)", got, want, tol);
}

/* 400*log10 scale by hand: 75 % score is 190.85 Elo. */
static void test_expected_score(void **st)
{
    (void)st;
    near(elo_from_score(0.75), -400 * log10(1 / 0.75 - 1), 1e-9);
    near(elo_from_score(0.75), 190.848501887865, 1e-6);
    near(elo_expected(190.848501887865), 0.75, 1e-9);
    near(elo_expected(0), 0.5, 1e-15);
    near(elo_phi(1.959963984540054), 0.975, 1e-9);
}

/* Two agents: the MLE difference is the logistic inverse of the score, the
 * variance of the difference 1/(k^2 n p q), split evenly by a mean anchor. */
static void test_two_agents(void **st)
{
    (void)st;
    elo_data d;
    elo_data_init(&d, 2);
    for (int i = 0; i < 30; i++)
        elo_add(&d, 0, 1, 1.0);
    for (int i = 0; i < 10; i++)
        elo_add(&d, 0, 1, 0.5);
    for (int i = 0; i < 20; i++)
        elo_add(&d, 0, 1, 0.0);
    elo_fit f;
    elo_fit_compute(&d, 0, -1, &f);
    double s = 35.0 / 60.0, diff = -400 * log10(1 / s - 1);
    assert_true(f.converged);
    assert_false(f.regularised);
    near(f.elo[0] - f.elo[1], diff, 1e-6);
    near(f.elo[0] + f.elo[1], 0, 1e-9);
    double k = LN10 / 400, var_diff = 1 / (k * k * 60 * s * (1 - s));
    near(f.error[0], 1.959963984540054 * sqrt(var_diff / 4), 1e-6);
    near(f.los[0 * 2 + 1], elo_phi(diff / sqrt(var_diff)), 1e-9);
    near(f.los[0 * 2 + 1] + f.los[1 * 2 + 0], 1.0, 1e-12);
    near(f.score[0], s, 1e-12);
    elo_fit_free(&f);

    /* Anchored at agent 1: its rating is 0 and error 0, agent 0 carries the
     * whole variance of the difference. */
    elo_fit_compute(&d, 0, 1, &f);
    near(f.elo[1], 0, 1e-12);
    near(f.elo[0], diff, 1e-6);
    near(f.error[1], 0, 1e-12);
    near(f.error[0], 1.959963984540054 * sqrt(var_diff), 1e-6);
    elo_fit_free(&f);

    /* The prior adds virtual draws: 2 draws make it 36 of 62. */
    elo_fit_compute(&d, 2, -1, &f);
    near(f.elo[0] - f.elo[1], elo_from_score(36.0 / 62.0), 1e-6);
    near(f.score[0], s, 1e-12); /* the reported score excludes the prior */
    elo_fit_free(&f);
    elo_data_free(&d);
}

/* Second implementation: Hunter's MM iteration for Bradley-Terry strengths
 * gamma_i = W_i / sum_j n_ij / (gamma_i + gamma_j), then Elo = 400 log10. */
static void mm_fit(int n, const double *w, const double *g, double *elo)
{
    double gamma[8];
    for (int i = 0; i < n; i++)
        gamma[i] = 1;
    for (int it = 0; it < 20000; it++) {
        for (int i = 0; i < n; i++) {
            double wi = 0, den = 0;
            for (int j = 0; j < n; j++) {
                if (j == i) continue;
                wi += w[i * n + j];
                den += g[i * n + j] / (gamma[i] + gamma[j]);
            }
            gamma[i] = wi / den;
        }
        double lg = 0;
        for (int i = 0; i < n; i++)
            lg += log10(gamma[i]);
        for (int i = 0; i < n; i++)
            gamma[i] /= pow(10, lg / n);
    }
    for (int i = 0; i < n; i++)
        elo[i] = 400 * log10(gamma[i]);
}

static double loglik(int n, const double *w, const double *g, const double *r)
{
    double ll = 0;
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++) {
            if (g[i * n + j] == 0) continue;
            double p = 1 / (1 + pow(10, (r[j] - r[i]) / 400));
            ll += w[i * n + j] * log(p) + (g[i * n + j] - w[i * n + j]) * log(1 - p);
        }
    return ll;
}

static void test_four_agents_vs_mm(void **st)
{
    (void)st;
    /* A deterministic but irregular set of results. */
    int n = 4;
    elo_data d;
    elo_data_init(&d, n);
    static const int res[][3] = {{0, 1, 7}, {0, 2, 9},  {0, 3, 12},
                                 {1, 2, 6}, {1, 3, 10}, {2, 3, 7}};
    for (size_t r = 0; r < sizeof res / sizeof res[0]; r++) {
        int i = res[r][0], j = res[r][1];
        for (int k = 0; k < 16; k++) {
            double sc = k < res[r][2] ? 1.0 : 0.0;
            if (k == 15) sc = 0.5; /* one draw per pairing */
            elo_add(&d, i, j, sc);
        }
    }
    double want[4];
    mm_fit(n, d.points, d.games, want);
    elo_fit f;
    elo_fit_compute(&d, 0, -1, &f);
    assert_true(f.converged);
    for (int i = 0; i < n; i++)
        near(f.elo[i], want[i], 1e-4);

    /* Covariance: invert a finite-difference Hessian of the log-likelihood
     * with agent 3 anchored (a 3x3 system), compare to the anchored fit. */
    elo_fit fa;
    elo_fit_compute(&d, 0, 3, &fa);
    double h = 0.5, H[3][3];
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++) {
            double r[4], v[4];
            for (int s = 0; s < 4; s++) {
                for (int i = 0; i < 4; i++)
                    r[i] = fa.elo[i];
                r[a] += (s & 1 ? -h : h);
                r[b] += (s & 2 ? -h : h);
                v[s] = loglik(n, d.points, d.games, r);
            }
            H[a][b] = -(v[0] - v[1] - v[2] + v[3]) / (4 * h * h);
        }
    /* 3x3 inverse by cofactors. */
    double det = H[0][0] * (H[1][1] * H[2][2] - H[1][2] * H[2][1]) -
                 H[0][1] * (H[1][0] * H[2][2] - H[1][2] * H[2][0]) +
                 H[0][2] * (H[1][0] * H[2][1] - H[1][1] * H[2][0]);
    double c00 = (H[1][1] * H[2][2] - H[1][2] * H[2][1]) / det;
    double c11 = (H[0][0] * H[2][2] - H[0][2] * H[2][0]) / det;
    double c01 = -(H[0][1] * H[2][2] - H[0][2] * H[2][1]) / det;
    near(fa.cov[0 * 4 + 0], c00, c00 * 1e-3);
    near(fa.cov[1 * 4 + 1], c11, c11 * 1e-3);
    near(fa.cov[0 * 4 + 1], c01, fabs(c01) * 1e-3 + 1e-6);
    near(fa.error[0], 1.959963984540054 * sqrt(c00), 1e-2);
    /* Rating differences do not depend on the anchor. */
    near(fa.elo[0] - fa.elo[2], f.elo[0] - f.elo[2], 1e-6);
    /* Nor does the LOS matrix. */
    for (int i = 0; i < 16; i++)
        near(fa.los[i], f.los[i], 1e-6);
    elo_fit_free(&fa);
    elo_fit_free(&f);
    elo_data_free(&d);
}

/* A perfect score has no finite MLE: the fit must stay finite, flag the
 * regularisation, and still rank the winner first. */
static void test_perfect_score(void **st)
{
    (void)st;
    elo_data d;
    elo_data_init(&d, 3);
    for (int k = 0; k < 10; k++) {
        elo_add(&d, 0, 1, 1.0);
        elo_add(&d, 0, 2, 1.0);
        elo_add(&d, 1, 2, k < 6 ? 1.0 : 0.0);
    }
    elo_fit f;
    elo_fit_compute(&d, 0, -1, &f);
    assert_true(f.regularised);
    for (int i = 0; i < 3; i++) {
        assert_true(isfinite(f.elo[i]));
        assert_true(isfinite(f.error[i]));
    }
    assert_true(f.elo[0] > f.elo[1] + 400);
    assert_true(f.los[0 * 3 + 1] > 0.5); /* Wald bars are wide at the boundary */
    near(f.score[0], 1.0, 1e-12);
    elo_fit_free(&f);
    /* With the default prior the estimate exists and is not regularised. */
    elo_fit_compute(&d, 2, -1, &f);
    assert_false(f.regularised);
    assert_true(f.elo[0] > f.elo[1]);
    elo_fit_free(&f);
    elo_data_free(&d);
}

/* Two groups that never met: differences within a group are exact, across
 * groups the error is huge but finite, and LOS stays antisymmetric. */
static void test_disconnected(void **st)
{
    (void)st;
    elo_data d;
    elo_data_init(&d, 4);
    elo_add(&d, 0, 1, 1.0);
    elo_add(&d, 0, 1, 0.0);
    elo_add(&d, 2, 3, 1.0);
    elo_add(&d, 2, 3, 1.0);
    elo_add(&d, 2, 3, 0.0);
    elo_fit f;
    elo_fit_compute(&d, 0, -1, &f);
    assert_true(f.disconnected);
    near(f.elo[2] - f.elo[3], elo_from_score(2.0 / 3.0), 1e-3);
    near(f.elo[0] - f.elo[1], 0, 1e-6);
    assert_true(isfinite(f.error[0]) && f.error[0] > 10000);
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++)
            if (i != j) near(f.los[i * 4 + j] + f.los[j * 4 + i], 1.0, 1e-9);
    /* The difference within a group keeps its own, ordinary variance. */
    double v = f.cov[2 * 4 + 2] + f.cov[3 * 4 + 3] - 2 * f.cov[2 * 4 + 3];
    double k = LN10 / 400, p = 2.0 / 3.0;
    near(v, 1 / (k * k * 3 * p * (1 - p)), 1e-3 * v);
    elo_fit_free(&f);
    elo_data_free(&d);
}

static void test_ranked_parse(void **st)
{
    (void)st;
    ranked_set s = {0};
    char err[200];
    assert_int_equal(ranked_parse(&s, "# comment\nA B\n\nA = B\nC A = B\n", err, sizeof err), 0);
    assert_int_equal(s.n_names, 3);
    assert_int_equal((int)s.n_games, 3);
    elo_data d;
    elo_data_init(&d, 3);
    for (size_t g = 0; g < s.n_games; g++)
        ranked_to_pairwise(&s.games[g], &d);
    /* A: win + draw vs B, plus a draw vs B in the 3-player game; lost to C. */
    near(d.points[0 * 3 + 1], 2.0, 1e-12);
    near(d.games[0 * 3 + 1], 3.0, 1e-12);
    near(d.points[2 * 3 + 0], 1.0, 1e-12);
    near(d.points[2 * 3 + 1], 1.0, 1e-12);
    elo_data_free(&d);
    ranked_free(&s);
    ranked_set bad = {0};
    assert_int_equal(ranked_parse(&bad, "A B\nA = \n", err, sizeof err), -1);
    assert_non_null(strstr(err, "line 2"));
    ranked_free(&bad);
    assert_int_equal(ranked_parse(&bad, "A A\n", err, sizeof err), -1);
    ranked_free(&bad);
    assert_int_equal(ranked_parse(&bad, "A\n", err, sizeof err), -1);
    ranked_free(&bad);
}

/* Trinomial by hand: W=10 D=5 L=5. */
static void test_trinomial(void **st)
{
    (void)st;
    double wdl[3] = {10, 5, 5};
    h2h h;
    h2h_trinomial(wdl, &h);
    double s = 12.5 / 20, var = 3.4375 / 20; /* see the sums in the comment above */
    near(h.score, s, 1e-12);
    near(h.variance, var, 1e-12);
    near(h.elo, -400 * log10(1 / s - 1), 1e-9);
    double se = sqrt(var / 20), z = 1.959963984540054;
    near(h.error, (elo_from_score(s + z * se) - elo_from_score(s - z * se)) / 2, 1e-9);
    near(h.los, 0.5 + 0.5 * erf(5 / sqrt(30)), 1e-12);
    near(h.nelo, (s - 0.5) / sqrt(var) * 800 / LN10, 1e-9);
    near(h.draw_ratio, 0.25, 1e-12);
}

/* Pentanomial by hand: pair counts 1,2,3,4,5 at 0, .25, .5, .75, 1. */
static void test_pentanomial(void **st)
{
    (void)st;
    double p[5] = {1, 2, 3, 4, 5};
    h2h h;
    h2h_pentanomial(p, &h);
    double s = (0 * 1 + 0.25 * 2 + 0.5 * 3 + 0.75 * 4 + 1 * 5) / 15.0; /* 10/15 */
    double sq = (0 * 1 + 0.0625 * 2 + 0.25 * 3 + 0.5625 * 4 + 1 * 5) / 15.0;
    double var = sq - s * s;
    near(h.score, 2.0 / 3.0, 1e-12);
    near(h.variance, var, 1e-12);
    near(h.nelo, (s - 0.5) / sqrt(2 * var) * 800 / LN10, 1e-9);
    near(h.los, elo_phi((s - 0.5) / sqrt(var / 15)), 1e-12);
    near(h.draw_ratio, 3.0 / 15.0, 1e-12);
    assert_true(h.valid);
    double none[5] = {0};
    h2h_pentanomial(none, &h);
    assert_false(h.valid);
}

/* Maximum trinomial log-likelihood sum n_k ln p_k subject to mean score t,
 * by golden-section search over p_D (concave in p_D on the feasible range). */
static double loglik_tri(const double *n, double t, double pd)
{
    double pw = t - pd / 2, pl = 1 - pw - pd;
    if (pw <= 0 || pl <= 0 || pd <= 0) return -INFINITY;
    return n[0] * log(pw) + n[1] * log(pd) + n[2] * log(pl);
}

static double max_loglik_tri(const double *n, double t)
{
    double lo = 1e-12, hi = fmin(2 * t, 2 * (1 - t)) - 1e-12, g = (sqrt(5) - 1) / 2;
    for (int it = 0; it < 300; it++) {
        double a = hi - g * (hi - lo), b = lo + g * (hi - lo);
        if (loglik_tri(n, t, a) > loglik_tri(n, t, b))
            hi = b;
        else
            lo = a;
    }
    return loglik_tri(n, t, (lo + hi) / 2);
}

static void test_sprt(void **st)
{
    (void)st;
    sprt_bounds b;
    sprt_bounds_compute(0.05, 0.05, &b);
    near(b.lower, -log(19), 1e-12);
    near(b.upper, log(19), 1e-12);
    sprt_bounds_compute(0.05, 0.10, &b);
    near(b.lower, log(0.10 / 0.95), 1e-12);
    near(b.upper, log(0.90 / 0.05), 1e-12);

    /* Trinomial: the GLR with the constrained MLE found independently by a
     * golden-section search over the draw probability (p_W = t - p_D / 2,
     * p_L = 1 - p_W - p_D), compared with the library. */
    double wdl[3] = {120, 200, 80};
    near(sprt_llr_trinomial(wdl, 0, 10),
         max_loglik_tri(wdl, elo_expected(10)) - max_loglik_tri(wdl, elo_expected(0)), 1e-6);
    near(sprt_llr_trinomial(wdl, -5, 15),
         max_loglik_tri(wdl, elo_expected(15)) - max_loglik_tri(wdl, elo_expected(-5)), 1e-6);
    /* Swapping the hypotheses negates the LLR; a worse result lowers it. */
    near(sprt_llr_trinomial(wdl, 10, 0), -sprt_llr_trinomial(wdl, 0, 10), 1e-9);
    double worse[3] = {80, 200, 120};
    assert_true(sprt_llr_trinomial(worse, 0, 10) < 0);

    /* Pentanomial: with many pairs the GLR approaches the normal
     * approximation N (s1 - s0)(2 s - s0 - s1) / (2 var), written with sums. */
    double p[5] = {100, 500, 1000, 600, 200};
    double np = 2400, ps = (500 * 0.25 + 1000 * 0.5 + 600 * 0.75 + 200) / np;
    double ps2 = (500 * 0.0625 + 1000 * 0.25 + 600 * 0.5625 + 200) / np;
    double pv = ps2 - ps * ps, s0 = elo_expected(-5), s1 = elo_expected(5);
    double approx = np * (s1 - s0) * (2 * ps - s0 - s1) / (2 * pv);
    near(sprt_llr_pentanomial(p, -5, 5), approx, fabs(approx) * 0.02);
    near(sprt_llr_pentanomial(p, 5, -5), -sprt_llr_pentanomial(p, -5, 5), 1e-9);
    /* One perfect pair is not proof: regularised, well inside the bounds. */
    double one[5] = {0, 0, 0, 0, 1};
    double l1 = sprt_llr_pentanomial(one, 0, 5);
    assert_true(isfinite(l1) && l1 > 0 && l1 < log(19));
    double draws[5] = {0, 0, 30, 0, 0};
    assert_true(isfinite(sprt_llr_pentanomial(draws, 0, 5)));
    assert_true(sprt_llr_pentanomial(draws, 0, 5) < 0);
}

/* A's points in game k (0, 1) of pair g: about 0.6 on average. */
static double pair_points(int g, int k)
{
    unsigned x = (unsigned)(g * 2 + k) * 2654435761u >> 16;
    return x % 10 < 5 ? 1.0 : x % 10 < 7 ? 0.5 : 0.0;
}

/* The SPRT's count takes pairs in schedule order, whatever order their
 * games finish in: the decision falls on the same pair, its LLR is that of
 * the pairs up to it, and nothing after it counts. */
static void test_sprt_counts_pairs_in_schedule_order(void **st)
{
    (void)st;
    enum { PAIRS = 200 };
    sprt_bounds b;
    sprt_bounds_compute(0.05, 0.05, &b);
    sprt_count in_order;
    sprt_count_init(&in_order, 0, 10, &b);
    double penta[5] = {0};
    for (int g = 1; g <= PAIRS && !in_order.decided; g++) {
        for (int k = 0; k < 2; k++)
            sprt_count_game(&in_order, g, pair_points(g, k));
        penta[(int)((pair_points(g, 0) + pair_points(g, 1)) * 2 + 0.5)] += 1;
    }
    assert_int_equal(in_order.decided, 1);
    int64_t at = in_order.pairs;
    assert_true(at > 5 && at < PAIRS);
    near(in_order.llr, sprt_llr_pentanomial(penta, 0, 10), 1e-12);
    /* Late pairs first, each pair's games apart, and games after the
     * decision fed too: the same decision, pair and LLR. */
    for (unsigned shuffle = 1; shuffle <= 3; shuffle++) {
        sprt_count c;
        sprt_count_init(&c, 0, 10, &b);
        int order[2 * PAIRS];
        for (int i = 0; i < 2 * PAIRS; i++)
            order[i] = i;
        uint64_t x = shuffle * 0x9e3779b97f4a7c15ull;
        for (int i = 2 * PAIRS - 1; i > 0; i--) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            int j = (int)(x % (uint64_t)(i + 1)), t = order[i];
            order[i] = order[j];
            order[j] = t;
        }
        for (int i = 0; i < 2 * PAIRS; i++) {
            int g = order[i] / 2 + 1;
            sprt_count_game(&c, g, pair_points(g, order[i] % 2));
        }
        assert_int_equal(c.decided, 1);
        assert_int_equal(c.pairs, at);
        near(c.llr, in_order.llr, 1e-12);
        for (int k = 0; k < 3; k++)
            near(c.wdl[k], in_order.wdl[k], 0);
        sprt_count_free(&c);
    }
    sprt_count_free(&in_order);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_expected_score),
        cmocka_unit_test(test_two_agents),
        cmocka_unit_test(test_four_agents_vs_mm),
        cmocka_unit_test(test_perfect_score),
        cmocka_unit_test(test_disconnected),
        cmocka_unit_test(test_ranked_parse),
        cmocka_unit_test(test_trinomial),
        cmocka_unit_test(test_pentanomial),
        cmocka_unit_test(test_sprt),
        cmocka_unit_test(test_sprt_counts_pairs_in_schedule_order),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
