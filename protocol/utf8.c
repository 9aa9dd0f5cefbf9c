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

bool utf8_valid(const void *p, size_t n)
{
    const uint8_t *s = p;
    size_t i = 0;
    while (i < n) {
        /* ASCII runs, the protocol's usual text, eight bytes at a time */
        while (n - i >= 8) {
            uint64_t w;
            memcpy(&w, s + i, 8);
            if (w & 0x8080808080808080u) break;
            i += 8;
        }
        if (i >= n) break;
        if (s[i] < 0x80) {
            i++;
            continue;
        }
        size_t k = utf8_seq(s + i, n - i);
        if (k == 0) return false;
        i += k;
    }
    return true;
}
