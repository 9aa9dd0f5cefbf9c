/* The web front's snapshot of a results store and its JSON (web_data.h,
 * shapes in docs/web.md). Every string from the store (names, specs,
 * authors, reasons, stderr) goes out as a JSON string only; the pages put
 * it on screen as text (app.js). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <jansson.h>

#include "ladder_finals.h"
#include "rating_history.h"
#include "ratings.h"
#include "report.h"
#include "util.h"
#include "value.h"
#include "web_data.h"

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 1099511628211ull;
    return h;
}

static bool is_ladder(store *s)
{
    char *kind = store_meta(s, "kind");
    bool l = kind && strcmp(kind, "ladder") == 0;
    free(kind);
    return l;
}

uint64_t web_stamp(store *s, char *err, size_t errlen)
{
    int64_t c[3] = {0, 0, 0};
    char **names = NULL, **specs = NULL;
    int n = 0;
    if (store_counts(s, &c[0], &c[1]) != 0 || store_agents(s, &names, &specs, &n) != 0) {
        snprintf(err, errlen, "%s", store_error(s));
        return 0;
    }
    store_agents_free(names, specs, n);
    c[2] = n;
    uint64_t h = fnv(14695981039346656037ull, c, sizeof c);
    if (is_ladder(s)) {
        ladder_roster r;
        if (ladder_load(s, &r, err, errlen) != 0) return 0;
        for (int i = 0; i < r.n; i++) {
            h = fnv(h, &r.e[i].state, sizeof r.e[i].state);
            h = fnv(h, r.e[i].reason, strlen(r.e[i].reason) + 1);
        }
        ladder_roster_free(&r);
    }
    /* SPRT and stopped runs write their verdict last. */
    char *res = store_meta(s, "result"), *stopped = store_meta(s, "stopped");
    if (res) h = fnv(h, res, strlen(res) + 1);
    if (stopped) h = fnv(h, stopped, strlen(stopped) + 1);
    free(res);
    free(stopped);
    return h ? h : 1;
}

static av *num(double x, int decimals)
{
    return isfinite(x) ? av_float(ratings_round(x, decimals)) : av_nil();
}

/* ---- standings ---- */

typedef struct lrow {
    const ladder_entrant *e;
    const ladder_line *l;
} lrow;

/* As `arena ladder status`: active versions by rating, then validating,
 * disabled and retired ones, each by name. */
static int lrow_cmp(const void *a, const void *b)
{
    const lrow *x = a, *y = b;
    if (x->e->state != y->e->state) return (int)x->e->state - (int)y->e->state;
    if (x->e->state == LADDER_ACTIVE && x->l->rating != y->l->rating)
        return x->l->rating > y->l->rating ? -1 : 1;
    int c = strcmp(x->e->name, y->e->name);
    return c ? c : x->e->version - y->e->version;
}

static void ladder_standings_json(store *s, web_snap *w, av *root)
{
    int n = w->roster.n;
    ladder_line *lines = xcalloc((size_t)n + 1, sizeof *lines);
    lrow *rows = xcalloc((size_t)n + 1, sizeof *rows);
    int64_t games = 0;
    /* The ladder's ranked games: a closed season's finals are not among them. */
    int64_t finals = (int64_t)store_meta_number(s, LADDER_FINALS_FROM, 0);
    ladder_lines(w->games, w->n_games, n, 0, finals, lines, &games);
    for (size_t i = 0; i < w->n_games; i++) {
        ranked_game r;
        if (!ladder_ranked(&w->games[i], n, 0, finals, &r)) continue;
        w->rated_id[w->n_rated] = w->games[i].s.id;
        w->rated[w->n_rated++] = r;
    }
    for (int i = 0; i < n; i++) {
        rows[i] = (lrow){&w->roster.e[i], &lines[i]};
        w->rating[i] = lines[i].rating;
        w->ci95[i] = lines[i].ci95;
        w->rated_games[i] = lines[i].games;
    }
    qsort(rows, (size_t)n, sizeof *rows, lrow_cmp);
    av_set_int(root, "games", games);
    av *list = av_list();
    int rank = 0;
    for (int i = 0; i < n; i++) {
        const ladder_entrant *e = rows[i].e;
        const ladder_line *l = rows[i].l;
        av *o = ladder_line_json(e, l);
        av_set(o, "rank", e->state == LADDER_ACTIVE ? av_int(++rank) : av_nil());
        av_set_str(o, "agent", w->names[e->agent]);
        av_push(list, o);
    }
    av_set(root, "entrants", list);
    free(lines);
    free(rows);
}

