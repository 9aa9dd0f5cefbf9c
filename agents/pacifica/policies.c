/* Built-in bots for pacifica (builtin:random is generic, agents/random.c). */
#include "builtins.h"

extern const arena_policy_vt pacifica_policy_greedy;
extern const arena_policy_vt pacifica_policy_greedy_favour;

const arena_policy_vt *const pacifica_policies[] = {&pacifica_policy_greedy,
                                                    &pacifica_policy_greedy_favour, NULL};
