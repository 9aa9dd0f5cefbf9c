/* Server-Sent Events on evhttp (sse.h). */
#include "sse.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/event.h>
#include <event2/http.h>

#include "loop.h"
#include "util.h"

#define SSE_SNDBUF 16384 /* the kernel's share of a stream's queue */
/* Streams a broadcast is sent to per turn of the loop, in the background
 * (loop.h): about 0.6 ms of the loop, which is what it can hold up. */
#define SSE_BATCH 16

struct sse_stream {
    sse_hub *hub;
    sse_group *group;
    struct evhttp_request *req;
    struct evhttp_connection *conn;
    sse_stream *prev, *next;
};

static void unlink_stream(sse_stream *c)
{
    sse_group *g = c->group;
    if (g->cursor == c) g->cursor = c->next;
    if (c->prev)
        c->prev->next = c->next;
    else
        g->head = c->next;
    if (c->next) c->next->prev = c->prev;
    g->n--;
    c->hub->n--;
}

static void on_close(struct evhttp_connection *conn, void *arg)
{
    (void)conn;
    sse_stream *c = arg;
    struct evhttp_request *req = c->req;
    unlink_stream(c);
    free(c);
    /* On the peer's EOF or a timeout, libevent detaches a request whose
     * reply is still going and leaves it to us: ending it frees it. A
     * request still attached is freed with its connection. */
    if (!evhttp_request_get_connection(req)) evhttp_send_reply_end(req);
}

static void drop(sse_stream *c)
{
    struct evhttp_connection *conn = c->conn;
    c->hub->dropped++;
    unlink_stream(c);
    free(c);
    evhttp_connection_set_closecb(conn, NULL, NULL);
    evhttp_connection_free(conn);
}

void sse_send(sse_stream *c, const char *ev, size_t len)
{
    struct bufferevent *bev = evhttp_connection_get_bufferevent(c->conn);
    size_t queued = evbuffer_get_length(bufferevent_get_output(bev));
    /* An event larger than the cap still goes to a stream that keeps up. */
    if (queued > 0 && queued + len > c->hub->buffer) {
        drop(c);
        return;
    }
    /* One buffer for every send: the chunk takes its bytes and leaves it
     * empty. */
    static struct evbuffer *b;
    if (!b) b = evbuffer_new();
    evbuffer_add(b, ev, len);
    evhttp_send_reply_chunk(c->req, b);
    evbuffer_drain(b, evbuffer_get_length(b));
}

struct sse_pending {
    struct sse_pending *next;
    size_t len;
    char ev[];
};

static sse_group *retiring; /* the groups sse_group_retire is ending */

/* Ends up to `batch` streams of a retiring group; frees it when none is
 * left. */
static void retire_some(sse_group *g, int batch)
{
    for (int k = 0; g->head && k < batch; k++) {
        sse_stream *c = g->head;
        struct evhttp_connection *conn = c->conn;
        struct evhttp_request *req = c->req;
        unlink_stream(c);
        free(c);
        evhttp_connection_set_closecb(conn, NULL, NULL);
        evhttp_send_reply_end(req);
    }
    if (g->head) {
        struct timeval zero = {0, 0};
        event_add(g->more, &zero);
        return;
    }
    if (g->prev)
        g->prev->next = g->next;
    else
        retiring = g->next;
    if (g->next) g->next->prev = g->prev;
    if (g->more) event_free(g->more);
    while (g->pend) { /* left when its streams had all gone */
        struct sse_pending *p = g->pend;
        g->pend = p->next;
        free(p);
    }
    free(g);
}

/* Sends the pending broadcasts, in order, to up to `batch` more streams
 * in all; frees each when every stream has had it. */
static void send_pending(sse_group *g, int batch)
{
    int k = 0;
    while (g->pend) {
        for (; g->cursor && k < batch; k++) {
            sse_stream *c = g->cursor;
            g->cursor = c->next;
            sse_send(c, g->pend->ev, g->pend->len);
        }
        if (g->cursor) break;
        struct sse_pending *p = g->pend;
        g->pend = p->next;
        if (!g->pend) g->pend_tail = NULL;
        g->n_pend--;
        free(p);
        g->cursor = g->head;
        if (k >= batch) break;
    }
    if (g->pend || g->retiring) {
        struct timeval zero = {0, 0};
        event_add(g->more, &zero);
    }
}

static void on_more(evutil_socket_t fd, short what, void *arg);

