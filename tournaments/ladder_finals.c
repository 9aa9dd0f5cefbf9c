#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "distributed.h"
#include "driver.h"
#include "ladder.h"
#include "ladder_finals.h"
#include "schedule.h"
#include "seeds.h"
#include "store_pg.h"
#include "util.h"

typedef struct fsrc {
    store *db;
    tgame *g; /* the finals games still to play */
    size_t n, next;
    char err[512];
} fsrc;

static bool f_next(void *ctx, sched_game *g)
{
    fsrc *f = ctx;
    if (f->next >= f->n) return false;
    *g = f->g[f->next++].s;
    return true;
}

static bool f_done(void *ctx, const tgame *g, const char *log, bool *fatal)
{
    fsrc *f = ctx;
    if (store_result(f->db, g, log) < 0) {
        snprintf(f->err, sizeof f->err, "%s", store_error(f->db));
        *fatal = true;
        return false;
    }
    return true;
}

static void f_tick(void *ctx)
{
    fsrc *f = ctx;
    store_tick(f->db);
}

/* The top K active versions by rating, best first, into top[]. */
static int pick_top(store *db, int k, int *top, char *err, size_t errlen)
{
    ladder_roster r;
    if (ladder_load(db, &r, err, errlen) != 0) return -1;
    ladder_line *l = xcalloc((size_t)r.n + 1, sizeof *l);
    int64_t games;
    int got = -1;
    if (ladder_standings(db, r.n, 0, 0, l, &games, err, errlen) == 0) {
        got = 0;
        for (int want = 0; want < k; want++) {
            int best = -1;
            for (int i = 0; i < r.n; i++) {
                bool taken = false;
                for (int j = 0; j < got; j++)
                    taken |= top[j] == i;
                if (taken || r.e[i].state != LADDER_ACTIVE || l[i].games == 0) continue;
                if (best < 0 || l[i].rating > l[best].rating) best = i;
            }
            if (best < 0) break;
            top[got++] = best;
        }
    }
    free(l);
    ladder_roster_free(&r);
    return got;
}

/* Schedules the finals: a duplicate round robin among the top K, numbered
 * after every game the ladder stored, seeded from the ladder's master seed
 * by group (duplicate pairing) as its own games are. */
static int schedule_finals(store *db, const ladder_settings *ls, int k, int64_t per_pairing,
                           char *err, size_t errlen)
{
    int *top = xcalloc((size_t)k, sizeof *top);
    int got = pick_top(db, k, top, err, errlen);
    int rc = -1;
    if (got < 0) goto out;
    if (got < k || k < ls->players) {
        snprintf(err, errlen, "the finals need %d active, rated versions; the ladder has %d", k,
                 got);
        goto out;
    }
    tgame *all;
    size_t n_all;
    if (store_games(db, false, &all, &n_all) != 0) {
        snprintf(err, errlen, "%s", store_error(db));
        goto out;
    }
    int64_t next_id = 1, next_group = 1;
    for (size_t i = 0; i < n_all; i++) {
        if (all[i].s.id >= next_id) next_id = all[i].s.id + 1;
        if (all[i].s.group >= next_group) next_group = all[i].s.group + 1;
    }
    free(all);
    schedule_params p = {.n_agents = k,
                         .players = ls->players,
                         .format = FORMAT_ROUND_ROBIN,
                         .per_pairing = per_pairing,
                         .seed = ls->seed,
                         .pairing = PAIRING_DUPLICATE};
    schedule s;
    if (schedule_build(&p, &s, err, errlen) != 0) goto out;
    for (size_t i = 0; i < s.n; i++) {
        sched_game *g = &s.games[i];
        g->id = next_id + (int64_t)i;
        g->group += next_group - 1;
        g->seed = arena_game_seed_derive(ls->seed, SEED_GROUP, (uint64_t)g->group);
        for (int j = 0; j < g->players; j++)
            g->seat[j] = top[g->seat[j]];
    }
    char from[32], agents[512] = "";
    snprintf(from, sizeof from, "%lld", (long long)next_id);
    for (int i = 0; i < k; i++)
        snprintf(agents + strlen(agents), sizeof agents - strlen(agents), "%s%d", i ? "," : "",
                 top[i]);
    if (store_append(db, s.games, s.n) != 0 ||
        store_set_meta(db, LADDER_FINALS_AGENTS, agents) != 0 ||
        store_set_meta(db, LADDER_FINALS_FROM, from) != 0)
        snprintf(err, errlen, "%s", store_error(db));
    else
        rc = 0;
    schedule_free(&s);
out:
    free(top);
    return rc;
}

int ladder_finals(store *db, const ladder_settings *ls, const run_options *ro, int k,
                  int64_t per_pairing, const ladder_limits *lim, char *err, size_t errlen)
{
    if (store_meta_number(db, LADDER_FINALS_FROM, 0) <= 0 &&
        schedule_finals(db, ls, k, per_pairing, err, errlen) != 0)
        return DRIVER_FAILED;
    int64_t from = (int64_t)store_meta_number(db, LADDER_FINALS_FROM, 0);
    if (store_is_pg(db)) {
        /* Claimed under leases like every game of the database: workers
         * on the ladder play the finals too, each game once. */
        dist_cfg c = {.concurrency = lim->concurrency,
                      .log_root = lim->logs,
                      .lease_s = lim->lease > 0 ? lim->lease : DIST_LEASE_DEFAULT,
                      .who = "ladder finals",
                      .progress = lim->quiet ? NULL : stderr,
                      .quiet = lim->quiet};
        store_pg_identity(db, "coordinator", c.lease_s);
        int rc = dist_play(db, &c, err, errlen);
        return rc == DIST_DB_DOWN || rc == DIST_REFUSED ? DRIVER_FAILED : rc;
    }
    fsrc f = {.db = db};
    tgame *pending;
    size_t n;
    if (store_games(db, true, &pending, &n) != 0) {
        snprintf(err, errlen, "%s", store_error(db));
        return DRIVER_FAILED;
    }
    f.g = xcalloc(n + 1, sizeof *f.g);
    for (size_t i = 0; i < n; i++)
        if (pending[i].s.id >= from) f.g[f.n++] = pending[i];
    free(pending);
    int64_t total, done;
    store_counts(db, &total, &done);
    char **names, **specs;
    int n_agents;
    if (store_agents(db, &names, &specs, &n_agents) != 0) {
        snprintf(err, errlen, "%s", store_error(db));
        free(f.g);
        return DRIVER_FAILED;
    }
    driver_cfg dc = {.game = ls->game,
                     .ro = ro,
                     .names = names,
                     .specs = specs,
                     .n_agents = n_agents,
                     .concurrency = lim->concurrency,
                     .log_dir = lim->logs,
                     .total = total,
                     .done_before = total - (int64_t)f.n,
                     .progress = lim->quiet ? NULL : stderr,
                     .poll_ms = STORE_GROUP_MS,
                     .start_failure_forfeits = true};
    driver_src src = {.next = f_next, .done = f_done, .tick = f_tick, .ctx = &f};
    int rc = driver_run(&dc, &src, err, errlen);
    if (store_flush(db) != 0 && !f.err[0]) snprintf(f.err, sizeof f.err, "%s", store_error(db));
    if (f.err[0]) {
        snprintf(err, errlen, "%s", f.err);
        if (rc == DRIVER_OK) rc = DRIVER_FAILED;
    }
    store_agents_free(names, specs, n_agents);
    free(f.g);
    return rc;
}
