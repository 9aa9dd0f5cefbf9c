/* An append-only event list with per-event visibility, for games to embed.
 * Visibility is a seat bitmask; EVENTS_ALL means public. Seat -1 (the
 * omniscient observer) sees everything. */
#ifndef ARENA_EVENTS_H
#define ARENA_EVENTS_H

#include <stddef.h>
#include <stdint.h>

#include "value.h"

#define EVENTS_ALL 0xffffffffu
#define EVENTS_SEAT(s) (1u << (s))

typedef struct arena_events {
    av **items;
    uint32_t *vis;
    size_t len, cap;
    int disabled; /* set for ARENA_GAME_NO_EVENTS: push frees and drops */
} arena_events;

/* Takes ownership of ev. */
void events_push(arena_events *e, uint32_t vis, av *ev);
const av *events_get(const arena_events *e, size_t i, int seat);
void events_free(arena_events *e);

#endif
