/* The games in progress of a run serving the web front (--http): their
 * list at /live (/api/live) and each one's board at /live/ID, advanced
 * from the match's watch (match.h) over Server-Sent Events
 * (/live/ID/events). Only what every seat sees goes out: the game's
 * public_view and the events no seat was left out of (EVENTS_SPECTATOR);
 * never a seat's view, options or labels, a seed or stderr. A board is
 * built only while someone watches it. docs/web.md has the shapes. */
#ifndef ARENA_WEB_LIVE_H
#define ARENA_WEB_LIVE_H

#include <stdbool.h>
#include <stddef.h>

#include "live_hooks.h"

struct evhttp_request;
struct evkeyvalq;
typedef struct live live;

/* The table cli/main.c installs (live_hooks_install). */
const live_hooks *web_live_hooks(void);

/* Answers the /live pages and their API; false for another path. L NULL
 * (`arena web`): the list is empty. */
bool live_route(live *L, struct evhttp_request *req, const char *path, struct evkeyvalq *q);
/* The keepalive comment to every board stream. */
void live_keepalive(live *L, const char *ka, size_t len);

#endif
