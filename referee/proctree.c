#include "proctree.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void proctree_walk(pid_t root, void (*visit)(pid_t pid, pid_t parent, void *ctx), void *ctx)
{
    size_t n = 0, cap = 64, walked = 0;
    pid_t *stack = malloc(cap * sizeof *stack);
    if (!stack) return;
    stack[n++] = root;
    while (n > 0 && walked++ < PROCTREE_MAX) {
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
