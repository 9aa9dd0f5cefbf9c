/* Games of a shared PostgreSQL tournament through the ordinary driver. */
#include "distributed.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cliargs.h"
#include "driver.h"
#include "hostspeed.h"
#include "ladder.h"
#include "spec.h"
#include "store_pg.h"
#include "util.h"

typedef struct held {
    tgame g;
    tgame_detail det;
    char *log;
} held;

/* A ladder's roster is read again this often by a worker (for the versions
 * that no longer play), besides whenever a game seats a new version. */
#define DIST_ROSTER_MS 10000.0
/* A ladder's run schedules its next tables as results come in: a worker
 * (dist_cfg.linger) that finds none unfinished waits this long for them
 * before it leaves (and closes its agents). */
#define DIST_LADDER_LINGER_S 5.0

typedef struct dctx {
    store *db;
    const dist_cfg *c;
    char name[80];
    held *q; /* results not posted yet (database away) */
    size_t nq, capq;
    int64_t played, dropped, done0;
    double t0, last_beat, last_print;
    bool warned_down, lock_lost;
    /* The agents, which a ladder appends to as versions come (older
     * strings stay where they are: the driver holds them). */
    driver_cfg *dc;
    char **names, **specs;
    int n_agents, cap_agents;
    bool ladder;
    ladder_roster roster; /* a worker's view of who still plays */
    double roster_at;
    double busy_at; /* when a game of the ladder was last seen unfinished */
    /* A game handed to this host whose agents could not be read yet (the
     * database went away): handed out again first. */
    sched_game stash;
    bool stashed, stash_local;
    int claimed;    /* games of the store in flight here */
    int64_t *local; /* ids of cfg->local_next games in flight */
    size_t n_local, cap_local;
} dctx;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* 1 posted, 0 dropped (already recorded), -1 not reachable. */
static int post(dctx *x, const tgame *g, const char *log)
{
    int r = store_result(x->db, g, log);
    if (r == 0) {
        x->dropped++;
        fprintf(stderr,
                "arena: %s: game %lld of %s already has a result (played again after this "
                "worker's lease expired): this late result is dropped\n",
                x->c->who, (long long)g->s.id, x->name);
    } else if (r < 0 && !x->warned_down) {
        x->warned_down = true;
        fprintf(stderr, "arena: %s: %s; results kept until it is back\n", x->c->who,
                store_error(x->db));
    } else if (r > 0 && x->warned_down) {
        x->warned_down = false;
        fprintf(stderr, "arena: %s: the database is back\n", x->c->who);
    }
    return r;
}

static void flush(dctx *x)
{
    if (x->nq == 0) return;
    size_t k = 0;
    while (k < x->nq) {
        held *h = &x->q[k];
        h->g.detail = &h->det;
        if (post(x, &h->g, h->log) < 0) break;
        free(h->log);
        k++;
    }
    memmove(x->q, x->q + k, (x->nq - k) * sizeof *x->q);
    x->nq -= k;
}

static const char *failed(const dctx *x)
{
    return x->c->failed ? x->c->failed(x->c->ctx) : NULL;
}

static void load_roster(dctx *x)
{
    ladder_roster r;
    char err[256];
    x->roster_at = now_s();
    if (ladder_load(x->db, &r, err, sizeof err) != 0) return; /* the last one stays */
    ladder_roster_free(&x->roster);
    x->roster = r;
}

/* Reads the agents again when g seats one not known yet (a ladder's new
 * version). 0 when every seat is known, -1 when they cannot be read now. */
static int ensure_agents(dctx *x, const sched_game *g)
{
    int top = -1;
    for (int k = 0; k < g->players; k++)
        if (g->seat[k] > top) top = g->seat[k];
    if (top < x->n_agents) return 0;
    char **names, **specs;
    int n;
    if (store_agents(x->db, &names, &specs, &n) != 0) return -1;
    if (n > x->cap_agents) {
        x->cap_agents = n * 2;
        x->names = xrealloc(x->names, sizeof *x->names * (size_t)x->cap_agents);
        x->specs = xrealloc(x->specs, sizeof *x->specs * (size_t)x->cap_agents);
    }
    for (int i = x->n_agents; i < n; i++) {
        x->names[i] = xstrdup(names[i]);
        x->specs[i] = xstrdup(specs[i]);
    }
    if (n > x->n_agents) x->n_agents = n;
    store_agents_free(names, specs, n);
    x->dc->names = x->names;
    x->dc->specs = x->specs;
    x->dc->n_agents = x->n_agents;
    if (x->ladder && !x->c->active) load_roster(x);
    return top < x->n_agents ? 0 : -1;
}

