/* Differential test of the JSON reader (protocol/json_read.c) against the
 * jansson-based decoder it replaced (json_oracle.c).
 *
 * For every input both must accept or both refuse (a refusal is a "json: "
 * reason), and accepted inputs must give the same tree: same types, keys in
 * the same order, floats bit for bit (compared through their msgpack
 * encodings). Inputs: hand-picked edge cases, every line of the fuzz seed
 * corpus, generated documents covering the grammar and the protocol's rules
 * (big integers, escapes, surrogates, UTF-8, repeated keys, depth and value
 * limits), and mutations of all of those.
 *
 * usage: test-json-read CORPUS_DIR [GENERATED] [SEED] */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codec.h"
#include "reader_diff.h"
#include "util.h"

static size_t n_inputs, n_accepted, n_refused, n_mismatches, n_nul_quirk;

static void show(const char *what, const uint8_t *p, size_t n)
{
    fprintf(stderr, "%s (%zu bytes): ", what, n);
    for (size_t i = 0; i < n && i < 300; i++)
        fprintf(stderr, p[i] >= 0x20 && p[i] < 0x7f ? "%c" : "\\x%02x", p[i]);
    fprintf(stderr, "%s\n", n > 300 ? "..." : "");
}

static void check(const void *p, size_t n)
{
    char why[700];
    bool quirk;
    diff_outcome r = json_diff(p, n, &quirk, why, sizeof why);
    n_inputs++;
    n_accepted += r == DIFF_ACCEPTED;
    n_refused += r == DIFF_REFUSED;
    n_nul_quirk += quirk && r == DIFF_ACCEPTED;
    if (r == DIFF_MISMATCH && ++n_mismatches <= 20) {
        show("MISMATCH on", p, n);
        fprintf(stderr, "  %s\n", why);
    }
}

static void check_str(const char *s)
{
    check(s, strlen(s));
}

/* ------------------------------------------------------------ generator */

static void ws(abuf *b)
{
    static const char *const spaces[] = {"", "", "", " ", "\t", "\r", "\n", " \r\n\t "};
    if (diff_below(4) == 0) abuf_adds(b, spaces[diff_below(8)]);
}

static void gen_number(abuf *b)
{
    static const char *const fixed[] = {
        "0",
        "-0",
        "-0.0",
        "9223372036854775807",
        "9223372036854775808",
        "-9223372036854775808",
        "-9223372036854775809",
        "18446744073709551615",
        "18446744073709551616",
        "12345678901234567890123",
        "1e308",
        "1.7976931348623157e308",
        "1.8e308",
        "-1e400",
        "1e-400",
        "4.9e-324",
        "2.2250738585072014e-308",
        "0.1",
        "1E5",
        "1e+5",
        "1e-5",
        "123.456e-7",
        "0.30000000000000004",
    };
    switch (diff_below(4)) {
    case 0: abuf_adds(b, fixed[diff_below(sizeof fixed / sizeof fixed[0])]); break;
    case 1: abuf_addf(b, "%lld", (long long)(int64_t)diff_rnd() >> diff_below(64)); break;
    case 2: { /* a long run of digits: beyond int64, or even beyond double */
        if (diff_below(2)) abuf_addc(b, '-');
        abuf_addc(b, (char)('1' + diff_below(9)));
        size_t k = diff_below(3) ? diff_below(30) : diff_below(400);
        for (size_t i = 0; i < k; i++)
            abuf_addc(b, (char)('0' + diff_below(10)));
        break;
    }
    default:
        abuf_addf(b, "%s%llu.%llu%s%d", diff_below(2) ? "-" : "",
                  (unsigned long long)diff_below(100000), (unsigned long long)diff_below(1000000),
                  diff_below(2) ? "e" : "E", (int)diff_below(700) - 350);
        break;
    }
}

