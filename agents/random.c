/* builtin:random — uniform over legal choices, for every game. */
#include <stdlib.h>

#include "builtins.h"
#include "util.h"

static void *random_create(const char *arg, int seat, uint64_t seed, char *err, size_t errlen)
{
    (void)arg, (void)seat, (void)err, (void)errlen;
    arena_rng *r = xmalloc(sizeof *r);
    arena_rng_seed(r, seed);
    return r;
}

static int random_decide(void *self, const arena_game *g, const arena_decision *d, int *choice)
{
    (void)g;
    return arena_random_choice(self, d, choice);
}

const arena_policy_vt arena_policy_random = {
    .name = "random",
    .game = NULL,
    .summary = "uniformly random legal choices (any game)",
    .create = random_create,
    .decide = random_decide,
    .free = free,
};
