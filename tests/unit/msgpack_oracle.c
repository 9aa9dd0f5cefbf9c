/* The msgpack decoder the codec used before protocol/msgpack_read.c (three
 * validation passes, then a build). Kept verbatim as the oracle of the
 * differential test (test_msgpack_read.c); nothing else links it. */
#include "msgpack_oracle.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "codec.h"
#include "utf8.h"

static void seterr(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void seterr(char *err, size_t errlen, const char *fmt, ...)
{
    if (!err || !errlen) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
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

typedef struct mp_cursor {
    const uint8_t *p;
    size_t n, off;
    size_t values; /* seen by mp_check: at most PROTO_MAX_VALUES */
    char *err;
    size_t errlen;
} mp_cursor;

static uint64_t be_uint(const uint8_t *p, size_t k)
{
    uint64_t v = 0;
    for (size_t i = 0; i < k; i++)
        v = (v << 8) | p[i];
    return v;
}

static int mp_truncated(mp_cursor *c)
{
    seterr(c->err, c->errlen, "msgpack: frame ends inside a value (truncated at byte %zu)", c->off);
    return -1;
}

/* Validates one value at c->off and advances past it. Checks everything the
 * protocol forbids, so that msgpack-c only ever sees well-formed, plausible
 * input (counts never exceed the bytes left). */
static int mp_check(mp_cursor *c, int depth)
{
    if (c->off >= c->n) return mp_truncated(c);
    if (++c->values > PROTO_MAX_VALUES) {
        seterr(c->err, c->errlen, "msgpack: more than %d values in one message (at byte %zu)",
               PROTO_MAX_VALUES, c->off);
        return -1;
    }
    size_t at = c->off;
    uint8_t b = c->p[c->off++];
    size_t left = c->n - c->off;
    uint64_t len = 0, count = 0;
    bool is_map = false, container = false;

    if (b <= 0x7f || b >= 0xe0 || b == 0xc0 || b == 0xc2 || b == 0xc3) return 0;
    if (b >= 0xa0 && b <= 0xbf) {
        len = b & 0x1f;
    } else if (b >= 0x80 && b <= 0x9f) {
        container = true;
        is_map = b <= 0x8f;
        count = b & 0x0f;
    } else {
        switch (b) {
        case 0xc1:
            seterr(c->err, c->errlen, "msgpack: invalid byte 0xc1 at byte %zu", at);
            return -1;
        case 0xc4:
        case 0xd9:
        case 0xc5:
        case 0xda:
        case 0xc6:
        case 0xdb: {
            size_t k = (b == 0xc4 || b == 0xd9) ? 1 : (b == 0xc5 || b == 0xda) ? 2 : 4;
            if (left < k) return mp_truncated(c);
            len = be_uint(c->p + c->off, k);
            c->off += k;
            break;
        }
        case 0xca: len = 4; break;
        case 0xcb: len = 8; break;
        case 0xcc:
        case 0xd0: len = 1; break;
        case 0xcd:
        case 0xd1: len = 2; break;
        case 0xce:
        case 0xd2: len = 4; break;
        case 0xcf:
        case 0xd3: len = 8; break;
        case 0xdc:
        case 0xdd:
        case 0xde:
        case 0xdf: {
            size_t k = (b == 0xdc || b == 0xde) ? 2 : 4;
            if (left < k) return mp_truncated(c);
            count = be_uint(c->p + c->off, k);
            c->off += k;
            container = true;
            is_map = b >= 0xde;
            break;
        }
        default: /* 0xc7-0xc9, 0xd4-0xd8 */
            seterr(c->err, c->errlen, "msgpack: ext types are not allowed (ext at byte %zu)", at);
            return -1;
        }
    }
    if (!container) {
        if (c->n - c->off < len) return mp_truncated(c);
        /* str and bin both become strings: text, like JSON's */
        bool text =
            (b >= 0xa0 && b <= 0xbf) || (b >= 0xc4 && b <= 0xc6) || (b >= 0xd9 && b <= 0xdb);
        if (text && !utf8_valid(c->p + c->off, (size_t)len)) {
            seterr(c->err, c->errlen, "msgpack: string at byte %zu is not valid UTF-8", at);
            return -1;
        }
        c->off += len;
        return 0;
    }
    if (depth >= PROTO_MAX_DEPTH) {
        seterr(c->err, c->errlen, "msgpack: nesting deeper than %d levels at byte %zu",
               PROTO_MAX_DEPTH, at);
        return -1;
    }
    /* Every element takes at least one byte. */
    if (count > (c->n - c->off) / (is_map ? 2 : 1)) return mp_truncated(c);
    for (uint64_t i = 0; i < count; i++) {
        if (is_map) {
            if (c->off >= c->n) return mp_truncated(c);
            uint8_t kb = c->p[c->off];
            bool str = (kb >= 0xa0 && kb <= 0xbf) || kb == 0xd9 || kb == 0xda || kb == 0xdb;
            if (!str) {
                seterr(c->err, c->errlen, "msgpack: map key at byte %zu is %s, not a string",
                       c->off, mp_kind(kb));
                return -1;
            }
            size_t kstart = c->off;
            if (mp_check(c, depth + 1) < 0) return -1;
            /* Keys are C strings in the value tree. */
            size_t hdr = kb <= 0xbf ? 1 : kb == 0xd9 ? 2 : kb == 0xda ? 3 : 5;
            if (memchr(c->p + kstart + hdr, 0, c->off - kstart - hdr)) {
                seterr(c->err, c->errlen, "msgpack: map key at byte %zu contains a NUL byte",
                       kstart);
                return -1;
            }
        }
        if (mp_check(c, depth + 1) < 0) return -1;
    }
    return 0;
}

/* Builds the value at c->off from bytes mp_check has already validated, so
 * no bounds or type checks are repeated here. Decoding straight into the
 * value tree avoids msgpack-c's per-message zone (an 8 KiB allocation per
 * message that dominated the referee's profile). */
static uint64_t mp_take(mp_cursor *c, size_t k)
{
    uint64_t v = be_uint(c->p + c->off, k);
    c->off += k;
    return v;
}

static av *mp_build(mp_cursor *c);

static av *mp_build_str(mp_cursor *c, size_t len)
{
    av *v = av_strn((const char *)c->p + c->off, len);
    c->off += len;
    return v;
}

static av *mp_build_list(mp_cursor *c, uint64_t count)
{
    av *l = av_list_sized((size_t)count); /* mp_check bounded count by the bytes */
    for (uint64_t i = 0; i < count; i++)
        av_push(l, mp_build(c));
    return l;
}

static av *mp_build_map(mp_cursor *c, uint64_t count)
{
    av *m = av_map_sized((size_t)count);
    for (uint64_t i = 0; i < count; i++) {
        /* mp_check guaranteed a NUL-free string key. */
        uint8_t kb = c->p[c->off++];
        size_t klen = kb <= 0xbf ? (size_t)(kb & 0x1f)
                                 : (size_t)mp_take(c, kb == 0xd9   ? 1
                                                      : kb == 0xda ? 2
                                                                   : 4);
        const char *k = (const char *)c->p + c->off;
        c->off += klen;
        av *v = mp_build(c);
        av_setn(m, k, klen, v); /* a repeated key: the last one wins */
    }
    return m;
}

static av *mp_build(mp_cursor *c)
{
    uint8_t b = c->p[c->off++];
    if (b <= 0x7f) return av_int(b);
    if (b >= 0xe0) return av_int((int8_t)b);
    if (b >= 0xa0 && b <= 0xbf) return mp_build_str(c, b & 0x1f);
    if (b >= 0x80 && b <= 0x8f) return mp_build_map(c, b & 0x0f);
    if (b >= 0x90 && b <= 0x9f) return mp_build_list(c, b & 0x0f);
    switch (b) {
    case 0xc2: return av_bool(false);
    case 0xc3: return av_bool(true);
    case 0xc4:
    case 0xd9: return mp_build_str(c, (size_t)mp_take(c, 1));
    case 0xc5:
    case 0xda: return mp_build_str(c, (size_t)mp_take(c, 2));
    case 0xc6:
    case 0xdb: return mp_build_str(c, (size_t)mp_take(c, 4));
    case 0xca: {
        uint32_t u = (uint32_t)mp_take(c, 4);
        float f;
        memcpy(&f, &u, sizeof f);
        return av_float(f);
    }
    case 0xcb: {
        uint64_t u = mp_take(c, 8);
        double d;
        memcpy(&d, &u, sizeof d);
        return av_float(d);
    }
    case 0xcc: return av_int((int64_t)mp_take(c, 1));
    case 0xcd: return av_int((int64_t)mp_take(c, 2));
    case 0xce: return av_int((int64_t)mp_take(c, 4));
    case 0xcf: {
        uint64_t u = mp_take(c, 8);
        return u > (uint64_t)INT64_MAX ? av_float((double)u) : av_int((int64_t)u);
    }
    case 0xd0: return av_int((int8_t)mp_take(c, 1));
    case 0xd1: return av_int((int16_t)mp_take(c, 2));
    case 0xd2: return av_int((int32_t)mp_take(c, 4));
    case 0xd3: return av_int((int64_t)mp_take(c, 8));
    case 0xdc: return mp_build_list(c, mp_take(c, 2));
    case 0xdd: return mp_build_list(c, mp_take(c, 4));
    case 0xde: return mp_build_map(c, mp_take(c, 2));
    case 0xdf: return mp_build_map(c, mp_take(c, 4));
    default: return av_nil(); /* 0xc0; ext was rejected by mp_check */
    }
}

av *msgpack_oracle_decode(const void *p, size_t n, char *err, size_t errlen)
{
    if (n == 0) {
        seterr(err, errlen, "msgpack: empty input");
        return NULL;
    }
    mp_cursor c = {.p = p, .n = n, .off = 0, .err = err, .errlen = errlen};
    if (mp_check(&c, 0) < 0) return NULL;
    if (c.off != n) {
        seterr(err, errlen, "msgpack: %zu trailing bytes after the value", n - c.off);
        return NULL;
    }
    c.off = 0;
    return mp_build(&c);
}
