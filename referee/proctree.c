#include "proctree.h"

#include <sched.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void proctree_walk(pid_t root, void (*visit)(pid_t pid, pid_t parent, void *ctx), void *ctx)
{
    proctree_walk_max(root, visit, ctx, PROCTREE_MAX);
}

void proctree_walk_max(pid_t root, void (*visit)(pid_t pid, pid_t parent, void *ctx), void *ctx,
                       size_t max)
{
    size_t n = 0, cap = 64, walked = 0;
    pid_t *stack = malloc(cap * sizeof *stack);
    if (!stack) return;
    stack[n++] = root;
    while (n > 0 && walked++ < max) {
        pid_t pid = stack[--n];
        char path[64];
        snprintf(path, sizeof path, "/proc/%d/task", (int)pid);
        DIR *d = opendir(path);
        if (!d) continue;
        struct dirent *e;
        while ((e = readdir(d))) {
            if (e->d_name[0] == '.') continue;
            char cpath[300];
            snprintf(cpath, sizeof cpath, "/proc/%d/task/%s/children", (int)pid, e->d_name);
            FILE *f = fopen(cpath, "r");
            if (!f) continue;
            int child;
            while (fscanf(f, "%d", &child) == 1) {
                visit((pid_t)child, pid, ctx);
                if (n == cap) {
                    pid_t *more = realloc(stack, 2 * cap * sizeof *stack);
                    if (!more) break;
                    stack = more;
                    cap *= 2;
                }
                stack[n++] = (pid_t)child;
            }
            fclose(f);
        }
        closedir(d);
    }
    free(stack);
}

const char *proctree_stat(pid_t pid, char *buf, size_t len)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    FILE *f = fopen(path, "r");
    if (!f) return NULL;
    size_t got = fread(buf, 1, len - 1, f);
    fclose(f);
    buf[got] = 0;
    /* The command name (field 2) may hold spaces and parens: the fields
     * after it start past the last ')'. */
    char *p = strrchr(buf, ')');
    return p && p[1] == ' ' ? p + 2 : NULL;
}

typedef struct task_list {
    proctree_task *out;
    size_t cap, n, procs;
    bool states, whole;
} task_list;

static void add_tasks(pid_t pid, pid_t parent, void *ctx)
{
    (void)parent;
    task_list *l = ctx;
    if (l->procs++ >= PROCTREE_TASK_PROCS) { /* (an agent's first processes only) */
        l->whole = false;
        return;
    }
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/task", (int)pid);
    DIR *d = opendir(path);
    if (!d) return;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.') continue;
        if (l->n >= l->cap) {
            l->whole = false;
            continue;
        }
        char p[300];
        snprintf(p, sizeof p, "/proc/%d/task/%s/schedstat", (int)pid, e->d_name);
        FILE *f = fopen(p, "r");
        if (!f) continue;
        proctree_task *t = &l->out[l->n];
        int ok = fscanf(f, "%llu %llu", &t->run_ns, &t->wait_ns);
        fclose(f);
        if (ok != 2) continue;
        t->pid = pid;
        t->tid = (pid_t)atoi(e->d_name);
        t->state = '?';
        t->vol = 0;
        t->pend_ms = 0;
        if (l->states) { /* its state and how often it blocked: status, one read */
            char st[2048];
            snprintf(p, sizeof p, "/proc/%d/task/%s/status", (int)pid, e->d_name);
            f = fopen(p, "r");
            size_t got = f ? fread(st, 1, sizeof st - 1, f) : 0;
            if (f) fclose(f);
            st[got] = 0;
            const char *c = strstr(st, "\nState:\t");
            if (c) t->state = c[8];
            c = strstr(st, "\nvoluntary_ctxt_switches:\t");
            if (c) t->vol = strtoull(c + 26, NULL, 10);
        }
        l->n++;
    }
    closedir(d);
}

size_t proctree_tasks(pid_t root, proctree_task *out, size_t cap, bool states, bool *whole)
{
    task_list l = {out, cap, 0, 0, states, true};
    add_tasks(root, 0, &l);
    if (l.n == 0) return *whole = false, 0;
    proctree_walk_max(root, add_tasks, &l, PROCTREE_TASK_PROCS);
    *whole = l.whole;
    return l.n;
}

bool proctree_task_yields(pid_t pid, pid_t tid, int nice, int policy)
{
    char path[96], buf[1024];
    snprintf(path, sizeof path, "/proc/%d/task/%d/stat", (int)pid, (int)tid);
    FILE *f = fopen(path, "r");
    if (!f) return false;
    size_t got = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[got] = 0;
    const char *p = strrchr(buf, ')');
    if (!p || p[1] != ' ') return false;
    /* Field 3 (the state) starts at p + 2: nice is field 19, policy 41. */
    long n = 0, pol = 0;
    for (int field = 3; p && field <= 41; field++) {
        p = strchr(p + 1, ' '); /* the space before `field` */
        if (p && field == 19) n = strtol(p + 1, NULL, 10);
        if (p && field == 41) pol = strtol(p + 1, NULL, 10);
    }
    if (!p) return false;
    return (pol == SCHED_IDLE && policy != SCHED_IDLE) || n > nice;
}

bool proctree_schedstat(void)
{
    static int known; /* 0: not yet, 1: yes, -1: no */
    if (!known) {
        FILE *f = fopen("/proc/self/schedstat", "r");
        unsigned long long a, b;
        known = f && fscanf(f, "%llu %llu", &a, &b) == 2 ? 1 : -1;
        if (f) fclose(f);
    }
    return known > 0;
}
