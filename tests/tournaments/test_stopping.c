/* The early-stopping rule: parsing, the minimum games per pairing, adjacent
 * pairs by LOS, and top-K. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "elo.h"
#include "early_stop.h"
#include "stopping.h"

static void test_stop_rule_parse(void **st)
{
    (void)st;
    stop_rule r = {.min_games = 7};
    char err[160], buf[64];
    assert_int_equal(stop_rule_parse("ranking:0.95", &r, err, sizeof err), 0);
    assert_true(r.on && r.top == 0 && r.conf == 0.95 && r.min_games == 7);
    stop_rule_format(&r, buf, sizeof buf);
    assert_string_equal(buf, "ranking:0.95");
    assert_int_equal(stop_rule_parse("top:3:0.99", &r, err, sizeof err), 0);
    assert_true(r.on && r.top == 3 && r.conf == 0.99);
    stop_rule_format(&r, buf, sizeof buf);
    assert_string_equal(buf, "top:3:0.99");
    assert_int_equal(stop_rule_parse("none", &r, err, sizeof err), 0);
    assert_false(r.on);
    const char *bad[] = {"ranking", "ranking:0.4", "ranking:1", "ranking:x", "top:0:0.9",
                         "top:2",   "top:a:0.9",   "best:0.9",  ""};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        err[0] = 0;
        assert_int_equal(stop_rule_parse(bad[i], &r, err, sizeof err), -1);
        assert_true(strlen(err) > 10);
    }
}

/* Three agents, a far ahead of b, b barely ahead of c. */
static void fit3(int games, elo_fit *f, elo_data *d)
{
    elo_data_init(d, 3);
    for (int i = 0; i < games; i++) {
        elo_add(d, 0, 1, i % 10 < 9 ? 1.0 : 0.0); /* 90 % */
        elo_add(d, 0, 2, i % 10 < 9 ? 1.0 : 0.0);
        elo_add(d, 1, 2, i % 5 < 3 ? 1.0 : 0.0); /* 60 % */
    }
    elo_fit_compute(d, 2, -1, f);
}

static void test_stop_settled(void **st)
{
    (void)st;
    char *names[] = {"a", "b", "c"};
    double planned[9] = {0, 400, 400, 400, 0, 400, 400, 400, 0};
    char why[256] = "";
    elo_fit f;
    elo_data d;
    stop_rule all = {.on = true, .top = 0, .conf = 0.95, .min_games = 20};
    stop_rule top1 = {.on = true, .top = 1, .conf = 0.95, .min_games = 20};
    stop_rule off = {.on = false, .conf = 0.95, .min_games = 20};

    fit3(10, &f, &d); /* fewer than the minimum games per pairing */
    assert_false(stop_settled(&top1, &f, names, d.games, planned, why, sizeof why));
    elo_fit_free(&f);
    elo_data_free(&d);

    fit3(24, &f, &d); /* a is clear of b; b vs c is not yet settled */
    assert_true(f.los[0 * 3 + 1] > 0.95 && f.los[1 * 3 + 2] < 0.95);
    assert_true(stop_settled(&top1, &f, names, d.games, planned, why, sizeof why));
    assert_non_null(strstr(why, "top:1:0.95"));
    assert_false(stop_settled(&all, &f, names, d.games, planned, why, sizeof why));
    assert_false(stop_settled(&off, &f, names, d.games, planned, why, sizeof why));
    elo_fit_free(&f);
    elo_data_free(&d);

    fit3(300, &f, &d); /* now every adjacent pair is separated */
    assert_true(f.los[1 * 3 + 2] > 0.95);
    assert_true(stop_settled(&all, &f, names, d.games, planned, why, sizeof why));
    assert_non_null(strstr(why, "ranking:0.95"));
    /* A pairing the schedule never plays is not required to meet. */
    planned[0 * 3 + 2] = planned[2 * 3 + 0] = 0;
    assert_true(stop_settled(&all, &f, names, d.games, planned, why, sizeof why));
    /* But a scheduled pairing short of its minimum holds the stop back. */
    stop_rule strict = all;
    strict.min_games = 301;
    assert_false(stop_settled(&strict, &f, names, d.games, planned, why, sizeof why));
    elo_fit_free(&f);
    elo_data_free(&d);
}

/* Three seat-swapped pairs of a over b; a wins every game. */
static void pairs3(tgame *g)
{
    memset(g, 0, sizeof(tgame) * 6);
    for (int i = 0; i < 6; i++) {
        g[i].s.id = i + 1;
        g[i].s.group = i / 2 + 1;
        g[i].s.players = 2;
        g[i].s.seat[0] = i % 2;
        g[i].s.seat[1] = 1 - i % 2;
        g[i].rank[0] = i % 2 ? 2 : 1; /* agent 0 first */
        g[i].rank[1] = i % 2 ? 1 : 2;
    }
}

/* The tracker asks the rule only when a whole group has finished, and after
 * a stop lets only started groups go on. */
static void test_early_stop_groups(void **st)
{
    (void)st;
    char *names[] = {"a", "b"};
    tgame g[6];
    pairs3(g);
    stop_rule r = {.min_games = 2};
    char err[160], why[300];
    assert_int_equal(stop_rule_parse("ranking:0.6", &r, err, sizeof err), 0);
    early_stop *e = early_stop_new(&r, 2, names, g, 6);
    for (int i = 0; i < 3; i++)
        assert_true(early_stop_may_start(e, &g[i].s, false));
    g[0].done = true;
    assert_false(early_stop_done(e, &g[0], why, sizeof why)); /* half a pair */
    g[1].done = true;
    assert_true(early_stop_done(e, &g[1], why, sizeof why));
    assert_non_null(strstr(why, "ranking settled"));
    /* Stopped: group 2 was started and completes; group 3 never starts. */
    assert_true(early_stop_may_start(e, &g[3].s, true));
    assert_false(early_stop_may_start(e, &g[4].s, true));
    assert_false(early_stop_may_start(e, &g[5].s, true));
    early_stop_free(e);

    /* The minimum per pairing holds it back: 4 games needed, 2 played. */
    pairs3(g);
    r.min_games = 4;
    e = early_stop_new(&r, 2, names, g, 6);
    g[0].done = g[1].done = true;
    assert_false(early_stop_done(e, &g[0], why, sizeof why));
    assert_false(early_stop_done(e, &g[1], why, sizeof why));
    g[2].done = g[3].done = true;
    assert_false(early_stop_done(e, &g[2], why, sizeof why));
    assert_true(early_stop_done(e, &g[3], why, sizeof why));
    early_stop_free(e);

    /* On --resume the games already played count from the start. */
    pairs3(g);
    for (int i = 0; i < 4; i++)
        g[i].done = true;
    e = early_stop_new(&r, 2, names, g, 6);
    assert_true(early_stop_check(e, why, sizeof why));
    early_stop_free(e);
    /* A rule that is off never stops. */
    pairs3(g);
    stop_rule off = {.on = false, .min_games = 0};
    e = early_stop_new(&off, 2, names, g, 6);
    for (int i = 0; i < 6; i++) {
        g[i].done = true;
        assert_false(early_stop_done(e, &g[i], why, sizeof why));
    }
    early_stop_free(e);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stop_rule_parse),
        cmocka_unit_test(test_stop_settled),
        cmocka_unit_test(test_early_stop_groups),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
