/* decide straight from a frame's bytes (see decide_fast.h), msgpack or
 * compact JSON. Each reader counts what it reads as the codec's reader does
 * (every key and value is one value towards PROTO_MAX_VALUES) and returns
 * false where the general path would either fail or take a path this one
 * does not copy: in JSON, whitespace, escapes and numbers that are not
 * plain integers; in msgpack, bin strings and key forms other than fixstr;
 * repeated keys; extra keys in pick and clock. Extra keys at the top level
 * and in options are checked by the codec's reader and dropped, as the
 * general path ignores them. Strings are copied into the caller's
 * decide_buf, which a frame of n bytes never outgrows past n bytes (a
 * string's copy and its NUL take no more room than its bytes and header
 * or quotes in the frame). */
#include "decide_fast.h"

#include <stdlib.h>
#include <string.h>

#include "json_scan.h"
#include "utf8.h"
#include "util.h"

/* The C SDK is built for size (sdk/c/meson.build), and at -Os gcc calls
 * even these one-line readers; inlined they take fewer instructions and no
 * more code (a random-c decision: 8.6 % fewer instructions, same size). */
#define HOT static inline __attribute__((always_inline))

typedef struct rd {
    const uint8_t *p;
    size_t n, off;
    size_t values; /* as the codec's reader counts them */
    bool json;
    bool skip_state;  /* view and events checked, not built */
    decide_buf *buf;  /* text sized for n bytes before the walk */
    size_t text_used; /* bytes of buf->text taken */
} rd;

static uint64_t be(const uint8_t *p, size_t k)
{
    uint64_t v = 0;
    for (size_t i = 0; i < k; i++)
        v = (v << 8) | p[i];
    return v;
}

/* The next byte, counted as the start of a value; false at the end. */
HOT bool lead(rd *r, uint8_t *b)
{
    if (r->off >= r->n) return false;
    r->values++;
    *b = r->p[r->off++];
    return true;
}

/* Consumes byte c if it comes next (JSON punctuation). */
HOT bool eat(rd *r, uint8_t c)
{
    if (r->off >= r->n || r->p[r->off] != c) return false;
    r->off++;
    return true;
}

/* A k-byte big-endian length or payload. */
HOT bool fixed(rd *r, size_t k, uint64_t *u)
{
    if (r->n - r->off < k) return false;
    *u = be(r->p + r->off, k);
    r->off += k;
    return true;
}

/* JSON: -?(0|[1-9][0-9]*) within int64, not followed by a fraction or
 * exponent (those, and larger ones, are left to json_read.c). */
static bool json_int(rd *r, int64_t *v)
{
    size_t i = r->off, n = r->n;
    bool neg = i < n && r->p[i] == '-';
    if (neg) i++;
    size_t d = i;
    uint64_t u = 0;
    while (i < n && r->p[i] >= '0' && r->p[i] <= '9')
        u = u * 10 + (uint64_t)(r->p[i++] - '0');
    size_t nd = i - d;
    if (nd == 0 || !json_int_fits(r->p + d, nd, neg) || (nd > 1 && r->p[d] == '0')) return false;
    if (i < n && (r->p[i] == '.' || r->p[i] == 'e' || r->p[i] == 'E')) return false;
    r->off = i;
    r->values++;
    *v = neg ? (int64_t)(0 - u) : (int64_t)u; /* -2^63 too */
    return true;
}

/* Any integer form that msgpack_read.c reads as an integer. */
static bool rd_int(rd *r, int64_t *v)
{
    if (r->json) return json_int(r, v);
    uint8_t b;
    uint64_t u;
    if (!lead(r, &b)) return false;
    if (b <= 0x7f || b >= 0xe0) {
        *v = (int8_t)b;
        if (b <= 0x7f) *v = b;
        return true;
    }
    if (b < 0xcc || b > 0xd3 || !fixed(r, (size_t)1 << ((b - 0xcc) & 3), &u)) return false;
    switch (b) {
    case 0xcf:
        if (u > (uint64_t)INT64_MAX) return false; /* a float there */
        /* fall through */
    case 0xcc:
    case 0xcd:
    case 0xce: *v = (int64_t)u; break;
    case 0xd0: *v = (int8_t)u; break;
    case 0xd1: *v = (int16_t)u; break;
    case 0xd2: *v = (int32_t)u; break;
    default: *v = (int64_t)u; break; /* 0xd3 */
    }
    return true;
}

