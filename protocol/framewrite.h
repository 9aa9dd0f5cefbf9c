/* Writing a frame piece by piece, without building a value tree first.
 *
 * The referee's hot message (decide) is mostly scalars and strings it
 * already holds; building a tree only to encode and free it cost more than
 * the encoding. A frame_writer appends the same bytes codec_encode would
 * write for the equivalent tree (same shortest msgpack forms, same compact
 * JSON), straight into an output buffer. Subtrees go through the tree
 * encoders (fw_value).
 *
 * The caller gives msgpack's counts up front (fw_map, fw_list) and must
 * then write exactly that many keys / items: JSON has no counts, so a wrong
 * count is only caught by the bytes differing. */
#ifndef ARENA_FRAMEWRITE_H
#define ARENA_FRAMEWRITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "codec.h"
#include "util.h"
#include "value.h"

/* Single items in msgpack (codec.c), the forms codec_encode uses. */
void mpw_nil(abuf *b);
void mpw_bool(abuf *b, bool v);
void mpw_int(abuf *b, int64_t v);
void mpw_str(abuf *b, const char *s, size_t n);
void mpw_map(abuf *b, size_t n_keys); /* header only: then n_keys key/value pairs */
void mpw_list(abuf *b, size_t n_items);
void mpw_value(abuf *b, const av *v); /* a whole tree (NULL: nil) */
/* msgpack's length prefix: reserved at the end of out (returns where), then
 * patched to cover everything written after it. */
size_t codec_frame_open(abuf *out);
void codec_frame_close(abuf *out, size_t at);

/* Single items in JSON (json_write.c), as av_json_append writes them. */
void jsonw_str(abuf *b, const char *s, size_t n);
void jsonw_int(abuf *b, int64_t v);

/* containers open at once: decide needs 3, a game's view below it more */
#define FW_MAX_DEPTH 24

typedef struct frame_writer {
    abuf *out;
    codec_kind codec;
    size_t start; /* msgpack: where the length prefix goes */
    int depth;
    bool after_key;                /* json: the next value needs no comma */
    bool more[FW_MAX_DEPTH + 1];   /* json: the level has an item already */
    bool is_map[FW_MAX_DEPTH + 1]; /* json: closing brace or bracket */
} frame_writer;

/* Starts a frame at the end of out (msgpack: a length prefix to patch). */
void fw_begin(frame_writer *w, codec_kind c, abuf *out);
void fw_value(frame_writer *w, const av *v);
/* fw_value, returning where v's own bytes start in w->out (after JSON's
 * separator): what fw_raw takes to write the same value again. */
size_t fw_value_at(frame_writer *w, const av *v);
/* One value already encoded in w's codec (as fw_value_at left it). */
void fw_raw(frame_writer *w, const uint8_t *p, size_t n);
void fw_bool(frame_writer *w, bool v);
void fw_nil(frame_writer *w);
/* Completes the frame (msgpack: the length; json: the newline). */
void fw_finish(frame_writer *w);

/* The general forms of the inline writers below. */
void fw_map_any(frame_writer *w, size_t n_keys);
void fw_list_any(frame_writer *w, size_t n_items);
void fw_end_json(frame_writer *w);
void fw_key_any(frame_writer *w, const char *k, size_t n); /* any key */
void fw_str_any(frame_writer *w, const char *s, size_t n);
void fw_int_any(frame_writer *w, int64_t v);

/* The common cases are inline: a decide is some forty items, and a call
 * per item cost more than writing it. */

/* Room for n more bytes at the end of b (and abuf's NUL past them). */
static inline uint8_t *fw_room(abuf *b, size_t n)
{
    if (b->len + n + 1 > b->cap) abuf_reserve(b, n);
    return b->data + b->len;
}

static inline void fw_map(frame_writer *w, size_t n_keys)
{
    if (w->codec != CODEC_JSON && n_keys < 16) {
        *fw_room(w->out, 1) = (uint8_t)(0x80 | n_keys);
        w->out->len++;
    } else {
        fw_map_any(w, n_keys);
    }
}

static inline void fw_list(frame_writer *w, size_t n_items)
{
    if (w->codec != CODEC_JSON && n_items < 16) {
        *fw_room(w->out, 1) = (uint8_t)(0x90 | n_items);
        w->out->len++;
    } else {
        fw_list_any(w, n_items);
    }
}

/* Closes the innermost map or list. */
static inline void fw_end(frame_writer *w)
{
    if (w->codec == CODEC_JSON) fw_end_json(w);
}

/* A key of printable ASCII without '"' or '\\' (JSON needs no escape),
 * such as the protocol's own keys. */
static inline void fw_key_plain(frame_writer *w, const char *k, size_t n)
{
    if (n >= 32) {
        fw_key_any(w, k, n);
        return;
    }
    uint8_t *p = fw_room(w->out, n + 4);
    if (w->codec == CODEC_JSON) {
        size_t i = 0;
        if (w->more[w->depth]) p[i++] = ',';
        w->more[w->depth] = true;
        p[i++] = '"';
        memcpy(p + i, k, n);
        i += n;
        p[i++] = '"';
        p[i++] = ':';
        w->out->len += i;
        w->after_key = true;
    } else {
        p[0] = (uint8_t)(0xa0 | n);
        memcpy(p + 1, k, n);
        w->out->len += n + 1;
    }
}

/* A key given as a string literal (plain, see fw_key_plain). */
#define FW_KEY(w, lit) fw_key_plain((w), "" lit, sizeof(lit) - 1)

static inline void fw_str(frame_writer *w, const char *s, size_t n)
{
    if (w->codec != CODEC_JSON && n < 32) {
        uint8_t *p = fw_room(w->out, n + 1);
        p[0] = (uint8_t)(0xa0 | n);
        memcpy(p + 1, s, n);
        w->out->len += n + 1;
    } else {
        fw_str_any(w, s, n);
    }
}

static inline void fw_int(frame_writer *w, int64_t v)
{
    if (w->codec != CODEC_JSON && v >= -32 && v < 128) { /* a fixint */
        *fw_room(w->out, 1) = (uint8_t)v;
        w->out->len++;
    } else {
        fw_int_any(w, v);
    }
}

#endif
