/* SHA-256 (FIPS 180-4), for the HTML report's Content-Security-Policy: the
 * hash of its one inline style block lets that block, and nothing else,
 * style the page. */
#ifndef ARENA_SHA256_H
#define ARENA_SHA256_H

#include <stddef.h>
#include <stdint.h>

void sha256(const void *data, size_t len, uint8_t digest[32]);
/* The digest in base64, as CSP's 'sha256-...' wants it (44 chars + NUL). */
void sha256_base64(const void *data, size_t len, char out[45]);

#endif