/* JSON: a string without escapes or control bytes, its bytes as they are;
 * *ascii says whether they are all ASCII (else the caller checks UTF-8). */
static bool json_plain(rd *r, const char **s, size_t *len, bool *ascii)
{
    if (!eat(r, '"')) return false;
    size_t i = json_plain_end(r->p, r->off, r->n);
    *ascii = true;
    while (i < r->n && r->p[i] >= 0x80) {
        *ascii = false;
        i = json_plain_end(r->p, i + 1, r->n);
    }
    if (i >= r->n || r->p[i] != '"') return false;
    *s = (const char *)r->p + r->off;
    *len = i - r->off;
    r->off = i + 1;
    return true;
}

/* A str (msgpack: not bin, rare enough to leave to the general path),
 * valid UTF-8. */
static bool rd_str(rd *r, const char **s, size_t *len)
{
    if (r->json) {
        r->values++;
        bool ascii;
        return json_plain(r, s, len, &ascii) && (ascii || utf8_valid(*s, *len));
    }
    uint8_t b;
    uint64_t u;
    if (!lead(r, &b)) return false;
    if (b >= 0xa0 && b <= 0xbf)
        u = b & 0x1f;
    else if (b < 0xd9 || b > 0xdb || !fixed(r, b == 0xd9 ? 1 : b == 0xda ? 2 : 4, &u))
        return false;
    if (r->n - r->off < u) return false;
    const uint8_t *t = r->p + r->off;
    if (!utf8_short_ascii(t, (size_t)u, r->n - r->off, false) && !utf8_valid(t, (size_t)u))
        return false;
    *s = (const char *)r->p + r->off;
    *len = (size_t)u;
    r->off += (size_t)u;
    return true;
}

/* Opens a map or list (by is_map). msgpack: *count is its size (at most the
 * bytes left); JSON: *count is unknown (SIZE_MAX), see rd_more. */
static bool rd_open(rd *r, bool is_map, size_t *count)
{
    uint8_t b;
    uint64_t u;
    if (!lead(r, &b)) return false;
    if (r->json) {
        *count = SIZE_MAX;
        return b == (is_map ? '{' : '[');
    }
    uint8_t fix = is_map ? 0x80 : 0x90, b16 = is_map ? 0xde : 0xdc;
    if ((b & 0xf0) == fix)
        u = b & 0x0f;
    else if ((b != b16 && b != b16 + 1) || !fixed(r, b == b16 ? 2 : 4, &u))
        return false;
    if (u > r->n - r->off) return false;
    *count = (size_t)u;
    return true;
}

/* Before item i of an open container: 1 if there is one, 0 at its end (the
 * JSON closer consumed), -1 on anything else. */
HOT int rd_more(rd *r, bool is_map, size_t i, size_t count)
{
    if (!r->json) return i < count;
    if (eat(r, is_map ? '}' : ']')) return 0;
    return i == 0 || eat(r, ',') ? 1 : -1;
}

typedef struct key {
    const char *s;
    size_t len;
} key;
#define KEY(lit)                                                                                   \
    {                                                                                              \
        "" lit, sizeof(lit) - 1                                                                    \
    }

/* A map key among the n keys: its index; K_OTHER for any other key the
 * codec's reader accepts (a protocol message may carry extra keys, which
 * are skipped); -1 for anything else (declined). The referee sends keys in
 * protocol.md's order, so keys[expect] is tried first. msgpack keys must
 * be fixstrs here; JSON keys are plain (no escapes) and followed by ':'. */
