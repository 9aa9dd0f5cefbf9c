#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "distributed.h"
#include "driver.h"
#include "ladder.h"
#include "ladder_finals.h"
#include "ladder_run.h"
#include "matchmake.h"
#include "seeds.h"
#include "store_pg.h"
#include "util.h"

/* Ratings are fitted again after this many ranked results, or at the next
 * reload when fewer came. */
#define LADDER_REFIT_GAMES 10

/* PostgreSQL: tables are scheduled while fewer games than this, or than
 * are in play under leases, wait to be claimed: enough that no worker
 * waits for the next table, few enough that each table is chosen on
 * recent results. */
#define LADDER_AHEAD_MIN 8

typedef struct lrun {
    store *db;
    const ladder_settings *ls;
    const ladder_limits *lim;
    driver_cfg dc;
    ladder_roster roster;
    int cap;               /* agents the per-agent arrays hold */
    char **names, **specs; /* the driver's agents (dc.names, dc.specs) */
    int64_t *games;        /* ranked games handed out, finished or not */
    int64_t *done;         /* ranked games finished */
    int64_t *faults;       /* ranked games forfeited */
    int64_t *last;         /* L.seq when it last got a ranked game */
    int64_t *since;        /* tables before its first ranked one (-1: none yet) */
    int *val_left;         /* validation games still to hand out */
    int *val_live;         /* validation games in flight */
    bool *val_bad;         /* a validation game forfeited */
    double *elo, *se;
    int64_t *met; /* cap * cap: ranked games between two agents */
    ranked_game *hist;
    size_t n_hist, cap_hist;
    int64_t since_fit;
    sched_game *q; /* games handed out but not yet started, oldest first */
    size_t q_head, q_n, q_cap;
    int64_t next_id, next_group, val_seq, seq, handed;
    double t_end, last_reload;
    arena_rng rng;
    bool fatal;
    bool frozen; /* the finals are coming: no new tables */
    char err[512];
    /* PostgreSQL: workers play the tables; results are read back in the
     * order they were posted, each counted once (counted[id]). */
    bool pg, resync;
    int64_t cursor, n_counted;
    unsigned char *counted;
    int64_t cap_counted;
    double last_check;
} lrun;

static int set_state(lrun *L, int a, ladder_state st, const char *reason, const char *err_text);

static void grow(lrun *L, int n)
{
    if (n <= L->cap) return;
    int c = L->cap ? L->cap : 8;
    while (c < n)
        c *= 2;
#define GROW(p)                                                                                    \
    do {                                                                                           \
        L->p = xrealloc(L->p, sizeof *L->p * (size_t)c);                                           \
        memset(L->p + L->cap, 0, sizeof *L->p * (size_t)(c - L->cap));                             \
    } while (0)
    GROW(names);
    GROW(specs);
    GROW(games);
    GROW(done);
    GROW(faults);
    GROW(last);
    GROW(since);
    GROW(val_left);
    GROW(val_live);
    GROW(val_bad);
    GROW(elo);
    GROW(se);
#undef GROW
    int64_t *met = xcalloc((size_t)c * (size_t)c, sizeof *met);
    for (int i = 0; i < L->cap; i++)
        memcpy(met + (size_t)i * (size_t)c, L->met + (size_t)i * (size_t)L->cap,
               sizeof *met * (size_t)L->cap);
    free(L->met);
    L->met = met;
    L->cap = c;
}

static int64_t met(void *ctx, int a, int b)
{
    lrun *L = ctx;
    return L->met[(size_t)a * (size_t)L->cap + (size_t)b];
}

static void refit(lrun *L)
{
    int n = L->roster.n;
    double *ci = xcalloc((size_t)n + 1, sizeof *ci);
    ladder_fit(L->hist, L->n_hist, n, L->elo, ci);
    for (int i = 0; i < n; i++)
        L->se[i] = ci[i] / 1.96;
    free(ci);
    L->since_fit = 0;
}

/* Takes up the roster as the store has it now: new versions (to the driver,
 * and to validation) and states others wrote (retired). */
