/* What an agent's cgroups (referee/cgroup.h) add to starting and ending it:
 * fork a child that execs /bin/true and reap it, N times, without and with
 * the groups (made, joined by the child before exec, emptied, removed), the
 * two in alternating rounds. Prints wall time per agent of each and their
 * ratio. Needs what the referee needs for groups: cgroup v1's memory
 * hierarchy, writable (root, usually).
 *
 *   bench-cgroup [N]   (default 2000 per round, 3 rounds) */
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cgroup.h"

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
        if (groups && cgroup_open(&cg, 256, 64, err, sizeof err) != 0) {
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
    return 0;
}
