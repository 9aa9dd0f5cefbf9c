/* Head-to-head statistics and GSPRT. */
#include "stats.h"

#include <math.h>
#include <string.h>

#include "elo.h"

#define Z95 1.959963984540054
#define NELO_K (800.0 / 2.302585092994046)

/* Mean and variance of a discrete score distribution with counts c[k] at
 * values x[k]. */
static void moments(const double *c, const double *x, int k, double *n, double *mean, double *var)
{
    double tot = 0, s = 0, v = 0;
    for (int i = 0; i < k; i++) {
        tot += c[i];
        s += c[i] * x[i];
    }
    *n = tot;
    *mean = tot > 0 ? s / tot : 0.5;
    for (int i = 0; i < k; i++)
        v += c[i] * (x[i] - *mean) * (x[i] - *mean);
    *var = tot > 0 ? v / tot : 0;
}

/* Fills everything from n, score and the per-unit variance; `games_per_unit`
 * is 1 (trinomial) or 2 (pentanomial), which normalises nElo to a game. */
static void finish(h2h *o, double games_per_unit)
{
    o->valid = o->n > 0;
    if (!o->valid) return;
    double se = sqrt(o->variance / o->n);
    double hi = o->score + Z95 * se, lo = o->score - Z95 * se;
    /* A perfect or zero score has no finite Elo, and an interval reaching
     * past 0 or 1 has no finite width: say so instead of clamping. */
    if (o->score <= 0.0 || o->score >= 1.0)
        o->elo = o->score <= 0.0 ? -INFINITY : INFINITY;
    else
        o->elo = elo_from_score(o->score);
    o->error =
        (lo <= 0.0 || hi >= 1.0) ? INFINITY : (elo_from_score(hi) - elo_from_score(lo)) / 2.0;
    double sd_game = sqrt(games_per_unit * o->variance);
    if (sd_game > 0) {
        o->nelo = (o->score - 0.5) / sd_game * NELO_K;
        o->nelo_error = Z95 * se / sd_game * NELO_K;
        o->los = elo_phi((o->score - 0.5) / se);
    } else if (o->score != 0.5) {
        /* No spread at all: a perfect (or zero) score is unbounded in nElo. */
        o->nelo = o->score > 0.5 ? INFINITY : -INFINITY;
        o->nelo_error = INFINITY;
        o->los = o->score > 0.5 ? 1.0 : 0.0;
    } else {
        o->nelo = o->nelo_error = 0;
        o->los = o->score > 0.5 ? 1.0 : o->score < 0.5 ? 0.0 : 0.5;
    }
}

void h2h_trinomial(const double wdl[3], h2h *o)
{
    static const double x[3] = {1.0, 0.5, 0.0};
    memset(o, 0, sizeof *o);
    moments(wdl, x, 3, &o->n, &o->score, &o->variance);
    o->draw_ratio = o->n > 0 ? wdl[1] / o->n : 0;
    finish(o, 1.0);
    /* cutechess-cli's LOS uses only decisive games. */
    double dec = wdl[0] + wdl[2];
    if (o->valid) o->los = dec > 0 ? 0.5 + 0.5 * erf((wdl[0] - wdl[2]) / sqrt(2.0 * dec)) : 0.5;
}

void h2h_pentanomial(const double p[5], h2h *o)
{
    static const double x[5] = {0.0, 0.25, 0.5, 0.75, 1.0};
    memset(o, 0, sizeof *o);
    moments(p, x, 5, &o->n, &o->score, &o->variance);
    o->draw_ratio = o->n > 0 ? p[2] / o->n : 0;
    finish(o, 2.0);
}

void sprt_bounds_compute(double alpha, double beta, sprt_bounds *b)
{
    b->lower = log(beta / (1.0 - alpha));
    b->upper = log((1.0 - beta) / alpha);
}

/* Generalised log-likelihood ratio as fishtest computes it: under each
 * hypothesis the outcome distribution is the maximum-likelihood one whose
 * mean score is that hypothesis' expected score. Its form is
 * p_k = q_k / (1 + x (a_k - t)), q the observed frequencies, a_k the
 * outcome scores, t the target mean, x the root of
 * sum q_k (a_k - t) / (1 + x (a_k - t)) = 0 (decreasing in x). */
static double mle_x(const double *q, const double *a, int k, double t)
{
    double amin = a[0], amax = a[0];
    for (int i = 1; i < k; i++) {
        if (a[i] < amin) amin = a[i];
        if (a[i] > amax) amax = a[i];
    }
    /* Keep every 1 + x (a_k - t) positive. */
    double lo = -1.0 / (amax - t), hi = -1.0 / (amin - t);
    for (int it = 0; it < 200; it++) {
        double mid = 0.5 * (lo + hi), f = 0;
        for (int i = 0; i < k; i++)
            f += q[i] * (a[i] - t) / (1.0 + mid * (a[i] - t));
        if (f > 0)
            lo = mid;
        else
            hi = mid;
    }
    return 0.5 * (lo + hi);
}

static double llr(const double *c, const double *a, int k, double elo0, double elo1)
{
    double n[5], tot = 0, real = 0;
    for (int i = 0; i < k; i++)
        real += c[i];
    if (real <= 0) return 0.0;
    /* Empty buckets count as 0.001 (fishtest's regularisation), so that the
     * support covers every outcome and a short run cannot look certain. */
    for (int i = 0; i < k; i++) {
        n[i] = c[i] > 0 ? c[i] : 1e-3;
        tot += n[i];
    }
    double q[5];
    for (int i = 0; i < k; i++)
        q[i] = n[i] / tot;
    double s0 = elo_expected(elo0), s1 = elo_expected(elo1);
    double x0 = mle_x(q, a, k, s0), x1 = mle_x(q, a, k, s1), sum = 0;
    for (int i = 0; i < k; i++)
        sum += n[i] * (log(1.0 + x0 * (a[i] - s0)) - log(1.0 + x1 * (a[i] - s1)));
    return sum;
}

double sprt_llr_trinomial(const double wdl[3], double elo0, double elo1)
{
    static const double x[3] = {1.0, 0.5, 0.0};
    return llr(wdl, x, 3, elo0, elo1);
}

double sprt_llr_pentanomial(const double p[5], double elo0, double elo1)
{
    static const double x[5] = {0.0, 0.25, 0.5, 0.75, 1.0};
    return llr(p, x, 5, elo0, elo1);
}
