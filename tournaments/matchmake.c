#include <math.h>
#include <stdlib.h>

#include "matchmake.h"
#include "util.h"

static bool same_author(const mm_entrant *a, const mm_entrant *b)
{
    return a->author >= 0 && a->author == b->author;
}

/* The focal entrant: fewest games, then idle longest, then at random. */
static int pick_focal(const mm_entrant *e, int n, arena_rng *rng)
{
    int best = -1, ties = 0;
    for (int i = 0; i < n; i++) {
        int c = best < 0                      ? -1
                : e[i].games != e[best].games ? (e[i].games < e[best].games ? -1 : 1)
                : e[i].last != e[best].last   ? (e[i].last < e[best].last ? -1 : 1)
                                              : 0;
        if (c < 0) {
            best = i;
            ties = 1;
        } else if (c == 0 && arena_rng_below(rng, (uint32_t)++ties) == 0) {
            best = i; /* uniform among the tied (reservoir) */
        }
    }
    return best;
}

static double weight(const mm_entrant *e, const mm_params *p, mm_met_fn met, void *ctx,
                     const int *table, int seated, int j, int64_t least)
{
    const mm_entrant *f = &e[table[0]], *c = &e[j];
    for (int t = 0; t < seated; t++)
        if (table[t] == j || (p->separate_authors && same_author(&e[table[t]], c))) return 0;
    double d = c->rating - f->rating;
    double spread = p->window * p->window + f->se * f->se + c->se * c->se;
    /* Floored: a field spread over thousands of Elo still finds a table. */
    double w = fmax(exp(-d * d / (2 * spread)), 1e-12);
    for (int t = 0; t < seated; t++)
        w /= pow(1.0 + (double)met(ctx, e[table[t]].id, c->id), p->variety);
    w /= 1.0 + (double)(c->games - least) / (1.0 + (double)least);
    return w;
}

bool mm_pick(const mm_entrant *e, int n, const mm_params *p, mm_met_fn met, void *ctx,
             arena_rng *rng, int *table)
{
    if (p->players < 1 || n < p->players) return false;
    table[0] = pick_focal(e, n, rng);
    int64_t least = e[table[0]].games;
    double *w = xmalloc(sizeof *w * (size_t)n);
    bool ok = true;
    for (int seated = 1; ok && seated < p->players; seated++) {
        double total = 0;
        for (int j = 0; j < n; j++)
            total += w[j] = weight(e, p, met, ctx, table, seated, j, least);
        if (!(total > 0)) {
            ok = false; /* every candidate excluded (seated, or one author's) */
            break;
        }
        /* 53 random bits: a uniform point in [0, total). */
        double x = (double)(arena_rng_next(rng) >> 11) / 9007199254740992.0 * total;
        int pick = -1;
        for (int j = 0; j < n; j++) {
            if (w[j] <= 0) continue;
            pick = j;
            if ((x -= w[j]) < 0) break;
        }
        table[seated] = pick;
    }
    free(w);
    return ok;
}
