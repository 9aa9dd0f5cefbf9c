/* libFuzzer target for the frame decoder, both codecs and msg_decode.
 *
 * The input is a byte stream as an agent would send it. It is fed to a
 * frame_decoder in pseudo-random splits derived from the input itself, once
 * per codec mode (auto-detected, forced msgpack, forced json), with a frame
 * cap also derived from the input. Besides "no crash, no leak, no UB" it
 * checks properties that must hold for every input:
 *  - a failed decoder stays failed and holds no bytes;
 *  - every decoded message re-encodes to msgpack and decodes back to a
 *    message whose msgpack encoding is byte-identical (a fixed point);
 *  - the JSON writer's output is one line and always reads back;
 *  - a twin decoder fed the same splits but read as the C SDK reads
 *    (frame_decoder_next_fast with the decide fast path) gives the same
 *    maps and errors, and any message the fast paths take (decide, hello,
 *    over) is the message msg_decode makes of the map;
 *  - the fast path with skip_state takes exactly the frames it takes
 *    without, and gives the same message but for view and events (NULL). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codec.h"
#include "decide_fast.h"
#include "messages.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Tallies for the corpus driver, which checks the run reached both valid
 * messages and decoder errors (a silently inert target would pass anyway). */
size_t fuzz_messages_ok, fuzz_streams_failed, fuzz_fast_decides, fuzz_fast_hello_over;

#define CHECK(cond)                                                                                \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "fuzz_decoder: check failed: %s (line %d)\n", #cond, __LINE__);        \
            abort();                                                                               \
        }                                                                                          \
    } while (0)

static uint64_t mix(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    x ^= x >> 33;
    return x;
}

static av *roundtrip_msgpack(const av *v)
{
    abuf b = {0};
    codec_encode(CODEC_MSGPACK, v, &b);
    frame_decoder d;
    frame_decoder_init(&d, b.len, CODEC_NONE);
    frame_decoder_feed(&d, b.data, b.len);
    av *back = NULL;
    CHECK(frame_decoder_next(&d, &back) == 1);
    CHECK(frame_decoder_pending(&d) == 0);
    frame_decoder_free(&d);
    abuf_free(&b);
    return back;
}

static void check_message(const av *map)
{
    char err[200];
    msg m;
    if (msg_decode(map, &m, err, sizeof err) != 0) {
        CHECK(m.type == MSG__COUNT);
        CHECK(err[0] != '\0' && !strchr(err, '\n'));
        return;
    }
    fuzz_messages_ok++;
    /* fixed point: msg -> map -> bytes -> map -> msg -> map -> bytes */
    av *enc1 = msg_encode(&m);
    av *wire = roundtrip_msgpack(enc1);
    msg m2;
    CHECK(msg_decode(wire, &m2, err, sizeof err) == 0);
    CHECK(m2.type == m.type);
    av *enc2 = msg_encode(&m2);
    abuf b1 = {0}, b2 = {0};
    codec_encode(CODEC_MSGPACK, enc1, &b1);
    codec_encode(CODEC_MSGPACK, enc2, &b2);
    CHECK(b1.len == b2.len && memcmp(b1.data, b2.data, b1.len) == 0);

    /* JSON: one line that always parses back to a map */
    abuf j = {0};
    codec_encode(CODEC_JSON, enc1, &j);
    CHECK(j.len > 0 && j.data[j.len - 1] == '\n');
    CHECK(memchr(j.data, '\n', j.len - 1) == NULL);
    av *jv = json_decode((const char *)j.data, j.len - 1, err, sizeof err);
    CHECK(jv != NULL && jv->type == AV_MAP);

    av_free(jv);
    abuf_free(&j);
    abuf_free(&b1);
    abuf_free(&b2);
    av_free(enc2);
    msg_free(&m2);
    av_free(wire);
    av_free(enc1);
    msg_free(&m);
}

static void msgpack_of(const msg *m, abuf *b)
{
    av *t = msg_encode(m);
    codec_encode(CODEC_MSGPACK, t, b);
    av_free(t);
}

/* The fast path's string buffers (with and without skip_state), reused
 * from input to input as the SDK reuses its one. */
static decide_buf bufs[2];

/* The fast paths as the SDK runs them, decide checked against itself with
 * skip_state on the same bytes. */
static bool fast_cb(void *out, codec_kind c, const uint8_t *p, size_t n)
{
    msg *m = out, s;
    bool took = msg_decide_fast(c, p, n, false, &bufs[0], m);
    CHECK(msg_decide_fast(c, p, n, true, &bufs[1], &s) == took);
    if (!took) return msg_hello_over_fast(c, p, n, false, m);
    if (took) {
        CHECK(s.u.decide.view == NULL && s.u.decide.events == NULL);
        s.u.decide.view = m->u.decide.view; /* borrowed for the encoding */
        s.u.decide.events = m->u.decide.events;
        abuf a = {0}, b = {0};
        msgpack_of(m, &a);
        msgpack_of(&s, &b);
        CHECK(a.len == b.len && memcmp(a.data, b.data, a.len) == 0);
        abuf_free(&a);
        abuf_free(&b);
    }
    return took;
}

/* Same tree, float bits included: av_equal says a NaN differs from itself. */
static bool same_tree(const av *a, const av *b)
{
    abuf x = {0}, y = {0};
    codec_encode(CODEC_MSGPACK, a, &x);
    codec_encode(CODEC_MSGPACK, b, &y);
    bool same = x.len == y.len && memcmp(x.data, y.data, x.len) == 0;
    abuf_free(&x);
    abuf_free(&y);
    return same;
}

