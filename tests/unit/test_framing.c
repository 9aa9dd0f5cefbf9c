/* Framing and codecs: round trips, arbitrary splits, caps, garbage. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "codec.h"
#include "messages.h"
#include "samples.h"

static const codec_kind codecs[] = {CODEC_MSGPACK, CODEC_JSON};

/* All sample messages, one after another, in codec c. */
static void encode_all(codec_kind c, abuf *out)
{
    for (int t = 0; t < MSG__COUNT; t++) {
        av *v = sample_map((msg_type)t);
        codec_encode(c, v, out);
        av_free(v);
    }
}

/* Drains every available message into got[]; returns the count. */
static size_t drain(frame_decoder *d, av **got, size_t have)
{
    av *m;
    int r;
    while ((r = frame_decoder_next(d, &m)) == 1) {
        assert_true(have < MSG__COUNT);
        got[have++] = m;
    }
    assert_int_equal(r, 0);
    return have;
}

static void expect_all_samples(av **got, size_t n)
{
    assert_int_equal(n, MSG__COUNT);
    for (int t = 0; t < MSG__COUNT; t++) {
        av *want = sample_map((msg_type)t);
        assert_true(av_equal(want, got[t]));
        av_free(want);
        av_free(got[t]);
    }
}

/* struct -> av -> bytes -> decoder -> av -> struct, for every type. */
static void test_roundtrip_every_type(void **state)
{
    (void)state;
    for (size_t ci = 0; ci < 2; ci++) {
        for (int t = 0; t < MSG__COUNT; t++) {
            msg m, back;
            sample_msg((msg_type)t, &m);
            av *enc = msg_encode(&m);
            abuf bytes = {0};
            codec_encode(codecs[ci], enc, &bytes);

            frame_decoder d;
            frame_decoder_init(&d, 0, CODEC_NONE);
            frame_decoder_feed(&d, bytes.data, bytes.len);
            av *got = NULL, *none = (av *)&d;
            assert_int_equal(frame_decoder_next(&d, &got), 1);
            assert_int_equal(d.codec, codecs[ci]);
            assert_int_equal(frame_decoder_pending(&d), 0);
            assert_int_equal(frame_decoder_next(&d, &none), 0);
            assert_null(none);
            char err[200];
            assert_int_equal(msg_decode(got, &back, err, sizeof err), 0);
            assert_int_equal(back.type, t);
            av *again = msg_encode(&back);
            assert_true(av_equal(enc, again));
            if (t == MSG_DECIDE) {
                assert_int_equal(back.u.decide.id, 42);
                assert_int_equal(back.u.decide.n_options, 2);
                assert_string_equal(back.u.decide.labels[0], "buy:Smithy");
                assert_int_equal(back.u.decide.clock.game_ms, 60000);
                assert_int_equal(back.u.decide.clock.startup_ms, -1);
                assert_string_equal(back.u.decide.clock.mode, "");
            } else if (t == MSG_HELLO) {
                assert_int_equal(back.u.hello.clock.game_ms, -1);
                assert_string_equal(back.u.hello.clock.mode, "wall");
                assert_string_equal(back.u.hello.names[1], "beta");
            } else if (t == MSG_JOIN) {
                assert_null(back.u.join.author);
                assert_string_equal(back.u.join.token, "s3cret");
            } else if (t == MSG_OVER) {
                assert_int_equal(back.u.over.scores[0], -3);
                assert_string_equal(back.u.over.forfeits[0].cause, "timeout");
            }
            av_free(again);
            av_free(got);
            av_free(enc);
            msg_free(&back);
            msg_free(&m);
            abuf_free(&bytes);
            frame_decoder_free(&d);
        }
    }
}

static void test_split_at_every_position(void **state)
{
    (void)state;
    for (size_t ci = 0; ci < 2; ci++) {
        abuf all = {0};
        encode_all(codecs[ci], &all);
        for (size_t cut = 0; cut <= all.len; cut++) {
            frame_decoder d;
            frame_decoder_init(&d, 0, CODEC_NONE);
            av *got[MSG__COUNT];
            frame_decoder_feed(&d, all.data, cut);
            size_t n = drain(&d, got, 0);
            frame_decoder_feed(&d, all.data + cut, all.len - cut);
            n = drain(&d, got, n);
            expect_all_samples(got, n);
            assert_int_equal(frame_decoder_pending(&d), 0);
            frame_decoder_free(&d);
        }
        abuf_free(&all);
    }
}

