#include "value.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "util.h"

/* Nodes are recycled through a small per-thread free list: every message
 * builds and frees a tree of them, and malloc/free dominated the profiles of
 * both the referee and the C bots. Under AddressSanitizer the list is off so
 * that a use after av_free is still caught. */
#if defined(__SANITIZE_ADDRESS__)
#define AV_FREELIST_MAX 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define AV_FREELIST_MAX 0
#endif
#endif
#ifndef AV_FREELIST_MAX
#define AV_FREELIST_MAX 4096
#endif

static _Thread_local av *node_pool;
static _Thread_local size_t node_pool_len;

/* The same for the small blocks a tree points to (strings, keys, item and
 * key arrays), in four size classes. A block's size is known again when it
 * is freed (string length + 1, key length + 1, capacity), so the blocks
 * carry no header. Without the list (ASan) blocks are exactly sized. */
#define AV_BLOCK_CLASSES 4
static const size_t block_size[AV_BLOCK_CLASSES] = {16, 32, 64, 128};
static _Thread_local void *block_pool[AV_BLOCK_CLASSES];
static _Thread_local size_t block_pool_len[AV_BLOCK_CLASSES];

static int block_class(size_t n)
{
#if AV_FREELIST_MAX > 0
    for (int c = 0; c < AV_BLOCK_CLASSES; c++)
        if (n <= block_size[c]) return c;
#else
    (void)n;
#endif
    return -1;
}

static void *block_alloc(size_t n)
{
    int c = block_class(n);
    if (c < 0) return xmalloc(n ? n : 1);
    void *p = block_pool[c];
    if (!p) return xmalloc(block_size[c]);
    memcpy(&block_pool[c], p, sizeof(void *));
    block_pool_len[c]--;
    return p;
}

static void block_free(void *p, size_t n)
{
    if (!p) return;
#if AV_FREELIST_MAX > 0
    int c = block_class(n);
    if (c >= 0 && block_pool_len[c] < AV_FREELIST_MAX) {
        memcpy(p, &block_pool[c], sizeof(void *));
        block_pool[c] = p;
        block_pool_len[c]++;
        return;
    }
#else
    (void)n;
#endif
    free(p);
}

/* Resizes a block of old_n bytes to n (n >= old_n), keeping its first keep
 * bytes. */
static void *block_grow_keep(void *p, size_t old_n, size_t keep, size_t n)
{
    if (p && block_class(old_n) >= 0 && block_class(old_n) == block_class(n)) return p;
    if (block_class(old_n) < 0 && block_class(n) < 0) return xrealloc(p, n);
    void *q = block_alloc(n);
    if (p && keep) memcpy(q, p, keep);
    block_free(p, old_n);
    return q;
}

static void *block_grow(void *p, size_t old_n, size_t n)
{
    return block_grow_keep(p, old_n, old_n, n);
}

static av *av_new(av_type t)
{
    av *v = node_pool;
    if (v) {
        node_pool = v->u.list.items ? (av *)(void *)v->u.list.items : NULL;
        node_pool_len--;
        memset(v, 0, sizeof *v);
    } else {
        v = xcalloc(1, sizeof *v);
    }
    v->type = t;
    return v;
}

static void av_release(av *v)
{
#if AV_FREELIST_MAX > 0
    if (node_pool_len < AV_FREELIST_MAX) {
        v->u.list.items = (av **)(void *)node_pool;
        node_pool = v;
        node_pool_len++;
        return;
    }
#endif
    free(v);
}

av *av_nil(void)
{
    return av_new(AV_NIL);
}

av *av_bool(bool b)
{
    av *v = av_new(AV_BOOL);
    v->u.b = b;
    return v;
}

av *av_int(int64_t i)
{
    av *v = av_new(AV_INT);
    v->u.i = i;
    return v;
}

av *av_float(double f)
{
    av *v = av_new(AV_FLOAT);
    v->u.f = f;
    return v;
}

