#include "spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdbool.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pidtab.h"
#include "proctree.h"
#include "sandbox.h"
#include "util.h"

#ifndef ARENA_DEFAULT_LIMIT_MEM_MB
#define ARENA_DEFAULT_LIMIT_MEM_MB 2048
#endif
#ifndef ARENA_DEFAULT_LIMIT_AS_MB
#define ARENA_DEFAULT_LIMIT_AS_MB 8192 /* generous: JIT runtimes reserve large areas */
#endif

void agent_limits_default(agent_limits *l)
{
    l->as_mb = ARENA_DEFAULT_LIMIT_AS_MB;
    l->cpu_s = 7200; /* per process lifetime; the clock bounds each move */
    l->nproc = 512;
    l->fsize_mb = 64;
    l->tmp_mb = 64;
    l->mem_mb = ARENA_DEFAULT_LIMIT_MEM_MB;
}

static void set_limit(int res, rlim_t v)
{
    struct rlimit r = {v, v};
    setrlimit(res, &r);
}

/* Agent process groups, read by spawn_kill_all() from signal handlers:
 * a pid table in static storage (no allocation), O(1) to add and remove. */
#define MAX_GROUPS 16384
static volatile sig_atomic_t group_keys[2 * MAX_GROUPS];
static pidtab groups = {group_keys, NULL, 2 * MAX_GROUPS, 0};

/* The watchdog: a child of the referee in its own session that learns
 * every agent group over a pipe ("+pgid", "-pgid") and SIGKILLs those still
 * listed when the pipe closes, that is when the referee is gone, even by
 * SIGKILL. -1: not started (or could not be). */
static int watchdog_fd = -1;

static void kill_group(pid_t pid, void *ctx)
{
    (void)ctx;
    kill(-pid, SIGKILL);
}

static void watchdog_main(int rfd)
{
    setsid();
    for (int s = 1; s < 32; s++)
        if (s != SIGKILL && s != SIGSTOP) signal(s, SIG_IGN);
    int null = open("/dev/null", O_RDWR);
    for (int fd = 0; fd < 3; fd++)
        dup2(null, fd);
    if (rfd != 3) {
        dup2(rfd, 3);
        rfd = 3;
    }
    close_range(4, ~0U, 0);
    static volatile sig_atomic_t live_keys[2 * MAX_GROUPS];
    pidtab live;
    pidtab_init(&live, live_keys, NULL, 2 * MAX_GROUPS);
    int32_t m;
    for (;;) {
        ssize_t r = read(rfd, &m, sizeof m);
        if (r < 0 && errno == EINTR) continue;
        if (r != (ssize_t)sizeof m) break;
        if (m > 0)
            pidtab_put(&live, m, NULL);
        else if (m < 0 && m != INT32_MIN)
            pidtab_del(&live, -m);
    }
    pidtab_each_key(&live, kill_group, NULL);
    cgroup_sweep(); /* what left its group, and the cgroups themselves */
    _exit(0);
}

/* Once: forks the watchdog. False if it could not be. */
static bool watchdog_start(void)
{
    if (watchdog_fd >= 0) return true;
    int p[2];
    if (pipe2(p, O_CLOEXEC) != 0) return false;
    pid_t pid = fork();
    if (pid == 0) {
        close(p[1]);
        watchdog_main(p[0]);
    }
    close(p[0]);
    if (pid < 0) {
        close(p[1]);
        return false;
    }
    watchdog_fd = p[1];
    return true;
}

static void watchdog_tell(int32_t m)
{
    if (!watchdog_start()) return;
    ssize_t w;
    do {
        w = write(watchdog_fd, &m, sizeof m); /* 4 bytes: atomic on a pipe */
    } while (w < 0 && errno == EINTR);
}

static void remember(pid_t pid)
{
    pidtab_put(&groups, pid, NULL); /* full: only the watchdog will kill it */
    watchdog_tell((int32_t)pid);
}

