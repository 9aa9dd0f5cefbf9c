/* The msgpack reader of the msgpack codec (protocol.md §1): one pass over the
 * bytes that validates and builds the value tree together.
 *
 * Input comes from untrusted agents: no storage is sized by a count the
 * bytes cannot back (every element takes at least one byte), nesting and
 * the number of values are capped, strings must be UTF-8 (bin is read as a
 * string too), map keys must be NUL-free strings, ext types and 0xc1
 * are refused. On an error the part already built is freed; the reason
 * names the first offending byte, in the order the bytes come.
 *
 * msgpack_skip_value makes the same checks without building anything, for a
 * bot that does not read the game state. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "codec.h"
#include "map_fill.h"
#include "utf8.h"

typedef struct mp_reader {
    const uint8_t *p;
    size_t n, off;
    size_t values, max_values; /* values read so far, and the cap */
    char *err;
    size_t errlen;
} mp_reader;

static av *mp_err(mp_reader *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static av *mp_err(mp_reader *r, const char *fmt, ...)
{
    if (r->err && r->errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(r->err, r->errlen, fmt, ap);
        va_end(ap);
    }
    return NULL;
}

static av *mp_truncated(mp_reader *r)
{
    return mp_err(r, "msgpack: frame ends inside a value (truncated at byte %zu)", r->off);
}

/* What a msgpack lead byte starts, for error messages. */
static const char *mp_kind(uint8_t b)
{
    if (b <= 0x7f || b >= 0xe0) return "an integer";
    if (b <= 0x8f) return "a map";
    if (b <= 0x9f) return "a list";
    if (b <= 0xbf) return "a string";
    switch (b) {
    case 0xc0: return "nil";
    case 0xc2:
    case 0xc3: return "a boolean";
    case 0xc4:
    case 0xc5:
    case 0xc6: return "binary";
    case 0xc7:
    case 0xc8:
    case 0xc9:
    case 0xd4:
    case 0xd5:
    case 0xd6:
    case 0xd7:
    case 0xd8: return "an ext type";
    case 0xca:
    case 0xcb: return "a float";
    case 0xd9:
    case 0xda:
    case 0xdb: return "a string";
    case 0xdc:
    case 0xdd: return "a list";
    case 0xde:
    case 0xdf: return "a map";
    case 0xc1: return "the never-used byte 0xc1";
    default: return "an integer"; /* 0xcc-0xd3 */
    }
}

static uint64_t be_uint(const uint8_t *p, size_t k)
{
    uint64_t v = 0;
    for (size_t i = 0; i < k; i++)
        v = (v << 8) | p[i];
    return v;
}

/* Reads a k-byte big-endian length or payload at p[*i] of n bytes,
 * advancing *i; false if truncated. */
static inline bool take_at(const uint8_t *p, size_t n, size_t *i, size_t k, uint64_t *out)
{
    if (n - *i < k) return false;
    *out = be_uint(p + *i, k);
    *i += k;
    return true;
}

static bool take(mp_reader *r, size_t k, uint64_t *out)
{
    return take_at(r->p, r->n, &r->off, k, out);
}

/* Counts one more value starting at r->off (which must exist). */
static bool count_value(mp_reader *r)
{
    if (r->off >= r->n) {
        mp_truncated(r);
        return false;
    }
    if (++r->values > r->max_values) {
        mp_err(r, "msgpack: more than %zu values in one message (at byte %zu)", r->max_values,
               r->off);
        return false;
    }
    return true;
}

/* The len bytes of a str or bin. Sets *s to them; false with the error set
 * when they are short or not UTF-8. */
static bool payload(mp_reader *r, size_t at, uint64_t len, const char **s)
{
    if (r->n - r->off < len) {
        mp_truncated(r);
        return false;
    }
    *s = (const char *)r->p + r->off;
    if (!utf8_short_ascii(r->p + r->off, (size_t)len, r->n - r->off, false) &&
        !utf8_valid(*s, (size_t)len)) {
        mp_err(r, "msgpack: string at byte %zu is not valid UTF-8", at);
        return false;
    }
    r->off += (size_t)len;
    return true;
}

static av *mp_value(mp_reader *r, int depth);

static bool is_str_lead(uint8_t b)
{
    return (b >= 0xa0 && b <= 0xbf) || b == 0xd9 || b == 0xda || b == 0xdb;
}

/* A map key: a NUL-free str. Counts as a value like any other. */
static bool mp_key(mp_reader *r, const char **k, size_t *klen)
{
    if (r->off >= r->n) {
        mp_truncated(r);
        return false;
    }
    uint8_t kb = r->p[r->off];
    if (!is_str_lead(kb)) {
        mp_err(r, "msgpack: map key at byte %zu is %s, not a string", r->off, mp_kind(kb));
        return false;
    }
    if (!count_value(r)) return false;
    size_t at = r->off++;
    uint64_t len;
    if (kb <= 0xbf) {
        len = kb & 0x1f;
    } else if (!take(r, kb == 0xd9 ? 1 : kb == 0xda ? 2 : 4, &len)) {
        mp_truncated(r);
        return false;
    }
    /* Keys are short and plain: one loop proves most of them ASCII without
     * a NUL (keys are C strings in the value tree); the rest are checked
     * fully, UTF-8 first as for any string. */
    const uint8_t *q = r->p + r->off;
    size_t i = 0;
    if (len <= r->n - r->off)
        while (i < len && q[i] - 1u < 0x7fu)
            i++;
    if (i == len) {
        *k = (const char *)q;
        *klen = (size_t)len;
        r->off += (size_t)len;
        return true;
    }
    if (!payload(r, at, len, k)) return false;
    *klen = (size_t)len;
    if (memchr(*k, 0, *klen)) {
        mp_err(r, "msgpack: map key at byte %zu contains a NUL byte", at);
        return false;
    }
    return true;
}

static av *mp_container(mp_reader *r, size_t at, uint64_t count, bool is_map, int depth)
{
    if (depth >= PROTO_MAX_DEPTH)
        return mp_err(r, "msgpack: nesting deeper than %d levels at byte %zu", PROTO_MAX_DEPTH, at);
    /* Every element takes at least one byte. */
    if (count > (r->n - r->off) / (is_map ? 2 : 1)) return mp_truncated(r);
    /* Storage is sized for the count, but never past what the value limit
     * leaves: a larger count fails at the limit anyway, and sizing for it
     * would cost megabytes of fresh memory first. */
    size_t room = (r->max_values - r->values) / (is_map ? 2 : 1) + 1;
    size_t size = count < room ? (size_t)count : room;
    if (!is_map) {
        av *l = av_list_sized(size);
        for (uint64_t i = 0; i < count; i++) {
            av *x = mp_value(r, depth + 1);
            if (!x) {
                av_free(l);
                return NULL;
            }
            av_push(l, x);
        }
        return l;
    }
    av *m = av_map_sized(size);
    uint64_t seen = 0;
    for (uint64_t i = 0; i < count; i++) {
        const char *k;
        size_t klen;
        av *x = NULL;
        if (!mp_key(r, &k, &klen) || !(x = mp_value(r, depth + 1))) {
            av_free(m);
            return NULL;
        }
        map_fill(m, &seen, k, klen, x);
    }
    return m;
}

static av *mp_value(mp_reader *r, int depth)
{
    if (!count_value(r)) return NULL;
    size_t at = r->off;
    uint8_t b = r->p[r->off++];
    if (b <= 0x7f) return av_int(b);
    if (b >= 0xe0) return av_int((int8_t)b);
    const char *s;
    if (b >= 0xa0 && b <= 0xbf) return payload(r, at, b & 0x1f, &s) ? av_strn(s, b & 0x1f) : NULL;
    if (b >= 0x80 && b <= 0x9f) return mp_container(r, at, b & 0x0f, b <= 0x8f, depth);
    uint64_t u;
    switch (b) {
    case 0xc0: return av_nil();
    case 0xc1: return mp_err(r, "msgpack: invalid byte 0xc1 at byte %zu", at);
    case 0xc2: return av_bool(false);
    case 0xc3: return av_bool(true);
    case 0xc4:
    case 0xc5:
    case 0xc6:
    case 0xd9:
    case 0xda:
    case 0xdb: { /* str and bin both become strings: text, like JSON's */
        size_t k = (b == 0xc4 || b == 0xd9) ? 1 : (b == 0xc5 || b == 0xda) ? 2 : 4;
        if (!take(r, k, &u)) return mp_truncated(r);
        return payload(r, at, u, &s) ? av_strn(s, (size_t)u) : NULL;
    }
    case 0xca:
        if (!take(r, 4, &u)) return mp_truncated(r);
        {
            uint32_t w = (uint32_t)u;
            float f;
            memcpy(&f, &w, sizeof f);
            return av_float(f);
        }
    case 0xcb:
        if (!take(r, 8, &u)) return mp_truncated(r);
        {
            double d;
            memcpy(&d, &u, sizeof d);
            return av_float(d);
        }
    case 0xcc:
    case 0xd0:
        if (!take(r, 1, &u)) return mp_truncated(r);
        return av_int(b == 0xcc ? (int64_t)u : (int8_t)u);
    case 0xcd:
    case 0xd1:
        if (!take(r, 2, &u)) return mp_truncated(r);
        return av_int(b == 0xcd ? (int64_t)u : (int16_t)u);
    case 0xce:
    case 0xd2:
        if (!take(r, 4, &u)) return mp_truncated(r);
        return av_int(b == 0xce ? (int64_t)u : (int32_t)u);
    case 0xcf:
        if (!take(r, 8, &u)) return mp_truncated(r);
        return u > (uint64_t)INT64_MAX ? av_float((double)u) : av_int((int64_t)u);
    case 0xd3:
        if (!take(r, 8, &u)) return mp_truncated(r);
        return av_int((int64_t)u);
    case 0xdc:
    case 0xdd:
    case 0xde:
    case 0xdf:
        if (!take(r, (b == 0xdc || b == 0xde) ? 2 : 4, &u)) return mp_truncated(r);
        return mp_container(r, at, u, b >= 0xde, depth);
    default: /* 0xc7-0xc9, 0xd4-0xd8 */
        return mp_err(r, "msgpack: ext types are not allowed (ext at byte %zu)", at);
    }
}

av *msgpack_decode(const void *p, size_t n, char *err, size_t errlen)
{
    return msgpack_decode_max(p, n, PROTO_MAX_VALUES, NULL, err, errlen);
}

av *msgpack_decode_max(const void *p, size_t n, size_t max_values, size_t *values, char *err,
                       size_t errlen)
{
    mp_reader r = {.p = p, .n = n, .max_values = max_values, .err = err, .errlen = errlen};
    if (n == 0) return mp_err(&r, "msgpack: empty input");
    av *v = mp_value(&r, 0);
    if (values) *values = r.values;
    if (v && r.off != n) {
        av_free(v);
        return mp_err(&r, "msgpack: %zu trailing bytes after the value", n - r.off);
    }
    return v;
}

av *msgpack_read_value(const uint8_t *p, size_t n, size_t *off, size_t *values, int depth)
{
    mp_reader r = {.p = p, .n = n, .off = *off, .values = *values, .max_values = PROTO_MAX_VALUES};
    av *v = mp_value(&r, depth);
    *off = r.off;
    *values = r.values;
    return v;
}

/* A str/bin payload of len bytes at p[*i]: within the n bytes, UTF-8,
 * and, for a key, NUL-free. (Inlined even at -Os, as the SDK is built.) */
static inline __attribute__((always_inline)) bool skip_text(const uint8_t *p, size_t n, size_t *i,
                                                            uint64_t len, bool key)
{
    if (len > n - *i) return false;
    const uint8_t *q = p + *i;
    if (utf8_short_ascii(q, (size_t)len, n - *i, true)) {
        *i += (size_t)len;
        return true;
    }
    size_t j = 0;
    while (j < len && q[j] - 1u < 0x7fu)
        j++;
    if (j < len && (!utf8_valid(q + j, (size_t)len - j) || (key && memchr(q + j, 0, len - j))))
        return false;
    *i += (size_t)len;
    return true;
}

/* The skipping walk: the checks of mp_value and mp_key, in a loop over an
 * explicit stack instead of recursion, with nothing built and no reason
 * kept. A bot that skips the game state runs this on every decision, so it
 * is written for speed; the reader tests hold it to the building walk. */
bool msgpack_skip_value(const uint8_t *p, size_t n, size_t *off, size_t *values, int depth)
{
    /* left[d]: the items still to come in the container open at level d; a
     * map counts its keys and values, so a key is due when left is even. */
    uint64_t left[PROTO_MAX_DEPTH];
    bool is_map[PROTO_MAX_DEPTH];
    int open = 0;
    size_t i = *off, v = *values;
    for (;;) {
        if (i >= n || ++v > PROTO_MAX_VALUES) return false;
        uint8_t b = p[i++];
        uint64_t u;
        bool key = open > 0 && is_map[open - 1] && left[open - 1] % 2 == 0;
        if (open > 0) left[open - 1]--;
        if (key) {
            if (b >= 0xa0 && b <= 0xbf)
                u = b & 0x1f;
            else if (b < 0xd9 || b > 0xdb ||
                     !take_at(p, n, &i,
                              b == 0xd9   ? 1
                              : b == 0xda ? 2
                                          : 4,
                              &u))
                return false;
            if (!skip_text(p, n, &i, u, true)) return false;
        } else if (b <= 0x7f || b >= 0xe0 || b == 0xc0 || b == 0xc2 || b == 0xc3) {
            /* fixint, nil, bool: the lead byte is all */
        } else if (b >= 0xa0 && b <= 0xbf) {
            if (!skip_text(p, n, &i, b & 0x1f, false)) return false;
        } else {
            bool map = false;
            switch (b) {
            case 0xc4:
            case 0xc5:
            case 0xc6:
            case 0xd9:
            case 0xda:
            case 0xdb:
                if (!take_at(p, n, &i,
                             (b == 0xc4 || b == 0xd9)   ? 1
                             : (b == 0xc5 || b == 0xda) ? 2
                                                        : 4,
                             &u) ||
                    !skip_text(p, n, &i, u, false))
                    return false;
                break;
            case 0xca:
            case 0xce:
            case 0xd2:
                if (n - i < 4) return false;
                i += 4;
                break;
            case 0xcb:
            case 0xcf:
            case 0xd3:
                if (n - i < 8) return false;
                i += 8;
                break;
            case 0xcc:
            case 0xd0:
                if (n - i < 1) return false;
                i += 1;
                break;
            case 0xcd:
            case 0xd1:
                if (n - i < 2) return false;
                i += 2;
                break;
            case 0xde:
            case 0xdf:
                map = true;
                /* fall through */
            case 0xdc:
            case 0xdd:
                if (!take_at(p, n, &i, (b == 0xdc || b == 0xde) ? 2 : 4, &u)) return false;
                goto container;
            default:
                if (b < 0x80 || b > 0x9f) return false; /* 0xc1, ext */
                map = b <= 0x8f;
                u = b & 0x0f;
            container:
                if (depth + open >= PROTO_MAX_DEPTH || u > (n - i) / (map ? 2 : 1)) return false;
                if (u > 0) {
                    left[open] = map ? 2 * u : u;
                    is_map[open++] = map;
                    continue;
                }
                break;
            }
        }
        while (open > 0 && left[open - 1] == 0)
            open--;
        if (open == 0) break;
    }
    *off = i;
    *values = v;
    return true;
}
