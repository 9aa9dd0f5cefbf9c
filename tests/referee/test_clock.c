/* Clock arithmetic of protocol.md §4. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "procfile.h"
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

/* A decision's wall cap, move_ms 100: the cpu clock's at 1 s of wall
 * time not spent waiting for a CPU (30 ms of CPU took over 1 s beside a
 * starver), both clocks' at 10 s whatever the waits. */
static void test_clock_cap_leaves_out_waits(void **st)
{
    (void)st;
    assert_true(clock_cap_left(CLOCK_CPU, 100, 400, 0) == 600.0);
    assert_true(clock_cap_left(CLOCK_CPU, 100, 1200, 0) == -200.0);
    assert_true(clock_cap_left(CLOCK_CPU, 100, 1200, 1150) == 950.0);
    assert_true(clock_cap_left(CLOCK_CPU, 100, 1200, -1) == -200.0);
    assert_true(clock_cap_left(CLOCK_CPU, 100, 9900, 9800) == 100.0);
    assert_true(clock_cap_left(CLOCK_CPU, 100, 10100, 10000) == -100.0);
    assert_true(clock_cap_left(CLOCK_FAIR, 100, 1200, 0) == 8800.0);
    assert_true(clock_cap_left(CLOCK_FAIR, 100, 10100, 10000) == -100.0);
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
    /* A torn reading at either look: its 'R' may predate a block its count
     * holds (a bot that slept 20 ms between the looks was credited the
     * span, verdict_no_credit_before_decide under AddressSanitizer). */
    later.state = 'R';
    assert_true(clock_pending_wait(&later, &now, 10) == 17.0);
    now.torn = true;
    assert_true(clock_pending_wait(&later, &now, 10) == 0.0);
    now.torn = false;
    later.torn = true;
    assert_true(clock_pending_wait(&later, &now, 10) == 0.0);
}

/* A task runnable at the start: of the waits counted since, what may
 * predate the start is taken off once a look sees it ran, so that its
 * credit is at most the time it was seen runnable since the start. */
static void test_clock_fair_wait_before_the_start_is_not_credited(void **st)
{
    (void)st;
    proctree_task was = {.tid = 7, .run_ns = 10000000, .wait_ns = 0, .state = 'R', .vol = 3};
    proctree_task now = was;
    /* Not seen to run yet: unknown, its waits are what the looks saw. */
    assert_true(clock_straddle_pre(&now, &was, 1, 0, 1, 1) == -1.0);
    /* It waited 4 ms counted, 3 of them before the start, then ran 0.5
     * ms, never blocked: 1.5 ms since the start leave it 1 ms of wait. */
    now.wait_ns += 4000000;
    now.run_ns += 500000;
    assert_true(clock_straddle_pre(&now, &was, 4, 0.5, 1.5, 0.5) == 3.0);
    /* It also blocked in the look's 0.5 ms span: only the 1 ms seen runnable
     * before that look is left. */
    now.vol = 4;
    assert_true(clock_straddle_pre(&now, &was, 4, 0.5, 1.5, 0.5) == 3.0);
    assert_true(clock_straddle_pre(&now, &was, 4, 0.5, 1.5, 1.5) == 4.0);
    /* Within the time it had: nothing to take off. */
    assert_true(clock_straddle_pre(&now, &was, 0.2, 0.5, 1.5, 0.5) == 0.0);
    now.vol = 3;
    now.state = 'S'; /* asleep now: it blocked */
    assert_true(clock_straddle_pre(&now, &was, 4, 0.5, 1.5, 1.5) == 4.0);
    now.state = 'R';
    now.torn = true; /* its state may be older than its count: it may have blocked */
    assert_true(clock_straddle_pre(&now, &was, 4, 0.5, 1.5, 1.5) == 4.0);
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
    clock_probe_start(&p, getpid(), NULL, false);
    assert_true(p.n >= 1 && p.whole);
    spin(20);
    double sum;
    bool stalled;
    clock_probe_wait(&p, getpid(), 20, &sum, &stalled);
    assert_true(stalled); /* runnable: running, or maybe waiting */
    spin(20);
    clock_probe_wait(&p, getpid(), 40, &sum, &stalled);
    assert_true(stalled); /* still runnable, though it ran since the last look */
    assert_true(sum >= 0);
    clock_probe_free(&p);
}

