/* The value tree and its JSON writer. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "codec.h"
#include "utf8.h"
#include "util.h"
#include "value.h"

static av *sample(void)
{
    av *m = av_map();
    av_set_int(m, "i", -7);
    av_set(m, "f", av_float(0.5));
    av_set_bool(m, "b", true);
    av_set(m, "n", av_nil());
    av_set(m, "s", av_strn("a\0b", 3));
    av_set(m, "l", av_push(av_push(av_list(), av_int(1)), av_map()));
    return m;
}

static void test_equal(void **state)
{
    (void)state;
    av *a = sample(), *b = sample();
    assert_true(av_equal(a, b));
    /* map key order does not matter */
    av *c = av_map();
    for (size_t i = a->u.map.len; i-- > 0;)
        av_set(c, a->u.map.keys[i], av_copy(a->u.map.vals[i]));
    assert_true(av_equal(a, c));
    /* list order does */
    av *l1 = av_push(av_push(av_list(), av_int(1)), av_int(2));
    av *l2 = av_push(av_push(av_list(), av_int(2)), av_int(1));
    assert_false(av_equal(l1, l2));
    /* int 1 != float 1.0, embedded NULs compared */
    av *i1 = av_int(1), *f1 = av_float(1.0);
    assert_false(av_equal(i1, f1));
    av_set(b, "s", av_strn("a\0c", 3));
    assert_false(av_equal(a, b));
    av_set(b, "s", av_strn("a\0b", 3));
    av_set_int(b, "extra", 1);
    assert_false(av_equal(a, b));
    assert_false(av_equal(b, a));
    assert_true(av_equal(NULL, NULL));
    assert_false(av_equal(a, NULL));
    av_free(a), av_free(b), av_free(c), av_free(l1), av_free(l2), av_free(i1), av_free(f1);
}

static void test_copy(void **state)
{
    (void)state;
    av *a = sample();
    av *b = av_copy(a);
    assert_true(av_equal(a, b));
    assert_ptr_not_equal(a, b);
    /* deep: changing the copy leaves the original alone */
    av_push((av *)av_get(b, "l"), av_int(3));
    assert_int_equal(av_len(av_get(a, "l")), 2);
    assert_false(av_equal(a, b));
    assert_null(av_copy(NULL));
    av_free(a), av_free(b);
}

static void test_take_and_set_replace(void **state)
{
    (void)state;
    av *m = sample();
    size_t n = av_len(m);
    av *s = av_take(m, "s");
    assert_non_null(s);
    assert_int_equal(av_len(s), 3);
    assert_int_equal(av_len(m), n - 1);
    assert_null(av_get(m, "s"));
    assert_null(av_take(m, "s"));
    /* remaining keys still found after the shift */
    int64_t i;
    assert_true(av_get_int(m, "i", &i));
    assert_int_equal(i, -7);
    assert_non_null(av_get(m, "l"));
    av_free(s);

    av_set_int(m, "i", 99);
    assert_int_equal(av_len(m), n - 1);
    assert_true(av_get_int(m, "i", &i));
    assert_int_equal(i, 99);
    av_set_str(m, "i", "now a string");
    assert_false(av_get_int(m, "i", &i));
    assert_string_equal(av_get_str(m, "i"), "now a string");
    assert_int_equal(av_len(m), n - 1);
    av_free(m);
}

/* Past a few keys the map keeps a hash index: every lookup, replacement and
 * removal must agree with the insertion-order arrays. */
