/* The referee's fast path for `act` (referee/actframe.c) against the general
 * path it stands in for (the codec's reader, then msg_decode): whenever the
 * fast path takes a frame, the general path must accept it too and give the
 * same message. Canonical frames from both codecs (ids and indices in every
 * integer width, 0 to 15 items) must be taken; edge cases and random
 * mutations of them (bytes flipped, inserted, deleted, cut) are compared
 * both ways, and so is what frame_decoder_peek/skip leave for the next
 * frame. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "actframe.h"
#include "codec.h"
#include "messages.h"
#include "rng.h"

/* The general path's verdict: 1 with *out an act, 0 for anything else
 * (an error or another message). */
static int general(codec_kind c, const uint8_t *p, size_t n, msg *out)
{
    char err[200];
    av *v = c == CODEC_MSGPACK ? msgpack_decode(p, n, err, sizeof err)
                               : json_decode((const char *)p, n, err, sizeof err);
    if (!v) return 0;
    int ok = v->type == AV_MAP && msg_decode(v, out, err, sizeof err) == 0;
    av_free(v);
    if (ok && out->type != MSG_ACT) {
        msg_free(out);
        ok = 0;
    }
    return ok;
}

static long taken, declined;

/* The property; returns whether the fast path took the frame. */
static bool check_frame(codec_kind c, const uint8_t *p, size_t n)
{
    msg f, g;
    if (!act_frame_parse(c, p, n, &f)) {
        declined++;
        return false;
    }
    taken++;
    if (!general(c, p, n, &g)) fail_msg("fast path took a frame the general path refuses");
    assert_int_equal(f.type, MSG_ACT);
    assert_int_equal(f.u.act.id, g.u.act.id);
    assert_int_equal(f.u.act.n_choice, g.u.act.n_choice);
    for (size_t i = 0; i < f.u.act.n_choice; i++)
        assert_int_equal(f.u.act.choice[i], g.u.act.choice[i]);
    msg_free(&f);
    msg_free(&g);
    return true;
}

/* msgpack uint in the width w (0: fixint, 1, 2, 4, 8 bytes after a tag). */
static size_t mp_put_uint(uint8_t *o, uint64_t v, int w)
{
    static const uint8_t tags[] = {0, 0xcc, 0xcd, 0, 0xce, 0, 0, 0, 0xcf};
    if (w == 0) {
        o[0] = (uint8_t)v;
        return 1;
    }
    o[0] = tags[w];
    for (int i = 0; i < w; i++)
        o[1 + i] = (uint8_t)(v >> (8 * (w - 1 - i)));
    return 1 + (size_t)w;
}

static uint64_t max_of_width(int w)
{
    return w == 0 ? 0x7f : w == 8 ? (uint64_t)INT64_MAX : ((uint64_t)1 << (8 * w)) - 1;
}

static int pick_width(arena_rng *r)
{
    static const int ws[] = {0, 1, 2, 4};
    return ws[arena_rng_below(r, 4)];
}

static uint64_t value_in(arena_rng *r, int w)
{
    uint64_t max = max_of_width(w);
    switch (arena_rng_below(r, 3)) {
    case 0: return max;
    case 1: return 0;
    default: return arena_rng_next(r) % (max + 1);
    }
}

static size_t canonical_msgpack(arena_rng *r, uint8_t *o)
{
    size_t k = 0;
    memcpy(o, "\x83\xa4type\xa3", 7);
    k = 7;
    memcpy(o + k, "act\xa2id", 6);
    k += 6;
    int w = pick_width(r);
    k += mp_put_uint(o + k, value_in(r, w), w);
    memcpy(o + k, "\xa6", 1);
    memcpy(o + k + 1, "choice", 6);
    k += 7;
    size_t n = arena_rng_below(r, 16);
    o[k++] = (uint8_t)(0x90 | n);
    for (size_t i = 0; i < n; i++) {
        w = pick_width(r);
        k += mp_put_uint(o + k, value_in(r, w), w);
    }
    return k;
}

