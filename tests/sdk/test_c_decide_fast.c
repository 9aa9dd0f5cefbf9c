/* The C SDK's fast path for decide (protocol/decide_fast.c) against the
 * general path it short-cuts (msgpack_decode, then msg_decode_take):
 *
 *  - for real decide frames of every game, and for many mutated and broken
 *    ones, the SDK's read step gives exactly what the general path gives:
 *    the same message (deep compare, view and events included) or the same
 *    error text; every unmutated frame takes the fast path;
 *  - hello and over, which have a fast path too (msg_hello_over_fast): the
 *    same message or the same error, for real settings and views of every
 *    game and mutations of them;
 *  - the same with skip_state (view and events checked, not built): the
 *    same verdict, frame by frame, and the same message but for view and
 *    events, which are NULL; the fast path's strings live in buffers reused
 *    from frame to frame;
 *  - act and ready written straight into the output buffer are byte for byte what
 *    codec_encode writes for msg_encode's tree, in both codecs, through the
 *    whole SDK loop, and the bot sees every decide as sent (with
 *    skip_state: without view and events, also when a JSON decide with
 *    whitespace takes the general path). */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "arena_bot.h"
#include "decide.h"
#include "decide_fast.h"
#include "game.h"
#include "policy.h"
#include "rng.h"

/* ------------------------------------------------------------ compare */

static void same_str(const char *what, const char *a, const char *b)
{
    if ((a == NULL) != (b == NULL) || (a && strcmp(a, b) != 0))
        fail_msg("%s differs: '%s' vs '%s'", what, a ? a : "(null)", b ? b : "(null)");
}

static void same_clock(const msg_clock *a, const msg_clock *b)
{
    assert_int_equal(a->move_ms, b->move_ms);
    assert_int_equal(a->bank_ms, b->bank_ms);
    assert_int_equal(a->game_ms, b->game_ms);
    assert_int_equal(a->startup_ms, b->startup_ms);
    same_str("clock.mode", a->mode, b->mode);
}

/* a as b; with state false a has no view and events (b's are not looked at). */
static void same_decide(const msg_decide *a, const msg_decide *b, bool state)
{
    assert_true(a->id == b->id);
    same_str("kind", a->kind, b->kind);
    same_str("prompt", a->prompt, b->prompt);
    assert_int_equal(a->n_options, b->n_options);
    for (size_t i = 0; i < a->n_options; i++)
        same_str("label", a->labels[i], b->labels[i]);
    assert_int_equal(a->pick.min, b->pick.min);
    assert_int_equal(a->pick.max, b->pick.max);
    assert_int_equal(a->pick.ordered, b->pick.ordered);
    same_clock(&a->clock, &b->clock);
    if (!state) {
        assert_null(a->view);
        assert_null(a->events);
        return;
    }
    assert_non_null(a->view);
    assert_non_null(b->view);
    assert_true(av_equal(a->view, b->view));
    assert_non_null(a->events);
    assert_non_null(b->events);
    assert_true(av_equal(a->events, b->events));
}

/* ------------------------------------------------------- the read step */

/* The fast path's string buffers, one per mode, reused by every read (as
 * the SDK reuses its one), freed at the end. */
static decide_buf bufs[2];

typedef enum { GENERAL, FAST, FAST_SKIP_STATE } read_mode;

typedef struct fast_ctx {
    bool skip_state;
    msg *out;
} fast_ctx;

/* As arena_bot.c reads: decide, else hello or over. */
static bool fast_cb(void *ctx, codec_kind c, const uint8_t *p, size_t n)
{
    fast_ctx *f = ctx;
    return msg_decide_fast(c, p, n, f->skip_state, &bufs[f->skip_state], f->out) ||
           msg_hello_over_fast(c, p, n, f->skip_state, f->out);
}

/* Two messages with the same msgpack encoding of msg_encode's tree. */
static void same_msg(const msg *a, const msg *b)
{
    assert_int_equal(a->type, b->type);
    av *x = msg_encode(a), *y = msg_encode(b);
    abuf bx = {0}, by = {0};
    codec_encode(CODEC_MSGPACK, x, &bx);
    codec_encode(CODEC_MSGPACK, y, &by);
    if (bx.len != by.len || memcmp(bx.data, by.data, bx.len) != 0)
        fail_msg("%s differs", msg_type_name(a->type));
    abuf_free(&bx);
    abuf_free(&by);
    av_free(x);
    av_free(y);
}

typedef struct outcome {
    int rc; /* 1 message, 0 incomplete, -1 error */
    bool fast;
    msg m;
    char err[300];
    size_t pending;
} outcome;

static void outcome_free(outcome *o)
{
    if (o->rc != 1) return;
    if (o->fast && o->m.type == MSG_DECIDE)
        msg_decide_fast_release(&o->m);
    else
        msg_free(&o->m);
}

/* What the SDK's read step makes of one framed buffer: with the fast path
 * as arena_bot.c runs it (with or without skip_state), or through the
 * general path alone. */
static void read_step(codec_kind c, const uint8_t *frame, size_t n, read_mode mode, outcome *o)
{
    memset(o, 0, sizeof *o);
    frame_decoder d;
    frame_decoder_init(&d, 0, c);
    frame_decoder_feed(&d, frame, n);
    av *map = NULL;
    fast_ctx f = {mode == FAST_SKIP_STATE, &o->m};
    int r = mode != GENERAL ? frame_decoder_next_fast(&d, fast_cb, &f, &map)
                            : frame_decoder_next(&d, &map);
    if (r < 0) {
        o->rc = -1;
        snprintf(o->err, sizeof o->err, "frame: %s", d.error);
    } else if (r == 2) {
        o->rc = 1;
        o->fast = true;
    } else if (r == 1) {
        char why[200] = "";
        o->rc = msg_decode_take(map, &o->m, why, sizeof why) < 0 ? -1 : 1;
        if (o->rc < 0) snprintf(o->err, sizeof o->err, "message: %s", why);
        av_free(map);
        /* arena_bot.c drops a declined message's state with skip_state */
        if (o->rc == 1 && mode == FAST_SKIP_STATE) msg_drop_state(&o->m);
    }
    o->pending = frame_decoder_pending(&d);
    frame_decoder_free(&d);
}

