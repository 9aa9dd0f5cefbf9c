/* The two ends of valueout.h. In frame mode msgpack needs each container's
 * count in its header, which the writer does not give: the header is one
 * placeholder byte, patched at vo_end, and widened in the rare container
 * of 16 or more items (codec.c's shortest forms, so the bytes are those of
 * the tree's encoding). */
#include "valueout.h"

#include <stdio.h>
#include <stdlib.h>

static void bug(const char *what)
{
    /* Only our games' own writers call this: a mistake in one of them. */
    fprintf(stderr, "arena: value writer: %s\n", what);
    abort();
}

void vout_tree(vout *o)
{
    o->w = NULL;
    o->depth = 0;
    o->root = NULL;
    o->key = NULL;
}

av *vout_tree_take(vout *o)
{
    if (o->w || o->depth) bug("tree taken unfinished");
    av *v = o->root;
    o->root = NULL;
    return v;
}

void vout_frame(vout *o, frame_writer *w)
{
    o->w = w;
    o->depth = 0;
    o->key = NULL;
}

/* Before a value: its key must be waiting exactly when it goes in a map. */
static void before_value(vout *o)
{
    bool in_map = o->depth > 0 && o->is_map[o->depth - 1];
    if (in_map != (o->key != NULL)) bug(in_map ? "value without a key" : "key outside a map");
    if (!o->w) return;
    o->key = NULL;
    if (o->depth > 0 && !in_map) o->items[o->depth - 1]++;
}

/* Tree mode: v goes where the writer stands. */
static void put(vout *o, av *v)
{
    if (o->depth == 0) {
        if (o->root) bug("two values at the top");
        o->root = v;
        return;
    }
    av *top = o->open[o->depth - 1];
    if (o->key) {
        av_addn(top, o->key, o->key_len, v);
        o->key = NULL;
    } else {
        av_push(top, v);
    }
}

static void open_container(vout *o, bool is_map)
{
    before_value(o);
    if (o->depth >= VOUT_MAX_DEPTH) bug("nested too deep");
    int d = o->depth;
    if (!o->w) {
        av *c = is_map ? av_map() : av_list();
        put(o, c); /* into its parent, before it is the one open */
        o->open[d] = c;
    } else if (o->w->codec == CODEC_JSON) {
        if (is_map)
            fw_map_any(o->w, 0);
        else
            fw_list_any(o->w, 0);
    } else {
        abuf *b = o->w->out;
        o->head[d] = b->len;
        o->items[d] = 0;
        *fw_room(b, 1) = is_map ? 0x80 : 0x90;
        b->len++;
    }
    o->is_map[d] = is_map;
    o->depth++;
}

void vo_map(vout *o)
{
    open_container(o, true);
}

void vo_list(vout *o)
{
    open_container(o, false);
}

/* msgpack: the count n into the placeholder at b->data[at], widened to a
 * 16- or 32-bit count when it does not fit the fix form. */
static void patch_count(abuf *b, size_t at, size_t n, bool is_map)
{
    if (n < 16) {
        b->data[at] |= (uint8_t)n;
        return;
    }
    size_t extra = n <= 0xffff ? 2 : 4;
    fw_room(b, extra);
    memmove(b->data + at + 1 + extra, b->data + at + 1, b->len - at - 1);
    b->len += extra;
    uint8_t *p = b->data + at;
    p[0] = (uint8_t)((is_map ? 0xde : 0xdc) + (extra == 4));
    for (size_t i = 0; i < extra; i++)
        p[1 + i] = (uint8_t)(n >> (8 * (extra - 1 - i)));
}

void vo_end(vout *o)
{
    if (o->depth == 0 || o->key) bug(o->depth ? "map closed after a key" : "end without open");
    int d = --o->depth;
    if (!o->w) return;
    if (o->w->codec == CODEC_JSON)
        fw_end_json(o->w);
    else
        patch_count(o->w->out, o->head[d], o->items[d], o->is_map[d]);
}

void vo_keyn(vout *o, const char *k, size_t n)
{
    if (o->depth == 0 || !o->is_map[o->depth - 1] || o->key) bug("key outside a map");
    o->key = k;
    o->key_len = n;
    if (!o->w) return;
    o->items[o->depth - 1]++;
    if (o->w->codec == CODEC_JSON)
        fw_key_any(o->w, k, n);
    else
        fw_str(o->w, k, n); /* a key is a str in msgpack */
}

void vo_int(vout *o, int64_t v)
{
    before_value(o);
    if (o->w)
        fw_int(o->w, v);
    else
        put(o, av_int(v));
}

void vo_strn(vout *o, const char *s, size_t n)
{
    before_value(o);
    if (o->w)
        fw_str(o->w, s, n);
    else
        put(o, av_strn(s, n));
}

void vo_bool(vout *o, bool v)
{
    before_value(o);
    if (o->w)
        fw_bool(o->w, v);
    else
        put(o, av_bool(v));
}

void vo_nil(vout *o)
{
    before_value(o);
    if (o->w)
        fw_nil(o->w);
    else
        put(o, av_nil());
}

void vo_value(vout *o, const av *v)
{
    before_value(o);
    if (o->w)
        fw_value(o->w, v);
    else
        put(o, av_copy(v));
}
