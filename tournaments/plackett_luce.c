/* Plackett-Luce terms of one finishing order, ties split. */
#include "plackett_luce.h"

static double binomial(int n, int k)
{
    double c = 1;
    for (int i = 1; i <= k; i++)
        c = c * (n - k + i) / i;
    return c;
}

/* Averaged over the orders that break a tie group G (t players), the
 * players of G still in the race at G's s-th place from the back are a
 * uniformly random s-subset of G: each subset S of size s enters with
 * weight 1/C(t, s), together with everyone ranked below G. The "beats"
 * numerators sum to every player once whatever the order: lin += 1 each. */
void pl_add_game(elo_terms *m, const ranked_game *g, double weight)
{
    for (int a = 0; a < g->k; a++)
        m->lin[g->agent[a]] += weight;
    for (int a = 0; a < g->k; a++) {
        int rank = g->rank[a], first = 1;
        for (int b = 0; b < a; b++)
            first &= g->rank[b] != rank;
        if (!first) continue; /* each tie group once */
        int group[RANKED_MAX], t = 0, later[RANKED_MAX], nl = 0;
        for (int b = 0; b < g->k; b++) {
            if (g->rank[b] == rank) group[t++] = g->agent[b];
            if (g->rank[b] > rank) later[nl++] = g->agent[b];
        }
        for (unsigned mask = 1; mask < 1u << t; mask++) {
            int set[RANKED_MAX], k = 0;
            for (int b = 0; b < t; b++)
                if (mask & 1u << b) set[k++] = group[b];
            double w = weight / binomial(t, k);
            for (int b = 0; b < nl; b++)
                set[k++] = later[b];
            elo_terms_add(m, set, k, w);
        }
    }
}