typedef struct tally {
    int frames, fast, errors;
} tally;

/* Checks one payload of the codec (framed here); returns whether the fast
 * path took it. */
static bool check_payload(codec_kind c, const uint8_t *p, size_t n, tally *t)
{
    uint8_t *frame = malloc(n + 4);
    size_t len = n + 4;
    if (c == CODEC_JSON) {
        memcpy(frame, p, n);
        frame[n] = '\n';
        len = n + 1;
    } else {
        frame[0] = (uint8_t)(n >> 24), frame[1] = (uint8_t)(n >> 16);
        frame[2] = (uint8_t)(n >> 8), frame[3] = (uint8_t)n;
        memcpy(frame + 4, p, n);
    }
    outcome a, b, s;
    read_step(c, frame, len, FAST, &a);
    read_step(c, frame, len, GENERAL, &b);
    read_step(c, frame, len, FAST_SKIP_STATE, &s);
    assert_int_equal(a.rc, b.rc);
    same_str("error", a.err, b.err);
    assert_int_equal(a.pending, b.pending);
    /* skip_state: the same verdict as building view and events */
    assert_int_equal(s.rc, b.rc);
    same_str("error (skip_state)", s.err, b.err);
    assert_int_equal(s.pending, b.pending);
    assert_int_equal(s.fast, a.fast);
    if (a.rc == 1) {
        assert_int_equal(a.m.type, b.m.type);
        assert_int_equal(s.m.type, b.m.type);
        if (a.m.type == MSG_DECIDE) {
            same_decide(&a.m.u.decide, &b.m.u.decide, true);
            same_decide(&s.m.u.decide, &b.m.u.decide, false);
        } else if (a.m.type == MSG_OVER) {
            same_msg(&a.m, &b.m);
            /* skip_state: the same but for the view, not built */
            assert_null(s.m.u.over.view);
            s.m.u.over.view = b.m.u.over.view;
            same_msg(&s.m, &b.m);
            s.m.u.over.view = NULL;
        } else {
            same_msg(&a.m, &b.m);
            same_msg(&s.m, &b.m);
        }
    }
    outcome_free(&a);
    outcome_free(&b);
    outcome_free(&s);
    t->frames++;
    t->fast += a.fast;
    t->errors += a.rc < 0;
    free(frame);
    return a.fast;
}

/* The payload codec_encode writes for tree: msgpack without its length,
 * JSON without its newline. */
static void payload_of(codec_kind c, const av *tree, abuf *b)
{
    codec_encode(c, tree, b);
    if (c == CODEC_JSON) {
        b->len--;
    } else {
        memmove(b->data, b->data + 4, b->len - 4);
        b->len -= 4;
    }
}

static bool check_payload_of(codec_kind c, const av *tree, tally *t)
{
    abuf b = {0};
    payload_of(c, tree, &b);
    bool fast = check_payload(c, b.data, b.len, t);
    abuf_free(&b);
    return fast;
}

static void check_tree(codec_kind c, const av *tree, tally *t, bool want_fast)
{
    if (!check_payload_of(c, tree, t) && want_fast)
        fail_msg("a well-formed %s message missed the fast path: %s", codec_name(c),
                 av_to_json(tree));
}

/* ------------------------------------------------------------ mutation */

/* An int that often sits on a msgpack form's boundary. */
static int64_t edgy_int(arena_rng *r)
{
    static const int64_t edges[] = {
        0,  1,   31,  32,   127,  128,    255,    256,           65535,     65536,     4294967295,
        -1, -32, -33, -128, -129, -32768, -32769, -2147483649LL, INT64_MAX, INT64_MIN, 1000};
    if (arena_rng_below(r, 3) == 0) return (int64_t)arena_rng_next(r);
    return edges[arena_rng_below(r, sizeof edges / sizeof *edges)];
}

/* A clock duration: edgy_int, never negative (the protocol's rule). */
static int64_t edgy_ms(arena_rng *r)
{
    int64_t i = edgy_int(r);
    return i < 0 ? -(i + 1) : i;
}

static av *odd_value(arena_rng *r)
{
    switch (arena_rng_below(r, 9)) {
    case 0: return av_nil();
    case 1: return av_int(edgy_int(r));
    case 2: return av_strn("a\0b", 3);
    case 3: return av_float(1.5);
    case 4: return av_list();
    case 5: return av_map();
    case 6: return av_bool(true);
    case 7: return av_str("wall");
    default: return av_str("caf\xc3\xa9");
    }
}

/* A copy of map with its keys in a random order. */
static av *shuffled(const av *map, arena_rng *r)
{
    size_t n = map->u.map.len, *ix = malloc((n ? n : 1) * sizeof *ix);
    for (size_t i = 0; i < n; i++)
        ix[i] = i;
    for (size_t i = n; i > 1; i--) {
        size_t j = arena_rng_below(r, (uint32_t)i), x = ix[i - 1];
        ix[i - 1] = ix[j], ix[j] = x;
    }
    av *out = av_map();
    for (size_t i = 0; i < n; i++)
        av_set(out, map->u.map.keys[ix[i]], av_copy(map->u.map.vals[ix[i]]));
    free(ix);
    return out;
}

