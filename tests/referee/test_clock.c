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
#include "proctree.h"

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
    c.mode = CLOCK_CPU;
    assert_true(clock_wall_cap(&c) == 500.0);
    c.mode = CLOCK_FAIR;
    assert_true(clock_wall_cap(&c) == 5000.0);
}

/* A start-up of 1500 ms: wall time alone; its CPU time since cpu0; a wall
 * cap of 10 x that leaves out the waits for a CPU (600 ms of CPU took
 * 15 s beside a starver on a loaded host); 100 x, whatever it waited. */
static void test_clock_startup_cap_leaves_out_waits(void **st)
{
    (void)st;
    assert_true(clock_startup_left(1500, 1000, -1, 0, 0, 2000) == 500.0);
    assert_true(clock_startup_left(1500, 0, 900, 100, 0, 3000) == 700.0);
    assert_true(clock_startup_left(1500, 0, 600, 0, 0, 15500) == -500.0);
    assert_true(clock_startup_left(1500, 0, 600, 0, 14000, 15500) == 900.0);
    assert_true(clock_startup_left(1500, 0, 1600, 0, 14000, 15500) == -100.0);
    assert_true(clock_startup_left(1500, 0, 100, 0, 150000, 149000) == 1000.0);
    assert_true(clock_startup_left(1500, 0, 100, 0, 150000, 151000) == -1000.0);
}

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

/* One task: what it waited for a CPU is all discounted, and nothing else. */
static void test_clock_fair_one_task_is_exact(void **st)
{
    (void)st;
    clock_task t = {.run_ms = 30, .wait_ms = 70};
    double w = clock_fair_wait(&t, 1, 30);
    assert_true(w == 70.0);
    /* 130 ms of wall: 30 ran, 70 waited for a CPU, 30 slept. */
    assert_true(clock_fair_charge(130, 0, 30, w) == 60.0);
}

/* Two tasks waiting at once: their waits overlap, so only the longest is
 * a wait during which none ran, and the sum is never discounted. */
static void test_clock_fair_overlapping_waits_discount_one(void **st)
{
    (void)st;
    clock_task t[2] = {{.run_ms = 1, .wait_ms = 50}, {.run_ms = 1, .wait_ms = 50}};
    assert_true(clock_fair_wait(t, 2, 2) == 49.0); /* 50 + 1 - 2 */
}

/* A task that waited while another of the tree ran: that wait is not
 * discounted (the tree was running), and the CPU floor makes threads
 * that crowd each other pay. */
static void test_clock_fair_wait_beside_a_running_task_is_charged(void **st)
{
    (void)st;
    clock_task t[2] = {{.run_ms = 100, .wait_ms = 0}, {.run_ms = 0, .wait_ms = 100}};
    double w = clock_fair_wait(t, 2, 100);
    assert_true(w == 0.0);
    assert_true(clock_fair_charge(100, 0, 100, w) == 100.0);
    /* 8 threads crowding 2 cores for 100 ms of wall: 200 ms of CPU. */
    clock_task crowd[8];
    for (int i = 0; i < 8; i++)
        crowd[i] = (clock_task){.run_ms = 25, .wait_ms = 75};
    w = clock_fair_wait(crowd, 8, 200);
    assert_true(w == 0.0);
    assert_true(clock_fair_charge(100, 0, 200, w) == 200.0);
}

/* The referee's lag comes off as under the wall clock; never below the
 * CPU time, never below zero; CPU of ended tasks (more than the live
 * ones ran) shrinks the discount. */
static void test_clock_fair_lag_floor_and_ended_tasks(void **st)
{
    (void)st;
    assert_true(clock_fair_charge(100, 30, 10, 20) == 50.0);
    assert_true(clock_fair_charge(100, 60, 10, 60) == 10.0);
    assert_true(clock_fair_charge(10, 60, 0, 60) == 0.0);
    clock_task t = {.run_ms = 10, .wait_ms = 40};
    assert_true(clock_fair_wait(&t, 1, 35) == 15.0);
    assert_true(clock_fair_wait(&t, 1, 80) == 0.0);
    assert_true(clock_fair_wait(NULL, 0, 0) == 0.0);
}

/* A wait going on: counted only for a task runnable at both looks that
 * did not block in between, as the time schedstat does not account for. */
static void test_clock_fair_pending_wait(void **st)
{
    (void)st;
    proctree_task was = {.tid = 7, .run_ns = 10000000, .wait_ns = 0, .state = 'R', .vol = 3};
    proctree_task now = was;
    now.run_ns += 2000000; /* ran 2 ms, 1 ms of wait counted, in 10 ms */
    now.wait_ns += 1000000;
    assert_true(clock_pending_wait(&now, &was, 10) == 7.0);
    /* Waiting 5 ms at the last look: that wait is in the 6 ms counted
     * since (it ran), so 7 ms of the span is still a wait going on. (Not
     * 10 - 8: the wait seen at the last look counted against this one
     * gave innocent timeouts, issue 34.) */
    was.pend_ms = 5;
    now.wait_ns += 5000000;
    assert_true(clock_pending_wait(&now, &was, 10) == 7.0);
    now.wait_ns -= 5000000;
    was.pend_ms = 7;
    proctree_task later = now; /* nothing counted since: still waiting */
    assert_true(clock_pending_wait(&later, &now, 10) == 10.0);
    now.pend_ms = 7;
    assert_true(clock_pending_wait(&later, &now, 10) == 17.0);
    later.vol = 4; /* it blocked: it may have slept */
    assert_true(clock_pending_wait(&later, &now, 10) == 0.0);
    later.vol = 3;
    later.state = 'S';
    assert_true(clock_pending_wait(&later, &now, 10) == 0.0);
    assert_true(clock_pending_wait(&now, NULL, 10) == 0.0);
}