static int reload(lrun *L)
{
    ladder_roster r;
    if (ladder_load(L->db, &r, L->err, sizeof L->err) != 0) return -1;
    int before = L->roster.n;
    grow(L, r.n);
    for (int i = before; i < r.n; i++) {
        L->names[i] = xasprintf("%s/v%d", r.e[i].name, r.e[i].version);
        L->specs[i] = xstrdup(r.e[i].spec);
        L->val_left[i] = r.e[i].state == LADDER_VALIDATING ? L->ls->validation_games : 0;
        L->se[i] = LADDER_CI_UNKNOWN / 1.96;
        L->since[i] = -1;
    }
    ladder_roster_free(&L->roster);
    L->roster = r;
    if (!L->frozen && store_meta_number(L->db, LADDER_FROZEN, 0) != 0) {
        L->frozen = true;
        if (!L->lim->quiet)
            fprintf(stderr,
                    "arena: ladder: frozen for the finals: finishing the games in flight\n");
    }
    L->dc.names = L->names;
    L->dc.specs = L->specs;
    L->dc.n_agents = r.n;
    L->last_reload = clock_now_ms();
    /* With no validation games to play (--validation-games 0), a new
     * version is active at once. */
    for (int i = before; i < r.n; i++)
        if (r.e[i].state == LADDER_VALIDATING && L->ls->validation_games == 0 &&
            set_state(L, i, LADDER_ACTIVE, "", "") != 0)
            return -1;
    return 0;
}

static void enqueue(lrun *L, const sched_game *g)
{
    if (L->q_head > 0 && L->q_head == L->q_n) L->q_head = L->q_n = 0;
    if (L->q_n == L->q_cap) {
        L->q_cap = L->q_cap ? L->q_cap * 2 : 16;
        L->q = xrealloc(L->q, sizeof *L->q * L->q_cap);
    }
    L->q[L->q_n++] = *g;
}

static bool limit_reached(const lrun *L)
{
    return (L->lim->games > 0 && L->handed >= L->lim->games) ||
           (L->t_end > 0 && clock_now_ms() >= L->t_end);
}

static uint64_t game_seed(const lrun *L, int64_t id, int64_t group)
{
    return L->ls->pairing == PAIRING_DUPLICATE
               ? arena_game_seed_derive(L->ls->seed, SEED_GROUP, (uint64_t)group)
               : arena_game_seed_derive(L->ls->seed, SEED_GAME, (uint64_t)id);
}

static bool next_validation(lrun *L, sched_game *g)
{
    for (int i = 0; i < L->roster.n; i++) {
        if (L->roster.e[i].state != LADDER_VALIDATING || L->val_left[i] <= 0 || L->val_bad[i])
            continue;
        memset(g, 0, sizeof *g);
        g->id = LADDER_VALIDATION_ID + ++L->val_seq;
        g->group = g->id;
        g->seed = arena_game_seed_derive(L->ls->seed, SEED_GAME, (uint64_t)g->id);
        g->players = L->ls->players;
        for (int k = 0; k < g->players; k++)
            g->seat[k] = i; /* against copies of itself */
        L->val_left[i]--;
        L->val_live[i]++;
        return true;
    }
    return false;
}

/* A table by the matchmaking policy, played once in each seat rotation. */
static bool next_table(lrun *L)
{
    int n = 0, players = L->ls->players;
    mm_entrant *c = xcalloc((size_t)L->roster.n + 1, sizeof *c);
    for (int i = 0; i < L->roster.n; i++) {
        const ladder_entrant *e = &L->roster.e[i];
        if (e->state != LADDER_ACTIVE) continue;
        int author = -1;
        for (int j = 0; e->author[0] && j <= i; j++)
            if (strcmp(L->roster.e[j].author, e->author) == 0) {
                author = j;
                break;
            }
        if (L->since[i] < 0) L->since[i] = L->next_group - 1;
        c[n++] = (mm_entrant){.id = i,
                              .author = author,
                              .games = L->games[i],
                              .last = L->last[i],
                              .rating = L->elo[i],
                              .se = L->se[i],
                              .provisional = L->se[i] * 1.96 > LADDER_SETTLED_CI,
                              .since = L->since[i]};
    }
    mm_params p = {.players = players,
                   .window = L->ls->window,
                   .variety = L->ls->variety,
                   .separate_authors = L->ls->separate_authors,
                   .tables = L->next_group - 1};
    int table[RANKED_MAX];
    bool ok = mm_pick(c, n, &p, met, L, &L->rng, table);
    if (ok) {
        sched_game g[RANKED_MAX];
        int64_t group = L->next_group++;
        L->seq++;
        for (int r = 0; r < players; r++) {
            memset(&g[r], 0, sizeof g[r]);
            g[r].id = L->next_id++;
            g[r].group = group;
            g[r].players = players;
            g[r].seed = game_seed(L, g[r].id, group);
            for (int k = 0; k < players; k++)
                g[r].seat[k] = c[mm_rotation(table, players, r, k)].id;
        }
        if (store_append(L->db, g, (size_t)players) != 0) {
            ok = false;
            if (L->pg && !store_pg_reachable(L->db)) {
                /* Tried again once it is back, on the ids the store has
                 * (the append may have been committed as the line fell). */
                L->next_group--;
                L->next_id -= players;
                L->seq--;
                L->resync = true;
            } else {
                snprintf(L->err, sizeof L->err, "%s", store_error(L->db));
                L->fatal = true;
            }
        }
        for (int r = 0; ok && r < players; r++) {
            if (!L->pg) enqueue(L, &g[r]);
            L->handed++;
            for (int k = 0; k < players; k++) {
                int a = g[r].seat[k];
                L->games[a]++;
                L->last[a] = L->seq;
                for (int j = 0; j < players; j++)
                    if (j != k) L->met[(size_t)a * (size_t)L->cap + (size_t)g[r].seat[j]]++;
            }
        }
    }
    free(c);
    return ok;
}

