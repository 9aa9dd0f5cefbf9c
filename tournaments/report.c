/* Report data from the store. */
#include "report.h"

#include <stdlib.h>
#include <string.h>

#include "ranked.h"
#include "util.h"

const char *const report_cause_names[REPORT_CAUSES] = {"timeout", "illegal", "crash", "protocol",
                                                       "other"};

static int cause_index(const char *c)
{
    for (int i = 0; i < REPORT_CAUSES - 1; i++)
        if (strcmp(c, report_cause_names[i]) == 0) return i;
    return REPORT_CAUSES - 1;
}

static report_pair *pair_of(report *r, int a, int b)
{
    if (a > b) {
        int t = a;
        a = b;
        b = t;
    }
    for (int i = 0; i < r->n_pairs; i++)
        if (r->pairs[i].a == a && r->pairs[i].b == b) return &r->pairs[i];
    r->pairs = xrealloc(r->pairs, sizeof(report_pair) * (size_t)(r->n_pairs + 1));
    report_pair *p = &r->pairs[r->n_pairs++];
    memset(p, 0, sizeof *p);
    p->a = a;
    p->b = b;
    return p;
}

/* Points of seat 0 in a 2-player game: 1, 0.5 or 0. */
static double seat0_points(const tgame *g)
{
    return g->rank[0] < g->rank[1] ? 1.0 : g->rank[0] > g->rank[1] ? 0.0 : 0.5;
}

static double meta_double(store *s, const char *key, double dflt)
{
    char *v = store_meta(s, key);
    double x = v ? strtod(v, NULL) : dflt;
    free(v);
    return x;
}

/* The SPRT again from the stored pairs (agent 0 is A), in schedule order. */
static void sprt_load(store *s, const tgame *g, size_t ng, report_sprt *sp)
{
    sp->on = true;
    sp->elo0 = meta_double(s, "elo0", 0);
    sp->elo1 = meta_double(s, "elo1", 0);
    sp->alpha = meta_double(s, "alpha", 0.05);
    sp->beta = meta_double(s, "beta", 0.05);
    sprt_bounds_compute(sp->alpha, sp->beta, &sp->b);
    sp->result = store_meta(s, "result");
    sp->trace = xcalloc(ng / 2 + 1, sizeof(double));
    double penta[5] = {0};
    for (size_t i = 1; i < ng; i++) {
        const tgame *x = &g[i - 1], *y = &g[i];
        if (!x->done || !y->done || x->s.group != y->s.group) continue;
        double pa = 0;
        for (int k = 0; k < 2; k++) {
            const tgame *z = k ? y : x;
            int a = z->s.seat[0] == 0 ? 0 : 1;
            pa += z->rank[a] < z->rank[1 - a] ? 1.0 : z->rank[a] == z->rank[1 - a] ? 0.5 : 0.0;
        }
        penta[(int)(pa * 2 + 0.5)] += 1;
        sp->trace[sp->n_trace++] = sprt_llr_pentanomial(penta, sp->elo0, sp->elo1);
    }
    sp->llr = sp->n_trace ? sp->trace[sp->n_trace - 1] : 0;
    if (sp->result) sp->llr = meta_double(s, "llr", sp->llr);
}

const char *report_sprt_verdict(const report *r)
{
    const char *x = r->sprt.result;
    if (!x) return "running";
    return strcmp(x, "H1") == 0 ? "H1 accepted" : strcmp(x, "H0") == 0 ? "H0 accepted" : x;
}

