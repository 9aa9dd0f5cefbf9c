/* The built-in bots this tree ships, for the programs that offer them: the
 * `arena` command, tests and benchmarks install them into the runner's
 * registry (referee/policy.h) with arena_builtins_install(). */
#ifndef ARENA_BUILTINS_H
#define ARENA_BUILTINS_H

#include "policy.h"

/* Every built-in policy, NULL-terminated: game-specific ones first. */
const arena_policy_vt *const *arena_builtin_policies(void);
/* arena_policies_install(arena_builtin_policies()). */
void arena_builtins_install(void);

extern const arena_policy_vt arena_policy_random;

/* Per-game policy tables, NULL-terminated, defined in agents/<game>/. */
extern const arena_policy_vt *const dominion_policies[];
extern const arena_policy_vt *const pacifica_policies[];
extern const arena_policy_vt *const xibalba_policies[];

#endif