static void gen_string(abuf *b, bool key)
{
    abuf_addc(b, '"');
    size_t k = diff_below(4) ? diff_below(8) : diff_below(40);
    for (size_t i = 0; i < k; i++) {
        switch (diff_below(12)) {
        case 0:
            abuf_adds(b, (const char *[]){"\\n", "\\\"", "\\\\", "\\/", "\\b", "\\f", "\\r",
                                          "\\t"}[diff_below(8)]);
            break;
        case 1: abuf_addf(b, "\\u%04x", (unsigned)diff_below(0x80)); break;
        case 2: abuf_addf(b, "\\u%04X", (unsigned)diff_below(0x10000)); break;
        case 3: /* a surrogate pair, sometimes broken */
            abuf_addf(b, "\\u%04x", 0xd800 + (unsigned)diff_below(0x400));
            if (diff_below(8)) abuf_addf(b, "\\u%04x", 0xdc00 + (unsigned)diff_below(0x400));
            break;
        case 4:
            abuf_adds(b, (const char *[]){"é", "€", "😀", "\xf4\x8f\xbf\xbf"}[diff_below(4)]);
            break;
        case 5: /* bytes that are not UTF-8, or not allowed raw */
            if (diff_below(8) == 0)
                abuf_addc(b, (char)(0x80 + diff_below(0x80)));
            else if (diff_below(8) == 0)
                abuf_addc(b, (char)diff_below(0x20));
            else
                abuf_addc(b, 'x');
            break;
        case 6:
            if (key && diff_below(4) == 0)
                abuf_adds(b, "\\u0000");
            else
                abuf_addc(b, 'k');
            break;
        default:
            abuf_addc(b, (char)("abcdefghijklmnopqrstuvwxyz0123456789 _-"[diff_below(39)]));
            break;
        }
    }
    abuf_addc(b, '"');
}

static void gen_value(abuf *b, int depth)
{
    ws(b);
    size_t pick = depth > 40 ? diff_below(3) : diff_below(depth < 3 ? 8 : 6);
    switch (pick) {
    case 0: abuf_adds(b, (const char *[]){"null", "true", "false"}[diff_below(3)]); break;
    case 1: gen_number(b); break;
    case 2: gen_string(b, false); break;
    case 3:
    case 4:
    case 5:
    case 6:
    case 7: {
        bool map = pick % 2;
        abuf_addc(b, map ? '{' : '[');
        size_t k = diff_below(6);
        /* a chain of single-item containers reaches past the depth limit */
        if (depth > 2 && diff_below(3) == 0) k = 1;
        for (size_t i = 0; i < k; i++) {
            if (i) abuf_addc(b, ',');
            if (map) {
                ws(b);
                if (diff_below(4) == 0)
                    abuf_adds(b, (const char *[]){"\"a\"", "\"b\"", "\"\\u0061\""}[diff_below(3)]);
                else
                    gen_string(b, true);
                ws(b);
                abuf_addc(b, ':');
            }
            gen_value(b, depth + 1);
        }
        ws(b);
        abuf_addc(b, map ? '}' : ']');
        break;
    }
    }
    ws(b);
}

static const char interesting[] = "{}[]\":,\\-+.eE0123456789 \t\r\nntfu\x00\x7f\x80\xc3\xff";

static void mutate(abuf *b)
{
    int steps = 1 + (int)diff_below(3);
    for (int s = 0; s < steps; s++) {
        size_t len = b->len;
        switch (diff_below(5)) {
        case 0:
            if (len) b->data[diff_below(len)] ^= (uint8_t)(1u << diff_below(8));
            break;
        case 1:
            if (len)
                b->data[diff_below(len)] = (uint8_t)interesting[diff_below(sizeof interesting - 1)];
            break;
        case 2: {
            size_t at = diff_below(len + 1);
            abuf_reserve(b, 1);
            memmove(b->data + at + 1, b->data + at, len - at);
            b->data[at] = (uint8_t)interesting[diff_below(sizeof interesting - 1)];
            b->len++;
            break;
        }
        case 3: {
            if (!len) break;
            size_t at = diff_below(len), k = 1 + diff_below(len - at < 8 ? len - at : 8);
            memmove(b->data + at, b->data + at + k, len - at - k);
            b->len -= k;
            break;
        }
        default: b->len = diff_below(len + 1); break;
        }
    }
}