av *av_strn(const char *s, size_t n)
{
    av *v = av_new(AV_STR);
    v->u.str.s = block_alloc(n + 1);
    if (n) memcpy(v->u.str.s, s, n);
    v->u.str.s[n] = '\0';
    v->u.str.len = n;
    return v;
}

av *av_str(const char *s)
{
    return av_strn(s, strlen(s));
}

av *av_strf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = xvasprintf(fmt, ap);
    va_end(ap);
    av *v = av_strn(s, strlen(s)); /* into a block of its own size class */
    free(s);
    return v;
}

av *av_list(void)
{
    return av_new(AV_LIST);
}
av *av_map(void)
{
    return av_new(AV_MAP);
}

/* Capacities are powers of two (at least 4), as growth makes them: the
 * map index relies on it. */
static size_t round_cap(size_t n)
{
    size_t cap = 4;
    while (cap < n)
        cap *= 2;
    return cap;
}

av *av_list_sized(size_t n)
{
    av *l = av_list();
    if (n) {
        l->u.list.cap = round_cap(n);
        l->u.list.items = block_alloc(l->u.list.cap * sizeof(av *));
    }
    return l;
}

static size_t keys_bytes(size_t cap);
static void index_build(av *map);

av *av_map_sized(size_t n)
{
    av *m = av_map();
    if (n) {
        m->u.map.cap = round_cap(n);
        m->u.map.keys = block_alloc(keys_bytes(m->u.map.cap));
        m->u.map.vals = block_alloc(m->u.map.cap * sizeof(av *));
    }
    return m;
}

av *av_push(av *list, av *item)
{
    if (list->u.list.len == list->u.list.cap) {
        size_t old = list->u.list.cap;
        list->u.list.cap = old ? 2 * old : 4;
        list->u.list.items =
            block_grow(list->u.list.items, old * sizeof(av *), list->u.list.cap * sizeof(av *));
    }
    list->u.list.items[list->u.list.len++] = item;
    return list;
}

/* ------------------------------------------------------------ map index */

/* Maps of up to this many keys are searched linearly: the protocol's hot
 * messages (decide, act) are that small, and a short scan beats hashing.
 * Larger maps get a hash index, so that building a map of n keys (a decoded
 * message of 100,000 keys, say) costs O(n), not O(n^2). */
#define AV_SCAN_MAX 16

/* The hash is keyed with a per-process random secret: an agent choosing the
 * keys of its message cannot make them collide on purpose. */
static uint64_t hash_secret[2];

__attribute__((constructor)) static void seed_hash_secret(void)
{
    if (getrandom(hash_secret, sizeof hash_secret, GRND_NONBLOCK) == (ssize_t)sizeof hash_secret)
        return;
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    hash_secret[0] = ((uint64_t)ts.tv_nsec << 32 ^ (uint64_t)ts.tv_sec) * 0x9e3779b97f4a7c15u;
    hash_secret[1] = ((uint64_t)getpid() << 32 ^ (uint64_t)(uintptr_t)&ts) * 0xc2b2ae3d27d4eb4fu;
}

#define ROTL(x, b) (((x) << (b)) | ((x) >> (64 - (b))))
#define SIPROUND                                                                                   \
    do {                                                                                           \
        v0 += v1, v1 = ROTL(v1, 13), v1 ^= v0, v0 = ROTL(v0, 32);                                  \
        v2 += v3, v3 = ROTL(v3, 16), v3 ^= v2;                                                     \
        v0 += v3, v3 = ROTL(v3, 21), v3 ^= v0;                                                     \
        v2 += v1, v1 = ROTL(v1, 17), v1 ^= v2, v2 = ROTL(v2, 32);                                  \
    } while (0)

/* SipHash-1-3 (one compression round, three finalisation rounds), reading
 * 8-byte words in host order: only this process ever sees the values. */
