/* The web front's HTTP server: libevent's evhttp on an event loop (its
 * own under `arena web`, a run's under --http), a poll of the store that
 * pushes Server-Sent Events when it changed, and the limits that keep
 * spectators from costing anything: the streams' caps (sse.c: a slow
 * reader is dropped, never waited for), short request limits and
 * timeouts. The pages of games in progress are live.c's. */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/queue.h>
#include <sys/socket.h>
#include <netdb.h>
#include <netinet/in.h>

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/event.h>
#include <event2/http.h>
#include <event2/keyvalq_struct.h>
#include <event2/listener.h>

#include "assets.h"
#include "author.h"
#include "live.h"
#include "replay.h"
#include "resolve.h"
#include "sse.h"
#include "util.h"
#include "web.h"
#include "web_data.h"

#define URI_MAX 1024     /* a longer request target gets 414 */
#define NAME_MAX_WEB 256 /* a longer entrant name cannot exist: 404 */
#define GAMES_DEFAULT 100
#define GAMES_ALL 100000
#define VIEWER_CACHE 8
#define KEEPALIVE_S 15
#define RUN_STAMP_S 5.0 /* in a run: the stamp read at least this often */

struct web_server {
    const web_opts *o;
    store *db;
    struct event_base *base;
    struct evhttp *http;
    struct evconnlistener *listener;
    struct evhttp_bound_socket *bound;
    struct event *poll_ev, *keep_ev;
    web_snap *snap;
    sse_hub hub;
    sse_group standings; /* the /events streams */
    live *live;          /* --http of a run: its games in progress; NULL: none */
    bool store_failing;
    bool changed;         /* in a run: a game ended since the last snapshot */
    double rebuild_after; /* monotonic s: no new snapshot before this */
    double stamp_after;   /* in a run: the next look at the stamp regardless */
    struct {
        int64_t game;
        char *html;
        size_t len;
    } viewer[VIEWER_CACHE];
    int viewer_next;
    author *author; /* the private pages (author.c) */
};
typedef web_server server;

static void common_headers(struct evhttp_request *req, const char *type)
{
    struct evkeyvalq *h = evhttp_request_get_output_headers(req);
    evhttp_add_header(h, "Content-Type", type);
    evhttp_add_header(h, "Content-Security-Policy", "default-src 'self'");
    evhttp_add_header(h, "X-Content-Type-Options", "nosniff");
    evhttp_add_header(h, "Referrer-Policy", "no-referrer");
    evhttp_add_header(h, "X-Frame-Options", "DENY");
    evhttp_add_header(h, "Cache-Control", "no-store");
}

void web_reply(struct evhttp_request *req, int code, const char *why, const char *type,
               const char *body, size_t len)
{
    common_headers(req, type);
    struct evbuffer *b = evbuffer_new();
    evbuffer_add(b, body, len);
    evhttp_send_reply(req, code, why, b);
    evbuffer_free(b);
}

static void reply_str(struct evhttp_request *req, int code, const char *why, const char *type,
                      const char *body)
{
    web_reply(req, code, why, type, body, strlen(body));
}

/* Errors as a short JSON object (API) or plain text: never the request's
 * own bytes echoed back. */
void web_fail(struct evhttp_request *req, int code, const char *why)
{
    char body[128];
    snprintf(body, sizeof body, "{\"error\":%d,\"message\":\"%s\"}\n", code, why);
    reply_str(req, code, why, "application/json; charset=utf-8", body);
}
#define fail web_fail

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* ---- the standings stream (Server-Sent Events) ---- */

static char *standings_event(const web_snap *w)
{
    /* Compact JSON holds no raw newline, so it is one data line. */
    return xasprintf("event: standings\ndata: %s\n\n", w->standings_json);
}

static void on_events(server *sv, struct evhttp_request *req)
{
    char *ev = standings_event(sv->snap);
    char *first = xasprintf("retry: 2000\n%s", ev);
    sse_open(&sv->hub, &sv->standings, req, first);
    free(first);
    free(ev);
}

sse_hub *web_server_hub(web_server *sv)
{
    return &sv->hub;
}

void web_server_store_changed(web_server *sv)
{
    sv->changed = true;
}

