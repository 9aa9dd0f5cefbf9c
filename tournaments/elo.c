/* Joint Elo by Newton's method on the Bradley-Terry log-likelihood. */
#include "elo.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

#define K_LN (2.302585092994046 / 400.0) /* d/dr of the logistic argument */

void elo_data_init(elo_data *d, int n)
{
    d->n = n;
    d->points = xcalloc((size_t)n * (size_t)n + 1, sizeof(double));
    d->games = xcalloc((size_t)n * (size_t)n + 1, sizeof(double));
}

void elo_data_free(elo_data *d)
{
    free(d->points);
    free(d->games);
    memset(d, 0, sizeof *d);
}

void elo_add(elo_data *d, int i, int j, double score)
{
    if (i == j || i < 0 || j < 0 || i >= d->n || j >= d->n) return;
    d->points[i * d->n + j] += score;
    d->points[j * d->n + i] += 1.0 - score;
    d->games[i * d->n + j] += 1.0;
    d->games[j * d->n + i] += 1.0;
}

double elo_expected(double diff)
{
    return 1.0 / (1.0 + pow(10.0, -diff / 400.0));
}

double elo_from_score(double s)
{
    const double eps = 1e-12;
    if (s < eps) s = eps;
    if (s > 1.0 - eps) s = 1.0 - eps;
    return -400.0 * log10(1.0 / s - 1.0);
}

double elo_phi(double z)
{
    return 0.5 * erfc(-z / sqrt(2.0));
}

/* Inverts the n*n matrix a in place (Gauss-Jordan, partial pivoting). A
 * vanishing pivot (a disconnected comparison graph) is replaced by a tiny
 * one, which turns "not identifiable" into a huge variance instead of NaN. */
static void invert(double *a, int n)
{
    double *inv = xcalloc((size_t)n * (size_t)n + 1, sizeof(double));
    double scale = 0;
    for (int i = 0; i < n * n; i++)
        if (fabs(a[i]) > scale) scale = fabs(a[i]);
    if (scale == 0) scale = 1;
    for (int i = 0; i < n; i++)
        inv[i * n + i] = 1.0;
    for (int c = 0; c < n; c++) {
        int p = c;
        for (int r = c + 1; r < n; r++)
            if (fabs(a[r * n + c]) > fabs(a[p * n + c])) p = r;
        if (p != c) {
            for (int k = 0; k < n; k++) {
                double t = a[c * n + k];
                a[c * n + k] = a[p * n + k];
                a[p * n + k] = t;
                t = inv[c * n + k];
                inv[c * n + k] = inv[p * n + k];
                inv[p * n + k] = t;
            }
        }
        double piv = a[c * n + c];
        if (fabs(piv) < 1e-13 * scale) piv = a[c * n + c] = 1e-13 * scale;
        for (int k = 0; k < n; k++) {
            a[c * n + k] /= piv;
            inv[c * n + k] /= piv;
        }
        for (int r = 0; r < n; r++) {
            if (r == c) continue;
            double f = a[r * n + c];
            if (f == 0) continue;
            for (int k = 0; k < n; k++) {
                a[r * n + k] -= f * a[c * n + k];
                inv[r * n + k] -= f * inv[c * n + k];
            }
        }
    }
    memcpy(a, inv, (size_t)n * (size_t)n * sizeof(double));
    free(inv);
}

/* The MLE without a prior exists iff, within every group of agents that
 * played each other, each agent can reach every other through "scored
 * points against" edges (strong connectivity). */
static bool mle_exists(const elo_data *d)
{
    int n = d->n;
    bool *reach = xcalloc((size_t)n * (size_t)n + 1, sizeof(bool));
    bool *met = xcalloc((size_t)n * (size_t)n + 1, sizeof(bool));
    for (int i = 0; i < n; i++) {
        reach[i * n + i] = met[i * n + i] = true;
        for (int j = 0; j < n; j++) {
            if (d->points[i * n + j] > 0) reach[i * n + j] = true;
            if (d->games[i * n + j] > 0) met[i * n + j] = true;
        }
    }
    for (int k = 0; k < n; k++)
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++) {
                if (reach[i * n + k] && reach[k * n + j]) reach[i * n + j] = true;
                if (met[i * n + k] && met[k * n + j]) met[i * n + j] = true;
            }
    bool ok = true;
    for (int i = 0; i < n && ok; i++)
        for (int j = 0; j < n; j++)
            if (met[i * n + j] && !reach[i * n + j]) {
                ok = false;
                break;
            }
    free(reach);
    free(met);
    return ok;
}

/* Fisher information (negative Hessian) of the log-likelihood at r. */
static void fisher(int n, const double *g, const double *r, double *F)
{
    memset(F, 0, (size_t)n * (size_t)n * sizeof(double));
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            if (i == j || g[i * n + j] <= 0) continue;
            double p = elo_expected(r[i] - r[j]);
            double h = K_LN * K_LN * g[i * n + j] * p * (1.0 - p);
            F[i * n + i] += h;
            F[i * n + j] -= h;
        }
}

/* Inverse of F restricted to the sum-zero subspace (the pseudo-inverse):
 * (F + c*J/n)^-1 - J/(c*n), J the all-ones matrix, any c > 0. */
static void pseudo_inverse(int n, const double *F, double *out)
{
    double tr = 0;
    for (int i = 0; i < n; i++)
        tr += F[i * n + i];
    double c = tr > 0 ? tr / n : 1.0;
    for (int i = 0; i < n * n; i++)
        out[i] = F[i] + c / n;
    invert(out, n);
    for (int i = 0; i < n * n; i++)
        out[i] -= 1.0 / (c * n);
}

