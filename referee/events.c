#include "events.h"

#include <stdlib.h>

#include "util.h"

void events_push(arena_events *e, uint32_t vis, av *ev)
{
    if (e->disabled) {
        av_free(ev);
        return;
    }
    if (e->len == e->cap) {
        e->cap = e->cap ? 2 * e->cap : 64;
        e->items = xrealloc(e->items, e->cap * sizeof *e->items);
        e->vis = xrealloc(e->vis, e->cap * sizeof *e->vis);
    }
    e->items[e->len] = ev;
    e->vis[e->len] = vis;
    e->len++;
}

const av *events_get(const arena_events *e, size_t i, int seat)
{
    if (i >= e->len) return NULL;
    if (seat >= 0 && !(e->vis[i] & EVENTS_SEAT(seat))) return NULL;
    return e->items[i];
}

void events_free(arena_events *e)
{
    for (size_t i = 0; i < e->len; i++)
        av_free(e->items[i]);
    free(e->items);
    free(e->vis);
    e->items = NULL;
    e->vis = NULL;
    e->len = e->cap = 0;
}
