/* Agents' cgroups (referee/cgroup.h), side by side with none:
 *
 * 1. What they add to starting and ending an agent: fork a child that execs
 *    /bin/true and reap it, N times, without and with its groups (made,
 *    joined by the child before exec, emptied, removed), in alternating
 *    rounds: wall time per agent, and the ratio.
 * 2. What they do for an agent's CPU share: a "victim" process does a fixed
 *    amount of work while a hostile agent's 8 helpers spin, all in one
 *    group against the victim's own, or with no groups; the victim's wall
 *    time against its time alone.
 * 3. What the referee's loop spends on an agent of many processes: stopping
 *    and continuing it (--freeze-idle) by freeze.h's walk or its freezer
 *    group, and reading its CPU time (a CPU-timed clock) by clock.h's walk
 *    or its cpuacct group; median microseconds per operation.
 *
 * Needs what the referee needs for groups: cgroup v1's memory hierarchy,
 * writable (root, usually); part 2 the cpu hierarchy too, part 3 freezer
 * and cpuacct.
 *
 *   bench-cgroup [N]   (default 2000 per round, 3 rounds) */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cgroup.h"
#include "clock.h"
#include "freeze.h"

static double now_us(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e6 + (double)t.tv_nsec / 1e3;
}

/* Microseconds per child, with groups or without. */
static double run(int n, bool groups)
{
    double t0 = now_us();
    for (int i = 0; i < n; i++) {
        agent_cgroup cg = {0};
        char err[256];
        if (groups && cgroup_open(&cg, 256, 64, 1u << CGROUP_CPU, err, sizeof err) != 0) {
            fprintf(stderr, "bench-cgroup: %s\n", err);
            exit(1);
        }
        pid_t pid = fork();
        if (pid == 0) {
            if (cgroup_enter(&cg) != 0) _exit(126);
            execl("/bin/true", "true", (char *)NULL);
            _exit(127);
        }
        cgroup_entered(&cg);
        int st;
        waitpid(pid, &st, 0);
        if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
            fprintf(stderr, "bench-cgroup: the child failed (status %d)\n", st);
            exit(1);
        }
        cgroup_close(&cg);
    }
    return (now_us() - t0) / n;
}

#define HELPERS 8

static void work(void)
{
    volatile unsigned long x = 0;
    for (unsigned long i = 0; i < 300000000UL; i++)
        x += i;
}

static pid_t start(agent_cgroup *cg, bool spin)
{
    pid_t pid = fork();
    if (pid == 0) {
        if (cgroup_enter(cg) != 0) _exit(126);
        if (spin)
            for (;;)
                work();
        work();
        _exit(0);
    }
    return pid;
}

/* Wall ms of the victim's work: alone, or beside HELPERS spinning helpers,
 * with each side in a group of its own or with no groups. */
static double victim_ms(bool helpers, bool groups)
{
    agent_cgroup hostile = {0}, victim = {0};
    char err[256];
    if (groups && (cgroup_open(&hostile, 0, 0, 1u << CGROUP_CPU, err, sizeof err) != 0 ||
                   cgroup_open(&victim, 0, 0, 1u << CGROUP_CPU, err, sizeof err) != 0)) {
        fprintf(stderr, "bench-cgroup: %s\n", err);
        exit(1);
    }
    pid_t spin[HELPERS];
    for (int i = 0; helpers && i < HELPERS; i++)
        spin[i] = start(&hostile, true);
    cgroup_entered(&hostile);
    if (helpers) usleep(200 * 1000); /* all of them running */
    double t0 = now_us();
    pid_t v = start(&victim, false);
    cgroup_entered(&victim);
    waitpid(v, NULL, 0);
    double ms = (now_us() - t0) / 1e3;
    for (int i = 0; helpers && i < HELPERS; i++) {
        kill(spin[i], SIGKILL);
        waitpid(spin[i], NULL, 0);
    }
    cgroup_close(&hostile);
    cgroup_close(&victim);
    return ms;
}

#define MANY 500 /* an agent's processes in part 3 */
#define TIMES 21 /* operations of each kind, alternated */

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return v[n / 2];
}

