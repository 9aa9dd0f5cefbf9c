/* The live boards of a run's games in progress (live.h). */
#include "live.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include <event2/event.h>
#include <event2/http.h>
#include <event2/keyvalq_struct.h>

#include "game.h"
#include "lag.h"
#include "spawn.h"
#include "sse.h"
#include "util.h"
#include "value.h"
#include "web.h"

/* /api/live/ID asked: that game's boards are built for this long. */
#define API_WATCH_S 10.0
/* --http's limits (`arena web` takes them as flags). */
#define RUN_MAX_SPECTATORS 2000
#define RUN_SPECTATOR_BUFFER 262144
#define RUN_POLL_MS 500
#define DELAY_TICK_MS 100
#define BOARD_EVERY_S 0.1
#define STOP_GRACE_S 0.5

typedef struct delayed {
    double due;
    char *ev;
    struct delayed *next;
} delayed;

typedef struct live_game {
    live *L;
    int64_t id;
    int players;
    char *names[ARENA_MAX_SEATS];
    double t_begin;
    long turns;            /* boards the match reported (its turns, and the start) */
    av *options;           /* the game's settings as its agents get them; NULL until known */
    char *board;           /* the last board's JSON, while someone watches; else NULL */
    double api_until;      /* 0: nobody asked lately */
    double next_board;     /* no board before this (BOARD_EVERY_S) */
    sse_group *watchers;   /* /live/ID/events (retired when the game ends) */
    sse_group omni;        /* /live/ID/omniscient (--spectator-delay) */
    delayed *dq, *dq_tail; /* omniscient boards waiting for their time */
    struct live_game *prev, *next;
} live_game;

struct live {
    struct event_base *base;
    store *db;
    web_opts o;
    web_server *sv;
    live_game *games;
    int n_games;
    char *game;        /* the game's name ("dominion"): the pages pick its board drawing */
    double delay;      /* --spectator-delay; < 0: none */
    bool shared_deals; /* duplicate pairing: a group's games share a seed */
    struct event *delay_ev;
    int n_delayed; /* live games with omniscient boards queued */
};

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* ---- the boards ---- */

static av *seats_json(const live_game *lg)
{
    av *seats = av_list();
    for (int k = 0; k < lg->players; k++)
        av_push(seats, av_str(lg->names[k]));
    return seats;
}

/* One board as JSON: the view (seat -1 for the omniscient one, else the
 * public view) and the events [from, to) that viewer may see. */
static char *board_json(const live_game *lg, const arena_game *g, size_t from, size_t to, bool over,
                        bool omniscient)
{
    av *b = av_map();
    av_add_int(b, "id", lg->id);
    av_add_str(b, "game", lg->L->game);
    av_add_int(b, "turn", lg->turns);
    av_add_bool(b, "over", over);
    av *view = omniscient ? arena_view_tree(g->vt, g, -1) : arena_public_view_tree(g);
    av_add(b, "view", view ? view : av_nil());
    av *evs = av_list();
    for (size_t i = from; i < to; i++) {
        const av *e = g->vt->event(g, i, omniscient ? -1 : EVENTS_SPECTATOR);
        if (e) av_push(evs, av_copy(e));
    }
    av_add(b, "events", evs);
    char *js = av_to_json(b);
    av_free(b);
    return js;
}

static void queue_delayed(live_game *lg, char *ev)
{
    delayed *d = xcalloc(1, sizeof *d);
    d->due = now_s() + lg->L->delay;
    d->ev = ev;
    if (lg->dq_tail)
        lg->dq_tail->next = d;
    else {
        lg->dq = d;
        lg->L->n_delayed++;
    }
    lg->dq_tail = d;
}

static void free_delayed(live_game *lg)
{
    if (lg->dq) lg->L->n_delayed--;
    while (lg->dq) {
        delayed *d = lg->dq;
        lg->dq = d->next;
        free(d->ev);
        free(d);
    }
    lg->dq_tail = NULL;
}

static char *waiting_json(const live_game *lg);

/* The game's settings, once: every seat has them in its hello, and a board
 * draws with them (Pacifica's card list names its cards). Watchers who came
 * before get the seats again with them. */
static void note_options(live_game *lg, const arena_game *g)
{
    if (lg->options || !g->vt->settings) return;
    lg->options = g->vt->settings(g);
    if (!lg->options) lg->options = av_map();
    char *w = waiting_json(lg), *ev = xasprintf("event: seats\ndata: %s\n\n", w);
    sse_broadcast(lg->watchers, ev, strlen(ev));
    sse_broadcast(&lg->omni, ev, strlen(ev));
    free(ev);
    free(w);
}