/* The ratings of a tournament or SPRT: the report's fit (report_fit), with
 * WEB_PRIOR virtual draws per pair and mean 0, as `arena report` gives. */
#define WEB_PRIOR 2.0

static void fit_report(void *ctx, const ranked_game *g, size_t n_games, int n, double *elo,
                       double *ci95)
{
    (void)ctx;
    elo_data pw;
    elo_data_init(&pw, n);
    for (size_t t = 0; t < n_games; t++)
        ranked_to_pairwise(&g[t], &pw);
    elo_fit f;
    report_fit(g, n_games, &pw, WEB_PRIOR, -1, &f);
    for (int i = 0; i < n; i++) {
        elo[i] = f.elo[i];
        ci95[i] = f.error[i];
    }
    elo_fit_free(&f);
    elo_data_free(&pw);
}

static void fit_ladder(void *ctx, const ranked_game *g, size_t n_games, int n, double *elo,
                       double *ci95)
{
    (void)ctx;
    ladder_fit(g, n_games, n, elo, ci95);
}

/* The snapshot's rated games and, by agent, the fit of them all. */
static void report_rated_games(web_snap *w)
{
    for (size_t i = 0; i < w->n_games; i++) {
        const tgame *x = &w->games[i];
        if (!report_rated(x, w->n)) continue;
        ranked_game r = {.k = x->s.players};
        for (int k = 0; k < x->s.players; k++) {
            r.agent[k] = x->s.seat[k];
            r.rank[k] = x->rank[k];
            w->rated_games[x->s.seat[k]]++;
        }
        w->rated_id[w->n_rated] = x->s.id;
        w->rated[w->n_rated++] = r;
    }
    if (w->n > 0) fit_report(NULL, w->rated, w->n_rated, w->n, w->rating, w->ci95);
}

static int report_standings_json(store *s, av *root, char *err, size_t errlen)
{
    report r;
    if (report_load(s, WEB_PRIOR, NULL, &r, err, errlen) != 0) return -1;
    av_set_int(root, "games", r.finished);
    av_set_str(root, "model", rating_model_name(r.model));
    if (r.sprt.on) av_set_str(root, "sprt", report_sprt_verdict(&r));
    char stop[256];
    report_stop_text(&r, stop, sizeof stop);
    av_set_str(root, "stopped", stop);
    int *order = xcalloc((size_t)r.n + 1, sizeof *order);
    ratings_order(&r.fit, r.names, order);
    av *list = av_list();
    for (int k = 0; k < r.n; k++) {
        int i = order[k];
        av *o = av_map();
        av_set_int(o, "rank", k + 1);
        av_set_str(o, "name", r.names[i]);
        av_set(o, "rating", num(r.fit.elo[i], 1));
        av_set(o, "ci95", num(r.fit.error[i], 1));
        av_set(o, "provisional", av_bool(r.games[i] == 0 || r.fit.error[i] > LADDER_SETTLED_CI));
        av_set_int(o, "games", r.games[i]);
        av_set(o, "score", num(r.fit.score[i], 4));
        av_set(o, "wins", av_float(r.wld[i * 3]));
        av_set(o, "losses", av_float(r.wld[i * 3 + 1]));
        av_set(o, "draws", av_float(r.wld[i * 3 + 2]));
        int64_t faults = 0;
        for (int c = 0; c < REPORT_CAUSES; c++)
            faults += r.forfeits[i * REPORT_CAUSES + c];
        av_set_int(o, "faults", faults);
        av_push(list, o);
    }
    av_set(root, "entrants", list);
    free(order);
    report_free(&r);
    return 0;
}

