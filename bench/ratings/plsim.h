/* Simulated Plackett-Luce tournaments for the rating tests and the coverage
 * benchmark: seeded, independent of the library's fitting code. */
#ifndef ARENA_TEST_PLSIM_H
#define ARENA_TEST_PLSIM_H

#include <math.h>
#include <stdint.h>

#include "ranked.h"

static inline uint64_t plsim_next(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static inline double plsim_unit(uint64_t *s)
{
    return (double)(plsim_next(s) >> 11) / 9007199254740992.0;
}

/* One game between `k` of the `n` agents (a random table), finishing order
 * drawn place by place with probability proportional to 10^(elo/400). */
static inline void plsim_game(uint64_t *s, int n, int k, const double *elo, ranked_game *g)
{
    int pool[RANKED_MAX * 4], np = n;
    for (int i = 0; i < n; i++)
        pool[i] = i;
    for (int i = 0; i < k; i++) { /* partial Fisher-Yates: the table */
        int j = i + (int)(plsim_next(s) % (uint64_t)(np - i));
        int t = pool[i];
        pool[i] = pool[j];
        pool[j] = t;
    }
    g->k = k;
    for (int place = 0; place < k; place++) {
        double total = 0;
        for (int i = place; i < k; i++)
            total += pow(10.0, elo[pool[i]] / 400.0);
        double u = plsim_unit(s) * total;
        int pick = k - 1;
        for (int i = place; i < k; i++) {
            u -= pow(10.0, elo[pool[i]] / 400.0);
            if (u <= 0) {
                pick = i;
                break;
            }
        }
        int t = pool[place];
        pool[place] = pool[pick];
        pool[pick] = t;
        g->agent[place] = pool[place];
        g->rank[place] = place + 1;
    }
}

#endif