/* The twin decoder's next result against the main one's (rc, map m). */
static void check_twin(frame_decoder *d, frame_decoder *f, int rc, const av *m)
{
    msg fm;
    av *fmap = NULL;
    int frc = frame_decoder_next_fast(f, fast_cb, &fm, &fmap);
    if (frc == 2) {
        CHECK(rc == 1 && fmap == NULL);
        char err[200];
        msg g;
        CHECK(msg_decode(m, &g, err, sizeof err) == 0 && g.type == fm.type);
        abuf a = {0}, b = {0};
        msgpack_of(&fm, &a);
        msgpack_of(&g, &b);
        CHECK(a.len == b.len && memcmp(a.data, b.data, a.len) == 0);
        abuf_free(&a);
        abuf_free(&b);
        msg_free(&g);
        if (fm.type == MSG_DECIDE) {
            msg_decide_fast_release(&fm);
            fuzz_fast_decides++;
        } else {
            msg_free(&fm);
            fuzz_fast_hello_over++;
        }
        return;
    }
    CHECK(frc == rc);
    CHECK(rc != 1 || same_tree(m, fmap));
    CHECK(rc >= 0 || strcmp(d->error, f->error) == 0);
    av_free(fmap);
}

static void run(const uint8_t *data, size_t size, codec_kind forced, uint64_t seed)
{
    static const size_t caps[] = {0, 16, 100, 1000, 4096};
    frame_decoder d, f;
    frame_decoder_init(&d, caps[seed % 5], forced);
    frame_decoder_init(&f, caps[seed % 5], forced);
    uint64_t r = seed;
    size_t off = 0;
    bool failed = false;
    while (off < size) {
        r = mix(r + off);
        size_t chunk;
        switch (r % 4) {
        case 0: chunk = 1; break;
        case 1: chunk = 1 + (r >> 8) % 7; break;
        case 2: chunk = 1 + (r >> 8) % 64; break;
        default: chunk = size - off; break;
        }
        if (chunk > size - off) chunk = size - off;
        frame_decoder_feed(&d, data + off, chunk);
        frame_decoder_feed(&f, data + off, chunk);
        off += chunk;
        av *m;
        int rc;
        while ((rc = frame_decoder_next(&d, &m)) == 1) {
            check_twin(&d, &f, rc, m);
            CHECK(!failed && m && m->type == AV_MAP);
            check_message(m);
            av_free(m);
        }
        CHECK(m == NULL);
        check_twin(&d, &f, rc, NULL);
        if (rc < 0) {
            CHECK(d.failed && d.error[0] && !strchr(d.error, '\n'));
            CHECK(frame_decoder_pending(&d) == 0);
            if (!failed) fuzz_streams_failed++;
            failed = true;
        } else {
            CHECK(!failed);
            /* never more than one capped frame (plus its header) pending */
            size_t cap = d.max_frame;
            CHECK(d.codec != CODEC_MSGPACK || frame_decoder_pending(&d) < 4 + cap);
            CHECK(d.codec != CODEC_JSON || frame_decoder_pending(&d) <= cap);
        }
    }
    frame_decoder_free(&d);
    frame_decoder_free(&f);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint64_t h = 0x9e3779b97f4a7c15ULL ^ size;
    for (size_t i = 0; i < size; i++)
        h = (h ^ data[i]) * 0x100000001b3ULL;
    run(data, size, CODEC_NONE, mix(h));
    run(data, size, CODEC_MSGPACK, mix(h + 1));
    run(data, size, CODEC_JSON, mix(h + 2));
    /* whole-buffer helpers on the raw input */
    char err[200];
    av *v = msgpack_decode(data, size, err, sizeof err);
    av_free(v);
    v = json_decode((const char *)data, size, err, sizeof err);
    av_free(v);
    return 0;
}

/* ---- for the corpus driver (corpus_driver.c) ---- */
int fuzz_after_seeds(void);
int fuzz_after_mutations(size_t n_seeds, long mutations, double cpu_s);

static size_t seed_ok, seed_failed;

int fuzz_after_seeds(void)
{
    /* The seeds hold valid messages and every error class: both must show. */
    seed_ok = fuzz_messages_ok, seed_failed = fuzz_streams_failed;
    if (seed_ok == 0 || seed_failed == 0) {
        fprintf(stderr, "seed corpus decoded %zu messages, %zu failed streams: expected both\n",
                seed_ok, seed_failed);
        return 1;
    }
    return 0;
}

int fuzz_after_mutations(size_t n_seeds, long mutations, double cpu_s)
{
    printf("fuzz-decoder-corpus: %zu seeds (%zu messages, %zu failed streams), %ld mutations "
           "(%zu messages, %zu failed streams), %zu decides and %zu hellos and overs by the "
           "SDK's fast paths, %.2f s CPU\n",
           n_seeds, seed_ok, seed_failed, mutations, fuzz_messages_ok - seed_ok,
           fuzz_streams_failed - seed_failed, fuzz_fast_decides, fuzz_fast_hello_over, cpu_s);
    if (fuzz_fast_decides == 0 || fuzz_fast_hello_over == 0) {
        fprintf(stderr, "no decide or no hello/over took the SDK's fast paths: the twin check "
                        "was inert\n");
        return 1;
    }
    return 0;
}
