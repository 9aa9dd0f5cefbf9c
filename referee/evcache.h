/* A match's events, encoded once for all the seats that are sent them.
 *
 * A public event goes to every seat, each in its own decide, and encoding
 * it anew per seat was a fifth of a four-player Dominion referee's
 * instructions. The cache keeps each event's bytes per codec, keyed by the
 * event's index in the game and its tree: a game that shows seats
 * different trees under one index (the vtable allows it) shares nothing,
 * and the bytes are only ever reused for the very tree they encode. That
 * tree does not change once sent: a game amends only the event it has
 * just pushed, during the same apply (events.h), and decides are written
 * between applies.
 *
 * The referee drops entries with the events themselves (evcache_release),
 * so the cache holds the bytes of the events some agent has not had yet. */
#ifndef ARENA_EVCACHE_H
#define ARENA_EVCACHE_H

#include <stddef.h>

#include "framewrite.h"

typedef struct evcache_slot evcache_slot;

typedef struct evcache {
    evcache_slot *slot; /* slot[i] is event base + i */
    size_t base, n, cap;
    abuf bytes; /* every slot's encodings (and, before them, released ones') */
} evcache;

/* Writes event idx (its tree ev, as the seat is shown it) as the next
 * value of w: the bytes cached for w's codec if they encode this very
 * tree, else encoded now (fw_value) and kept. (Kept even when no other
 * seat gets the event: telling which costs more than the copy.) idx must
 * not be below the last evcache_release's upto. */
void evcache_write(evcache *c, frame_writer *w, size_t idx, const av *ev);
/* Drops the entries of events before upto, as their trees are freed. */
void evcache_release(evcache *c, size_t upto);
/* Bytes held for the events not released, for tests. */
size_t evcache_bytes(const evcache *c);
void evcache_free(evcache *c);

#endif