/* A kept file is opened once and read from its top each time, whatever
 * it holds now; one that cannot be opened reads nothing, and is not tried
 * again. */
static void test_procfile_reads_from_the_top(void **st)
{
    (void)st;
    char path[512], buf[8];
    const char *tmp = getenv("TMPDIR");
    snprintf(path, sizeof path, "%s/procfile-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    int w = mkstemp(path);
    assert_true(w >= 0);
    assert_int_equal(write(w, "one\n", 4), 4);
    int fd = -2;
    assert_true(procfile_keep(&fd, path) >= 0);
    int first = fd;
    assert_int_equal(procfile_read(fd, buf, sizeof buf), 4);
    assert_string_equal(buf, "one\n");
    assert_int_equal(pwrite(w, "two lines\n", 10, 0), 10);
    assert_int_equal(procfile_keep(&fd, path), first);
    assert_int_equal(procfile_read(fd, buf, sizeof buf), 7); /* cut to fit, 0-terminated */
    assert_string_equal(buf, "two lin");
    close(w);
    close(fd);
    unlink(path);
    int gone = -2;
    assert_int_equal(procfile_keep(&gone, path), -1);
    assert_int_equal(procfile_keep(&gone, "/"), -1); /* not tried again */
    assert_int_equal(procfile_read(gone, buf, sizeof buf), 0);
    assert_string_equal(buf, "");
}

/* Kept files read what a walk by path reads: the root's and its
 * children's tasks, again at each call; once the root is gone they read
 * nothing (they stay bound to the task they were opened for). */
static void test_proctree_keep_reads_the_tree_again(void **st)
{
    (void)st;
    if (!proctree_schedstat()) fail_msg("no /proc/self/schedstat on this kernel");
    int go[2];
    assert_int_equal(pipe(go), 0);
    pid_t root = fork();
    if (root == 0) { /* three sleeping children of its own */
        for (int i = 0; i < 3; i++)
            if (fork() == 0) {
                pause();
                _exit(0);
            }
        close(go[1]);
        char c;
        while (read(go[0], &c, 1) < 0) {
        }
        _exit(0);
    }
    close(go[0]);
    assert_true(root > 0);
    struct timespec ts = {0, 50 * 1000 * 1000}; /* until the children are there */
    proctree_task a[16], b[16];
    bool whole;
    size_t n = 0;
    for (int i = 0; i < 100 && n < 4; i++) {
        nanosleep(&ts, NULL);
        n = proctree_tasks(root, NULL, a, 16, true, &whole);
    }
    assert_int_equal(n, 4);
    proctree_keep keep = {0};
    for (int round = 0; round < 3; round++) { /* opened once, read again */
        assert_int_equal(proctree_tasks(root, &keep, b, 16, true, &whole), 4);
        assert_true(whole);
        assert_int_equal(keep.pid, root);
        for (size_t i = 0; i < 4; i++) {
            bool found = false;
            for (size_t j = 0; j < 4; j++)
                found |= a[i].tid == b[j].tid && b[j].run_ns >= a[i].run_ns;
            assert_true(found);
        }
    }
    int fd = keep.schedstat;
    assert_true(fd > 2);
    /* Each kept file opened only when wanted: never a descriptor the
     * process had already (0 would read, and at the end close, stdin).
     * The root sleeps, so its status (how often it blocked) is not. */
    assert_int_equal(keep.status, -2);
    assert_true(keep.stat > 2 && keep.children > 2);
    assert_int_equal(keep.threads, 1);
    int nice = getpriority(PRIO_PROCESS, 0);
    for (size_t i = 0; i < 4; i++) {
        assert_true(b[i].state == 'S');
        assert_false(proctree_task_yields(&b[i], nice, SCHED_OTHER));
        proctree_task lower = b[i];
        lower.nice = nice + 1;
        assert_true(proctree_task_yields(&lower, nice, SCHED_OTHER));
        lower = b[i];
        lower.policy = SCHED_IDLE;
        assert_true(proctree_task_yields(&lower, nice, SCHED_OTHER));
    }
    int in = fcntl(0, F_GETFD);
    for (size_t i = 0; i < 4; i++)
        if (b[i].pid != root) kill(b[i].pid, SIGKILL);
    close(go[1]); /* the root ends */
    waitpid(root, NULL, 0);
    assert_int_equal(proctree_tasks(root, &keep, b, 16, true, &whole), 0);
    assert_int_equal(keep.schedstat, fd); /* still the gone task's file */
    proctree_keep_close(&keep);
    assert_int_equal(keep.pid, 0);
    assert_int_equal(fcntl(fd, F_GETFD), -1); /* closed */
    assert_int_equal(fcntl(0, F_GETFD), in);  /* and nothing else */
}

static void *nap(void *arg)
{
    (void)arg;
    pause();
    return NULL;
}

/* A root read while it had one thread is read without its task list
 * (proctree_keep.threads): a thread it starts later is still found, at
 * the next reading, and a runnable one's status is read. */
static void test_proctree_keep_finds_a_new_thread(void **st)
{
    (void)st;
    int go[2], up[2];
    assert_int_equal(pipe(go), 0);
    assert_int_equal(pipe(up), 0);
    pid_t root = fork();
    if (root == 0) {
        char c;
        while (read(go[0], &c, 1) < 0) {
        }
        pthread_t t;
        if (pthread_create(&t, NULL, nap, NULL) != 0) _exit(1);
        if (write(up[1], "t", 1) != 1) _exit(1);
        for (;;) { /* runnable: its status is read */
        }
    }
    assert_true(root > 0);
    struct timespec ts = {0, 20 * 1000 * 1000};
    nanosleep(&ts, NULL);
    proctree_keep keep = {0};
    proctree_task t[8];
    bool whole;
    for (int round = 0; round < 2; round++)
        assert_int_equal(proctree_tasks(root, &keep, t, 8, true, &whole), 1);
    assert_int_equal(keep.threads, 1);
    assert_int_equal(t[0].tid, root);
    assert_int_equal(keep.status, -2);
    assert_int_equal(write(go[1], "g", 1), 1);
    char c;
    assert_int_equal(read(up[0], &c, 1), 1);
    size_t n = proctree_tasks(root, &keep, t, 8, true, &whole);
    assert_int_equal(n, 2);
    assert_true(whole);
    assert_int_equal(keep.threads, 2);
    bool main_seen = false, other_seen = false;
    for (size_t i = 0; i < n; i++) {
        main_seen |= t[i].tid == root;
        other_seen |= t[i].tid != root && t[i].pid == root;
    }
    assert_true(main_seen && other_seen);
    for (size_t i = 0; i < n; i++)
        if (t[i].tid == root) /* it spins; it blocked on the pipe before */
            assert_true(t[i].state == 'R' && t[i].vol > 0 && keep.status > 2);
    kill(root, SIGKILL);
    waitpid(root, NULL, 0);
    proctree_keep_close(&keep);
    close(go[0]);
    close(go[1]);
    close(up[0]);
    close(up[1]);
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
    clock_probe_start(&p, child, NULL, false);
    nanosleep(&ts, NULL);
    double sum;
    bool stalled = true;
    for (int i = 0; i < 50 && stalled; i++) { /* (a loaded host may be slow to put it to sleep) */
        clock_probe_wait(&p, child, 0, &sum, &stalled);
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
        cmocka_unit_test(test_clock_cap_leaves_out_waits),
        cmocka_unit_test(test_procfile_reads_from_the_top),
        cmocka_unit_test(test_clock_startup_cap_leaves_out_waits),
        cmocka_unit_test(test_clock_fair_one_task_is_exact),
        cmocka_unit_test(test_clock_fair_overlapping_waits_discount_one),
        cmocka_unit_test(test_clock_fair_wait_beside_a_running_task_is_charged),
        cmocka_unit_test(test_clock_fair_lag_floor_and_ended_tasks),
        cmocka_unit_test(test_clock_fair_pending_wait),
        cmocka_unit_test(test_clock_fair_wait_before_the_start_is_not_credited),
        cmocka_unit_test(test_clock_evidence_recomputes_the_verdict),
        cmocka_unit_test(test_clock_cut_us_is_idempotent),
        cmocka_unit_test(test_clock_fair_probe_reads_the_tree),
        cmocka_unit_test(test_clock_fair_probe_sleeping_tree_is_settled),
        cmocka_unit_test(test_proctree_keep_reads_the_tree_again),
        cmocka_unit_test(test_proctree_keep_finds_a_new_thread),
        cmocka_unit_test(test_clock_cpu_time_of_self_grows),
        cmocka_unit_test(test_clock_cpu_counts_reaped_children),
        cmocka_unit_test(test_clock_cpu_follows_a_deep_chain),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