static void test_large_map_index(void **state)
{
    (void)state;
    enum { N = 5000 };
    char k[64];
    av *m = av_map();
    for (int i = 0; i < N; i++) {
        /* a shared prefix, and keys that are prefixes of others ("p7", "p70") */
        snprintf(k, sizeof k, "p%d", i);
        av_set_int(m, k, i);
    }
    assert_int_equal(av_len(m), N);
    for (int i = 0; i < N; i++) {
        snprintf(k, sizeof k, "p%d", i);
        int64_t v;
        assert_true(av_get_int(m, k, &v));
        assert_int_equal(v, i);
        assert_string_equal(m->u.map.keys[i], k); /* insertion order kept */
    }
    assert_null(av_get(m, "p"));
    assert_null(av_get(m, "p5000"));
    assert_null(av_get(m, ""));
    /* replacing keeps the length and the position */
    av_set_int(m, "p123", -1);
    assert_int_equal(av_len(m), N);
    assert_string_equal(m->u.map.keys[123], "p123");
    int64_t v;
    assert_true(av_get_int(m, "p123", &v));
    assert_int_equal(v, -1);
    /* removals from the front, the middle and the end */
    const char *gone[] = {"p0", "p2500", "p4999"};
    for (size_t g = 0; g < 3; g++)
        av_free(av_take(m, gone[g]));
    assert_int_equal(av_len(m), N - 3);
    for (int i = 0; i < N; i++) {
        snprintf(k, sizeof k, "p%d", i);
        bool removed = i == 0 || i == 2500 || i == N - 1;
        assert_true(removed ? av_get(m, k) == NULL : av_get(m, k) != NULL);
    }
    /* a key of known length that is not NUL-terminated in the caller's buffer */
    av_setn(m, "p42xyz", 3, av_int(4242));
    assert_int_equal(av_len(m), N - 3);
    assert_true(av_get_int(m, "p42", &v));
    assert_int_equal(v, 4242);
    av_setn(m, "newkey!", 6, av_int(1));
    assert_non_null(av_get(m, "newkey"));
    /* copies and equality of big maps */
    av *c = av_copy(m);
    assert_true(av_equal(m, c));
    av_set_int(c, "p77", 0);
    assert_false(av_equal(m, c));
    av_free(c);
    av_free(m);
}

/* A map built by av_map_add_new alone has no index (a view is encoded and
 * freed, never searched); the first av_set builds it, and from then on
 * appends, growth and removals keep it agreeing with the arrays. */
static void test_index_built_on_first_need(void **state)
{
    (void)state;
    enum { N = 300 };
    char k[32];
    av *m = av_map();
    for (int i = 0; i < N; i++) {
        int n = snprintf(k, sizeof k, "k%d", i);
        av_map_add_new(m, k, (size_t)n, av_int(i));
    }
    assert_false(m->indexed);
    int64_t v;
    for (int i = 0; i < N; i += 7) { /* lookups scan */
        snprintf(k, sizeof k, "k%d", i);
        assert_true(av_get_int(m, k, &v));
        assert_int_equal(v, i);
    }
    assert_null(av_get(m, "k300"));
    av_set_int(m, "k5", -5); /* a replacement: the index is built for it */
    assert_true(m->indexed);
    assert_int_equal(av_len(m), N);
    /* appends past the next growth (512 keys) keep the index whole */
    for (int i = N; i < 600; i++) {
        int n = snprintf(k, sizeof k, "k%d", i);
        av_map_add_new(m, k, (size_t)n, av_int(i));
    }
    av_free(av_take(m, "k0"));
    for (int i = 1; i < 600; i++) {
        snprintf(k, sizeof k, "k%d", i);
        assert_true(av_get_int(m, k, &v));
        assert_int_equal(v, i == 5 ? -5 : i);
    }
    assert_null(av_get(m, "k0"));
    /* a copy is built without an index, and still equals the original */
    av *c = av_copy(m);
    assert_false(c->indexed);
    assert_true(av_equal(m, c));
    assert_true(av_equal(c, m));
    av_free(c);
    av_free(m);
}

static void expect_json(const av *v, const char *want)
{
    char *s = av_to_json(v);
    assert_string_equal(s, want);
    free(s);
}

static void test_to_json(void **state)
{
    (void)state;
    av *v = av_str("q\"b\\s/\n\r\t\b\f\x01\x1f\x7f");
    expect_json(v, "\"q\\\"b\\\\s/\\n\\r\\t\\b\\f\\u0001\\u001f\\u007f\"");
    av_free(v);
    v = av_strn("nul\0end", 7);
    expect_json(v, "\"nul\\u0000end\"");
    av_free(v);
    /* valid UTF-8 passes through; invalid bytes become U+FFFD */
    v = av_str("\xc3\xa9\xe2\x82\xac\xf0\x9f\x82\xa1|\xff|\xc0\xaf|\xed\xa0\x80|\xe2\x82");
    expect_json(v, "\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x82\xa1|\\ufffd|\\ufffd\\ufffd|"
                   "\\ufffd\\ufffd\\ufffd|\\ufffd\\ufffd\"");
    av_free(v);
    v = av_map();
    av_set(v, "k\"ey\n", av_int(INT64_MIN));
    av_set(v, "f", av_float(-0.1));
    av_set(v, "g", av_float(1e300));
    av_set(v, "h", av_float(3.0));
    av_set(v, "nan", av_float(NAN));
    av_set(v, "inf", av_float(INFINITY));
    av_set(v, "l", av_push(av_push(av_list(), av_bool(true)), av_nil()));
    av_set(v, "e", av_map());
    expect_json(v, "{\"k\\\"ey\\n\":-9223372036854775808,\"f\":-0.1,\"g\":1e+300,\"h\":3.0,"
                   "\"nan\":null,\"inf\":null,\"l\":[true,null],\"e\":{}}");
    /* and it reads back (minus NaN/Inf) */
    char *s = av_to_json(v);
    char err[200];
    av *back = json_decode(s, strlen(s), err, sizeof err);
    assert_non_null(back);
    assert_true(av_equal(av_get(back, "f"), av_get(v, "f")));
    assert_true(av_equal(av_get(back, "g"), av_get(v, "g")));
    assert_true(av_equal(av_get(back, "h"), av_get(v, "h")));
    assert_true(av_equal(av_get(back, "k\"ey\n"), av_get(v, "k\"ey\n")));
    av_free(back);
    free(s);
    av_free(v);
    expect_json(NULL, "null");
}