int report_load(store *s, double prior, const char *anchor, report *r, char *err, size_t errlen)
{
    memset(r, 0, sizeof *r);
    r->anchor = -1;
    r->prior = prior;
    r->kind = store_meta(s, "kind");
    r->game = store_meta(s, "game");
    r->format = store_meta(s, "format");
    r->seed = store_meta(s, "seed");
    r->pairing = store_meta(s, "pairing");
    r->stop = store_meta(s, "stop");
    r->stopped = store_meta(s, "stopped");
    r->stopped_at = store_meta(s, "stopped_at");
    if (!r->pairing) r->pairing = xstrdup("duplicate"); /* runs before pairing existed */
    if (!r->kind) r->kind = xstrdup("tournament");
    if (!r->game) r->game = xstrdup("?");
    if (!r->format) r->format = xstrdup("?");
    if (!r->seed) r->seed = xstrdup("?");
    if (store_agents(s, &r->names, &r->specs, &r->n) != 0) {
        snprintf(err, errlen, "%s", store_error(s));
        return -1;
    }
    if (anchor) {
        for (int i = 0; i < r->n; i++)
            if (strcmp(r->names[i], anchor) == 0) r->anchor = i;
        if (r->anchor < 0) {
            snprintf(err, errlen, "--anchor '%s' is not an agent of this tournament", anchor);
            return -1;
        }
    }
    tgame *g;
    size_t ng;
    if (store_games(s, false, &g, &ng) != 0) {
        snprintf(err, errlen, "%s", store_error(s));
        return -1;
    }
    int n = r->n;
    r->games = xcalloc((size_t)n + 1, sizeof(int64_t));
    r->draws = xcalloc((size_t)n + 1, sizeof(double));
    r->forfeits = xcalloc((size_t)n * REPORT_CAUSES + 1, sizeof(int64_t));
    r->turns = xcalloc(ng + 1, sizeof(int));
    ranked_game *rgs = xcalloc(ng + 1, sizeof *rgs);
    size_t nrg = 0;
    elo_data_init(&r->pw, n);
    r->scheduled = (int64_t)ng;
    for (size_t i = 0; i < ng; i++) {
        tgame *x = &g[i];
        if (!x->done) continue;
        bool bad = false;
        for (int k = 0; k < x->s.players; k++)
            bad |= x->s.seat[k] < 0 || x->s.seat[k] >= n;
        if (bad) continue;
        r->finished++;
        if (x->s.players > r->players) r->players = x->s.players;
        r->turns[r->n_turns++] = x->turns;
        r->wall_ms_total += x->wall_ms;
        ranked_game rg = {.k = x->s.players};
        for (int k = 0; k < x->s.players; k++) {
            int a = x->s.seat[k];
            rg.agent[k] = a;
            rg.rank[k] = x->rank[k];
            r->games[a]++;
            if (x->forfeit[k][0]) r->forfeits[a * REPORT_CAUSES + cause_index(x->forfeit[k])]++;
            for (int j = 0; j < x->s.players; j++)
                if (j != k && x->rank[j] == x->rank[k]) r->draws[a] += 1;
        }
        ranked_to_pairwise(&rg, &r->pw);
        rgs[nrg++] = rg;
        if (x->s.players == 2) {
            report_pair *p = pair_of(r, x->s.seat[0], x->s.seat[1]);
            double pts = seat0_points(x);
            if (x->s.seat[0] != p->a) pts = 1.0 - pts;
            p->wdl[pts == 1.0 ? 0 : pts == 0.5 ? 1 : 2] += 1;
            /* Pentanomial: the second game of a complete seat-swapped pair. */
            if (i > 0 && g[i - 1].done && g[i - 1].s.group == x->s.group &&
                g[i - 1].s.seat[0] == x->s.seat[1] && g[i - 1].s.seat[1] == x->s.seat[0]) {
                double prev = seat0_points(&g[i - 1]);
                if (g[i - 1].s.seat[0] != p->a) prev = 1.0 - prev;
                p->penta[(int)((pts + prev) * 2 + 0.5)] += 1;
            }
        }
    }
    if (strcmp(r->kind, "sprt") == 0 && n == 2) sprt_load(s, g, ng, &r->sprt);
    free(g);
    for (int i = 0; i < r->n_pairs; i++) {
        h2h_trinomial(r->pairs[i].wdl, &r->pairs[i].tri);
        h2h_pentanomial(r->pairs[i].penta, &r->pairs[i].pen);
    }
    r->model = rating_model_default(rgs, nrg);
    ranked_fit(r->model, rgs, nrg, &r->pw, prior, r->anchor, &r->fit);
    free(rgs);
    return 0;
}

void report_stop_text(const report *r, char *buf, size_t len)
{
    buf[0] = '\0';
    if (r->stopped)
        snprintf(buf, len, "stopped early: %s after %lld of %lld games (at %s UTC)", r->stopped,
                 (long long)r->finished, (long long)r->scheduled,
                 r->stopped_at ? r->stopped_at : "?");
}

const char *report_model_text(const report *r)
{
    return r->model == RATING_PLACKETT_LUCE
               ? "Plackett-Luce over each game's full finishing order (tied ranks split: the "
                 "average over every order that breaks the tie)"
               : "Bradley-Terry, draws as half points";
}

void report_free(report *r)
{
    free(r->kind);
    free(r->game);
    free(r->format);
    free(r->seed);
    free(r->pairing);
    free(r->stop);
    free(r->stopped);
    free(r->stopped_at);
    for (int i = 0; i < r->n; i++) {
        free(r->names[i]);
        free(r->specs[i]);
    }
    free(r->names);
    free(r->specs);
    free(r->games);
    free(r->draws);
    free(r->forfeits);
    free(r->pairs);
    free(r->turns);
    free(r->sprt.result);
    free(r->sprt.trace);
    elo_data_free(&r->pw);
    elo_fit_free(&r->fit);
    memset(r, 0, sizeof *r);
}