/* One structural change of a decide tree (which stays owned by the caller). */
static av *mutate_tree(const av *tree, arena_rng *r)
{
    static const char *const top[] = {"type", "id",   "kind",   "prompt", "options",
                                      "pick", "view", "events", "clock"};
    av *m = av_copy(tree);
    const char *k = top[arena_rng_below(r, 9)];
    av *pick = (av *)av_get(m, "pick"), *clk = (av *)av_get(m, "clock");
    av *opts = (av *)av_get(m, "options");
    switch (arena_rng_below(r, 14)) {
    case 0: av_free(av_take(m, k)); break;
    case 1: av_set(m, k, odd_value(r)); break;
    case 2: av_set(m, "extra", odd_value(r)); break;
    case 3:
        av_set(pick, (const char *[]){"min", "max", "ordered"}[arena_rng_below(r, 3)],
               odd_value(r));
        break;
    case 4:
        av_free(av_take(pick, (const char *[]){"min", "max", "ordered"}[arena_rng_below(r, 3)]));
        break;
    case 5:
        av_set(clk,
               (const char *[]){"move_ms", "bank_ms", "game_ms", "startup_ms",
                                "mode"}[arena_rng_below(r, 5)],
               odd_value(r));
        break;
    case 6:
        av_free(
            av_take(clk, (const char *[]){"move_ms", "bank_ms", "game_ms"}[arena_rng_below(r, 3)]));
        break;
    case 7: av_set(m, "id", av_int(edgy_int(r))); break;
    case 8: av_set(m, "prompt", av_strn("before\0after", 12)); break;
    case 9: av_set(m, "kind", av_strn("ki\0nd", 5)); break;
    case 10:
        if (av_len(opts) > 0) {
            av *o = opts->u.list.items[arena_rng_below(r, (uint32_t)av_len(opts))];
            if (arena_rng_below(r, 2))
                av_set(o, "label", odd_value(r));
            else
                av_set(o, "card", av_str("extra key"));
        }
        break;
    case 11:
        if (av_len(opts) > 0) {
            size_t i = arena_rng_below(r, (uint32_t)av_len(opts));
            av_free(opts->u.list.items[i]);
            opts->u.list.items[i] = odd_value(r);
        }
        break;
    case 12:
        av_set(
            m, "type",
            av_str((const char *[]){"hello", "over", "decidE", "decide"}[arena_rng_below(r, 4)]));
        break;
    default:
        av_set(clk, "startup_ms", arena_rng_below(r, 2) ? av_nil() : av_int(edgy_ms(r)));
        break;
    }
    av *s = shuffled(m, r);
    av_free(m);
    return s;
}

/* Where the value of top-level key k starts in a payload written by
 * codec_encode (keys are fixstrs), or 0. */
static size_t value_at(const uint8_t *p, size_t n, const char *k)
{
    size_t kl = strlen(k);
    for (size_t i = 1; i + 1 + kl < n; i++)
        if (p[i] == (0xa0 | kl) && memcmp(p + i + 1, k, kl) == 0) return i + 1 + kl;
    return 0;
}

/* Byte-level changes: the forms codec_encode never writes (wider ints and
 * strs, map16), repeated keys, and random damage. Writes into out (room for
 * n + 16 bytes); returns the new length. */
static size_t mutate_bytes(const uint8_t *p, size_t n, uint8_t *out, arena_rng *r)
{
    static const uint8_t leads[] = {0x00, 0x7f, 0x80, 0x81, 0x89, 0x8a, 0x90, 0x91, 0xa0,
                                    0xa5, 0xc0, 0xc1, 0xc2, 0xc3, 0xc4, 0xca, 0xcc, 0xcf,
                                    0xd3, 0xd9, 0xdc, 0xde, 0xdf, 0xe0, 0xff};
    memcpy(out, p, n);
    size_t at = arena_rng_below(r, (uint32_t)n);
    switch (arena_rng_below(r, 8)) {
    case 0: out[at] = (uint8_t)arena_rng_next(r); return n;
    case 1: out[at] = leads[arena_rng_below(r, sizeof leads)]; return n;
    case 2: return at; /* truncated */
    case 3: memmove(out + at, out + at + 1, n - at - 1); return n - 1;
    case 4:
        memmove(out + at + 1, out + at, n - at);
        out[at] = leads[arena_rng_below(r, sizeof leads)];
        return n + 1;
    case 5: { /* a fixint value widened (same number) */
        const char *k = (const char *[]){"id", "min", "max", "move_ms"}[arena_rng_below(r, 4)];
        size_t v = value_at(p, n, k);
        if (!v || p[v] > 0x7f) return n;
        static const uint8_t wide[] = {0xcc, 0xcd, 0xce, 0xcf, 0xd0, 0xd1, 0xd2, 0xd3};
        uint8_t w = wide[arena_rng_below(r, 8)];
        size_t len = (size_t)1 << ((w - 0xcc) & 3);
        out[v] = w;
        memset(out + v + 1, 0, len);
        out[v + len] = p[v];
        memcpy(out + v + 1 + len, p + v + 1, n - v - 1);
        return n + len;
    }
    case 6: { /* a fixstr value as str8, str16 or bin8 */
        const char *k = (const char *[]){"type", "kind", "prompt"}[arena_rng_below(r, 3)];
        size_t v = value_at(p, n, k);
        if (!v || (p[v] & 0xe0) != 0xa0) return n;
        uint8_t form = (uint8_t[]){0xd9, 0xda, 0xc4}[arena_rng_below(r, 3)];
        size_t extra = form == 0xda ? 2 : 1;
        out[v] = form;
        if (form == 0xda) out[v + 1] = 0;
        out[v + extra] = p[v] & 0x1f;
        memcpy(out + v + 1 + extra, p + v + 1, n - v - 1);
        return n + extra;
    }
    default: { /* a repeated or unknown key at the end (fixmap count + 1) */
        if (p[0] != 0x89) return n;
        out[0] = 0x8a;
        static const uint8_t tails[][8] = {{0xa2, 'i', 'd', 0x05},
                                           {0xa4, 'k', 'i', 'n', 'd', 0xa1, 'x'},
                                           {0xa2, 'z', 'z', 0xc0},
                                           {0xa4, 't', 'y', 'p', 'e', 0xa2, 'h', 'i'},
                                           {0xa4, 'v', 'i', 'e', 'w', 0x80}};
        static const size_t lens[] = {4, 7, 4, 8, 6};
        size_t i = arena_rng_below(r, 5);
        memcpy(out + n, tails[i], lens[i]);
        return n + lens[i];
    }
    }
}

/* JSON text changes: whitespace, escapes, number forms the referee does
 * not write, and random damage. Writes into out (room for n + 16 bytes). */
