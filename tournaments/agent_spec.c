/* Agent spec checks for `arena tournament`. */
#include "agent_spec.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "policy.h"

static int check_builtin(const char *game, const char *name, char *err, size_t errlen)
{
    const char *arg = NULL;
    const arena_policy_vt *pv = arena_find_policy(game, name, &arg);
    if (!pv) {
        snprintf(err, errlen, "no built-in bot '%s' for %s (see `arena bots`)", name, game);
        return -1;
    }
    /* An ARG the bot refuses (bm-with:NoSuchCard) fails the same way. */
    char e[200] = "";
    void *p = pv->create(arg, 0, 1, e, sizeof e);
    if (!p) {
        snprintf(err, errlen, "built-in bot '%s': %s", name, e[0] ? e : "refused");
        return -1;
    }
    pv->free(p);
    return 0;
}

static int check_tcp(const char *addr, char *err, size_t errlen)
{
    const char *colon = strrchr(addr, ':');
    char *end = NULL;
    long port = colon ? strtol(colon + 1, &end, 10) : 0;
    if (!colon || colon == addr || end == colon + 1 || *end || port < 1 || port > 65535) {
        snprintf(err, errlen, "tcp:%s is not tcp:HOST:PORT with a port 1..65535", addr);
        return -1;
    }
    return 0;
}

int agent_spec_check(const char *game, const char *spec, char *err, size_t errlen)
{
    if (strncmp(spec, "builtin:", 8) == 0) return check_builtin(game, spec + 8, err, errlen);
    if (strncmp(spec, "tcp:", 4) == 0) return check_tcp(spec + 4, err, errlen);
    if (strncmp(spec, "cmd:", 4) == 0) {
        if (spec[4 + strspn(spec + 4, " \t")] == '\0') {
            snprintf(err, errlen, "cmd: needs a command line");
            return -1;
        }
        return 0;
    }
    struct stat st;
    if (stat(spec, &st) != 0) {
        snprintf(err, errlen, "cannot run '%s': %s", spec, strerror(errno));
        return -1;
    }
    if (!S_ISREG(st.st_mode) || access(spec, X_OK) != 0) {
        snprintf(err, errlen, "cannot run '%s': not an executable file", spec);
        return -1;
    }
    return 0;
}
