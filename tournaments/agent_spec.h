/* Checks an agent spec before a tournament writes anything: a spec that
 * cannot name an agent is a usage error up front, not a half-made results
 * file. (Whether a program works shows only when it plays.) */
#ifndef ARENA_AGENT_SPEC_H
#define ARENA_AGENT_SPEC_H

#include <stddef.h>

/* builtin:NAME[:ARG] (a bot of this game, its ARG accepted), cmd:LINE (not
 * blank), tcp:HOST:PORT (a host and a port 1..65535), else an executable
 * file. Returns 0, or -1 with the reason in err. */
int agent_spec_check(const char *game, const char *spec, char *err, size_t errlen);

#endif