static size_t mutate_json(const uint8_t *p, size_t n, uint8_t *out, arena_rng *r)
{
    static const char *const bits[] = {" ",    "\t",       "\r\n", "\\u0061",
                                       "\\n",  "\\u0000",  ".0",   "e1",
                                       "0",    "-",        "00",   "12345678901234567890",
                                       "\"",   ",",        "}",    "]",
                                       "null", "\xc3\xa9", "\xff", "\x01"};
    size_t at = arena_rng_below(r, (uint32_t)n + 1);
    switch (arena_rng_below(r, 4)) {
    case 0: { /* insert */
        const char *b = bits[arena_rng_below(r, sizeof bits / sizeof *bits)];
        size_t k = strlen(b);
        memcpy(out, p, at);
        memcpy(out + at, b, k);
        memcpy(out + at + k, p + at, n - at);
        return n + k;
    }
    case 1: /* delete */
        memcpy(out, p, n);
        if (at < n) memmove(out + at, out + at + 1, n - at - 1);
        return at < n ? n - 1 : n;
    case 2: /* truncate */ memcpy(out, p, at); return at;
    default: /* overwrite */
        memcpy(out, p, n);
        if (at < n) out[at] = (uint8_t) "{}[]\":,0123456789-.eEtfn a\\"[arena_rng_below(r, 27)];
        return n;
    }
}

/* --------------------------------------------------------------- games */

typedef void (*on_decide_tree)(const av *tree, arena_rng *r, void *ctx);

/* Plays random games of every game and hands each decide tree to fn. */
static int each_decide(int per_game, on_decide_tree fn, void *ctx)
{
    int total = 0;
    for (const arena_game_vt *const *v = arena_games(true); *v; v++) {
        const arena_game_vt *vt = *v;
        for (uint64_t seed = 1; seed <= 2; seed++) {
            char err[200] = "";
            int players = seed % 2 ? vt->min_players : vt->max_players;
            arena_game *g = vt->create(NULL, 0, seed * 7919, players, 0, err, sizeof err);
            if (!g) fail_msg("%s with %d players: %s", vt->name, players, err);
            arena_rng r;
            arena_rng_seed(&r, seed);
            size_t cursor[ARENA_MAX_SEATS] = {0};
            int *choice = NULL;
            arena_decision d;
            for (int k = 0; k < per_game && vt->decision(g, &d); k++, total++) {
                av *events = av_list();
                size_t ne = vt->event_count(g);
                for (size_t i = cursor[d.seat]; i < ne; i++) {
                    const av *e = vt->event(g, i, d.seat);
                    if (e) av_push(events, av_copy(e));
                }
                cursor[d.seat] = ne;
                decide_clock c = {edgy_ms(&r), edgy_ms(&r), edgy_ms(&r)};
                if (arena_rng_below(&r, 3) == 0) c.game_ms = -1;
                uint64_t id = arena_rng_below(&r, 2) ? (uint64_t)k + 1 : arena_rng_next(&r) >> 1;
                av *tree = decide_tree(vt, g, &d, id, events, &c);
                fn(tree, &r, ctx);
                av_free(tree);
                choice = realloc(choice, (size_t)d.n_options * sizeof *choice);
                assert_true(vt->apply(g, choice, arena_random_choice(&r, &d, choice)));
            }
            free(choice);
            vt->free(g);
        }
    }
    return total;
}

static void diff_one(const av *tree, arena_rng *r, void *ctx)
{
    tally *t = ctx;
    for (int k = 0; k < 2; k++) {
        codec_kind c = k ? CODEC_JSON : CODEC_MSGPACK;
        check_tree(c, tree, &t[k], true);
        for (int i = 0; i < 4; i++) {
            av *m = mutate_tree(tree, r);
            check_tree(c, m, &t[k], false);
            av_free(m);
        }
        abuf b = {0};
        payload_of(c, tree, &b);
        uint8_t *out = malloc(b.len + 32);
        for (int i = 0; i < 8; i++) {
            size_t n = c == CODEC_JSON ? mutate_json(b.data, b.len, out, r)
                                       : mutate_bytes(b.data, b.len, out, r);
            check_payload(c, out, n, &t[k]);
        }
        free(out);
        abuf_free(&b);
    }
}

static void test_fast_decide_same_as_general_path(void **st)
{
    (void)st;
    tally t[2] = {{0}, {0}}; /* msgpack, JSON */
    int decides = each_decide(150, diff_one, t);
    assert_true(decides >= 4 * 2 * 10);
    for (int k = 0; k < 2; k++) {
        print_message("%s: %d decides, %d frames: %d fast, %d errors\n", k ? "json" : "msgpack",
                      decides, t[k].frames, t[k].fast, t[k].errors);
        /* every unmutated frame took the fast path, and the mutations
         * reached both sides: some still taken, many refused */
        assert_true(t[k].fast > decides);
        assert_true(t[k].errors > decides);
        assert_true(t[k].frames - t[k].fast - t[k].errors > 0); /* declined, yet valid */
    }
}

/* One structural change anywhere in a hello or over tree (its maps down to
 * the third level: clock, result, a forfeit, the first level of options
 * and view): a key dropped, set to an odd value, or added, or a list in it
 * (ranks, scores, names, forfeits...) one item longer. */
static av *mutate_any(const av *tree, arena_rng *r)
{
    static const char *const names[] = {
        "type",  "protocol", "game",  "options", "seat",    "players",   "names",  "match",
        "clock", "move_ms",  "mode",  "result",  "ranks",   "scores",    "reason", "forfeits",
        "cause", "view",     "extra", "game_ms", "bank_ms", "startup_ms"};
    av *m = av_copy(tree);
    av *maps[64];
    size_t n = 0;
    maps[n++] = m;
    for (size_t i = 0; i < n && n < 60; i++) {
        av *x = maps[i];
        size_t len = x->type == AV_MAP ? x->u.map.len : x->u.list.len;
        for (size_t j = 0; j < len && n < 60; j++) {
            av *v = x->type == AV_MAP ? x->u.map.vals[j] : x->u.list.items[j];
            if ((v->type == AV_MAP || v->type == AV_LIST) && i < 8) maps[n++] = v;
        }
    }
    av *at;
    do
        at = maps[arena_rng_below(r, (uint32_t)n)];
    while (at->type != AV_MAP);
    const char *k = names[arena_rng_below(r, sizeof names / sizeof *names)];
    switch (arena_rng_below(r, 4)) {
    case 3:
        for (size_t i = 0; i < at->u.map.len; i++)
            if (at->u.map.vals[i]->type == AV_LIST && arena_rng_below(r, 2)) {
                av *l = at->u.map.vals[i];
                av_push(l, av_len(l) && arena_rng_below(r, 2) ? av_copy(l->u.list.items[0])
                                                              : odd_value(r));
                break;
            }
        break;
    case 0:
        if (at->u.map.len)
            av_free(av_take(at, at->u.map.keys[arena_rng_below(r, (uint32_t)at->u.map.len)]));
        break;
    case 1:
        if (at->u.map.len)
            av_set(at, at->u.map.keys[arena_rng_below(r, (uint32_t)at->u.map.len)], odd_value(r));
        break;
    default: av_set(at, k, odd_value(r)); break;
    }
    av *s = shuffled(m, r);
    av_free(m);
    return s;
}