#define K_OTHER (-2)
static inline int rd_key(rd *r, const key *keys, int n, int expect)
{
    const char *k;
    size_t len;
    if (r->json) {
        r->values++;
        bool ascii;
        if (!json_plain(r, &k, &len, &ascii) || !eat(r, ':')) return -1;
    } else {
        uint8_t b;
        if (!lead(r, &b) || (b & 0xe0) != 0xa0) return -1;
        len = b & 0x1f;
        if (r->n - r->off < len) return -1;
        k = (const char *)r->p + r->off;
        r->off += len;
    }
    if (expect < n && keys[expect].len == len && memcmp(keys[expect].s, k, len) == 0) return expect;
    for (int i = 0; i < n; i++)
        if (keys[i].len == len && memcmp(keys[i].s, k, len) == 0) return i;
    /* JSON: plain text has no NUL byte (a control byte) */
    return utf8_valid(k, len) && (r->json || !memchr(k, 0, len)) ? K_OTHER : -1;
}

/* A value not kept (an extra key's, or view and events for a bot that
 * does not look at them): checked and counted by the codec's reader at
 * nesting level depth, not built. */
static bool rd_skip(rd *r, int depth)
{
    return r->json ? json_skip_value((const char *)r->p, r->n, &r->off, &r->values, depth)
                   : msgpack_skip_value(r->p, r->n, &r->off, &r->values, depth);
}

/* A key's value, read into ctx; k is its index among the map's keys. */
typedef bool (*rd_field_fn)(rd *r, int k, void *ctx);

/* The walk every map of these messages shares, from item i of the n of an
 * open map: each key must be one of keys, at most once, and its value is
 * read by field; anything else declines the message, but an extra key's
 * value is checked and dropped when extra_depth (its nesting level) is not
 * 0. *seen gets bit k for each key read, for the caller to check the ones
 * it requires. */
static inline bool rd_map_from(rd *r, size_t i, size_t n, const key *keys, int nkeys,
                               int extra_depth, unsigned *seen, rd_field_fn field, void *ctx)
{
    for (int more; (more = rd_more(r, true, i, n)) != 0; i++) {
        int k = more < 0 ? -1 : rd_key(r, keys, nkeys, (int)i);
        if (k == K_OTHER && extra_depth > 0) {
            if (!rd_skip(r, extra_depth)) return false;
            continue;
        }
        if (k < 0 || *seen & (1u << k)) return false;
        *seen |= 1u << k;
        if (!field(r, k, ctx)) return false;
    }
    return true;
}

/* rd_map_from over a whole map, opened here. */
static inline bool rd_map(rd *r, const key *keys, int nkeys, int extra_depth, unsigned *seen,
                          rd_field_fn field, void *ctx)
{
    size_t n;
    return rd_open(r, true, &n) && rd_map_from(r, 0, n, keys, nkeys, extra_depth, seen, field, ctx);
}

static bool rd_bool(rd *r, bool *v)
{
    if (r->json) {
        if (r->n - r->off >= 4 && memcmp(r->p + r->off, "true", 4) == 0) {
            r->off += 4, r->values++, *v = true;
            return true;
        }
        if (r->n - r->off >= 5 && memcmp(r->p + r->off, "false", 5) == 0) {
            r->off += 5, r->values++, *v = false;
            return true;
        }
        return false;
    }
    uint8_t b;
    if (!lead(r, &b) || (b != 0xc2 && b != 0xc3)) return false;
    *v = b == 0xc3;
    return true;
}

/* A nil where nil stands for absent; false if the next value is not nil. */
static bool rd_nil(rd *r)
{
    if (r->json) {
        if (r->n - r->off < 4 || memcmp(r->p + r->off, "null", 4) != 0) return false;
        r->off += 4;
    } else {
        if (r->off >= r->n || r->p[r->off] != 0xc0) return false;
        r->off++;
    }
    r->values++;
    return true;
}