static void test_one_byte_at_a_time(void **state)
{
    (void)state;
    for (size_t ci = 0; ci < 2; ci++) {
        abuf all = {0};
        encode_all(codecs[ci], &all);
        frame_decoder d;
        frame_decoder_init(&d, 0, codecs[ci]);
        av *got[MSG__COUNT];
        size_t n = 0;
        for (size_t i = 0; i < all.len; i++) {
            frame_decoder_feed(&d, all.data + i, 1);
            n = drain(&d, got, n);
        }
        expect_all_samples(got, n);
        frame_decoder_free(&d);
        abuf_free(&all);
    }
}

static void test_many_in_one_feed(void **state)
{
    (void)state;
    for (size_t ci = 0; ci < 2; ci++) {
        abuf all = {0};
        encode_all(codecs[ci], &all);
        frame_decoder d;
        frame_decoder_init(&d, 0, CODEC_NONE);
        frame_decoder_feed(&d, all.data, all.len);
        assert_int_equal(frame_decoder_pending(&d), all.len);
        av *got[MSG__COUNT];
        expect_all_samples(got, drain(&d, got, 0));
        frame_decoder_free(&d);
        abuf_free(&all);
    }
}

/* Reading straight into the decoder (space + commit, as the referee and the
 * C SDK do) in pieces of every size up to the room offered, draining
 * between pieces so that returned frames are compacted away: the same
 * messages as one feed. */
static void test_space_and_commit(void **state)
{
    (void)state;
    static const size_t pieces[] = {1, 3, 64, 4096, SIZE_MAX};
    for (size_t ci = 0; ci < 2; ci++) {
        abuf all = {0};
        encode_all(codecs[ci], &all);
        for (size_t pi = 0; pi < sizeof pieces / sizeof *pieces; pi++) {
            frame_decoder d;
            frame_decoder_init(&d, 0, CODEC_NONE);
            av *got[MSG__COUNT];
            size_t n = 0;
            for (size_t at = 0; at < all.len;) {
                size_t room;
                uint8_t *p = frame_decoder_space(&d, 16, &room);
                assert_true(room >= 16);
                size_t k = all.len - at;
                if (k > room) k = room;
                if (k > pieces[pi]) k = pieces[pi];
                memcpy(p, all.data + at, k);
                frame_decoder_commit(&d, k);
                at += k;
                n = drain(&d, got, n);
            }
            expect_all_samples(got, n);
            assert_int_equal(frame_decoder_pending(&d), 0);
            frame_decoder_free(&d);
        }
        abuf_free(&all);
    }
}

/* commit checks the cap as feed does: an oversized msgpack frame fails on
 * its length prefix, before its payload arrives. */
static void test_commit_checks_the_cap(void **state)
{
    (void)state;
    frame_decoder d;
    frame_decoder_init(&d, 100, CODEC_NONE);
    size_t room;
    uint8_t *p = frame_decoder_space(&d, 4, &room);
    memcpy(p, "\x00\x00\x00\x65", 4); /* 101 bytes */
    frame_decoder_commit(&d, 4);
    assert_true(d.failed);
    assert_non_null(strstr(d.error, "101"));
    frame_decoder_free(&d);
}

/* A map {"type":"log","text":"xxxx..."} whose frame payload (msgpack N, or
 * json line without '\n') is exactly `size` bytes. */
static void frame_of_size(codec_kind c, size_t size, abuf *out)
{
    /* The payload grows with the padding one for one, except where a string
     * header widens; a few corrections converge. */
    size_t pad = size > 32 ? size - 32 : 0;
    for (int tries = 0; tries < 8; tries++) {
        char *s = xmalloc(pad + 1);
        memset(s, 'x', pad);
        s[pad] = '\0';
        av *m = av_set_str(av_set_str(av_map(), "type", "log"), "text", s);
        free(s);
        out->len = 0;
        codec_encode(c, m, out);
        av_free(m);
        size_t payload = c == CODEC_MSGPACK ? out->len - 4 : out->len - 1;
        if (payload == size) return;
        if (payload > size && pad < payload - size) break;
        pad = pad + size - payload;
    }
    fail_msg("no frame of exactly %zu bytes", size);
}

