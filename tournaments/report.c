/* Report data from the store. */
#include "report.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "ranked.h"
#include "sprt_count.h"
#include "utf8.h"
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

/* The SPRT again from the stored games (agent 0 is A), counted as the run
 * counts them (sprt_count.h): the path ends where the verdict was taken. */
static void sprt_load(store *s, const tgame *g, size_t ng, report_sprt *sp)
{
    sp->on = true;
    sp->elo0 = store_meta_number(s, "elo0", 0);
    sp->elo1 = store_meta_number(s, "elo1", 0);
    sp->alpha = store_meta_number(s, "alpha", 0.05);
    sp->beta = store_meta_number(s, "beta", 0.05);
    sprt_bounds_compute(sp->alpha, sp->beta, &sp->b);
    sp->result = store_meta(s, "result");
    sp->trace = xcalloc(ng / 2 + 1, sizeof(double));
    sprt_count c;
    sprt_count_init(&c, sp->elo0, sp->elo1, &sp->b);
    c.trace = sp->trace;
    c.trace_cap = ng / 2 + 1;
    for (size_t i = 0; i < ng && !c.decided; i++)
        if (g[i].done) sprt_count_stored(&c, &g[i]);
    sp->n_trace = c.pairs;
    sp->llr = c.llr;
    sp->decided = c.decided;
    sprt_count_free(&c);
}

/* The stored flags as one line, the --agent ones left out (the report lists
 * the agents). */
static char *settings_line(const char *js)
{
    json_t *arr = js ? json_loads(js, 0, NULL) : NULL;
    abuf b = {0};
    for (size_t i = 0; i < json_array_size(arr); i++) {
        const char *a = json_string_value(json_array_get(arr, i));
        if (!a) continue;
        if (strcmp(a, "--agent") == 0) {
            i++;
            continue;
        }
        if (strncmp(a, "--agent=", 8) == 0) continue;
        abuf_addf(&b, "%s%s", b.len ? " " : "", a);
    }
    json_decref(arr);
    abuf_addc(&b, '\0');
    char *out = xstrdup((const char *)b.data);
    abuf_free(&b);
    return out;
}

int report_ms_decimals(double ms)
{
    return ms < 1 ? 3 : ms < 10 ? 1 : 0;
}

static void moves_load(const store_moves *m, double budget, report_moves *out)
{
    double total = 0;
    for (int b = 0; b < STORE_MOVE_BINS; b++)
        total += m->hist[b];
    /* The histogram also holds moves that timed out (no decision applied). */
    out->moves = total > m->decisions ? total : m->decisions;
    out->mean_ms = out->moves > 0 ? m->time_ms / out->moves : 0;
    out->max_ms = m->max_ms;
    out->p95_ms = -1;
    out->over90 = -1;
    if (budget <= 0 || total <= 0) return;
    out->over90 =
        m->hist[STORE_MOVE_BINS - 3] + m->hist[STORE_MOVE_BINS - 2] + m->hist[STORE_MOVE_BINS - 1];
    double cum = 0;
    for (int b = 0; b < STORE_MOVE_BINS; b++) {
        cum += m->hist[b];
        if (cum >= 0.95 * total) {
            out->p95_over = b == STORE_MOVE_BINS - 1;
            out->p95_ms = budget * (b + 1) / (STORE_MOVE_BINS - 1);
            if (out->p95_over) out->p95_ms = budget;
            /* A step is 5 % of the budget: 50 ms of the default 1000, above
             * nearly every move, so the step alone read "<= 50" for every
             * agent. No move is longer than the longest. */
            if (!out->p95_over && out->max_ms >= 0 && out->max_ms < out->p95_ms)
                out->p95_ms = out->max_ms;
            break;
        }
    }
}

static int run_load(store *s, report *r)
{
    char *args = store_meta(s, "args");
    r->settings = settings_line(args);
    r->created = store_meta(s, "created");
    free(args);
    r->move_budget_ms = store_meta_number(s, "move_ms", 0);
    if (store_span(s, r->first_result, r->last_result, sizeof r->first_result, &r->duration_s) != 0)
        return -1;
    store_moves *m = xcalloc((size_t)r->n + 1, sizeof *m);
    r->moves = xcalloc((size_t)r->n + 1, sizeof *r->moves);
    int rc = store_moves_by_agent(s, r->n, m);
    for (int i = 0; rc == 0 && i < r->n; i++)
        moves_load(&m[i], r->move_budget_ms, &r->moves[i]);
    free(m);
    if (rc != 0) return -1;
    if (store_workers(s, true, &r->workers, &r->n_workers) != 0) return -1;
    for (size_t i = 0; i < r->n_workers; i++) /* a crafted DB: no terminal escapes */
        utf8_mask_controls(r->workers[i].name, false);
    if (store_forfeits(s, &r->forfeit_list, &r->n_forfeit_list) != 0) return -1;
    r->timeouts = xcalloc((size_t)r->n + 1, sizeof *r->timeouts);
    for (size_t i = 0; i < r->n_forfeit_list; i++) {
        const store_forfeit *f = &r->forfeit_list[i];
        if (strcmp(f->cause, "timeout") != 0 || f->agent < 0 || f->agent >= r->n) continue;
        report_timeouts *t = &r->timeouts[f->agent];
        t->forfeits++;
        if (!f->clock.set) continue;
        t->with_figures++;
        t->borne_out += report_timeout_borne_out(f);
        double over = f->clock.charged_ms - f->clock.allowance_ms;
        if (over > t->max_over_ms) t->max_over_ms = over;
    }
    return 0;
}

