/* Server-Sent Events streams with the limits that keep spectators from
 * costing anything: a cap on open streams (the hub's), and a cap on each
 * stream's unread bytes past which the stream is dropped, never waited
 * for. A stream belongs to one group (the standings' /events, or one live
 * game's board) that events are broadcast to. */
#ifndef ARENA_WEB_SSE_H
#define ARENA_WEB_SSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct evhttp_request;

typedef struct sse_hub {
    int n, max;    /* open streams, and at most */
    size_t buffer; /* unread bytes a stream may have before it is dropped */
    int64_t dropped;
} sse_hub;

/* Broadcasts a group may have waiting: past it they go out at once. */
#define SSE_PEND_MAX 64

typedef struct sse_stream sse_stream;
typedef struct sse_group {
    sse_stream *head;
    int n;
    /* A broadcast goes out SSE_BATCH streams per turn of the loop from
     * the turn after it was made (not in its caller, a match's step), so
     * a thousand spectators never hold it (and the matches on it) at once:
     * the events still to send, oldest first (a new one waits for the one
     * under way rather than finishing it in one go), and the next stream
     * to send the oldest to. */
    struct sse_pending *pend, *pend_tail;
    int n_pend;
    sse_stream *cursor;
    struct event *more;
    bool retiring;                 /* sse_group_retire: ending, then freed */
    struct sse_group *prev, *next; /* the retiring groups */
} sse_group;

/* Answers req with an event stream in group g and queues first (may be
 * NULL); NULL after a 503 when the hub is full. */
sse_stream *sse_open(sse_hub *h, sse_group *g, struct evhttp_request *req, const char *first);
/* Queues an event, or drops the stream (freed) when it has unread bytes
 * and this event would take them over the cap. */
void sse_send(sse_stream *c, const char *ev, size_t len);
void sse_broadcast(sse_group *g, const char *ev, size_t len);
/* Ends every stream of g (after the broadcast under way): closed at once
 * (drop), or after what is queued. g may then be freed. */
void sse_end_all(sse_group *g, bool drop);
/* A group of its own (sse_group_retire frees it). */
sse_group *sse_group_new(void);
/* Ends g's streams after what is queued, SSE_BATCH a turn of the loop (a
 * game's thousand spectators do not hold its matches up when it ends),
 * then frees g. */
void sse_group_retire(sse_group *g);
/* Ends what every retiring group still holds, now (the server closes). */
void sse_retire_all(void);

#endif