static void test_cap_at_limit_and_one_over(void **state)
{
    (void)state;
    const size_t limit = 300;
    for (size_t ci = 0; ci < 2; ci++) {
        abuf f = {0};
        frame_of_size(codecs[ci], limit, &f);
        frame_decoder d;
        av *m = NULL;

        /* exactly at the limit: accepted */
        frame_decoder_init(&d, limit, CODEC_NONE);
        frame_decoder_feed(&d, f.data, f.len);
        assert_int_equal(frame_decoder_next(&d, &m), 1);
        av_free(m);
        frame_decoder_free(&d);

        /* one over: rejected before the payload is buffered */
        frame_decoder_init(&d, limit - 1, CODEC_NONE);
        size_t early = codecs[ci] == CODEC_MSGPACK ? 4 : limit;
        frame_decoder_feed(&d, f.data, early - 1);
        assert_int_equal(frame_decoder_next(&d, &m), 0);
        frame_decoder_feed(&d, f.data + early - 1, 1);
        assert_true(d.failed); /* feed itself already noticed */
        assert_int_equal(frame_decoder_next(&d, &m), -1);
        assert_null(m);
        assert_non_null(strstr(d.error, "299"));
        assert_int_equal(frame_decoder_pending(&d), 0);
        frame_decoder_free(&d);
        abuf_free(&f);
    }
}

static void test_json_unterminated_line_capped(void **state)
{
    (void)state;
    frame_decoder d;
    av *m = NULL;
    frame_decoder_init(&d, 10, CODEC_NONE);
    frame_decoder_feed(&d, "{\"type\":\"r", 10); /* exactly the cap, no newline */
    assert_int_equal(frame_decoder_next(&d, &m), 0);
    frame_decoder_feed(&d, "e", 1);
    assert_int_equal(frame_decoder_next(&d, &m), -1);
    assert_non_null(strstr(d.error, "longer than 10 bytes"));
    frame_decoder_free(&d);
}

static void test_configurable_cap(void **state)
{
    (void)state;
    frame_decoder d;
    av *m = NULL;
    /* default cap: 1 MiB */
    frame_decoder_init(&d, 0, CODEC_NONE);
    assert_int_equal(d.max_frame, PROTO_MAX_FRAME_DEFAULT);
    const uint8_t over[4] = {0x00, 0x10, 0x00, 0x01}; /* 1 MiB + 1 */
    frame_decoder_feed(&d, over, 4);
    assert_int_equal(frame_decoder_next(&d, &m), -1);
    assert_non_null(strstr(d.error, "1048577 bytes exceeds the limit of 1048576"));
    frame_decoder_free(&d);

    abuf f = {0};
    frame_of_size(CODEC_MSGPACK, PROTO_MAX_FRAME_DEFAULT, &f);
    frame_decoder_init(&d, 0, CODEC_NONE);
    frame_decoder_feed(&d, f.data, f.len);
    assert_int_equal(frame_decoder_next(&d, &m), 1);
    assert_int_equal(av_len(av_get(m, "text")), PROTO_MAX_FRAME_DEFAULT - 20);
    av_free(m);
    frame_decoder_free(&d);

    /* a small custom cap */
    frame_decoder_init(&d, 16, CODEC_MSGPACK);
    const uint8_t hdr[4] = {0, 0, 0, 17};
    frame_decoder_feed(&d, hdr, 4);
    assert_int_equal(frame_decoder_next(&d, &m), -1);
    frame_decoder_free(&d);
    abuf_free(&f);
}

/* Feeds raw bytes to a fresh decoder; expects an error containing `want`. */
static void expect_error(codec_kind forced, const void *p, size_t n, const char *want)
{
    frame_decoder d;
    frame_decoder_init(&d, 0, forced);
    frame_decoder_feed(&d, p, n);
    av *m = (av *)1;
    int r = frame_decoder_next(&d, &m);
    if (r != -1 || !strstr(d.error, want))
        fail_msg("r=%d error=\"%s\", wanted \"%s\"", r, d.error, want);
    assert_null(m);
    for (const char *c = d.error; *c; c++)
        assert_true((unsigned char)*c >= 0x20 && *c != 0x7f);
    frame_decoder_free(&d);
}

