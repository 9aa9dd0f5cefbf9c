#include "events.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

void events_push(arena_events *e, uint32_t vis, av *ev)
{
    if (e->disabled) {
        av_free(ev);
        return;
    }
    size_t held = e->len - e->off;
    if (held == e->cap) {
        e->cap = e->cap ? 2 * e->cap : 64;
        e->items = xrealloc(e->items, e->cap * sizeof *e->items);
        e->vis = xrealloc(e->vis, e->cap * sizeof *e->vis);
    }
    e->items[held] = ev;
    e->vis[held] = vis;
    e->len++;
}

void events_turn_moved(arena_events *e)
{
    e->turn = e->len;
    if (e->on_turn) e->on_turn(e->on_turn_ctx);
}

const av *events_get(const arena_events *e, size_t i, int seat)
{
    if (i >= e->len || i < e->off) return NULL;
    i -= e->off;
    if (seat >= 0 && !(e->vis[i] & EVENTS_SEAT(seat))) return NULL;
    return e->items[i];
}

av *events_last(arena_events *e)
{
    return e->len > e->off ? e->items[e->len - 1 - e->off] : NULL;
}

void events_release(arena_events *e, size_t upto)
{
    if (upto > e->len) upto = e->len;
    if (upto <= e->off) return;
    size_t n = upto - e->off, keep = e->len - upto;
    for (size_t i = 0; i < n; i++)
        av_free(e->items[i]);
    /* What is left is what some reader has not had yet: usually the few
     * events since the last decision, so the move is short. */
    memmove(e->items, e->items + n, keep * sizeof *e->items);
    memmove(e->vis, e->vis + n, keep * sizeof *e->vis);
    e->off = upto;
}

size_t events_held(const arena_events *e)
{
    return e->len - e->off;
}

void events_free(arena_events *e)
{
    for (size_t i = 0; i < e->len - e->off; i++)
        av_free(e->items[i]);
    free(e->items);
    free(e->vis);
    e->items = NULL;
    e->vis = NULL;
    e->len = e->cap = e->off = 0;
}