static bool s_next(void *ctx, sched_game *g)
{
    lrun *L = ctx;
    if (L->fatal) return false;
    if (L->q_head < L->q_n) {
        *g = L->q[L->q_head++];
        return true;
    }
    if (L->frozen) return false;
    if (next_validation(L, g)) return true;
    if (limit_reached(L) || !next_table(L)) return false;
    *g = L->q[L->q_head++];
    return true;
}

static int set_state(lrun *L, int a, ladder_state st, const char *reason, const char *err_text)
{
    ladder_entrant *e = &L->roster.e[a];
    if (ladder_set_state(L->db, e, st, reason, err_text) != 0) {
        snprintf(L->err, sizeof L->err, "%s", store_error(L->db));
        return -1;
    }
    e->state = st;
    free(e->reason);
    e->reason = xstrdup(reason);
    if (!L->lim->quiet)
        fprintf(stderr, "arena: ladder: %s/v%d is %s%s%s\n", e->name, e->version,
                ladder_state_name(st), reason[0] ? ": " : "", reason);
    return 0;
}

static void validation_done(lrun *L, const tgame *g)
{
    int a = g->s.seat[0];
    L->val_live[a]--;
    if (L->roster.e[a].state != LADDER_VALIDATING) return; /* retired meanwhile */
    for (int k = 0; k < g->s.players && !L->val_bad[a]; k++) {
        if (!g->forfeit[k][0]) continue;
        L->val_bad[a] = true;
        char why[400];
        snprintf(why, sizeof why, "failed validation (game %lld): %s: %s",
                 (long long)(g->s.id - LADDER_VALIDATION_ID), g->forfeit[k],
                 g->detail ? g->detail->fault_msg[k] : "");
        if (set_state(L, a, LADDER_DISABLED, why, g->detail ? g->detail->stderr_tail[k] : "") != 0)
            L->fatal = true;
    }
    if (!L->val_bad[a] && L->val_left[a] == 0 && L->val_live[a] == 0 &&
        set_state(L, a, LADDER_ACTIVE, "", "") != 0)
        L->fatal = true;
}

/* A forfeit's message as the store has it (a result a worker posted comes
 * back without its detail). */
static void stored_fault(lrun *L, int64_t game, int agent, char *msg, size_t len)
{
    store_forfeit *f;
    size_t n;
    if (store_forfeits(L->db, &f, &n) != 0) return;
    for (size_t i = 0; i < n; i++)
        if (f[i].game == game && f[i].agent == agent) snprintf(msg, len, "%s", f[i].message);
    store_forfeits_free(f, n);
}

/* Halite's rule, in counts a ladder can state: a version that forfeits
 * max_faults ranked games, or max_fault_rate of them once it has played
 * LADDER_RATE_MIN_GAMES, stops playing until it is replaced. */
