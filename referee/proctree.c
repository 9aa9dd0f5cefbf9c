#include "proctree.h"

#include <sched.h>

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "procfile.h"

/* A /proc file read once (procfile.h): the bytes read, 0 if it is gone;
 * buf is 0-terminated. */
static size_t read_proc(const char *path, char *buf, size_t len)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    size_t got = procfile_read(fd, buf, len);
    if (fd >= 0) close(fd);
    return got;
}

/* One of the main thread's files, opened the first time it is wanted. */
static int kept(int *fd, pid_t pid, const char *name)
{
    if (*fd != -2) return *fd;
    char path[96];
    snprintf(path, sizeof path, "/proc/%d/task/%d/%s", (int)pid, (int)pid, name);
    return procfile_keep(fd, path);
}

void proctree_keep_close(proctree_keep *k)
{
    if (!k->pid) return;
    if (k->dir) closedir(k->dir);
    int *fds[] = {&k->schedstat, &k->status, &k->children, &k->stat};
    for (size_t i = 0; i < sizeof fds / sizeof *fds; i++)
        if (*fds[i] >= 0) close(*fds[i]);
    *k = (proctree_keep){0};
}

/* k, open for pid (its task list; its main thread's files as wanted). */
static bool keep_for(proctree_keep *k, pid_t pid)
{
    if (k->pid == pid) return k->dir != NULL;
    proctree_keep_close(k);
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/task", (int)pid);
    *k = (proctree_keep){.pid = pid,
                         .dir = opendir(path),
                         .schedstat = -2,
                         .status = -2,
                         .children = -2,
                         .stat = -2};
    return k->dir != NULL;
}

typedef struct walk {
    pid_t *stack;
    size_t n, cap;
} walk;

static bool push(walk *w, pid_t pid)
{
    if (w->n == w->cap) {
        pid_t *more = realloc(w->stack, 2 * w->cap * sizeof *w->stack);
        if (!more) return false;
        w->stack = more;
        w->cap *= 2;
    }
    w->stack[w->n++] = pid;
    return true;
}

/* Pushes the children of task tid of pid, listed in the file fd (closed
 * here unless kept), calling visit for each: the list is read in pieces,
 * a number cut at a piece's end carried over. */
static void children(walk *w, pid_t pid, int fd, bool keep,
                     void (*visit)(pid_t pid, pid_t parent, void *ctx), void *ctx)
{
    if (fd < 0) return;
    char buf[4096];
    long child = -1;
    off_t off = 0;
    ssize_t got;
    while ((got = pread(fd, buf, sizeof buf, off)) > 0) {
        off += got;
        for (ssize_t i = 0; i < got; i++) {
            if (buf[i] >= '0' && buf[i] <= '9') {
                child = (child < 0 ? 0 : child * 10) + (buf[i] - '0');
                continue;
            }
            if (child > 0) {
                if (visit) visit((pid_t)child, pid, ctx);
                if (!push(w, (pid_t)child)) goto out;
            }
            child = -1;
        }
    }
    if (child > 0) {
        if (visit) visit((pid_t)child, pid, ctx);
        push(w, (pid_t)child);
    }
out:
    if (!keep) close(fd);
}

/* Depth first from root, at most `max` processes read: for each, task(pid,
 * tid, k, ctx) for each of its tasks (may be NULL), then its tasks'
 * children, visit(child, pid, ctx) for each (may be NULL). One listing of
 * /proc/PID/task a process serves both. With `keep`, root's listing and
 * its main thread's files stay open in it: k is keep for that thread,
 * NULL for the others; while keep->threads is 1 (which task keeps up),
 * root's main thread is read first and the listing only if it says more
 * threads. Whether every process found was read. */
static bool walk_tree(pid_t root, size_t max, proctree_keep *keep,
                      void (*task)(pid_t pid, const char *tid, proctree_keep *k, void *ctx),
                      void (*visit)(pid_t pid, pid_t parent, void *ctx), void *ctx)
{
    walk w = {malloc(64 * sizeof(pid_t)), 0, 64};
    if (!w.stack) return false;
    w.stack[w.n++] = root;
    for (size_t walked = 0; w.n > 0 && walked++ < max;) {
        pid_t pid = w.stack[--w.n];
        bool mine = keep && pid == root;
        DIR *d;
        if (mine) {
            if (!keep_for(keep, pid)) continue;
            d = keep->dir;
        } else {
            char path[64];
            snprintf(path, sizeof path, "/proc/%d/task", (int)pid);
            if (!(d = opendir(path))) continue;
        }
        bool main_done = false;
        if (mine && task && keep->threads == 1) {
            char tid[16];
            snprintf(tid, sizeof tid, "%d", (int)pid);
            task(pid, tid, keep, ctx);
            main_done = true;
            if (keep->threads == 1) {
                children(&w, pid, kept(&keep->children, pid, "children"), true, visit, ctx);
                continue;
            }
        }
        if (mine) rewinddir(d);
        struct dirent *e;
        while ((e = readdir(d))) {
            if (e->d_name[0] == '.') continue;
            bool main = mine && atoi(e->d_name) == pid;
            if (task && !(main && main_done)) task(pid, e->d_name, main ? keep : NULL, ctx);
            int fd;
            if (main) {
                fd = kept(&keep->children, pid, "children");
            } else {
                char path[300];
                snprintf(path, sizeof path, "/proc/%d/task/%s/children", (int)pid, e->d_name);
                fd = open(path, O_RDONLY | O_CLOEXEC);
            }
            children(&w, pid, fd, main, visit, ctx);
        }
        if (!mine) closedir(d);
    }
    free(w.stack);
    return w.n == 0;
}

