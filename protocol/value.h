/* A small dynamic value tree: the common currency between games (views,
 * events, settings), the codecs (msgpack, JSON) and the match log.
 *
 * Ownership is simple: a container owns what is put into it, av_free frees a
 * whole tree. Allocation failure aborts: a referee that cannot allocate a few
 * bytes cannot judge a game anyway. */
#ifndef ARENA_VALUE_H
#define ARENA_VALUE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum { AV_NIL, AV_BOOL, AV_INT, AV_FLOAT, AV_STR, AV_LIST, AV_MAP } av_type;

typedef struct av av;
struct av {
    av_type type;
    bool indexed; /* a map's hash index is built (value.c; padding otherwise) */
    union {
        bool b;
        int64_t i;
        double f;
        struct {
            char *s; /* NUL-terminated; may also contain NULs within len */
            size_t len;
        } str;
        struct {
            av **items;
            size_t len, cap;
        } list;
        struct {
            /* In insertion order. Past AV_SCAN_MAX keys of capacity, the
             * same allocation also has room for a hash index (see value.c). */
            char **keys;
            av **vals;
            size_t len, cap;
        } map;
    } u;
};

av *av_nil(void);
av *av_bool(bool b);
av *av_int(int64_t i);
av *av_float(double f);
av *av_str(const char *s);
av *av_strn(const char *s, size_t n);
av *av_strf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
av *av_list(void);
av *av_map(void);
/* Empty containers with room for n items or keys (a decoder knows n). */
av *av_list_sized(size_t n);
av *av_map_sized(size_t n);

/* Appends item (owned) and returns list, so calls chain. */
av *av_push(av *list, av *item);
/* Sets key (copied) to val (owned), replacing an existing key; returns map.
 * Amortised O(1) in the number of keys: large maps keep a hash index (keyed
 * per process, so chosen keys cannot all collide), small ones a short scan.
 * A map built by av_map_add_new alone (a view, a copy) has no index until
 * av_set or av_take first needs one; lookups in it scan. */
av *av_set(av *map, const char *key, av *val);
/* The same with a key of known length (no NUL inside). */
av *av_setn(av *map, const char *key, size_t klen, av *val);
/* Appends key (copied, klen bytes, no NUL inside) -> val (owned) without
 * looking for the key: only for a caller that knows the key is not in map
 * yet (a decoder that has ruled out a repeat), else the map breaks. */
av *av_map_add_new(av *map, const char *key, size_t klen, av *val);
/* av_map_add_new for a NUL-terminated key, and its typed forms: for
 * building a fresh map (a view, an event) whose keys are each added once.
 * Sanitized builds check that the key is new, in maps of up to 1,024 keys
 * (av_add* only: a decoder's map of 30,000 keys would make the check
 * quadratic). */
av *av_add(av *map, const char *key, av *val);
av *av_addn(av *map, const char *key, size_t klen, av *val);
av *av_add_int(av *map, const char *key, int64_t i);
av *av_add_str(av *map, const char *key, const char *s);
av *av_add_bool(av *map, const char *key, bool b);
/* Convenience setters. */
av *av_set_int(av *map, const char *key, int64_t i);
av *av_set_str(av *map, const char *key, const char *s);
av *av_set_bool(av *map, const char *key, bool b);

/* Lookups return NULL when the key is missing or map is not a map. */
const av *av_get(const av *map, const char *key);
av *av_take(av *map, const char *key); /* removes and returns (owned) */
/* Typed lookups: true and *out set when present with the right type. */
bool av_get_int(const av *map, const char *key, int64_t *out);
const char *av_get_str(const av *map, const char *key); /* NULL if absent/not str */

size_t av_len(const av *v); /* items of list/map, bytes of str, else 0 */
av *av_copy(const av *v);
bool av_equal(const av *a, const av *b);
void av_free(av *v);

/* Compact JSON text of any value (keys in insertion order), malloc'ed.
 * Used for logs and human output; the JSON codec uses the same writer. */
char *av_to_json(const av *v);
/* The same text appended to out (an abuf, see util.h). */
struct abuf;
void av_json_append(const av *v, struct abuf *out);

#endif