static void check_faults(lrun *L, int a, const tgame *g, int k)
{
    const ladder_settings *ls = L->ls;
    if (L->roster.e[a].state != LADDER_ACTIVE) return;
    bool many = L->faults[a] >= ls->max_faults;
    bool often = L->done[a] >= LADDER_RATE_MIN_GAMES &&
                 (double)L->faults[a] >= ls->max_fault_rate * (double)L->done[a];
    if (!many && !often) return;
    char why[400], msg[240] = "";
    if (g->detail)
        snprintf(msg, sizeof msg, "%s", g->detail->fault_msg[k]);
    else
        stored_fault(L, g->s.id, a, msg, sizeof msg);
    snprintf(why, sizeof why,
             "%lld faults in %lld ranked games (limit %lld, or %.0f%% after %d); "
             "last in game %lld: %s: %s",
             (long long)L->faults[a], (long long)L->done[a], (long long)ls->max_faults,
             100 * ls->max_fault_rate, LADDER_RATE_MIN_GAMES, (long long)g->s.id, g->forfeit[k],
             msg);
    if (set_state(L, a, LADDER_DISABLED, why, g->detail ? g->detail->stderr_tail[k] : "") != 0)
        L->fatal = true;
}

static void history_add(lrun *L, const tgame *g)
{
    if (L->n_hist == L->cap_hist) {
        L->cap_hist = L->cap_hist ? L->cap_hist * 2 : 256;
        L->hist = xrealloc(L->hist, sizeof *L->hist * L->cap_hist);
    }
    ranked_game *r = &L->hist[L->n_hist++];
    r->k = g->s.players;
    for (int k = 0; k < g->s.players; k++) {
        r->agent[k] = g->s.seat[k];
        r->rank[k] = g->rank[k];
        L->done[g->s.seat[k]]++;
        if (g->forfeit[k][0]) L->faults[g->s.seat[k]]++;
    }
    L->since_fit++;
}

static bool s_done(void *ctx, const tgame *g, const char *log, bool *fatal)
{
    lrun *L = ctx;
    if (g->s.id >= LADDER_VALIDATION_ID) {
        validation_done(L, g);
    } else if (store_result(L->db, g, log) < 0) {
        snprintf(L->err, sizeof L->err, "%s", store_error(L->db));
        L->fatal = true;
    } else {
        history_add(L, g);
        for (int k = 0; k < g->s.players; k++)
            if (g->forfeit[k][0]) check_faults(L, g->s.seat[k], g, k);
        if (L->since_fit >= LADDER_REFIT_GAMES) refit(L);
    }
    *fatal = L->fatal;
    return !L->fatal;
}

static bool s_more(void *ctx)
{
    lrun *L = ctx;
    return !L->fatal && !L->frozen && !limit_reached(L);
}

static void s_tick(void *ctx)
{
    lrun *L = ctx;
    if (store_tick(L->db) != 0) {
        snprintf(L->err, sizeof L->err, "%s", store_error(L->db));
        L->fatal = true;
    }
    if (L->fatal || clock_now_ms() - L->last_reload < LADDER_RELOAD_MS) return;
    if (reload(L) != 0) L->fatal = true;
    if (L->since_fit > 0) refit(L);
}

static bool s_active(void *ctx, int agent)
{
    lrun *L = ctx;
    ladder_state st = L->roster.e[agent].state;
    return st == LADDER_ACTIVE || st == LADDER_VALIDATING;
}

static void s_status(void *ctx, char *buf, size_t len)
{
    lrun *L = ctx;
    int active = 0, validating = 0, best = -1;
    for (int i = 0; i < L->roster.n; i++) {
        ladder_state st = L->roster.e[i].state;
        active += st == LADDER_ACTIVE;
        validating += st == LADDER_VALIDATING;
        if (st == LADDER_ACTIVE && L->done[i] > 0 && (best < 0 || L->elo[i] > L->elo[best]))
            best = i;
    }
    if (best >= 0)
        snprintf(buf, len, "%d active, %d validating  leader %s %+.0f", active, validating,
                 L->names[best], L->elo[best]);
    else
        snprintf(buf, len, "%d active, %d validating", active, validating);
}

/* The stored games: finished ones into the history, pending ones (a run
 * that was killed) to be played first, on their stored seeds. */
