/* An entrant's token for its private pages (docs/web.md): checked for
 * strength, kept only as a salted SHA-256 record, compared in time that
 * does not depend on where a wrong token differs. */
#ifndef ARENA_TOKEN_H
#define ARENA_TOKEN_H

#include <stdbool.h>
#include <stddef.h>

/* A token is TOKEN_MIN..TOKEN_MAX printable ASCII characters, no space:
 * 16 random ones of a 64-letter alphabet are 96 bits, out of reach of
 * guessing online (rate-limited) and of an offline search of a stolen
 * store's hashes. */
#define TOKEN_MIN 16
#define TOKEN_MAX 255
/* What no random token shows but typed ones do: fewer than 6 different
 * characters, or 6 in a row that repeat or step by one ("aaaaaa",
 * "123456"). Of random hex tokens 16 long, about 4 in 100,000 are refused
 * too (measured): the message says how to make another. */
#define TOKEN_MIN_DISTINCT 6
#define TOKEN_WEAK_RUN 6
/* "sha256:" + 32 hex of salt + ":" + 64 hex of hash, and its NUL. */
#define TOKEN_RECORD_LEN (7 + 32 + 1 + 64 + 1)

/* false with why in err when tok is not a token (too short, too long, a
 * byte outside '!'..'~') or looks weak (TOKEN_MIN_DISTINCT,
 * TOKEN_WEAK_RUN). */
bool token_valid(const char *tok, char *err, size_t errlen);
/* The record of tok under a fresh random salt. */
void token_record(const char *tok, char out[TOKEN_RECORD_LEN]);
/* Whether tok hashes to record. The work is the same for any tok and any
 * record, a malformed or empty one included (then false): which entrants
 * have a token is not told by the time an answer takes. */
bool token_matches(const char *record, const char *tok);
/* Equal in time that depends only on n. */
bool token_same_bytes(const void *a, const void *b, size_t n);
/* The token of a token file: its first line, without the line end (a file
 * of one token, as `openssl rand -hex 16 > F` writes). -1 with err when the
 * file cannot be read or holds no valid token. */
int token_read_file(const char *path, char *tok, size_t len, char *err, size_t errlen);

#endif