static void test_garbage_errors(void **state)
{
    (void)state;
    expect_error(CODEC_NONE, "hello\n", 6, "bad first byte 0x68 ('h')");
    expect_error(CODEC_NONE, "\xff", 1, "bad first byte 0xff");
    expect_error(CODEC_NONE, "\n{}\n", 4, "bad first byte 0x0a");
    /* msgpack: frame holding the never-used byte */
    expect_error(CODEC_NONE, "\0\0\0\1\xc1", 5, "invalid byte 0xc1");
    /* map of one pair whose value is truncated inside the frame */
    expect_error(CODEC_NONE, "\0\0\0\3\x81\xa1t", 7, "truncated");
    /* trailing bytes after the map inside the frame */
    expect_error(CODEC_NONE, "\0\0\0\3\x80\x01\x02", 7, "2 trailing bytes");
    /* top level not a map */
    expect_error(CODEC_NONE, "\0\0\0\1\x90", 5, "top level is a list, not a map");
    expect_error(CODEC_NONE, "\0\0\0\1\x07", 5, "top level is an integer, not a map");
    /* non-string key {1: 2} */
    expect_error(CODEC_NONE, "\0\0\0\3\x81\x01\x02", 7, "map key at byte 1 is an integer");
    /* ext types: fixext1 as a value, ext8 at top level */
    expect_error(CODEC_NONE, "\0\0\0\5\x81\xa1t\xd4\x01", 9, "ext");
    expect_error(CODEC_NONE, "\0\0\0\6\x81\xa1t\xd4\x01\x00", 10, "ext types are not allowed");
    expect_error(CODEC_NONE, "\0\0\0\3\xc7\x00\x05", 7, "ext types are not allowed");
    /* empty frame */
    expect_error(CODEC_MSGPACK, "\0\0\0\0", 4, "length 0");
    /* array claiming 2^32-1 elements must not allocate, just fail */
    expect_error(CODEC_NONE, "\0\0\0\x08\x81\xa1t\xdd\xff\xff\xff\xff", 12, "truncated");
    /* strings are text in both codecs: invalid UTF-8 in a value, a key, a bin */
    expect_error(CODEC_NONE, "\0\0\0\x05\x81\xa1t\xa1\xff", 9,
                 "string at byte 3 is not valid UTF-8");
    expect_error(CODEC_NONE, "\0\0\0\x04\x81\xa1\xc0\x01", 8,
                 "string at byte 1 is not valid UTF-8");
    expect_error(CODEC_NONE, "\0\0\0\x08\x81\xa1t\xc4\x03\xed\xa0\x80", 12, "not valid UTF-8");
    /* map key with an embedded NUL */
    expect_error(CODEC_NONE, "\0\0\0\x05\x81\xa2t\0\xc0", 9, "NUL");
    /* json */
    expect_error(CODEC_NONE, "{\"type\": }\n", 11, "json: invalid JSON at column");
    expect_error(CODEC_NONE, "{\"a\":1} x\n", 10, "invalid JSON");
    expect_error(CODEC_JSON, "[1,2]\n", 6, "json: top level is a list, not a map");
    expect_error(CODEC_JSON, "\"str\"\n", 6, "top level is a string");
    expect_error(CODEC_NONE, "{\"a\":\"\xff\"}\n", 10, "invalid JSON");
    expect_error(CODEC_NONE, "{\"a\\u0000b\":1}\n", 15, "invalid JSON");
    expect_error(CODEC_NONE, "{\"a\":1e999}\n", 12, "invalid JSON");
    /* a raw NUL after a number or literal is not skipped (jansson did) */
    expect_error(CODEC_NONE, "{\"a\":1\0}\n", 9, "json: invalid JSON at column 7");
    expect_error(CODEC_NONE, "{\"a\":null\0}\n", 12, "json: invalid JSON at column 10");
    /* unpaired surrogates, a leading zero, a bad escape */
    expect_error(CODEC_NONE, "{\"a\":\"\\ud800\"}\n", 15, "invalid JSON");
    expect_error(CODEC_NONE, "{\"a\":\"\\udc00\"}\n", 15, "invalid JSON");
    expect_error(CODEC_NONE, "{\"a\":01}\n", 9, "invalid JSON");
    expect_error(CODEC_NONE, "{\"a\":\"\\x\"}\n", 11, "invalid JSON");
    /* input quoted in the reason never brings control characters along */
    expect_error(CODEC_NONE, "{\"a\":tr\x01\x02\r}\n", 12, "invalid JSON");
    /* forced codec ignores detection */
    expect_error(CODEC_JSON, "\0\0\0\1\x80\n", 6, "invalid JSON");
    expect_error(CODEC_MSGPACK, "{\"type\":\"bye\"}\n", 15, "exceeds the limit");
}

static void test_depth_limit(void **state)
{
    (void)state;
    for (int depth = PROTO_MAX_DEPTH; depth <= PROTO_MAX_DEPTH + 1; depth++) {
        /* {"a":[[[...1...]]]}: depth levels including the top map */
        av *inner = av_int(1);
        for (int i = 1; i < depth; i++)
            inner = av_push(av_list(), inner);
        av *top = av_set(av_map(), "a", inner);
        for (size_t ci = 0; ci < 2; ci++) {
            abuf b = {0};
            codec_encode(codecs[ci], top, &b);
            frame_decoder d;
            frame_decoder_init(&d, 0, CODEC_NONE);
            frame_decoder_feed(&d, b.data, b.len);
            av *m = NULL;
            int r = frame_decoder_next(&d, &m);
            if (depth <= PROTO_MAX_DEPTH) {
                assert_int_equal(r, 1);
                assert_true(av_equal(m, top));
                av_free(m);
            } else {
                assert_int_equal(r, -1);
                assert_non_null(strstr(d.error, "nesting deeper than 32"));
            }
            frame_decoder_free(&d);
            abuf_free(&b);
        }
        av_free(top);
    }
}

