#include "fault.h"

const char *fault_cause_name(fault_cause c)
{
    switch (c) {
    case CAUSE_TIMEOUT: return "timeout";
    case CAUSE_ILLEGAL: return "illegal";
    case CAUSE_CRASH: return "crash";
    case CAUSE_PROTOCOL: return "protocol";
    case CAUSE_NONE: break;
    }
    return "";
}

fault_verdict fault_judge(fault_policy policy, int max_strikes, int *strikes, fault_cause cause,
                          bool at_startup)
{
    if (cause == CAUSE_CRASH || cause == CAUSE_PROTOCOL || at_startup) return VERDICT_FORFEIT;
    if (policy == FAULT_FORFEIT) return VERDICT_FORFEIT;
    (*strikes)++;
    return *strikes >= max_strikes ? VERDICT_FORFEIT : VERDICT_FALLBACK;
}

int fault_strikes_left(fault_policy policy, int max_strikes, int strikes)
{
    if (policy == FAULT_FORFEIT) return 0;
    int left = max_strikes - strikes;
    return left > 0 ? left : 0;
}