/* The match's watch (match.h): nothing is built for a board nobody
 * watches, and a watched game's boards go out BOARD_EVERY_S apart at most
 * (a turn in between is passed by: its events come with the next board),
 * so a fast game costs its spectators' streams ten boards a second, not a
 * thousand. */
static bool on_turn(void *ctx, const arena_game *g, size_t from, size_t to, bool over)
{
    live_game *lg = ctx;
    lg->turns++;
    note_options(lg, g);
    if (!lg->watchers->n && !lg->omni.n && !lg->api_until) {
        free(lg->board); /* stale from now on */
        lg->board = NULL;
        return true;
    }
    double t = now_s();
    if (lg->api_until && t >= lg->api_until) lg->api_until = 0;
    bool want = lg->watchers->n > 0 || lg->api_until > 0;
    if (!over && t < lg->next_board) return false;
    lg->next_board = t + BOARD_EVERY_S;
    free(lg->board);
    lg->board = NULL;
    if (want) {
        lg->board = board_json(lg, g, from, to, over, false);
        if (lg->watchers->n) {
            char *ev = xasprintf("event: board\ndata: %s\n\n", lg->board);
            sse_broadcast(lg->watchers, ev, strlen(ev));
            free(ev);
        }
    }
    if (lg->omni.n > 0) {
        char *js = board_json(lg, g, from, to, over, true);
        queue_delayed(lg, xasprintf("event: board\ndata: %s\n\n", js));
        free(js);
    }
    return true;
}

static const match_watch watch = {.turn = on_turn};

static void on_delay_tick(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    live *L = arg;
    if (!L->n_delayed) return;
    double t = now_s();
    for (live_game *lg = L->games; lg; lg = lg->next) {
        while (lg->dq && lg->dq->due <= t) {
            delayed *d = lg->dq;
            sse_broadcast(&lg->omni, d->ev, strlen(d->ev));
            lg->dq = d->next;
            free(d->ev);
            free(d);
            if (!lg->dq) {
                lg->dq_tail = NULL;
                L->n_delayed--;
            }
        }
        if (!lg->omni.n) free_delayed(lg);
    }
}

/* ---- the hooks ---- */

static void *h_start(struct event_base *base, const live_cfg *c, char *err, size_t errlen)
{
    live *L = xcalloc(1, sizeof *L);
    L->base = base;
    L->delay = c->spectator_delay;
    L->o = (web_opts){.listen = c->listen,
                      .max_spectators = RUN_MAX_SPECTATORS,
                      .spectator_buffer = RUN_SPECTATOR_BUFFER,
                      .poll_ms = RUN_POLL_MS,
                      .shared_store = c->db && store_is_url(c->db)};
    /* The front reads the store on a connection of its own: SQLite in WAL
     * mode lets it read what is committed while the run writes. */
    L->db = c->db ? store_open(c->db, false, err, errlen) : NULL;
    if (!L->db) {
        if (!c->db) snprintf(err, errlen, "--http: no store to serve");
        free(L);
        return NULL;
    }
    L->game = store_meta(L->db, "game");
    if (!L->game) L->game = xstrdup("");
    char *pairing = store_meta(L->db, "pairing");
    L->shared_deals = pairing && !strcmp(pairing, "duplicate");
    free(pairing);
    /* One descriptor per spectator, besides the agents' (driver.c). */
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0)
        spawn_raise_fd_limit((long)rl.rlim_cur + RUN_MAX_SPECTATORS + SPAWN_FD_SLACK);
    L->sv = web_server_start(base, L->db, &L->o, L, stderr);
    if (!L->sv) {
        snprintf(err, errlen, "--http %s: the web front cannot start (above)", c->listen);
        store_close(L->db);
        free(L->game);
        free(L);
        return NULL;
    }
    if (L->delay >= 0) {
        L->delay_ev = event_new(base, -1, EV_PERSIST, on_delay_tick, L);
        struct timeval tv = {0, DELAY_TICK_MS * 1000};
        event_add(L->delay_ev, &tv);
    }
    return L;
}

