/* Built-in bots for xibalba. */
#include "policy.h"

const arena_policy_vt *const xibalba_policies[] = {NULL};
