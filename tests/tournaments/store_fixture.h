/* The tests' stores: a nim tournament of agents a and b, `games` games a
 * pairing, made at `where` (a file or a postgresql:// URL) and left open;
 * and a 2-seat game `id` finished in it, seat 0 first, by the rules.
 * Include after <cmocka.h>, "schedule.h" and "store.h". */
#ifndef ARENA_TEST_STORE_FIXTURE_H
#define ARENA_TEST_STORE_FIXTURE_H

#include <stdio.h>
#include <string.h>

static store *new_store(const char *where, int games)
{
    char err[300];
    store *db = store_open(where, true, err, sizeof err);
    if (!db) fail_msg("%s", err);
    schedule_params p = {.n_agents = 2, .players = 2, .per_pairing = games, .seed = 5};
    schedule s;
    assert_int_equal(schedule_build(&p, &s, err, sizeof err), 0);
    char *names[] = {"a", "b"}, *specs[] = {"builtin:random", "builtin:random"};
    const char *meta[] = {"kind", "tournament", "game", "nim", NULL};
    assert_int_equal(store_init(db, meta, names, specs, 2, &s, err, sizeof err), 0);
    schedule_free(&s);
    return db;
}

static void put(store *db, int64_t id)
{
    tgame g;
    memset(&g, 0, sizeof g);
    g.s.id = id;
    g.s.players = 2;
    g.s.seat[0] = 0;
    g.s.seat[1] = 1;
    g.done = true;
    g.rank[0] = 1;
    g.rank[1] = 2;
    snprintf(g.reason, sizeof g.reason, "normal");
    assert_int_equal(store_result(db, &g, NULL), 1);
}

#endif
