#include "utf8.h"

#include <string.h>

size_t utf8_seq(const uint8_t *p, size_t n)
{
    uint8_t b = p[0];
    size_t k;
    uint32_t cp, min;
    if (b < 0x80) return 1;
    if (b >= 0xc2 && b <= 0xdf) {
        k = 2, cp = b & 0x1f, min = 0x80;
    } else if (b >= 0xe0 && b <= 0xef) {
        k = 3, cp = b & 0x0f, min = 0x800;
    } else if (b >= 0xf0 && b <= 0xf4) {
        k = 4, cp = b & 0x07, min = 0x10000;
    } else {
        return 0;
    }
    if (n < k) return 0;
    for (size_t i = 1; i < k; i++) {
        if ((p[i] & 0xc0) != 0x80) return 0;
        cp = (cp << 6) | (p[i] & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return 0;
    return k;
}

/* The byte loop of every string the decoders take in, and the whole cost of
 * a long one: a 1 MiB string from an agent is checked in one callback of
 * the referee's loop (agent.c), and an agent picks the text that costs most.
 * A check sequence by sequence branches on each one's length and
 * mispredicts on mixed text (5 ms a MiB here). So the check is a state
 * machine stepped once a byte with no branch: the state is a bit offset,
 * and each byte's entry packs, at each state's offset, the next state
 * (6 bits a state). The states follow RFC 3629's well-formed sequences:
 * after E0, F0 the second byte's range excludes the overlong forms, after
 * ED the surrogates, after F4 what lies past U+10FFFF. */
enum {
    BAD = 0,    /* stays BAD: every entry's field at offset 0 is 0 */
    DONE = 6,   /* between sequences */
    NEED1 = 12, /* continuation bytes still to come: 1, 2, 3 */
    NEED2 = 18,
    NEED3 = 24,
    AFTER_E0 = 30, /* then A0..BF */
    AFTER_ED = 36, /* then 80..9F */
    AFTER_F0 = 42, /* then 90..BF */
    AFTER_F4 = 48  /* then 80..8F */
};
#define GO(from, to) ((uint64_t)(to) << (from))
#define ASC GO(DONE, DONE)
#define CONT_ANY (GO(NEED1, DONE) | GO(NEED2, NEED1) | GO(NEED3, NEED2))
#define C80 (CONT_ANY | GO(AFTER_ED, NEED1) | GO(AFTER_F4, NEED2)) /* 80..8F */
#define C90 (CONT_ANY | GO(AFTER_ED, NEED1) | GO(AFTER_F0, NEED2)) /* 90..9F */
#define CA0 (CONT_ANY | GO(AFTER_E0, NEED1) | GO(AFTER_F0, NEED2)) /* A0..BF */
#define L2 GO(DONE, NEED1)
#define L3 GO(DONE, NEED2)
#define L4 GO(DONE, NEED3)
#define LE0 GO(DONE, AFTER_E0)
#define LED GO(DONE, AFTER_ED)
#define LF0 GO(DONE, AFTER_F0)
#define LF4 GO(DONE, AFTER_F4)
#define NO 0 /* C0, C1, F5..FF: no sequence holds them */
#define X16(e) e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e
/* clang-format off */
static const uint64_t step[256] = {
    X16(ASC), X16(ASC), X16(ASC), X16(ASC), X16(ASC), X16(ASC), X16(ASC), X16(ASC), /* 00..7F */
    X16(C80), X16(C90), X16(CA0), X16(CA0),                                         /* 80..BF */
    NO,  NO, L2, L2, L2,  L2, L2, L2, L2, L2, L2, L2, L2, L2,  L2, L2,              /* C0..CF */
    X16(L2),                                                                        /* D0..DF */
    LE0, L3, L3, L3, L3,  L3, L3, L3, L3, L3, L3, L3, L3, LED, L3, L3,              /* E0..EF */
    LF0, L4, L4, L4, LF4, NO, NO, NO, NO, NO, NO, NO, NO, NO,  NO, NO,              /* F0..FF */
};
/* clang-format on */

bool utf8_valid(const void *p, size_t n)
{
    const uint8_t *s = p, *end = s + n;
    uint64_t st = DONE;
    while (end - s >= 8) {
        uint64_t w;
        memcpy(&w, s, 8);
        /* ASCII, the protocol's usual text, 8 bytes at a time */
        if (!(w & 0x8080808080808080u) && (st & 63) == DONE) {
            s += 8;
            continue;
        }
        /* Spelt out: at -O2 a loop of 8 costs three times as much. The
         * shift takes the low 6 bits of the state. */
        st = step[s[0]] >> (st & 63);
        st = step[s[1]] >> (st & 63);
        st = step[s[2]] >> (st & 63);
        st = step[s[3]] >> (st & 63);
        st = step[s[4]] >> (st & 63);
        st = step[s[5]] >> (st & 63);
        st = step[s[6]] >> (st & 63);
        st = step[s[7]] >> (st & 63);
        if ((st & 63) == BAD) return false;
        s += 8;
    }
    while (s < end)
        st = step[*s++] >> (st & 63);
    return (st & 63) == DONE;
}

size_t utf8_valid_prefix(const void *p, size_t n)
{
    if (utf8_valid(p, n)) return n;
    const uint8_t *s = p; /* a failure: find where, sequence by sequence */
    size_t i = 0, k;
    while (i < n && (k = utf8_seq(s + i, n - i)) != 0)
        i += k;
    return i;
}

/* Code points that move the cursor or reorder text on a terminal: C1
 * controls (U+0080..U+009F: 0x9b is CSI), the bidirectional marks,
 * embeddings, overrides and isolates, and the line and paragraph
 * separators. c is a decoded code point of n >= 2 bytes. */
static bool shown_as_mask(uint32_t c)
{
    return (c >= 0x80 && c <= 0x9f) || c == 0x061c || c == 0x200e || c == 0x200f ||
           (c >= 0x2028 && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069);
}

void utf8_mask_controls(char *s, bool keep_tab)
{
    uint8_t *p = (uint8_t *)s;
    size_t n = strlen(s);
    for (size_t i = 0; i < n;) {
        uint8_t b = p[i];
        if (b < 0x80) {
            if ((b < 0x20 && !(keep_tab && b == '\t')) || b == 0x7f) p[i] = '?';
            i++;
            continue;
        }
        size_t k = utf8_seq(p + i, n - i);
        if (k == 0) {
            p[i++] = '?';
            continue;
        }
        uint32_t c = b & (0x7f >> k);
        for (size_t j = 1; j < k; j++)
            c = c << 6 | (p[i + j] & 0x3f);
        if (shown_as_mask(c)) memset(p + i, '?', k);
        i += k;
    }
}

void utf8_mask_lines(char *s)
{
    for (char *nl; (nl = strchr(s, '\n')); s = nl + 1) {
        *nl = '\0';
        utf8_mask_controls(s, false);
        *nl = '\n';
    }
    utf8_mask_controls(s, false);
}

size_t utf8_cut(const char *s, size_t max)
{
    size_t n = strlen(s);
    if (n <= max) return n;
    while (max > 0 && ((uint8_t)s[max] & 0xc0) == 0x80)
        max--;
    return max;
}
