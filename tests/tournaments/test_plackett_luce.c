/* Plackett-Luce ratings against independent computations: Hunter's MM
 * algorithm (written here, on strengths rather than Elo, with no Newton
 * step), a brute-force likelihood that enumerates every order breaking the
 * ties, and a parametric bootstrap for the error bars. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "elo.h"
#include "plsim.h"
#include "ranked.h"

#define SIGMA95 1.959963984540054

static void near(double got, double want, double tol)
{
    if (fabs(got - want) > tol) fail_msg("got %.9g, want %.9g (tol %g)", got, want, tol);
}

static void fit(rating_model m, const ranked_game *g, size_t ng, int n, double prior, elo_fit *f)
{
    elo_data d;
    elo_data_init(&d, n);
    for (size_t i = 0; i < ng; i++)
        ranked_to_pairwise(&g[i], &d);
    ranked_fit(m, g, ng, &d, prior, -1, f);
    elo_data_free(&d);
}

static const double truth[6] = {150, 60, 0, -20, -80, -110};

static ranked_game *simulate(uint64_t seed, int n, int k, size_t ng, const double *elo)
{
    ranked_game *g = calloc(ng, sizeof *g);
    uint64_t s = seed;
    for (size_t i = 0; i < ng; i++)
        plsim_game(&s, n, k, elo, &g[i]);
    return g;
}

/* Hunter (2004), MM for Plackett-Luce: gamma_i <- w_i / sum over every
 * place of every game where i was still in the race of 1/(sum of gammas
 * still in the race), w_i = places i won (all but last). */
static void mm(const ranked_game *g, size_t ng, int n, double *elo)
{
    double gam[8], w[8] = {0}, den[8];
    for (int i = 0; i < n; i++)
        gam[i] = 1;
    for (size_t j = 0; j < ng; j++)
        for (int p = 0; p + 1 < g[j].k; p++)
            w[g[j].agent[p]] += 1;
    for (int it = 0; it < 20000; it++) {
        memset(den, 0, sizeof den);
        for (size_t j = 0; j < ng; j++)
            for (int p = 0; p + 1 < g[j].k; p++) {
                double sum = 0;
                for (int q = p; q < g[j].k; q++)
                    sum += gam[g[j].agent[q]];
                for (int q = p; q < g[j].k; q++)
                    den[g[j].agent[q]] += 1 / sum;
            }
        double lsum = 0;
        for (int i = 0; i < n; i++) {
            gam[i] = w[i] / den[i];
            lsum += log(gam[i]);
        }
        for (int i = 0; i < n; i++)
            gam[i] /= exp(lsum / n);
    }
    for (int i = 0; i < n; i++)
        elo[i] = 400 * log10(gam[i]);
}

/* The maximum likelihood fit agrees with MM to 0.1 Elo (it is far closer). */
static void test_plackett_luce_matches_mm(void **st)
{
    (void)st;
    size_t ng = 400;
    ranked_game *g = simulate(7, 6, 4, ng, truth);
    elo_fit f;
    fit(RATING_PLACKETT_LUCE, g, ng, 6, 0, &f);
    assert_true(f.converged);
    assert_false(f.regularised);
    double want[6];
    mm(g, ng, 6, want);
    for (int i = 0; i < 6; i++)
        near(f.elo[i], want[i], 0.1);
    elo_fit_free(&f);
    free(g);
}

/* On 2-player games (draws included) the model is Bradley-Terry with draws
 * as half points: the same ratings and error bars as the pairwise model. */
static void test_plackett_luce_two_players_is_pairwise(void **st)
{
    (void)st;
    size_t ng = 300;
    ranked_game *g = simulate(11, 5, 2, ng, truth);
    for (size_t i = 0; i < ng; i += 7)
        g[i].rank[1] = g[i].rank[0]; /* a draw */
    elo_fit a, b;
    fit(RATING_PLACKETT_LUCE, g, ng, 5, 2, &a);
    fit(RATING_PAIRWISE, g, ng, 5, 2, &b);
    for (int i = 0; i < 5; i++) {
        near(a.elo[i], b.elo[i], 1e-6);
        near(a.error[i], b.error[i], 1e-6);
    }
    assert_int_equal(rating_model_default(g, ng), RATING_PAIRWISE);
    elo_fit_free(&a);
    elo_fit_free(&b);
    free(g);
}

/* Brute force: the average, over every order that breaks the ties, of the
 * Plackett-Luce log-likelihood of that order. */
static double order_loglik(const int *who, int k, const double *r)
{
    double ll = 0;
    for (int p = 0; p < k; p++) {
        double sum = 0;
        for (int q = p; q < k; q++)
            sum += pow(10.0, r[who[q]] / 400.0);
        ll += log(pow(10.0, r[who[p]] / 400.0) / sum);
    }
    return ll;
}

static void permute(int *a, int lo, int hi, const ranked_game *g, const double *r, double *acc,
                    int *count)
{
    if (lo == g->k) {
        *acc += order_loglik(a, g->k, r);
        (*count)++;
        return;
    }
    /* positions lo..hi-1 hold one tie group; permute them, then the next group */
    if (lo == hi) {
        int nh = lo;
        while (nh < g->k && g->rank[nh] == g->rank[lo])
            nh++;
        permute(a, lo, nh, g, r, acc, count);
        return;
    }
    for (int i = lo; i < hi; i++) {
        int t = a[lo];
        a[lo] = a[i];
        a[i] = t;
        permute(a, lo + 1, hi < lo + 1 ? lo + 1 : hi, g, r, acc, count);
        a[i] = a[lo];
        a[lo] = t;
    }
}