/* A `log` whose map holds `keys` distinct keys (or, with keys 0, as many as
 * fit in 1 MiB: ~200,000 in msgpack), then key "0" again. */
static void key_name(size_t i, char *out)
{
    sprintf(out, "%zx", i);
}

static size_t many_keys_frame(codec_kind codec, size_t keys, abuf *b)
{
    const size_t cap = PROTO_MAX_FRAME_DEFAULT;
    size_t n = 0;
    char k[32];
    if (codec == CODEC_MSGPACK) {
        /* length, map32 header (count patched below), type, text, keys */
        static const uint8_t head[] = {0,    0,   0,   0,   0xdf, 0,    0,   0,   0,
                                       0xa4, 't', 'y', 'p', 'e',  0xa3, 'l', 'o', 'g',
                                       0xa4, 't', 'e', 'x', 't',  0xa2, 'h', 'i'};
        abuf_add(b, head, sizeof head);
        for (; keys == 0 || n < keys; n++) {
            key_name(n, k);
            size_t kl = strlen(k);
            if (b->len - 4 + kl + 2 > cap - 4) break;
            abuf_addc(b, (char)(0xa0 | kl));
            abuf_add(b, k, kl);
            abuf_addc(b, (char)(n & 0x7f));
        }
        abuf_add(b,
                 "\xa1"
                 "0"
                 "\x7f",
                 3); /* key "0" again, last value wins */
        size_t len = b->len - 4, count = n + 3;
        for (int i = 0; i < 4; i++) {
            b->data[3 - i] = (uint8_t)(len >> (8 * i));
            b->data[8 - i] = (uint8_t)(count >> (8 * i));
        }
    } else {
        abuf_adds(b, "{\"type\":\"log\",\"text\":\"hi\"");
        for (; keys == 0 || n < keys; n++) {
            key_name(n, k);
            if (b->len + strlen(k) + 16 > cap) break;
            abuf_addf(b, ",\"%s\":%zu", k, n & 0x7f);
        }
        abuf_adds(b, ",\"0\":127}\n");
    }
    return n;
}

/* 15,000 distinct keys (30,000 keys and values, under PROTO_MAX_VALUES)
 * decode whole: every key is there once, and a repeated key keeps its last
 * value. (Its speed is bench/decoder's.) */
static void test_frame_of_many_keys(void **state)
{
    (void)state;
    for (size_t ci = 0; ci < 2; ci++) {
        abuf b = {0};
        size_t n = many_keys_frame(codecs[ci], 15000, &b);
        char k[32];
        assert_int_equal(n, 15000);
        frame_decoder d;
        frame_decoder_init(&d, PROTO_MAX_FRAME_DEFAULT, CODEC_NONE);
        frame_decoder_feed(&d, b.data, b.len);
        av *m = NULL;
        assert_int_equal(frame_decoder_next(&d, &m), 1);
        assert_int_equal(av_len(m), n + 2);
        for (size_t i = 0; i < n; i += 997) {
            key_name(i, k);
            int64_t v;
            assert_true(av_get_int(m, k, &v));
            assert_int_equal(v, i == 0 ? 127 : (int64_t)(i & 0x7f));
        }
        msg mm;
        char why[200];
        assert_int_equal(msg_decode(m, &mm, why, sizeof why), 0);
        assert_int_equal(mm.type, MSG_LOG);
        msg_free(&mm);
        av_free(m);
        frame_decoder_free(&d);
        abuf_free(&b);
    }
}

/* A 1 MiB frame of ~200,000 keys, and one of a million empty lists, hold
 * more than PROTO_MAX_VALUES: refused with that reason, in both codecs
 * (the readers stop at the first value past the limit). */
