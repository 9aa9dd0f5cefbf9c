/* Head-to-head statistics and the GSPRT, computed the way the chess-engine
 * testing tools (cutechess-cli, fastchess, fishtest) compute them: trinomial
 * (win/draw/loss per game) and pentanomial (score of a seat-swapped pair:
 * 0, 0.5, 1, 1.5, 2 points out of 2). All scores are fractions in [0, 1]. */
#ifndef ARENA_STATS_H
#define ARENA_STATS_H

#include <stdbool.h>

typedef struct h2h {
    double n;          /* games (trinomial) or pairs (pentanomial) */
    double score;      /* mean score fraction */
    double variance;   /* per game / per pair variance of the score fraction */
    double elo, error; /* logistic Elo and 95 % half-width; +-inf when the score
                          is 0 or 1, error inf when the interval leaves (0, 1) */
    double nelo, nelo_error;
    double los;        /* likelihood of superiority */
    double draw_ratio; /* draws / games; pentanomial: pairs scoring 1 of 2 */
    bool valid;        /* n > 0 */
} h2h;

/* wdl = wins, draws, losses of A against B. */
void h2h_trinomial(const double wdl[3], h2h *out);
/* penta[k] = pairs in which A scored k/2 points (k = 0..4, in half points). */
void h2h_pentanomial(const double penta[5], h2h *out);

/* GSPRT on logistic Elo bounds elo0 (H0) < elo1 (H1). */
typedef struct sprt_bounds {
    double lower, upper; /* log(beta/(1-alpha)), log((1-beta)/alpha) */
} sprt_bounds;

void sprt_bounds_compute(double alpha, double beta, sprt_bounds *b);
/* Generalised log-likelihood ratio from trinomial or pentanomial counts,
 * as fishtest computes it (maximum-likelihood outcome distributions under
 * each hypothesis). Empty buckets count as 0.001 (fishtest's
 * regularisation). */
double sprt_llr_trinomial(const double wdl[3], double elo0, double elo1);
double sprt_llr_pentanomial(const double penta[5], double elo0, double elo1);

#endif
