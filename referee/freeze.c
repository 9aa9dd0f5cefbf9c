#include "freeze.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/pidfd.h>
#include <unistd.h>

#include "proctree.h"
#include "util.h"

#define ROUNDS 8 /* walks per stop: each catches what the last one's forks made */

typedef struct round {
    freezer *f;
    int stopped; /* in this round */
} round;

static void keep(freezer *f, int fd)
{
    if (f->n == f->cap) {
        f->cap = f->cap ? 2 * f->cap : 8;
        f->fds = xrealloc(f->fds, f->cap * sizeof *f->fds);
    }
    f->fds[f->n++] = fd;
}

static void stop_one(pid_t pid, pid_t parent, void *ctx)
{
    round *r = ctx;
    char buf[1024];
    const char *st = proctree_stat(pid, buf, sizeof buf);
    /* Stopped already (by the group's signal, or an earlier round), or
     * dead: nothing to do. */
    if (!st || strchr("TtZX", st[0])) return;
    int fd = pidfd_open(pid, 0);
    if (fd < 0) return; /* gone */
    /* Read again with the pidfd held: still the process found under parent? */
    const char *now = proctree_stat(pid, buf, sizeof buf);
    int ppid = -1;
    if (!now || sscanf(now, "%*c %d", &ppid) != 1 || ppid != (int)parent ||
        pidfd_send_signal(fd, SIGSTOP, NULL, 0) != 0) {
        close(fd); /* the pid is another process's now */
        return;
    }
    keep(r->f, fd);
    r->stopped++;
}

void freezer_stop(freezer *f, pid_t root)
{
    if (f->stopped || root <= 0) return;
    f->stopped = true;
    kill(-root, SIGSTOP);
    round r = {f, 0};
    for (int k = 0; k < ROUNDS; k++) {
        r.stopped = 0;
        proctree_walk(root, stop_one, &r);
        if (r.stopped == 0) break;
    }
}

void freezer_cont(freezer *f, pid_t root)
{
    if (!f->stopped) return;
    f->stopped = false;
    if (root > 0) kill(-root, SIGCONT);
    for (size_t i = 0; i < f->n; i++) {
        pidfd_send_signal(f->fds[i], SIGCONT, NULL, 0);
        close(f->fds[i]);
    }
    f->n = 0;
}

void freezer_free(freezer *f)
{
    /* Still stopped when the agent is done with: they were its processes
     * outside its group, which its SIGKILL missed. They go with it. */
    for (size_t i = 0; i < f->n; i++) {
        pidfd_send_signal(f->fds[i], SIGKILL, NULL, 0);
        close(f->fds[i]);
    }
    free(f->fds);
    memset(f, 0, sizeof *f);
}
