/* `arena web DB|URL --listen ADDR`: a live web front over a results store
 * (docs/web.md). It sits above referee/ and tournaments/, beside the
 * command: nothing below includes it. */
#ifndef ARENA_WEB_H
#define ARENA_WEB_H

#include <stddef.h>

#include "store.h"

typedef struct web_opts {
    const char *listen;      /* HOST:PORT (port 0: any free port) */
    int max_spectators;      /* open /events streams at most */
    size_t spectator_buffer; /* bytes queued for one stream before it is dropped */
    int poll_ms;             /* how often the store is looked at */
    const char *tokens;      /* "TOKEN NAME" lines for the private pages, or NULL */
} web_opts;

/* Serves s until SIGINT or SIGTERM; the exit code. */
int web_serve(store *s, const web_opts *o);

int cmd_web(int argc, char **argv);

#endif