static void test_too_many_values_refused(void **state)
{
    (void)state;
    for (size_t ci = 0; ci < 2; ci++) {
        for (int shape = 0; shape < 2; shape++) {
            abuf b = {0};
            if (shape == 0) {
                assert_true(many_keys_frame(codecs[ci], 0, &b) > 100000);
            } else if (codecs[ci] == CODEC_MSGPACK) {
                size_t items = PROTO_MAX_FRAME_DEFAULT - 64;
                uint8_t head[] = {0,   0,   0,    0,   0x82, 0xa4, 't', 'y',  'p', 'e', 0xa3, 'l',
                                  'o', 'g', 0xa4, 't', 'e',  'x',  't', 0xdd, 0,   0,   0,    0};
                for (int i = 0; i < 4; i++)
                    head[23 - i] = (uint8_t)(items >> (8 * i));
                abuf_add(&b, head, sizeof head);
                for (size_t i = 0; i < items; i++)
                    abuf_addc(&b, (char)0x90); /* an empty list */
                size_t len = b.len - 4;
                for (int i = 0; i < 4; i++)
                    b.data[3 - i] = (uint8_t)(len >> (8 * i));
            } else {
                abuf_adds(&b, "{\"type\":\"log\",\"text\":[[]");
                while (b.len < PROTO_MAX_FRAME_DEFAULT - 16)
                    abuf_adds(&b, ",[]");
                abuf_adds(&b, "]}\n");
            }
            frame_decoder d;
            frame_decoder_init(&d, PROTO_MAX_FRAME_DEFAULT, CODEC_NONE);
            frame_decoder_feed(&d, b.data, b.len);
            av *m = NULL;
            assert_int_equal(frame_decoder_next(&d, &m), -1);
            assert_non_null(strstr(d.error, "more than 32768 values"));
            frame_decoder_free(&d);
            abuf_free(&b);
        }
    }
}

/* An agent's message may hold PROTO_MAX_VALUES_IN values (agent.c sets the
 * decoder's cap): a `log` of that many decodes, one more is refused with
 * the cap in the reason, in both codecs. */
static void test_agent_message_value_cap(void **state)
{
    (void)state;
    for (size_t ci = 0; ci < 2; ci++) {
        for (size_t extra = 0; extra < 2; extra++) {
            /* the map, type, "log", text, the list: 5 values, then items */
            av *msg = av_map();
            av_add_str(msg, "type", "log");
            av *items = av_list();
            for (size_t i = 0; i < PROTO_MAX_VALUES_IN - 5 + extra; i++)
                av_push(items, av_list());
            av_add(msg, "text", items);
            abuf b = {0};
            codec_encode(codecs[ci], msg, &b);
            av_free(msg);
            frame_decoder d;
            frame_decoder_init(&d, 0, CODEC_NONE);
            d.max_values = PROTO_MAX_VALUES_IN;
            frame_decoder_feed(&d, b.data, b.len);
            av *m = NULL;
            if (!extra) {
                assert_int_equal(frame_decoder_next(&d, &m), 1);
                av_free(m);
            } else {
                assert_int_equal(frame_decoder_next(&d, &m), -1);
                char want[64];
                snprintf(want, sizeof want, "more than %d values", PROTO_MAX_VALUES_IN);
                assert_non_null(strstr(d.error, want));
            }
            frame_decoder_free(&d);
            abuf_free(&b);
        }
    }
}

static void test_detection(void **state)
{
    (void)state;
    frame_decoder d;
    av *m = NULL;
    frame_decoder_init(&d, 0, CODEC_NONE);
    assert_int_equal(d.codec, CODEC_NONE);
    frame_decoder_feed(&d, "\0", 1);
    assert_int_equal(d.codec, CODEC_MSGPACK);
    assert_int_equal(frame_decoder_next(&d, &m), 0);
    frame_decoder_free(&d);

    frame_decoder_init(&d, 0, CODEC_NONE);
    frame_decoder_feed(&d, "{", 1);
    assert_int_equal(d.codec, CODEC_JSON);
    assert_int_equal(frame_decoder_next(&d, &m), 0);
    frame_decoder_free(&d);

    assert_int_equal(codec_parse("msgpack"), CODEC_MSGPACK);
    assert_int_equal(codec_parse("json"), CODEC_JSON);
    assert_int_equal(codec_parse("xml"), CODEC_NONE);
    assert_string_equal(codec_name(CODEC_JSON), "json");
    assert_string_equal(codec_name(CODEC_MSGPACK), "msgpack");
    assert_string_equal(codec_name(CODEC_NONE), "none");
}

static void test_stays_failed(void **state)
{
    (void)state;
    frame_decoder d;
    av *m = NULL;
    frame_decoder_init(&d, 0, CODEC_NONE);
    frame_decoder_feed(&d, "{oops}\n", 7);
    assert_int_equal(frame_decoder_next(&d, &m), -1);
    char first[sizeof d.error];
    strcpy(first, d.error);
    frame_decoder_feed(&d, "{\"type\":\"bye\"}\n", 15);
    assert_int_equal(frame_decoder_next(&d, &m), -1);
    assert_null(m);
    assert_string_equal(d.error, first);
    assert_int_equal(frame_decoder_pending(&d), 0);
    frame_decoder_free(&d);
}

