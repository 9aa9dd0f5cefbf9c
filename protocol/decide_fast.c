/* decide straight from msgpack bytes (see decide_fast.h). Each reader
 * counts what it reads as msgpack_read.c does (every key and value is one
 * value towards PROTO_MAX_VALUES) and returns false where the general path
 * would either fail or take a path this one does not copy. */
#include "decide_fast.h"

#include <stdlib.h>
#include <string.h>

#include "utf8.h"
#include "util.h"

typedef struct rd {
    const uint8_t *p;
    size_t n, off;
    size_t values; /* as msgpack_read.c counts them */
} rd;

static uint64_t be(const uint8_t *p, size_t k)
{
    uint64_t v = 0;
    for (size_t i = 0; i < k; i++)
        v = (v << 8) | p[i];
    return v;
}

/* The lead byte of the next value, counted; false at the end. */
static bool lead(rd *r, uint8_t *b)
{
    if (r->off >= r->n) return false;
    r->values++;
    *b = r->p[r->off++];
    return true;
}

/* A k-byte big-endian length or payload. */
static bool fixed(rd *r, size_t k, uint64_t *u)
{
    if (r->n - r->off < k) return false;
    *u = be(r->p + r->off, k);
    r->off += k;
    return true;
}

/* Any integer form that msgpack_read.c reads as an integer. */
static bool rd_int(rd *r, int64_t *v)
{
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

/* A str (not bin: rare enough to leave to the general path), valid UTF-8. */
static bool rd_str(rd *r, const char **s, size_t *len)
{
    uint8_t b;
    uint64_t u;
    if (!lead(r, &b)) return false;
    if (b >= 0xa0 && b <= 0xbf)
        u = b & 0x1f;
    else if (b < 0xd9 || b > 0xdb || !fixed(r, b == 0xd9 ? 1 : b == 0xda ? 2 : 4, &u))
        return false;
    if (r->n - r->off < u || !utf8_valid(r->p + r->off, (size_t)u)) return false;
    *s = (const char *)r->p + r->off;
    *len = (size_t)u;
    r->off += (size_t)u;
    return true;
}

/* A map or list header (by is_map); the count is at most the bytes left. */
static bool rd_head(rd *r, bool is_map, size_t *count)
{
    uint8_t b;
    uint64_t u;
    if (!lead(r, &b)) return false;
    uint8_t fix = is_map ? 0x80 : 0x90, b16 = is_map ? 0xde : 0xdc;
    if ((b & 0xf0) == fix)
        u = b & 0x0f;
    else if ((b != b16 && b != b16 + 1) || !fixed(r, b == b16 ? 2 : 4, &u))
        return false;
    if (u > r->n - r->off) return false;
    *count = (size_t)u;
    return true;
}

typedef struct key {
    const char *s;
    size_t len;
} key;
#define KEY(lit)                                                                                   \
    {                                                                                              \
        "" lit, sizeof(lit) - 1                                                                    \
    }

/* A map key among the n keys; its index, or -1 for any other key (which
 * the caller declines). The referee sends keys in protocol.md's order, so
 * keys[expect] is tried first. Keys of the protocol are short fixstrs. */
static int rd_key(rd *r, const key *keys, int n, int expect)
{
    uint8_t b;
    if (!lead(r, &b) || (b & 0xe0) != 0xa0) return -1;
    size_t len = b & 0x1f;
    if (r->n - r->off < len) return -1;
    const char *k = (const char *)r->p + r->off;
    r->off += len;
    if (expect < n && keys[expect].len == len && memcmp(keys[expect].s, k, len) == 0) return expect;
    for (int i = 0; i < n; i++)
        if (keys[i].len == len && memcmp(keys[i].s, k, len) == 0) return i;
    return -1;
}

static char *dup_n(const char *s, size_t n)
{
    char *c = xmalloc(n + 1);
    memcpy(c, s, n);
    c[n] = '\0';
    return c;
}

/* A string struct field: NUL-free (the general path refuses a NUL there). */
static bool rd_field(rd *r, char **out)
{
    const char *s;
    size_t n;
    if (!rd_str(r, &s, &n) || memchr(s, 0, n)) return false;
    *out = dup_n(s, n);
    return true;
}

/* A value tree of the kind given by the next lead byte (a map or a list),
 * read by msgpack_read.c itself at nesting level 1. */
static bool rd_tree(rd *r, bool is_map, av **out)
{
    if (r->off >= r->n) return false;
    uint8_t b = r->p[r->off];
    bool ok = is_map ? ((b & 0xf0) == 0x80 || b == 0xde || b == 0xdf)
                     : ((b & 0xf0) == 0x90 || b == 0xdc || b == 0xdd);
    if (!ok) return false;
    *out = msgpack_read_value(r->p, r->n, &r->off, &r->values, 1);
    return *out != NULL;
}

static bool rd_options(rd *r, msg_decide *d)
{
    static const key keys[] = {KEY("label")};
    size_t n;
    if (!rd_head(r, false, &n)) return false;
    d->n_options = n;
    d->labels = xcalloc(n ? n : 1, sizeof *d->labels);
    for (size_t i = 0; i < n; i++) {
        size_t k;
        if (!rd_head(r, true, &k) || k != 1 || rd_key(r, keys, 1, 0) != 0 ||
            !rd_field(r, &d->labels[i]))
            return false;
    }
    return true;
}

static bool rd_pick(rd *r, msg_pick *p)
{
    static const key keys[] = {KEY("min"), KEY("max"), KEY("ordered")};
    size_t n;
    unsigned seen = 0;
    if (!rd_head(r, true, &n)) return false;
    for (size_t i = 0; i < n; i++) {
        int k = rd_key(r, keys, (int)(sizeof keys / sizeof *keys), (int)i);
        if (k < 0 || seen & (1u << k)) return false;
        seen |= 1u << k;
        uint8_t b;
        if (k == 0 && !rd_int(r, &p->min)) return false;
        if (k == 1 && !rd_int(r, &p->max)) return false;
        if (k == 2) {
            if (!lead(r, &b) || (b != 0xc2 && b != 0xc3)) return false;
            p->ordered = b == 0xc3;
        }
    }
    return seen == 7;
}

/* A nil where nil stands for absent; false if the next value is not nil. */
static bool rd_nil(rd *r)
{
    if (r->off >= r->n || r->p[r->off] != 0xc0) return false;
    r->off++;
    r->values++;
    return true;
}

static bool rd_clock(rd *r, msg_clock *c)
{
    static const key keys[] = {KEY("move_ms"), KEY("bank_ms"), KEY("game_ms"), KEY("startup_ms"),
                               KEY("mode")};
    size_t n;
    unsigned seen = 0;
    c->game_ms = c->startup_ms = -1;
    c->mode[0] = '\0';
    if (!rd_head(r, true, &n)) return false;
    for (size_t i = 0; i < n; i++) {
        int k = rd_key(r, keys, (int)(sizeof keys / sizeof *keys), (int)i);
        if (k < 0 || seen & (1u << k)) return false;
        seen |= 1u << k;
        bool ok;
        switch (k) {
        case 0: ok = rd_int(r, &c->move_ms); break;
        case 1: ok = rd_int(r, &c->bank_ms); break;
        case 2: ok = rd_nil(r) || (rd_int(r, &c->game_ms) && c->game_ms >= 0); break;
        case 3: ok = rd_nil(r) || rd_int(r, &c->startup_ms); break;
        default: ok = rd_nil(r); break; /* a mode in decide: general path */
        }
        if (!ok) return false;
    }
    return (seen & 3) == 3;
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

static bool rd_decide(rd *r, msg_decide *d)
{
    static const key keys[] = {KEY("type"),   KEY("id"),      KEY("kind"),
                               KEY("prompt"), KEY("options"), KEY("pick"),
                               KEY("view"),   KEY("events"),  KEY("clock")};
    size_t n;
    unsigned seen = 0;
    if (!rd_head(r, true, &n)) return false;
    for (size_t i = 0; i < n; i++) {
        int k = rd_key(r, keys, (int)(sizeof keys / sizeof *keys), (int)i);
        if (k < 0 || seen & (1u << k)) return false;
        seen |= 1u << k;
        const char *s;
        size_t len;
        int64_t id;
        bool ok;
        switch (k) {
        case K_TYPE: ok = rd_str(r, &s, &len) && len == 6 && memcmp(s, "decide", 6) == 0; break;
        case K_ID:
            ok = rd_int(r, &id) && id >= 0;
            d->id = (uint64_t)id;
            break;
        case K_KIND: ok = rd_field(r, &d->kind); break;
        case K_PROMPT: /* free text: cut at a NUL, as the general path does */
            if ((ok = rd_str(r, &s, &len))) {
                const char *nul = memchr(s, 0, len);
                d->prompt = dup_n(s, nul ? (size_t)(nul - s) : len);
            }
            break;
        case K_OPTIONS: ok = rd_options(r, d); break;
        case K_PICK: ok = rd_pick(r, &d->pick); break;
        case K_VIEW: ok = rd_tree(r, true, &d->view); break;
        case K_EVENTS: ok = rd_tree(r, false, &d->events); break;
        default: ok = rd_clock(r, &d->clock); break;
        }
        if (!ok) return false;
    }
    return seen == K_ALL;
}

bool msg_decide_fast(codec_kind c, const uint8_t *p, size_t n, msg *out)
{
    if (c != CODEC_MSGPACK) return false;
    rd r = {.p = p, .n = n};
    msg m;
    memset(&m, 0, sizeof m);
    m.type = MSG_DECIDE;
    if (!rd_decide(&r, &m.u.decide) || r.off != n || r.values > PROTO_MAX_VALUES) {
        msg_free(&m);
        return false;
    }
    *out = m;
    return true;
}
