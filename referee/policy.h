/* The built-in bot interface: in-process policies, usable as
 * `builtin:NAME[:ARG]`, and the registry the runner finds them in.
 *
 * The referee knows no policy by name: the program that runs it (the
 * `arena` command, a test, a benchmark) installs the list it offers, so the
 * runner depends on this interface, never on agents/. A policy decides
 * through the game interface. Game-specific policies may
 * read their game's state struct directly for speed, but must use only what
 * their seat could see (the same information view(seat) holds). */
#ifndef ARENA_POLICY_H
#define ARENA_POLICY_H

#include "game.h"
#include "rng.h"

typedef struct arena_policy_vt {
    const char *name;    /* "random", "big-money", "bm-with" */
    const char *game;    /* game name, or NULL for any game */
    const char *summary; /* one line for `arena bots` / --help */
    bool takes_arg;      /* `bm-with:Smithy` -> arg "Smithy" */
    /* Returns NULL and fills err on a bad argument. seed drives any
     * randomness the policy uses, so builtin games are reproducible. */
    void *(*create)(const char *arg, int seat, uint64_t seed, char *err, size_t errlen);
    /* Fills choice (capacity d->n_options) and returns how many indices. */
    int (*decide)(void *self, const arena_game *g, const arena_decision *d, int *choice);
    void (*free)(void *self);
    /* Optional (NULL: ignored): the match's per-decision clock, told once
     * after create. The referee does not time built-in bots out, so a bot
     * whose decisions can be slow must keep itself within move_ms. */
    void (*set_move_ms)(void *self, int64_t move_ms);
} arena_policy_vt;

/* Installs the NULL-terminated list of policies that `builtin:` specs name
 * (kept, not copied). Before any install the list is empty. */
void arena_policies_install(const arena_policy_vt *const *list);
/* The installed list, NULL-terminated (never NULL itself). */
const arena_policy_vt *const *arena_policies(void);
/* Looks up `name` ("bm-with:Smithy" splits at the first ':') for a game in
 * the installed list; game-specific policies win over generic ones. Names
 * match ignoring '-' and '_'. NULL if none. */
const arena_policy_vt *arena_find_policy(const char *game, const char *name, const char **arg);

/* Uniformly random legal choice: a count uniform in [pick_min, pick_max],
 * then that many distinct indices uniformly (shuffled when ordered).
 * The referee's fallback; builtin:random and the search bots use it too.
 * Returns the count. */
int arena_random_choice(arena_rng *rng, const arena_decision *d, int *choice);

#endif
