/* `arena web DB|URL --listen ADDR`: a live web front over a results store
 * (docs/web.md). It sits above referee/ and tournaments/, beside the
 * command: nothing below includes it. */
#ifndef ARENA_WEB_H
#define ARENA_WEB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "store.h"

typedef struct web_opts {
    const char *listen;      /* HOST:PORT (port 0: any free port) */
    int max_spectators;      /* open /events streams at most */
    size_t spectator_buffer; /* bytes queued for one stream before it is dropped */
    int poll_ms;             /* how often the store is looked at */
    const char *tokens;      /* "TOKEN NAME" lines for the private pages, or NULL */
    /* A run's store whose games others play too (PostgreSQL's workers):
     * no game end on the run's loop says a result came, so the stamp is
     * read every poll_ms, not every 5 s. */
    bool shared_store;
} web_opts;

/* Serves s until SIGINT or SIGTERM; the exit code. */
int web_serve(store *s, const web_opts *o);

/* The server on a loop of someone else's: `arena web`'s own, or a run's
 * (--http, with lv its games in progress). Prints its address on announce;
 * NULL after a message on stderr. Nothing of it blocks: requests are
 * answered from a snapshot of the store. */
struct event_base;
struct evhttp_request;
typedef struct live live;
typedef struct web_server web_server;
web_server *web_server_start(struct event_base *base, store *s, const web_opts *o, live *lv,
                             FILE *announce);
/* Stops listening and ends the streams after what they have queued; the
 * connections stay open until web_server_free. */
void web_server_close(web_server *sv);
/* Closes every connection and the listener. */
void web_server_free(web_server *sv);

/* For the pages of other files (live.c): answers, with the headers of every
 * page (the policy default-src 'self' and the rest). */
void web_reply(struct evhttp_request *req, int code, const char *why, const char *type,
               const char *body, size_t len);
void web_fail(struct evhttp_request *req, int code, const char *why);
void web_page(struct evhttp_request *req, const char *title);
struct sse_hub *web_server_hub(web_server *sv);
/* In a run: a game ended, the store has its result (a new snapshot soon). */
void web_server_store_changed(web_server *sv);

int cmd_web(int argc, char **argv);

#endif
