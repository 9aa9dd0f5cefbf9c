/* Differential test of the one-pass msgpack reader (protocol/msgpack_read.c)
 * against the three-pass decoder it replaced (msgpack_oracle.c).
 *
 * For every input both must give the same tree (compared through its
 * msgpack encoding: types, key order, float bits) or refuse with the very
 * same reason. Inputs: every seed of the fuzz corpus (whole and without its
 * frame header), generated payloads covering every lead byte, length form
 * and protocol rule (UTF-8, NUL in keys, repeated keys, depth and value
 * limits, ext, 0xc1), and mutations of all of those.
 *
 * usage: test-msgpack-read CORPUS_DIR [GENERATED] [SEED] */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codec.h"
#include "reader_diff.h"
#include "util.h"

static size_t n_inputs, n_accepted, n_refused, n_mismatches;

static void show(const char *what, const uint8_t *p, size_t n)
{
    fprintf(stderr, "%s (%zu bytes):", what, n);
    for (size_t i = 0; i < n && i < 200; i++)
        fprintf(stderr, " %02x", p[i]);
    fprintf(stderr, "%s\n", n > 200 ? " ..." : "");
}

static void check(const void *p, size_t n)
{
    char why[700];
    diff_outcome r = msgpack_diff(p, n, why, sizeof why);
    n_inputs++;
    n_accepted += r == DIFF_ACCEPTED;
    n_refused += r == DIFF_REFUSED;
    if (r == DIFF_MISMATCH && ++n_mismatches <= 20) {
        show("MISMATCH on", p, n);
        fprintf(stderr, "  %s\n", why);
    }
}

/* ------------------------------------------------------------ generator */

static void be(abuf *b, uint64_t v, size_t k)
{
    for (size_t i = 0; i < k; i++)
        abuf_addc(b, (char)(uint8_t)(v >> (8 * (k - 1 - i))));
}

static void gen_text(abuf *b, size_t len, bool key)
{
    for (size_t i = 0; i < len; i++) {
        size_t r = diff_below(40);
        if (r == 0)
            abuf_addc(b, (char)(0x80 + diff_below(0x80))); /* likely broken UTF-8 */
        else if (r == 1)
            abuf_adds(b, "\xc3\xa9");
        else if (r == 2 && key)
            abuf_addc(b, 0);
        else
            abuf_addc(b, (char)("abcdeknotyp_"[diff_below(12)]));
    }
}

/* A str (or, when bin, a bin) header of a random valid form, then text. */
static void gen_str(abuf *b, bool key, bool bin)
{
    size_t len = diff_below(5) ? diff_below(12) : diff_below(300);
    if (key && diff_below(3) == 0) len = 1 + diff_below(2); /* short keys repeat */
    size_t form = bin ? 1 + diff_below(3) : diff_below(4);
    if (form == 0 && len < 32)
        abuf_addc(b, (char)(0xa0 | len));
    else if (form <= 1 && len < 256)
        abuf_addc(b, (char)(bin ? 0xc4 : 0xd9)), be(b, len, 1);
    else if (form <= 2 && len < 65536)
        abuf_addc(b, (char)(bin ? 0xc5 : 0xda)), be(b, len, 2);
    else
        abuf_addc(b, (char)(bin ? 0xc6 : 0xdb)), be(b, len, 4);
    gen_text(b, len, key);
}