/* ---------------------------------------------------------------- inputs */

static void edge_cases(void)
{
    static const char *const cases[] = {
        "",
        " ",
        "{}",
        "[]",
        "{} ",
        " {}\r\n\t",
        "{}{}",
        "{},",
        "[1,]",
        "[,1]",
        "{\"a\":1,}",
        "{\"a\"}",
        "{\"a\" 1}",
        "{1:2}",
        "{'a':1}",
        "nul",
        "nulll",
        "truee",
        "True",
        "-",
        "--1",
        "+1",
        "01",
        "-01",
        "00",
        "1.",
        ".5",
        "1.e5",
        "1e",
        "1e+",
        "1E-",
        "0x10",
        "1.5e3.2",
        "Infinity",
        "NaN",
        "-Infinity",
        "\"\\u00e9\"",
        "\"\\uD834\\uDD1E\"",
        "\"\\uDD1E\"",
        "\"\\uD834\"",
        "\"\\uD834x\"",
        "\"\\uD834\\u0041\"",
        "\"\\uD834\\uD834\"",
        "\"\\u12\"",
        "\"\\u12G4\"",
        "\"\\x41\"",
        "\"\\'\"",
        "\"\\",
        "\"abc",
        "\"a\tb\"",
        "\"a\x7f\"",
        "\"\xc0\x80\"",
        "\"\xed\xa0\x80\"",
        "\"\xf4\x90\x80\x80\"",
        "\"\xe2\x82\"",
        "\xef\xbb\xbf{}",
        "{\"a\":1,\"a\":2}",
        "{\"a\":1,\"b\":2,\"a\":3}",
        "{\"\\u0061\":1,\"a\":2}",
        "{\"a\\u0000b\":1}",
        "{\"a\":\"b\\u0000c\"}",
        "{\"\":0}",
        "[1e999]",
        "[-1e999]",
        "[1e-999]",
        "[123456789012345678901234567890]",
        "[-123456789012345678901234567890]",
        "[9223372036854775807,-9223372036854775808]",
        "[9223372036854775808]",
        "[-9223372036854775809]",
        "[1.0]",
        "[-0]",
        "[-0.0]",
        "[1E2]",
        "{\"type\":\"act\",\"id\":1}",
        "/*c*/{}",
        "{}//",
        "[\"\\/\"]",
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        check_str(cases[i]);
    static const char with_nuls[][8] = {"\0", "[\0]", "\"\0\"", "{}\0", "[1\0]"};
    static const size_t nul_lens[] = {1, 3, 3, 3, 4};
    for (size_t i = 0; i < 5; i++)
        check(with_nuls[i], nul_lens[i]);

    /* numbers around 2^1024 - 2^970, from where strtod overflows (the
     * skipping reader decides that from the digits, without strtod) */
    static const char bound[] = "17976931348623158079372897140530341507993413271003782693617377898"
                                "04449682927647509466490179775872070963302864166928879109465555478"
                                "51940402630657488671505820681908902000708383676273854845817711531"
                                "76447573027006985557136695962284291481986083493647529271907416844"
                                "4365510704342711559699508093042880177904174497792";
    static const char *const around[] = {
        "%s",
        "%s.0",
        "%s0e-1",
        "0.%se309",
        "0.000%se312",
        "%.308s1",
        "%.308s1.999999999",
        "%.308s3",
        "%.40se269",
        "%.39s1e270",
        "%.39s9e270",
        "%.17se292",
        "%.16s9e293",
        "0.%.17se309",
        "-%s",
        "-%.308s1.5",
        "%.308s2e0",
    };
    for (size_t i = 0; i < sizeof around / sizeof *around; i++) {
        abuf b = {0};
        abuf_addf(&b, around[i], bound);
        check(b.data, b.len);
        abuf_free(&b);
    }
    static const char *const exps[] = {"1e99999999999999999999999",
                                       "-1e99999999999999999999999",
                                       "1e-99999999999999999999999",
                                       "0e99999999999999999999999",
                                       "0.000e400",
                                       "-0.0e-400",
                                       "10e308",
                                       "0.1e309",
                                       "0.18e310",
                                       "1.8e308",
                                       "1.79769313486231580793e308",
                                       "1.79769313486231580794e308",
                                       "[1e309,0]"};
    for (size_t i = 0; i < sizeof exps / sizeof *exps; i++)
        check_str(exps[i]);

    /* depth: 32 nested containers pass, 33 do not */
    for (int d = 30; d <= 34; d++) {
        abuf b = {0};
        for (int i = 0; i < d; i++)
            abuf_adds(&b, i % 2 ? "[" : "{\"k\":");
        for (int i = d - 1; i >= 0; i--)
            abuf_addc(&b, i % 2 ? ']' : '}');
        check(b.data, b.len);
        abuf_free(&b);
    }
    /* value count: the top list plus n items, around PROTO_MAX_VALUES */
    for (size_t n = PROTO_MAX_VALUES - 2; n <= PROTO_MAX_VALUES + 1; n++) {
        abuf b = {0};
        abuf_addc(&b, '[');
        for (size_t i = 0; i < n; i++)
            abuf_adds(&b, i ? ",0" : "0");
        abuf_addc(&b, ']');
        check(b.data, b.len);
        abuf_free(&b);
    }
    for (size_t n = PROTO_MAX_VALUES / 2 - 1; n <= PROTO_MAX_VALUES / 2; n++) {
        abuf b = {0};
        abuf_addc(&b, '{');
        for (size_t i = 0; i < n; i++)
            abuf_addf(&b, "%s\"k%zu\":%zu", i ? "," : "", i, i);
        abuf_addc(&b, '}');
        check(b.data, b.len);
        abuf_free(&b);
    }
}

/* Each line of a corpus file, as the frame decoder would hand it over, and
 * mutants of it. */
static void corpus_file(const uint8_t *p, size_t n)
{
    size_t at = 0;
    while (at < n) {
        const uint8_t *nl = memchr(p + at, '\n', n - at);
        size_t end = nl ? (size_t)(nl - p) : n;
        check(p + at, end - at);
        for (int m = 0; m < 50; m++) {
            abuf c = {0};
            abuf_add(&c, p + at, end - at);
            mutate(&c);
            check(c.data, c.len);
            abuf_free(&c);
        }
        at = end + 1;
    }
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s CORPUS_DIR [GENERATED] [SEED]\n", argv[0]);
        return 2;
    }
    size_t generated = argc > 2 ? strtoull(argv[2], NULL, 10) : 20000;
    diff_seed(argc > 3 ? strtoull(argv[3], NULL, 10) : 0x9e3779b97f4a7c15ULL);

    edge_cases();
    diff_corpus(argv[1], corpus_file);
    for (size_t i = 0; i < generated; i++) {
        abuf b = {0};
        gen_value(&b, 0);
        check(b.data, b.len);
        for (int m = 0; m < 4; m++) {
            abuf c = {0};
            abuf_add(&c, b.data, b.len);
            mutate(&c);
            check(c.data, c.len);
            abuf_free(&c);
        }
        abuf_free(&b);
    }
    printf("%zu inputs: %zu accepted alike (%zu once jansson's NUL quirk is undone), %zu refused "
           "alike, %zu mismatches\n",
           n_inputs, n_accepted, n_nul_quirk, n_refused, n_mismatches);
    /* An inert run (everything refused, or nothing) would prove nothing. */
    if (n_accepted < n_inputs / 10 || n_refused < n_inputs / 10) {
        fprintf(stderr, "too few accepted or refused inputs to compare\n");
        return 1;
    }
    return n_mismatches ? 1 : 0;
}