static uint64_t key_hash(const char *key, size_t n)
{
    uint64_t v0 = hash_secret[0] ^ 0x736f6d6570736575u, v1 = hash_secret[1] ^ 0x646f72616e646f6du,
             v2 = hash_secret[0] ^ 0x6c7967656e657261u, v3 = hash_secret[1] ^ 0x7465646279746573u;
    const uint8_t *p = (const uint8_t *)key;
    size_t whole = n & ~(size_t)7;
    for (size_t i = 0; i < whole; i += 8) {
        uint64_t m;
        memcpy(&m, p + i, 8);
        v3 ^= m;
        SIPROUND;
        v0 ^= m;
    }
    uint64_t last = (uint64_t)n << 56;
    for (size_t i = 0; i < (n & 7); i++)
        last |= (uint64_t)p[whole + i] << (8 * i);
    v3 ^= last;
    SIPROUND;
    v0 ^= last;
    v2 ^= 0xff;
    SIPROUND;
    SIPROUND;
    SIPROUND;
    return v0 ^ v1 ^ v2 ^ v3;
}

/* The index lives in the keys allocation, after cap key pointers: 2 * cap
 * uint32 slots (cap is a power of two, so the table is at most half full)
 * holding position + 1, 0 = empty; open addressing, linear probing. Keeping
 * it there leaves every node of the tree the same size.
 *
 * It is built on first need (av_set, av_take), not as keys are added: a
 * view or an event is built with av_map_add_new, encoded once and freed,
 * and hashing its keys was a fifth of the referee's work on a Dominion
 * decision. Until then the room is there and lookups scan. */
static bool has_room(const av *map)
{
    return map->u.map.cap > AV_SCAN_MAX;
}

static uint32_t *index_of(const av *map)
{
    return (uint32_t *)(void *)(map->u.map.keys + map->u.map.cap);
}

static size_t keys_bytes(size_t cap)
{
    return cap * sizeof(char *) + (cap > AV_SCAN_MAX ? 2 * cap * sizeof(uint32_t) : 0);
}

static void index_put(av *map, size_t pos, uint64_t h)
{
    uint32_t *ix = index_of(map);
    size_t mask = 2 * map->u.map.cap - 1, s = (size_t)h & mask;
    while (ix[s])
        s = (s + 1) & mask;
    ix[s] = (uint32_t)pos + 1;
}

/* (Re)builds the index from the keys, when the map has room for one. */
static void index_build(av *map)
{
    if (!has_room(map)) return;
    if (map->u.map.cap > UINT32_MAX / 2) abort(); /* positions are stored as uint32 */
    memset(index_of(map), 0, 2 * map->u.map.cap * sizeof(uint32_t));
    for (size_t i = 0; i < map->u.map.len; i++)
        index_put(map, i, key_hash(map->u.map.keys[i], strlen(map->u.map.keys[i])));
    map->indexed = true;
}

/* The size of a stored key's block, strlen + 1. Keys are short: a bounded
 * loop first, since a call to strlen cost more than the key. */
static size_t key_bytes(const char *k)
{
    for (size_t i = 0; i < 16; i++)
        if (!k[i]) return i + 1;
    return strlen(k + 16) + 17;
}

/* Does the stored key k equal key[0, klen)? (key holds no NUL.) */
static bool key_is(const char *k, const char *key, size_t klen)
{
    /* Keys are short: an inline loop beats a call to strncmp. It stops at
     * k's NUL at the latest, since key holds none. */
    for (size_t i = 0; i < klen; i++)
        if (k[i] != key[i]) return false;
    return k[klen] == '\0';
}

/* Position of key in map, or -1. *h gets the key's hash when computed. */
static ptrdiff_t map_find(const av *map, const char *key, size_t klen, uint64_t *h, bool *hashed)
{
    if (!map || map->type != AV_MAP) return -1;
    if (!map->indexed) {
        for (size_t i = 0; i < map->u.map.len; i++)
            if (key_is(map->u.map.keys[i], key, klen)) return (ptrdiff_t)i;
        return -1;
    }
    uint64_t hv = key_hash(key, klen);
    if (h) *h = hv, *hashed = true;
    size_t mask = 2 * map->u.map.cap - 1;
    const uint32_t *ix = index_of(map);
    for (size_t s = (size_t)hv & mask; ix[s]; s = (s + 1) & mask) {
        size_t at = ix[s] - 1;
        if (key_is(map->u.map.keys[at], key, klen)) return (ptrdiff_t)at;
    }
    return -1;
}