static bool d_next(void *ctx, sched_game *g)
{
    dctx *x = ctx;
    if (x->lock_lost || failed(x)) return false;
    sched_game s;
    bool local = false;
    if (x->stashed) {
        s = x->stash;
        local = x->stash_local;
        x->stashed = false;
    } else if (x->c->local_next && x->c->local_next(x->c->ctx, &s)) {
        local = true;
    } else if (x->claimed >= x->c->concurrency || store_pg_claim(x->db, &s) != 1) {
        return false;
    } else {
        x->claimed++;
    }
    if (ensure_agents(x, &s) != 0) {
        x->stash = s;
        x->stash_local = local;
        x->stashed = true;
        return false;
    }
    if (local) {
        if (x->n_local == x->cap_local) {
            x->cap_local = x->cap_local ? 2 * x->cap_local : 8;
            x->local = xrealloc(x->local, x->cap_local * sizeof *x->local);
        }
        x->local[x->n_local++] = s.id;
    }
    *g = s;
    return true;
}

/* Whether game id is a cfg->local_next one (then no longer in flight). */
static bool local_game(dctx *x, int64_t id)
{
    for (size_t i = 0; i < x->n_local; i++)
        if (x->local[i] == id) {
            x->local[i] = x->local[--x->n_local];
            return true;
        }
    return false;
}

static bool d_active(void *ctx, int agent)
{
    dctx *x = ctx;
    if (x->c->active) return x->c->active(x->c->ctx, agent);
    if (agent >= x->roster.n) return true;
    ladder_state st = x->roster.e[agent].state;
    return st == LADDER_ACTIVE || st == LADDER_VALIDATING;
}

static bool d_done(void *ctx, const tgame *g, const char *log, bool *fatal)
{
    dctx *x = ctx;
    (void)fatal;
    if (local_game(x, g->s.id)) {
        x->c->local_done(x->c->ctx, g);
        return true;
    }
    x->claimed--;
    x->played++;
    if (x->nq == 0 && post(x, g, log) >= 0) return true;
    if (x->nq == x->capq) {
        x->capq = x->capq ? 2 * x->capq : 16;
        x->q = xrealloc(x->q, x->capq * sizeof *x->q);
    }
    held *h = &x->q[x->nq++];
    h->g = *g;
    h->det = *g->detail;
    h->g.detail = NULL;
    h->log = log ? xstrdup(log) : NULL;
    return true;
}