static char *dup_n(const char *s, size_t n)
{
    char *c = xmalloc(n + 1);
    memcpy(c, s, n);
    c[n] = '\0';
    return c;
}

/* A NUL-terminated copy of s in the buffer (which has room: see the top). */
static char *copy_text(rd *r, const char *s, size_t n)
{
    char *c = r->buf->text + r->text_used;
    memcpy(c, s, n);
    c[n] = '\0';
    r->text_used += n + 1;
    return c;
}

/* A string struct field: NUL-free (the general path refuses a NUL there);
 * in decide's buffer, or (hello, over: no buffer) owned by the message. */
static bool rd_field(rd *r, char **out)
{
    const char *s;
    size_t n;
    if (!rd_str(r, &s, &n) || memchr(s, 0, n)) return false;
    *out = r->buf ? copy_text(r, s, n) : dup_n(s, n);
    return true;
}

/* A value tree of the kind given by the next byte (a map or a list), read
 * by the codec's own reader at nesting level 1; game state (a view or
 * events) with skip_state only checked (*out stays NULL). */
static bool rd_tree(rd *r, bool is_map, bool state, av **out)
{
    if (r->off >= r->n) return false;
    uint8_t b = r->p[r->off];
    bool ok = r->json  ? b == (is_map ? '{' : '[')
              : is_map ? ((b & 0xf0) == 0x80 || b == 0xde || b == 0xdf)
                       : ((b & 0xf0) == 0x90 || b == 0xdc || b == 0xdd);
    if (!ok) return false;
    if (state && r->skip_state) return rd_skip(r, 1);
    *out = r->json ? json_read_value((const char *)r->p, r->n, &r->off, &r->values, 1)
                   : msgpack_read_value(r->p, r->n, &r->off, &r->values, 1);
    return *out != NULL;
}

static bool option_field(rd *r, int k, void *label)
{
    (void)k;
    return rd_field(r, label);
}

/* One option: a map with a string "label" and maybe extra keys. */
static bool rd_option(rd *r, char **label)
{
    static const key keys[] = {KEY("label")};
    unsigned seen = 0;
    return rd_map(r, keys, 1, 3, &seen, option_field, label) && seen == 1;
}

/* The labels go into the buffer's array, grown when a decide has more
 * options than any before (JSON: counted as they come). */
static bool rd_options(rd *r, msg_decide *d)
{
    decide_buf *b = r->buf;
    size_t n;
    if (!rd_open(r, false, &n)) return false;
    if (!r->json && n > b->labels_cap) {
        free(b->labels);
        b->labels = xmalloc(n * sizeof *b->labels);
        b->labels_cap = n;
    }
    size_t i = 0;
    for (int more; (more = rd_more(r, false, i, n)) != 0; i++) {
        if (more < 0) return false;
        if (i == b->labels_cap) {
            b->labels_cap = b->labels_cap ? 2 * b->labels_cap : 8;
            b->labels = xrealloc(b->labels, b->labels_cap * sizeof *b->labels);
        }
        b->labels[i] = NULL;
        if (!rd_option(r, &b->labels[i])) return false;
    }
    d->labels = b->labels;
    d->n_options = i;
    return true;
}

static bool pick_field(rd *r, int k, void *ctx)
{
    msg_pick *p = ctx;
    return k == 0 ? rd_int(r, &p->min) : k == 1 ? rd_int(r, &p->max) : rd_bool(r, &p->ordered);
}

static bool rd_pick(rd *r, msg_pick *p)
{
    static const key keys[] = {KEY("min"), KEY("max"), KEY("ordered")};
    unsigned seen = 0;
    return rd_map(r, keys, 3, 0, &seen, pick_field, p) && seen == 7;
}

