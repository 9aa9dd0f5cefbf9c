#include "sprt_count.h"

#include <stdlib.h>
#include <string.h>

#include "store.h"
#include "util.h"

void sprt_count_init(sprt_count *c, double elo0, double elo1, const sprt_bounds *b)
{
    memset(c, 0, sizeof *c);
    c->elo0 = elo0;
    c->elo1 = elo1;
    c->b = *b;
}

void sprt_count_free(sprt_count *c)
{
    free(c->first);
    free(c->second);
    memset(c, 0, sizeof *c);
}

static void grow(sprt_count *c, int64_t group)
{
    if ((size_t)group < c->cap) return;
    size_t cap = c->cap ? c->cap * 2 : 256;
    while (cap <= (size_t)group)
        cap *= 2;
    c->first = xrealloc(c->first, cap * sizeof *c->first);
    c->second = xrealloc(c->second, cap * sizeof *c->second);
    for (size_t i = c->cap; i < cap; i++)
        c->first[i] = c->second[i] = -1;
    c->cap = cap;
}

static void add_game(sprt_count *c, double points)
{
    c->wdl[points == 1 ? 0 : points == 0.5 ? 1 : 2] += 1;
}

bool sprt_count_game(sprt_count *c, int64_t group, double a_points)
{
    /* The store refuses groups past its schedule (store_games); the bound
     * here only keeps grow's sizes from wrapping on any other caller. */
    if (c->decided || group < 1 || (uint64_t)group >= SIZE_MAX / 4 / sizeof *c->first) return false;
    grow(c, group);
    if (c->first[group] < 0)
        c->first[group] = a_points;
    else
        c->second[group] = a_points;
    while (!c->decided && (size_t)(c->pairs + 1) < c->cap && c->second[c->pairs + 1] >= 0) {
        int64_t g = ++c->pairs;
        add_game(c, c->first[g]);
        add_game(c, c->second[g]);
        c->penta[(int)((c->first[g] + c->second[g]) * 2 + 0.5)] += 1;
        c->llr = sprt_llr_pentanomial(c->penta, c->elo0, c->elo1);
        if (c->trace && (size_t)g <= c->trace_cap) c->trace[g - 1] = c->llr;
        if (c->llr >= c->b.upper)
            c->decided = 1;
        else if (c->llr <= c->b.lower)
            c->decided = -1;
    }
    return c->decided != 0;
}

bool sprt_count_stored(sprt_count *c, const tgame *g)
{
    int a = g->s.seat[0] == 0 ? 0 : 1;
    double pts = g->rank[a] < g->rank[1 - a] ? 1.0 : g->rank[a] == g->rank[1 - a] ? 0.5 : 0.0;
    return sprt_count_game(c, g->s.group, pts);
}
