/* What both JSON readers (json_read.c, decide_fast.c) and the writer
 * (json_write.c) scan the same way: a string's text, eight bytes at a time
 * (most protocol strings are plain ASCII up to their closing quote), and
 * an integer's range. */
#ifndef ARENA_JSON_SCAN_H
#define ARENA_JSON_SCAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Bytes that stand in a string's text as they are: JSON_READ_PLAIN for
 * the readers (printable ASCII and DEL, not '"' or '\\'), JSON_WRITE_PLAIN
 * for the writer, which escapes DEL as well. A table, as most protocol
 * strings are keys shorter than a word and end in the byte-wise loop. */
enum { JSON_READ_PLAIN = 1, JSON_WRITE_PLAIN = 2 };
/* clang-format off */
#define JSON_ROW_(x) x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x
static const uint8_t json_plain_tab[256] = {
    JSON_ROW_(0),
    JSON_ROW_(0),
    3, 3, 0, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, /* 0x20: '"' */
    JSON_ROW_(3),
    JSON_ROW_(3),
    3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 0, 3, 3, 3, /* 0x50: '\\' */
    JSON_ROW_(3),
    3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 1, /* 0x70: DEL */
    /* 0x80 to 0xff: 0 */
};
#undef JSON_ROW_
/* clang-format on */

/* The high bit of each byte of w (eight bytes of text, in memory order)
 * that is not plain for mask; only the lowest is exact (borrows only run
 * upwards), which is the one a scan wants. */
static inline uint64_t json_stops(uint64_t w, int mask)
{
    const uint64_t ones = 0x0101010101010101u, highs = 0x8080808080808080u;
    uint64_t q = w ^ (ones * '"'), b = w ^ (ones * '\\');
    uint64_t m = ((q - ones) & ~q) | ((b - ones) & ~b) | ((w - ones * 0x20) & ~w) | w;
    if (mask == JSON_WRITE_PLAIN) {
        uint64_t d = w ^ (ones * 0x7f);
        m |= (d - ones) & ~d;
    }
    return m & highs;
}

/* The first i' >= i with s[i'] not plain for the readers (a '"', a '\\',
 * a control byte or UTF-8); n if none. */
static inline size_t json_plain_end(const uint8_t *s, size_t i, size_t n)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    while (n - i >= 8) {
        uint64_t w, m;
        memcpy(&w, s + i, 8);
        if ((m = json_stops(w, JSON_READ_PLAIN)) != 0) return i + (size_t)__builtin_ctzll(m) / 8;
        i += 8;
    }
#endif
    while (i < n && (json_plain_tab[s[i]] & JSON_READ_PLAIN))
        i++;
    return i;
}

/* The first i' >= i with s[i'] a '"', a '\\' or a control byte; n if none.
 * What it passes over is a string's text as it stands, UTF-8 included,
 * to be checked as UTF-8 in one go. */
static inline size_t json_text_end(const uint8_t *s, size_t i, size_t n)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    const uint64_t ones = 0x0101010101010101u, highs = 0x8080808080808080u;
    while (n - i >= 8) {
        uint64_t w, q, b;
        memcpy(&w, s + i, 8);
        q = w ^ (ones * '"'), b = w ^ (ones * '\\');
        /* as json_stops, less its `| w`: a byte of UTF-8 is no stop */
        uint64_t m = (((q - ones) & ~q) | ((b - ones) & ~b) | ((w - ones * 0x20) & ~w)) & highs;
        if (m) return i + (size_t)__builtin_ctzll(m) / 8;
        i += 8;
    }
#endif
    while (i < n && s[i] != '"' && s[i] != '\\' && s[i] >= 0x20)
        i++;
    return i;
}

/* Whether the integer of the nd decimal digits at d (negative: neg) fits
 * int64. */
static inline bool json_int_fits(const uint8_t *d, size_t nd, bool neg)
{
    const char *lim = neg ? "9223372036854775808" : "9223372036854775807";
    return nd < 19 || (nd == 19 && memcmp(d, lim, 19) <= 0);
}

#endif
