/* Built-in bots for dominion. */
#include "policy.h"

const arena_policy_vt *const dominion_policies[] = {NULL};
