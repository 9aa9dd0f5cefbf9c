/* Framing and the msgpack / JSON codecs (protocol.md §1): the frame
 * decoder and the msgpack writer live here, the readers in msgpack_read.c
 * and json_read.c, the JSON writer in json_write.c.
 *
 * Input comes from untrusted agents, so every decoder path bounds memory:
 * frames are capped before they are buffered, no storage is ever sized by a
 * count claim the bytes cannot back, and nesting and the number of values
 * are limited in both codecs. msgpack-c and jansson are not called. */
#include "codec.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "framewrite.h"
#include "utf8.h"

const char *codec_name(codec_kind c)
{
    switch (c) {
    case CODEC_MSGPACK: return "msgpack";
    case CODEC_JSON: return "json";
    default: return "none";
    }
}

codec_kind codec_parse(const char *name)
{
    if (!name) return CODEC_NONE;
    if (strcmp(name, "msgpack") == 0) return CODEC_MSGPACK;
    if (strcmp(name, "json") == 0) return CODEC_JSON;
    return CODEC_NONE;
}

/* ---------------------------------------------------------------- encode */

/* msgpack is written straight into the buffer, in the same shortest forms
 * msgpack-c's packer chooses (the bytes on the wire are unchanged): the
 * packer's callback per item cost more than the encoding itself. */

/* Room for n more bytes (and the NUL abuf keeps past len). */
static uint8_t *mp_room(abuf *b, size_t n)
{
    if (b->len + n + 1 > b->cap) abuf_reserve(b, n);
    return b->data + b->len;
}

/* tag then the k low bytes of v, big-endian. */
static void mp_head(abuf *b, uint8_t tag, uint64_t v, size_t k)
{
    uint8_t *p = mp_room(b, 1 + k);
    p[0] = tag;
    for (size_t i = 0; i < k; i++)
        p[1 + i] = (uint8_t)(v >> (8 * (k - 1 - i)));
    b->len += 1 + k;
}

static void mp_int(abuf *b, int64_t d)
{
    if (d >= -32 && d < 128) { /* positive or negative fixint */
        *mp_room(b, 1) = (uint8_t)d;
        b->len++;
    } else if (d < 0) {
        if (d >= -128)
            mp_head(b, 0xd0, (uint64_t)d, 1);
        else if (d >= -32768)
            mp_head(b, 0xd1, (uint64_t)d, 2);
        else if (d >= -2147483648LL)
            mp_head(b, 0xd2, (uint64_t)d, 4);
        else
            mp_head(b, 0xd3, (uint64_t)d, 8);
    } else if (d < 256) {
        mp_head(b, 0xcc, (uint64_t)d, 1);
    } else if (d < 65536) {
        mp_head(b, 0xcd, (uint64_t)d, 2);
    } else if (d < 4294967296LL) {
        mp_head(b, 0xce, (uint64_t)d, 4);
    } else {
        mp_head(b, 0xcf, (uint64_t)d, 8);
    }
}

/* A container or string header: fix form below fix_limit, else 8/16/32-bit
 * length forms (tag8 0 when there is no 8-bit form). */
static void mp_len(abuf *b, size_t n, uint8_t fix, size_t fix_limit, uint8_t tag8, uint8_t tag16,
                   uint8_t tag32)
{
    if (n < fix_limit)
        mp_head(b, (uint8_t)(fix | n), 0, 0);
    else if (tag8 && n < 256)
        mp_head(b, tag8, n, 1);
    else if (n < 65536)
        mp_head(b, tag16, n, 2);
    else
        mp_head(b, tag32, n, 4);
}

static void mp_str(abuf *b, const char *s, size_t n)
{
    uint8_t *p = mp_room(b, 5 + n); /* the longest header, then the bytes */
    if (n < 32) {                   /* keys and most strings: one header byte */
        *p++ = (uint8_t)(0xa0 | n);
        b->len++;
    } else {
        mp_len(b, n, 0xa0, 32, 0xd9, 0xda, 0xdb);
        p = b->data + b->len;
    }
    if (n) memcpy(p, s, n);
    b->len += n;
}

static void mp_pack(abuf *b, const av *v)
{
    if (!v) {
        mp_head(b, 0xc0, 0, 0);
        return;
    }
    switch (v->type) {
    case AV_NIL: mp_head(b, 0xc0, 0, 0); break;
    case AV_BOOL: mp_head(b, v->u.b ? 0xc3 : 0xc2, 0, 0); break;
    case AV_INT: mp_int(b, v->u.i); break;
    case AV_FLOAT: {
        uint64_t u;
        memcpy(&u, &v->u.f, sizeof u);
        mp_head(b, 0xcb, u, 8);
        break;
    }
    case AV_STR: mp_str(b, v->u.str.s, v->u.str.len); break;
    case AV_LIST:
        mp_len(b, v->u.list.len, 0x90, 16, 0, 0xdc, 0xdd);
        for (size_t i = 0; i < v->u.list.len; i++)
            mp_pack(b, v->u.list.items[i]);
        break;
    case AV_MAP:
        mp_len(b, v->u.map.len, 0x80, 16, 0, 0xde, 0xdf);
        for (size_t i = 0; i < v->u.map.len; i++) {
            const char *k = v->u.map.keys[i];
            size_t n = strlen(k);
            if (n < 32) { /* most keys: a fixstr, written here */
                uint8_t *p = mp_room(b, 1 + n);
                p[0] = (uint8_t)(0xa0 | n);
                memcpy(p + 1, k, n);
                b->len += 1 + n;
            } else {
                mp_str(b, k, n);
            }
            mp_pack(b, v->u.map.vals[i]);
        }
        break;
    }
}