/* The writer's escaping, one byte at a time, as the rules say: what
 * av_to_json's eight-byte scan must agree with. */
static void escape_ref(const uint8_t *p, size_t n, abuf *o)
{
    abuf_addc(o, '"');
    for (size_t i = 0; i < n;) {
        uint8_t c = p[i];
        size_t k;
        char u[8];
        if (c == '"' || c == '\\') {
            abuf_addc(o, '\\');
            abuf_addc(o, (char)c);
            i++;
        } else if (c < 0x20 || c == 0x7f) {
            const char *named = c == '\n'   ? "\\n"
                                : c == '\r' ? "\\r"
                                : c == '\t' ? "\\t"
                                : c == '\b' ? "\\b"
                                : c == '\f' ? "\\f"
                                            : NULL;
            snprintf(u, sizeof u, "\\u%04x", c);
            abuf_adds(o, named ? named : u);
            i++;
        } else if (c < 0x80) {
            abuf_addc(o, (char)c);
            i++;
        } else if ((k = utf8_seq(p + i, n - i)) == 0) {
            abuf_adds(o, "\\ufffd");
            i++;
        } else {
            abuf_add(o, p + i, k);
            i += k;
        }
    }
    abuf_addc(o, '"');
}

/* Random strings of runs long and short, with every kind of byte that
 * ends a plain run at every offset of the eight-byte words. */
static void test_to_json_strings_match_byte_by_byte(void **state)
{
    (void)state;
    static const char *const pieces[] = {"a",        "plain-ascii-text",
                                         "\"",       "\\",
                                         "\n",       "\x01",
                                         "\x1f",     "\x7f",
                                         " ",        "~",
                                         "\xc3\xa9", "\xe2\x82\xac",
                                         "\xff",     "\xc0\xaf",
                                         "\xe2\x82", "\x80"};
    uint64_t seed = 12345;
    for (int t = 0; t < 20000; t++) {
        abuf in = {0}, want = {0};
        seed = seed * 6364136223846793005u + 1442695040888963407u;
        int pieces_n = (int)(seed >> 59); /* 0..31 */
        for (int i = 0; i < pieces_n; i++) {
            seed = seed * 6364136223846793005u + 1442695040888963407u;
            const char *pc = pieces[(seed >> 33) % (sizeof pieces / sizeof *pieces)];
            /* mostly plain, so that runs cross the eight-byte words */
            abuf_adds(&in, (seed >> 40) % 3 ? pieces[(seed >> 45) % 2] : pc);
        }
        escape_ref(in.data, in.len, &want);
        av *v = av_strn((const char *)in.data, in.len);
        char *got = av_to_json(v);
        assert_int_equal(strlen(got), want.len);
        assert_memory_equal(got, want.data, want.len);
        free(got);
        av_free(v);
        abuf_free(&in);
        abuf_free(&want);
    }
}

/* abuf_addi writes what %lld writes; a textbuf cuts where snprintf cuts. */
static void test_abuf_addi_and_textbuf(void **state)
{
    (void)state;
    const int64_t ints[] = {0, 1, 9, 10, -1, -9, 99, 385985, INT64_MAX, INT64_MIN};
    abuf b = {0};
    char want[400] = "", one[32];
    for (size_t i = 0; i < sizeof ints / sizeof *ints; i++) {
        abuf_addi(&b, ints[i]);
        abuf_addc(&b, ',');
        snprintf(one, sizeof one, "%lld,", (long long)ints[i]);
        strcat(want, one);
    }
    assert_string_equal((char *)b.data, want);
    abuf_free(&b);
    for (size_t len = 0; len <= 16; len++) {
        char got[16 + 1], ref[16 + 1];
        memset(got, 'x', sizeof got);
        memset(ref, 'x', sizeof ref);
        textbuf t = text_start(got, len);
        TEXT_LIT(&t, "ab");
        text_int(&t, -12345);
        text_adds(&t, "cd");
        snprintf(ref, len, "ab%dcd", -12345);
        assert_memory_equal(got, ref, sizeof got); /* nothing written past len either */
    }
}

