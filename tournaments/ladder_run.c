#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "driver.h"
#include "ladder.h"
#include "ladder_finals.h"
#include "ladder_run.h"
#include "matchmake.h"
#include "seeds.h"
#include "util.h"

/* Ratings are fitted again after this many ranked results, or at the next
 * reload when fewer came. */
#define LADDER_REFIT_GAMES 10

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
            snprintf(L->err, sizeof L->err, "%s", store_error(L->db));
            L->fatal = true;
            ok = false;
        }
        for (int r = 0; ok && r < players; r++) {
            enqueue(L, &g[r]);
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
    char why[400];
    snprintf(why, sizeof why,
             "%lld faults in %lld ranked games (limit %lld, or %.0f%% after %d); "
             "last in game %lld: %s: %s",
             (long long)L->faults[a], (long long)L->done[a], (long long)ls->max_faults,
             100 * ls->max_fault_rate, LADDER_RATE_MIN_GAMES, (long long)g->s.id, g->forfeit[k],
             g->detail ? g->detail->fault_msg[k] : "");
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
        if (g[i].done)
            history_add(L, &g[i]);
        else
            enqueue(L, s);
    }
    free(g);
    return 0;
}

int ladder_run(store *db, const ladder_settings *ls, const run_options *ro,
               const ladder_limits *lim, char *err, size_t errlen)
{
    lrun L;
    memset(&L, 0, sizeof L);
    L.db = db;
    L.ls = ls;
    L.lim = lim;
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
        if (!lim->quiet)
            fprintf(stderr, "arena: ladder: %s, %d versions, %zu ranked games, %zu to resume\n",
                    ls->game->name, L.roster.n, L.n_hist, L.q_n - L.q_head);
        driver_src src = {.next = s_next,
                          .done = s_done,
                          .status = s_status,
                          .more = s_more,
                          .tick = s_tick,
                          .active = s_active,
                          .ctx = &L};
        rc = driver_run(&L.dc, &src, err, errlen);
        if (store_flush(db) != 0 && !L.err[0]) snprintf(L.err, sizeof L.err, "%s", store_error(db));
    }
    if (L.err[0]) {
        snprintf(err, errlen, "%s", L.err);
        if (rc == DRIVER_OK) rc = DRIVER_FAILED;
    }
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
    return rc;
}
