/* Compact JSON writer for the value tree (av_to_json). The JSON codec frames
 * its output as one line, so nothing here may ever emit a raw newline: every
 * control character is escaped. Strings are byte strings in the value tree;
 * bytes that are not valid UTF-8 become U+FFFD so the output is always valid
 * JSON. NaN and infinities have no JSON form and are written as null. */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "framewrite.h"
#include "json_scan.h"
#include "utf8.h"
#include "util.h"
#include "value.h"

/* Room for n more bytes at the end of b (and the NUL abuf keeps past len:
 * whoever appends last writes it). Punctuation and plain runs go through
 * here rather than abuf_add, whose call per byte dominated JSON output. */
static inline uint8_t *room(abuf *b, size_t n)
{
    if (b->len + n + 1 > b->cap) abuf_reserve(b, n);
    return b->data + b->len;
}

static inline void put_c(abuf *b, char c)
{
    *room(b, 1) = (uint8_t)c;
    b->len++;
}

/* Copies the writer's plain run of p from i (see json_plain_tab) to o,
 * eight bytes at a time while a whole word is plain; returns its end. */
static inline size_t copy_plain(const uint8_t *p, size_t i, size_t n, uint8_t *o)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    uint64_t w;
    while (n - i >= 8 && (memcpy(&w, p + i, 8), json_stops(w, JSON_WRITE_PLAIN) == 0)) {
        memcpy(o, &w, 8);
        o += 8;
        i += 8;
    }
#endif
    while (i < n && (json_plain_tab[p[i]] & JSON_WRITE_PLAIN))
        *o++ = p[i++];
    return i;
}

static void put_str(abuf *b, const char *s, size_t n)
{
    const uint8_t *p = (const uint8_t *)s;
    /* Room for all of it unless something needs escaping: the plain start
     * is most often the whole string. */
    uint8_t *o = room(b, n + 2);
    *o = '"';
    size_t i = copy_plain(p, 0, n, o + 1);
    b->len += i + 1;
    while (i < n) {
        uint8_t c = p[i];
        if (json_plain_tab[c] & JSON_WRITE_PLAIN) {
            size_t end = copy_plain(p, i, n, room(b, n - i));
            b->len += end - i;
            i = end;
        } else if (c == '"' || c == '\\') {
            put_c(b, '\\');
            put_c(b, (char)c);
            i++;
        } else if (c < 0x20 || c == 0x7f) {
            switch (c) {
            case '\n': abuf_adds(b, "\\n"); break;
            case '\r': abuf_adds(b, "\\r"); break;
            case '\t': abuf_adds(b, "\\t"); break;
            case '\b': abuf_adds(b, "\\b"); break;
            case '\f': abuf_adds(b, "\\f"); break;
            default: abuf_addf(b, "\\u%04x", c); break;
            }
            i++;
        } else {
            size_t k = utf8_seq(p + i, n - i);
            if (k == 0) {
                abuf_adds(b, "\\ufffd");
                i++;
            } else {
                memcpy(room(b, k), p + i, k);
                b->len += k;
                i += k;
            }
        }
    }
    put_c(b, '"');
    b->data[b->len] = 0;
}

/* Shortest %g form that reads back to the same double, always recognisable
 * as a float (so a decoder does not turn 2.0 into the integer 2). */
static void put_float(abuf *b, double f)
{
    if (!isfinite(f)) {
        abuf_adds(b, "null");
        return;
    }
    char tmp[40];
    for (int prec = 15; prec <= 17; prec++) {
        snprintf(tmp, sizeof tmp, "%.*g", prec, f);
        if (strtod(tmp, NULL) == f) break;
    }
    abuf_adds(b, tmp);
    if (!strpbrk(tmp, ".eE")) abuf_adds(b, ".0");
}

static void put_value(abuf *b, const av *v)
{
    if (!v) {
        abuf_adds(b, "null");
        return;
    }
    switch (v->type) {
    case AV_NIL: abuf_adds(b, "null"); break;
    case AV_BOOL: abuf_adds(b, v->u.b ? "true" : "false"); break;
    case AV_INT: abuf_addi(b, v->u.i); break;
    case AV_FLOAT: put_float(b, v->u.f); break;
    case AV_STR: put_str(b, v->u.str.s, v->u.str.len); break;
    case AV_LIST:
        put_c(b, '[');
        for (size_t i = 0; i < v->u.list.len; i++) {
            if (i) put_c(b, ',');
            put_value(b, v->u.list.items[i]);
        }
        put_c(b, ']');
        break;
    case AV_MAP:
        put_c(b, '{');
        for (size_t i = 0; i < v->u.map.len; i++) {
            if (i) put_c(b, ',');
            put_str(b, v->u.map.keys[i], strlen(v->u.map.keys[i]));
            put_c(b, ':');
            put_value(b, v->u.map.vals[i]);
        }
        put_c(b, '}');
        break;
    }
}

void jsonw_str(abuf *b, const char *s, size_t n)
{
    put_str(b, s, n);
}

void jsonw_int(abuf *b, int64_t v)
{
    abuf_addi(b, v);
}

void av_json_append(const av *v, abuf *out)
{
    put_value(out, v);
    out->data[out->len] = 0;
}

char *av_to_json(const av *v)
{
    abuf b = {0};
    abuf_reserve(&b, 64);
    put_value(&b, v);
    b.data[b.len] = 0;
    return (char *)b.data;
}
