/* Joint maximum-likelihood Elo over pairwise results (Bradley-Terry on the
 * 400*log10 scale, draws as half points, optional BayesElo-style prior of
 * virtual draws), covariance error bars and the LOS matrix. */
#ifndef ARENA_ELO_H
#define ARENA_ELO_H

#include <stdbool.h>
#include <stddef.h>

/* The most agents one fit takes. A fit is dense: n x n tallies, covariance
 * and LOS, and an O(n^3) solve per Newton step (about 7 s at 1,024 agents,
 * 107 s at 2,048). A tournament seats at most 256; a results file or DB
 * naming more is refused before anything is sized by it. */
#define ELO_MAX_AGENTS 1024

/* Pairwise tallies between n agents, filled with elo_add(). */
typedef struct elo_data {
    int n;
    double *points; /* n*n: points[i*n+j] = points i scored against j */
    double *games;  /* n*n: games[i*n+j] = games between i and j (symmetric) */
} elo_data;

void elo_data_init(elo_data *d, int n);
void elo_data_free(elo_data *d);
/* One pairwise result: score is i's points against j (1, 0.5 or 0). */
void elo_add(elo_data *d, int i, int j, double score);

typedef struct elo_fit {
    int n;
    double *elo;   /* n ratings */
    double *error; /* n: 95 % half-width (1.96 sigma); 0 for the anchor */
    double *cov;   /* n*n covariance of the anchored ratings, Elo^2 */
    double *los;   /* n*n: probability that i is stronger than j */
    double *score; /* n: points / games over real games (prior excluded) */
    double *games; /* n: real pairwise games */
    int iterations;
    bool converged;
    bool regularised;  /* prior 0 but the MLE did not exist: a tiny prior was used */
    bool disconnected; /* some agents never met, even indirectly (see ELO_LINK_DRAWS) */
} elo_fit;

/* A log-likelihood of the form
 *   L(r) = c * sum_i lin[i] * r[i]  -  sum_t w_t * log sum_{i in S_t} exp(c * r[i]),
 * c = ln(10)/400. Bradley-Terry (every term a pair) and Plackett-Luce (every
 * term the players still in the race at a finishing place) are both of this
 * form, so one Newton solver with one covariance and prior serves both. */
#define ELO_SET_MAX 8
typedef struct elo_term {
    double w;
    int k;
    int idx[ELO_SET_MAX];
} elo_term;

typedef struct elo_terms {
    int n;
    double *lin;
    elo_term *t;
    size_t nt, cap;
} elo_terms;

void elo_terms_init(elo_terms *m, int n);
void elo_terms_free(elo_terms *m);
/* Adds -w * log sum_{i in idx} exp(c r_i); a single index adds -w * c r_i. */
void elo_terms_add(elo_terms *m, const int *idx, int k, double w);
/* Maximises the likelihood in m plus the prior, and fills f. d holds the
 * pairwise tallies of the same games: who met whom (prior, connectivity),
 * whether a finite maximum exists, and the descriptive scores. m is changed
 * (the prior and links are added to it). */
void elo_terms_fit(elo_terms *m, const elo_data *d, double prior, int anchor, elo_fit *f);

/* Fits ratings. prior: virtual draws added to every pair that met (0: none).
 * anchor: index whose rating is fixed at 0, or -1 for a mean of 0.
 * Perfect scores never make the estimate diverge: with prior 0 and no finite
 * MLE, a prior of ELO_TINY_PRIOR virtual draws is used and `regularised` set. */
#define ELO_TINY_PRIOR 0.01
/* Virtual draws between agents of groups that never met. */
#define ELO_LINK_DRAWS 1e-6
void elo_fit_compute(const elo_data *d, double prior, int anchor, elo_fit *f);
void elo_fit_free(elo_fit *f);

/* Expected score of a rating difference, and its inverse (clamped). */
double elo_expected(double diff);
double elo_from_score(double s);
/* Standard normal CDF. */
double elo_phi(double z);

#endif