/* clock.mode: "wall" or "cpu" (anything else: the general path). */
static bool rd_mode(rd *r, msg_clock *c)
{
    const char *s;
    size_t n;
    if (!rd_str(r, &s, &n)) return false;
    if (!((n == 4 && memcmp(s, "wall", 4) == 0) || (n == 3 && memcmp(s, "cpu", 3) == 0)))
        return false;
    memcpy(c->mode, s, n);
    c->mode[n] = '\0';
    return true;
}

typedef struct clock_ctx {
    msg_clock *c;
    bool full;
} clock_ctx;

static bool clock_field(rd *r, int k, void *ctx)
{
    msg_clock *c = ((clock_ctx *)ctx)->c;
    bool full = ((clock_ctx *)ctx)->full;
    switch (k) {
    /* Durations are never negative, as on the general path. */
    case 0: return rd_int(r, &c->move_ms) && c->move_ms >= 0;
    case 1: return rd_int(r, &c->bank_ms) && c->bank_ms >= 0;
    case 2: return rd_nil(r) || (rd_int(r, &c->game_ms) && c->game_ms >= 0);
    case 3: return (!full && rd_nil(r)) || (rd_int(r, &c->startup_ms) && c->startup_ms >= 0);
    default: return full ? rd_mode(r, c) : rd_nil(r); /* a mode in decide: general path */
    }
}

/* full: hello's clock, where startup_ms and mode are required. */
static bool rd_clock(rd *r, msg_clock *c, bool full)
{
    static const key keys[] = {KEY("move_ms"), KEY("bank_ms"), KEY("game_ms"), KEY("startup_ms"),
                               KEY("mode")};
    unsigned seen = 0, need = full ? 0x1b : 3;
    c->game_ms = c->startup_ms = -1;
    c->mode[0] = '\0';
    clock_ctx ctx = {c, full};
    return rd_map(r, keys, 5, 0, &seen, clock_field, &ctx) && (seen & need) == need;
}

enum {
    K_TYPE,
    K_ID,
    K_KIND,
    K_PROMPT,
    K_OPTIONS,
    K_PICK,
    K_VIEW,
    K_EVENTS,
    K_CLOCK,
    K_ALL = 0x1ff
};

static bool decide_field(rd *r, int k, void *ctx)
{
    msg_decide *d = ctx;
    const char *s;
    size_t len;
    int64_t id;
    switch (k) {
    case K_TYPE: return rd_str(r, &s, &len) && len == 6 && memcmp(s, "decide", 6) == 0;
    case K_ID:
        if (!rd_int(r, &id) || id < 0) return false;
        d->id = (uint64_t)id;
        return true;
    case K_KIND: return rd_field(r, &d->kind);
    case K_PROMPT: /* free text: cut at a NUL, as the general path does */
        if (!rd_str(r, &s, &len)) return false;
        const char *nul = memchr(s, 0, len);
        d->prompt = copy_text(r, s, nul ? (size_t)(nul - s) : len);
        return true;
    case K_OPTIONS: return rd_options(r, d);
    case K_PICK: return rd_pick(r, &d->pick);
    case K_VIEW: return rd_tree(r, true, true, &d->view);
    case K_EVENTS: return rd_tree(r, false, true, &d->events);
    default: return rd_clock(r, &d->clock, false);
    }
}

static bool rd_decide(rd *r, msg_decide *d)
{
    static const key keys[] = {KEY("type"),   KEY("id"),      KEY("kind"),
                               KEY("prompt"), KEY("options"), KEY("pick"),
                               KEY("view"),   KEY("events"),  KEY("clock")};
    unsigned seen = 0;
    return rd_map(r, keys, 9, 1, &seen, decide_field, d) && seen == K_ALL;
}

