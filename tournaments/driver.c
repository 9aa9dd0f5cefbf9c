/* The tournament driver on top of match.h. */
#include "driver.h"

#include <errno.h>
#include <event2/event.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "replay.h"
#include "sandbox.h"
#include "spawn.h"
#include "util.h"

#define MAX_ABORTS 3
/* Agent processes started per pass of the loop: a spawn (a fork; the exec
 * is not waited for) still takes the loop's time, so the agents already
 * playing are served between batches. */
#define SPAWN_BATCH 8

typedef struct inst {
    arena_agent *a;
    bool inuse;
    int gen; /* drv.gen when it was spawned */
} inst;

typedef struct pool {
    inst *v;
    int n, cap, made;
    int *idle, n_idle;   /* stack: instances free to play (O(1) acquire) */
    int *holes, n_holes; /* stack: indexes without an instance */
} pool;

typedef struct drv drv;

typedef struct slot {
    drv *d;
    bool used;
    tgame g;
    int pidx[RANKED_MAX]; /* instance index per seat, in its agent's pool */
    arena_agent *seated[RANKED_MAX];
    double t0;
    void *live; /* its board on the web front (--http), or NULL */
    char log[4096];
} slot;

struct drv {
    const driver_cfg *cfg;
    const driver_src *src;
    struct event_base *base;
    struct event *stop_ev, *tick;
    struct event *more; /* continues dispatch after a batch of spawns */
    struct event *poll; /* src->tick and a new look at src->next */
    pool *pools;
    int n_pools; /* agents the pools cover (cfg->n_agents may grow past it) */
    /* Bumped when agents are added under --sandbox: instances spawned
     * before did not have the new agents' files hidden from them. */
    int gen;
    slot *slots;
    int *free_slots, n_free; /* stack of unused slot indexes */
    int conc;                /* matches in flight at most (fits the fd limit) */
    int spawned_now;         /* agents spawned in this dispatch pass */
    int inflight;
    bool stopping, fatal, interrupted;
    int closing;          /* agent_close calls not yet completed */
    const live_hooks *lh; /* --http: the web front and its server */
    void *live;
    char *err;
    size_t errlen;
    /* Aborted games to retry first, with their abort counts. */
    sched_game retry[64];
    int n_retry;
    int64_t abort_id[64];
    int abort_count[64];
    int n_abort;
    /* Games put off because this host could not start their agents (out of
     * descriptors or processes): tries in a row, and whether dispatch waits
     * out the pause (HOST_PAUSE_S) before the next. */
    int host_faults;
    bool host_wait;
    /* Progress. */
    int64_t done_session;
    double t_start, last_print;
    bool tty;
};

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