/* The same forms one item at a time, for framewrite.h. */
void mpw_nil(abuf *b)
{
    mp_head(b, 0xc0, 0, 0);
}
void mpw_bool(abuf *b, bool v)
{
    mp_head(b, v ? 0xc3 : 0xc2, 0, 0);
}
void mpw_int(abuf *b, int64_t v)
{
    mp_int(b, v);
}
void mpw_str(abuf *b, const char *s, size_t n)
{
    mp_str(b, s, n);
}
void mpw_map(abuf *b, size_t n_keys)
{
    mp_len(b, n_keys, 0x80, 16, 0, 0xde, 0xdf);
}
void mpw_list(abuf *b, size_t n_items)
{
    mp_len(b, n_items, 0x90, 16, 0, 0xdc, 0xdd);
}
void mpw_value(abuf *b, const av *v)
{
    mp_pack(b, v);
}

/* Reserves the length prefix at the end of out; returns where it is. */
size_t codec_frame_open(abuf *out)
{
    size_t at = out->len;
    mp_head(out, 0, 0, 3); /* four zero bytes */
    return at;
}

/* Patches the length prefix at `at` to cover everything after it. */
void codec_frame_close(abuf *out, size_t at)
{
    out->data[out->len] = 0;
    size_t n = out->len - at - 4;
    out->data[at] = (uint8_t)(n >> 24);
    out->data[at + 1] = (uint8_t)(n >> 16);
    out->data[at + 2] = (uint8_t)(n >> 8);
    out->data[at + 3] = (uint8_t)n;
}

void codec_encode(codec_kind c, const av *msg, abuf *out)
{
    if (c == CODEC_JSON) {
        av_json_append(msg, out);
        abuf_addc(out, '\n');
        return;
    }
    /* msgpack: reserve the length prefix, pack, then patch it. */
    size_t at = codec_frame_open(out);
    mp_pack(out, msg);
    codec_frame_close(out, at);
}

/* --------------------------------------------------------------- decoder */

static uint64_t be_uint(const uint8_t *p, size_t k)
{
    uint64_t v = 0;
    for (size_t i = 0; i < k; i++)
        v = (v << 8) | p[i];
    return v;
}

/* The unread bytes are in.data[head, in.len). Returned frames only advance
 * head; the buffer is compacted once per feed, so a read holding many small
 * messages costs one memmove, not one per message. */

void frame_decoder_init(frame_decoder *d, size_t max_frame, codec_kind forced)
{
    memset(d, 0, sizeof *d);
    d->codec = forced;
    d->max_frame = max_frame ? max_frame : PROTO_MAX_FRAME_DEFAULT;
    d->max_values = PROTO_MAX_VALUES;
}

