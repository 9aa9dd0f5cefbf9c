/* Fair verdicts, the pure parts: which late answers are dropped (owed.h,
 * protocol.md §3) and how much of a decision's time was the referee's own
 * loop lag (lag.h, protocol.md §5). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "lag.h"
#include "owed.h"

static void test_ready_for_an_ended_game_is_dropped_not_taken_for_the_next(void **st)
{
    (void)st;
    owed_answers o = {0};
    assert_false(owed_take_ready(&o)); /* nothing owed: it is for this hello */
    owed_add_ready(&o);                /* game 1 ended before its ready */
    assert_true(owed_take_ready(&o));  /* game 1's ready: dropped */
    assert_false(owed_take_ready(&o)); /* game 2's ready: taken */
}

static void test_every_timed_out_id_of_a_game_is_remembered(void **st)
{
    (void)st;
    owed_answers o = {0};
    owed_add_act(&o, 1);
    owed_add_act(&o, 3);
    assert_true(owed_take_act(&o, 1));
    assert_true(owed_take_act(&o, 3));
    assert_false(owed_take_act(&o, 5)); /* the decision being waited for */
    assert_false(owed_take_act(&o, 1)); /* a second answer is not late: a fault */
}

static void test_an_answer_settles_the_earlier_ones(void **st)
{
    (void)st;
    owed_answers o = {0};
    owed_add_act(&o, 1);
    owed_add_act(&o, 3);
    assert_true(owed_take_act(&o, 3)); /* the agent skipped 1 */
    assert_false(owed_take_act(&o, 1));
    owed_add_act(&o, 7);
    owed_forget_acts(&o); /* the current decision was answered */
    assert_false(owed_take_act(&o, 7));
}

static void test_ids_repeat_across_games_oldest_first(void **st)
{
    (void)st;
    owed_answers o = {0};
    owed_add_act(&o, 2); /* game 1 ended while decision 2 was pending */
    owed_add_act(&o, 2); /* game 2's decision 2 timed out */
    assert_true(owed_take_act(&o, 2));
    assert_true(owed_take_act(&o, 2));
    assert_false(owed_take_act(&o, 2));
}

static void test_owed_ids_are_bounded(void **st)
{
    (void)st;
    owed_answers o = {0};
    for (uint64_t id = 1; id <= OWED_MAX_IDS + 10; id++)
        owed_add_act(&o, id);
    assert_int_equal(o.n_ids, OWED_MAX_IDS);
    assert_false(owed_take_act(&o, 10)); /* the oldest were forgotten */
    assert_true(owed_take_act(&o, OWED_MAX_IDS + 10));
}

static void test_on_time_loop_has_no_lag(void **st)
{
    (void)st;
    lag_account a;
    lag_account_start(&a, 1000, 0);
    for (double t = 1010; t < 2000; t += LAG_PROBE_MS + 1) /* 1 ms late each */
        lag_account_tick(&a, t);
    assert_true(lag_account_credit(&a, 2000) == 0);
    assert_int_equal(a.stalls, 0);
}

static void test_stall_going_on_is_credited(void **st)
{
    (void)st;
    lag_account a;
    lag_account_start(&a, 1000, 0); /* probe due at 1010 */
    /* The loop stalls: at 1310 the probe has not run yet. */
    assert_true(lag_account_credit(&a, 1310) == 300);
    assert_true(lag_account_total(&a, 1310) == 300);
}

static void test_stall_is_credited_only_while_it_lasts(void **st)
{
    (void)st;
    lag_account a;
    lag_account_start(&a, 1000, 0);
    assert_true(lag_account_credit(&a, 1310) == 300); /* going on */
    lag_account_tick(&a, 1310);                       /* ran 300 ms late: it ended */
    assert_int_equal(a.stalls, 1);
    /* Read after the probe saw the end: it came while the loop ran (what
     * came during the stall was read when it ended, lag.h). */
    assert_true(lag_account_credit(&a, 1312) == 0);
    assert_true(lag_account_total(&a, 1321) == 300);
}

static void test_loop_time_on_an_agents_own_input_is_not_credited_to_it(void **st)
{
    (void)st;
    lag_account a;
    lag_own mine = {0}, other = {0};
    lag_account_start(&a, 1000, 0); /* probe due at 1010 */
    /* The loop decodes the agent's flood from 1005 to 1200: only what falls
     * in the stall (from 1010) is its own part of it. */
    lag_account_own(&a, &mine, 1005, 1100);
    lag_account_own(&a, &mine, 1100, 1200);
    assert_true(lag_account_credit(&a, 1250) == 240);
    assert_true(lag_account_credit_own(&a, &mine, 1250) == 50);   /* 240 - 190 */
    assert_true(lag_account_credit_own(&a, &other, 1250) == 240); /* not its doing */
    /* Its own time never makes a credit negative. */
    lag_account_own(&a, &mine, 1200, 1260);
    assert_true(lag_account_credit_own(&a, &mine, 1255) == 0);
    /* A new stall starts from nothing: the old one's time is not held over. */
    lag_account_tick(&a, 1260);
    lag_account_own(&a, &mine, 1265, 1268); /* before 1270: not in the stall */
    assert_true(lag_account_credit_own(&a, &mine, 1300) == 30);
}

static void test_coarse_probe_late_within_its_slack_is_no_stall(void **st)
{
    (void)st;
    lag_account a;
    lag_account_start(&a, 1000, 9); /* a coarse timer: due by 1019 */
    lag_account_tick(&a, 1017);     /* 7 ms after its nominal 1010: its tick */
    lag_account_tick(&a, 1037);     /* 10 ms after 1027: 1 ms past its slack */
    assert_int_equal(a.stalls, 0);
    assert_true(lag_account_credit(&a, 1038) == 0);
    assert_true(lag_account_credit(&a, 1100) == 44); /* due by 1056: a real stall */
    lag_account_tick(&a, 1100);
    assert_int_equal(a.stalls, 1);
    assert_true(lag_account_total(&a, 1100) == 44);
}

static void test_lag_total_never_decreases_across_a_tick(void **st)
{
    (void)st;
    lag_account a;
    lag_account_start(&a, 0, 0);
    double before = lag_account_total(&a, 500);
    lag_account_tick(&a, 500);
    assert_true(lag_account_total(&a, 500) >= before);
    assert_true(lag_account_total(&a, 500) == 490);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ready_for_an_ended_game_is_dropped_not_taken_for_the_next),
        cmocka_unit_test(test_every_timed_out_id_of_a_game_is_remembered),
        cmocka_unit_test(test_an_answer_settles_the_earlier_ones),
        cmocka_unit_test(test_ids_repeat_across_games_oldest_first),
        cmocka_unit_test(test_owed_ids_are_bounded),
        cmocka_unit_test(test_on_time_loop_has_no_lag),
        cmocka_unit_test(test_stall_going_on_is_credited),
        cmocka_unit_test(test_stall_is_credited_only_while_it_lasts),
        cmocka_unit_test(test_loop_time_on_an_agents_own_input_is_not_credited_to_it),
        cmocka_unit_test(test_coarse_probe_late_within_its_slack_is_no_stall),
        cmocka_unit_test(test_lag_total_never_decreases_across_a_tick),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
