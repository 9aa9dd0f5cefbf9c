/* The game interface. Every game is a module behind this one vtable; the
 * referee, the tournament runner, in-process bots and the tests drive games
 * only through it.
 *
 * Contract for implementers:
 *  - Pure and deterministic: the same seed, settings and choices give the same
 *    decisions, labels, views and events, byte for byte. All randomness comes
 *    from the game's own rng seeded in create(); no time, no global state.
 *  - At any moment exactly one seat decides (or the game is over).
 *  - Options are complete and every option is legal: ANY list of distinct
 *    indices whose length is within [pick_min, pick_max] must be accepted by
 *    apply(). Games therefore never rely on an "extra constraint" in the
 *    prompt; they split a choice into several decisions instead. This is what
 *    lets the referee's fallback and builtin:random play uniformly at random.
 *  - When pick_ordered is false the order of the indices must not matter.
 *  - Labels are deterministic for a given state and stable strings
 *    ("buy:Smithy", "pass"); labels within one decision are distinct.
 *  - view(seat) holds only what that seat may see at the table. Seat -1 is
 *    the omniscient view (replay, debugging), never sent to an agent. A game
 *    writes it item by item (valueout.h): the referee has it written straight
 *    into the decide frame, everything else reads it as a tree (game_view).
 *  - Events are appended to a per-game list; each event has a visibility set.
 *    The referee forwards event i to seat s only if event(g, i, s) != NULL,
 *    and frees the events every agent has had (arena_game_release_events).
 */
#ifndef ARENA_GAME_H
#define ARENA_GAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "events.h"
#include "value.h"
#include "valueout.h"

#define ARENA_MAX_SEATS 8
_Static_assert(ARENA_MAX_SEATS <= EVENTS_SPECTATOR, "the spectator is no seat");

/* Flags for create(). */
enum {
    /* Record no events and skip all presentation work: for self-play fuzzing
     * and benchmarks. Decisions and outcomes must be identical either way. */
    ARENA_GAME_NO_EVENTS = 1u << 0,
    /* The settings are a match log's (arena replay, arena audit), and a log
     * may come from anyone: the value of a `cards` setting is then not a
     * path but the JSON of the options the log recorded (settings() of the
     * game played, which hold the cards), and the card set is built from
     * it. No file a log names is opened. */
    ARENA_GAME_FROM_LOG = 1u << 1,
};

typedef struct arena_game_vt arena_game_vt;

/* Takes option i's label (labels below, arena_game_labels). */
typedef void (*arena_label_fn)(void *ctx, int i, const char *label);

/* Every game state struct starts with this header. `size` is the size of
 * the whole state struct and `ev` its event list: games whose state is one
 * flat struct (all of ours) then use the ready-made clone, free and event
 * functions below instead of writing their own. */
typedef struct arena_game {
    const arena_game_vt *vt;
    size_t size;
    arena_events ev;
} arena_game;

typedef struct arena_decision {
    int seat;         /* who decides */
    const char *kind; /* static string: "buy", "militia-discard", ... */
    int n_options;    /* >= 1 */
    int pick_min;     /* 0 <= pick_min <= pick_max <= n_options */
    int pick_max;
    bool pick_ordered;
    int turn; /* the game's turn counter, for logs and printing */
} arena_decision;

typedef struct arena_result {
    bool over;
    int ranks[ARENA_MAX_SEATS]; /* by seat, 1 = best, equal = tie */
    int64_t scores[ARENA_MAX_SEATS];
    int turns; /* turns played (the game's own notion) */
} arena_result;

typedef struct arena_setting {
    const char *key;
    const char *value;
} arena_setting;

typedef struct arena_option_doc {
    const char *key;
    const char *values; /* e.g. "first-game|random|<10 card names>" */
    const char *dflt;
    const char *help;
} arena_option_doc;

struct arena_game_vt {
    const char *name;  /* "dominion" */
    const char *title; /* "Dominion (Base + Seaside, 1st editions)" */
    int min_players, max_players;
    const arena_option_doc *options; /* terminated by {NULL} */

    /* Returns NULL and writes a one-line message into err on bad settings
     * (unknown key, bad value, unsupported player count). */
    arena_game *(*create)(const arena_setting *settings, size_t n_settings, uint64_t seed,
                          int players, unsigned flags, char *err, size_t errlen);
    /* Deep copy of the state; the copy records no events (for search bots). */
    arena_game *(*clone)(const arena_game *g);
    void (*free)(arena_game *g);

    /* The current decision; returns false when the game is over. */
    bool (*decision)(const arena_game *g, arena_decision *d);
    /* Label of option i of the current decision, written into buf. */
    void (*label)(const arena_game *g, int i, char *buf, size_t len);
    /* Optional: every option's label of the current decision, in order, each
     * written into buf as label() writes it and handed to put. For a game
     * whose label() works out all the options to name one: the referee
     * names them all for every decision. NULL: label() is called for each. */
    void (*labels)(const arena_game *g, char *buf, size_t len, arena_label_fn put, void *ctx);
    /* Human-readable prompt of the current decision. */
    void (*prompt)(const arena_game *g, char *buf, size_t len);
    /* Applies a choice for the current decision. The referee has already
     * checked count, range and distinctness. Returns false (state unchanged)
     * if the game rejects it; with the contract above that never happens for
     * a choice that passes the generic checks. */
    bool (*apply)(arena_game *g, const int *choice, int n);

