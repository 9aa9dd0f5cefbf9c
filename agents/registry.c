#include <stdbool.h>
#include <string.h>

#include "ismcts.h"
#include "policy.h"

static const arena_policy_vt *const generic_policies[] = {
    &arena_policy_random, &arena_policy_ismcts, &arena_policy_ismcts_arg, NULL};

static const arena_policy_vt *const *const tables[] = {
    dominion_policies,
    pacifica_policies,
    xibalba_policies,
    generic_policies,
};

#define N_TABLES (sizeof tables / sizeof tables[0])

const arena_policy_vt *const *arena_policies(void)
{
    static const arena_policy_vt *all[128];
    if (!all[0]) {
        size_t n = 0;
        for (size_t t = 0; t < N_TABLES; t++)
            for (size_t i = 0; tables[t][i] && n + 1 < sizeof all / sizeof all[0]; i++)
                all[n++] = tables[t][i];
        all[n] = NULL;
    }
    return all;
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
    for (const arena_policy_vt *const *p = arena_policies(); *p; p++) {
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
