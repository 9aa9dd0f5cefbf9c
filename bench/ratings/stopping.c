/* bench-stopping [TOURNAMENTS] [AGENTS] [GAMES_PER_PAIRING] [SPREAD] [SEED]
 *
 * What early stopping (stop = ranking:CONF / top:K:CONF) saves, and what it
 * costs: simulated 2-player round robins between agents of known strength
 * (ratings uniform in [-SPREAD/2, SPREAD/2]), played as seat-swapped pairs in rounds
 * (one pair for every pairing a round), checked after every round as the
 * driver checks between whole groups. For each rule: games played as a share
 * of the full schedule, and how often the ranking at the stop differs from
 * the ranking the full schedule gives. Prints a markdown table. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "elo.h"
#include "plsim.h"
#include "ranked.h"
#include "ratings.h"
#include "stopping.h"

static long arg(int argc, char **argv, int i, long dflt)
{
    return argc > i ? strtol(argv[i], NULL, 10) : dflt;
}

static void ranking(const ranked_game *g, size_t ng, int n, char *const *names, int *order)
{
    elo_data d;
    elo_data_init(&d, n);
    for (size_t i = 0; i < ng; i++)
        ranked_to_pairwise(&g[i], &d);
    elo_fit f;
    ranked_fit(RATING_PAIRWISE, g, ng, &d, 2, -1, &f);
    ratings_order(&f, names, order);
    elo_fit_free(&f);
    elo_data_free(&d);
}

int main(int argc, char **argv)
{
    long tournaments = arg(argc, argv, 1, 100);
    int n = (int)arg(argc, argv, 2, 8);
    long per = arg(argc, argv, 3, 200);
    double spread = (double)arg(argc, argv, 4, 600);
    uint64_t seed = (uint64_t)arg(argc, argv, 5, 1);
    if (tournaments < 1 || n < 3 || n > 32 || per < 2 || per % 2 || spread < 0) {
        fprintf(stderr, "usage: bench-stopping [TOURNAMENTS] [AGENTS 3..32] "
                        "[GAMES_PER_PAIRING, even] [SPREAD] [SEED]\n");
        return 2;
    }
    const char *rules[] = {"ranking:0.95", "ranking:0.99", "top:1:0.95", "top:3:0.99"};
    enum { NR = 4 };
    char **names = calloc((size_t)n, sizeof *names);
    for (int i = 0; i < n; i++) {
        names[i] = malloc(16);
        snprintf(names[i], 16, "a%d", i);
    }
    size_t pairings = (size_t)n * (size_t)(n - 1) / 2, total = pairings * (size_t)per;
    ranked_game *g = calloc(total, sizeof *g);
    double *planned = calloc((size_t)n * (size_t)n, sizeof *planned);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            planned[i * n + j] = i == j ? 0 : (double)per;
    double played[NR] = {0};
    long differs[NR] = {0}, differs_top[NR] = {0}, stopped[NR] = {0};
    double truth[32];
    int full[32], at_stop[32];
    uint64_t s = seed;
    for (long t = 0; t < tournaments; t++) {
        for (int i = 0; i < n; i++)
            truth[i] = spread * (plsim_unit(&s) - 0.5);
        /* The whole schedule, round by round: a seat-swapped pair per pairing. */
        size_t ng = 0;
        for (long round = 0; round < per / 2; round++)
            for (int a = 0; a < n; a++)
                for (int b = a + 1; b < n; b++) {
                    double pair[2] = {truth[a], truth[b]};
                    for (int swap = 0; swap < 2; swap++) {
                        ranked_game x;
                        plsim_game(&s, 2, 2, pair, &x);
                        for (int k = 0; k < 2; k++)
                            x.agent[k] = x.agent[k] == 0 ? a : b;
                        g[ng++] = x;
                    }
                }
        ranking(g, total, n, names, full);
        for (int r = 0; r < NR; r++) {
            stop_rule rule = {.min_games = STOP_MIN_GAMES_DEFAULT};
            char err[128], why[256];
            if (stop_rule_parse(rules[r], &rule, err, sizeof err) != 0) return 1;
            size_t upto = total;
            elo_data d;
            elo_data_init(&d, n);
            for (size_t i = 0; i < total; i++) {
                ranked_to_pairwise(&g[i], &d);
                if ((i + 1) % (pairings * 2) != 0 || i + 1 == total) continue;
                elo_fit f;
                ranked_fit(RATING_PAIRWISE, g, i + 1, &d, 2, -1, &f);
                bool done = stop_settled(&rule, &f, names, d.games, planned, why, sizeof why);
                elo_fit_free(&f);
                if (done) {
                    upto = i + 1;
                    stopped[r]++;
                    break;
                }
            }
            elo_data_free(&d);
            played[r] += (double)upto / (double)total;
            ranking(g, upto, n, names, at_stop);
            int places = rule.top ? rule.top : n;
            bool diff = false, diff_top = false;
            for (int k = 0; k < n; k++) {
                if (at_stop[k] != full[k]) {
                    diff = true;
                    if (k < places) diff_top = true;
                }
            }
            differs[r] += diff;
            differs_top[r] += diff_top;
        }
    }
    printf("%ld simulated round robins, %d agents rated uniformly in [%g, %g], %ld games "
           "per pairing (%zu games), checked after every round; min %d games per pairing; "
           "seed %llu.\n\n",
           tournaments, n, -spread / 2, spread / 2, per, total, STOP_MIN_GAMES_DEFAULT,
           (unsigned long long)seed);
    printf("| stop | stopped early | games played | ranking differs from full schedule "
           "(places the rule covers) | (whole ranking) |\n|---|---|---|---|---|\n");
    for (int r = 0; r < NR; r++)
        printf("| %s | %.0f %% | %.1f %% | %.1f %% | %.1f %% |\n", rules[r],
               100.0 * (double)stopped[r] / (double)tournaments,
               100.0 * played[r] / (double)tournaments,
               100.0 * (double)differs_top[r] / (double)tournaments,
               100.0 * (double)differs[r] / (double)tournaments);
    for (int i = 0; i < n; i++)
        free(names[i]);
    free(names);
    free(g);
    free(planned);
    return 0;
}