static void *h_game_begin(void *srv, const sched_game *g, const char *const *names)
{
    live *L = srv;
    live_game *lg = xcalloc(1, sizeof *lg);
    lg->L = L;
    lg->id = g->id;
    lg->players = g->players < ARENA_MAX_SEATS ? g->players : ARENA_MAX_SEATS;
    for (int k = 0; k < lg->players; k++)
        lg->names[k] = xstrdup(names[k]);
    lg->t_begin = now_s();
    lg->watchers = sse_group_new();
    lg->next = L->games;
    if (lg->next) lg->next->prev = lg;
    L->games = lg;
    L->n_games++;
    return lg;
}

static void lgame_free(live_game *lg)
{
    live *L = lg->L;
    if (lg->prev)
        lg->prev->next = lg->next;
    else
        L->games = lg->next;
    if (lg->next) lg->next->prev = lg->prev;
    L->n_games--;
    sse_group_retire(lg->watchers); /* after the end event, a batch at a time */
    sse_end_all(&lg->omni, true);
    free_delayed(lg);
    for (int k = 0; k < lg->players; k++)
        free(lg->names[k]);
    free(lg->board);
    av_free(lg->options);
    free(lg);
}

static void h_game_end(void *srv, void *game, const tgame *g)
{
    live *L = srv;
    live_game *lg = game;
    if (lg->watchers->n > 0) {
        av *e = av_map();
        av_add_int(e, "id", lg->id);
        av_add_bool(e, "aborted", g == NULL);
        if (g) {
            av_add_str(e, "reason", g->reason);
            av_add_int(e, "turns", g->turns);
            av *seats = av_list();
            for (int k = 0; k < lg->players && k < g->s.players; k++) {
                av *s = av_map();
                av_add_str(s, "agent", lg->names[k]);
                av_add_int(s, "rank", g->rank[k]);
                av_add_int(s, "score", g->score[k]);
                av_add_str(s, "forfeit", g->forfeit[k]);
                av_push(seats, s);
            }
            av_add(e, "seats", seats);
        }
        char *js = av_to_json(e);
        av_free(e);
        char *ev = xasprintf("event: end\ndata: %s\n\n", js);
        sse_broadcast(lg->watchers, ev, strlen(ev));
        free(ev);
        free(js);
    }
    /* The omniscient stream's delayed boards go with the game: the replay
     * takes over once its group ended. */
    lgame_free(lg);
    if (g) web_server_store_changed(L->sv);
}

static void on_stopped(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    live *L = arg;
    web_server_free(L->sv);
    store_close(L->db);
    free(L->game);
    free(L);
}

/* The run ended: no new connection, and the last boards, results and
 * standings get STOP_GRACE_S to reach their streams before every
 * connection closes (so the loop can end). */
static void h_stop(void *srv)
{
    live *L = srv;
    while (L->games)
        lgame_free(L->games);
    if (L->delay_ev) event_free(L->delay_ev);
    L->delay_ev = NULL;
    web_server_close(L->sv);
    struct timeval tv = {0, (suseconds_t)(STOP_GRACE_S * 1e6)};
    if (event_base_once(L->base, -1, EV_TIMEOUT, on_stopped, L, &tv) != 0) on_stopped(-1, 0, L);
}

static const live_hooks hooks = {
    .start = h_start,
    .game_begin = h_game_begin,
    .game_end = h_game_end,
    .stop = h_stop,
    .watch = &watch,
};

const live_hooks *web_live_hooks(void)
{
    return &hooks;
}

/* ---- pages and API ---- */

static void send_json(struct evhttp_request *req, char *js)
{
    web_reply(req, 200, "OK", "application/json; charset=utf-8", js, strlen(js));
    free(js);
}