void spawn_forget(pid_t pid)
{
    pidtab_del(&groups, pid);
    watchdog_tell(-(int32_t)pid);
}

void spawn_kill_all(void)
{
    pidtab_each_key(&groups, kill_group, NULL);
}

/* Runs in the child between fork and exec: async-signal-safe calls only.
 * keep_fd: the exec-error pipe (close-on-exec); parent: our pid; stage:
 * the directories a root referee shows the sandboxed agent, or NULL. */
static void child_setup(const agent_limits *lim, bool sandbox, const sandbox_stage *stage,
                        const agent_cgroup *cg, int in, int out, int errfd, int keep_fd,
                        pid_t parent)
{
    setpgid(0, 0);
    /* First, while still root: all it starts from here on is counted. */
    if (cgroup_enter(cg) != 0) {
        static const char msg[] = "arena: cannot move the agent into its cgroup\n";
        ssize_t wr = write(errfd, msg, sizeof msg - 1);
        (void)wr;
        _exit(126);
    }
    if (stage && sandbox_stage_enter(stage) != 0) {
        static const char msg[] = "arena: --sandbox: cannot mount the agent's directories\n";
        ssize_t wr = write(errfd, msg, sizeof msg - 1);
        (void)wr;
        _exit(126);
    }
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    for (int s = 1; s < 32; s++)
        if (s != SIGKILL && s != SIGSTOP) signal(s, SIG_DFL);
    dup2(in, 0);
    dup2(out, 1);
    dup2(errfd, 2);
    /* Nothing of ours leaks into the agent; keep_fd is close-on-exec. */
    close_range(3, (unsigned)keep_fd - 1, 0);
    close_range((unsigned)keep_fd + 1, ~0U, 0);
    set_limit(RLIMIT_CORE, 0);
    if (lim->as_mb > 0) set_limit(RLIMIT_AS, (rlim_t)lim->as_mb << 20);
    if (lim->cpu_s > 0) set_limit(RLIMIT_CPU, (rlim_t)lim->cpu_s);
    /* Sandboxed, the process limit is set inside the agent's own user
     * namespace (sandbox.c); set here it would count every agent of the uid. */
    if (lim->nproc > 0 && !sandbox) set_limit(RLIMIT_NPROC, (rlim_t)lim->nproc);
    if (lim->fsize_mb > 0) set_limit(RLIMIT_FSIZE, (rlim_t)lim->fsize_mb << 20);
    /* No task of the agent can raise its priority (lower its nice, leave
     * SCHED_IDLE: the kernel's can_nice()), so the fair clock may take a
     * task at a lower one for a helper that chose to yield (clock.c). Root
     * without --sandbox keeps CAP_SYS_NICE and is not bound by it. */
    set_limit(RLIMIT_NICE, 0);
    /* When memory runs out, the kernel kills an agent before the referee or
     * anything else of the host's. Written with CAP_SYS_RESOURCE it sticks;
     * without, the agent may lower it again. */
    int oom = open("/proc/self/oom_score_adj", O_WRONLY | O_CLOEXEC);
    if (oom >= 0) {
        ssize_t wr = write(oom, "1000", 4);
        (void)wr;
        close(oom);
    }
    if (sandbox && geteuid() == 0) {
        /* Root: the agent (and bwrap, which then builds the sandbox as an
         * unprivileged user) gets a uid of its own. */
        uid_t id = SANDBOX_UID_BASE + (uid_t)getpid();
        if (setgroups(0, NULL) != 0 || setgid(id) != 0 || setuid(id) != 0) _exit(126);
    }
    /* After any uid change, which would clear it: if we die, so does it. */
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    /* Kept across exec: a process the agent orphans (a double fork) becomes
     * the agent's child, not init's, so --clock cpu still counts it. */
    prctl(PR_SET_CHILD_SUBREAPER, 1);
    if (getppid() != parent) _exit(126);
}

/* The agent's cgroup, where cgroups serve. Where they do not, a sandboxed
 * agent's memory is bounded per process only: said once. */