/* Appends a key known to be absent; h is its hash when hashed. */
static av *map_append(av *map, const char *key, size_t klen, av *val, uint64_t h, bool hashed)
{
    if (map->u.map.len == map->u.map.cap) {
        size_t old = map->u.map.cap;
        map->u.map.cap = old ? 2 * old : 4;
        /* Only the key pointers carry over: an index is rebuilt. */
        size_t kept = old * sizeof(char *);
        map->u.map.keys =
            block_grow_keep(map->u.map.keys, keys_bytes(old), kept, keys_bytes(map->u.map.cap));
        map->u.map.vals =
            block_grow(map->u.map.vals, old * sizeof(av *), map->u.map.cap * sizeof(av *));
        if (map->indexed) index_build(map);
    }
    char *k = block_alloc(klen + 1);
    memcpy(k, key, klen);
    k[klen] = '\0';
    size_t pos = map->u.map.len++;
    map->u.map.keys[pos] = k;
    map->u.map.vals[pos] = val;
    if (map->indexed) index_put(map, pos, hashed ? h : key_hash(key, klen));
    return map;
}

av *av_setn(av *map, const char *key, size_t klen, av *val)
{
    /* Setting key by key is how a large map is built from untrusted input:
     * the index keeps that linear. */
    if (!map->indexed) index_build(map);
    uint64_t h = 0;
    bool hashed = false;
    ptrdiff_t at = map_find(map, key, klen, &h, &hashed);
    if (at >= 0) {
        av_free(map->u.map.vals[at]);
        map->u.map.vals[at] = val;
        return map;
    }
    return map_append(map, key, klen, val, h, hashed);
}

av *av_map_add_new(av *map, const char *key, size_t klen, av *val)
{
    return map_append(map, key, klen, val, 0, false);
}

#define AV_ADD_CHECKED_MAX 1024

av *av_add(av *map, const char *key, av *val)
{
    return av_addn(map, key, strlen(key), val);
}
av *av_addn(av *map, const char *key, size_t klen, av *val)
{
#if AV_FREELIST_MAX == 0 /* sanitized builds: a game adding a key twice is a bug */
    /* (A game's maps are small; past that the scan would make building a
     * big map quadratic.) */
    if (map->u.map.len < AV_ADD_CHECKED_MAX && map_find(map, key, klen, NULL, NULL) >= 0) {
        fprintf(stderr, "av_add: key '%.*s' is already in the map\n", (int)klen, key);
        abort();
    }
#endif
    return map_append(map, key, klen, val, 0, false);
}
av *av_add_int(av *map, const char *key, int64_t i)
{
    return av_add(map, key, av_int(i));
}
av *av_add_str(av *map, const char *key, const char *s)
{
    return av_add(map, key, av_str(s));
}
av *av_add_bool(av *map, const char *key, bool b)
{
    return av_add(map, key, av_bool(b));
}

av *av_set(av *map, const char *key, av *val)
{
    return av_setn(map, key, strlen(key), val);
}

av *av_set_int(av *map, const char *key, int64_t i)
{
    return av_set(map, key, av_int(i));
}
av *av_set_str(av *map, const char *key, const char *s)
{
    return av_set(map, key, av_str(s));
}
av *av_set_bool(av *map, const char *key, bool b)
{
    return av_set(map, key, av_bool(b));
}

const av *av_get(const av *map, const char *key)
{
    ptrdiff_t at = map_find(map, key, strlen(key), NULL, NULL);
    return at < 0 ? NULL : map->u.map.vals[at];
}

av *av_take(av *map, const char *key)
{
    ptrdiff_t at = map_find(map, key, strlen(key), NULL, NULL);
    if (at < 0) return NULL;
    av *v = map->u.map.vals[at];
    block_free(map->u.map.keys[at], key_bytes(map->u.map.keys[at]));
    size_t rest = map->u.map.len - (size_t)at - 1;
    memmove(&map->u.map.keys[at], &map->u.map.keys[at + 1], rest * sizeof(char *));
    memmove(&map->u.map.vals[at], &map->u.map.vals[at + 1], rest * sizeof(av *));
    map->u.map.len--;
    if (map->indexed) index_build(map); /* positions after `at` moved */
    return v;
}