/* abuf_addf formats into the spare room and again only when the text does
 * not fit: pieces below, at and past the room must all come out whole. */
static void test_abuf_addf_pieces_of_every_size(void **state)
{
    (void)state;
    abuf b = {0};
    char *want = calloc(1, 40000), piece[6000];
    size_t wl = 0;
    size_t sizes[] = {0, 1, 5, 62, 63, 64, 65, 127, 255, 256, 300, 1000, 5000, 3, 0, 4097};
    for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
        memset(piece, 'a' + (int)(k % 26), sizes[k]);
        piece[sizes[k]] = '\0';
        abuf_addf(&b, "%s|%zu;", piece, k);
        wl += (size_t)sprintf(want + wl, "%s|%zu;", piece, k);
        assert_int_equal(b.len, wl);
        assert_int_equal(b.data[b.len], 0);
        assert_memory_equal(b.data, want, wl);
    }
    abuf_free(&b);
    abuf_addf(&b, "%s", ""); /* an empty text on an empty buffer */
    assert_int_equal(b.len, 0);
    assert_int_equal(b.data[0], 0);
    abuf_free(&b);
    free(want);
}

/* Strings, keys and arrays come from size-class free lists: sizes around
 * every class boundary, freed and made again, keep their contents, and
 * pre-sized containers (any n) behave like grown ones, index included. */
static void test_blocks_and_sized_containers(void **state)
{
    (void)state;
    size_t lens[] = {0, 1, 14, 15, 16, 17, 30, 31, 32, 33, 63, 64, 65, 126, 127, 128, 129, 500};
    size_t nl = sizeof lens / sizeof *lens;
    char text[600];
    for (int round = 0; round < 3; round++) {
        av *m = av_map();
        for (size_t i = 0; i < nl; i++) {
            memset(text, 'A' + (int)i, lens[i]);
            text[lens[i]] = '\0';
            char key[640];
            snprintf(key, sizeof key, "%zu:%s", i, text);
            av_set(m, key, av_strn(text, lens[i]));
        }
        for (size_t i = 0; i < nl; i++) {
            memset(text, 'A' + (int)i, lens[i]);
            text[lens[i]] = '\0';
            char key[640];
            snprintf(key, sizeof key, "%zu:%s", i, text);
            const av *v = av_get(m, key);
            assert_non_null(v);
            assert_int_equal(v->u.str.len, lens[i]);
            assert_memory_equal(v->u.str.s, text, lens[i] + 1);
        }
        av_free(m);
    }
    size_t ns[] = {0, 1, 3, 4, 5, 16, 17, 40, 1000};
    for (size_t k = 0; k < sizeof ns / sizeof *ns; k++) {
        size_t n = ns[k];
        av *l = av_list_sized(n), *m = av_map_sized(n), *grown = av_map();
        for (size_t i = 0; i < n + 3; i++) { /* also past the size asked for */
            char key[32];
            snprintf(key, sizeof key, "k%zu", i);
            av_push(l, av_int((int64_t)i));
            av_set_int(m, key, (int64_t)i);
            av_set_int(grown, key, (int64_t)i);
        }
        assert_int_equal(av_len(l), n + 3);
        assert_true(av_equal(m, grown));
        for (size_t i = 0; i < n + 3; i++) {
            char key[32];
            snprintf(key, sizeof key, "k%zu", i);
            int64_t got = -1;
            assert_true(av_get_int(m, key, &got));
            assert_int_equal(got, (int64_t)i);
            assert_int_equal(l->u.list.items[i]->u.i, (int64_t)i);
        }
        av_free(l);
        av_free(m);
        av_free(grown);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_abuf_addf_pieces_of_every_size),
        cmocka_unit_test(test_to_json_strings_match_byte_by_byte),
        cmocka_unit_test(test_abuf_addi_and_textbuf),
        cmocka_unit_test(test_blocks_and_sized_containers),
        cmocka_unit_test(test_equal),
        cmocka_unit_test(test_copy),
        cmocka_unit_test(test_take_and_set_replace),
        cmocka_unit_test(test_large_map_index),
        cmocka_unit_test(test_index_built_on_first_need),
        cmocka_unit_test(test_to_json),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