/* ---- settings ---- */

/* Stored keys shown as they are. Never "seed" (the master seed gives every
 * game's hidden cards away), nor "logs" (a path on the organiser's disk). */
static const char *const shown_keys[] = {
    "kind",       "game",           "format",  "players",    "pairing",
    "stop",       "stop_min_games", "move_ms", "created",    "validation_games",
    "max_faults", "max_fault_rate", "window",  "variety",    "separate_authors",
    "tc_scale",   "sampled",        "stopped", "stopped_at", "result",
    "elo0",       "elo1",           "alpha",   "beta",       NULL};

/* The stored flags, without --agent (listed apart) and --seed. */
static av *flags_json(const char *js)
{
    av *out = av_list();
    json_t *arr = js ? json_loads(js, 0, NULL) : NULL;
    for (size_t i = 0; i < json_array_size(arr); i++) {
        const char *a = json_string_value(json_array_get(arr, i));
        if (!a) continue;
        if (!strcmp(a, "--agent") || !strcmp(a, "--seed")) {
            i++;
            continue;
        }
        if (!strncmp(a, "--agent=", 8) || !strncmp(a, "--seed=", 7)) continue;
        av_push(out, av_str(a));
    }
    json_decref(arr);
    return out;
}

static char *settings_json(store *s)
{
    av *root = av_map(), *m = av_map();
    for (const char *const *k = shown_keys; *k; k++) {
        char *v = store_meta(s, *k);
        if (v) av_set_str(m, *k, v);
        free(v);
    }
    av_set(root, "settings", m);
    char *args = store_meta(s, "args");
    av_set(root, "flags", flags_json(args));
    free(args);
    char *js = av_to_json(root);
    av_free(root);
    return js;
}

/* ---- snapshot ---- */

struct web_cache {
    char *name[WEB_CACHE_N], *body[WEB_CACHE_N];
    int next; /* the slot to fill next: the oldest */
};

static void mark_viewable(web_snap *w)
{
    w->viewable = xcalloc(w->n_games + 1, sizeof *w->viewable);
    if (!w->logs[0]) return;
    /* A group shares one seed under duplicate pairing: while any of its
     * games runs, another's omniscient log would show that game's cards. */
    size_t i = 0;
    while (i < w->n_games) {
        size_t j = i;
        bool all_done = true;
        while (j < w->n_games && w->games[j].s.group == w->games[i].s.group) {
            all_done &= w->games[j].done;
            j++;
        }
        for (size_t k = i; k < j; k++)
            w->viewable[k] = all_done;
        i = j;
    }
}

char *web_game_log(const web_snap *w, size_t i)
{
    if (!w->viewable[i]) return NULL;
    char *p = xasprintf("%s/game-%06lld.jsonl.gz", w->logs, (long long)w->games[i].s.id);
    struct stat st;
    if (stat(p, &st) == 0 && S_ISREG(st.st_mode)) return p;
    free(p);
    return NULL;
}

