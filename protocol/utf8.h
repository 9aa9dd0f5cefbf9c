/* UTF-8 validation shared by the msgpack decoder and the JSON writer. */
#ifndef ARENA_UTF8_H
#define ARENA_UTF8_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Length of the valid UTF-8 sequence at p (n >= 1 bytes left), or 0 if it is
 * invalid: overlong forms, surrogates and code points above U+10FFFF are. */
size_t utf8_seq(const uint8_t *p, size_t n);
/* True when all n bytes are valid UTF-8 (NUL included). */
bool utf8_valid(const void *p, size_t n);
/* How many of the n bytes at p are valid UTF-8 before the first sequence
 * that is not (n when all are). */
size_t utf8_valid_prefix(const void *p, size_t n);

/* Agent text made safe to print on a terminal, in place: control characters
 * (C0 but a tab when keep_tab, DEL, C1), bidirectional controls, line and
 * paragraph separators, and bytes that are not valid UTF-8 become '?', one
 * per byte, so the length stays. An agent's name or log line cannot move the
 * cursor, recolour, hide or reorder what the operator reads. */
void utf8_mask_controls(char *s, bool keep_tab);
/* utf8_mask_controls (no tab kept) for each line of a text of several,
 * the line ends kept: a whole page of output made from stored text, masked
 * once before it is printed. */
void utf8_mask_lines(char *s);
/* The length of s cut to at most max bytes, at a character boundary of
 * valid UTF-8. */
size_t utf8_cut(const char *s, size_t max);

/* Whether the len bytes at p are ASCII (and, with nul_free, hold no NUL),
 * proven by one 8-byte load: true only for len < 8 with 8 bytes readable
 * at p (avail, as the rest of a frame); false says nothing. Most protocol
 * strings are short ASCII keys and names, where utf8_valid's byte loop
 * cost more than the rest of their reading. Inlined even at -Os, as the
 * SDK is built: called, it cost a quarter of what it saves. */
static inline __attribute__((always_inline)) bool utf8_short_ascii(const uint8_t *p, size_t len,
                                                                   size_t avail, bool nul_free)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    if (len >= 8 || avail < 8) return false;
    const uint64_t ones = 0x0101010101010101u, highs = 0x8080808080808080u;
    uint64_t w, keep = (1ull << (8 * len)) - 1; /* the first len bytes */
    memcpy(&w, p, 8);
    w = (w & keep) | ~keep; /* the bytes past the text count as 0xff */
    /* No byte >= 0x80 among the text's; no NUL (x - 1 borrows only through
     * a zero byte). */
    return ((w & keep) & highs) == 0 && (!nul_free || ((w - ones) & ~w & highs) == 0);
#else
    (void)p, (void)len, (void)avail, (void)nul_free;
    return false;
#endif
}

#endif
