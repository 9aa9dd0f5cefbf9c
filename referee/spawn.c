#include "spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "util.h"

#ifndef ARENA_DEFAULT_LIMIT_AS_MB
#define ARENA_DEFAULT_LIMIT_AS_MB 8192 /* generous: JIT runtimes reserve large areas */
#endif

void agent_limits_default(agent_limits *l)
{
    l->as_mb = ARENA_DEFAULT_LIMIT_AS_MB;
    l->cpu_s = 7200;  /* per process lifetime; the clock bounds each move */
    l->nproc = 512;
    l->fsize_mb = 64;
}

static void set_limit(int res, rlim_t v)
{
    struct rlimit r = {v, v};
    setrlimit(res, &r);
}

/* Runs in the child between fork and exec: async-signal-safe calls only. */
static void child_setup(const agent_limits *lim, int in, int out, int errfd)
{
    setpgid(0, 0);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    for (int s = 1; s < 32; s++)
        if (s != SIGKILL && s != SIGSTOP) signal(s, SIG_DFL);
    dup2(in, 0);
    dup2(out, 1);
    dup2(errfd, 2);
    set_limit(RLIMIT_CORE, 0);
    if (lim->as_mb > 0) set_limit(RLIMIT_AS, (rlim_t)lim->as_mb << 20);
    if (lim->cpu_s > 0) set_limit(RLIMIT_CPU, (rlim_t)lim->cpu_s);
    if (lim->nproc > 0) set_limit(RLIMIT_NPROC, (rlim_t)lim->nproc);
    if (lim->fsize_mb > 0) set_limit(RLIMIT_FSIZE, (rlim_t)lim->fsize_mb << 20);
}

static int nonblock_cloexec(int fd)
{
    int fl = fcntl(fd, F_GETFL);
    if (fl < 0 || fcntl(fd, F_SETFL, fl | O_NONBLOCK) < 0) return -1;
    return fcntl(fd, F_SETFD, FD_CLOEXEC);
}

int spawn_agent(const char *command, bool shell, const agent_limits *lim, bool sandbox,
                spawned *out, char *err, size_t errlen)
{
    if (!shell && access(command, X_OK) != 0) {
        snprintf(err, errlen, "cannot run '%s': %s", command, strerror(errno));
        return -1;
    }
    char *line = shell ? xasprintf("exec %s", command) : NULL;
    const char *argv_shell[] = {"/bin/sh", "-c", line, NULL};
    const char *argv_path[] = {command, NULL};
    const char *const *inner = shell ? argv_shell : argv_path;

    /* bubblewrap: read-only root, private /tmp, no network, own PID
     * namespace; it dies with us. */
    const char *bw[32];
    size_t n = 0;
    if (sandbox) {
        const char *pre[] = {"bwrap", "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc",
                             "--tmpfs", "/tmp", "--unshare-all", "--die-with-parent", "--"};
        for (size_t i = 0; i < sizeof pre / sizeof pre[0]; i++) bw[n++] = pre[i];
    }
    for (size_t i = 0; inner[i]; i++) bw[n++] = inner[i];
    bw[n] = NULL;

    int pin[2], pout[2], perr[2], pexec[2];
    if (pipe(pin) || pipe(pout) || pipe(perr) || pipe2(pexec, O_CLOEXEC)) {
        snprintf(err, errlen, "pipe: %s", strerror(errno));
        free(line);
        return -1;
    }
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(err, errlen, "fork: %s", strerror(errno));
        free(line);
        return -1;
    }
    if (pid == 0) {
        child_setup(lim, pin[0], pout[1], perr[1]);
        /* Close every other descriptor so agents inherit nothing of ours. */
        int maxfd = (int)sysconf(_SC_OPEN_MAX);
        for (int fd = 3; fd < maxfd && fd < 65536; fd++)
            if (fd != pexec[1]) close(fd);
        if (sandbox)
            execvp(bw[0], (char *const *)bw);
        else
            execv(bw[0], (char *const *)bw);
        int e = errno;
        ssize_t wr = write(pexec[1], &e, sizeof e);
        (void)wr;
        _exit(127);
    }
    setpgid(pid, pid); /* also from the parent: no race with an early kill */
    close(pin[0]);
    close(pout[1]);
    close(perr[1]);
    close(pexec[1]);
    int child_errno = 0;
    ssize_t r;
    do {
        r = read(pexec[0], &child_errno, sizeof child_errno);
    } while (r < 0 && errno == EINTR);
    close(pexec[0]);
    free(line);
    if (r == (ssize_t)sizeof child_errno) {
        snprintf(err, errlen, "cannot run '%s': %s", sandbox ? "bwrap" : bw[0],
                 strerror(child_errno));
        close(pin[1]);
        close(pout[0]);
        close(perr[0]);
        kill(-pid, SIGKILL);
        return -1;
    }
    nonblock_cloexec(pin[1]);
    nonblock_cloexec(pout[0]);
    nonblock_cloexec(perr[0]);
    out->pid = pid;
    out->to_fd = pin[1];
    out->from_fd = pout[0];
    out->err_fd = perr[0];
    return 0;
}
