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

#define FW_MAX_DEPTH 8 /* containers open at once (decide needs 3) */

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
void fw_map(frame_writer *w, size_t n_keys);
void fw_list(frame_writer *w, size_t n_items);
void fw_end(frame_writer *w); /* closes the innermost map or list */
void fw_key(frame_writer *w, const char *k, size_t n);
void fw_str(frame_writer *w, const char *s, size_t n);
void fw_int(frame_writer *w, int64_t v);
void fw_bool(frame_writer *w, bool v);
void fw_nil(frame_writer *w);
void fw_value(frame_writer *w, const av *v);
/* Completes the frame (msgpack: the length; json: the newline). */
void fw_finish(frame_writer *w);

/* A key given as a string literal. */
#define FW_KEY(w, lit) fw_key((w), (lit), sizeof(lit) - 1)

#endif