static void hello_over_one(const av *tree, arena_rng *r, tally *t)
{
    for (int k = 0; k < 2; k++) {
        codec_kind c = k ? CODEC_JSON : CODEC_MSGPACK;
        check_tree(c, tree, &t[k], true);
        for (int i = 0; i < 6; i++) {
            av *m = mutate_any(tree, r);
            check_tree(c, m, &t[k], false);
            av_free(m);
        }
        abuf b = {0};
        payload_of(c, tree, &b);
        uint8_t *out = malloc(b.len + 32);
        for (int i = 0; i < 8; i++) {
            size_t n = c == CODEC_JSON ? mutate_json(b.data, b.len, out, r)
                                       : mutate_bytes(b.data, b.len, out, r);
            check_payload(c, out, n, &t[k]);
        }
        free(out);
        abuf_free(&b);
    }
}

/* hello and over as the referee writes them (msg_encode), with every
 * game's settings and end views, seats and results of every shape. */
static void test_fast_hello_over_same_as_general_path(void **st)
{
    (void)st;
    static const char *const reasons[] = {"normal", "forfeit", "aborted"};
    static const char *const causes[] = {"timeout", "illegal", "crash", "protocol"};
    tally t[2] = {{0}, {0}};
    arena_rng r;
    arena_rng_seed(&r, 11);
    int messages = 0;
    for (const arena_game_vt *const *v = arena_games(true); *v; v++) {
        const arena_game_vt *vt = *v;
        for (uint64_t seed = 1; seed <= 3; seed++) {
            char err[200] = "";
            int players = seed % 2 ? vt->min_players : vt->max_players;
            arena_game *g = vt->create(NULL, 0, seed * 31, players, 0, err, sizeof err);
            if (!g) fail_msg("%s: %s", vt->name, err);
            int *choice = NULL;
            arena_decision d;
            for (int k = 0; k < 400 && vt->decision(g, &d); k++) {
                choice = realloc(choice, (size_t)d.n_options * sizeof *choice);
                assert_true(vt->apply(g, choice, arena_random_choice(&r, &d, choice)));
            }
            free(choice);
            char *names[ARENA_MAX_SEATS];
            for (int i = 0; i < players; i++)
                names[i] = i % 2 ? "b\xc3\xa9" : "a";
            av *options = vt->settings(g);
            msg h = {.type = MSG_HELLO,
                     .u.hello = {.protocol = PROTOCOL_VERSION,
                                 .game = (char *)vt->name,
                                 .options = options,
                                 .seat = (int64_t)(seed % (uint64_t)players),
                                 .players = players,
                                 .names = names,
                                 .n_names = (size_t)players,
                                 .match = "m-0123456789abcdef",
                                 .clock = {edgy_ms(&r), edgy_ms(&r), seed == 2 ? -1 : 5,
                                           (int64_t)arena_rng_below(&r, 100000), "wall"}}};
            if (seed == 3) strcpy(h.u.hello.clock.mode, "cpu");
            int64_t ranks[ARENA_MAX_SEATS], scores[ARENA_MAX_SEATS];
            msg_forfeit ff[2] = {{0, "timeout"}, {1, "crash"}};
            for (int i = 0; i < players; i++)
                ranks[i] = i + 1, scores[i] = edgy_int(&r);
            for (int i = 0; i < 2; i++) {
                ff[i].seat = edgy_int(&r);
                strcpy(ff[i].cause, causes[arena_rng_below(&r, 4)]);
            }
            msg o = {.type = MSG_OVER,
                     .u.over = {.ranks = ranks,
                                .scores = scores,
                                .n_seats = (size_t)players,
                                .reason = (char *)reasons[seed - 1],
                                .forfeits = ff,
                                .n_forfeits = seed - 1,
                                .view = arena_view_tree(vt, g, (int)(seed % (uint64_t)players))}};
            av *trees[2] = {msg_encode(&h), msg_encode(&o)};
            for (int i = 0; i < 2; i++) {
                hello_over_one(trees[i], &r, t);
                av_free(trees[i]);
                messages++;
            }
            av_free(options);
            av_free(o.u.over.view);
            vt->free(g);
        }
    }
    for (int k = 0; k < 2; k++) {
        print_message("%s: %d hellos and overs, %d frames: %d fast, %d errors\n",
                      k ? "json" : "msgpack", messages, t[k].frames, t[k].fast, t[k].errors);
        assert_true(t[k].fast > messages);
        assert_true(t[k].errors > messages);
        assert_true(t[k].frames - t[k].fast - t[k].errors > 0); /* declined, yet valid */
    }
}

/* A small decide with 20 options (a list16 in msgpack). */
/* A two-seat nim hello as the referee writes it. */
static av *small_hello(void)
{
    char *names[] = {"a", "b"};
    msg hello = {
        .type = MSG_HELLO,
        .u.hello = {
            .protocol = PROTOCOL_VERSION,
            .game = "nim",
            .options = av_map(),
            .seat = 0,
            .players = 2,
            .names = names,
            .n_names = 2,
            .match = "m",
            .clock = {.move_ms = 1, .bank_ms = 2, .game_ms = -1, .startup_ms = 3, .mode = "cpu"}}};
    av *t = msg_encode(&hello);
    av_free(hello.u.hello.options);
    return t;
}

