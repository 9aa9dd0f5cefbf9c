#include <math.h>
#include <stdlib.h>

#include "matchmake.h"
#include "util.h"

static bool same_author(const mm_entrant *a, const mm_entrant *b)
{
    return a->author >= 0 && a->author == b->author;
}

/* Fair share: games per table handed out since it became active. */
static double share(const mm_entrant *e, int64_t tables)
{
    int64_t span = tables - e->since;
    return (double)e->games / (double)(span > 1 ? span : 1);
}

static int cmp_need(const mm_entrant *a, const mm_entrant *b, bool provisional, int64_t tables)
{
    if (provisional && a->games != b->games) return a->games < b->games ? -1 : 1;
    if (!provisional) {
        double x = share(a, tables), y = share(b, tables);
        if (x != y) return x < y ? -1 : 1;
    }
    return a->last != b->last ? (a->last < b->last ? -1 : 1) : 0;
}

/* The focal entrant (matchmake.h, 1.), ties at random. */
static int pick_focal(const mm_entrant *e, int n, int64_t tables, arena_rng *rng)
{
    bool provisional = false;
    for (int i = 0; i < n; i++)
        provisional |= e[i].provisional;
    int best = -1, ties = 0;
    for (int i = 0; i < n; i++) {
        if (provisional && !e[i].provisional) continue;
        int c = best < 0 ? -1 : cmp_need(&e[i], &e[best], provisional, tables);
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
                     const int *table, int seated, int j)
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
    /* Opponents who are behind their share too, first (at most 11x). */
    double sf = share(f, p->tables), sc = share(c, p->tables);
    w /= 1.0 + fmin(fmax(sc - sf, 0) / (sf > 0 ? sf : 1), 10.0);
    return w;
}

bool mm_pick(const mm_entrant *e, int n, const mm_params *p, mm_met_fn met, void *ctx,
             arena_rng *rng, int *table)
{
    if (p->players < 1 || n < p->players) return false;
    table[0] = pick_focal(e, n, p->tables, rng);
    double *w = xmalloc(sizeof *w * (size_t)n);
    bool ok = true;
    for (int seated = 1; ok && seated < p->players; seated++) {
        double total = 0;
        for (int j = 0; j < n; j++)
            total += w[j] = weight(e, p, met, ctx, table, seated, j);
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