void elo_fit_compute(const elo_data *d, double prior, int anchor, elo_fit *f)
{
    int n = d->n;
    size_t nn = (size_t)n * (size_t)n + 1;
    memset(f, 0, sizeof *f);
    f->n = n;
    f->elo = xcalloc((size_t)n + 1, sizeof(double));
    f->error = xcalloc((size_t)n + 1, sizeof(double));
    f->score = xcalloc((size_t)n + 1, sizeof(double));
    f->games = xcalloc((size_t)n + 1, sizeof(double));
    f->cov = xcalloc(nn, sizeof(double));
    f->los = xcalloc(nn, sizeof(double));
    if (n == 0) return;
    for (int i = 0; i < n; i++) {
        double pts = 0, gm = 0;
        for (int j = 0; j < n; j++) {
            pts += d->points[i * n + j];
            gm += d->games[i * n + j];
        }
        f->games[i] = gm;
        f->score[i] = gm > 0 ? pts / gm : 0.0;
    }
    if (prior <= 0 && !mle_exists(d)) {
        prior = ELO_TINY_PRIOR;
        f->regularised = true;
    }
    /* Effective tallies: real games plus `prior` virtual draws per pair that met. */
    double *w = xcalloc(nn, sizeof(double)), *g = xcalloc(nn, sizeof(double));
    for (int i = 0; i < n * n; i++) {
        g[i] = d->games[i];
        w[i] = d->points[i];
        if (d->games[i] > 0 && prior > 0) {
            g[i] += prior;
            w[i] += prior / 2.0;
        }
    }
    /* Groups of agents that never met, directly or through others, have no
     * rating difference in the data: tie them together with a negligible
     * number of virtual draws, so their means coincide and the difference
     * gets a huge (but finite, symmetric) variance while differences within
     * a group are unaffected. */
    int *comp = xcalloc((size_t)n + 1, sizeof(int));
    for (int i = 0; i < n; i++)
        comp[i] = i;
    for (bool changed = true; changed;) {
        changed = false;
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++)
                if (d->games[i * n + j] > 0 && comp[j] < comp[i]) {
                    comp[i] = comp[j];
                    changed = true;
                }
    }
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            if (i != j && comp[i] != comp[j]) {
                f->disconnected = true;
                g[i * n + j] += ELO_LINK_DRAWS;
                w[i * n + j] += ELO_LINK_DRAWS / 2.0;
            }
    free(comp);
    double *r = f->elo, *F = xcalloc(nn, sizeof(double)), *Finv = xcalloc(nn, sizeof(double));
    double *grad = xcalloc((size_t)n + 1, sizeof(double));
    for (int it = 0; it < 500; it++) {
        f->iterations = it + 1;
        for (int i = 0; i < n; i++) {
            grad[i] = 0;
            for (int j = 0; j < n; j++)
                if (j != i && g[i * n + j] > 0)
                    grad[i] += K_LN * (w[i * n + j] - g[i * n + j] * elo_expected(r[i] - r[j]));
        }
        fisher(n, g, r, F);
        pseudo_inverse(n, F, Finv);
        double maxstep = 0;
        double *step = xcalloc((size_t)n + 1, sizeof(double));
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++)
                step[i] += Finv[i * n + j] * grad[j];
            if (fabs(step[i]) > maxstep) maxstep = fabs(step[i]);
        }
        /* Far from the optimum the quadratic model overshoots; damp big steps. */
        double damp = maxstep > 300.0 ? 300.0 / maxstep : 1.0;
        double mean = 0;
        for (int i = 0; i < n; i++) {
            r[i] += damp * step[i];
            mean += r[i];
        }
        for (int i = 0; i < n; i++)
            r[i] -= mean / n;
        free(step);
        if (maxstep < 1e-10) {
            f->converged = true;
            break;
        }
    }
    /* Covariance of the mean-anchored ratings, then projected to the anchor:
     * r'_i = r_i - r_a, so C'_ij = C_ij - C_ia - C_aj + C_aa. */
    fisher(n, g, r, F);
    pseudo_inverse(n, F, Finv);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            double c = Finv[i * n + j];
            if (anchor >= 0 && anchor < n)
                c += Finv[anchor * n + anchor] - Finv[i * n + anchor] - Finv[anchor * n + j];
            f->cov[i * n + j] = c;
        }
    if (anchor >= 0 && anchor < n) {
        double ra = r[anchor];
        for (int i = 0; i < n; i++)
            r[i] -= ra;
    }
    for (int i = 0; i < n; i++) {
        double v = f->cov[i * n + i];
        f->error[i] = v > 0 ? 1.959963984540054 * sqrt(v) : 0.0;
        if (anchor == i) f->error[i] = 0.0;
    }
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            double v = f->cov[i * n + i] + f->cov[j * n + j] - 2 * f->cov[i * n + j];
            double dlt = r[i] - r[j];
            f->los[i * n + j] = i == j ? 0.5 : v > 0 ? elo_phi(dlt / sqrt(v)) : (dlt > 0 ? 1 : 0.5);
        }
    free(w);
    free(g);
    free(F);
    free(Finv);
    free(grad);
}

void elo_fit_free(elo_fit *f)
{
    free(f->elo);
    free(f->error);
    free(f->cov);
    free(f->los);
    free(f->score);
    free(f->games);
    memset(f, 0, sizeof *f);
}