static size_t canonical_json(arena_rng *r, uint8_t *o)
{
    uint64_t id = arena_rng_below(r, 2) ? arena_rng_below(r, 1000)
                                        : arena_rng_next(r) % 1000000000000000000ull;
    int k =
        sprintf((char *)o, "{\"type\":\"act\",\"id\":%llu,\"choice\":[", (unsigned long long)id);
    size_t n = arena_rng_below(r, 16);
    for (size_t i = 0; i < n; i++)
        k += sprintf((char *)o + k, "%s%llu", i ? "," : "",
                     (unsigned long long)(arena_rng_below(r, 2)
                                              ? arena_rng_below(r, 10)
                                              : arena_rng_next(r) % 999999999999999999ull));
    k += sprintf((char *)o + k, "]}");
    return (size_t)k;
}

/* One random mutation of f[0, *n) in place (room for 8 more bytes). */
static void mutate(arena_rng *r, uint8_t *f, size_t *n)
{
    static const uint8_t interesting[] = {0x00, 0x7f, 0x80, 0x90, 0x9f, 0xa0, 0xc0, 0xcc,
                                          0xcf, 0xd0, 0xff, '0',  '9',  '-',  '.',  'e',
                                          ',',  ']',  '}',  ' ',  '"',  '\\', 'x'};
    size_t at = *n ? arena_rng_below(r, (uint32_t)*n) : 0;
    uint8_t b = arena_rng_below(r, 2) ? (uint8_t)arena_rng_next(r)
                                      : interesting[arena_rng_below(r, sizeof interesting)];
    switch (arena_rng_below(r, 4)) {
    case 0:
        if (*n) f[at] = b;
        break;
    case 1:
        memmove(f + at + 1, f + at, *n - at);
        f[at] = b;
        ++*n;
        break;
    case 2:
        if (*n) {
            memmove(f + at, f + at + 1, *n - at - 1);
            --*n;
        }
        break;
    default: *n = at; break;
    }
}

static void test_canonical_and_mutated_frames_agree(void **st)
{
    (void)st;
    arena_rng r;
    arena_rng_seed(&r, 13);
    uint8_t f[512];
    taken = declined = 0;
    for (int i = 0; i < 40000; i++) {
        codec_kind c = i % 2 ? CODEC_JSON : CODEC_MSGPACK;
        size_t n = c == CODEC_MSGPACK ? canonical_msgpack(&r, f) : canonical_json(&r, f);
        if (!check_frame(c, f, n)) fail_msg("a canonical act was declined (frame %d)", i);
        int rounds = 1 + (int)arena_rng_below(&r, 3);
        for (int k = 0; k < rounds; k++)
            mutate(&r, f, &n);
        check_frame(c, f, n);
    }
    /* Mutations must mostly be declined, and some still taken (a digit
     * changed), or the test proves little. */
    assert_true(declined > 10000);
    assert_true(taken > 40000 + 1000);
}