bool report_timeout_borne_out(const store_forfeit *f)
{
    return f->clock.set && clock_evidence_holds(&f->clock, REPORT_CLOCK_TOLERANCE_MS);
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

bool report_lengths(const report *r, int pair, int *min, int *median, int *max)
{
    int *v = xcalloc((size_t)r->n_turns + 1, sizeof(int));
    size_t k = 0;
    for (int64_t i = 0; i < r->n_turns; i++)
        if (pair < 0 || r->turn_pair[i] == pair) v[k++] = r->turns[i];
    if (k > 0) {
        qsort(v, k, sizeof *v, cmp_int);
        *min = v[0];
        *median = v[k / 2];
        *max = v[k - 1];
    }
    free(v);
    return k > 0;
}

void report_seat_advantage(const report *r, double *score, double *error, double *games)
{
    *games = r->seat_games[0];
    *score = *games > 0 ? r->seat_points[0] / *games : 0.5;
    /* Binomial-style half-width; pairwise results of one game are not
     * independent at 3+ players, so there it is only indicative. */
    *error = *games > 0 ? 1.96 * sqrt(*score * (1 - *score) / *games) : 0;
}

const char *report_sprt_verdict(const report *r)
{
    /* The games' verdict, not the stored word: the two differ only for a
     * run stored before sprt_count or an edited one (arena audit says). */
    if (r->sprt.decided) return r->sprt.decided > 0 ? "H1 accepted" : "H0 accepted";
    const char *x = r->sprt.result;
    if (!x) return "running";
    return strcmp(x, "inconclusive") == 0 ? x : "undecided by its games";
}

bool report_rated(const tgame *x, int n)
{
    bool ok = x->done;
    for (int k = 0; ok && k < x->s.players; k++)
        ok = x->s.seat[k] >= 0 && x->s.seat[k] < n;
    return ok;
}

rating_model report_fit(const ranked_game *g, size_t n_games, const elo_data *pw, double prior,
                        int anchor, elo_fit *f)
{
    rating_model m = rating_model_default(g, n_games);
    ranked_fit(m, g, n_games, pw, prior, anchor, f);
    return m;
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
    r->turn_pair = xcalloc(ng + 1, sizeof(int));
    r->wld = xcalloc((size_t)n * 3 + 1, sizeof(double));
    ranked_game *rgs = xcalloc(ng + 1, sizeof *rgs);
    size_t nrg = 0;
    elo_data_init(&r->pw, n);
    r->scheduled = (int64_t)ng;
    for (size_t i = 0; i < ng; i++) {
        tgame *x = &g[i];
        if (!report_rated(x, n)) continue;
        r->finished++;
        if (x->s.players > r->players) r->players = x->s.players;
        r->turn_pair[r->n_turns] = -1;
        r->turns[r->n_turns++] = x->turns;
        for (int a = 0; a < x->s.players; a++)
            for (int b = 0; b < x->s.players; b++) {
                if (a == b) continue;
                double pts = x->rank[a] < x->rank[b] ? 1.0 : x->rank[a] == x->rank[b] ? 0.5 : 0.0;
                r->seat_points[a] += pts;
                r->seat_games[a] += 1;
                r->wld[x->s.seat[a] * 3 + (pts == 1.0 ? 0 : pts == 0.0 ? 1 : 2)] += 1;
            }
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
            r->turn_pair[r->n_turns - 1] = (int)(p - r->pairs);
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
    if (run_load(s, r) != 0) {
        free(g);
        free(rgs);
        snprintf(err, errlen, "%s", store_error(s));
        return -1;
    }
    free(g);
    for (int i = 0; i < r->n_pairs; i++) {
        h2h_trinomial(r->pairs[i].wdl, &r->pairs[i].tri);
        h2h_pentanomial(r->pairs[i].penta, &r->pairs[i].pen);
    }
    r->model = report_fit(rgs, nrg, &r->pw, prior, r->anchor, &r->fit);
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
    store_agents_free(r->names, r->specs, r->n);
    free(r->games);
    free(r->draws);
    free(r->forfeits);
    free(r->pairs);
    free(r->turns);
    free(r->sprt.result);
    free(r->turn_pair);
    free(r->settings);
    free(r->created);
    free(r->moves);
    free(r->wld);
    store_forfeits_free(r->forfeit_list, r->n_forfeit_list);
    free(r->timeouts);
    store_workers_free(r->workers, r->n_workers);
    free(r->sprt.trace);
    elo_data_free(&r->pw);
    elo_fit_free(&r->fit);
    memset(r, 0, sizeof *r);
}
