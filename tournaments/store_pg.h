/* The PostgreSQL side of the store that only the distributed commands use
 * (`arena worker`, the coordinator in `arena tournament --db URL`): games
 * handed out under leases, heartbeats, progress across workers. */
#ifndef ARENA_STORE_PG_H
#define ARENA_STORE_PG_H

#include "store.h"

/* Connects without choosing a tournament (a worker serves them all). */
store *store_pg_connect(const char *url, char *err, size_t errlen);
bool store_is_pg(const store *s);
/* The name of the tournament chosen. */
const char *store_pg_name(const store *s);
/* Who posts results and holds leases: the worker's name (shown in progress
 * and reports), this host's name, and the lease length in seconds. */
void store_pg_identity(store *s, const char *worker, double lease_s);
/* That name ("coordinator" until store_pg_identity). */
const char *store_pg_worker(const store *s);
/* Chooses the oldest tournament with a game nobody holds, other than those
 * named in `skip` (names joined by newlines; "" for none): 1 (its name in
 * name), 0 none, -1 error. */
int store_pg_pick(store *s, const char *skip, char *name, size_t len);
/* Claims the next game nobody holds (pending, lease absent or expired):
 * 1 with *g filled, 0 none, -1 error. */
int store_pg_claim(store *s, sched_game *g);
/* Renews the lease of every game this process holds. */
int store_pg_heartbeat(store *s);
/* Games of the tournament neither done nor withdrawn (-1 on error). */
int64_t store_pg_unfinished(store *s);
/* Of the games neither done nor withdrawn: those nobody holds (no lease,
 * or an expired one) and those held under a live lease. -1 on error. */
int store_pg_waiting(store *s, int64_t *waiting, int64_t *held);
/* Finished games posted after *cursor (0: all), in the order they were
 * posted; advances *cursor. */
int store_pg_results_since(store *s, int64_t *cursor, tgame **games, size_t *n);
/* The largest game id and group scheduled. */
int store_pg_last_game(store *s, int64_t *id, int64_t *group);
/* Withdraws every game not finished (an SPRT that decided): no worker
 * claims them any more; results of games in flight are still stored. */
int store_pg_withdraw(store *s);
/* Withdraws the games of every group none of whose games was handed out
 * or finished (a tournament stopped early): the groups already started
 * stay claimable and are completed, so no seat-rotation group is cut. */
int store_pg_withdraw_unstarted(store *s);
/* Whether this coordinator lost its lock (another took it while the
 * database was away). */
bool store_pg_lock_lost(const store *s);
/* Whether the connection is up now (no reconnect is tried). */
bool store_pg_reachable(const store *s);

#endif
