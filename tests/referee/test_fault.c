/* The fault policy of protocol.md §5. */
#include <setjmp.h>
#include <signal.h>
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

/* Wait statuses built as the kernel reports them (<sys/wait.h> layout). */
static void test_fault_describe_exit_names_status_and_signal(void **st)
{
    (void)st;
    char buf[120];
    fault_describe_exit(1 << 8, false, buf, sizeof buf);
    assert_string_equal(buf, "exited with status 1");
    fault_describe_exit(SIGSEGV, false, buf, sizeof buf);
    assert_string_equal(buf, "was killed by signal 11 (SIGSEGV)");
    fault_describe_exit(SIGKILL | 0x80 /* core dumped */, false, buf, sizeof buf);
    assert_string_equal(buf, "was killed by signal 9 (SIGKILL)");
    fault_describe_exit(139 << 8, false, buf, sizeof buf);
    assert_string_equal(buf, "exited with status 139");
    fault_describe_exit(139 << 8, true, buf, sizeof buf);
    assert_string_equal(buf,
                        "exited with status 139 (in the sandbox: most likely signal 11, SIGSEGV)");
    fault_describe_exit(200 << 8, true, buf, sizeof buf);
    assert_string_equal(buf, "exited with status 200");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fault_crash_and_protocol_always_forfeit),
        cmocka_unit_test(test_fault_missed_startup_forfeits),
        cmocka_unit_test(test_fault_forfeit_policy_forfeits_first_fault),
        cmocka_unit_test(test_fault_fallback_strikes_until_max),
        cmocka_unit_test(test_fault_cause_names_match_protocol),
        cmocka_unit_test(test_fault_describe_exit_names_status_and_signal),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