web_snap *web_snap_load(store *s, char *err, size_t errlen)
{
    web_snap *w = xcalloc(1, sizeof *w);
    /* One moment of the store: its counts, games and standings are read
     * by several queries while a run or its workers write. */
    if (store_snapshot(s, true) != 0) {
        snprintf(err, errlen, "%s", store_error(s));
        goto fail;
    }
    w->stamp = web_stamp(s, err, errlen);
    if (!w->stamp) goto fail;
    w->kind = store_meta(s, "kind");
    w->game = store_meta(s, "game");
    w->logs = store_meta(s, "logs");
    if (!w->kind) w->kind = xstrdup("tournament");
    if (!w->game) w->game = xstrdup("");
    if (!w->logs) w->logs = xstrdup("");
    w->ladder = strcmp(w->kind, "ladder") == 0;
    if (store_counts(s, &w->scheduled, &w->finished) != 0 ||
        store_agents(s, &w->names, &w->specs, &w->n) != 0 ||
        store_games(s, false, &w->games, &w->n_games) != 0 ||
        store_forfeits(s, &w->ff, &w->n_ff) != 0) {
        snprintf(err, errlen, "%s", store_error(s));
        goto fail;
    }
    for (size_t i = 0; i < w->n_games; i++)
        w->games[i].s.seed = 0; /* never kept, never served */
    if (w->ladder && ladder_load(s, &w->roster, err, errlen) != 0) goto fail;
    if (w->ladder && w->roster.n != w->n) {
        snprintf(err, errlen, "the ladder's roster and agents differ");
        goto fail;
    }
    mark_viewable(w);
    av *root = av_map();
    av_set_str(root, "kind", w->kind);
    av_set_str(root, "game", w->game);
    av_set_int(root, "scheduled", w->scheduled);
    av_set_int(root, "finished", w->finished);
    w->rated = xcalloc(w->n_games + 1, sizeof *w->rated);
    w->rated_id = xcalloc(w->n_games + 1, sizeof *w->rated_id);
    w->rating = xcalloc((size_t)w->n + 1, sizeof *w->rating);
    w->ci95 = xcalloc((size_t)w->n + 1, sizeof *w->ci95);
    w->rated_games = xcalloc((size_t)w->n + 1, sizeof *w->rated_games);
    w->cache = xcalloc(1, sizeof *w->cache);
    int rc = 0;
    if (w->ladder)
        ladder_standings_json(s, w, root);
    else {
        report_rated_games(w);
        rc = report_standings_json(s, root, err, errlen);
    }
    if (rc != 0) {
        av_free(root);
        goto fail;
    }
    w->standings_json = av_to_json(root);
    av_free(root);
    w->settings_json = settings_json(s);
    if (store_snapshot(s, false) != 0) {
        snprintf(err, errlen, "%s", store_error(s));
        goto fail;
    }
    return w;
fail:
    store_snapshot(s, false);
    web_snap_free(w);
    return NULL;
}

void web_snap_free(web_snap *w)
{
    if (!w) return;
    free(w->kind);
    free(w->game);
    free(w->logs);
    if (w->names) store_agents_free(w->names, w->specs, w->n);
    if (w->ladder) ladder_roster_free(&w->roster);
    free(w->games);
    free(w->viewable);
    if (w->ff) store_forfeits_free(w->ff, w->n_ff);
    free(w->rated);
    free(w->rated_id);
    free(w->rating);
    free(w->ci95);
    free(w->rated_games);
    if (w->cache)
        for (int i = 0; i < WEB_CACHE_N; i++) {
            free(w->cache->name[i]);
            free(w->cache->body[i]);
        }
    free(w->cache);
    free(w->standings_json);
    free(w->settings_json);
    free(w);
}

/* ---- games and entrants ---- */

/* The entrant an agent belongs to: a ladder version's name, else itself. */
static const char *entrant_of(const web_snap *w, int agent)
{
    return w->ladder ? w->roster.e[agent].name : w->names[agent];
}

static bool plays(const web_snap *w, const tgame *g, const char *name)
{
    for (int k = 0; k < g->s.players; k++)
        if (!strcmp(w->names[g->s.seat[k]], name) || !strcmp(entrant_of(w, g->s.seat[k]), name))
            return true;
    return false;
}

