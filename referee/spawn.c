#include "spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdbool.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util.h"

#ifndef ARENA_DEFAULT_LIMIT_AS_MB
#define ARENA_DEFAULT_LIMIT_AS_MB 8192 /* generous: JIT runtimes reserve large areas */
#endif

void agent_limits_default(agent_limits *l)
{
    l->as_mb = ARENA_DEFAULT_LIMIT_AS_MB;
    l->cpu_s = 7200; /* per process lifetime; the clock bounds each move */
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

#define SANDBOX_MAX_KEEP 8

/* The private /tmp would hide an agent living under /tmp (and the working
 * directory, when it is there). Those stay visible, read-only: the working
 * directory and the directory of every word of the command that names an
 * existing path under /tmp (the file alone when it sits right in /tmp).
 * Returns how many paths it put in keep[]. */
static size_t sandbox_keep(const char *command, char **keep)
{
    size_t n = 0;
    char cwd[4096];
    if (getcwd(cwd, sizeof cwd) && strncmp(cwd, "/tmp/", 5) == 0) keep[n++] = xstrdup(cwd);
    char *words = xstrdup(command);
    for (char *save, *w = strtok_r(words, " \t'\"", &save); w && n < SANDBOX_MAX_KEEP;
         w = strtok_r(NULL, " \t'\"", &save)) {
        char real[4096];
        if (!realpath(w, real) || strncmp(real, "/tmp/", 5) != 0) continue;
        /* Its directory (sibling modules), but never /tmp as a whole: a file
         * right in /tmp is kept on its own. */
        char *slash = strrchr(real, '/');
        if (slash && slash - real > 4) *slash = 0;
        bool dup = false;
        for (size_t i = 0; i < n; i++)
            dup |= strcmp(keep[i], real) == 0;
        if (!dup) keep[n++] = xstrdup(real);
    }
    free(words);
    return n;
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
    const char *bw[64];
    size_t n = 0;
    char *keep[SANDBOX_MAX_KEEP] = {0};
    if (sandbox) {
        const char *pre[] = {"bwrap",         "--ro-bind",        "/",     "/",       "--dev",
                             "/dev",          "--proc",           "/proc", "--tmpfs", "/tmp",
                             "--unshare-all", "--die-with-parent"};
        for (size_t i = 0; i < sizeof pre / sizeof pre[0]; i++)
            bw[n++] = pre[i];
        size_t nk = sandbox_keep(command, keep);
        for (size_t i = 0; i < nk; i++) {
            bw[n++] = "--ro-bind";
            bw[n++] = keep[i];
            bw[n++] = keep[i];
        }
        bw[n++] = "--";
    }
    for (size_t i = 0; inner[i]; i++)
        bw[n++] = inner[i];
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
        for (size_t i = 0; i < SANDBOX_MAX_KEEP; i++)
            free(keep[i]);
        waitpid(pid, NULL, 0);
        snprintf(err, errlen, "cannot run '%s': %s", sandbox ? "bwrap" : bw[0],
                 strerror(child_errno));
        close(pin[1]);
        close(pout[0]);
        close(perr[0]);
        kill(-pid, SIGKILL);
        return -1;
    }
    for (size_t i = 0; i < SANDBOX_MAX_KEEP; i++)
        free(keep[i]);
    nonblock_cloexec(pin[1]);
    nonblock_cloexec(pout[0]);
    nonblock_cloexec(perr[0]);
    out->pid = pid;
    out->to_fd = pin[1];
    out->from_fd = pout[0];
    out->err_fd = perr[0];
    return 0;
}