int driver_default_concurrency(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

static void fmt_dur(char *buf, size_t len, double s)
{
    if (!isfinite(s) || s < 0) {
        snprintf(buf, len, "?");
        return;
    }
    long t = (long)(s + 0.5);
    if (t >= 3600)
        snprintf(buf, len, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
    else
        snprintf(buf, len, "%ld:%02ld", t / 60, t % 60);
}

#define ETA_MIN_GAMES 5
#define ETA_MIN_SECONDS 3.0

static void progress(drv *d, bool final)
{
    FILE *out = d->cfg->progress;
    if (!out) return;
    double t = now_s();
    if (!final && t - d->last_print < (d->tty ? 0.2 : 2.0)) return;
    d->last_print = t;
    double el = t - d->t_start, rate = el > 0 ? d->done_session / el : 0;
    int64_t done = d->cfg->done_before + d->done_session;
    char eta[48] = "", st[160] = "";
    /* The first games finish while agents are still starting: a rate from
     * them promises nonsense, so the ETA waits for a few games and seconds,
     * and says so (a short run is over before: the last line says when). */
    if (d->cfg->total > 0) {
        char dur[24];
        bool settled = d->done_session >= ETA_MIN_GAMES && el >= ETA_MIN_SECONDS;
        if (final || done >= d->cfg->total) {
            fmt_dur(dur, sizeof dur, el);
            snprintf(eta, sizeof eta, "  done in %s", dur);
        } else if (!settled || rate <= 0) {
            snprintf(eta, sizeof eta, "  ETA after %d games and %.0f s", ETA_MIN_GAMES,
                     ETA_MIN_SECONDS);
        } else {
            fmt_dur(dur, sizeof dur, (d->cfg->total - done) / rate);
            snprintf(eta, sizeof eta, "  ETA %s", dur);
        }
    }
    if (d->src->status) d->src->status(d->src->ctx, st, sizeof st);
    char line[400];
    if (d->cfg->total > 0)
        snprintf(line, sizeof line, "%lld/%lld games  %.1f games/s%s%s%s", (long long)done,
                 (long long)d->cfg->total, rate, eta, st[0] ? "  " : "", st);
    else
        snprintf(line, sizeof line, "%lld games  %.1f games/s%s%s", (long long)done, rate,
                 st[0] ? "  " : "", st);
    if (d->tty)
        fprintf(out, "\r\033[K%s%s", line, final ? "\n" : "");
    else
        fprintf(out, "%s\n", line);
    fflush(out);
}

static void on_closed(void *ctx)
{
    drv *d = ctx;
    d->closing--;
}

/* Whether an idle instance must go: its agent retired, or spawned before
 * agents it should not see. */
static bool stale(const drv *d, int agent, const inst *in)
{
    return in->gen != d->gen || (d->src->active && !d->src->active(d->src->ctx, agent));
}

static void release(drv *d, int agent, int idx)
{
    pool *p = &d->pools[agent];
    inst *in = &p->v[idx];
    in->inuse = false;
    if (!agent_alive(in->a) || stale(d, agent, in)) {
        /* Crashed or broke the protocol: retire it; a fresh one is made on
         * demand. */
        d->closing++;
        agent_close(in->a, on_closed, d);
        in->a = NULL;
        p->holes[p->n_holes++] = idx;
    } else {
        p->idle[p->n_idle++] = idx;
    }
}

/* Covers agents the source appended since (driver_cfg.names). */
static void grow_pools(drv *d)
{
    int n = d->cfg->n_agents;
    if (n <= d->n_pools) return;
    d->pools = xrealloc(d->pools, sizeof(pool) * (size_t)n);
    memset(d->pools + d->n_pools, 0, sizeof(pool) * (size_t)(n - d->n_pools));
    for (int i = d->n_pools; i < n; i++)
        sandbox_hide_agent(d->cfg->specs[i]);
    if (d->cfg->ro->sandbox && d->n_pools > 0) d->gen++;
    d->n_pools = n;
}

/* Closes the idle instances that must not play again (stale()). */
static void sweep(drv *d)
{
    for (int a = 0; a < d->n_pools; a++) {
        pool *p = &d->pools[a];
        int keep = 0;
        for (int k = 0; k < p->n_idle; k++) {
            int i = p->idle[k];
            if (!stale(d, a, &p->v[i])) {
                p->idle[keep++] = i;
                continue;
            }
            d->closing++;
            agent_close(p->v[i].a, on_closed, d);
            p->v[i].a = NULL;
            p->holes[p->n_holes++] = i;
        }
        p->n_idle = keep;
    }
}

static int acquire(drv *d, int agent, bool *host_fault)
{
    *host_fault = false;
    pool *p = &d->pools[agent];
    while (p->n_idle > 0) {
        int i = p->idle[--p->n_idle];
        inst *in = &p->v[i];
        if (agent_alive(in->a) && !agent_busy(in->a) && !stale(d, agent, in)) {
            in->inuse = true;
            return i;
        }
        /* It died between games: retire it like a crashed one. */
        d->closing++;
        agent_close(in->a, on_closed, d);
        in->a = NULL;
        p->holes[p->n_holes++] = i;
    }
    int idx;
    if (p->n_holes > 0) {
        idx = p->holes[--p->n_holes];
    } else {
        if (p->n == p->cap) {
            p->cap = p->cap ? p->cap * 2 : 4;
            p->v = xrealloc(p->v, sizeof(inst) * (size_t)p->cap);
            p->idle = xrealloc(p->idle, sizeof(int) * (size_t)p->cap);
            p->holes = xrealloc(p->holes, sizeof(int) * (size_t)p->cap);
        }
        idx = p->n++;
    }
    d->spawned_now++;
    agent_config ac;
    run_options_agent(d->cfg->ro, d->cfg->game->name, d->cfg->specs[agent], &ac);
    ac.name = d->cfg->names[agent];
    ac.game = d->cfg->game->name;
    /* A program that cannot run stops the run at once. So does a tcp:
     * agent out of reach, but only while no game is under way: its connect
     * is then waited for. Later the connect runs on the loop (a hanging one
     * would stall every match), and a failure is that agent's in this game,
     * a crash at start-up: stopping would void the games in flight for
     * --resume to play again, a fresh try that an entrant losing one could
     * give itself by refusing a connection (tests/hostile/tcp_refuser.py). */
    bool tcp = !strncmp(d->cfg->specs[agent], "tcp:", 4),
         under_way = d->inflight > 0 || d->done_session > 0;
    ac.wait_exec = p->made == 0 && !(tcp && under_way);
    p->made++;
    char e[256] = "";
    arena_agent *a = agent_try_new(d->base, &ac, host_fault, e, sizeof e);
    /* A host out of descriptors or processes says nothing of the agent:
     * its game waits (host_pause), never the agent's forfeit. */
    if (!a && !*host_fault && ((tcp && under_way) || d->cfg->start_failure_forfeits))
        a = agent_absent(d->cfg->names[agent], CAUSE_CRASH, e);
    if (!a) {
        snprintf(d->err, d->errlen, "agent %s (%s): %s", d->cfg->names[agent], d->cfg->specs[agent],
                 e);
        p->v[idx].a = NULL;
        p->holes[p->n_holes++] = idx;
        return -1;
    }
    p->v[idx].a = a;
    p->v[idx].inuse = true;
    p->v[idx].gen = d->gen;
    return idx;
}

/* SIGINT and SIGTERM while the driver runs. Not libevent's evsignal: a
 * signal it has caught but not yet run the callback for is dropped when the
 * event is removed, and the driver removes it as its last games end. The
 * flag outlives the event: a signal the driver did not act on is raised
 * again for the caller's handler (arena worker's stop). */
static volatile sig_atomic_t stop_signal;
static int stop_pipe[2] = {-1, -1};

static void dispatch(drv *d);

/* The web front's board of the slot's game ends (g NULL: no result). */
static void live_end(slot *s, const tgame *g)
{
    drv *d = s->d;
    if (s->live && d->live) d->lh->game_end(d->live, s->live, g);
    s->live = NULL;
}

/* The web front closes with the run: its listener and streams would keep
 * the loop from ending. */
static void live_stop(drv *d)
{
    if (d->live) d->lh->stop(d->live);
    d->live = NULL;
}

static void finish_slot(slot *s)
{
    live_end(s, NULL);
    drv *d = s->d;
    for (int k = 0; k < s->g.s.players; k++)
        release(d, s->g.s.seat[k], s->pidx[k]);
    s->used = false;
    d->free_slots[d->n_free++] = (int)(s - d->slots);
    d->inflight--;
}

static bool note_abort(drv *d, const sched_game *g)
{
    for (int i = 0; i < d->n_abort; i++)
        if (d->abort_id[i] == g->id) return ++d->abort_count[i] < MAX_ABORTS;
    if (d->n_abort == 64) return false;
    d->abort_id[d->n_abort] = g->id;
    d->abort_count[d->n_abort++] = 1;
    return true;
}

/* A forfeited game's viewer (LOG.html), which the report links: whoever
 * checks the verdict sees the game and the fault where it happened. A
 * viewer that cannot be written costs the link, never the result. */
static void write_viewer(const char *log)
{
    char *path = xasprintf("%s.html", log);
    FILE *f = fopen(path, "w");
    bool ok = f && replay_html(log, -1, f) == 0;
    if (f && fclose(f) != 0) ok = false;
    if (!ok) {
        fprintf(stderr, "arena: could not write the viewer %s\n", path);
        unlink(path);
    }
    free(path);
}

/* snprintf(dst, size, "%s", src) without printf (it runs once a game). */
static void copy_str(char *dst, size_t size, const char *src)
{
    size_t n = strnlen(src, size - 1);
    memcpy(dst, src, n);
    dst[n] = '\0';
}

static void on_match_done(const match_outcome *o, void *ctx)
{
    slot *s = ctx;
    drv *d = s->d;
    tgame *g = &s->g;
    if (o->log_error[0]) {
        /* A full disk: stop loudly rather than keep results without logs.
         * The game stays pending and is played again on --resume. */
        int64_t id = g->s.id;
        finish_slot(s);
        if (!d->fatal) {
            snprintf(d->err, d->errlen, "game %lld not stored: %s", (long long)id, o->log_error);
            d->fatal = true;
            event_base_loopbreak(d->base);
        }
        return;
    }
    if (strcmp(o->reason, "aborted") == 0) {
        /* Not a result: the game is played again (a few times at most), so
         * the tournament ends with exactly the scheduled games. */
        sched_game sg = g->s;
        finish_slot(s);
        if (note_abort(d, &sg) && d->n_retry < 64) {
            d->retry[d->n_retry++] = sg;
        } else if (!d->fatal) {
            snprintf(d->err, d->errlen, "game %lld aborted, not retried again: %s",
                     (long long)sg.id, o->error);
            d->fatal = true;
            event_base_loopbreak(d->base);
            return;
        }
        dispatch(d);
        return;
    }
    g->done = true;
    _Static_assert(STORE_MOVE_BINS == MOVE_HIST_BINS, "the store keeps the match's histogram");
    tgame_detail det;
    memset(&det, 0, sizeof det);
    for (int k = 0; k < g->s.players && k < o->players; k++) {
        det.decisions[k] = o->decisions[k];
        det.move_max_ms[k] = o->move_max_ms[k];
        memcpy(det.move_hist[k], o->move_hist[k], sizeof det.move_hist[k]);
        /* The match's own words for the forfeit; the cause alone if it has none. */
        if (o->forfeit[k] != CAUSE_NONE)
            copy_str(det.stderr_tail[k], sizeof det.stderr_tail[k], o->stderr_tail[k]);
        if (o->forfeit[k] != CAUSE_NONE && o->fault_message[k][0])
            snprintf(det.fault_msg[k], sizeof det.fault_msg[k], "%s", o->fault_message[k]);
        else if (o->forfeit[k] != CAUSE_NONE)
            snprintf(det.fault_msg[k], sizeof det.fault_msg[k], "forfeit by %s (%d strike%s)",
                     fault_cause_name(o->forfeit[k]), o->strikes[k], o->strikes[k] == 1 ? "" : "s");
        /* What the timeout that forfeited it rests on (its fault record's). */
        if (o->forfeit[k] == CAUSE_TIMEOUT && o->timeout[k].set) det.clock[k] = o->timeout[k];
    }
    for (int k = 0; k < g->s.players && k < o->players; k++) {
        g->rank[k] = o->ranks[k];
        g->score[k] = o->scores[k];
        copy_str(g->forfeit[k], sizeof g->forfeit[k], fault_cause_name(o->forfeit[k]));
        g->time_ms[k] = o->time_ms[k];
    }
    copy_str(g->reason, sizeof g->reason, o->reason);
    g->turns = o->turns;
    g->wall_ms = (now_s() - s->t0) * 1000.0;
    tgame copy = *g;
    copy.detail = &det;
    char log[sizeof s->log];
    copy_str(log, sizeof log, s->log);
    void *live = s->live;
    s->live = NULL;
    finish_slot(s);
    if (log[0] && strcmp(o->reason, "forfeit") == 0) write_viewer(log);
    d->done_session++;
    bool fatal = false;
    if (!d->src->done(d->src->ctx, &copy, log[0] ? log : NULL, &fatal)) d->stopping = true;
    if (live && d->live) d->lh->game_end(d->live, live, &copy);
    if (fatal) {
        d->fatal = true;
        event_base_loopbreak(d->base);
        return;
    }
    progress(d, false);
    dispatch(d);
}

/* Closes the pools' agents, or with `idle_only` those no game holds: a
 * run cut with games in flight closes these, and the rest go as the
 * process exits. */
static void close_agents(drv *d, bool idle_only)
{
    for (int a = 0; a < d->n_pools; a++)
        for (int i = 0; i < d->pools[a].n; i++) {
            inst *in = &d->pools[a].v[i];
            if (!in->a || (idle_only && in->inuse)) continue;
            d->closing++;
            agent_close(in->a, on_closed, d);
            in->a = NULL;
        }
}

/* This host could not start an agent of game g: g goes back to the head
 * of the queue and dispatch runs again after a pause, so a host briefly out
 * of descriptors (a flood of web clients, another program) costs time, not
 * a verdict. Past HOST_TRIES pauses in a row the run stops, the game still
 * to play (--resume). False: stop now (d->err says why). */
#define HOST_PAUSE_S 1
#define HOST_TRIES 120
static bool host_pause(drv *d, const sched_game *g)
{
    if (++d->host_faults > HOST_TRIES || d->n_retry == 64) {
        char why[512];
        snprintf(why, sizeof why, "%s", d->err);
        snprintf(d->err, d->errlen, "this host could not start game %lld's agents for %d s: %s",
                 (long long)g->id, HOST_TRIES * HOST_PAUSE_S, why);
        return false;
    }
    memmove(d->retry + 1, d->retry, sizeof(sched_game) * (size_t)d->n_retry++);
    d->retry[0] = *g;
    if (d->host_faults == 1 || d->host_faults % 30 == 0)
        fprintf(stderr, "arena: %s; game %lld waits (try %d of %d, %d s apart)\n", d->err,
                (long long)g->id, d->host_faults, HOST_TRIES, HOST_PAUSE_S);
    d->err[0] = '\0';
    struct timeval pause = {HOST_PAUSE_S, 0};
    event_add(d->more, &pause);
    d->host_wait = true;
    return true;
}

static bool next_game(drv *d, sched_game *g)
{
    if (d->n_retry > 0) {
        *g = d->retry[0];
        memmove(d->retry, d->retry + 1, sizeof(sched_game) * (size_t)--d->n_retry);
        return true;
    }
    return d->src->next(d->src->ctx, g);
}

static void dispatch(drv *d)
{
    /* A signal caught but not acted on yet (on_stop waits its turn behind
     * a match that ends in the same turn of the loop) is acted on here: a
     * game started now would be cut, its agents with it. */
    if (stop_signal) {
        d->interrupted = true;
        event_base_loopbreak(d->base);
        return;
    }
    d->spawned_now = 0;
    d->host_wait = false;
    bool host_fault = false;
    while (!d->stopping && !d->fatal && d->inflight < d->conc) {
        if (d->n_free == 0) break;
        if (d->spawned_now >= SPAWN_BATCH) {
            struct timeval zero = {0, 0};
            event_add(d->more, &zero);
            break;
        }
        sched_game g;
        if (!next_game(d, &g)) break;
        grow_pools(d);
        slot *s = &d->slots[d->free_slots[--d->n_free]];
        /* Not the log path's 4 KiB: only its first byte says "none". */
        memset(s, 0, offsetof(slot, log));
        s->log[0] = '\0';
        s->d = d;
        s->g.s = g;
        int k;
        for (k = 0; k < g.players; k++) {
            if (g.players > RANKED_MAX || g.seat[k] < 0 || g.seat[k] >= d->cfg->n_agents) {
                /* The store refuses such rows; this guards the pools anyway. */
                snprintf(d->err, d->errlen, "game %lld seats agent %d of %d", (long long)g.id,
                         g.seat[k], d->cfg->n_agents);
                break;
            }
            s->pidx[k] = acquire(d, g.seat[k], &host_fault);
            if (s->pidx[k] < 0) break;
            s->seated[k] = d->pools[g.seat[k]].v[s->pidx[k]].a;
        }
        if (k < g.players) {
            for (int j = 0; j < k; j++)
                release(d, g.seat[j], s->pidx[j]);
            d->free_slots[d->n_free++] = (int)(s - d->slots);
            if (!host_fault || !host_pause(d, &g)) d->fatal = true;
            break;
        }
        d->host_faults = 0;
        match_config mc;
        run_options_match(d->cfg->ro, d->cfg->game, &mc);
        mc.match_id = NULL; /* opaque: a game id would lead to its seed */
        if (d->cfg->log_dir)
            snprintf(s->log, sizeof s->log, "%s/game-%06lld.jsonl.gz", d->cfg->log_dir,
                     (long long)g.id);
        mc.log_path = s->log[0] ? s->log : NULL;
        if (d->live) {
            const char *names[RANKED_MAX];
            for (int j = 0; j < g.players; j++)
                names[j] = d->cfg->names[g.seat[j]];
            s->live = d->lh->game_begin(d->live, &g, names);
            mc.watch = d->lh->watch;
            mc.watch_ctx = s->live;
        }
        s->used = true;
        s->t0 = now_s();
        d->inflight++;
        char e[256] = "";
        if (match_start(d->base, &mc, s->seated, g.players, g.seed, on_match_done, s, e,
                        sizeof e) != 0) {
            finish_slot(s);
            snprintf(d->err, d->errlen, "game %lld cannot start: %s", (long long)g.id, e);
            d->fatal = true;
            break;
        }
    }
    if (d->fatal) {
        event_base_loopbreak(d->base);
        return;
    }
    if (d->host_wait) return; /* d->more runs dispatch again */
    if (d->inflight == 0 && !d->fatal && !d->stopping && d->src->more && d->src->more(d->src->ctx))
        return; /* others may still hand out games: the poll timer asks again */
    if (d->inflight == 0) {
        /* Nothing left to play: release the agents; the loop ends when their
         * processes are gone and no event remains. */
        if (d->poll) event_del(d->poll);
        if (d->tick) event_del(d->tick);
        event_del(d->stop_ev); /* a signal now is passed on (driver_run) */
        event_del(d->more);
        live_stop(d);
        close_agents(d, false);
    }
}

static void on_more(evutil_socket_t fd, short what, void *ctx)
{
    (void)fd;
    (void)what;
    dispatch(ctx);
}

/* Matches in flight that the open-file limit allows, after raising its
 * soft value as far as the hard one permits. */
static int fit_fd_limit(const driver_cfg *cfg)
{
    /* Agents yet to come (a ladder's) may be spawned ones. */
    int per_agent = cfg->start_failure_forfeits ? spawn_fds_per_agent("cmd:") : 0;
    for (int i = 0; i < cfg->n_agents; i++) {
        int n = spawn_fds_per_agent(cfg->specs[i]);
        if (n > per_agent) per_agent = n;
    }
    int seats = cfg->start_failure_forfeits || cfg->game->max_players < cfg->n_agents
                    ? cfg->game->max_players
                    : cfg->n_agents;
    long per_match = (long)seats * per_agent + (cfg->log_dir ? 1 : 0);
    if (per_match == 0) return cfg->concurrency;
    long have = spawn_raise_fd_limit(SPAWN_FD_SLACK + per_match * cfg->concurrency);
    long fits = (have - SPAWN_FD_SLACK) / per_match;
    if (fits >= cfg->concurrency) return cfg->concurrency;
    if (fits < 1) fits = 1;
    fprintf(stderr,
            "arena: the open-file limit (%ld, the hard limit) is too low for --concurrency %d "
            "(about %ld descriptors): playing %ld at a time; raise the hard limit "
            "(ulimit -Hn, limits.conf) to play more at once\n",
            have, cfg->concurrency, SPAWN_FD_SLACK + per_match * cfg->concurrency, fits);
    return (int)fits;
}

static void on_stop_signal(int sig)
{
    int saved = errno;
    if (!stop_signal) stop_signal = sig;
    ssize_t n = write(stop_pipe[1], "", 1); /* full: a wake-up is pending anyway */
    (void)n;
    errno = saved;
}

/* A signal the process was started with ignored (a background job's SIGINT,
 * nohup's) stays ignored, as main() leaves it. *old is what to restore. */
static void catch_unless_ignored(int sig, const struct sigaction *sa, struct sigaction *old)
{
    if (sigaction(sig, NULL, old) == 0 && old->sa_handler == SIG_IGN) return;
    sigaction(sig, sa, old);
}

static void on_stop(evutil_socket_t fd, short what, void *ctx)
{
    (void)what;
    char buf[16];
    while (read(fd, buf, sizeof buf) > 0) {
    }
    drv *d = ctx;
    d->interrupted = true;
    event_base_loopbreak(d->base);
}

static void on_poll(evutil_socket_t fd, short what, void *ctx)
{
    (void)fd;
    (void)what;
    drv *d = ctx;
    if (d->src->tick) d->src->tick(d->src->ctx);
    grow_pools(d);
    if (d->src->active || d->gen > 0) sweep(d);
    if (!d->stopping && !d->fatal) dispatch(d);
}

static void on_tick(evutil_socket_t fd, short what, void *ctx)
{
    (void)fd;
    (void)what;
    progress(ctx, false);
}

int driver_run(const driver_cfg *cfg, const driver_src *src, char *err, size_t errlen)
{
    drv d;
    memset(&d, 0, sizeof d);
    d.cfg = cfg;
    d.src = src;
    d.err = err;
    d.errlen = errlen;
    err[0] = '\0';
    /* Under --sandbox no agent sees the logs or another agent's files. */
    if (cfg->log_dir) sandbox_hide(cfg->log_dir);
    for (int i = 0; i < cfg->n_agents; i++)
        sandbox_hide_agent(cfg->specs[i]);
    d.base = match_loop_new();
    if (!d.base || pipe2(stop_pipe, O_CLOEXEC | O_NONBLOCK) != 0) {
        snprintf(err, errlen, "cannot create the event loop: %s", strerror(errno));
        if (d.base) event_base_free(d.base);
        return DRIVER_FAILED;
    }
    d.pools = xcalloc((size_t)cfg->n_agents + 1, sizeof(pool));
    d.n_pools = cfg->n_agents;
    d.slots = xcalloc((size_t)cfg->concurrency + 1, sizeof(slot));
    d.conc = fit_fd_limit(cfg);
    d.free_slots = xcalloc((size_t)cfg->concurrency + 1, sizeof(int));
    for (int i = d.conc - 1; i >= 0; i--)
        d.free_slots[d.n_free++] = i;
    d.more = evtimer_new(d.base, on_more, &d);
    if (cfg->live && cfg->live->listen) {
        d.lh = live_hooks_installed();
        d.live = d.lh ? d.lh->start(d.base, cfg->live, err, errlen) : NULL;
        if (!d.live) {
            if (!d.lh) snprintf(err, errlen, "--http: this program has no web front");
            event_free(d.more);
            event_base_free(d.base);
            free(d.pools);
            free(d.slots);
            free(d.free_slots);
            close(stop_pipe[0]);
            close(stop_pipe[1]);
            stop_pipe[0] = stop_pipe[1] = -1;
            return DRIVER_FAILED;
        }
    }
    /* An agent that dies while the referee writes to it must cost that
     * agent its game, never the tournament its process. */
    struct sigaction ign = {.sa_handler = SIG_IGN}, old_pipe;
    sigemptyset(&ign.sa_mask);
    sigaction(SIGPIPE, &ign, &old_pipe);
    d.t_start = d.last_print = now_s();
    d.tty = cfg->progress && isatty(fileno(cfg->progress));
    stop_signal = 0;
    struct sigaction stop = {.sa_handler = on_stop_signal}, old_int, old_term;
    sigemptyset(&stop.sa_mask);
    catch_unless_ignored(SIGINT, &stop, &old_int);
    catch_unless_ignored(SIGTERM, &stop, &old_term);
    d.stop_ev = event_new(d.base, stop_pipe[0], EV_READ | EV_PERSIST, on_stop, &d);
    event_add(d.stop_ev, NULL);
    if (d.tty) {
        d.tick = event_new(d.base, -1, EV_PERSIST, on_tick, &d);
        struct timeval one = {1, 0};
        event_add(d.tick, &one);
    }
    if (src->more || src->tick) {
        int ms = cfg->poll_ms > 0 ? cfg->poll_ms : 500;
        d.poll = event_new(d.base, -1, EV_PERSIST, on_poll, &d);
        struct timeval tv = {ms / 1000, (ms % 1000) * 1000};
        event_add(d.poll, &tv);
    }
    dispatch(&d);
    if (!d.fatal) event_base_dispatch(d.base);
    live_stop(&d);
    int rc = DRIVER_OK;
    if (d.interrupted) {
        snprintf(err, errlen, "interrupted");
        rc = DRIVER_INTERRUPTED;
    } else if (d.fatal) {
        rc = DRIVER_FAILED;
    }
    if (rc == DRIVER_OK) progress(&d, true);
    if (rc != DRIVER_OK && d.inflight == 0) {
        /* Nothing in flight: the agents can still be closed cleanly. */
        if (d.tty) fputc('\n', cfg->progress);
        close_agents(&d, false);
        event_del(d.more);
        if (d.poll) event_del(d.poll);
        event_del(d.stop_ev);
        if (d.tick) event_del(d.tick);
        event_base_dispatch(d.base);
    } else if (rc != DRIVER_OK) {
        if (d.tty) fputc('\n', cfg->progress);
        close_agents(&d, true);
    }
    if (d.tick) event_free(d.tick);
    if (d.poll) event_free(d.poll);
    event_free(d.more);
    event_free(d.stop_ev);
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    close(stop_pipe[0]);
    close(stop_pipe[1]);
    stop_pipe[0] = stop_pipe[1] = -1;
    if (stop_signal && !d.interrupted) raise(stop_signal);
    /* With matches still in flight (interrupted, fatal) their agents and
     * games cannot be released here; the process is about to exit. */
    if (d.inflight == 0 && d.closing == 0) event_base_free(d.base);
    for (int a = 0; a < d.n_pools; a++) {
        free(d.pools[a].v);
        free(d.pools[a].idle);
        free(d.pools[a].holes);
    }
    free(d.pools);
    free(d.free_slots);
    if (d.inflight == 0) free(d.slots);
    sigaction(SIGPIPE, &old_pipe, NULL);
    return rc;
}