static av *game_json(const web_snap *w, size_t i)
{
    const tgame *g = &w->games[i];
    av *o = av_map(), *seats = av_list();
    av_set_int(o, "id", g->s.id);
    av_set_int(o, "group", g->s.group);
    av_set_bool(o, "done", g->done);
    for (int k = 0; k < g->s.players; k++) {
        av *st = av_map();
        av_set_str(st, "agent", w->names[g->s.seat[k]]);
        av_set_str(st, "entrant", entrant_of(w, g->s.seat[k]));
        av_set(st, "rank", g->done ? av_int(g->rank[k]) : av_nil());
        av_set(st, "score", g->done ? av_int(g->score[k]) : av_nil());
        av_set_str(st, "forfeit", g->done ? g->forfeit[k] : "");
        av_push(seats, st);
    }
    av_set(o, "seats", seats);
    av_set_str(o, "reason", g->done ? g->reason : "");
    av_set(o, "turns", g->done ? av_int(g->turns) : av_nil());
    char *log = web_game_log(w, i);
    av_set(o, "viewer", log ? av_strf("/games/%lld/viewer", (long long)g->s.id) : av_nil());
    free(log);
    return o;
}

char *web_games_json(const web_snap *w, const char *agent, int64_t limit)
{
    av *root = av_map(), *list = av_list();
    av_set(root, "agent", agent ? av_str(agent) : av_nil());
    int64_t matched = 0;
    for (size_t i = w->n_games; i-- > 0;) {
        const tgame *g = &w->games[i];
        if (!g->done || (agent && !plays(w, g, agent))) continue;
        if (matched++ < limit) av_push(list, game_json(w, i));
    }
    av_set_int(root, "finished", matched);
    av_set_int(root, "shown", (int64_t)av_len(list));
    av_set(root, "games", list);
    char *js = av_to_json(root);
    av_free(root);
    return js;
}

/* Pairwise results of the agents in `mine` against each other agent. */
static av *opponents_json(const web_snap *w, const bool *mine)
{
    int64_t *wld = xcalloc((size_t)w->n * 3 + 1, sizeof *wld);
    for (size_t i = 0; i < w->n_games; i++) {
        const tgame *g = &w->games[i];
        if (!g->done) continue;
        for (int a = 0; a < g->s.players; a++) {
            if (!mine[g->s.seat[a]]) continue;
            for (int b = 0; b < g->s.players; b++) {
                if (b == a || mine[g->s.seat[b]]) continue;
                int o = g->s.seat[b];
                wld[o * 3 + (g->rank[a] < g->rank[b] ? 0 : g->rank[a] > g->rank[b] ? 1 : 2)]++;
            }
        }
    }
    av *list = av_list();
    for (int o = 0; o < w->n; o++) {
        int64_t t = wld[o * 3] + wld[o * 3 + 1] + wld[o * 3 + 2];
        if (!t) continue;
        av *m = av_map();
        av_set_str(m, "opponent", w->names[o]);
        av_set_str(m, "entrant", entrant_of(w, o));
        av_set_int(m, "games", t);
        av_set_int(m, "wins", wld[o * 3]);
        av_set_int(m, "losses", wld[o * 3 + 1]);
        av_set_int(m, "draws", wld[o * 3 + 2]);
        av_push(list, m);
    }
    free(wld);
    return list;
}

void web_faults_add(const web_snap *w, const bool *mine, av *list)
{
    for (size_t i = 0; i < w->n_ff; i++) {
        const store_forfeit *f = &w->ff[i];
        if (f->agent < 0 || f->agent >= w->n || !mine[f->agent]) continue;
        av *m = av_map();
        av_set_int(m, "game", f->game);
        av_set_str(m, "agent", w->names[f->agent]);
        av_set_str(m, "cause", f->cause);
        av_set_str(m, "message", f->message);
        av_push(list, m);
    }
}

/* Games fitted for one history, all points together: each point refits
 * its prefix on the serving loop, which a run's matches share, so a big
 * store gets fewer points (some 40 ms of fits here), never fewer than 10. */
#define HISTORY_FIT_BUDGET 1000000