static av *small_decide(void)
{
    av *base = av_map();
    av_set_str(base, "type", "decide");
    av_set_int(base, "id", 7);
    av_set_str(base, "kind", "k");
    av_set_str(base, "prompt", "p");
    av *opts = av_list();
    for (int i = 0; i < 20; i++) /* list16 when > 15 */
        av_push(opts, av_set_str(av_map(), "label", i % 2 ? "x" : ""));
    av_set(base, "options", opts);
    av_set(base, "pick",
           av_set_bool(av_set_int(av_set_int(av_map(), "min", 0), "max", 2), "ordered", true));
    av_set(base, "view", av_map());
    av_set(base, "events", av_list());
    av_set(base, "clock", av_set_int(av_set_int(av_map(), "move_ms", 5), "bank_ms", 0));
    return base;
}

/* Odd shapes the general path accepts, checked one by one. */
static void test_fast_decide_edge_shapes(void **st)
{
    (void)st;
    tally t = {0};
    av *base = small_decide();
    for (int k = 0; k < 2; k++) {
        codec_kind codec = k ? CODEC_JSON : CODEC_MSGPACK;
        check_tree(codec, base, &t, true); /* no game_ms: nil */
        av *c = av_copy(base);
        av_set(
            c, "clock",
            av_set(av_set_int(av_set_int(av_map(), "bank_ms", 1), "move_ms", 2), "mode", av_nil()));
        check_tree(codec, c, &t, true);
        av_set((av *)av_get(c, "clock"), "startup_ms", av_int(99));
        check_tree(codec, c, &t, true);
        av_set((av *)av_get(c, "clock"), "mode", av_str("cpu")); /* general path only */
        assert_false(check_payload_of(codec, c, &t));
        av_free(c);
        c = av_copy(base);
        av_set(c, "prompt", av_strn("cut\0here", 8)); /* JSON: an escape, general path */
        assert_int_equal(check_payload_of(codec, c, &t), codec == CODEC_MSGPACK);
        av_set(c, "kind", av_str("bad \xff utf-8"));
        assert_false(check_payload_of(codec, c, &t));
        av_free(c);

        /* around PROTO_MAX_VALUES, where the clock after the events is the
         * value past the limit */
        int taken = 0, refused = 0;
        for (int n = PROTO_MAX_VALUES - 94; n < PROTO_MAX_VALUES - 86; n++) {
            c = av_copy(base);
            av *evs = av_list();
            for (int i = 0; i < n; i++)
                av_push(evs, av_int(i));
            av_set(c, "events", evs);
            int errors = t.errors;
            taken += check_payload_of(codec, c, &t);
            refused += t.errors > errors;
            av_free(c);
        }
        assert_true(taken > 0 && refused > 0);
    }

    /* extra keys, at the top and in an option: read, checked, dropped */
    av *deep = av_list();
    for (int i = 0; i < 40; i++)
        deep = av_push(av_list(), deep);
    const av *deep_at[40];
    deep_at[0] = deep;
    for (int i = 1; i < 40; i++)
        deep_at[i] = deep_at[i - 1]->u.list.items[0];
    for (int k = 0; k < 2; k++) {
        codec_kind codec = k ? CODEC_JSON : CODEC_MSGPACK;
        for (int where = 0; where < 2; where++) {
            for (int what = 0; what < 12; what++) {
                av *m = av_copy(base);
                av *in = where ? ((av *)av_get(m, "options"))->u.list.items[3] : m;
                const char *key = what == 1 ? "k\xff" : what == 2 ? "k_nul" : "extra";
                av *val = what == 0  ? av_str("bad \xff")
                          : what < 3 ? av_int(1)
                                     : av_copy(deep_at[40 - 24 - what]);
                av_set(in, key, val);
                bool fast = check_payload_of(codec, m, &t);
                if (what == 3) assert_true(fast); /* 28 levels: fine anywhere */
                abuf b = {0};
                payload_of(codec, m, &b);
                if (what == 2 && codec == CODEC_MSGPACK) { /* a NUL inside the key */
                    uint8_t *at = memmem(b.data, b.len, "k_nul", 5);
                    assert_non_null(at);
                    at[1] = 0;
                    assert_false(check_payload(codec, b.data, b.len, &t));
                }
                if (what == 4 && where == 1) { /* "extra" renamed "label": a repeat */
                    uint8_t *at = memmem(b.data, b.len, "extra", 5);
                    assert_non_null(at);
                    memcpy(at, "label", 5);
                    check_payload(codec, b.data, b.len, &t);
                }
                abuf_free(&b);
                av_free(m);
            }
        }
    }
    av_free(deep);

    /* JSON number forms in place of "id":7 and "move_ms":5 */
    static const char *const nums[] = {"7.0",
                                       "7e0",
                                       "7E+0",
                                       "07",
                                       "-0",
                                       "0",
                                       "-",
                                       "9223372036854775807",
                                       "9223372036854775808",
                                       "-9223372036854775808",
                                       "-9223372036854775809",
                                       "12345678901234567890",
                                       "1e400",
                                       "999999999999999999",
                                       "-1",
                                       "1.5"};
    abuf j = {0};
    payload_of(CODEC_JSON, base, &j);
    for (int f = 0; f < 2; f++) {
        const char *at = f ? "\"move_ms\":5" : "\"id\":7";
        const char *hit = strstr((const char *)j.data, at);
        assert_non_null(hit);
        size_t pre = (size_t)(hit - (const char *)j.data) + strcspn(at, ":") + 1;
        size_t post = pre + strlen(at) - strcspn(at, ":") - 1;
        for (size_t i = 0; i < sizeof nums / sizeof *nums; i++) {
            abuf m = {0};
            abuf_add(&m, j.data, pre);
            abuf_adds(&m, nums[i]);
            abuf_add(&m, j.data + post, j.len - post);
            check_payload(CODEC_JSON, m.data, m.len, &t);
            abuf_free(&m);
        }
    }
    abuf_free(&j);

    /* id as a uint64 past INT64_MAX: a float to the general path */
    abuf b = {0};
    codec_encode(CODEC_MSGPACK, base, &b);
    size_t v = value_at(b.data + 4, b.len - 4, "id");
    assert_true(v > 0 && b.data[4 + v] == 7);
    uint8_t *p = malloc(b.len + 8);
    memcpy(p, b.data + 4, v);
    p[v] = 0xcf;
    memset(p + v + 1, 0xff, 8);
    memcpy(p + v + 9, b.data + 4 + v + 1, b.len - 4 - v - 1);
    int errors = t.errors;
    assert_false(check_payload(CODEC_MSGPACK, p, b.len - 4 + 8, &t));
    assert_int_equal(t.errors, errors + 1);
    p[v + 1] = 0x7f; /* INT64_MAX itself is an id */
    assert_true(check_payload(CODEC_MSGPACK, p, b.len - 4 + 8, &t));
    free(p);
    abuf_free(&b);

    av_free(base);
}