static void on_poll(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    server *sv = arg;
    char err[512];
    double t0 = now_s();
    if (t0 < sv->rebuild_after) return;
    /* In a run the store changes when a game ends, which the run says; the
     * stamp is still read now and then for changes from other processes
     * (a ladder's entrants), and every poll when workers play its games. */
    if (sv->live && !sv->o->shared_store && !sv->changed && t0 < sv->stamp_after) return;
    sv->changed = false;
    sv->stamp_after = t0 + RUN_STAMP_S;
    uint64_t stamp = web_stamp(sv->db, err, sizeof err);
    web_snap *w = stamp && stamp != sv->snap->stamp ? web_snap_load(sv->db, err, sizeof err) : NULL;
    /* A big store takes a while to read: the loop spends at most a third
     * of its time on it, so requests and streams keep being served; in a
     * run, whose matches share the loop, a twentieth. */
    sv->rebuild_after = t0 + (sv->live ? 20 : 3) * (now_s() - t0);
    if (!stamp || (stamp != sv->snap->stamp && !w)) {
        if (!sv->store_failing) fprintf(stderr, "arena: web: the store: %s\n", err);
        sv->store_failing = true;
        return;
    }
    sv->store_failing = false;
    if (!w) return;
    web_snap_free(sv->snap);
    sv->snap = w;
    char *ev = standings_event(w);
    sse_broadcast(&sv->standings, ev, strlen(ev));
    free(ev);
}

static void on_keepalive(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    server *sv = arg;
    static const char ka[] = ": keepalive\n\n";
    sse_broadcast(&sv->standings, ka, sizeof ka - 1);
    if (sv->live) live_keepalive(sv->live, ka, sizeof ka - 1);
}

/* ---- pages and API ---- */

static void send_json(struct evhttp_request *req, char *js)
{
    reply_str(req, 200, "OK", "application/json; charset=utf-8", js);
    free(js);
}

static void on_viewer(server *sv, struct evhttp_request *req, const char *id_text)
{
    char *end;
    errno = 0;
    long long id = strtoll(id_text, &end, 10);
    if (errno || end == id_text || *end || id <= 0) {
        fail(req, 404, "no such game");
        return;
    }
    int k = -1;
    for (int i = 0; i < VIEWER_CACHE; i++)
        if (sv->viewer[i].html && sv->viewer[i].game == id) k = i;
    if (k < 0) {
        char *path = web_viewer_log(sv->snap, id);
        if (!path) {
            fail(req, 404, "no viewer for this game (not ended, or no log)");
            return;
        }
        char *html = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&html, &len);
        int rc = replay_html(path, -1, f);
        fclose(f);
        free(path);
        if (rc != 0) {
            free(html);
            fail(req, 500, "the log does not replay");
            return;
        }
        k = sv->viewer_next;
        sv->viewer_next = (sv->viewer_next + 1) % VIEWER_CACHE;
        free(sv->viewer[k].html);
        sv->viewer[k].game = id;
        sv->viewer[k].html = html;
        sv->viewer[k].len = len;
    }
    /* The viewer is one self-contained page with its script inline (it
     * opens from disk too): it gets its own policy, in a sandbox of an
     * opaque origin that can reach nothing of this server. */
    struct evkeyvalq *h = evhttp_request_get_output_headers(req);
    evhttp_add_header(h, "Content-Type", "text/html; charset=utf-8");
    evhttp_add_header(h, "Content-Security-Policy",
                      "default-src 'none'; script-src 'unsafe-inline'; "
                      "style-src 'unsafe-inline'; img-src data:; sandbox allow-scripts");
    evhttp_add_header(h, "X-Content-Type-Options", "nosniff");
    evhttp_add_header(h, "Referrer-Policy", "no-referrer");
    struct evbuffer *b = evbuffer_new();
    evbuffer_add(b, sv->viewer[k].html, sv->viewer[k].len);
    evhttp_send_reply(req, 200, "OK", b);
    evbuffer_free(b);
}

void web_page(struct evhttp_request *req, const char *title)
{
    char *html = web_page_html(title);
    reply_str(req, 200, "OK", "text/html; charset=utf-8", html);
    free(html);
}

/* The last path segment after prefix, percent-decoded; NULL when it is
 * missing, too long, holds a NUL or a '/'. */
static char *name_after(const char *path, const char *prefix)
{
    size_t pl = strlen(prefix);
    if (strncmp(path, prefix, pl) != 0 || !path[pl] || strlen(path + pl) > 3 * NAME_MAX_WEB)
        return NULL;
    size_t len = 0;
    char *name = evhttp_uridecode(path + pl, 0, &len);
    if (!name) return NULL;
    if (len != strlen(name) || len > NAME_MAX_WEB || strchr(name, '/')) {
        free(name);
        return NULL;
    }
    return name;
}