static void gen_value(abuf *b, int depth)
{
    size_t pick = depth > 36 ? diff_below(6) : diff_below(depth < 3 ? 12 : 9);
    switch (pick) {
    case 0: abuf_addc(b, (char)(diff_below(2) ? diff_below(0x80) : 0xe0 + diff_below(0x20))); break;
    case 1: {
        static const uint8_t ints[] = {0xcc, 0xcd, 0xce, 0xcf, 0xd0, 0xd1, 0xd2, 0xd3};
        static const size_t sizes[] = {1, 2, 4, 8, 1, 2, 4, 8};
        size_t k = diff_below(8);
        abuf_addc(b, (char)ints[k]);
        be(b, diff_rnd(), sizes[k]);
        break;
    }
    case 2:
        if (diff_below(2))
            abuf_addc(b, (char)0xca), be(b, diff_rnd(), 4);
        else
            abuf_addc(b, (char)0xcb), be(b, diff_rnd(), 8);
        break;
    case 3: abuf_addc(b, (char)(0xc0 + (diff_below(8) ? 2 + diff_below(2) : diff_below(2)))); break;
    case 4: gen_str(b, false, false); break;
    case 5:
        if (diff_below(6) == 0) { /* ext (refused) */
            static const uint8_t ext[] = {0xd4, 0xd5, 0xd6, 0xd7, 0xd8, 0xc7};
            abuf_addc(b, (char)ext[diff_below(6)]);
            abuf_adds(b, "\x01\x02");
        } else {
            gen_str(b, false, true);
        }
        break;
    default: {
        bool map = pick % 2;
        size_t k = depth > 2 && diff_below(3) == 0 ? 1 : diff_below(7);
        if (diff_below(4) == 0)
            abuf_addc(b, (char)(map ? 0xde : 0xdc)), be(b, k, 2);
        else if (diff_below(8) == 0)
            abuf_addc(b, (char)(map ? 0xdf : 0xdd)), be(b, k, 4);
        else
            abuf_addc(b, (char)((map ? 0x80 : 0x90) | k));
        for (size_t i = 0; i < k; i++) {
            if (map) {
                if (diff_below(30) == 0)
                    gen_value(b, depth + 1); /* most likely not a string key */
                else
                    gen_str(b, true, false);
            }
            gen_value(b, depth + 1);
        }
        break;
    }
    }
}

static const uint8_t interesting[] = {0x00, 0x01, 0x7f, 0x80, 0x81, 0x8f, 0x90, 0x9f, 0xa0, 0xa5,
                                      0xbf, 0xc0, 0xc1, 0xc2, 0xc4, 0xc7, 0xca, 0xcb, 0xcf, 0xd3,
                                      0xd4, 0xd9, 0xdb, 0xdc, 0xdd, 0xde, 0xdf, 0xe0, 0xff};

static void mutate(abuf *b)
{
    int steps = 1 + (int)diff_below(3);
    for (int s = 0; s < steps; s++) {
        size_t len = b->len;
        switch (diff_below(5)) {
        case 0:
            if (len) b->data[diff_below(len)] ^= (uint8_t)(1u << diff_below(8));
            break;
        case 1:
            if (len) b->data[diff_below(len)] = interesting[diff_below(sizeof interesting)];
            break;
        case 2: {
            size_t at = diff_below(len + 1);
            abuf_reserve(b, 1);
            memmove(b->data + at + 1, b->data + at, len - at);
            b->data[at] = interesting[diff_below(sizeof interesting)];
            b->len++;
            break;
        }
        case 3: {
            if (!len) break;
            size_t at = diff_below(len), k = 1 + diff_below(len - at < 8 ? len - at : 8);
            memmove(b->data + at, b->data + at + k, len - at - k);
            b->len -= k;
            break;
        }
        default: b->len = diff_below(len + 1); break;
        }
    }
}

static void check_mutants(const uint8_t *p, size_t n, int count)
{
    check(p, n);
    for (int m = 0; m < count; m++) {
        abuf c = {0};
        abuf_add(&c, p, n);
        mutate(&c);
        check(c.data, c.len);
        abuf_free(&c);
    }
}

/* ---------------------------------------------------------------- inputs */

