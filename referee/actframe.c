#include "actframe.h"

#include <string.h>

#include "util.h"

#define ACT_MAX_ITEMS 15 /* a msgpack fixarray; JSON uses the same bound */

/* Reads an exact byte string at *p; advances on a match. */
static bool lit(const uint8_t **p, const uint8_t *end, const char *s, size_t n)
{
    if ((size_t)(end - *p) < n || memcmp(*p, s, n) != 0) return false;
    *p += n;
    return true;
}

/* A non-negative msgpack int of up to 32 bits (positive fixint, uint 8, 16
 * or 32). */
static bool mp_uint(const uint8_t **p, const uint8_t *end, int64_t *out)
{
    const uint8_t *q = *p;
    if (q >= end) return false;
    size_t w;
    if (q[0] <= 0x7f) {
        *out = q[0];
        *p = q + 1;
        return true;
    }
    if (q[0] == 0xcc)
        w = 1;
    else if (q[0] == 0xcd)
        w = 2;
    else if (q[0] == 0xce)
        w = 4;
    else
        return false;
    if ((size_t)(end - q) < 1 + w) return false;
    uint64_t v = 0;
    for (size_t i = 0; i < w; i++)
        v = v << 8 | q[1 + i];
    *out = (int64_t)v;
    *p = q + 1 + w;
    return true;
}

/* A plain non-negative JSON integer: "0" or a nonzero digit then digits,
 * 18 digits at most (so it fits), not followed by anything a number could
 * go on with (the caller checks the next byte is ',' or ']' or '}'). */
static bool js_uint(const uint8_t **p, const uint8_t *end, int64_t *out)
{
    const uint8_t *q = *p;
    if (q >= end || *q < '0' || *q > '9') return false;
    if (*q == '0') {
        *out = 0;
        *p = q + 1;
        return true;
    }
    int64_t v = 0;
    size_t k = 0;
    for (; q < end && *q >= '0' && *q <= '9'; q++, k++) {
        if (k == 18) return false;
        v = v * 10 + (*q - '0');
    }
    *out = v;
    *p = q;
    return true;
}

static bool parse_msgpack(const uint8_t *p, const uint8_t *end, int64_t *id, int64_t *items,
                          size_t *n)
{
    static const char head[] = "\x83\xa4type\xa3"
                               "act\xa2id";
    if (!lit(&p, end, head, sizeof head - 1)) return false;
    if (!mp_uint(&p, end, id)) return false;
    if (!lit(&p, end,
             "\xa6"
             "choice",
             7))
        return false;
    if (p >= end || (*p & 0xf0) != 0x90) return false;
    *n = *p++ & 0x0f;
    for (size_t i = 0; i < *n; i++)
        if (!mp_uint(&p, end, &items[i])) return false;
    return p == end;
}

static bool parse_json(const uint8_t *p, const uint8_t *end, int64_t *id, int64_t *items, size_t *n)
{
    static const char head[] = "{\"type\":\"act\",\"id\":";
    if (!lit(&p, end, head, sizeof head - 1)) return false;
    if (!js_uint(&p, end, id)) return false;
    if (!lit(&p, end, ",\"choice\":[", 11)) return false;
    *n = 0;
    if (!lit(&p, end, "]", 1)) {
        for (;;) {
            if (*n == ACT_MAX_ITEMS || !js_uint(&p, end, &items[*n])) return false;
            ++*n;
            if (lit(&p, end, "]", 1)) break;
            if (!lit(&p, end, ",", 1)) return false;
        }
    }
    return lit(&p, end, "}", 1) && p == end;
}

bool act_frame_parse(codec_kind c, const uint8_t *p, size_t n, msg *out)
{
    int64_t id, items[ACT_MAX_ITEMS];
    size_t k = 0;
    bool ok = c == CODEC_MSGPACK ? parse_msgpack(p, p + n, &id, items, &k)
              : c == CODEC_JSON  ? parse_json(p, p + n, &id, items, &k)
                                 : false;
    if (!ok) return false;
    memset(out, 0, sizeof *out);
    out->type = MSG_ACT;
    out->u.act.id = (uint64_t)id;
    out->u.act.n_choice = k;
    /* Allocated as msg_decode does, so msg_free releases either. */
    out->u.act.choice = xcalloc(k ? k : 1, sizeof *out->u.act.choice);
    memcpy(out->u.act.choice, items, k * sizeof *items);
    return true;
}
