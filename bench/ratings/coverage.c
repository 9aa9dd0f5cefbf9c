/* bench-ratings [TOURNAMENTS] [GAMES] [AGENTS] [SEED]
 *
 * How often the 95 % intervals of each rating model cover the true rating,
 * on simulated tournaments whose strengths are known: Plackett-Luce
 * finishing orders at tables of 2, 3 and 4 drawn from AGENTS agents with
 * ratings uniform in [-200, 200]. A model whose intervals are honest covers
 * about 95 %; the pairwise split counts a k-player game k(k-1)/2 times, so
 * its intervals are too narrow at 3+ players. Prints a markdown table. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "elo.h"
#include "plsim.h"
#include "ranked.h"

static long arg(int argc, char **argv, int i, long dflt)
{
    return argc > i ? strtol(argv[i], NULL, 10) : dflt;
}

int main(int argc, char **argv)
{
    long tournaments = arg(argc, argv, 1, 400), games = arg(argc, argv, 2, 200);
    int agents = (int)arg(argc, argv, 3, 8);
    uint64_t seed = (uint64_t)arg(argc, argv, 4, 1);
    if (tournaments < 1 || games < 1 || agents < 4 || agents > 32) {
        fprintf(stderr, "usage: bench-ratings [TOURNAMENTS>=1] [GAMES>=1] [AGENTS 4..32] [SEED]\n");
        return 2;
    }
    printf("%ld simulated tournaments of %ld games each, %d agents rated uniformly in "
           "[-200, 200], seed %llu; prior 0, mean anchor.\n\n",
           tournaments, games, agents, (unsigned long long)seed);
    printf("| players | model | coverage of 95 %% intervals | mean +/- (Elo) | "
           "rms error (Elo) |\n|---|---|---|---|---|\n");
    ranked_game *g = calloc((size_t)games, sizeof *g);
    double *truth = calloc((size_t)agents, sizeof *truth);
    for (int k = 2; k <= 4; k++) {
        long covered[2] = {0}, total = 0;
        double width[2] = {0}, sq[2] = {0};
        uint64_t s = seed * 1000003u + (uint64_t)k;
        for (long t = 0; t < tournaments; t++) {
            double mean = 0;
            for (int i = 0; i < agents; i++)
                mean += truth[i] = -200 + 400 * plsim_unit(&s);
            for (int i = 0; i < agents; i++)
                truth[i] -= mean / agents;
            for (long i = 0; i < games; i++)
                plsim_game(&s, agents, k, truth, &g[i]);
            elo_data d;
            elo_data_init(&d, agents);
            for (long i = 0; i < games; i++)
                ranked_to_pairwise(&g[i], &d);
            for (int m = 0; m < 2; m++) {
                elo_fit f;
                ranked_fit(m ? RATING_PLACKETT_LUCE : RATING_PAIRWISE, g, (size_t)games, &d, 0, -1,
                           &f);
                for (int i = 0; i < agents; i++) {
                    double e = f.elo[i] - truth[i];
                    covered[m] += fabs(e) <= f.error[i];
                    width[m] += f.error[i];
                    sq[m] += e * e;
                }
                elo_fit_free(&f);
            }
            elo_data_free(&d);
            total += agents;
        }
        for (int m = 0; m < 2; m++)
            printf("| %d | %s | %.1f %% | %.1f | %.1f |\n", k,
                   rating_model_name(m ? RATING_PLACKETT_LUCE : RATING_PAIRWISE),
                   100.0 * (double)covered[m] / (double)total, width[m] / (double)total,
                   sqrt(sq[m] / (double)total));
    }
    free(g);
    free(truth);
    return 0;
}