static int fail(frame_decoder *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(frame_decoder *d, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(d->error, sizeof d->error, fmt, ap);
    va_end(ap);
    /* keep the reason one clean line, whatever a decoder quoted */
    for (char *c = d->error; *c; c++)
        if ((unsigned char)*c < 0x20 || *c == 0x7f) *c = '?';
    d->failed = true;
    abuf_free(&d->in); /* a failed stream's bytes are never needed again */
    d->head = d->scan = 0;
    return -1;
}

static bool blank_line(const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (p[i] != ' ' && p[i] != '\t' && p[i] != '\r') return false;
    return true;
}

static void advance(frame_decoder *d, size_t n)
{
    d->head += n;
    if (d->head >= d->in.len) { /* all returned: restart at the front */
        d->head = d->in.len = 0;
        d->in.data[0] = 0;
    }
    d->scan = d->head;
}

/* Locates the first complete frame: 1 with payload [*start, *start+*len) of
 * in.data and *consume bytes to drop after it, 0 when more bytes are needed,
 * -1 on a protocol error. Enforces the cap as soon as it can be known. */
static int front_frame(frame_decoder *d, size_t *start, size_t *len, size_t *consume)
{
    if (d->failed) return -1;
    size_t avail = d->in.len - d->head;
    const uint8_t *p = d->in.data + d->head;
    if (avail == 0) return 0;
    if (d->codec == CODEC_NONE) {
        uint8_t b = p[0];
        if (b == 0x00)
            d->codec = CODEC_MSGPACK;
        else if (b == '{')
            d->codec = CODEC_JSON;
        else if (b >= 0x20 && b < 0x7f)
            return fail(d, "bad first byte 0x%02x ('%c'): expected 0x00 (msgpack) or '{' (json)", b,
                        b);
        else
            return fail(d, "bad first byte 0x%02x: expected 0x00 (msgpack) or '{' (json)", b);
    }
    if (d->codec == CODEC_MSGPACK) {
        if (avail < 4) return 0;
        uint64_t n = be_uint(p, 4);
        if (n > d->max_frame)
            return fail(d, "msgpack frame of %llu bytes exceeds the limit of %zu bytes",
                        (unsigned long long)n, d->max_frame);
        if (n == 0) return fail(d, "msgpack frame of length 0 (a frame holds one map)");
        if (avail - 4 < n) return 0;
        *start = d->head + 4;
        *len = (size_t)n;
        *consume = 4 + (size_t)n;
        return 1;
    }
    for (;;) {
        avail = d->in.len - d->head;
        p = d->in.data + d->head;
        if (d->scan < d->head) d->scan = d->head;
        const uint8_t *nl = memchr(d->in.data + d->scan, '\n', d->in.len - d->scan);
        if (!nl) {
            d->scan = d->in.len;
            if (avail > d->max_frame)
                return fail(d, "json line longer than %zu bytes (no newline yet)", d->max_frame);
            return 0;
        }
        /* A peek that leaves the line in place finds its end at once next
         * time. */
        d->scan = (size_t)(nl - d->in.data);
        size_t linelen = (size_t)(nl - p);
        if (linelen > d->max_frame)
            return fail(d, "json line of %zu bytes exceeds the limit of %zu bytes", linelen,
                        d->max_frame);
        if (blank_line(p, linelen)) {
            advance(d, linelen + 1);
            if (d->in.len == 0) return 0;
            continue;
        }
        *start = d->head;
        *len = linelen;
        if (linelen && p[linelen - 1] == '\r') (*len)--;
        *consume = linelen + 1;
        return 1;
    }
}

uint8_t *frame_decoder_space(frame_decoder *d, size_t want, size_t *room)
{
    if (d->head > 0) { /* compact: drop what was already returned */
        abuf_consume(&d->in, d->head);
        d->scan -= d->head;
        d->head = 0;
    }
    return abuf_space(&d->in, want, room);
}

void frame_decoder_commit(frame_decoder *d, size_t n)
{
    if (d->failed || n == 0) return;
    abuf_commit(&d->in, n);
    size_t s, l, c;
    front_frame(d, &s, &l, &c); /* early cap check; the frame stays buffered */
}

void frame_decoder_feed(frame_decoder *d, const void *p, size_t n)
{
    if (d->failed || n == 0) return;
    size_t room;
    memcpy(frame_decoder_space(d, n, &room), p, n);
    frame_decoder_commit(d, n);
}

int frame_decoder_next(frame_decoder *d, av **msg)
{
    *msg = NULL;
    size_t start = 0, len = 0, consume = 0;
    int r = front_frame(d, &start, &len, &consume);
    if (r <= 0) return r;
    char err[sizeof d->error];
    err[0] = '\0';
    av *v = d->codec == CODEC_MSGPACK ? msgpack_decode_max(d->in.data + start, len, d->max_values,
                                                           &d->values, err, sizeof err)
                                      : json_decode_max((const char *)d->in.data + start, len,
                                                        d->max_values, &d->values, err, sizeof err);
    advance(d, consume);
    if (!v) return fail(d, "%s", err);
    if (v->type != AV_MAP) {
        static const char *names[] = {"nil",      "a boolean", "an integer", "a float",
                                      "a string", "a list",    "a map"};
        const char *what = names[v->type];
        av_free(v);
        return fail(d, "%s: top level is %s, not a map", codec_name(d->codec), what);
    }
    *msg = v;
    return 1;
}

int frame_decoder_peek(frame_decoder *d, const uint8_t **p, size_t *n)
{
    size_t start = 0, consume = 0;
    *p = NULL;
    *n = 0;
    int r = front_frame(d, &start, n, &consume);
    if (r > 0) *p = d->in.data + start;
    return r;
}

void frame_decoder_skip(frame_decoder *d)
{
    size_t start = 0, len = 0, consume = 0;
    if (front_frame(d, &start, &len, &consume) > 0) advance(d, consume);
}

int frame_decoder_next_fast(frame_decoder *d,
                            bool (*fast)(void *, codec_kind, const uint8_t *, size_t), void *ctx,
                            av **msg)
{
    const uint8_t *p;
    size_t n;
    *msg = NULL;
    int r = frame_decoder_peek(d, &p, &n);
    if (r <= 0) return r;
    if (fast(ctx, d->codec, p, n)) {
        frame_decoder_skip(d);
        return 2;
    }
    return frame_decoder_next(d, msg);
}

size_t frame_decoder_pending(const frame_decoder *d)
{
    return d->in.len - d->head;
}

void frame_decoder_free(frame_decoder *d)
{
    abuf_free(&d->in);
    d->head = d->scan = 0;
}
