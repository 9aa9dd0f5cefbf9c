/* Failed tries per client network (`arena serve`'s joins, the author pages' tokens):
 * a bucket of NETLIMIT_BURST tries per network (a /24 of IPv4, a /64 of
 * IPv6: what one user or one site owns), refilled at one per
 * NETLIMIT_REFILL_MS, and one bucket of NETLIMIT_GLOBAL_BURST for all
 * networks together (a local user owns 65,536 /24s of 127.0.0.0/8). */
#ifndef ARENA_WEB_NETLIMIT_H
#define ARENA_WEB_NETLIMIT_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/socket.h>

#define NETLIMIT_BURST 5
#define NETLIMIT_REFILL_MS 2000.0
#define NETLIMIT_GLOBAL_BURST 20
#define NETLIMIT_GLOBAL_REFILL_MS 250.0
#define NETLIMIT_SOURCES 1024 /* networks remembered; the least recent gives way */

typedef struct netlimit netlimit;

netlimit *netlimit_new(void);
void netlimit_free(netlimit *l);
/* The network an address is in, as text ("a.b.c.0/24", "h:h:h:h::/64"). */
void netlimit_net(const struct sockaddr *addr, char *net, size_t len);
/* Whether net (and all networks together) may fail once more now; if not,
 * *net_spent (unless NULL) says whether net's own bucket is the empty one. */
bool netlimit_may_fail(netlimit *l, const char *net, bool *net_spent);
/* Counts a failed try of net. */
void netlimit_failed(netlimit *l, const char *net);

#endif
