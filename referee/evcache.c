#include "evcache.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

struct evcache_slot {
    const av *ev;  /* the tree the bytes encode; NULL: none yet */
    size_t off[2]; /* per codec (msgpack, JSON): offset into bytes */
    size_t len[2];
    bool has[2];
};

void evcache_write(evcache *c, frame_writer *w, size_t idx, const av *ev)
{
    if (idx < c->base) { /* released: a caller's bug, but the bytes stay right */
        fw_value(w, ev);
        return;
    }
    size_t i = idx - c->base;
    if (i >= c->n) {
        if (i >= c->cap) {
            c->cap = i + 1 > 2 * c->cap ? i + 1 : 2 * c->cap;
            c->slot = xrealloc(c->slot, c->cap * sizeof *c->slot);
        }
        memset(c->slot + c->n, 0, (i + 1 - c->n) * sizeof *c->slot);
        c->n = i + 1;
    }
    evcache_slot *s = &c->slot[i];
    int k = w->codec == CODEC_JSON;
    if (s->ev == ev && s->has[k]) {
        fw_raw(w, c->bytes.data + s->off[k], s->len[k]);
        return;
    }
    size_t at = fw_value_at(w, ev);
    if (s->ev && s->ev != ev) return; /* another seat's tree under this index */
    s->ev = ev;
    s->off[k] = c->bytes.len;
    s->len[k] = w->out->len - at;
    s->has[k] = true;
    abuf_add(&c->bytes, w->out->data + at, s->len[k]);
}

/* Where the bytes of the events still held start: no earlier than this. */
static size_t first_live(const evcache *c)
{
    size_t live = c->bytes.len;
    for (size_t i = 0; i < c->n; i++)
        for (int k = 0; k < 2; k++)
            if (c->slot[i].has[k] && c->slot[i].off[k] < live) live = c->slot[i].off[k];
    return live;
}

void evcache_release(evcache *c, size_t upto)
{
    if (upto <= c->base) return;
    size_t drop = upto - c->base;
    if (drop >= c->n) {
        c->n = 0;
        c->bytes.len = 0;
    } else {
        c->n -= drop;
        memmove(c->slot, c->slot + drop, c->n * sizeof *c->slot);
        /* Once the dead bytes are more than half the buffer, move the rest
         * down. */
        size_t dead = first_live(c);
        if (dead > c->bytes.len / 2) {
            memmove(c->bytes.data, c->bytes.data + dead, c->bytes.len - dead);
            c->bytes.len -= dead;
            for (size_t i = 0; i < c->n; i++)
                for (int k = 0; k < 2; k++)
                    c->slot[i].off[k] -= c->slot[i].has[k] ? dead : 0;
        }
    }
    c->base = upto;
}

size_t evcache_bytes(const evcache *c)
{
    return c->bytes.len - first_live(c);
}

void evcache_free(evcache *c)
{
    free(c->slot);
    abuf_free(&c->bytes);
    memset(c, 0, sizeof *c);
}