static int open_cgroup(const agent_config *cfg, agent_cgroup *cg, char *err, size_t errlen)
{
    const char *why;
    if (cgroup_usable(&why)) {
        /* Before the first group: a SIGKILL from now on leaves none (and
         * after cgroup_usable, which may move the referee to a leaf of a
         * delegated group, where the watchdog must be too). */
        watchdog_start();
        /* A cpu group under every clock: without one an opponent's
         * helpers, however many, share the host with this agent as equals
         * and can keep it off the CPUs past any clock's wall cap
         * (e2e-cpu-starver-is-withstood); --freeze-idle stops only the
         * agents of its own match. */
        return cgroup_open(cg, cfg->limits.mem_mb, cfg->limits.nproc,
                           1u << CGROUP_CPU | (cfg->freeze_idle ? 1u << CGROUP_FREEZER : 0) |
                               (cfg->startup_cpu ? 1u << CGROUP_CPUACCT : 0),
                           err, errlen);
    }
    static bool said;
    if (cfg->sandbox && cfg->limits.mem_mb > 0 && !said) {
        said = true;
        fprintf(stderr,
                "arena: --limit-mem is not enforced: %s; an agent's memory is bounded per process "
                "only\n",
                why);
    }
    return 0;
}

static int nonblock_cloexec(int fd)
{
    int fl = fcntl(fd, F_GETFL);
    if (fl < 0 || fcntl(fd, F_SETFL, fl | O_NONBLOCK) < 0) return -1;
    return fcntl(fd, F_SETFD, FD_CLOEXEC);
}

int spawn_agent(const char *command, bool shell, const agent_config *cfg, spawned *out, char *err,
                size_t errlen)
{
    if (!shell && access(command, X_OK) != 0) {
        snprintf(err, errlen, "cannot run '%s': %s", command, strerror(errno));
        return -1;
    }
    char *line = shell ? xasprintf("exec %s", command) : NULL;
    const char *argv_shell[] = {"/bin/sh", "-c", line, NULL};
    const char *argv_path[] = {command, NULL};
    const char *const *inner = shell ? argv_shell : argv_path;
    char **bw = NULL;
    /* As root the agent gets a uid of its own (child_setup): its
     * directories are staged for bwrap while the child is still root. */
    sandbox_stage stage = {0};
    sandbox_stage *staged = cfg->sandbox && geteuid() == 0 ? &stage : NULL;
    if (cfg->sandbox) {
        bw = sandbox_argv(inner, command, cfg->pass_env, cfg->limits.nproc, cfg->limits.tmp_mb,
                          staged, err, errlen);
        if (!bw) {
            free(line);
            return -1;
        }
    }
    char *const *argv = bw ? bw : (char *const *)inner;
    agent_cgroup cg = {0};
    if (open_cgroup(cfg, &cg, err, errlen) != 0) {
        free(line);
        sandbox_argv_free(bw);
        sandbox_stage_free(&stage);
        return SPAWN_HOST_FAULT;
    }

    int pin[2] = {-1, -1}, pout[2] = {-1, -1}, perr[2] = {-1, -1}, pexec[2] = {-1, -1};
    if (pipe2(pin, O_CLOEXEC) || pipe2(pout, O_CLOEXEC) || pipe2(perr, O_CLOEXEC) ||
        pipe2(pexec, O_CLOEXEC)) {
        snprintf(err, errlen, "pipe: %s", strerror(errno));
        int *all[] = {pin, pout, perr, pexec};
        for (int i = 0; i < 4; i++)
            for (int j = 0; j < 2; j++)
                if (all[i][j] >= 0) close(all[i][j]);
        free(line);
        sandbox_argv_free(bw);
        sandbox_stage_free(&stage);
        cgroup_close(&cg);
        return SPAWN_HOST_FAULT;
    }
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(err, errlen, "fork: %s", strerror(errno));
        int *all[] = {pin, pout, perr, pexec};
        for (int i = 0; i < 4; i++)
            for (int j = 0; j < 2; j++)
                close(all[i][j]);
        free(line);
        sandbox_argv_free(bw);
        sandbox_stage_free(&stage);
        cgroup_close(&cg);
        return SPAWN_HOST_FAULT;
    }
    if (pid == 0) {
        child_setup(&cfg->limits, cfg->sandbox, staged, &cg, pin[0], pout[1], perr[1], pexec[1],
                    parent);
        if (bw)
            execvp(argv[0], argv);
        else
            execv(argv[0], argv);
        int e = errno;
        ssize_t wr = write(pexec[1], &e, sizeof e);
        (void)wr;
        _exit(127);
    }
    setpgid(pid, pid); /* also from the parent: no race with an early kill */
    remember(pid);
    cgroup_entered(&cg);
    close(pin[0]);
    close(pout[1]);
    close(perr[1]);
    close(pexec[1]);
    free(line);
    sandbox_argv_free(bw);
    sandbox_stage_free(&stage);
    if (cfg->wait_exec) {
        int child_errno = 0;
        ssize_t r;
        do {
            r = read(pexec[0], &child_errno, sizeof child_errno);
        } while (r < 0 && errno == EINTR);
        close(pexec[0]);
        pexec[0] = -1;
        if (r == (ssize_t)sizeof child_errno) {
            kill(-pid, SIGKILL);
            waitpid(pid, NULL, 0);
            spawn_forget(pid);
            cgroup_close(&cg);
            snprintf(err, errlen, "cannot run '%s': %s", cfg->sandbox ? "bwrap" : command,
                     strerror(child_errno));
            close(pin[1]);
            close(pout[0]);
            close(perr[0]);
            return -1;
        }
    } else {
        /* The exec is not waited for: on a busy machine the child may take
         * long to be scheduled, and the loop serves other agents meanwhile. */
        nonblock_cloexec(pexec[0]);
    }
    nonblock_cloexec(pin[1]);
    nonblock_cloexec(pout[0]);
    nonblock_cloexec(perr[0]);
    out->exec_fd = pexec[0];
    out->pid = pid;
    out->to_fd = pin[1];
    out->from_fd = pout[0];
    out->err_fd = perr[0];
    out->cg = cg;
    return 0;
}

