/* Built-in bots for pacifica. */
#include "policy.h"

const arena_policy_vt *const pacifica_policies[] = {NULL};