/* Part 3: an agent of MANY processes, a group leader and its idle
 * children, in groups with a freezer and a cpuacct. */
static void many_processes(void)
{
    agent_cgroup cg = {0};
    char err[256];
    if (cgroup_open(&cg, 0, 0, 1u << CGROUP_FREEZER | 1u << CGROUP_CPUACCT, err, sizeof err) != 0) {
        fprintf(stderr, "bench-cgroup: %s\n", err);
        exit(1);
    }
    int ready[2];
    if (pipe(ready) != 0) exit(1);
    pid_t leader = fork();
    if (leader == 0) {
        if (cgroup_enter(&cg) != 0) _exit(126);
        setpgid(0, 0);
        for (int i = 1; i < MANY; i++)
            if (fork() == 0) {
                for (;;)
                    pause();
            }
        if (write(ready[1], "x", 1) != 1) _exit(1);
        for (;;)
            pause();
    }
    cgroup_entered(&cg);
    char b;
    if (read(ready[0], &b, 1) != 1) exit(1);
    close(ready[0]);
    close(ready[1]);
    if (cgroup_cpu_ms(&cg) < 0 || !cgroup_freeze(&cg, false)) {
        fprintf(stderr, "bench-cgroup: part 3 needs cgroup v1's freezer and cpuacct\n");
        exit(1);
    }
    double walk_stop[TIMES], group_stop[TIMES], walk_cpu[TIMES], group_cpu[TIMES];
    for (int i = 0; i < TIMES; i++) {
        freezer f = {0};
        double t0 = now_us();
        freezer_stop(&f, leader);
        freezer_cont(&f, leader);
        double t1 = now_us();
        freezer_free(&f);
        usleep(20 * 1000); /* all of them continued */
        double t2 = now_us();
        cgroup_freeze(&cg, true);
        cgroup_freeze(&cg, false);
        double t3 = now_us();
        usleep(20 * 1000);
        double t4 = now_us();
        double a = proc_tree_cpu_ms(leader);
        double t5 = now_us();
        double c = cgroup_cpu_ms(&cg);
        double t6 = now_us();
        if (a < 0 || c < 0) exit(1);
        walk_stop[i] = t1 - t0, group_stop[i] = t3 - t2;
        walk_cpu[i] = t5 - t4, group_cpu[i] = t6 - t5;
    }
    double ws = median(walk_stop, TIMES), gs = median(group_stop, TIMES),
           wc = median(walk_cpu, TIMES), gc = median(group_cpu, TIMES);
    printf("\nan agent of %d processes, median of %d: microseconds the loop spends\n", MANY, TIMES);
    printf("operation                 walk of its tree  its group  walk / group\n");
    printf("stop and continue it      %16.0f  %9.0f  %10.1f x\n", ws, gs, ws / gs);
    printf("read its CPU time         %16.0f  %9.0f  %10.1f x\n", wc, gc, wc / gc);
    kill(-leader, SIGKILL);
    waitpid(leader, NULL, 0);
    cgroup_close(&cg);
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 2000;
    const char *why;
    if (n < 1 || !cgroup_usable(&why)) {
        fprintf(stderr, "bench-cgroup: %s\n", n < 1 ? "usage: bench-cgroup [N]" : why);
        return 1;
    }
    printf("fork + exec /bin/true + reap, %d per round: microseconds per agent\n", n);
    printf("round  without  with groups  with / without\n");
    for (int r = 1; r <= 3; r++) {
        double a = run(n, false), b = run(n, true);
        printf("%5d  %7.1f  %11.1f  %14.2f x\n", r, a, b, b / a);
    }
    printf("\na victim's fixed work, %d helpers of another agent spinning: wall ms\n", HELPERS);
    printf("round  alone  no groups (x alone)  own groups (x alone)\n");
    for (int r = 1; r <= 3; r++) {
        double alone = victim_ms(false, false), none = victim_ms(true, false),
               own = victim_ms(true, true);
        printf("%5d  %5.0f  %9.0f (%5.2f x)  %10.0f (%5.2f x)\n", r, alone, none, none / alone, own,
               own / alone);
    }
    many_processes();
    return 0;
}