static void test_json_line_ends_and_blank_lines(void **state)
{
    (void)state;
    const char *in = "{\"type\":\"ready\"}\r\n\n   \r\n\t\n{\"type\":\"bye\"}\n\n";
    frame_decoder d;
    frame_decoder_init(&d, 0, CODEC_NONE);
    frame_decoder_feed(&d, in, strlen(in));
    av *m = NULL;
    assert_int_equal(frame_decoder_next(&d, &m), 1);
    assert_string_equal(av_get_str(m, "type"), "ready");
    av_free(m);
    assert_int_equal(frame_decoder_next(&d, &m), 1);
    assert_string_equal(av_get_str(m, "type"), "bye");
    av_free(m);
    assert_int_equal(frame_decoder_next(&d, &m), 0);
    assert_int_equal(frame_decoder_pending(&d), 0);
    frame_decoder_free(&d);
}

/* Small maps (the readers' repeat filter): a repeated key keeps its first
 * position and its last value, also when spelt with an escape; distinct
 * keys the filter cannot tell apart (same length, first, middle and last
 * byte) both stay. */
static void test_small_map_repeated_keys(void **state)
{
    (void)state;
    char err[200];
    const char *js = "{\"k\":1,\"axcd\":2,\"aycd\":3,\"k\":4,\"\\u006b\":5}";
    const uint8_t mp[] = {0x85, 0xa1, 'k', 1, 0xa4, 'a', 'x', 'c',  'd', 2,   0xa4, 'a',
                          'y',  'c',  'd', 3, 0xa1, 'k', 4,   0xd9, 1,   'k', 5};
    for (int ci = 0; ci < 2; ci++) {
        av *v = ci ? msgpack_decode(mp, sizeof mp, err, sizeof err)
                   : json_decode(js, strlen(js), err, sizeof err);
        assert_non_null(v);
        assert_int_equal(av_len(v), 3);
        assert_string_equal(v->u.map.keys[0], "k");
        assert_string_equal(v->u.map.keys[1], "axcd");
        assert_string_equal(v->u.map.keys[2], "aycd");
        int64_t i;
        assert_true(av_get_int(v, "k", &i));
        assert_int_equal(i, 5);
        assert_true(av_get_int(v, "aycd", &i));
        assert_int_equal(i, 3);
        av_free(v);
    }
}

/* JSON escapes, a surrogate pair and \u0000 in a value become the UTF-8
 * bytes they stand for; raw UTF-8 passes unchanged. */
static void test_json_escapes(void **state)
{
    (void)state;
    char err[200];
    const char *js =
        "{\"s\":\"\\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9\\ud83d\\ude00\\u0000x\",\"r\":\"\xc3\xa9\"}";
    av *v = json_decode(js, strlen(js), err, sizeof err);
    assert_non_null(v);
    const av *s = av_get(v, "s");
    static const char want[] = "\"\\/\b\f\n\r\t\xc3\xa9\xf0\x9f\x98\x80\0x";
    assert_int_equal(s->u.str.len, sizeof want - 1);
    assert_memory_equal(s->u.str.s, want, sizeof want - 1);
    assert_string_equal(av_get_str(v, "r"), "\xc3\xa9");
    av_free(v);
}