static int resume(lrun *L)
{
    tgame *g;
    size_t n;
    if (store_games(L->db, false, &g, &n) != 0) {
        snprintf(L->err, sizeof L->err, "%s", store_error(L->db));
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        const sched_game *s = &g[i].s;
        if (s->id >= L->next_id) L->next_id = s->id + 1;
        if (s->group >= L->next_group) L->next_group = s->group + 1;
        for (int k = 0; k < s->players; k++) {
            if (L->since[s->seat[k]] < 0) L->since[s->seat[k]] = s->group - 1;
            L->games[s->seat[k]]++;
            for (int j = 0; j < s->players; j++)
                if (j != k) L->met[(size_t)s->seat[k] * (size_t)L->cap + (size_t)s->seat[j]]++;
        }
        if (L->pg) /* results: read by pg_watch; pending games: claimed */
            continue;
        if (g[i].done)
            history_add(L, &g[i]);
        else
            enqueue(L, s);
    }
    free(g);
    return 0;
}

/* ---- PostgreSQL: this run schedules, workers (and this run) play ---- */

/* A ranked result, counted once whoever posted it and however often it
 * is read. */
static void pg_count(lrun *L, const tgame *g)
{
    int64_t id = g->s.id;
    /* Ids past any this ladder could have scheduled (a row written by
     * hand) are not counted, nor seats the roster has not reached yet. */
    if (id < 1 || id > store_schedule_cap(L->next_id)) return;
    for (int k = 0; k < g->s.players; k++)
        if (g->s.seat[k] >= L->roster.n) return;
    if (id >= L->cap_counted) {
        int64_t c = L->cap_counted ? L->cap_counted : 256;
        while (c <= id)
            c *= 2;
        L->counted = xrealloc(L->counted, (size_t)c);
        memset(L->counted + L->cap_counted, 0, (size_t)(c - L->cap_counted));
        L->cap_counted = c;
    }
    if (L->counted[id]) return;
    L->counted[id] = 1;
    L->n_counted++;
    history_add(L, g);
    for (int k = 0; k < g->s.players; k++)
        if (g->forfeit[k][0]) check_faults(L, g->s.seat[k], g, k);
}

/* The results posted since the last look. A result is numbered when it is
 * posted but visible once committed, so one numbered before another can
 * appear after the cursor passed it: when the store holds more finished
 * games than were counted, every result is read again (at most once per
 * reload interval). */
static void pg_results(lrun *L)
{
    int64_t total, done;
    if (store_counts(L->db, &total, &done) != 0) return;
    tgame *g;
    size_t n;
    if (store_pg_results_since(L->db, &L->cursor, &g, &n) != 0) return;
    for (size_t i = 0; i < n; i++)
        pg_count(L, &g[i]);
    free(g);
    double t = clock_now_ms();
    if (done > L->n_counted && t - L->last_check >= LADDER_RELOAD_MS) {
        L->last_check = t;
        int64_t from = 0;
        if (store_pg_results_since(L->db, &from, &g, &n) != 0) return;
        for (size_t i = 0; i < n; i++)
            pg_count(L, &g[i]);
        free(g);
    }
    if (L->since_fit >= LADDER_REFIT_GAMES) refit(L);
}

static bool pg_going(void *ctx)
{
    lrun *L = ctx;
    return !L->fatal && !L->frozen && !limit_reached(L);
}

static void pg_watch(void *ctx)
{
    lrun *L = ctx;
    if (L->fatal) return;
    if (clock_now_ms() - L->last_reload >= LADDER_RELOAD_MS) {
        if (reload(L) != 0) {
            if (store_pg_reachable(L->db)) {
                L->fatal = true;
                return;
            }
            L->err[0] = '\0'; /* away: tried again at the next tick */
        }
        if (L->since_fit > 0) refit(L);
    }
    pg_results(L);
    if (L->fatal || !pg_going(L)) return;
    if (L->resync) {
        int64_t id, group;
        if (store_pg_last_game(L->db, &id, &group) != 0) return;
        if (id >= L->next_id) L->next_id = id + 1;
        if (group >= L->next_group) L->next_group = group + 1;
        L->resync = false;
    }
    int64_t waiting, held;
    if (store_pg_waiting(L->db, &waiting, &held) != 0) return;
    int64_t want = held > LADDER_AHEAD_MIN ? held : LADDER_AHEAD_MIN;
    while (waiting < want && !L->fatal && !L->resync && pg_going(L) && next_table(L))
        waiting += L->ls->players;
}

static bool pg_local_next(void *ctx, sched_game *g)
{
    lrun *L = ctx;
    return !L->fatal && !L->frozen && next_validation(L, g);
}

