#include "pidtab.h"

#include <stdint.h>
#include <stdlib.h>

#include "util.h"

void pidtab_init(pidtab *t, volatile sig_atomic_t *keys, void **vals, size_t cap)
{
    t->keys = keys;
    t->vals = vals;
    t->cap = cap;
    t->len = 0;
}

void pidtab_alloc(pidtab *t, size_t max_len, bool with_vals)
{
    size_t cap = 8;
    while (cap < 2 * max_len)
        cap *= 2;
    pidtab_init(t, xcalloc(cap, sizeof *t->keys), with_vals ? xcalloc(cap, sizeof(void *)) : NULL,
                cap);
}

void pidtab_free(pidtab *t)
{
    free((void *)t->keys);
    free(t->vals);
    t->keys = NULL;
    t->vals = NULL;
    t->cap = t->len = 0;
}

void pidtab_reserve(pidtab *t, size_t max_len)
{
    if (t->cap / 2 >= max_len) return;
    pidtab old = *t;
    pidtab_alloc(t, max_len, old.vals != NULL || old.cap == 0);
    for (size_t s = 0; s < old.cap; s++)
        if (old.keys[s] > 0) pidtab_put(t, old.keys[s], old.vals ? old.vals[s] : NULL);
    pidtab_free(&old);
}

/* Pids are mostly consecutive: a multiplicative hash spreads them. */
static size_t home(const pidtab *t, pid_t pid)
{
    return (size_t)(((uint64_t)(uint32_t)pid * 0x9e3779b97f4a7c15u) >> 32) & (t->cap - 1);
}

static size_t find(const pidtab *t, pid_t pid, bool *found)
{
    size_t s = home(t, pid);
    while (t->keys[s] != 0) {
        if (t->keys[s] == pid) {
            *found = true;
            return s;
        }
        s = (s + 1) & (t->cap - 1);
    }
    *found = false;
    return s;
}

bool pidtab_put(pidtab *t, pid_t pid, void *val)
{
    if (pid <= 0 || t->cap == 0) return false;
    bool found;
    size_t s = find(t, pid, &found);
    if (!found) {
        if (t->len >= t->cap / 2) return false;
        t->len++;
    }
    if (t->vals) t->vals[s] = val;
    t->keys[s] = pid;
    return true;
}

bool pidtab_get(const pidtab *t, pid_t pid, void **val)
{
    if (pid <= 0 || t->cap == 0) return false;
    bool found;
    size_t s = find(t, pid, &found);
    if (found && val) *val = t->vals ? t->vals[s] : NULL;
    return found;
}

bool pidtab_del(pidtab *t, pid_t pid)
{
    if (pid <= 0 || t->cap == 0) return false;
    bool found;
    size_t hole = find(t, pid, &found);
    if (!found) return false;
    size_t mask = t->cap - 1;
    /* Backward-shift deletion: later entries of the probe run move into the
     * hole when their home slot allows it, so no tombstones accumulate. */
    for (size_t s = (hole + 1) & mask; t->keys[s] != 0; s = (s + 1) & mask) {
        size_t h = home(t, t->keys[s]);
        /* Movable when h is not cyclically within (hole, s]. */
        bool stays = hole <= s ? (hole < h && h <= s) : (hole < h || h <= s);
        if (stays) continue;
        if (t->vals) t->vals[hole] = t->vals[s];
        t->keys[hole] = t->keys[s]; /* the copy first: a walker never misses it */
        hole = s;
    }
    t->keys[hole] = 0;
    if (t->vals) t->vals[hole] = NULL;
    t->len--;
    return true;
}

void pidtab_each_key(const pidtab *t, void (*fn)(pid_t pid, void *ctx), void *ctx)
{
    for (size_t s = 0; s < t->cap; s++) {
        pid_t p = t->keys[s];
        if (p > 0) fn(p, ctx);
    }
}