static void test_edge_cases(void **st)
{
    (void)st;
    static const struct {
        const char *text;
        bool fast;
    } js[] = {
        {"{\"type\":\"act\",\"id\":0,\"choice\":[]}", true},
        {"{\"type\":\"act\",\"id\":999999999999999999,\"choice\":[0]}", true},
        {"{\"type\":\"act\",\"id\":9223372036854775807,\"choice\":[0]}", false}, /* 19 digits */
        {"{\"type\":\"act\",\"id\":01,\"choice\":[0]}", false},
        {"{\"type\":\"act\",\"id\":-1,\"choice\":[0]}", false},
        {"{\"type\":\"act\",\"id\":1.0,\"choice\":[0]}", false},
        {"{\"type\":\"act\",\"id\":1e2,\"choice\":[0]}", false},
        {"{\"type\":\"act\",\"id\":1,\"choice\":0}", false},
        {"{\"type\":\"act\",\"id\":1,\"choice\":[0,]}", false},
        {"{\"type\":\"act\",\"id\":1,\"choice\":[,0]}", false},
        {"{\"type\":\"act\",\"id\":1,\"choice\":[0]} ", false},
        {"{\"type\":\"act\",\"id\":1,\"choice\":[0] }", false},
        {"{\"type\":\"act\",\"id\":1,\"choice\":[0],\"id\":2}", false},
        {"{\"id\":1,\"type\":\"act\",\"choice\":[0]}", false},
        {"{\"type\":\"act\",\"id\":1,\"choice\":[0,1,2,3,4,5,6,7,8,9,10,11,12,13,14]}", true},
        {"{\"type\":\"act\",\"id\":1,\"choice\":[0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15]}", false},
    };
    for (size_t i = 0; i < sizeof js / sizeof *js; i++) {
        const uint8_t *p = (const uint8_t *)js[i].text;
        size_t n = strlen(js[i].text);
        bool fast = check_frame(CODEC_JSON, p, n);
        if (fast != js[i].fast)
            fail_msg("%s: fast path %s", js[i].text, fast ? "took" : "declined");
        if (!fast) { /* the general path still reads the valid ones */
            msg g;
            if (general(CODEC_JSON, p, n, &g)) msg_free(&g);
        }
    }
    /* msgpack: the widths the fast path leaves to the general path. */
#define MP(s, f)                                                                                   \
    {                                                                                              \
        s, sizeof s - 1, f                                                                         \
    }
    static const struct {
        const char *hex;
        size_t n;
        bool fast;
    } mp[] = {
        MP("\x83\xa4type\xa3"
           "act\xa2id\xce\xff\xff\xff\xff\xa6"
           "choice\x91\x01",
           true),
        MP("\x83\xa4type\xa3"
           "act\xa2id\xcf\0\0\0\0\0\0\0\x01\xa6"
           "choice\x91\x01",
           false),
        MP("\x83\xa4type\xa3"
           "act\xa2id\xd0\x01\xa6"
           "choice\x91\x01",
           false),
        MP("\x83\xa4type\xa3"
           "act\xa2id\x01\xa6"
           "choice\x01",
           false),
        MP("\x83\xa4type\xa3"
           "act\xa2id\x01\xa6"
           "choice\xdc\0\x01\x01",
           false),
        MP("\xde\0\x03\xa4type\xa3"
           "act\xa2id\x01\xa6"
           "choice\x91\x01",
           false),
        MP("\x83\xa4type\xa3"
           "act\xa2id\x01\xa6"
           "choice\x91\xff",
           false),
        MP("\x83\xa4type\xa3"
           "act\xa2id\x01\xa6"
           "choice\x91\x01\xc0",
           false),
    };
#undef MP
    for (size_t i = 0; i < sizeof mp / sizeof *mp; i++) {
        bool fast = check_frame(CODEC_MSGPACK, (const uint8_t *)mp[i].hex, mp[i].n);
        if (fast != mp[i].fast)
            fail_msg("msgpack case %zu: fast path %s", i, fast ? "took" : "declined");
    }
}

/* peek shows the front frame without taking it; skip drops exactly it. */
static void test_peek_and_skip(void **st)
{
    (void)st;
    for (int c = 0; c < 2; c++) {
        frame_decoder d;
        frame_decoder_init(&d, 1 << 16, CODEC_NONE);
        const char *js = "{\"type\":\"act\",\"id\":7,\"choice\":[2]}\r\n\n{\"type\":\"ready\"}\n";
        static const uint8_t mp[] = {0,    0,    0,    23,  0x83, 0xa4, 't', 'y', 'p',  'e',
                                     0xa3, 'a',  'c',  't', 0xa2, 'i',  'd', 7,   0xa6, 'c',
                                     'h',  'o',  'i',  'c', 'e',  0x91, 2,   0,   0,    0,
                                     7,    0x81, 0xa4, 't', 'y',  'p',  'e', 0xa0};
        const uint8_t *p;
        size_t n;
        if (c) {
            frame_decoder_feed(&d, js, 10);
            assert_int_equal(frame_decoder_peek(&d, &p, &n), 0);
            frame_decoder_feed(&d, js + 10, strlen(js) - 10);
        } else {
            frame_decoder_feed(&d, mp, sizeof mp);
        }
        assert_int_equal(frame_decoder_peek(&d, &p, &n), 1);
        msg m;
        assert_true(act_frame_parse(d.codec, p, n, &m));
        assert_int_equal(m.u.act.id, 7);
        assert_int_equal(m.u.act.choice[0], 2);
        msg_free(&m);
        frame_decoder_skip(&d);
        av *v;
        assert_int_equal(frame_decoder_next(&d, &v), 1);
        assert_non_null(av_get(v, "type"));
        av_free(v);
        assert_int_equal(frame_decoder_next(&d, &v), 0);
        assert_int_equal(frame_decoder_pending(&d), 0);
        frame_decoder_free(&d);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_canonical_and_mutated_frames_agree),
        cmocka_unit_test(test_edge_cases),
        cmocka_unit_test(test_peek_and_skip),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
