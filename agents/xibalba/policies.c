/* Built-in bots for xibalba. */
#include "builtins.h"

extern const arena_policy_vt xibalba_policy_heuristic;

const arena_policy_vt *const xibalba_policies[] = {&xibalba_policy_heuristic, NULL};
