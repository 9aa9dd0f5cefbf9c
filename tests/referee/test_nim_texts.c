/* The test game nim writes its labels and prompts without snprintf (they
 * are written for every decision the referee sends): the texts must be
 * the ones snprintf wrote, "stone:%d" and "%ld stones left; pick 1 to %ld
 * stones to take", cut the same way in buffers of every size, never a byte
 * past them. dec_i64 (protocol/util.h), the integer formatter they use,
 * against %lld. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game.h"
#include "util.h"

/* Writes the prompt (option < 0) or a label into buffers of 0..80 bytes and of 512, each inside a
 * canary, and compares with what snprintf writes of `want` (the whole text). */
static void check_cut(const arena_game *g, int option, const char *want)
{
    for (size_t k = 0; k <= 81; k++) {
        size_t len = k <= 80 ? k : 512;
        char got[600], exp[600];
        memset(got, '#', sizeof got);
        memset(exp, '#', sizeof exp);
        if (option < 0)
            g->vt->prompt(g, got + 8, len);
        else
            g->vt->label(g, option, got + 8, len);
        snprintf(exp + 8, len, "%s", want);
        if (memcmp(got, exp, sizeof got) != 0)
            fail_msg("%s into %zu bytes: '%.*s', snprintf wrote '%.*s'",
                     option < 0 ? "prompt" : "label", len, (int)(len ? len - 1 : 0), got + 8,
                     (int)(len ? len - 1 : 0), exp + 8);
    }
}

static void test_nim_label_and_prompt_are_snprintfs_texts(void **st)
{
    (void)st;
    const arena_game_vt *vt = arena_find_game("nim");
    assert_non_null(vt);
    static const char *const stones[] = {"1", "7", "10", "21", "100", "999", "1000000000"};
    static const char *const takes[] = {"1", "3", "9", "10", "64"};
    int decisions = 0;
    for (size_t a = 0; a < sizeof stones / sizeof *stones; a++) {
        for (size_t b = 0; b < sizeof takes / sizeof *takes; b++) {
            arena_setting set[] = {{"stones", stones[a]}, {"max_take", takes[b]}};
            char err[200];
            arena_game *g = vt->create(set, 2, 7, 2, 0, err, sizeof err);
            if (!g) fail_msg("%s", err);
            arena_decision d;
            long left = strtol(stones[a], NULL, 10), max = strtol(takes[b], NULL, 10);
            /* A long pile is taken down in big steps: its texts change
             * only in the numbers. */
            for (int turn = 0; turn < 40 && vt->decision(g, &d); turn++) {
                char want[200];
                long take = left < max ? left : max;
                snprintf(want, sizeof want, "%ld stones left; pick 1 to %ld stones to take", left,
                         take);
                check_cut(g, -1, want);
                assert_int_equal(d.n_options, take);
                for (int i = 0; i < d.n_options; i++) {
                    snprintf(want, sizeof want, "stone:%d", i + 1);
                    check_cut(g, i, want);
                }
                int choice[64];
                for (int i = 0; i < d.n_options; i++)
                    choice[i] = i;
                assert_true(vt->apply(g, choice, d.n_options));
                left -= d.n_options;
                decisions++;
            }
            vt->free(g);
        }
    }
    assert_true(decisions > 100);
}

/* dec_i64(x) against printf's %lld: the same digits, ending the buffer. */
static void expect_dec(int64_t x, char want[32], size_t *n)
{
    char tmp[DEC_I64_MAX];
    const char *p = dec_i64(tmp, x, n);
    int w = snprintf(want, 32, "%" PRId64, x);
    assert_true(p >= tmp && p + *n == tmp + DEC_I64_MAX);
    assert_int_equal(*n, (size_t)w);
    assert_memory_equal(p, want, *n);
}

static void test_dec_i64_writes_what_printf_does(void **st)
{
    (void)st;
    static const int64_t v[] = {0,
                                1,
                                -1,
                                9,
                                10,
                                -10,
                                99,
                                100,
                                12345,
                                -98765,
                                INT32_MAX,
                                INT32_MIN,
                                INT64_MAX,
                                INT64_MIN,
                                INT64_MIN + 1,
                                1000000000000LL};
    char want[32];
    size_t n;
    for (size_t i = 0; i < sizeof v / sizeof *v; i++) {
        expect_dec(v[i], want, &n);
        abuf b = {0};
        abuf_adds(&b, "x=");
        abuf_addi(&b, v[i]);
        assert_int_equal(b.len, n + 2);
        assert_memory_equal(b.data + 2, want, n);
        abuf_free(&b);
    }
    /* every digit count, odd and even, around each power of ten */
    int64_t p10 = 1;
    for (int k = 0; k <= 18; k++) {
        if (k > 0) p10 *= 10;
        for (int64_t d = -2; d <= 2; d++) {
            expect_dec(p10 + d, want, &n);
            expect_dec(-(p10 + d), want, &n);
        }
    }
    for (int64_t x = -1000; x <= 100000; x++)
        expect_dec(x, want, &n);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nim_label_and_prompt_are_snprintfs_texts),
        cmocka_unit_test(test_dec_i64_writes_what_printf_does),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