static void fmt_dur(char *buf, size_t len, double s)
{
    long t = (long)(s + 0.5);
    if (!isfinite(s) || s < 0)
        snprintf(buf, len, "?");
    else if (t >= 3600)
        snprintf(buf, len, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
    else
        snprintf(buf, len, "%ld:%02ld", t / 60, t % 60);
}

/* Games done, rate, ETA and the games per worker, from the database. */
static void progress(dctx *x, bool final)
{
    FILE *out = x->c->progress;
    double t = now_s();
    if (!out || (!final && t - x->last_print < 2.0)) return;
    x->last_print = t;
    int64_t total, done;
    if (store_counts(x->db, &total, &done) != 0) {
        fprintf(out, "%s\n", store_error(x->db));
        fflush(out);
        return;
    }
    double el = t - x->t0, rate = el > 0 ? (double)(done - x->done0) / el : 0;
    char dur[24], eta[48];
    if (final || done >= total) { /* as the local driver's line says it */
        fmt_dur(dur, sizeof dur, el);
        snprintf(eta, sizeof eta, "done in %s", dur);
    } else if (rate > 0 && el >= 3) {
        fmt_dur(dur, sizeof dur, (double)(total - done) / rate);
        snprintf(eta, sizeof eta, "ETA %s", dur);
    } else {
        snprintf(eta, sizeof eta, "ETA after 3 s");
    }
    abuf line = {0};
    if (x->ladder) /* open-ended: no total, no ETA */
        abuf_addf(&line, "%lld games  %.1f games/s", (long long)done, rate);
    else
        abuf_addf(&line, "%lld/%lld games  %.1f games/s  %s", (long long)done, (long long)total,
                  rate, eta);
    store_worker *w = NULL;
    size_t n = 0;
    if (store_workers(x->db, false, &w, &n) == 0) {
        for (size_t i = 0; i < n; i++)
            abuf_addf(&line, "%s%s %lld", i ? ", " : "  workers: ", w[i].name,
                      (long long)w[i].games);
        store_workers_free(w, n);
    }
    char st[200] = "";
    if (x->c->status) x->c->status(x->c->ctx, st, sizeof st);
    if (st[0]) abuf_addf(&line, "  %s", st);
    abuf_addc(&line, '\0');
    fprintf(out, "%s\n", (const char *)line.data);
    fflush(out);
    abuf_free(&line);
}

static void d_tick(void *ctx)
{
    dctx *x = ctx;
    double t = now_s();
    if (t - x->last_beat >= x->c->lease_s / 3) {
        x->last_beat = t;
        store_pg_heartbeat(x->db);
    }
    flush(x);
    if (store_pg_lock_lost(x->db)) x->lock_lost = true;
    if (x->c->watch) x->c->watch(x->c->ctx);
    if (x->ladder && !x->c->active && (t - x->roster_at) * 1000 >= DIST_ROSTER_MS) load_roster(x);
    progress(x, false);
}

static bool d_more(void *ctx)
{
    dctx *x = ctx;
    if (x->lock_lost) return false;
    if (x->nq > 0) return true;
    if (failed(x)) return false;
    if (x->stashed) return true;
    if (x->c->watch) x->c->watch(x->c->ctx);
    if (x->c->going && x->c->going(x->c->ctx)) return true;
    int64_t open = store_pg_unfinished(x->db);
    if (open != 0) { /* -1: unreachable, wait for it */
        x->busy_at = now_s();
        return true;
    }
    return x->ladder && x->c->linger && now_s() - x->busy_at < DIST_LADDER_LINGER_S;
}

/* The tournament's stored settings: game, agents, match flags. A worker
 * plays each game on its stored seed: it needs no master seed. */
typedef struct tsettings {
    const arena_game_vt *game;
    char **names, **specs;
    int n_agents;
    argvec run_args;
    run_options ro;
} tsettings;

static void settings_free(tsettings *t)
{
    store_agents_free(t->names, t->specs, t->n_agents);
    argvec_free(&t->run_args);
}

static int load_settings(store *db, tsettings *t, char *err, size_t errlen)
{
    memset(t, 0, sizeof *t);
    run_options_default(&t->ro);
    char *game = store_meta(db, "game");
    char *ra = store_meta(db, "run_args");
    int rc = -1;
    t->game = game ? arena_find_game(game) : NULL;
    if (!t->game)
        snprintf(err, errlen, "unknown game '%s' (an older or newer arena?)", game ? game : "");
    else if (!ra || argvec_from_json(ra, &t->run_args) != 0)
        snprintf(err, errlen, "no match settings stored (made by an older arena?)");
    else if (store_agents(db, &t->names, &t->specs, &t->n_agents) != 0)
        snprintf(err, errlen, "%s", store_error(db));
    else
        rc = 0;
    for (int i = 0; rc == 0 && i < t->run_args.n; i++)
        if (run_options_parse(&t->ro, t->run_args.n, t->run_args.v, &i) != 1) {
            snprintf(err, errlen, "stored match flag '%s' not understood", t->run_args.v[i]);
            rc = -1;
        }
    free(game);
    free(ra);
    return rc;
}

/* Records this host's speed and, under --tc-scale auto, scales the move, bank
 * and game clocks by the reference's speed over this host's; refuses a host
 * out of range. Returns 0, DIST_REFUSED or DIST_DB_DOWN, with err. */
static int tc_scale(store *db, const dist_cfg *c, clock_config *clk, char *err, size_t errlen)
{
    if (c->speed <= 0) return 0;
    char *k = xasprintf(STORE_WORKER_SPEED "%s", store_pg_worker(db)), v[64];
    snprintf(v, sizeof v, "%.0f", c->speed);
    int rc = store_set_meta(db, k, v);
    free(k);
    if (rc != 0) goto down;
    char *mode = store_meta(db, "tc_scale");
    bool on = mode && strcmp(mode, "auto") == 0;
    free(mode);
    if (!on) return 0;
    double ref = store_meta_number(db, "tc_ref_speed", 0);
    if (!hostspeed_in_range(ref, c->speed)) {
        snprintf(err, errlen,
                 "this host's speed (%.0f games/s) is not within %gx of the speed the "
                 "tournament's clocks were set on (%.0f); --tc-scale auto refuses it",
                 c->speed, HOSTSPEED_RANGE, ref);
        return DIST_REFUSED;
    }
    double f = hostspeed_scale(ref, c->speed);
    clk->move_ms = llround((double)clk->move_ms * f);
    clk->bank_ms = llround((double)clk->bank_ms * f);
    if (clk->game_ms >= 0) clk->game_ms = llround((double)clk->game_ms * f);
    k = xasprintf(STORE_WORKER_SCALE "%s", store_pg_worker(db));
    snprintf(v, sizeof v, "%.3f", f);
    rc = store_set_meta(db, k, v);
    free(k);
    if (rc == 0) return 0;
down:
    snprintf(err, errlen, "%s", store_error(db));
    return DIST_DB_DOWN;
}

static int mkdir_one(const char *path)
{
    return mkdir(path, 0777) == 0 || errno == EEXIST ? 0 : -1;
}

int dist_play(store *db, const dist_cfg *c, char *err, size_t errlen)
{
    dctx x;
    memset(&x, 0, sizeof x);
    x.db = db;
    x.c = c;
    x.t0 = x.last_beat = x.busy_at = now_s();
    snprintf(x.name, sizeof x.name, "%s", store_pg_name(db));
    /* A ladder's entrants change as it goes (ensure_agents). */
    char *kind = store_meta(db, "kind");
    x.ladder = kind && strcmp(kind, "ladder") == 0;
    free(kind);
    tsettings t;
    if (load_settings(db, &t, err, errlen) != 0) {
        settings_free(&t);
        if (store_pg_reachable(db)) return DRIVER_FAILED;
        /* Not "unknown game ''", nor the last of the failed reads' errors. */
        snprintf(err, errlen, "the database went away before the settings of %s were read", x.name);
        return DIST_DB_DOWN;
    }
    int trc = tc_scale(db, c, &t.ro.clock, err, errlen);
    if (trc != 0) {
        settings_free(&t);
        return trc;
    }
    int64_t total;
    store_counts(db, &total, &x.done0);
    char *logdir = NULL;
    if (c->log_root && (c->concurrency > 0 || c->local_next)) {
        char abs[PATH_MAX];
        if (mkdir_one(c->log_root) != 0 || !realpath(c->log_root, abs)) {
            snprintf(err, errlen, "cannot create the log directory %s: %s", c->log_root,
                     strerror(errno));
            settings_free(&t);
            return DRIVER_FAILED;
        }
        logdir = xasprintf("%s/%s", abs, x.name);
        if (mkdir_one(logdir) != 0) {
            snprintf(err, errlen, "cannot create the log directory %s: %s", logdir,
                     strerror(errno));
            free(logdir);
            settings_free(&t);
            return DRIVER_FAILED;
        }
    }
    /* The agents move to x, which may append to them. */
    x.names = t.names;
    x.specs = t.specs;
    x.n_agents = x.cap_agents = t.n_agents;
    t.names = t.specs = NULL;
    t.n_agents = 0;
    driver_cfg dc = {.game = t.game,
                     .ro = &t.ro,
                     .names = x.names,
                     .specs = x.specs,
                     .n_agents = x.n_agents,
                     /* A ladder's local games need a slot even when it
                      * plays none of the store's. */
                     .concurrency = c->local_next && c->concurrency < 1 ? 1 : c->concurrency,
                     .log_dir = logdir,
                     .total = total,
                     .done_before = x.done0,
                     .progress = NULL,
                     .poll_ms = 250,
                     /* An entrant's program missing on this host costs it
                      * its games (the ladder counts the faults), not the
                      * worker its run. */
                     .start_failure_forfeits = x.ladder,
                     .live = c->live};
    x.dc = &dc;
    if (x.ladder && !c->active) load_roster(&x);
    driver_src src = {.next = d_next,
                      .done = d_done,
                      .more = d_more,
                      .tick = d_tick,
                      .active = x.ladder ? d_active : NULL,
                      .ctx = &x};
    if (c->watch) c->watch(c->ctx);
    int rc = driver_run(&dc, &src, err, errlen);
    flush(&x);
    const char *why = failed(&x);
    if (rc == DRIVER_OK && why) {
        snprintf(err, errlen, "%s", why);
        rc = DRIVER_FAILED;
    }
    if (rc == DRIVER_OK && x.lock_lost) {
        snprintf(err, errlen,
                 "lost the lock on %s after reconnecting (another coordinator took it, or the "
                 "old session still holds it on the server); the workers go on",
                 x.name);
        rc = DRIVER_FAILED;
    }
    if (rc == DRIVER_OK) progress(&x, true);
    if (!c->quiet)
        fprintf(stderr,
                "arena: %s: %s %s: %lld games played here, %lld late results "
                "dropped\n",
                c->who, x.ladder ? "ladder" : "tournament", x.name, (long long)x.played,
                (long long)x.dropped);
    for (size_t i = 0; i < x.nq; i++)
        free(x.q[i].log);
    free(x.q);
    free(x.local);
    store_agents_free(x.names, x.specs, x.n_agents);
    ladder_roster_free(&x.roster);
    free(logdir);
    settings_free(&t);
    return rc;
}