void proctree_walk(pid_t root, void (*visit)(pid_t pid, pid_t parent, void *ctx), void *ctx)
{
    walk_tree(root, PROCTREE_MAX, NULL, NULL, visit, ctx);
}

void proctree_walk_max(pid_t root, void (*visit)(pid_t pid, pid_t parent, void *ctx), void *ctx,
                       size_t max)
{
    walk_tree(root, max, NULL, NULL, visit, ctx);
}

const char *proctree_stat(pid_t pid, char *buf, size_t len)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    if (!read_proc(path, buf, len)) return NULL;
    /* The command name (field 2) may hold spaces and parens: the fields
     * after it start past the last ')'. */
    char *p = strrchr(buf, ')');
    return p && p[1] == ' ' ? p + 2 : NULL;
}

typedef struct task_list {
    proctree_task *out;
    size_t cap, n;
    bool states, whole;
} task_list;

/* Reads file `name` of task tid of pid: from k if it keeps it, else by
 * path. */
static size_t read_task(proctree_keep *k, int *fd, pid_t pid, const char *tid, const char *name,
                        char *buf, size_t len)
{
    if (k) return procfile_read(kept(fd, pid, name), buf, len);
    char p[300];
    snprintf(p, sizeof p, "/proc/%d/task/%s/%s", (int)pid, tid, name);
    return read_proc(p, buf, len);
}

/* From a task's stat (proc(5)): its state (field 3), nice (19), threads
 * (20) and policy (41). False if it does not parse. */
static bool parse_stat(const char *buf, char *state, long *nice, long *threads, long *policy)
{
    const char *p = strrchr(buf, ')'); /* the name may hold anything */
    if (!p || p[1] != ' ' || !p[2]) return false;
    p += 2;
    *state = *p;
    for (int field = 4; field <= 41; field++) {
        p = strchr(p, ' ');
        if (!p) return false;
        p++; /* where `field` starts */
        if (field == 19) *nice = strtol(p, NULL, 10);
        if (field == 20) *threads = strtol(p, NULL, 10);
        if (field == 41) *policy = strtol(p, NULL, 10);
    }
    return true;
}

/* A task's run and run-queue wait (ns): its schedstat's first two fields. */
static bool read_schedstat(proctree_keep *k, pid_t pid, const char *tid, unsigned long long *run,
                           unsigned long long *wait)
{
    char buf[64];
    return read_task(k, k ? &k->schedstat : NULL, pid, tid, "schedstat", buf, sizeof buf) &&
           sscanf(buf, "%llu %llu", run, wait) == 2;
}

static void add_task(pid_t pid, const char *tid, proctree_keep *k, void *ctx)
{
    task_list *l = ctx;
    if (l->n >= l->cap) {
        l->whole = false;
        return;
    }
    proctree_task *t = &l->out[l->n];
    if (!read_schedstat(k, pid, tid, &t->run_ns, &t->wait_ns)) return;
    t->pid = pid;
    t->tid = (pid_t)atoi(tid);
    t->state = '?';
    t->nice = 0;
    t->policy = -1;
    t->vol = 0;
    t->torn = false;
    t->pend_ms = t->pre_ms = 0;
    if (l->states) {
        char buf[4096];
        long nice = 0, threads = 0, policy = -1;
        if (read_task(k, k ? &k->stat : NULL, pid, tid, "stat", buf, sizeof buf) &&
            parse_stat(buf, &t->state, &nice, &threads, &policy)) {
            t->nice = (int)nice;
            t->policy = (int)policy;
        }
        if (k) k->threads = threads;
        /* How often it blocked matters only to a task seen runnable
         * (clock.c): status, the dearest file, is read for those only. */
        if (t->state == 'R' &&
            read_task(k, k ? &k->status : NULL, pid, tid, "status", buf, sizeof buf)) {
            const char *c = strstr(buf, "\nvoluntary_ctxt_switches:\t");
            if (c) t->vol = strtoull(c + 26, NULL, 10);
        }
        /* Whether it ran or stopped meanwhile (proctree_task.torn): its
         * schedstat again, the later figures kept. */
        unsigned long long run, wait;
        if (read_schedstat(k, pid, tid, &run, &wait) && (run != t->run_ns || wait != t->wait_ns)) {
            t->torn = true;
            t->run_ns = run;
            t->wait_ns = wait;
        }
    }
    l->n++;
}

size_t proctree_tasks(pid_t root, proctree_keep *keep, proctree_task *out, size_t cap, bool states,
                      bool *whole)
{
    task_list l = {out, cap, 0, states, true};
    /* The tasks of the first PROCTREE_TASK_PROCS processes only. */
    bool all = walk_tree(root, PROCTREE_TASK_PROCS, keep, add_task, NULL, &l);
    if (l.n == 0) return *whole = false, 0;
    *whole = l.whole && all;
    return l.n;
}

bool proctree_task_yields(const proctree_task *t, int nice, int policy)
{
    if (t->policy < 0) return false;
    return (t->policy == SCHED_IDLE && policy != SCHED_IDLE) || t->nice > nice;
}

bool proctree_schedstat(void)
{
    static int known; /* 0: not yet, 1: yes, -1: no */
    if (!known) {
        char buf[64];
        unsigned long long a, b;
        bool ok = read_proc("/proc/self/schedstat", buf, sizeof buf) &&
                  sscanf(buf, "%llu %llu", &a, &b) == 2;
        known = ok ? 1 : -1;
    }
    return known > 0;
}