/* A view or events the general path refuses is refused with skip_state
 * too, with the same error (check_payload compares the three reads), though
 * nothing of it is built: bad UTF-8, a NUL in a key, nesting past
 * PROTO_MAX_DEPTH, values past PROTO_MAX_VALUES, an ext type, a JSON number
 * out of double's range. */
/* Clock durations are never negative. A hello whose startup_ms is -5000
 * must not decode: its re-encoding, which leaves a negative startup_ms out
 * as absent, would then fail to decode (a libFuzzer case). Both paths refuse
 * such a clock, in hello and in decide. */
static void test_negative_clock_durations_refused(void **st)
{
    (void)st;
    av *good[2] = {small_hello(), small_decide()};
    static const char *const keys[] = {"move_ms", "bank_ms", "game_ms", "startup_ms"};
    tally t = {0};
    for (int g = 0; g < 2; g++) {
        for (int k = 0; k < 2; k++) /* the untouched message is fine */
            check_tree(k ? CODEC_JSON : CODEC_MSGPACK, good[g], &t, true);
        for (size_t i = 0; i < sizeof keys / sizeof *keys; i++) {
            av *bad = av_copy(good[g]);
            av_set((av *)av_get(bad, "clock"), keys[i], av_int(-5000));
            msg m;
            char err[200];
            if (msg_decode(bad, &m, err, sizeof err) == 0)
                fail_msg("clock.%s = -5000 decoded: %s", keys[i], av_to_json(bad));
            assert_non_null(strstr(err, keys[i]));
            for (int k = 0; k < 2; k++) /* and the fast path agrees */
                assert_false(check_payload_of(k ? CODEC_JSON : CODEC_MSGPACK, bad, &t));
            av_free(bad);
        }
        av_free(good[g]);
    }
}

static void test_skip_state_refuses_what_general_path_refuses(void **st)
{
    (void)st;
    tally t = {0};
    for (int k = 0; k < 2; k++) {
        codec_kind codec = k ? CODEC_JSON : CODEC_MSGPACK;
        for (int what = 0; what < 4; what++) {
            if (codec == CODEC_JSON && what < 2) continue; /* the writer mends bad UTF-8 */
            av *m = small_decide();
            const char *where = what % 2 ? "events" : "view";
            av *v = what % 2 ? av_list() : av_map();
            av *x = what < 2 ? av_str("bad \xff utf-8") : av_list();
            if (what >= 2) { /* levels: decide 1, view or events 2, x 3, and 30 more */
                av *in = x;
                for (int d = 0; d < 30; d++) {
                    av *inner = av_list();
                    av_push(in, inner);
                    in = inner;
                }
            }
            if (what % 2)
                av_push(v, x);
            else
                av_set(v, "k", x);
            av_set(m, where, v);
            int errors = t.errors;
            check_payload_of(codec, m, &t);
            if (t.errors != errors + 1)
                fail_msg("%s, case %d: not refused", codec_name(codec), what);
            av_free(m);
        }
        /* around PROTO_MAX_VALUES in the view: taken below, refused above */
        int taken = 0, refused = 0;
        for (int n = PROTO_MAX_VALUES / 2 - 49; n < PROTO_MAX_VALUES / 2 - 37; n += 3) {
            av *m = small_decide(), *v = av_map();
            for (int i = 0; i < n; i++) { /* distinct keys: no search */
                char key[16];
                int len = snprintf(key, sizeof key, "k%d", i);
                av_map_add_new(v, key, (size_t)len, av_int(i));
            }
            av_set(m, "view", v);
            int errors = t.errors;
            taken += check_payload_of(codec, m, &t);
            refused += t.errors > errors;
            av_free(m);
        }
        assert_true(taken > 0 && refused > 0);
    }
    /* bytes no tree can hold: a NUL in a view key, an ext type in the
     * events, a JSON number beyond double, bad UTF-8 in JSON */
    av *m = small_decide();
    av_set(m, "view", av_set_int(av_map(), "k_nul", 1));
    av_set(m, "events", av_push(av_list(), av_str("ext")));
    for (int k = 0; k < 2; k++) {
        codec_kind codec = k ? CODEC_JSON : CODEC_MSGPACK;
        abuf b = {0};
        payload_of(codec, m, &b);
        for (int what = 0; what < 3; what++) {
            uint8_t *p = malloc(b.len + 8);
            memcpy(p, b.data, b.len);
            size_t n = b.len;
            if (what == 0 && codec == CODEC_MSGPACK) {
                uint8_t *at = memmem(p, n, "k_nul", 5);
                at[1] = 0;
            } else if (what == 0) { /* "k_nul":1 -> "k_nul":1e999 */
                uint8_t *at = memmem(p, n, "\"k_nul\":1", 9) + 9;
                memmove(at + 4, at, (size_t)(p + n - at));
                memcpy(at, "e999", 4);
                n += 4;
            } else if (what == 1 && codec == CODEC_MSGPACK) { /* "ext" (a3 ...) -> fixext1 */
                uint8_t *at = memmem(p, n,
                                     "\xa3"
                                     "ext",
                                     4);
                at[0] = 0xd4;
            } else if (what == 1) { /* "ext" -> a number with a bad exponent */
                uint8_t *at = memmem(p, n, "\"ext\"", 5);
                memcpy(at, "1e+-0", 5);
            } else { /* "ext" -> "e\xfft" (JSON), "k_nul" -> "k\xffnul" (msgpack) */
                uint8_t *at = memmem(p, n, codec == CODEC_JSON ? "ext" : "k_nul", 3);
                at[1] = 0xff;
            }
            int errors = t.errors;
            assert_false(check_payload(codec, p, n, &t));
            assert_int_equal(t.errors, errors + 1);
            free(p);
        }
        abuf_free(&b);
    }
    av_free(m);
}

