/* Joint Elo by Newton's method on a log-likelihood of log-sum-exp terms
 * (Bradley-Terry pairs or Plackett-Luce finishing orders). */
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

void elo_terms_init(elo_terms *m, int n)
{
    memset(m, 0, sizeof *m);
    m->n = n;
    m->lin = xcalloc((size_t)n + 1, sizeof(double));
}

void elo_terms_free(elo_terms *m)
{
    free(m->lin);
    free(m->t);
    memset(m, 0, sizeof *m);
}

void elo_terms_add(elo_terms *m, const int *idx, int k, double w)
{
    if (k <= 0 || k > ELO_SET_MAX || w == 0) return;
    if (k == 1) { /* log exp(c r) is linear */
        m->lin[idx[0]] -= w;
        return;
    }
    if (m->nt == m->cap) {
        m->cap = m->cap ? m->cap * 2 : 64;
        m->t = xrealloc(m->t, m->cap * sizeof *m->t);
    }
    elo_term *t = &m->t[m->nt++];
    t->w = w;
    t->k = k;
    memcpy(t->idx, idx, (size_t)k * sizeof *idx);
}

/* One pair's tallies as terms: i scored `pts` of `g` games against j. */
static void add_pair(elo_terms *m, int i, int j, double pts, double g)
{
    int ij[2] = {i, j};
    m->lin[i] += pts;
    m->lin[j] += g - pts;
    elo_terms_add(m, ij, 2, g);
}

/* Gradient of L and its negative Hessian (the observed information) at r.
 * Each term contributes w*c*p to the gradient's negative part and
 * w*c^2*(diag(p) - p p^T) to the information, p_i = softmax of c*r over S. */
static void gradient_information(const elo_terms *m, const double *r, double *grad, double *F)
{
    int n = m->n;
    for (int i = 0; i < n; i++)
        grad[i] = K_LN * m->lin[i];
    memset(F, 0, (size_t)n * (size_t)n * sizeof(double));
    for (size_t t = 0; t < m->nt; t++) {
        const elo_term *x = &m->t[t];
        double mx = -INFINITY, sum = 0, p[ELO_SET_MAX];
        for (int a = 0; a < x->k; a++)
            if (r[x->idx[a]] > mx) mx = r[x->idx[a]];
        for (int a = 0; a < x->k; a++)
            sum += p[a] = exp(K_LN * (r[x->idx[a]] - mx));
        for (int a = 0; a < x->k; a++)
            p[a] /= sum;
        for (int a = 0; a < x->k; a++) {
            int i = x->idx[a];
            grad[i] -= x->w * K_LN * p[a];
            double h = x->w * K_LN * K_LN;
            F[i * n + i] += h * p[a];
            for (int b = 0; b < x->k; b++)
                F[i * n + x->idx[b]] -= h * p[a] * p[b];
        }
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

void elo_terms_fit(elo_terms *m, const elo_data *d, double prior, int anchor, elo_fit *f)
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
    /* The prior: `prior` virtual draws for every pair that met. */
    for (int i = 0; i < n && prior > 0; i++)
        for (int j = i + 1; j < n; j++)
            if (d->games[i * n + j] > 0) add_pair(m, i, j, prior / 2.0, prior);
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
        for (int j = i + 1; j < n; j++)
            if (comp[i] != comp[j]) {
                f->disconnected = true;
                add_pair(m, i, j, ELO_LINK_DRAWS, 2 * ELO_LINK_DRAWS);
            }
    free(comp);
    double *r = f->elo, *F = xcalloc(nn, sizeof(double)), *Finv = xcalloc(nn, sizeof(double));
    double *grad = xcalloc((size_t)n + 1, sizeof(double));
    double *step = xcalloc((size_t)n + 1, sizeof(double));
    for (int it = 0; it < 500; it++) {
        f->iterations = it + 1;
        gradient_information(m, r, grad, F);
        pseudo_inverse(n, F, Finv);
        double maxstep = 0;
        for (int i = 0; i < n; i++) {
            step[i] = 0;
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
        if (maxstep < 1e-10) {
            f->converged = true;
            break;
        }
    }
    /* Covariance of the mean-anchored ratings, then projected to the anchor:
     * r'_i = r_i - r_a, so C'_ij = C_ij - C_ia - C_aj + C_aa. */
    gradient_information(m, r, grad, F);
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
    free(F);
    free(Finv);
    free(grad);
    free(step);
}

void elo_fit_compute(const elo_data *d, double prior, int anchor, elo_fit *f)
{
    int n = d->n;
    elo_terms m;
    elo_terms_init(&m, n);
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++)
            if (d->games[i * n + j] > 0)
                add_pair(&m, i, j, d->points[i * n + j], d->games[i * n + j]);
    elo_terms_fit(&m, d, prior, anchor, f);
    elo_terms_free(&m);
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
