/* UTF-8 validation shared by the msgpack decoder and the JSON writer. */
#ifndef ARENA_UTF8_H
#define ARENA_UTF8_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Length of the valid UTF-8 sequence at p (n >= 1 bytes left), or 0 if it is
 * invalid: overlong forms, surrogates and code points above U+10FFFF are. */
size_t utf8_seq(const uint8_t *p, size_t n);
/* True when all n bytes are valid UTF-8 (NUL included). */
bool utf8_valid(const void *p, size_t n);

#endif