/* ------------------------------------------------------- act, whole SDK */

typedef struct act_ctx {
    codec_kind codec;
    bool skip_state;
    av **trees; /* the decides sent, in order */
    size_t n, next;
    abuf expect; /* what the bot must write */
    arena_rng rng;
} act_ctx;

static void add_expected(act_ctx *a, const msg *m)
{
    av *t = msg_encode(m);
    codec_encode(a->codec, t, &a->expect);
    av_free(t);
}

static int act_decide(arena_session *s, const msg_decide *d, int64_t *choice)
{
    act_ctx *a = arena_session_user(s);
    assert_true(a->next < a->n);
    msg want;
    char why[200] = "";
    assert_int_equal(msg_decode(a->trees[a->next++], &want, why, sizeof why), 0);
    same_decide(d, &want.u.decide, !a->skip_state);
    msg_free(&want);
    size_t n = arena_rng_below(&a->rng, (uint32_t)d->n_options + 1);
    for (size_t i = 0; i < n; i++) /* any numbers: the encoding is under test */
        choice[i] = arena_rng_below(&a->rng, 2) ? (int64_t)i : edgy_int(&a->rng);
    msg m = {.type = MSG_ACT, .u.act = {.id = d->id, .choice = choice, .n_choice = n}};
    add_expected(a, &m);
    return (int)n;
}

static void collect(const av *tree, arena_rng *r, void *ctx)
{
    (void)r;
    act_ctx *a = ctx;
    a->trees = realloc(a->trees, (a->n + 1) * sizeof *a->trees);
    a->trees[a->n++] = av_copy(tree);
}

static void act_bytes(codec_kind codec, bool skip_state)
{
    act_ctx a = {.codec = codec, .skip_state = skip_state};
    arena_rng_seed(&a.rng, 5);
    each_decide(60, collect, &a);
    char in_path[] = "/tmp/arena-decide-fast-in-XXXXXX",
         out_path[] = "/tmp/arena-decide-fast-out-XXXXXX";
    int in = mkstemp(in_path), out = mkstemp(out_path);
    assert_true(in >= 0 && out >= 0);
    unlink(in_path);
    unlink(out_path);
    abuf input = {0};
    av *t = small_hello();
    codec_encode(codec, t, &input);
    av_free(t);
    for (size_t i = 0; i < a.n; i++) {
        size_t at = input.len;
        codec_encode(codec, a.trees[i], &input);
        if (codec == CODEC_JSON && i % 3 == 0) { /* "{ ...": the general path */
            abuf_addc(&input, 0);
            memmove(input.data + at + 2, input.data + at + 1, input.len - at - 2);
            input.data[at + 1] = ' ';
        }
    }
    msg bye = {.type = MSG_BYE};
    t = msg_encode(&bye);
    codec_encode(codec, t, &input);
    av_free(t);
    assert_int_equal(write(in, input.data, input.len), (ssize_t)input.len);
    assert_int_equal(lseek(in, 0, SEEK_SET), 0);

    msg join = {.type = MSG_JOIN, .u.join = {.name = "fastbot", .token = "tok"}};
    add_expected(&a, &join);
    msg ready = {.type = MSG_READY};
    add_expected(&a, &ready);
    arena_bot bot = {.name = "fastbot", .decide = act_decide, .user = &a};
    arena_bot_options opts = {.codec = codec, .skip_state = skip_state};
    assert_int_equal(arena_bot_run_fds(in, out, "tok", &bot, &opts), 0);
    assert_int_equal(a.next, a.n);
    /* a.expect: join and ready (added before the run), then every act */
    abuf want = a.expect;
    off_t size = lseek(out, 0, SEEK_END);
    assert_int_equal(size, (off_t)want.len);
    uint8_t *got = malloc(want.len + 1);
    assert_int_equal(pread(out, got, want.len, 0), (ssize_t)want.len);
    if (memcmp(got, want.data, want.len) != 0)
        fail_msg("%s: the bot's bytes differ from codec_encode's", codec_name(codec));
    free(got);
    abuf_free(&want);
    abuf_free(&input);
    for (size_t i = 0; i < a.n; i++)
        av_free(a.trees[i]);
    free(a.trees);
    close(in);
    close(out);
}

static void test_act_bytes_msgpack(void **st)
{
    (void)st;
    act_bytes(CODEC_MSGPACK, false);
}

static void test_act_bytes_json(void **st)
{
    (void)st;
    act_bytes(CODEC_JSON, false);
}

static void test_act_bytes_msgpack_skip_state(void **st)
{
    (void)st;
    act_bytes(CODEC_MSGPACK, true);
}

static void test_act_bytes_json_skip_state(void **st)
{
    (void)st;
    act_bytes(CODEC_JSON, true);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fast_decide_same_as_general_path),
        cmocka_unit_test(test_fast_decide_edge_shapes),
        cmocka_unit_test(test_fast_hello_over_same_as_general_path),
        cmocka_unit_test(test_negative_clock_durations_refused),
        cmocka_unit_test(test_skip_state_refuses_what_general_path_refuses),
        cmocka_unit_test(test_act_bytes_msgpack),
        cmocka_unit_test(test_act_bytes_json),
        cmocka_unit_test(test_act_bytes_msgpack_skip_state),
        cmocka_unit_test(test_act_bytes_json_skip_state),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    decide_buf_free(&bufs[0]);
    decide_buf_free(&bufs[1]);
    return rc;
}
