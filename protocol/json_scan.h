/* What both JSON readers (json_read.c, decide_fast.c) check the same way:
 * a string's text, scanned eight bytes at a time (most protocol strings
 * are plain ASCII up to their closing quote), and an integer's range. */
#ifndef ARENA_JSON_SCAN_H
#define ARENA_JSON_SCAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* The first i' >= i with s[i'] a '"', a '\\', a control byte or a byte
 * above 0x7f; n if none. */
static inline size_t json_plain_end(const uint8_t *s, size_t i, size_t n)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    /* The mask flags the bytes sought; its lowest flag is exact (borrows
     * only run upwards), so it locates the first of them. */
    const uint64_t ones = 0x0101010101010101u, highs = 0x8080808080808080u;
    while (n - i >= 8) {
        uint64_t w, q, b, m;
        memcpy(&w, s + i, 8);
        q = w ^ (ones * '"');
        b = w ^ (ones * '\\');
        m = (((q - ones) & ~q) | ((b - ones) & ~b) | ((w - ones * 0x20) & ~w) | w) & highs;
        if (m) return i + (size_t)__builtin_ctzll(m) / 8;
        i += 8;
    }
#endif
    while (i < n && s[i] != '"' && s[i] != '\\' && s[i] >= 0x20 && s[i] < 0x80)
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