bool av_get_int(const av *map, const char *key, int64_t *out)
{
    const av *v = av_get(map, key);
    if (!v || v->type != AV_INT) return false;
    *out = v->u.i;
    return true;
}

const char *av_get_str(const av *map, const char *key)
{
    const av *v = av_get(map, key);
    return v && v->type == AV_STR ? v->u.str.s : NULL;
}

size_t av_len(const av *v)
{
    if (!v) return 0;
    switch (v->type) {
    case AV_STR: return v->u.str.len;
    case AV_LIST: return v->u.list.len;
    case AV_MAP: return v->u.map.len;
    default: return 0;
    }
}

av *av_copy(const av *v)
{
    if (!v) return NULL;
    switch (v->type) {
    case AV_NIL: return av_nil();
    case AV_BOOL: return av_bool(v->u.b);
    case AV_INT: return av_int(v->u.i);
    case AV_FLOAT: return av_float(v->u.f);
    case AV_STR: return av_strn(v->u.str.s, v->u.str.len);
    case AV_LIST: {
        av *l = av_list();
        for (size_t i = 0; i < v->u.list.len; i++)
            av_push(l, av_copy(v->u.list.items[i]));
        return l;
    }
    case AV_MAP: {
        av *m = av_map_sized(v->u.map.len);
        for (size_t i = 0; i < v->u.map.len; i++)
            av_map_add_new(m, v->u.map.keys[i], strlen(v->u.map.keys[i]),
                           av_copy(v->u.map.vals[i]));
        return m;
    }
    }
    return NULL;
}

bool av_equal(const av *a, const av *b)
{
    if (!a || !b) return a == b;
    if (a->type != b->type) return false;
    switch (a->type) {
    case AV_NIL: return true;
    case AV_BOOL: return a->u.b == b->u.b;
    case AV_INT: return a->u.i == b->u.i;
    case AV_FLOAT: return a->u.f == b->u.f;
    case AV_STR:
        return a->u.str.len == b->u.str.len && memcmp(a->u.str.s, b->u.str.s, a->u.str.len) == 0;
    case AV_LIST:
        if (a->u.list.len != b->u.list.len) return false;
        for (size_t i = 0; i < a->u.list.len; i++)
            if (!av_equal(a->u.list.items[i], b->u.list.items[i])) return false;
        return true;
    case AV_MAP:
        /* Order-insensitive: codecs may reorder keys. The same key at the
         * same place, the usual case, needs no lookup (b may have no
         * index, and then a lookup scans). */
        if (a->u.map.len != b->u.map.len) return false;
        for (size_t i = 0; i < a->u.map.len; i++) {
            const char *k = a->u.map.keys[i];
            const av *bv = strcmp(b->u.map.keys[i], k) == 0 ? b->u.map.vals[i] : av_get(b, k);
            if (!av_equal(a->u.map.vals[i], bv)) return false;
        }
        return true;
    }
    return false;
}

void av_free(av *v)
{
    if (!v) return;
    switch (v->type) {
    case AV_STR: block_free(v->u.str.s, v->u.str.len + 1); break;
    case AV_LIST:
        for (size_t i = 0; i < v->u.list.len; i++)
            av_free(v->u.list.items[i]);
        block_free(v->u.list.items, v->u.list.cap * sizeof(av *));
        break;
    case AV_MAP:
        for (size_t i = 0; i < v->u.map.len; i++) {
            block_free(v->u.map.keys[i], key_bytes(v->u.map.keys[i]));
            av_free(v->u.map.vals[i]);
        }
        block_free(v->u.map.keys, keys_bytes(v->u.map.cap));
        block_free(v->u.map.vals, v->u.map.cap * sizeof(av *));
        break;
    default: break;
    }
    av_release(v);
}
