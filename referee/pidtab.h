/* A set of process ids with an optional pointer per id: open addressing,
 * linear probing, O(1) expected insert, find and remove.
 *
 * The key slots are volatile sig_atomic_t so that a signal handler may walk
 * them (pidtab_each_key) even when it interrupts an insert or a removal: a
 * removal moves an entry by writing its new slot before clearing the old
 * one, so at every instant each id present is in some slot (an id being
 * moved may be seen twice). Nothing else is signal-safe.
 *
 * The storage is the caller's (static arrays for tables a signal handler
 * reads, or pidtab_alloc'ed): capacity is fixed and a power of two; inserts
 * are refused past half of it, which keeps probe sequences short. */
#ifndef ARENA_PIDTAB_H
#define ARENA_PIDTAB_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

typedef struct pidtab {
    volatile sig_atomic_t *keys; /* 0 = empty; pids are > 0 */
    void **vals;                 /* NULL: a set without values */
    size_t cap;                  /* a power of two */
    size_t len;
} pidtab;

/* Uses caller storage: keys[cap] (zeroed) and vals[cap] (or NULL). */
void pidtab_init(pidtab *t, volatile sig_atomic_t *keys, void **vals, size_t cap);

/* Heap storage for at most max_len ids (capacity the next power of two at
 * least 2 * max_len); with_vals adds the pointer array. */
void pidtab_alloc(pidtab *t, size_t max_len, bool with_vals);
void pidtab_free(pidtab *t);
/* For a pidtab_alloc'ed table, or a zeroed one (which gets values): grows
 * it to hold max_len ids, keeping its entries. */
void pidtab_reserve(pidtab *t, size_t max_len);

/* Adds pid (> 0) with val; false when full or pid <= 0. A pid already
 * present gets the new val. */
bool pidtab_put(pidtab *t, pid_t pid, void *val);

/* True when present; *val (if not NULL) gets its pointer. */
bool pidtab_get(const pidtab *t, pid_t pid, void **val);

/* Removes pid; false when it was not present. */
bool pidtab_del(pidtab *t, pid_t pid);

/* Calls fn for every present id, in slot order. Async-signal-safe if fn is;
 * from a handler that interrupted a removal an id may be visited twice. */
void pidtab_each_key(const pidtab *t, void (*fn)(pid_t pid, void *ctx), void *ctx);

#endif