    /* Writes what seat may see now (seat -1: everything) into o. */
    void (*view)(const arena_game *g, int seat, vout *o);
    /* Writes what a spectator may see now: only what every seat sees, no
     * seat's hidden cards and no seat's options (the live board of a game
     * in progress). A function of its own, not a seat of view(), so that
     * no view indexes a seat that is not there. NULL: no live board. */
    void (*public_view)(const arena_game *g, vout *o);
    size_t (*event_count)(const arena_game *g);
    /* Event i as seen by seat (-1: omniscient), or NULL if hidden from it
     * or released (arena_game_release_events). Borrowed pointer, valid
     * until the game is freed or the event released. */
    const av *(*event)(const arena_game *g, size_t i, int seat);
    /* Index of the first event of the current turn, as the game marked it
     * where its turn counter moves (events_turn_moved). Events before it
     * are the only ones the referee flushes to seats not deciding, so a
     * turn's first decision, which a hidden card may decide, does not cut
     * the stream. NULL: event_count (no game of ours). */
    size_t (*turn_from)(const arena_game *g);
    /* Has fn(ctx) called, during apply, each time the game marks a turn
     * (turn_from moves), its state then readable by public_view and
     * showing nothing of the new turn: the live boards are cut there, not
     * where the game next stops, since whether it stops for a decision
     * may hang on a hidden card (a Dominion hand without an Action plays
     * its Treasures at once). A clone does not call it. NULL: none. */
    void (*on_turn)(arena_game *g, void (*fn)(void *ctx), void *ctx);
    /* The resolved settings (e.g. the actual kingdom), sent in `hello`. */
    av *(*settings)(const arena_game *g);
    void (*result)(const arena_game *g, arena_result *r);

    /* For search bots: replaces everything hidden from `seat` (deck orders,
     * other hands, face-down stacks, future dice) by a random assignment
     * consistent with what that seat has seen, and reseeds the game's own rng
     * from `seed` so that the future is not the real one either. view(seat)
     * is byte-identical before and after. Meant for clones (events off). */
    void (*determinize)(arena_game *g, int seat, uint64_t seed);
};

/* Convenience wrappers. */
static inline bool game_decision(const arena_game *g, arena_decision *d)
{
    return g->vt->decision(g, d);
}
static inline bool game_apply(arena_game *g, const int *c, int n)
{
    return g->vt->apply(g, c, n);
}
static inline void game_free(arena_game *g)
{
    if (g) g->vt->free(g);
}
/* The labels of the n options of the current decision, through vt's
 * labels (or label, one by one), each in buf and handed to put. */
void arena_game_labels(const arena_game_vt *vt, const arena_game *g, int n, char *buf, size_t len,
                       arena_label_fn put, void *ctx);
/* The view as a tree (caller frees), as vt's view writes it. */
av *arena_view_tree(const arena_game_vt *vt, const arena_game *g, int seat);
static inline av *game_view(const arena_game *g, int seat)
{
    return arena_view_tree(g->vt, g, seat);
}
/* The spectator's view as a tree (caller frees); NULL when the game has
 * no public_view. */
av *arena_public_view_tree(const arena_game *g);

/* Vtable entries for flat game states: clone is one copy (recording no
 * events), free releases the event list and the struct. */
arena_game *arena_game_clone_flat(const arena_game *g);
void arena_game_free_flat(arena_game *g);
size_t arena_game_event_count(const arena_game *g);
size_t arena_game_turn_from(const arena_game *g);
void arena_game_on_turn(arena_game *g, void (*fn)(void *ctx), void *ctx);
const av *arena_game_event(const arena_game *g, size_t i, int seat);
/* Frees the game's events before index upto once nobody will read them
 * again (events.h); the count and later indices do not change. Only
 * between applies. A game that keeps its events elsewhere (a wrapper
 * around another game) simply keeps them. */
void arena_game_release_events(arena_game *g, size_t upto);

/* Generic check of a choice against a decision: count within pick, each index
 * in range, all distinct. Returns NULL when fine, else a static reason. */
const char *arena_check_choice(const arena_decision *d, const int *choice, int n);

/* The game registry. */
const arena_game_vt *arena_find_game(const char *name);
/* NULL-terminated list of games; hidden (test-only) games are included only
 * when include_hidden is set. */
const arena_game_vt *const *arena_games(bool include_hidden);

/* Ranks from scores with a tie-break key: higher score is better; on equal
 * score, lower tiebreak is better (e.g. fewer turns); equal both -> shared
 * rank. A helper most games use to fill arena_result.ranks. */
void arena_rank_by_score(int players, const int64_t *scores, const int64_t *tiebreak, int *ranks);

#endif