static void limits(void)
{
    check("", 0);
    /* depth: 32 nested containers pass, 33 do not */
    for (int d = 30; d <= 34; d++) {
        abuf b = {0};
        for (int i = 0; i < d; i++)
            abuf_adds(&b, i % 2 ? "\x91" : "\x81\xa1k");
        abuf_addc(&b, 0x01);
        check(b.data, b.len);
        abuf_free(&b);
    }
    /* value count around PROTO_MAX_VALUES: a list of n items */
    for (size_t n = PROTO_MAX_VALUES - 2; n <= PROTO_MAX_VALUES + 1; n++) {
        abuf b = {0};
        abuf_addc(&b, (char)0xdc);
        be(&b, n, 2);
        for (size_t i = 0; i < n; i++)
            abuf_addc(&b, 0);
        check(b.data, b.len);
        abuf_free(&b);
    }
    /* a big map of distinct keys, and one of a single repeated key */
    for (int rep = 0; rep < 2; rep++) {
        abuf b = {0};
        size_t n = 5000;
        abuf_addc(&b, (char)0xde);
        be(&b, n, 2);
        for (size_t i = 0; i < n; i++) {
            char k[16];
            int kl = snprintf(k, sizeof k, "k%zu", rep ? i % 3 : i);
            abuf_addc(&b, (char)(0xa0 | kl));
            abuf_add(&b, k, (size_t)kl);
            abuf_addc(&b, (char)(i & 0x7f));
        }
        check(b.data, b.len);
        abuf_free(&b);
    }
}

/* Short keys and strings with a NUL, a high byte, a valid or broken UTF-8
 * sequence at each place, with and without 8 bytes of frame after their
 * start: the skipping walk proves short ASCII text with one 8-byte load
 * when the frame has the bytes, and must refuse what the building walk
 * refuses either way. */
static void short_texts(void)
{
    static const char *const odd[] = {"\x00", "\x80", "\xc3\xa9", "\xc3", "\xff", "\x7f"};
    for (size_t len = 0; len <= 9; len++)
        for (size_t at = 0; at <= len; at++)
            for (size_t o = 0; o < sizeof odd / sizeof *odd; o++)
                for (int tail = 0; tail <= 8; tail += 8) {
                    /* len bytes of 'k', the one at `at` (if any) replaced by odd[o] */
                    char text[16];
                    memset(text, 'k', sizeof text);
                    size_t ol = o == 0 ? 1 : strlen(odd[o]), tl = len;
                    if (at < len) {
                        memcpy(text + at, odd[o], ol);
                        tl = len - 1 + ol;
                    }
                    for (int key = 0; key <= 1; key++) {
                        abuf b = {0};
                        abuf_addc(&b, key ? (char)0x81 : (char)0x91);
                        abuf_addc(&b, (char)(0xa0 | tl));
                        abuf_add(&b, text, tl);
                        if (key) abuf_addc(&b, 0x01);
                        for (int i = 0; i < tail; i++) /* the bytes after, in the frame */
                            abuf_addc(&b, 0x01);
                        check(b.data, b.len);
                        abuf_free(&b);
                    }
                }
}

/* A corpus file (length-prefixed frames) and its payload, with mutants. */
static void corpus_file(const uint8_t *p, size_t n)
{
    check_mutants(p, n, 50);
    if (n > 4) check_mutants(p + 4, n - 4, 200); /* the payload */
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s CORPUS_DIR [GENERATED] [SEED]\n", argv[0]);
        return 2;
    }
    size_t generated = argc > 2 ? strtoull(argv[2], NULL, 10) : 20000;
    diff_seed(argc > 3 ? strtoull(argv[3], NULL, 10) : 0x9e3779b97f4a7c15ULL);

    limits();
    short_texts();
    diff_corpus(argv[1], corpus_file);
    for (size_t i = 0; i < generated; i++) {
        abuf b = {0};
        gen_value(&b, 0);
        check_mutants(b.data, b.len, 4);
        abuf_free(&b);
    }
    printf("%zu inputs: %zu accepted alike, %zu refused alike, %zu mismatches\n", n_inputs,
           n_accepted, n_refused, n_mismatches);
    /* An inert run (everything refused, or nothing) would prove nothing. */
    if (n_accepted < n_inputs / 10 || n_refused < n_inputs / 10) {
        fprintf(stderr, "too few accepted or refused inputs to compare\n");
        return 1;
    }
    return n_mismatches ? 1 : 0;
}
