/* An entrant's private pages on `arena web` (docs/web.md): what only its
 * author may see, behind a token sent as `Authorization: Bearer TOKEN`:
 * its stderr and `log` lines, its faults' details, its seat's view at
 * every decision, a seat-filtered log and the command that replays it.
 * Tokens come from a ladder's store (`ladder add --token-file`, kept as
 * salted hashes) and from `arena web --tokens FILE` ("TOKEN NAME" lines,
 * hashed when read). */
#ifndef ARENA_WEB_AUTHOR_H
#define ARENA_WEB_AUTHOR_H

#include <stdbool.h>
#include <stddef.h>

#include "store.h"
#include "web_data.h"

struct evhttp_request;
typedef struct author author;

/* tokens_file: NULL, or the "TOKEN NAME" file. NULL with err when the
 * file cannot be read or holds a bad line (a weak or repeated token, a
 * repeated name). */
author *author_new(store *db, const char *tokens_file, char *err, size_t errlen);
void author_free(author *a);
/* Answers a request whose path starts with /author/ or /api/author/. */
void author_route(author *a, struct evhttp_request *req, const char *path, const web_snap *w);

#endif
