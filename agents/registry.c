#include <stddef.h>

#include "builtins.h"
#include "ismcts.h"

static const arena_policy_vt *const generic_policies[] = {
    &arena_policy_random, &arena_policy_ismcts, &arena_policy_ismcts_arg, NULL};

static const arena_policy_vt *const *const tables[] = {
    dominion_policies,
    pacifica_policies,
    xibalba_policies,
    generic_policies,
};

#define N_TABLES (sizeof tables / sizeof tables[0])

const arena_policy_vt *const *arena_builtin_policies(void)
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

void arena_builtins_install(void)
{
    arena_policies_install(arena_builtin_policies());
}