/* g's timer for the next batch, made once: background work (loop.h). */
static void need_more(sse_group *g)
{
    if (g->more) return;
    g->more = evtimer_new(evhttp_connection_get_base(g->head->conn), on_more, g);
    loop_prio(g->more, LOOP_PRIO_BACKGROUND);
}

static void on_more(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    sse_group *g = arg;
    if (g->pend)
        send_pending(g, SSE_BATCH);
    else if (g->retiring)
        retire_some(g, SSE_BATCH);
}

sse_group *sse_group_new(void)
{
    return xcalloc(1, sizeof(sse_group));
}

void sse_group_retire(sse_group *g)
{
    g->retiring = true;
    g->next = retiring;
    if (g->next) g->next->prev = g;
    retiring = g;
    if (!g->head) {
        retire_some(g, 1);
        return;
    }
    need_more(g);
    if (!g->pend) retire_some(g, SSE_BATCH);
}

void sse_retire_all(void)
{
    while (retiring) {
        sse_group *g = retiring;
        while (g->pend)
            send_pending(g, INT_MAX);
        retire_some(g, g->n + 1);
    }
}

void sse_broadcast(sse_group *g, const char *ev, size_t len)
{
    if (!g->head) return;
    need_more(g);
    struct sse_pending *p = xmalloc(sizeof *p + len);
    p->next = NULL;
    p->len = len;
    memcpy(p->ev, ev, len);
    if (g->pend_tail) {
        g->pend_tail->next = p; /* after the one under way, which keeps its pace */
        g->pend_tail = p;
        /* A loop too busy to run its background (loop.h) would let them
         * pile up: past SSE_PEND_MAX they all go out now. */
        if (++g->n_pend > SSE_PEND_MAX)
            while (g->pend)
                send_pending(g, INT_MAX);
        return;
    }
    g->pend = g->pend_tail = p;
    g->n_pend = 1;
    g->cursor = g->head;
    /* From the next turn of the loop: the caller (a match's step building
     * the board) is work enough for this one. */
    struct timeval zero = {0, 0};
    event_add(g->more, &zero);
}

void sse_end_all(sse_group *g, bool drop_now)
{
    while (g->pend)
        send_pending(g, INT_MAX);
    if (g->more) event_free(g->more);
    g->more = NULL;
    while (g->head) {
        sse_stream *c = g->head;
        if (drop_now) {
            sse_hub *h = c->hub;
            drop(c);
            h->dropped--; /* not the reader's fault */
            continue;
        }
        struct evhttp_connection *conn = c->conn;
        struct evhttp_request *req = c->req;
        unlink_stream(c);
        free(c);
        evhttp_connection_set_closecb(conn, NULL, NULL);
        evhttp_send_reply_end(req);
    }
}

sse_stream *sse_open(sse_hub *h, sse_group *g, struct evhttp_request *req, const char *first)
{
    if (h->n >= h->max) {
        struct evkeyvalq *hd = evhttp_request_get_output_headers(req);
        evhttp_add_header(hd, "Content-Type", "application/json; charset=utf-8");
        evhttp_add_header(hd, "Cache-Control", "no-store");
        evhttp_add_header(hd, "Content-Security-Policy", "default-src 'self'");
        evhttp_add_header(hd, "X-Content-Type-Options", "nosniff");
        struct evbuffer *b = evbuffer_new();
        evbuffer_add_printf(b, "{\"error\":503,\"message\":\"too many spectators\"}\n");
        evhttp_send_reply(req, 503, "too many spectators", b);
        evbuffer_free(b);
        return NULL;
    }
    struct evkeyvalq *hd = evhttp_request_get_output_headers(req);
    evhttp_add_header(hd, "Content-Type", "text/event-stream");
    evhttp_add_header(hd, "Cache-Control", "no-store");
    evhttp_add_header(hd, "X-Content-Type-Options", "nosniff");
    evhttp_add_header(hd, "X-Accel-Buffering", "no");
    sse_stream *c = xcalloc(1, sizeof *c);
    c->hub = h;
    c->group = g;
    c->req = req;
    c->conn = evhttp_request_get_connection(req);
    c->next = g->head;
    if (c->next) c->next->prev = c;
    g->head = c;
    g->n++;
    h->n++;
    struct bufferevent *bev = evhttp_connection_get_bufferevent(c->conn);
    int sndbuf = SSE_SNDBUF;
    setsockopt(bufferevent_getfd(bev), SOL_SOCKET, SO_SNDBUF, &sndbuf, sizeof sndbuf);
    evhttp_connection_set_closecb(c->conn, on_close, c);
    evhttp_send_reply_start(req, 200, "OK");
    if (first) sse_send(c, first, strlen(first));
    return c;
}
