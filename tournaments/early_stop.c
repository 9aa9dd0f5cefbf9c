/* Early stopping during a tournament run. */
#include "early_stop.h"

#include <stdlib.h>
#include <string.h>

#include "ranked.h"
#include "util.h"

struct early_stop {
    stop_rule rule;
    int n;
    char *const *names;
    double *met, *planned; /* n * n */
    int64_t n_groups;
    int *left;     /* per group (1-based): games not finished yet */
    bool *started; /* per group: a game was handed out or finished */
    ranked_game *games;
    size_t n_games, cap;
    elo_data pw;
    int64_t groups_done, next_check, every;
};

static void add_pairs(double *m, int n, const sched_game *g)
{
    for (int a = 0; a < g->players; a++)
        for (int b = 0; b < g->players; b++)
            if (a != b) m[g->seat[a] * n + g->seat[b]] += 1;
}

static void played(early_stop *e, const tgame *g)
{
    add_pairs(e->met, e->n, &g->s);
    ranked_game rg = {.k = g->s.players};
    for (int k = 0; k < g->s.players; k++) {
        rg.agent[k] = g->s.seat[k];
        rg.rank[k] = g->rank[k];
    }
    ranked_to_pairwise(&rg, &e->pw);
    if (e->n_games == e->cap) {
        e->cap = e->cap ? e->cap * 2 : 256;
        e->games = xrealloc(e->games, e->cap * sizeof *e->games);
    }
    e->games[e->n_games++] = rg;
}

early_stop *early_stop_new(const stop_rule *r, int n_agents, char *const *names, const tgame *all,
                           size_t n_all)
{
    early_stop *e = xcalloc(1, sizeof *e);
    e->rule = *r;
    e->n = n_agents;
    e->names = names;
    e->met = xcalloc((size_t)n_agents * (size_t)n_agents + 1, sizeof(double));
    e->planned = xcalloc((size_t)n_agents * (size_t)n_agents + 1, sizeof(double));
    elo_data_init(&e->pw, n_agents);
    for (size_t i = 0; i < n_all; i++)
        if (all[i].s.group > e->n_groups) e->n_groups = all[i].s.group;
    e->left = xcalloc((size_t)e->n_groups + 1, sizeof(int));
    e->started = xcalloc((size_t)e->n_groups + 1, sizeof(bool));
    for (size_t i = 0; i < n_all; i++) {
        const tgame *g = &all[i];
        if (g->s.group < 1) continue;
        add_pairs(e->planned, n_agents, &g->s);
        if (g->done) {
            e->started[g->s.group] = true;
            played(e, g);
        } else {
            e->left[g->s.group]++;
        }
    }
    /* A fit per finished group is cheap for a few thousand groups; above
     * that the rule is asked about a thousand times over the run. */
    e->every = e->n_groups / 1000 + 1;
    return e;
}

void early_stop_free(early_stop *e)
{
    if (!e) return;
    free(e->met);
    free(e->planned);
    free(e->left);
    free(e->started);
    free(e->games);
    elo_data_free(&e->pw);
    free(e);
}

bool early_stop_check(early_stop *e, char *why, size_t whylen)
{
    if (!e->rule.on || e->n_games == 0) return false;
    elo_fit f;
    rating_model m = rating_model_default(e->games, e->n_games);
    /* The same model and prior as the report (report_load, prior 2). */
    ranked_fit(m, e->games, e->n_games, &e->pw, 2.0, -1, &f);
    bool settled = stop_settled(&e->rule, &f, e->names, e->met, e->planned, why, whylen);
    elo_fit_free(&f);
    return settled;
}

bool early_stop_done(early_stop *e, const tgame *g, char *why, size_t whylen)
{
    if (g->s.group < 1 || g->s.group > e->n_groups) return false;
    e->started[g->s.group] = true;
    played(e, g);
    if (--e->left[g->s.group] > 0) return false;
    if (++e->groups_done < e->next_check) return false;
    e->next_check = e->groups_done + e->every;
    return early_stop_check(e, why, whylen);
}

bool early_stop_may_start(early_stop *e, const sched_game *g, bool stopped)
{
    if (g->group < 1 || g->group > e->n_groups) return !stopped;
    if (stopped && !e->started[g->group]) return false;
    e->started[g->group] = true;
    return true;
}
