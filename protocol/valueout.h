/* A value written item by item, in order: into a tree (av) or straight
 * into a frame (framewrite.h).
 *
 * Games write their views through this, once: the referee sends a decide's
 * view without building a tree only to encode and free it (most of a
 * decision's cost in the referee), and everything else that wants the view
 * as a value (logs, replays, tests, search bots) gets the tree from the same
 * code, so the two cannot differ.
 *
 * Containers take no count: a map or list is opened, filled and closed
 * (vo_end). In a map each value comes right after its key (vo_key, or the
 * vo_k* forms); a key must be new in its map, and stay readable until its
 * value is written. Nesting is limited to VOUT_MAX_DEPTH open containers;
 * more is a bug in the writer and aborts. */
#ifndef ARENA_VALUEOUT_H
#define ARENA_VALUEOUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "framewrite.h"
#include "value.h"

#define VOUT_MAX_DEPTH 16

typedef struct vout {
    frame_writer *w; /* frame mode; NULL: tree mode */
    int depth;       /* open containers */
    /* tree mode */
    av *root;
    av *open[VOUT_MAX_DEPTH];
    const char *key; /* the key waiting for its value */
    size_t key_len;
    /* frame mode, msgpack: where each open container's header byte is, and
     * how many items (map: keys) it has so far */
    size_t head[VOUT_MAX_DEPTH];
    size_t items[VOUT_MAX_DEPTH];
    bool is_map[VOUT_MAX_DEPTH];
} vout;

/* Tree mode: the value written is returned by vout_tree_take. */
void vout_tree(vout *o);
av *vout_tree_take(vout *o);
/* Frame mode: the value goes into w's frame where w stands (after a key,
 * or as a list item). */
void vout_frame(vout *o, frame_writer *w);

void vo_map(vout *o);
void vo_list(vout *o);
void vo_end(vout *o);
void vo_keyn(vout *o, const char *k, size_t n);
void vo_int(vout *o, int64_t v);
void vo_strn(vout *o, const char *s, size_t n);
void vo_bool(vout *o, bool v);
void vo_nil(vout *o);
void vo_value(vout *o, const av *v); /* a copy of a whole tree */

static inline void vo_key(vout *o, const char *k)
{
    vo_keyn(o, k, strlen(k));
}
static inline void vo_str(vout *o, const char *s)
{
    vo_strn(o, s, strlen(s));
}

/* A key and its value in one call (inline, so a literal key's length is
 * known when compiled). */
static inline void vo_kint(vout *o, const char *k, int64_t v)
{
    vo_key(o, k);
    vo_int(o, v);
}
static inline void vo_kstr(vout *o, const char *k, const char *s)
{
    vo_key(o, k);
    vo_str(o, s);
}
static inline void vo_kbool(vout *o, const char *k, bool v)
{
    vo_key(o, k);
    vo_bool(o, v);
}
static inline void vo_knil(vout *o, const char *k)
{
    vo_key(o, k);
    vo_nil(o);
}
static inline void vo_kmap(vout *o, const char *k)
{
    vo_key(o, k);
    vo_map(o);
}
static inline void vo_klist(vout *o, const char *k)
{
    vo_key(o, k);
    vo_list(o);
}
/* A string, or nil for NULL. */
static inline void vo_str_or_nil(vout *o, const char *s)
{
    if (s)
        vo_str(o, s);
    else
        vo_nil(o);
}

#endif
