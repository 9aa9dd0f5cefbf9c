/* --freeze-idle's freezer (freeze.h) on real processes: an agent made of a
 * group leader, a spinner in its group, and a spinner in a session of its
 * own at the end of a chain. Stopping must stop all three, continuing must
 * continue them, and a freezer dropped while it holds processes stopped
 * kills those outside the group (the group is the referee's to kill). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "freeze.h"
#include "proctree.h"

#define CHAIN 5 /* the outsider's depth under the leader */

static void spin(void)
{
    for (;;) {
    }
}

/* The leader: a spinner child in its group, and a chain of CHAIN processes
 * whose last one spins in a new session. Reports the two spinners' pids on
 * `out`, then waits. */
static void leader(int out)
{
    setpgid(0, 0);
    pid_t inside = fork();
    if (inside == 0) spin();
    pid_t outside = -1;
    int link[2];
    if (pipe(link) != 0) _exit(1);
    if (fork() == 0) {
        for (int d = 1; d < CHAIN; d++)
            if (fork() > 0) pause(); /* each link stays, holding the chain */
        setsid();
        pid_t me = getpid();
        if (write(link[1], &me, sizeof me) != sizeof me) _exit(1);
        spin();
    }
    if (read(link[0], &outside, sizeof outside) != sizeof outside) _exit(1);
    pid_t both[2] = {inside, outside};
    if (write(out, both, sizeof both) != sizeof both) _exit(1);
    for (;;)
        pause();
}

static char state(pid_t pid)
{
    char buf[1024];
    const char *s = proctree_stat(pid, buf, sizeof buf);
    return s ? s[0] : 0;
}

/* Waits up to a second for pid to be in (or out of) the stopped state. */
static bool becomes(pid_t pid, bool stopped)
{
    for (int i = 0; i < 200; i++) {
        char c = state(pid);
        if ((c == 'T') == stopped && c != 0) return true;
        struct timespec ts = {0, 5000000};
        nanosleep(&ts, NULL);
    }
    return false;
}

static void test_freezer_stops_and_continues_the_whole_tree(void **st)
{
    (void)st;
    int p[2];
    assert_int_equal(pipe(p), 0);
    pid_t root = fork();
    assert_true(root >= 0);
    if (root == 0) leader(p[1]);
    pid_t kids[2];
    assert_int_equal(read(p[0], kids, sizeof kids), (ssize_t)sizeof kids);
    freezer f = {0};
    freezer_stop(&f, root);
    bool all_stopped = becomes(root, true) && becomes(kids[0], true) && becomes(kids[1], true);
    size_t held = f.n;
    freezer_cont(&f, root);
    bool all_running = becomes(root, false) && becomes(kids[0], false) && becomes(kids[1], false);
    /* Stopped again and dropped: the outsider is killed with it. */
    freezer_stop(&f, root);
    freezer_free(&f);
    bool outsider_gone = false;
    for (int i = 0; i < 200 && !outsider_gone; i++) {
        char c = state(kids[1]);
        outsider_gone = c == 0 || c == 'Z' || c == 'X';
        struct timespec ts = {0, 5000000};
        nanosleep(&ts, NULL);
    }
    kill(-root, SIGKILL);
    kill(kids[1], SIGKILL);
    int ws;
    waitpid(root, &ws, 0);
    /* The chain's links were in the leader's group: gone with it. */
    assert_true(all_stopped);
    assert_true(held >= 1); /* the outsider, by its pidfd */
    assert_true(all_running);
    assert_true(outsider_gone);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_freezer_stops_and_continues_the_whole_tree),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
