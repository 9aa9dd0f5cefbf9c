/* The readers of protocol/ (json_read.c, msgpack_read.c) against the
 * decoders they replaced (json_oracle.c, msgpack_oracle.c), input by input.
 * Used by the differential tests and the fuzz-readers libFuzzer target. */
#ifndef ARENA_READER_DIFF_H
#define ARENA_READER_DIFF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum { DIFF_REFUSED, DIFF_ACCEPTED, DIFF_MISMATCH } diff_outcome;

/* Both diffs first check the readers' skipping walk (msgpack_skip_value,
 * json_skip_value) against their building one on the input: a mismatch
 * there is a mismatch too.
 *
 * Both accept with the same tree (same types, key order and float bits), or
 * both refuse with a "json: " reason. jansson skips a raw NUL byte right
 * after a number or literal ("[1\0]" reads as [1]); the reader refuses it,
 * and then must agree with jansson on the input without its NUL bytes:
 * *nul_quirk tells when that was the case. On a mismatch, why holds both
 * outcomes. */
diff_outcome json_diff(const void *p, size_t n, bool *nul_quirk, char *why, size_t whylen);
/* Both accept with the same tree, or both refuse with the same reason. */
diff_outcome msgpack_diff(const void *p, size_t n, char *why, size_t whylen);

/* What both differential tests draw their inputs from. */
void diff_seed(uint64_t seed); /* xorshift64*; seed 0 counts as 1 */
uint64_t diff_rnd(void);
size_t diff_below(size_t n); /* in [0, n); 0 when n is 0 */
/* Calls each(bytes, len) with the whole of every file of dir but dot files;
 * exits if dir cannot be opened. */
void diff_corpus(const char *dir, void (*each)(const uint8_t *p, size_t n));

#endif
