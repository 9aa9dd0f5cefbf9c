/* The pid table (pidtab.h) behind the agent group list and SIGCHLD reaping:
 * a set of pids with values, checked against a plain array model through
 * random inserts and removals (backward-shift deletion must keep every
 * remaining pid findable), its capacity bound, and growth. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "pidtab.h"

static void count_key(pid_t pid, void *ctx)
{
    (void)pid;
    (*(size_t *)ctx)++;
}

static void test_pidtab_matches_model_under_random_churn(void **st)
{
    (void)st;
    enum { CAP = 256, RANGE = 400 };
    static volatile sig_atomic_t keys[CAP];
    static void *vals[CAP];
    pidtab t;
    pidtab_init(&t, keys, vals, CAP);
    void *model[RANGE + 1] = {0}; /* model[pid]: its value, NULL = absent */
    static int tags[RANGE + 1];
    uint32_t r = 12345;
    for (int step = 0; step < 200000; step++) {
        r = r * 1103515245u + 12345u;
        /* Pids clustered like real ones (consecutive runs) and spread. */
        pid_t pid = (pid_t)(1 + (r >> 8) % RANGE);
        if ((r >> 4) & 1) {
            size_t before = t.len;
            bool ok = pidtab_put(&t, pid, &tags[pid]);
            assert_int_equal(ok, model[pid] != NULL || before < CAP / 2);
            if (ok) model[pid] = &tags[pid];
        } else {
            assert_int_equal(pidtab_del(&t, pid), model[pid] != NULL);
            model[pid] = NULL;
        }
        if (step % 997 == 0) {
            size_t n = 0;
            for (pid_t p = 1; p <= RANGE; p++) {
                void *v = NULL;
                bool in = pidtab_get(&t, p, &v);
                assert_int_equal(in, model[p] != NULL);
                if (in) assert_ptr_equal(v, model[p]);
                n += in;
            }
            assert_int_equal(n, t.len);
            size_t walked = 0;
            pidtab_each_key(&t, count_key, &walked);
            assert_int_equal(walked, t.len);
        }
    }
}

static void test_pidtab_refuses_past_half_and_bad_pids(void **st)
{
    (void)st;
    static volatile sig_atomic_t keys[16];
    pidtab t;
    pidtab_init(&t, keys, NULL, 16);
    for (pid_t p = 100; p < 108; p++)
        assert_true(pidtab_put(&t, p, NULL));
    assert_false(pidtab_put(&t, 200, NULL));
    assert_true(pidtab_put(&t, 103, NULL)); /* present: still fine */
    assert_int_equal(t.len, 8);
    assert_false(pidtab_put(&t, 0, NULL));
    assert_false(pidtab_put(&t, -5, NULL));
    assert_false(pidtab_del(&t, 200));
    assert_true(pidtab_del(&t, 100));
    assert_true(pidtab_put(&t, 200, NULL));
    void *v = &t;
    assert_true(pidtab_get(&t, 200, &v));
    assert_null(v); /* a set: no values */
}

static void test_pidtab_reserve_grows_and_keeps_entries(void **st)
{
    (void)st;
    pidtab t = {0};
    static int tags[5000];
    for (pid_t p = 1; p < 5000; p++) {
        if (t.len + 1 > t.cap / 2) pidtab_reserve(&t, 2 * t.len + 8);
        assert_true(pidtab_put(&t, p, &tags[p]));
    }
    assert_int_equal(t.len, 4999);
    for (pid_t p = 1; p < 5000; p += 2)
        assert_true(pidtab_del(&t, p));
    for (pid_t p = 1; p < 5000; p++) {
        void *v = NULL;
        assert_int_equal(pidtab_get(&t, p, &v), p % 2 == 0);
        if (p % 2 == 0) assert_ptr_equal(v, &tags[p]);
    }
    pidtab_free(&t);
    assert_false(pidtab_get(&t, 2, NULL));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pidtab_matches_model_under_random_churn),
        cmocka_unit_test(test_pidtab_refuses_past_half_and_bad_pids),
        cmocka_unit_test(test_pidtab_reserve_grows_and_keeps_entries),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
