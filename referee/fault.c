#include "fault.h"

#include <signal.h>
#include <stdio.h>
#include <sys/wait.h>

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

/* The signals a bot dies of, by name: what a reader searches for. */
static const char *signal_name(int sig)
{
    switch (sig) {
    case SIGHUP: return "SIGHUP";
    case SIGINT: return "SIGINT";
    case SIGQUIT: return "SIGQUIT";
    case SIGILL: return "SIGILL";
    case SIGTRAP: return "SIGTRAP";
    case SIGABRT: return "SIGABRT";
    case SIGBUS: return "SIGBUS";
    case SIGFPE: return "SIGFPE";
    case SIGKILL: return "SIGKILL";
    case SIGUSR1: return "SIGUSR1";
    case SIGSEGV: return "SIGSEGV";
    case SIGUSR2: return "SIGUSR2";
    case SIGPIPE: return "SIGPIPE";
    case SIGALRM: return "SIGALRM";
    case SIGTERM: return "SIGTERM";
    case SIGXCPU: return "SIGXCPU";
    case SIGXFSZ: return "SIGXFSZ";
    case SIGSYS: return "SIGSYS";
    default: return NULL;
    }
}

void fault_describe_exit(int wait_status, bool sandboxed, char *buf, size_t size)
{
    if (WIFSIGNALED(wait_status)) {
        int sig = WTERMSIG(wait_status);
        const char *name = signal_name(sig);
        if (name)
            snprintf(buf, size, "was killed by signal %d (%s)", sig, name);
        else
            snprintf(buf, size, "was killed by signal %d", sig);
    } else if (WIFEXITED(wait_status)) {
        int st = WEXITSTATUS(wait_status);
        /* bwrap passes its bot's death by signal S on as status 128 + S */
        const char *name = sandboxed && st > 128 ? signal_name(st - 128) : NULL;
        if (name)
            snprintf(buf, size, "exited with status %d (in the sandbox: most likely signal %d, %s)",
                     st, st - 128, name);
        else
            snprintf(buf, size, "exited with status %d", st);
    } else {
        snprintf(buf, size, "ended (wait status %#x)", (unsigned)wait_status);
    }
}
