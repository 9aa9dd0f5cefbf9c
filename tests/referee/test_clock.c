/* Clock arithmetic of protocol.md §4. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"

static clock_config cfg(int64_t move, int64_t bank, int64_t game)
{
    clock_config c;
    clock_config_default(&c);
    c.move_ms = move;
    c.bank_ms = bank;
    c.game_ms = game;
    return c;
}

static void test_clock_move_time_is_free_of_bank(void **st)
{
    (void)st;
    clock_config c = cfg(100, 500, -1);
    seat_clock s;
    seat_clock_start(&s, &c);
    assert_true(clock_charge(&c, &s, 99.0));
    assert_true(clock_charge(&c, &s, 100.0));
    assert_true(s.bank_left == 500.0);
}

static void test_clock_overrun_comes_out_of_bank(void **st)
{
    (void)st;
    clock_config c = cfg(100, 500, -1);
    seat_clock s;
    seat_clock_start(&s, &c);
    assert_true(clock_charge(&c, &s, 350.0));
    assert_true(s.bank_left == 250.0);
    assert_true(clock_allowance(&c, &s) == 350.0);
}

static void test_clock_exhausted_bank_times_out(void **st)
{
    (void)st;
    clock_config c = cfg(100, 500, -1);
    seat_clock s;
    seat_clock_start(&s, &c);
    assert_true(clock_charge(&c, &s, 600.0)); /* exactly move + bank */
    assert_true(s.bank_left == 0.0);
    assert_false(clock_charge(&c, &s, 100.5));
    assert_true(clock_allowance(&c, &s) == 100.0);
}

static void test_clock_game_cap_limits_allowance(void **st)
{
    (void)st;
    clock_config c = cfg(100, 1000, 250);
    seat_clock s;
    seat_clock_start(&s, &c);
    assert_true(clock_allowance(&c, &s) == 250.0);
    assert_true(clock_charge(&c, &s, 90.0));
    assert_true(s.game_left == 160.0);
    assert_true(clock_charge(&c, &s, 90.0));
    assert_false(clock_charge(&c, &s, 90.0)); /* 270 > 250 */
}

static void test_clock_cpu_wall_cap_is_ten_moves(void **st)
{
    (void)st;
    clock_config c = cfg(50, 0, -1);
    assert_true(clock_wall_cap(&c) == 500.0);
}

static void test_clock_cpu_time_of_self_grows(void **st)
{
    (void)st;
    double a = proc_tree_cpu_ms(getpid());
    volatile double x = 0;
    double t0 = clock_now_ms();
    while (clock_now_ms() - t0 < 60)
        x += 1.0;
    (void)x;
    double b = proc_tree_cpu_ms(getpid());
    assert_true(a >= 0);
    assert_true(b > a); /* 60 ms of spinning registers at 10 ms tick resolution */
    assert_true(proc_tree_cpu_ms(999999999) < 0);
}

/* Spins until this process has used ms of CPU: by wall time, a loaded
 * host gave it less than the tests below count on. */
static void spin(double ms)
{
    volatile double x = 0;
    for (;;) {
        struct timespec ts;
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
        if ((double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6 >= ms) break;
        x += 1.0;
    }
    (void)x;
}

/* A child that ran and was waited for: its CPU moves into our cutime and
 * stays in the tree (a bot burning in short-lived children is charged). */
static void test_clock_cpu_counts_reaped_children(void **st)
{
    (void)st;
    double before = proc_tree_cpu_ms(getpid());
    pid_t c = fork();
    assert_true(c >= 0);
    if (c == 0) {
        spin(150);
        _exit(0);
    }
    int status;
    assert_int_equal(waitpid(c, &status, 0), c);
    double after = proc_tree_cpu_ms(getpid());
    assert_true(after - before >= 100); /* 150 ms at 10 ms ticks */
}

/* A chain of DEPTH processes: the last spins, then waits; every one is in
 * the tree, however deep (a depth limit would hide the spinner). */
#define DEPTH 40
static void test_clock_cpu_follows_a_deep_chain(void **st)
{
    (void)st;
    int ready[2];
    assert_int_equal(pipe(ready), 0);
    double before = proc_tree_cpu_ms(getpid());
    pid_t top = fork();
    assert_true(top >= 0);
    if (top == 0) {
        setpgid(0, 0); /* one group, killed whole below */
        for (int d = 1; d < DEPTH; d++) {
            pid_t c = fork();
            if (c < 0) _exit(1);
            if (c > 0) { /* each link waits for the next: a chain, not a fan */
                int s;
                waitpid(c, &s, 0);
                _exit(0);
            }
        }
        spin(150);
        if (write(ready[1], "x", 1) != 1) _exit(1);
        pause(); /* alive, so only the walk can find its CPU */
        _exit(0);
    }
    char b;
    assert_int_equal(read(ready[0], &b, 1), 1);
    double during = proc_tree_cpu_ms(getpid());
    kill(-top, SIGKILL);
    int s;
    waitpid(top, &s, 0);
    close(ready[0]);
    close(ready[1]);
    assert_true(during - before >= 100);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_clock_move_time_is_free_of_bank),
        cmocka_unit_test(test_clock_overrun_comes_out_of_bank),
        cmocka_unit_test(test_clock_exhausted_bank_times_out),
        cmocka_unit_test(test_clock_game_cap_limits_allowance),
        cmocka_unit_test(test_clock_cpu_wall_cap_is_ten_moves),
        cmocka_unit_test(test_clock_cpu_time_of_self_grows),
        cmocka_unit_test(test_clock_cpu_counts_reaped_children),
        cmocka_unit_test(test_clock_cpu_follows_a_deep_chain),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