static double brute_loglik(const ranked_game *g, size_t ng, const double *r)
{
    double total = 0;
    for (size_t j = 0; j < ng; j++) {
        int a[RANKED_MAX];
        memcpy(a, g[j].agent, sizeof a);
        double acc = 0;
        int count = 0;
        permute(a, 0, 0, &g[j], r, &acc, &count);
        total += acc / count;
    }
    return total;
}

static ranked_game *tied_games(size_t *ng)
{
    *ng = 240;
    ranked_game *g = simulate(23, 5, 4, *ng, truth);
    for (size_t i = 0; i < *ng; i++) { /* ties of 2, 3 and 4, kept sorted by rank */
        if (i % 5 == 0) g[i].rank[2] = g[i].rank[1];
        if (i % 7 == 0) g[i].rank[3] = g[i].rank[2] = g[i].rank[1];
        if (i % 11 == 0) g[i].rank[1] = g[i].rank[0];
        if (i % 13 == 0) g[i].rank[3] = g[i].rank[2] = g[i].rank[1] = g[i].rank[0];
    }
    return g;
}

/* With ties, the fit maximises the brute-force likelihood: its numerical
 * gradient vanishes, and the covariance is the pseudo-inverse of the
 * brute-force Hessian (H C H = H on the rating differences). */
static void test_plackett_luce_ties_split(void **st)
{
    (void)st;
    size_t ng;
    ranked_game *g = tied_games(&ng);
    assert_int_equal(rating_model_default(g, ng), RATING_PLACKETT_LUCE);
    elo_fit f;
    fit(RATING_PLACKETT_LUCE, g, ng, 5, 0, &f);
    assert_true(f.converged);
    const int n = 5;
    double r[5], h = 0.5, H[25];
    memcpy(r, f.elo, sizeof r);
    for (int i = 0; i < n; i++) {
        r[i] = f.elo[i] + h;
        double up = brute_loglik(g, ng, r);
        r[i] = f.elo[i] - h;
        double down = brute_loglik(g, ng, r);
        r[i] = f.elo[i];
        near((up - down) / (2 * h), 0, 1e-6);
    }
    h = 2.0;
    double l0 = brute_loglik(g, ng, r);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            double v[4];
            for (int s = 0; s < 4; s++) {
                memcpy(r, f.elo, sizeof r);
                r[i] += (s & 1) ? -h : h;
                r[j] += (s & 2) ? -h : h;
                v[s] = brute_loglik(g, ng, r);
            }
            H[i * n + j] = -(v[0] - v[1] - v[2] + v[3]) / (4 * h * h);
        }
    (void)l0;
    double HC[25] = {0}, HCH[25] = {0}, scale = 0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            for (int k = 0; k < n; k++)
                HC[i * n + j] += H[i * n + k] * f.cov[k * n + j];
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            for (int k = 0; k < n; k++)
                HCH[i * n + j] += HC[i * n + k] * H[k * n + j];
            if (fabs(H[i * n + j]) > scale) scale = fabs(H[i * n + j]);
        }
    for (int i = 0; i < n * n; i++)
        near(HCH[i], H[i], 1e-3 * scale);
    elo_fit_free(&f);
    free(g);
}

/* Parametric bootstrap: refit data simulated from the fitted ratings; the
 * spread of the refits matches the reported error bars within 10 %. */
static void test_plackett_luce_errors_match_bootstrap(void **st)
{
    (void)st;
    const int n = 6, k = 4, reps = 800;
    const size_t ng = 150;
    ranked_game *g = simulate(31, n, k, ng, truth);
    elo_fit f;
    fit(RATING_PLACKETT_LUCE, g, ng, n, 0, &f);
    free(g);
    double sum[6] = {0}, sq[6] = {0};
    for (int b = 0; b < reps; b++) {
        ranked_game *x = simulate(1000 + (uint64_t)b, n, k, ng, f.elo);
        elo_fit fb;
        fit(RATING_PLACKETT_LUCE, x, ng, n, 0, &fb);
        for (int i = 0; i < n; i++) {
            sum[i] += fb.elo[i];
            sq[i] += fb.elo[i] * fb.elo[i];
        }
        elo_fit_free(&fb);
        free(x);
    }
    for (int i = 0; i < n; i++) {
        double mean = sum[i] / reps, sd = sqrt(sq[i] / reps - mean * mean);
        double sigma = f.error[i] / SIGMA95;
        if (fabs(sd / sigma - 1) > 0.10)
            fail_msg("agent %d: bootstrap sd %.2f, reported sigma %.2f", i, sd, sigma);
    }
    elo_fit_free(&f);
}

/* One agent always first: no finite maximum; a tiny prior keeps it finite. */
static void test_plackett_luce_perfect_order_regularised(void **st)
{
    (void)st;
    ranked_game g[3] = {
        {3, {0, 1, 2}, {1, 2, 3}},
        {3, {0, 2, 1}, {1, 2, 3}},
        {3, {0, 1, 2}, {1, 2, 2}},
    };
    elo_fit f;
    fit(RATING_PLACKETT_LUCE, g, 3, 3, 0, &f);
    assert_true(f.regularised);
    assert_true(f.converged);
    assert_true(isfinite(f.elo[0]) && f.elo[0] > f.elo[1] && f.elo[0] > f.elo[2]);
    elo_fit_free(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_plackett_luce_matches_mm),
        cmocka_unit_test(test_plackett_luce_two_players_is_pairwise),
        cmocka_unit_test(test_plackett_luce_ties_split),
        cmocka_unit_test(test_plackett_luce_errors_match_bootstrap),
        cmocka_unit_test(test_plackett_luce_perfect_order_regularised),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
