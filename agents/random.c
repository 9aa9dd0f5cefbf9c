/* builtin:random — uniform over legal choices, for every game. */
#include <stdlib.h>

#include "policy.h"
#include "util.h"

int arena_random_choice(arena_rng *rng, const arena_decision *d, int *choice)
{
    int span = d->pick_max - d->pick_min + 1;
    int k = d->pick_min + (int)arena_rng_below(rng, (uint32_t)span);
    /* Partial Fisher-Yates over the index set: uniform k-subset, and for
     * ordered picks a uniform order too. */
    int n = d->n_options;
    int stack[64];
    int *idx = n <= 64 ? stack : xmalloc((size_t)n * sizeof *idx);
    for (int i = 0; i < n; i++)
        idx[i] = i;
    for (int i = 0; i < k; i++) {
        int j = i + (int)arena_rng_below(rng, (uint32_t)(n - i));
        int t = idx[i];
        idx[i] = idx[j];
        idx[j] = t;
        choice[i] = idx[i];
    }
    if (idx != stack) free(idx);
    return k;
}

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
