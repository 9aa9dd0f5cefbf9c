/* The decide message of protocol.md, the one the referee sends for every
 * decision: as a value tree (for the match log and --trace) and written
 * straight into an output buffer (the hot path), the same bytes either way
 * (tests/referee/test_decide.c checks it for every game). */
#ifndef ARENA_DECIDE_H
#define ARENA_DECIDE_H

#include <stddef.h>
#include <stdint.h>

#include "codec.h"
#include "evcache.h"
#include "game.h"

typedef struct decide_clock {
    int64_t move_ms, bank_ms;
    int64_t game_ms; /* < 0: no game clock (sent as nil) */
} decide_clock;

/* The message for g's current decision d, its texts and view from vt;
 * events (a list) is moved in. */
av *decide_tree(const arena_game_vt *vt, const arena_game *g, const arena_decision *d, uint64_t id,
                av *events, const decide_clock *c);

/* The events of one decide, borrowed: n trees, and with a cache their
 * indices in the game, so that each is encoded once for every seat it
 * goes to (evcache.h). */
typedef struct decide_events {
    const av *const *ev;
    const size_t *idx; /* read only with cache */
    size_t n;
    evcache *cache; /* NULL: each event encoded here */
} decide_events;

/* Appends the frame codec_encode(codec, decide_tree(...)) would, without
 * the tree: the view is written by vt's view into the frame. Prompt and
 * labels come from vt too. */
void decide_write(codec_kind codec, abuf *out, const arena_game_vt *vt, const arena_game *g,
                  const arena_decision *d, uint64_t id, const decide_events *events,
                  const decide_clock *c);

#endif
