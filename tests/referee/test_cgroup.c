/* Finding the referee's own cgroup (cgroup.h): the lines of
 * /proc/self/mountinfo and /proc/self/cgroup it reads; and one agent's
 * real group, in cgroup v1 here as root, in v2 in tests/vm. The memory
 * caps are tested end to end (tests/sandbox, case agent_cgroups). */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "cgroup.h"

static void a_v1_mount_names_its_controllers(void **state)
{
    (void)state;
    char mnt[64], root[64];
    const char *line = "35 25 0:30 / /sys/fs/cgroup/memory rw,relatime shared:14 - cgroup cgroup "
                       "rw,memory\n";
    assert_true(cgroup_parse_mount(line, "memory", mnt, root, sizeof mnt));
    assert_string_equal(mnt, "/sys/fs/cgroup/memory");
    assert_string_equal(root, "/");
    assert_false(cgroup_parse_mount(line, "pids", mnt, root, sizeof mnt));
    /* Several controllers, and no optional tags. */
    const char *both = "30 25 0:26 / /sys/fs/cgroup/cpu,cpuacct rw - cgroup cgroup rw,cpu,cpuacct";
    assert_true(cgroup_parse_mount(both, "cpuacct", mnt, root, sizeof mnt));
    assert_string_equal(mnt, "/sys/fs/cgroup/cpu,cpuacct");
    assert_false(cgroup_parse_mount(both, "cpuac", mnt, root, sizeof mnt));
}

static void other_mounts_are_not_v1_hierarchies(void **state)
{
    (void)state;
    char mnt[64], root[64];
    /* cgroup v2 has no controller list in its options: never taken. */
    assert_false(cgroup_parse_mount(
        "29 25 0:25 / /sys/fs/cgroup rw shared:4 - cgroup2 cgroup2 rw,memory_recursiveprot",
        "memory", mnt, root, sizeof mnt));
    assert_false(cgroup_parse_mount("22 1 8:1 / / rw - ext4 /dev/sda1 rw,memory", "memory", mnt,
                                    root, sizeof mnt));
    assert_false(cgroup_parse_mount("garbage", "memory", mnt, root, sizeof mnt));
}

static void a_mounted_subtree_keeps_its_root(void **state)
{
    (void)state;
    char mnt[64], root[64];
    assert_true(cgroup_parse_mount(
        "900 899 0:30 /docker/abc /sys/fs/cgroup/memory ro - cgroup cgroup rw,memory", "memory",
        mnt, root, sizeof mnt));
    assert_string_equal(root, "/docker/abc");
    /* Too long for the buffer: refused, not cut. */
    char small[8];
    assert_false(cgroup_parse_mount("1 1 0:30 / /sys/fs/cgroup/memory rw - cgroup cgroup memory",
                                    "memory", small, root, sizeof small));
}

static void the_own_group_is_read_per_controller(void **state)
{
    (void)state;
    char path[64];
    assert_true(cgroup_parse_self("4:memory:/process_api/4a5d\n", "memory", path, sizeof path));
    assert_string_equal(path, "/process_api/4a5d");
    assert_true(cgroup_parse_self("2:cpu,cpuacct:/user.slice\n", "cpu", path, sizeof path));
    assert_string_equal(path, "/user.slice");
    assert_false(cgroup_parse_self("0::/init.scope\n", "memory", path, sizeof path));
    assert_false(cgroup_parse_self("8:pids:/\n", "memory", path, sizeof path));
    assert_false(cgroup_parse_self("no colons", "memory", path, sizeof path));
}

static void v2_is_asked_for_by_no_controller(void **state)
{
    (void)state;
    char mnt[64], root[64], path[64];
    assert_true(cgroup_parse_mount("29 25 0:25 / /sys/fs/cgroup rw shared:4 - cgroup2 cgroup2 "
                                   "rw,memory_recursiveprot",
                                   NULL, mnt, root, sizeof mnt));
    assert_string_equal(mnt, "/sys/fs/cgroup");
    assert_false(
        cgroup_parse_mount("35 25 0:30 / /sys/fs/cgroup/memory rw - cgroup cgroup rw,memory", NULL,
                           mnt, root, sizeof mnt));
    assert_true(cgroup_parse_self("0::/user.slice/user-0.slice/session-2.scope\n", NULL, path,
                                  sizeof path));
    assert_string_equal(path, "/user.slice/user-0.slice/session-2.scope");
    assert_false(cgroup_parse_self("4:memory:/x\n", NULL, path, sizeof path));
}

static double cpu_now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

/* What a child left in shared memory: a counter it keeps raising, and how
 * many of its forks the pids cap allowed. */
struct shared {
    volatile unsigned long ticks;
    volatile int forks;
};