static void test_big_integers_become_floats(void **state)
{
    (void)state;
    char err[200];
    av *v = json_decode("{\"a\":9223372036854775807,\"b\":9223372036854775808,"
                        "\"c\":-9223372036854775808,\"d\":-9223372036854775809,"
                        "\"e\":123456789012345678901234567890,\"s\":\"99999999999999999999\"}",
                        strlen("{\"a\":9223372036854775807,\"b\":9223372036854775808,"
                               "\"c\":-9223372036854775808,\"d\":-9223372036854775809,"
                               "\"e\":123456789012345678901234567890,\"s\":"
                               "\"99999999999999999999\"}"),
                        err, sizeof err);
    assert_non_null(v);
    assert_int_equal(av_get(v, "a")->type, AV_INT);
    assert_true(av_get(v, "a")->u.i == INT64_MAX);
    assert_int_equal(av_get(v, "b")->type, AV_FLOAT);
    assert_true(av_get(v, "b")->u.f == 9223372036854775808.0);
    assert_int_equal(av_get(v, "c")->type, AV_INT);
    assert_true(av_get(v, "c")->u.i == INT64_MIN);
    assert_int_equal(av_get(v, "d")->type, AV_FLOAT);
    assert_int_equal(av_get(v, "e")->type, AV_FLOAT);
    assert_true(av_get(v, "e")->u.f > 1.2e29);
    assert_string_equal(av_get_str(v, "s"), "99999999999999999999");
    av_free(v);

    /* msgpack uint64 beyond int64 */
    const uint8_t mp[] = {0x82, 0xa1, 'u',  0xcf, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
                          0xa1, 'i',  0xcf, 0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
    v = msgpack_decode(mp, sizeof mp, err, sizeof err);
    assert_non_null(v);
    assert_int_equal(av_get(v, "u")->type, AV_FLOAT);
    assert_true(av_get(v, "u")->u.f == 18446744073709551615.0);
    assert_int_equal(av_get(v, "i")->type, AV_INT);
    assert_true(av_get(v, "i")->u.i == INT64_MAX);
    av_free(v);
}

static void test_json_encoding_is_one_line(void **state)
{
    (void)state;
    av *m = av_map();
    av_set_str(m, "type", "log");
    av_set_str(m, "text", "a\nb\rc\x01\x1f\"\\");
    av_set(m, "nan", av_float(NAN));
    av_set(m, "inf", av_float(-INFINITY));
    av_set(m, "two", av_float(2.0));
    av_set(m, "third", av_float(1.0 / 3.0));
    abuf b = {0};
    codec_encode(CODEC_JSON, m, &b);
    assert_int_equal(b.data[b.len - 1], '\n');
    assert_ptr_equal(memchr(b.data, '\n', b.len), b.data + b.len - 1);
    assert_ptr_equal(memchr(b.data, '\r', b.len), NULL);
    assert_non_null(strstr((char *)b.data, "\"nan\":null,\"inf\":null,\"two\":2.0,"));
    char err[200];
    av *back = json_decode((char *)b.data, b.len - 1, err, sizeof err);
    assert_non_null(back);
    assert_string_equal(av_get_str(back, "text"), "a\nb\rc\x01\x1f\"\\");
    assert_int_equal(av_get(back, "nan")->type, AV_NIL);
    assert_int_equal(av_get(back, "two")->type, AV_FLOAT);
    assert_true(av_get(back, "third")->u.f == 1.0 / 3.0);
    av_free(back);
    av_free(m);
    abuf_free(&b);
}

static void test_whole_buffer_helpers(void **state)
{
    (void)state;
    char err[200];
    av *v = msgpack_decode("\x93\x01\xc0\xc3", 4, err, sizeof err);
    assert_non_null(v);
    assert_int_equal(v->type, AV_LIST);
    assert_int_equal(av_len(v), 3);
    av_free(v);
    assert_null(msgpack_decode("", 0, err, sizeof err));
    assert_non_null(strstr(err, "empty"));
    v = json_decode(" [true, null, 1.5] ", 19, err, sizeof err);
    assert_non_null(v);
    assert_int_equal(av_len(v), 3);
    av_free(v);
    /* msgpack bin is read as a string */
    v = msgpack_decode("\xc4\x03"
                       "a\0b",
                       5, err, sizeof err);
    assert_non_null(v);
    assert_int_equal(v->type, AV_STR);
    assert_int_equal(av_len(v), 3);
    av_free(v);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_roundtrip_every_type),
        cmocka_unit_test(test_split_at_every_position),
        cmocka_unit_test(test_one_byte_at_a_time),
        cmocka_unit_test(test_many_in_one_feed),
        cmocka_unit_test(test_space_and_commit),
        cmocka_unit_test(test_commit_checks_the_cap),
        cmocka_unit_test(test_cap_at_limit_and_one_over),
        cmocka_unit_test(test_json_unterminated_line_capped),
        cmocka_unit_test(test_configurable_cap),
        cmocka_unit_test(test_garbage_errors),
        cmocka_unit_test(test_depth_limit),
        cmocka_unit_test(test_frame_of_many_keys),
        cmocka_unit_test(test_too_many_values_refused),
        cmocka_unit_test(test_agent_message_value_cap),
        cmocka_unit_test(test_detection),
        cmocka_unit_test(test_stays_failed),
        cmocka_unit_test(test_json_line_ends_and_blank_lines),
        cmocka_unit_test(test_small_map_repeated_keys),
        cmocka_unit_test(test_json_escapes),
        cmocka_unit_test(test_big_integers_become_floats),
        cmocka_unit_test(test_json_encoding_is_one_line),
        cmocka_unit_test(test_whole_buffer_helpers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
