/* A tcp: agent's host name, looked up off the event loop.
 *
 * getaddrinfo blocks for as long as the name servers take to answer (an
 * entrant's slow server: seconds), and on the one loop that serves every
 * match that stalled every game in flight. A lookup runs in a thread of its
 * own, with the system's resolver as it is (nsswitch, /etc/hosts,
 * resolv.conf), and its end wakes the loop through a pipe. A lookup nobody
 * waits for any more (the agent's startup clock ran out) is abandoned: its
 * thread ends on its own time and frees what it found. */
#ifndef ARENA_RESOLVE_H
#define ARENA_RESOLVE_H

#include <stddef.h>
#include <stdint.h>

struct addrinfo;
struct event_base;

typedef struct resolve_req resolve_req;

/* res (the caller's to freeaddrinfo) or, when res is NULL, err: a
 * getaddrinfo error code (gai_strerror). */
typedef void (*resolve_done_fn)(struct addrinfo *res, int err, void *arg);

/* 0 with *res when host is a numeric address (no lookup is needed), else
 * nonzero. */
int resolve_numeric(const char *host, const char *port, struct addrinfo **res);
/* Looks up host and port (stream sockets, any family) in a thread: done
 * runs on base's loop once the lookup ends, unless it is abandoned first.
 * NULL (errno set) when no thread could be started. */
resolve_req *resolve_start(struct event_base *base, const char *host, const char *port,
                           resolve_done_fn done, void *arg);
/* Abandons a lookup under way: done is never called. */
void resolve_abandon(resolve_req *r);

/* Where to listen: "HOST:PORT" or "[IPv6]:PORT", as tcp: agents name
 * addresses, looked up for a passive stream socket. For start-up, before
 * any match runs (it blocks). 0 with *res (the caller's to freeaddrinfo),
 * or -1 with the reason in err. */
int resolve_listen(const char *hostport, struct addrinfo **res, char *err, size_t errlen);

/* The same, waited for up to timeout_ms, where no other match runs on the
 * loop. 0 with *res set, a getaddrinfo error code, or EAI_AGAIN with
 * *timed_out set when the time ran out. */
int resolve_wait(const char *host, const char *port, int64_t timeout_ms, struct addrinfo **res,
                 int *timed_out);

#endif