static char *list_json(const live *L)
{
    av *root = av_map();
    av_add_bool(root, "running", L != NULL);
    av *games = av_list();
    double t = now_s();
    for (const live_game *lg = L ? L->games : NULL; lg; lg = lg->next) {
        av *g = av_map();
        av_add_int(g, "id", lg->id);
        av_add_str(g, "game", L->game);
        av_add(g, "seats", seats_json(lg));
        av_add_int(g, "turn", lg->turns);
        av_add(g, "seconds", av_float((double)(int64_t)((t - lg->t_begin) * 10) / 10));
        av_add_int(g, "spectators", lg->watchers->n + lg->omni.n);
        av_push(games, g);
    }
    av_add(root, "games", games);
    if (L) {
        av_add(root, "omniscient_delay",
               L->delay >= 0 && !L->shared_deals ? av_float(L->delay) : av_nil());
        sse_hub *h = web_server_hub(L->sv);
        av *sp = av_map();
        av_add_int(sp, "open", h->n);
        av_add_int(sp, "max", h->max);
        av_add_int(sp, "dropped", h->dropped);
        av_add(root, "spectators", sp);
        lag_probe_stats st;
        lag_probe_stats_get(&st);
        av *lag = av_map();
        av_add_int(lag, "probes", st.probes);
        av_add(lag, "p50_ms", av_float(st.p50_ms));
        av_add(lag, "p99_ms", av_float(st.p99_ms));
        av_add(lag, "max_ms", av_float(st.max_ms));
        av_add(lag, "busy_p50_ms", av_float(st.busy_p50_ms));
        av_add(lag, "busy_p99_ms", av_float(st.busy_p99_ms));
        av_add(lag, "busy_max_ms", av_float(st.busy_max_ms));
        av_add(root, "loop_lag", lag);
    }
    char *js = av_to_json(root);
    av_free(root);
    return js;
}

/* The game of "/live/ID..." (ID a positive integer followed by rest). */
static live_game *find_game(live *L, const char *p, const char **rest)
{
    char *end;
    errno = 0;
    long long id = strtoll(p, &end, 10);
    if (errno || end == p || id <= 0 || *p == '+' || *p == '-' || *p == ' ') return NULL;
    *rest = end;
    for (live_game *lg = L ? L->games : NULL; lg; lg = lg->next)
        if (lg->id == id) return lg;
    return NULL;
}

static char *waiting_json(const live_game *lg)
{
    av *b = av_map();
    av_add_int(b, "id", lg->id);
    av_add_str(b, "game", lg->L->game);
    av_add_int(b, "turn", lg->turns);
    av_add(b, "seats", seats_json(lg));
    if (lg->options) av_add(b, "options", av_copy(lg->options));
    av_add_bool(b, "waiting", true);
    char *js = av_to_json(b);
    av_free(b);
    return js;
}

bool live_route(live *L, struct evhttp_request *req, const char *path, struct evkeyvalq *q)
{
    (void)q;
    if (!strcmp(path, "/live")) {
        web_page(req, "Live");
        return true;
    }
    if (!strcmp(path, "/api/live")) {
        send_json(req, list_json(L));
        return true;
    }
    const char *rest = "";
    if (!strncmp(path, "/api/live/", 10)) {
        live_game *lg = find_game(L, path + 10, &rest);
        if (!lg || *rest) {
            web_fail(req, 404, "no such game in progress");
            return true;
        }
        /* Its boards are built from now on, for a while: the answer holds
         * the last one (none yet: waiting, with its seats). */
        lg->api_until = now_s() + API_WATCH_S;
        send_json(req, lg->board ? xstrdup(lg->board) : waiting_json(lg));
        return true;
    }
    if (strncmp(path, "/live/", 6) != 0) return false;
    live_game *lg = find_game(L, path + 6, &rest);
    if (!lg) {
        web_fail(req, 404, "no such game in progress");
        return true;
    }
    if (!*rest) {
        web_page(req, "Live game");
    } else if (!strcmp(rest, "/events")) {
        /* The seats first, then the last board if someone kept it; the next
         * comes when the game's turn moves. */
        char *w = waiting_json(lg);
        char *first = xasprintf("retry: 2000\nevent: seats\ndata: %s\n\n%s%s%s", w,
                                lg->board ? "event: board\ndata: " : "", lg->board ? lg->board : "",
                                lg->board ? "\n\n" : "");
        sse_open(web_server_hub(L->sv), lg->watchers, req, first);
        free(first);
        free(w);
    } else if (!strcmp(rest, "/omniscient")) {
        if (L->delay < 0)
            web_fail(req, 404, "no omniscient board during play (see --spectator-delay)");
        else if (L->shared_deals)
            web_fail(req, 403, "duplicate pairing: its group's games share the deal");
        else {
            char *w = waiting_json(lg);
            char *first = xasprintf("retry: 2000\nevent: seats\ndata: %s\n\n", w);
            sse_open(web_server_hub(L->sv), &lg->omni, req, first);
            free(first);
            free(w);
        }
    } else {
        web_fail(req, 404, "not found");
    }
    return true;
}

void live_keepalive(live *L, const char *ka, size_t len)
{
    for (live_game *lg = L->games; lg; lg = lg->next) {
        sse_broadcast(lg->watchers, ka, len);
        sse_broadcast(&lg->omni, ka, len);
    }
}