/* The entrant's rating after some of its games (rating_history.h). */
static av *history_json(const web_snap *w, const bool *mine)
{
    size_t max = w->n_rated ? HISTORY_FIT_BUDGET / w->n_rated : RATING_HISTORY_MAX;
    max = max > RATING_HISTORY_MAX ? RATING_HISTORY_MAX : max < 10 ? 10 : max;
    rating_point *p = xcalloc(max, sizeof *p);
    int64_t games = 0;
    size_t k = rating_history(w->rated, w->rated_id, w->n_rated, w->n, mine,
                              w->ladder ? fit_ladder : fit_report, NULL, max, p, &games);
    av *h = av_map(), *list = av_list();
    av_set_int(h, "games", games);
    av_set_int(h, "max", (int64_t)max);
    for (size_t j = 0; j < k; j++) {
        av *o = av_map();
        av_set_int(o, "games", p[j].games);
        av_set_int(o, "game", p[j].game);
        av_set_int(o, "through", p[j].through);
        av_set_str(o, "agent", w->names[p[j].agent]);
        if (w->ladder) av_set_int(o, "version", w->roster.e[p[j].agent].version);
        av_set(o, "rating", num(p[j].rating, 1));
        av_set(o, "ci95", num(p[j].ci95, 1));
        av_push(list, o);
    }
    av_set(h, "points", list);
    free(p);
    return h;
}

static char *entrant_json(const web_snap *w, const char *name);

char *web_entrant_json(const web_snap *w, const char *name)
{
    struct web_cache *c = w->cache;
    for (int i = 0; i < WEB_CACHE_N; i++)
        if (c->name[i] && !strcmp(c->name[i], name)) return xstrdup(c->body[i]);
    char *js = entrant_json(w, name);
    if (!js) return NULL;
    free(c->name[c->next]);
    free(c->body[c->next]);
    c->name[c->next] = xstrdup(name);
    c->body[c->next] = xstrdup(js);
    c->next = (c->next + 1) % WEB_CACHE_N;
    return js;
}

static char *entrant_json(const web_snap *w, const char *name)
{
    bool *mine = xcalloc((size_t)w->n + 1, sizeof *mine);
    bool any = false;
    for (int i = 0; i < w->n; i++)
        if (!strcmp(entrant_of(w, i), name) || !strcmp(w->names[i], name)) any = mine[i] = true;
    if (!any) {
        free(mine);
        return NULL;
    }
    av *root = av_map(), *versions = av_list(), *faults = av_list();
    av_set_str(root, "name", name);
    av_set_str(root, "kind", w->kind);
    for (int i = 0; i < w->n; i++) {
        if (!mine[i]) continue;
        av *v = av_map();
        av_set_str(v, "agent", w->names[i]);
        av_set_str(v, "spec", w->specs[i]);
        av_set_int(v, "games", w->rated_games[i]);
        av_set(v, "rating", w->rated_games[i] ? num(w->rating[i], 1) : av_nil());
        av_set(v, "ci95", w->rated_games[i] ? num(w->ci95[i], 1) : av_nil());
        if (w->ladder) {
            const ladder_entrant *e = &w->roster.e[i];
            av_set_int(v, "version", e->version);
            av_set_str(v, "author", e->author);
            av_set_str(v, "state", ladder_state_name(e->state));
            av_set_str(v, "reason", e->reason);
            av_set_str(v, "added", e->added);
        }
        av_push(versions, v);
    }
    web_faults_add(w, mine, faults);
    av_set(root, "versions", versions);
    av_set(root, "opponents", opponents_json(w, mine));
    av_set(root, "faults", faults);
    av_set(root, "history", history_json(w, mine));
    free(mine);
    char *js = av_to_json(root);
    av_free(root);
    return js;
}

char *web_viewer_log(const web_snap *w, int64_t game)
{
    for (size_t i = 0; i < w->n_games; i++)
        if (w->games[i].s.id == game) return web_game_log(w, i);
    return NULL;
}
