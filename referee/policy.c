/* The registry of built-in policies, and the uniform random choice that the
 * referee's fallback plays. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "policy.h"
#include "util.h"

static const arena_policy_vt *const no_policies[] = {NULL};
static const arena_policy_vt *const *installed = no_policies;

void arena_policies_install(const arena_policy_vt *const *list)
{
    installed = list ? list : no_policies;
}

const arena_policy_vt *const *arena_policies(void)
{
    return installed;
}

/* Bot names match ignoring '-' and '_', so `bigmoney` finds `big-money`. */
static bool same_name(const char *a, const char *b, size_t blen)
{
    size_t i = 0, j = 0;
    for (;;) {
        while (a[i] == '-' || a[i] == '_')
            i++;
        while (j < blen && (b[j] == '-' || b[j] == '_'))
            j++;
        if (!a[i] || j == blen) return !a[i] && j == blen;
        if (a[i] != b[j]) return false;
        i++, j++;
    }
}

const arena_policy_vt *arena_find_policy(const char *game, const char *name, const char **arg)
{
    const char *colon = strchr(name, ':');
    size_t len = colon ? (size_t)(colon - name) : strlen(name);
    const arena_policy_vt *generic = NULL;
    for (const arena_policy_vt *const *p = installed; *p; p++) {
        const arena_policy_vt *v = *p;
        if (!same_name(v->name, name, len)) continue;
        if (colon && !v->takes_arg) continue;
        if (!colon && v->takes_arg) continue;
        if (v->game && game && strcmp(v->game, game) == 0) {
            *arg = colon ? colon + 1 : NULL;
            return v;
        }
        if (!v->game && !generic) generic = v;
    }
    if (generic) *arg = colon ? colon + 1 : NULL;
    return generic;
}

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