int spawn_fds_per_agent(const char *spec)
{
    if (strncmp(spec, "builtin:", 8) == 0) return 0;
    if (strncmp(spec, "tcp:", 4) == 0) return 1;
    /* stdin, stdout, stderr, the exec pipe while it starts, and the files
     * the clocks keep open: /proc (proctree_keep), its cgroup's CPU usage */
    return 4 + PROCTREE_KEEP_FDS + 1;
}

long spawn_raise_fd_limit(long need)
{
    struct rlimit r;
    if (getrlimit(RLIMIT_NOFILE, &r) != 0) return need; /* cannot tell: let it be */
    if (r.rlim_cur != RLIM_INFINITY && (rlim_t)need > r.rlim_cur) {
        rlim_t want = (rlim_t)need;
        if (r.rlim_max != RLIM_INFINITY && want > r.rlim_max) want = r.rlim_max;
        struct rlimit n = {want, r.rlim_max};
        if (setrlimit(RLIMIT_NOFILE, &n) == 0) r.rlim_cur = want;
    }
    return r.rlim_cur == RLIM_INFINITY || r.rlim_cur > (rlim_t)LONG_MAX ? LONG_MAX
                                                                        : (long)r.rlim_cur;
}

int spawn_exec_result(int exec_fd, int *child_errno)
{
    int e = 0;
    ssize_t r;
    do {
        r = read(exec_fd, &e, sizeof e);
    } while (r < 0 && errno == EINTR);
    if (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return 0;
    if (r == (ssize_t)sizeof e) {
        *child_errno = e;
        return -1;
    }
    return 1; /* EOF: the close-on-exec end went away in a successful exec */
}
