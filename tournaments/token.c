/* Entrants' tokens (token.h). */
#include "token.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "sha256.h"

bool token_valid(const char *tok, char *err, size_t errlen)
{
    size_t n = strlen(tok);
    if (n < TOKEN_MIN || n > TOKEN_MAX) {
        snprintf(err, errlen, "a token is %d to %d characters, not %zu", TOKEN_MIN, TOKEN_MAX, n);
        return false;
    }
    bool seen[128] = {false};
    int distinct = 0, run = 1;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)tok[i];
        if (c < 0x21 || c > 0x7e) {
            snprintf(err, errlen, "a token is printable ASCII without spaces");
            return false;
        }
        if (!seen[c]) distinct++;
        seen[c] = true;
        /* a run of one character repeated or stepping by one: "aaaaaa",
         * "123456", "fedcba" */
        int step = i ? (int)c - (unsigned char)tok[i - 1] : 9;
        int prev = i > 1 ? (unsigned char)tok[i - 1] - (unsigned char)tok[i - 2] : 9;
        run = step >= -1 && step <= 1 ? (step == prev ? run + 1 : 2) : 1;
        if (run >= TOKEN_WEAK_RUN) { /* (not quoted: it is someone's secret) */
            snprintf(err, errlen,
                     "the token looks weak (%d characters in a row repeat or step by one); make "
                     "a random one: openssl rand -hex 16",
                     TOKEN_WEAK_RUN);
            return false;
        }
    }
    if (distinct < TOKEN_MIN_DISTINCT) {
        snprintf(err, errlen,
                 "the token looks weak (%d different characters); make a random one: openssl "
                 "rand -hex 16",
                 distinct);
        return false;
    }
    return true;
}

static void hex(const uint8_t *b, size_t n, char *out)
{
    static const char d[] = "0123456789abcdef";
    for (size_t i = 0; i < n; i++) {
        out[2 * i] = d[b[i] >> 4];
        out[2 * i + 1] = d[b[i] & 15];
    }
    out[2 * n] = '\0';
}

static int unhex1(char c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* sha256(salt || tok), tok cut at TOKEN_MAX + 1 bytes: a longer one never
 * matches (no record holds one) and is not hashed whole. */
static void digest(const uint8_t salt[16], const char *tok, uint8_t out[32])
{
    uint8_t buf[16 + TOKEN_MAX + 1];
    size_t n = strnlen(tok, TOKEN_MAX + 1);
    memcpy(buf, salt, 16);
    memcpy(buf + 16, tok, n);
    sha256(buf, 16 + n, out);
}

void token_record(const char *tok, char out[TOKEN_RECORD_LEN])
{
    uint8_t salt[16], h[32];
    size_t got = 0;
    while (got < sizeof salt) {
        ssize_t r = getrandom(salt + got, sizeof salt - got, 0);
        if (r < 0 && errno != EINTR) {
            perror("arena: getrandom");
            abort();
        }
        if (r > 0) got += (size_t)r;
    }
    digest(salt, tok, h);
    memcpy(out, "sha256:", 7);
    hex(salt, 16, out + 7);
    out[39] = ':';
    hex(h, 32, out + 40);
}

bool token_same_bytes(const void *a, const void *b, size_t n)
{
    const volatile uint8_t *x = a, *y = b;
    uint8_t diff = 0;
    for (size_t i = 0; i < n; i++)
        diff |= x[i] ^ y[i];
    return diff == 0;
}

bool token_matches(const char *record, const char *tok)
{
    /* A record that does not parse is hashed against all the same, with a
     * zero salt, and then refused. */
    uint8_t salt[16] = {0}, want[32] = {0}, got[32];
    bool ok = record && strlen(record) == TOKEN_RECORD_LEN - 1 && !strncmp(record, "sha256:", 7) &&
              record[39] == ':';
    for (int i = 0; i < 48; i++) {
        const char *p = ok ? record + (i < 16 ? 7 + 2 * i : 40 + 2 * (i - 16)) : "00";
        int hi = unhex1(p[0]), lo = unhex1(p[1]);
        if (hi < 0 || lo < 0) ok = false, hi = lo = 0;
        if (i < 16)
            salt[i] = (uint8_t)(hi << 4 | lo);
        else
            want[i - 16] = (uint8_t)(hi << 4 | lo);
    }
    digest(salt, tok ? tok : "", got);
    bool same = token_same_bytes(got, want, sizeof got);
    return ok & same & (tok != NULL);
}

int token_read_file(const char *path, char *tok, size_t len, char *err, size_t errlen)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, errlen, "cannot read token file '%s': %s", path, strerror(errno));
        return -1;
    }
    char line[TOKEN_MAX + 3];
    bool got = fgets(line, sizeof line, f) != NULL;
    fclose(f);
    if (!got) {
        snprintf(err, errlen, "%s: empty", path);
        return -1;
    }
    line[strcspn(line, "\r\n")] = '\0';
    char why[128] = "the token does not fit";
    if (!token_valid(line, why, sizeof why) || strlen(line) >= len) {
        snprintf(err, errlen, "%s: %s", path, why);
        return -1;
    }
    snprintf(tok, len, "%s", line);
    return 0;
}