bool msg_decide_fast(codec_kind c, const uint8_t *p, size_t n, bool skip_state, decide_buf *buf,
                     msg *out)
{
    if (c != CODEC_MSGPACK && c != CODEC_JSON) return false;
    if (buf->text_cap < n) { /* no realloc: nothing in it is kept */
        free(buf->text);
        buf->text_cap = n > 2 * buf->text_cap ? n : 2 * buf->text_cap;
        buf->text = xmalloc(buf->text_cap);
    }
    rd r = {.p = p, .n = n, .json = c == CODEC_JSON, .skip_state = skip_state, .buf = buf};
    msg m;
    memset(&m, 0, sizeof m);
    m.type = MSG_DECIDE;
    if (!rd_decide(&r, &m.u.decide) || r.off != n || r.values > PROTO_MAX_VALUES) {
        msg_decide_fast_release(&m);
        return false;
    }
    *out = m;
    return true;
}

/* ------------------------------------------------- hello and over */

/* A list read item by item into an array of *n items of size sz, grown as
 * JSON items come (msgpack: sized by its count); item(r, array, i) reads
 * one. *n counts the items allocated so far, for msg_free. */
static bool rd_items(rd *r, void **arr, size_t sz, size_t *n,
                     bool (*item)(rd *r, void *arr, size_t i))
{
    size_t count, cap;
    if (!rd_open(r, false, &count)) return false;
    cap = r->json ? 4 : count;
    *arr = xcalloc(cap ? cap : 1, sz);
    size_t i = 0;
    for (int more; (more = rd_more(r, false, i, count)) != 0; i++) {
        if (more < 0) return false;
        if (i == cap) {
            *arr = xrealloc(*arr, 2 * cap * sz);
            memset((char *)*arr + cap * sz, 0, cap * sz);
            cap *= 2;
        }
        *n = i + 1;
        if (!item(r, *arr, i)) return false;
    }
    *n = i;
    return true;
}

static bool name_item(rd *r, void *arr, size_t i)
{
    return rd_field(r, &((char **)arr)[i]);
}

static bool int_item(rd *r, void *arr, size_t i)
{
    return rd_int(r, &((int64_t *)arr)[i]);
}

static bool forfeit_field(rd *r, int k, void *ctx)
{
    static const char *const causes[] = {"timeout", "illegal", "crash", "protocol"};
    msg_forfeit *f = ctx;
    const char *s;
    size_t len;
    if (k == 0) return rd_int(r, &f->seat);
    if (!rd_str(r, &s, &len)) return false;
    size_t c = 0;
    while (c < 4 && !(strlen(causes[c]) == len && memcmp(causes[c], s, len) == 0))
        c++;
    if (c == 4) return false;
    memcpy(f->cause, s, len);
    f->cause[len] = '\0';
    return true;
}

/* result.forfeits[i]: exactly seat and cause (the general path: more). */
static bool forfeit_item(rd *r, void *arr, size_t i)
{
    static const key keys[] = {KEY("seat"), KEY("cause")};
    unsigned seen = 0;
    return rd_map(r, keys, 2, 0, &seen, forfeit_field, &((msg_forfeit *)arr)[i]) && seen == 3;
}

typedef struct result_ctx {
    msg_over *o;
    size_t n_scores;
} result_ctx;

static bool result_field(rd *r, int k, void *ctx)
{
    msg_over *o = ((result_ctx *)ctx)->o;
    switch (k) {
    case 0: return rd_items(r, (void **)&o->ranks, sizeof *o->ranks, &o->n_seats, int_item);
    case 1:
        return rd_items(r, (void **)&o->scores, sizeof *o->scores, &((result_ctx *)ctx)->n_scores,
                        int_item);
    case 2:
        return rd_field(r, &o->reason) &&
               (strcmp(o->reason, "normal") == 0 || strcmp(o->reason, "forfeit") == 0 ||
                strcmp(o->reason, "aborted") == 0);
    default:
        return rd_items(r, (void **)&o->forfeits, sizeof *o->forfeits, &o->n_forfeits,
                        forfeit_item);
    }
}