/* What arena audit recomputes: each clock's charge from its figures. */
/* The log and the store keep figures cut to the microsecond; a figure cut
 * once must come back unchanged when cut again, or a figure read back from a
 * record is written differently (4.020 is just under in binary). */
static void test_clock_cut_us_is_idempotent(void **state)
{
    (void)state;
    assert_true(clock_cut_us(4.0199999) == 4.019);
    assert_true(clock_cut_us(4.020) == 4.020);
    for (long i = 0; i < 2000000; i++) {
        double v = (double)i / 1000.0, w = (double)i * 0.0007919;
        assert_true(clock_cut_us(v) == v);
        assert_true(clock_cut_us(clock_cut_us(w)) == clock_cut_us(w));
    }
}

static void test_clock_evidence_recomputes_the_verdict(void **st)
{
    (void)st;
    clock_evidence e = {.set = true,
                        .mode = CLOCK_FAIR,
                        .allowance_ms = 100,
                        .charged_ms = 110,
                        .wall_ms = 300,
                        .cpu_ms = 110,
                        .wait_ms = 250,
                        .lag_ms = 0};
    assert_true(clock_recharge(&e) == 110.0);
    assert_true(clock_evidence_holds(&e, 0.01));
    e.wait_ms = 150; /* the figures give 150: the record's 110 does not follow */
    assert_false(clock_evidence_holds(&e, 0.01));
    e = (clock_evidence){.set = true,
                         .mode = CLOCK_WALL,
                         .allowance_ms = 100,
                         .charged_ms = 90,
                         .wall_ms = 120,
                         .cpu_ms = -1,
                         .lag_ms = 30};
    assert_true(clock_recharge(&e) == 90.0);
    assert_false(clock_evidence_holds(&e, 0.01)); /* 90 < 100: no timeout */
    e = (clock_evidence){.set = true,
                         .mode = CLOCK_CPU,
                         .allowance_ms = 100,
                         .charged_ms = 100,
                         .wall_ms = 1000,
                         .cpu_ms = 3};
    assert_true(clock_evidence_holds(&e, 0.01)); /* the wall cap */
    assert_string_equal(clock_mode_name(CLOCK_FAIR), "fair");
}

/* The kernel's run-queue wait of this process's tasks can be read, and
 * the sampler finds a child's threads. */
static void test_clock_fair_probe_reads_the_tree(void **st)
{
    (void)st;
    if (!proctree_schedstat()) fail_msg("no /proc/self/schedstat on this kernel");
    clock_probe p = {0};
    clock_probe_start(&p, getpid(), clock_now_ms());
    assert_true(p.n >= 1 && p.whole);
    spin(20);
    double sum;
    bool stalled;
    clock_probe_wait(&p, getpid(), clock_now_ms(), 20, &sum, &stalled);
    assert_true(stalled); /* runnable: running, or maybe waiting */
    spin(20);
    clock_probe_wait(&p, getpid(), clock_now_ms(), 40, &sum, &stalled);
    assert_true(stalled); /* still runnable, though it ran since the last look */
    assert_true(sum >= 0);
    clock_probe_free(&p);
}

/* A tree whose tasks all sleep has no wait going on: every wait is in
 * schedstat, and a verdict may be given at once. */
static void test_clock_fair_probe_sleeping_tree_is_settled(void **st)
{
    (void)st;
    pid_t child = fork();
    if (child == 0) {
        pause();
        _exit(0);
    }
    assert_true(child > 0);
    struct timespec ts = {0, 20 * 1000 * 1000}; /* until it sleeps */
    nanosleep(&ts, NULL);
    clock_probe p = {0};
    clock_probe_start(&p, child, clock_now_ms());
    nanosleep(&ts, NULL);
    double sum;
    bool stalled = true;
    for (int i = 0; i < 50 && stalled; i++) { /* (a loaded host may be slow to put it to sleep) */
        clock_probe_wait(&p, child, clock_now_ms(), 0, &sum, &stalled);
        if (stalled) nanosleep(&ts, NULL);
    }
    assert_false(stalled);
    clock_probe_free(&p);
    kill(child, SIGKILL);
    waitpid(child, NULL, 0);
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
        cmocka_unit_test(test_clock_startup_cap_leaves_out_waits),
        cmocka_unit_test(test_clock_fair_one_task_is_exact),
        cmocka_unit_test(test_clock_fair_overlapping_waits_discount_one),
        cmocka_unit_test(test_clock_fair_wait_beside_a_running_task_is_charged),
        cmocka_unit_test(test_clock_fair_lag_floor_and_ended_tasks),
        cmocka_unit_test(test_clock_fair_pending_wait),
        cmocka_unit_test(test_clock_evidence_recomputes_the_verdict),
        cmocka_unit_test(test_clock_cut_us_is_idempotent),
        cmocka_unit_test(test_clock_fair_probe_reads_the_tree),
        cmocka_unit_test(test_clock_fair_probe_sleeping_tree_is_settled),
        cmocka_unit_test(test_clock_cpu_time_of_self_grows),
        cmocka_unit_test(test_clock_cpu_counts_reaped_children),
        cmocka_unit_test(test_clock_cpu_follows_a_deep_chain),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
