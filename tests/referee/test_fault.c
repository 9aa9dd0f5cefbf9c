/* The fault policy of protocol.md §5. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "fault.h"

static void test_fault_crash_and_protocol_always_forfeit(void **st)
{
    (void)st;
    int strikes = 0;
    assert_int_equal(fault_judge(FAULT_FALLBACK, 3, &strikes, CAUSE_CRASH, false), VERDICT_FORFEIT);
    assert_int_equal(fault_judge(FAULT_FALLBACK, 3, &strikes, CAUSE_PROTOCOL, false),
                     VERDICT_FORFEIT);
    assert_int_equal(strikes, 0);
}

static void test_fault_missed_startup_forfeits(void **st)
{
    (void)st;
    int strikes = 0;
    assert_int_equal(fault_judge(FAULT_FALLBACK, 3, &strikes, CAUSE_TIMEOUT, true),
                     VERDICT_FORFEIT);
}

static void test_fault_forfeit_policy_forfeits_first_fault(void **st)
{
    (void)st;
    int strikes = 0;
    assert_int_equal(fault_judge(FAULT_FORFEIT, 3, &strikes, CAUSE_TIMEOUT, false),
                     VERDICT_FORFEIT);
    strikes = 0;
    assert_int_equal(fault_judge(FAULT_FORFEIT, 3, &strikes, CAUSE_ILLEGAL, false),
                     VERDICT_FORFEIT);
    assert_int_equal(fault_strikes_left(FAULT_FORFEIT, 3, 0), 0);
}

static void test_fault_fallback_strikes_until_max(void **st)
{
    (void)st;
    int strikes = 0;
    assert_int_equal(fault_judge(FAULT_FALLBACK, 3, &strikes, CAUSE_ILLEGAL, false),
                     VERDICT_FALLBACK);
    assert_int_equal(fault_strikes_left(FAULT_FALLBACK, 3, strikes), 2);
    assert_int_equal(fault_judge(FAULT_FALLBACK, 3, &strikes, CAUSE_TIMEOUT, false),
                     VERDICT_FALLBACK);
    assert_int_equal(fault_strikes_left(FAULT_FALLBACK, 3, strikes), 1);
    assert_int_equal(fault_judge(FAULT_FALLBACK, 3, &strikes, CAUSE_ILLEGAL, false),
                     VERDICT_FORFEIT);
    assert_int_equal(strikes, 3);
    assert_int_equal(fault_strikes_left(FAULT_FALLBACK, 3, strikes), 0);
}

static void test_fault_cause_names_match_protocol(void **st)
{
    (void)st;
    assert_string_equal(fault_cause_name(CAUSE_TIMEOUT), "timeout");
    assert_string_equal(fault_cause_name(CAUSE_ILLEGAL), "illegal");
    assert_string_equal(fault_cause_name(CAUSE_CRASH), "crash");
    assert_string_equal(fault_cause_name(CAUSE_PROTOCOL), "protocol");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fault_crash_and_protocol_always_forfeit),
        cmocka_unit_test(test_fault_missed_startup_forfeits),
        cmocka_unit_test(test_fault_forfeit_policy_forfeits_first_fault),
        cmocka_unit_test(test_fault_fallback_strikes_until_max),
        cmocka_unit_test(test_fault_cause_names_match_protocol),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
