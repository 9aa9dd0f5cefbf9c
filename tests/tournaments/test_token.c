/* Entrants' tokens (tournaments/token.h): which are taken, the salted
 * record, and matching that refuses any other token, a malformed or
 * missing record and a missing token. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "sha256.h"
#include "token.h"

static void test_valid(void **state)
{
    (void)state;
    char err[128];
    assert_false(token_valid("short", err, sizeof err));
    assert_false(token_valid("fifteen-chars-x", err, sizeof err));
    assert_true(token_valid("sixteen-chars-xx", err, sizeof err));
    assert_false(token_valid("sixteen chars xxx", err, sizeof err)); /* a space */
    assert_false(token_valid("sixteen-chars-x\x01", err, sizeof err));
    assert_false(token_valid("sixteen-chars-x\xc3\xa9", err, sizeof err));
    char big[TOKEN_MAX + 2];
    for (size_t i = 0; i < sizeof big - 1; i++)
        big[i] = (char)('!' + i * 7 % 94);
    big[TOKEN_MAX + 1] = '\0';
    assert_false(token_valid(big, err, sizeof err));
    big[TOKEN_MAX] = '\0';
    assert_true(token_valid(big, err, sizeof err));
}

/* Typed tokens that pass the length and alphabet (red team: all three were
 * taken), and random ones that must not be refused. */
static void test_weak(void **state)
{
    (void)state;
    char err[128];
    const char *weak[] = {"aaaaaaaaaaaaaaaa", "0000000000000000", "password12345678",
                          "abcdefghijklmnop", "xyzzy-ponmlkjih-", "abababababababab"};
    for (size_t i = 0; i < sizeof weak / sizeof *weak; i++) {
        assert_false(token_valid(weak[i], err, sizeof err));
        assert_non_null(strstr(err, "weak"));
    }
    const char *fine[] = {"3f9c2a7e01b4d865", "9d41c0e6b27f35a8e0c91d47b6a2f358",
                          "k7Qp-2xZr_9LmW4v", "sixteen-chars-xx", "aaaaab1234zzzzz9"};
    for (size_t i = 0; i < sizeof fine / sizeof *fine; i++)
        assert_true(token_valid(fine[i], err, sizeof err));
}

static void test_record(void **state)
{
    (void)state;
    const char *tok = "0123456789abcdef0123";
    char a[TOKEN_RECORD_LEN], b[TOKEN_RECORD_LEN];
    token_record(tok, a);
    token_record(tok, b);
    assert_int_equal(strlen(a), TOKEN_RECORD_LEN - 1);
    assert_memory_equal(a, "sha256:", 7);
    assert_string_not_equal(a, b); /* a fresh salt each time */
    assert_null(strstr(a, tok));
    /* The hash is SHA-256 of the salt's bytes then the token's. */
    uint8_t buf[16 + 20], d[32];
    for (int i = 0; i < 16; i++)
        sscanf(a + 7 + 2 * i, "%2hhx", &buf[i]);
    memcpy(buf + 16, tok, 20);
    sha256(buf, sizeof buf, d);
    char h[65];
    for (int i = 0; i < 32; i++)
        snprintf(h + 2 * i, 3, "%02x", d[i]);
    assert_string_equal(a + 40, h);
    assert_true(token_matches(a, tok));
    assert_true(token_matches(b, tok));
}

static void test_refused(void **state)
{
    (void)state;
    const char *tok = "0123456789abcdef0123";
    char a[TOKEN_RECORD_LEN];
    token_record(tok, a);
    assert_false(token_matches(a, "0123456789abcdef012"));   /* a prefix */
    assert_false(token_matches(a, "0123456789abcdef01234")); /* longer */
    assert_false(token_matches(a, "1123456789abcdef0123"));
    assert_false(token_matches(a, ""));
    assert_false(token_matches(a, NULL));
    assert_false(token_matches(NULL, tok));
    assert_false(token_matches("", tok));
    char bad[TOKEN_RECORD_LEN];
    memcpy(bad, a, sizeof bad);
    bad[10] = 'g'; /* not hex */
    assert_false(token_matches(bad, tok));
    memcpy(bad, a, sizeof bad);
    bad[TOKEN_RECORD_LEN - 2] ^= 1; /* another hash */
    assert_false(token_matches(bad, tok));
    memcpy(bad, "sha512", 6);
    assert_false(token_matches(bad, tok));
    assert_true(token_same_bytes("abc", "abc", 3));
    assert_false(token_same_bytes("abc", "abd", 3));
}

static void test_file(void **state)
{
    (void)state;
    char path[] = "/tmp/arena-token-XXXXXX", tok[TOKEN_MAX + 1], err[256];
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fputs("3f9c2a7e01b4d865e0c9\r\nsecond line ignored\n", f);
    fclose(f);
    assert_int_equal(token_read_file(path, tok, sizeof tok, err, sizeof err), 0);
    assert_string_equal(tok, "3f9c2a7e01b4d865e0c9");
    f = fopen(path, "w");
    fputs("weak\n", f);
    fclose(f);
    assert_int_equal(token_read_file(path, tok, sizeof tok, err, sizeof err), -1);
    assert_non_null(strstr(err, "16 to 255"));
    remove(path);
    assert_int_equal(token_read_file(path, tok, sizeof tok, err, sizeof err), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_valid),   cmocka_unit_test(test_weak), cmocka_unit_test(test_record),
        cmocka_unit_test(test_refused), cmocka_unit_test(test_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