static unsigned long ticks_over(struct shared *sh, int ms)
{
    unsigned long t0 = sh->ticks;
    nanosleep(&(struct timespec){0, ms * 1000000L}, NULL);
    return sh->ticks - t0;
}

/* An agent's group where this host gives one (root, and cgroup v1's memory
 * hierarchy or v2): its CPU time counts a child that has ended, its cap on
 * processes holds, freezing stops it, and killing kills it. Elsewhere it is
 * refused with the reason. */
static void an_agents_group_counts_caps_freezes_and_kills(void **state)
{
    (void)state;
    const char *why;
    agent_cgroup cg;
    char err[1024];
    unsigned want = 1u << CGROUP_FREEZER | 1u << CGROUP_CPUACCT;
    if (!cgroup_usable(&why)) {
        assert_true(why && *why);
        assert_int_equal(cgroup_open(&cg, 64, 8, want, err, sizeof err), -1);
        assert_non_null(strstr(err, why));
        return;
    }
    assert_int_equal(cgroup_open(&cg, 64, 8, want, err, sizeof err), 0);
    struct shared *sh =
        mmap(NULL, sizeof *sh, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    assert_true(sh != MAP_FAILED);
    sh->forks = -1;
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) { /* (dies with the test, should an assertion end it) */
        if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || cgroup_enter(&cg) != 0) _exit(1);
        pid_t burner = fork(); /* 80 ms of CPU, then gone */
        if (burner == 0) {
            double t0 = cpu_now_ms();
            while (cpu_now_ms() - t0 < 80) {
            }
            _exit(0);
        }
        waitpid(burner, NULL, 0);
        int forks = 0; /* 2 of the cap's 8 are taken: this one and ... */
        for (int i = 0; i < 16; i++) {
            pid_t k = fork();
            if (k == 0) {
                prctl(PR_SET_PDEATHSIG, SIGKILL);
                pause();
                _exit(0);
            }
            if (k < 0) break;
            forks++;
        }
        sh->forks = forks;
        for (;;)
            sh->ticks++;
    }
    cgroup_entered(&cg);
    for (int i = 0; i < 500 && sh->forks < 0; i++)
        nanosleep(&(struct timespec){0, 10000000L}, NULL);
    assert_in_range(sh->forks, 1, 7); /* ... the burner, maybe still exiting */
    assert_true(cgroup_cpu_ms(&cg) >= 79);
    assert_true(ticks_over(sh, 50) > 0);
    assert_true(cgroup_freeze(&cg, true));
    nanosleep(&(struct timespec){0, 50000000L}, NULL); /* v2 freezes asynchronously */
    assert_int_equal(ticks_over(sh, 100), 0);
    assert_true(cgroup_freeze(&cg, false));
    assert_true(ticks_over(sh, 100) > 0);
    /* Killed while frozen: dies all the same. */
    assert_true(cgroup_freeze(&cg, true));
    cgroup_kill(&cg);
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
    cgroup_close(&cg);
    munmap(sh, sizeof *sh);
}

/* The group that holds the agents' cpu groups weighs as many default
 * processes as it holds agents: of one process's weight, 200 starting
 * interpreters shared one CPU's worth against the rest of the host. */
static void the_agents_parent_weighs_as_many_as_it_holds(void **state)
{
    (void)state;
    if (!cgroup_usable(NULL)) {
        assert_int_equal(cgroup_cpu_weight(), 0);
        return;
    }
    agent_cgroup cg[3];
    char err[1024];
    for (int i = 0; i < 3; i++)
        assert_int_equal(cgroup_open(&cg[i], 0, 0, 1u << CGROUP_CPU, err, sizeof err), 0);
    if (!cg[0].cpu) { /* no cpu controller here: nothing weighed */
        assert_int_equal(cgroup_cpu_weight(), 0);
    } else {
        assert_int_equal(cgroup_cpu_weight(), 3);
        cgroup_close(&cg[1]);
        assert_int_equal(cgroup_cpu_weight(), 2);
    }
    for (int i = 0; i < 3; i++)
        cgroup_close(&cg[i]);
    assert_true(cgroup_cpu_weight() <= 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_v1_mount_names_its_controllers),
        cmocka_unit_test(other_mounts_are_not_v1_hierarchies),
        cmocka_unit_test(a_mounted_subtree_keeps_its_root),
        cmocka_unit_test(the_own_group_is_read_per_controller),
        cmocka_unit_test(v2_is_asked_for_by_no_controller),
        cmocka_unit_test(an_agents_group_counts_caps_freezes_and_kills),
        cmocka_unit_test(the_agents_parent_weighs_as_many_as_it_holds),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