static void pg_local_done(void *ctx, const tgame *g)
{
    validation_done(ctx, g);
}

static const char *pg_failed(void *ctx)
{
    lrun *L = ctx;
    return L->fatal ? L->err : NULL;
}

static int pg_run(lrun *L, char *err, size_t errlen)
{
    const ladder_limits *lim = L->lim;
    dist_cfg c = {.concurrency = lim->concurrency,
                  .log_root = lim->logs,
                  .lease_s = lim->lease > 0 ? lim->lease : DIST_LEASE_DEFAULT,
                  .who = "ladder run",
                  .progress = lim->quiet ? NULL : stderr,
                  .quiet = lim->quiet,
                  .watch = pg_watch,
                  .status = s_status,
                  .ctx = L,
                  .local_next = pg_local_next,
                  .local_done = pg_local_done,
                  .going = pg_going,
                  .failed = pg_failed,
                  .active = s_active,
                  .live = lim->live};
    store_pg_identity(L->db, "coordinator", c.lease_s);
    int rc = dist_play(L->db, &c, err, errlen);
    if (rc == DIST_DB_DOWN || rc == DIST_REFUSED) rc = DRIVER_FAILED;
    /* The results posted after the last look, every one of them. */
    L->last_check = -1e300;
    pg_results(L);
    return rc;
}

int ladder_run(store *db, const ladder_settings *ls, const run_options *ro,
               const ladder_limits *lim, char *err, size_t errlen)
{
    lrun L;
    memset(&L, 0, sizeof L);
    L.db = db;
    L.ls = ls;
    L.lim = lim;
    L.pg = store_is_pg(db);
    L.next_id = L.next_group = 1;
    /* The matchmaking draws: seeded apart from the games' seeds. */
    arena_rng_seed(&L.rng, arena_random_u64());
    if (lim->hours > 0) L.t_end = clock_now_ms() + lim->hours * 3600e3;
    L.dc = (driver_cfg){.game = ls->game,
                        .ro = ro,
                        .concurrency = lim->concurrency,
                        .log_dir = lim->logs,
                        .progress = lim->quiet ? NULL : stderr,
                        .poll_ms = STORE_GROUP_MS,
                        .start_failure_forfeits = true,
                        .live = lim->live};
    int rc = DRIVER_FAILED;
    if (reload(&L) == 0 && resume(&L) == 0) {
        refit(&L);
        if (!lim->quiet && L.pg) {
            int64_t total = 0, done = 0;
            store_counts(db, &total, &done);
            fprintf(stderr,
                    "arena: ladder: %s, %d versions, %lld ranked games, %lld scheduled and "
                    "unfinished\n",
                    ls->game->name, L.roster.n, (long long)done, (long long)(total - done));
        } else if (!lim->quiet) {
            fprintf(stderr, "arena: ladder: %s, %d versions, %zu ranked games, %zu to resume\n",
                    ls->game->name, L.roster.n, L.n_hist, L.q_n - L.q_head);
        }
        driver_src src = {.next = s_next,
                          .done = s_done,
                          .status = s_status,
                          .more = s_more,
                          .tick = s_tick,
                          .active = s_active,
                          .ctx = &L};
        rc = L.pg ? pg_run(&L, err, errlen) : driver_run(&L.dc, &src, err, errlen);
        if (store_flush(db) != 0 && !L.err[0]) snprintf(L.err, sizeof L.err, "%s", store_error(db));
    }
    if (L.err[0]) {
        snprintf(err, errlen, "%s", L.err);
        if (rc == DRIVER_OK) rc = DRIVER_FAILED;
    }
    if (!lim->quiet && rc == DRIVER_OK)
        fprintf(stderr, "arena: ladder: %zu ranked results in the ratings\n", L.n_hist);
    for (int i = 0; i < L.roster.n; i++) {
        free(L.names[i]);
        free(L.specs[i]);
    }
    ladder_roster_free(&L.roster);
    free(L.names);
    free(L.specs);
    free(L.games);
    free(L.done);
    free(L.faults);
    free(L.last);
    free(L.since);
    free(L.val_left);
    free(L.val_live);
    free(L.val_bad);
    free(L.elo);
    free(L.se);
    free(L.met);
    free(L.hist);
    free(L.q);
    free(L.counted);
    return rc;
}