static void on_request(struct evhttp_request *req, void *arg)
{
    server *sv = arg;
    const char *uri = evhttp_request_get_uri(req);
    if (!uri || strlen(uri) > URI_MAX) {
        fail(req, 414, "request target too long");
        return;
    }
    const struct evhttp_uri *u = evhttp_request_get_evhttp_uri(req);
    const char *path = u ? evhttp_uri_get_path(u) : NULL;
    if (!path || path[0] != '/') {
        fail(req, 400, "bad request target");
        return;
    }
    const char *query = evhttp_uri_get_query(u);
    struct evkeyvalq q;
    TAILQ_INIT(&q);
    if (query && evhttp_parse_query_str(query, &q) != 0) {
        fail(req, 400, "bad query");
        return;
    }
    const web_snap *w = sv->snap;
    char *name = NULL;
    if (!strcmp(path, "/"))
        web_page(req, "Standings");
    else if (!strcmp(path, "/games"))
        web_page(req, "Games");
    else if (!strcmp(path, "/settings"))
        web_page(req, "Settings");
    else if (!strncmp(path, "/entrant/", 9)) {
        if ((name = name_after(path, "/entrant/")))
            web_page(req, "Entrant");
        else
            fail(req, 404, "no such entrant");
    } else if (!strcmp(path, "/app.js"))
        reply_str(req, 200, "OK", "text/javascript; charset=utf-8", web_app_js());
    else if (!strcmp(path, "/style.css"))
        reply_str(req, 200, "OK", "text/css; charset=utf-8", web_style_css());
    else if (!strcmp(path, "/boards.js"))
        reply_str(req, 200, "OK", "text/javascript; charset=utf-8", web_boards_js());
    else if (!strcmp(path, "/boards.css"))
        reply_str(req, 200, "OK", "text/css; charset=utf-8", web_boards_css());
    else if (!strcmp(path, "/api/standings"))
        reply_str(req, 200, "OK", "application/json; charset=utf-8", w->standings_json);
    else if (!strcmp(path, "/api/settings"))
        reply_str(req, 200, "OK", "application/json; charset=utf-8", w->settings_json);
    else if (!strcmp(path, "/api/games")) {
        const char *agent = evhttp_find_header(&q, "agent"),
                   *limit_text = evhttp_find_header(&q, "limit");
        int64_t limit = GAMES_DEFAULT;
        char *end = NULL;
        if (limit_text && !strcmp(limit_text, "all"))
            limit = GAMES_ALL;
        else if (limit_text) {
            errno = 0;
            limit = strtoll(limit_text, &end, 10);
            if (errno || end == limit_text || *end || limit < 0 || limit > GAMES_ALL) limit = -1;
        }
        if (limit < 0 || (agent && strlen(agent) > NAME_MAX_WEB))
            fail(req, 400, "bad agent or limit");
        else
            send_json(req, web_games_json(w, agent && agent[0] ? agent : NULL, limit));
    } else if (!strncmp(path, "/api/entrant/", 13)) {
        char *js = (name = name_after(path, "/api/entrant/")) ? web_entrant_json(w, name) : NULL;
        if (js)
            send_json(req, js);
        else
            fail(req, 404, "no such entrant");
    } else if (!strcmp(path, "/events"))
        on_events(sv, req);
    else if (!strncmp(path, "/author/", 8) || !strncmp(path, "/api/author/", 12))
        author_route(sv->author, req, path, w);
    else if (live_route(sv->live, req, path, &q))
        ; /* /live, /api/live and their games */
    else if (!strncmp(path, "/games/", 7) && strlen(path) < 40 &&
             !strcmp(path + strlen(path) - 7, "/viewer")) {
        char id[40];
        snprintf(id, sizeof id, "%.*s", (int)(strlen(path) - 14), path + 7);
        on_viewer(sv, req, id);
    } else
        fail(req, 404, "not found");
    free(name);
    evhttp_clear_headers(&q);
}

/* ---- listening ---- */

static void reenable(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    evconnlistener_enable(arg);
}

static void on_accept_error(struct evconnlistener *l, void *ctx)
{
    (void)ctx;
    /* Out of descriptors: stop accepting for a moment rather than spin. */
    fprintf(stderr, "arena: web: accept: %s\n", strerror(errno));
    evconnlistener_disable(l);
    struct timeval tv = {0, 200000};
    event_base_once(evconnlistener_get_base(l), -1, EV_TIMEOUT, reenable, l, &tv);
}

static struct evconnlistener *listen_on(struct event_base *base, const char *hostport)
{
    struct addrinfo *res;
    char err[300];
    if (resolve_listen(hostport, &res, err, sizeof err) != 0) {
        fprintf(stderr, "arena: web: %s\n", err);
        return NULL;
    }
    struct evconnlistener *l =
        evconnlistener_new_bind(base, NULL, NULL, LEV_OPT_CLOSE_ON_FREE | LEV_OPT_REUSEABLE, 511,
                                res->ai_addr, (int)res->ai_addrlen);
    freeaddrinfo(res);
    if (!l) fprintf(stderr, "arena: web: cannot listen on %s: %s\n", hostport, strerror(errno));
    return l;
}

