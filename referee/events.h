/* An append-only event list with per-event visibility, for games to embed.
 * Visibility is a seat bitmask; EVENTS_ALL means public. Seat -1 (the
 * omniscient observer) sees everything.
 *
 * The referee releases the events every reader has had (events_release),
 * so a long game holds only the recent ones: indices stay those of the
 * whole game and len counts every event pushed. */
#ifndef ARENA_EVENTS_H
#define ARENA_EVENTS_H

#include <stddef.h>
#include <stdint.h>

#include "value.h"

#define EVENTS_ALL 0xffffffffu
#define EVENTS_SEAT(s) (1u << (s))
/* The spectator, a pseudo-seat past every real one (game.h's
 * ARENA_MAX_SEATS): events_get(e, i, EVENTS_SPECTATOR) gives the events
 * whose mask has its bit. EVENTS_ALL has it, and so has EVENTS_ALL less a
 * seat: the others' copy of a split event (one naming no hidden card, the
 * owner getting its private copy), which is therefore written that way and
 * never as the other seats one by one. EVENTS_SEAT(s) keeps the spectator
 * out. */
#define EVENTS_SPECTATOR 8

typedef struct arena_events {
    av **items;    /* events off .. len-1; items[0] is event off */
    uint32_t *vis; /* their visibility, the same way */
    size_t off;    /* events before this one are released */
    size_t len;    /* events pushed in all */
    size_t cap;    /* room in items and vis */
    size_t turn;   /* index of the first event of the game's current turn */
    int disabled;  /* set for ARENA_GAME_NO_EVENTS: push frees and drops */
    /* Called at each events_turn_moved (arena_game_on_turn); NULL: none. */
    void (*on_turn)(void *ctx);
    void *on_turn_ctx;
} arena_events;

/* Takes ownership of ev. */
void events_push(arena_events *e, uint32_t vis, av *ev);
/* Marks where the game's turn counter moves: the events pushed so far
 * belong to turns before the current one. The referee flushes events to
 * the other seats only up to this mark (protocol.md, `event`), a point no
 * hidden card decides. A game calls it where its public_view shows the new
 * turn and nothing of it yet: the live boards are built there (on_turn). */
void events_turn_moved(arena_events *e);
/* Event i as seen by seat, NULL when hidden from it or released. */
const av *events_get(const arena_events *e, size_t i, int seat);
/* The event pushed last, for a game amending it right after the push;
 * NULL if there is none (or it is released). */
av *events_last(arena_events *e);
/* Frees the events before index upto (capped at len); they read as NULL
 * afterwards. Only between two applies of the game: during one, a game may
 * still amend the event it just pushed. */
void events_release(arena_events *e, size_t upto);
/* How many events are held (pushed and not released). */
size_t events_held(const arena_events *e);
void events_free(arena_events *e);

#endif
