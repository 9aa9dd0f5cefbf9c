/* utf8_valid and utf8_valid_prefix (a state machine stepped eight bytes at
 * a time, with its own path for the last few bytes) against a reference
 * written from RFC 3629's definition, one code point at a time: every
 * sequence of up to four bytes drawn from the bytes where the rules change,
 * at every offset across the eight-byte steps and into the tail; every
 * pair of bytes; and random text of valid and broken pieces. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "utf8.h"

/* Bytes valid up to the first ill-formed sequence, by the definition: a
 * lead byte gives the length, continuations are 10xxxxxx, and the code
 * point must need that length (no overlong form), be no surrogate and be
 * at most U+10FFFF. */
static size_t ref_prefix(const uint8_t *p, size_t n)
{
    size_t i = 0;
    while (i < n) {
        uint8_t b = p[i];
        size_t k = b < 0x80             ? 1
                   : (b & 0xe0) == 0xc0 ? 2
                   : (b & 0xf0) == 0xe0 ? 3
                   : (b & 0xf8) == 0xf0 ? 4
                                        : 0;
        if (k == 0 || n - i < k) return i;
        uint32_t cp = k == 1 ? b : (uint32_t)(b & (0x7f >> k));
        for (size_t j = 1; j < k; j++) {
            if ((p[i + j] & 0xc0) != 0x80) return i;
            cp = cp << 6 | (p[i + j] & 0x3f);
        }
        static const uint32_t least[5] = {0, 0, 0x80, 0x800, 0x10000};
        if (cp < least[k] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i;
        i += k;
    }
    return n;
}

static void check(const uint8_t *p, size_t n)
{
    size_t want = ref_prefix(p, n), got = utf8_valid_prefix(p, n);
    if (got != want) {
        char hex[3 * 32 + 1] = "";
        for (size_t i = 0; i < n && i < 32; i++)
            snprintf(hex + 3 * i, 4, "%02x ", p[i]);
        fail_msg("utf8_valid_prefix(%s) = %zu, want %zu", hex, got, want);
    }
    assert_int_equal(utf8_valid(p, n), want == n);
}

/* Where the rules change: ASCII's ends, each continuation range a second
 * byte may be held to, the bytes that never lead, and each kind of lead. */
static const uint8_t edges[] = {0x00, 0x41, 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf,
                                0xc0, 0xc1, 0xc2, 0xdf, 0xe0, 0xe1, 0xec, 0xed, 0xee,
                                0xef, 0xf0, 0xf1, 0xf3, 0xf4, 0xf5, 0xf8, 0xff};
#define EDGES (sizeof edges / sizeof edges[0])

static void test_short_sequences_at_every_offset(void **state)
{
    (void)state;
    uint8_t buf[24];
    for (size_t len = 1; len <= 4; len++) {
        size_t combos = 1;
        for (size_t j = 0; j < len; j++)
            combos *= EDGES;
        for (size_t c = 0; c < combos; c++) {
            uint8_t seq[4];
            for (size_t j = 0, x = c; j < len; j++, x /= EDGES)
                seq[j] = edges[x % EDGES];
            /* ASCII before and after: the 8-byte step, the tail, and the
             * sequence cut off by the end of the input */
            for (size_t at = 0; at <= 12; at++) {
                memset(buf, 'a', sizeof buf);
                memcpy(buf + at, seq, len);
                check(buf, at + len + 3);
                check(buf, at + len);
                if (len > 1) check(buf, at + len - 1);
            }
        }
    }
}

static void test_every_pair_of_bytes(void **state)
{
    (void)state;
    uint8_t buf[16];
    for (unsigned x = 0; x < 0x10000; x++) {
        for (size_t at = 5; at <= 9; at += 2) { /* before, across, after a step */
            memset(buf, 'a', sizeof buf);
            buf[at] = (uint8_t)(x >> 8), buf[at + 1] = (uint8_t)x;
            check(buf, sizeof buf);
        }
    }
}

static void test_random_text(void **state)
{
    (void)state;
    static const char *const pieces[] = {
        "a", "plain ascii text", "\xc3\xa9", "\xe2\x82\xac", "\xf0\x9d\x84\x9e", "\xed\x9f\xbf",
        "\xee\x80\x80", "\xf4\x8f\xbf\xbf", "\xef\xbf\xbf", "\xc2\x80",
        /* broken: */
        "\x80", "\xc3", "\xe2\x82", "\xed\xa0\x80", "\xf4\x90\x80\x80", "\xc0\xaf", "\xe0\x80\xaf",
        "\xf0\x80\x80\xaf", "\xff"};
    const size_t valid = 10, all = sizeof pieces / sizeof pieces[0];
    uint64_t seed = 7;
    uint8_t buf[4096];
    for (int t = 0; t < 20000; t++) {
        seed = seed * 6364136223846793005u + 1442695040888963407u;
        bool clean = (seed >> 60) & 1; /* half the texts stay valid */
        size_t n = 0, pieces_n = (seed >> 40) % 200;
        for (size_t i = 0; i < pieces_n; i++) {
            seed = seed * 6364136223846793005u + 1442695040888963407u;
            size_t pick = (seed >> 33) % (clean || (seed >> 20) % 16 ? valid : all);
            size_t len = strlen(pieces[pick]);
            if (n + len > sizeof buf) break;
            memcpy(buf + n, pieces[pick], len);
            n += len;
        }
        check(buf, n);
    }
}

/* What reaches a terminal: each control, bidi mark, separator and invalid
 * byte becomes '?', one per byte; printable text, tabs (when kept) and
 * other non-ASCII characters stay. */
static void test_mask_controls(void **state)
{
    (void)state;
    static const struct {
        const char *in, *tab_kept, *tab_masked;
    } cases[] = {
        {"plain name", "plain name", "plain name"},
        {"a\tb", "a\tb", "a?b"},
        {"\x1b[31mred\r\x08\x07\x7f", "?[31mred????", "?[31mred????"},
        {"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x8e\xb2", "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x8e\xb2",
         "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x8e\xb2"},
        {"\xc2\x9b"
         "31m \xc2\x80\xc2\x9f \xc2\xa0",
         "??31m ???? \xc2\xa0", "??31m ???? \xc2\xa0"},
        {"\xe2\x80\xae"
         "abc\xe2\x81\xa6\xe2\x81\xa9\xe2\x80\x8e\xd8\x9c",
         "???abc???????????", "???abc???????????"},
        {"\xe2\x80\xa8\xe2\x80\xa9\xe2\x80\xa7\xe2\x80\xaf", "??????\xe2\x80\xa7\xe2\x80\xaf",
         "??????\xe2\x80\xa7\xe2\x80\xaf"},
        {"\x9b\xff\xc3x\xed\xa0\x80", "???x???", "???x???"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        for (int keep = 0; keep < 2; keep++) {
            char buf[64];
            snprintf(buf, sizeof buf, "%s", cases[i].in);
            utf8_mask_controls(buf, keep);
            assert_string_equal(buf, keep ? cases[i].tab_kept : cases[i].tab_masked);
        }
    }
}

static void test_cut_at_a_character(void **state)
{
    (void)state;
    assert_int_equal(utf8_cut("abc", 5), 3);
    assert_int_equal(utf8_cut("abcdef", 4), 4);
    assert_int_equal(utf8_cut("ab\xc3\xa9", 3), 2);         /* not inside é */
    assert_int_equal(utf8_cut("a\xf0\x9f\x8e\xb2z", 4), 1); /* nor inside the die */
    assert_int_equal(utf8_cut("a\xf0\x9f\x8e\xb2z", 5), 5);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_short_sequences_at_every_offset),
        cmocka_unit_test(test_every_pair_of_bytes),
        cmocka_unit_test(test_random_text),
        cmocka_unit_test(test_mask_controls),
        cmocka_unit_test(test_cut_at_a_character),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