/* result: exactly ranks, scores, reason and forfeits. */
static bool rd_result(rd *r, msg_over *o)
{
    static const key keys[] = {KEY("ranks"), KEY("scores"), KEY("reason"), KEY("forfeits")};
    unsigned seen = 0;
    result_ctx ctx = {o, 0};
    return rd_map(r, keys, 4, 0, &seen, result_field, &ctx) && seen == 15 &&
           ctx.n_scores == o->n_seats;
}

static bool hello_field(rd *r, int k, void *ctx)
{
    msg_hello *h = ctx;
    switch (k) {
    case 1: return rd_int(r, &h->protocol);
    case 2: return rd_field(r, &h->game);
    case 3: return rd_tree(r, true, false, &h->options);
    case 4: return rd_int(r, &h->seat);
    case 5: return rd_int(r, &h->players);
    case 6: return rd_items(r, (void **)&h->names, sizeof *h->names, &h->n_names, name_item);
    case 7: return rd_field(r, &h->match);
    default: return rd_clock(r, &h->clock, true); /* k 0, type, was read: a repeat declines */
    }
}

/* The rest of a hello or over map whose first key, type, is read: item 1
 * of n on. Extra top-level keys are checked and dropped. */
static bool rd_hello(rd *r, size_t n, msg_hello *h)
{
    static const key keys[] = {KEY("type"),    KEY("protocol"), KEY("game"),
                               KEY("options"), KEY("seat"),     KEY("players"),
                               KEY("names"),   KEY("match"),    KEY("clock")};
    unsigned seen = 1;
    return rd_map_from(r, 1, n, keys, 9, 1, &seen, hello_field, h) && seen == 0x1ff;
}

static bool over_field(rd *r, int k, void *ctx)
{
    msg_over *o = ctx;
    return k == 1 ? rd_result(r, o) : rd_tree(r, true, true, &o->view);
}

static bool rd_over(rd *r, size_t n, msg_over *o)
{
    static const key keys[] = {KEY("type"), KEY("result"), KEY("view")};
    unsigned seen = 1;
    return rd_map_from(r, 1, n, keys, 3, 1, &seen, over_field, o) && seen == 7;
}

bool msg_hello_over_fast(codec_kind c, const uint8_t *p, size_t n, bool skip_state, msg *out)
{
    static const key type_key[] = {KEY("type")};
    if (c != CODEC_MSGPACK && c != CODEC_JSON) return false;
    rd r = {.p = p, .n = n, .json = c == CODEC_JSON, .skip_state = skip_state};
    size_t count, len;
    const char *s;
    if (!rd_open(&r, true, &count) || rd_more(&r, true, 0, count) != 1 ||
        rd_key(&r, type_key, 1, 0) != 0 || !rd_str(&r, &s, &len))
        return false;
    msg m;
    memset(&m, 0, sizeof m);
    bool ok;
    if (len == 5 && memcmp(s, "hello", 5) == 0) {
        m.type = MSG_HELLO;
        ok = rd_hello(&r, count, &m.u.hello);
    } else if (len == 4 && memcmp(s, "over", 4) == 0) {
        m.type = MSG_OVER;
        ok = rd_over(&r, count, &m.u.over);
    } else {
        return false;
    }
    if (!ok || r.off != n || r.values > PROTO_MAX_VALUES) {
        msg_free(&m);
        return false;
    }
    *out = m;
    return true;
}

void msg_decide_fast_release(msg *m)
{
    av_free(m->u.decide.view);
    av_free(m->u.decide.events);
    m->u.decide.view = m->u.decide.events = NULL;
}

void msg_drop_state(msg *m)
{
    if (m->type == MSG_DECIDE) {
        msg_decide_fast_release(m);
    } else if (m->type == MSG_OVER) {
        av_free(m->u.over.view);
        m->u.over.view = NULL;
    }
}

void decide_buf_free(decide_buf *b)
{
    free(b->text);
    free(b->labels);
    memset(b, 0, sizeof *b);
}