web_server *web_server_start(struct event_base *base, store *s, const web_opts *o, live *lv,
                             FILE *announce)
{
    server *sv = xcalloc(1, sizeof *sv);
    sv->o = o;
    sv->db = s;
    sv->base = base;
    sv->live = lv;
    sv->hub.max = o->max_spectators;
    sv->hub.buffer = o->spectator_buffer;
    char err[512];
    sv->snap = web_snap_load(s, err, sizeof err);
    if (!sv->snap) {
        fprintf(stderr, "arena: web: %s\n", err);
        free(sv);
        return NULL;
    }
    sv->author = author_new(s, o->tokens, err, sizeof err);
    if (!sv->author) {
        fprintf(stderr, "arena: web: %s\n", err);
        web_snap_free(sv->snap);
        free(sv);
        return NULL;
    }
    sv->listener = listen_on(base, o->listen);
    if (!sv->listener) {
        author_free(sv->author);
        web_snap_free(sv->snap);
        free(sv);
        return NULL;
    }
    sv->http = evhttp_new(base);
    evhttp_set_allowed_methods(sv->http, EVHTTP_REQ_GET | EVHTTP_REQ_HEAD);
    evhttp_set_max_headers_size(sv->http, 8192);
    evhttp_set_max_body_size(sv->http, 0);
    evhttp_set_timeout(sv->http, 30);
    evhttp_set_gencb(sv->http, on_request, sv);
    struct evhttp_bound_socket *bs = sv->bound = evhttp_bind_listener(sv->http, sv->listener);
    evconnlistener_set_error_cb(sv->listener, on_accept_error);
    struct sockaddr_storage ss;
    socklen_t sl = sizeof ss;
    char hbuf[NI_MAXHOST] = "?", pbuf[NI_MAXSERV] = "?";
    if (getsockname(evhttp_bound_socket_get_fd(bs), (struct sockaddr *)&ss, &sl) == 0)
        getnameinfo((struct sockaddr *)&ss, sl, hbuf, sizeof hbuf, pbuf, sizeof pbuf,
                    NI_NUMERICHOST | NI_NUMERICSERV);
    fprintf(announce, "arena web: serving on http://%s%s%s:%s/\n", strchr(hbuf, ':') ? "[" : "",
            hbuf, strchr(hbuf, ':') ? "]" : "", pbuf);
    fflush(announce);
    struct timeval poll = {o->poll_ms / 1000, (o->poll_ms % 1000) * 1000}, keep = {KEEPALIVE_S, 0};
    sv->poll_ev = event_new(base, -1, EV_PERSIST, on_poll, sv);
    sv->keep_ev = event_new(base, -1, EV_PERSIST, on_keepalive, sv);
    event_add(sv->poll_ev, &poll);
    event_add(sv->keep_ev, &keep);
    sv->stamp_after = now_s() + RUN_STAMP_S;
    return sv;
}

void web_server_close(web_server *sv)
{
    if (sv->bound) evhttp_del_accept_socket(sv->http, sv->bound);
    sv->bound = NULL;
    event_del(sv->poll_ev);
    event_del(sv->keep_ev);
    sse_end_all(&sv->standings, false);
}

void web_server_free(web_server *sv)
{
    if (!sv) return;
    sse_retire_all();
    sse_end_all(&sv->standings, true);
    event_free(sv->poll_ev);
    event_free(sv->keep_ev);
    /* Frees the bound listener (LEV_OPT_CLOSE_ON_FREE) and every connection. */
    evhttp_free(sv->http);
    for (int i = 0; i < VIEWER_CACHE; i++)
        free(sv->viewer[i].html);
    author_free(sv->author);
    web_snap_free(sv->snap);
    free(sv);
}

static void on_stop(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    event_base_loopbreak(arg);
}

int web_serve(store *s, const web_opts *o)
{
    signal(SIGPIPE, SIG_IGN);
    struct event_base *base = event_base_new();
    server *sv = web_server_start(base, s, o, NULL, stdout);
    if (!sv) {
        event_base_free(base);
        return 1;
    }
    struct event *si = evsignal_new(base, SIGINT, on_stop, base),
                 *st = evsignal_new(base, SIGTERM, on_stop, base);
    event_add(si, NULL);
    event_add(st, NULL);
    event_base_dispatch(base);
    event_free(si);
    event_free(st);
    web_server_free(sv);
    event_base_free(base);
    return 0;
}
