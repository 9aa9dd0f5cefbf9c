/* store_snapshot: reads in a snapshot see one moment of the store while
 * another connection commits results (the web's standings, games and
 * counts agree). SQLite on a temporary file; PostgreSQL too when
 * ARENA_TEST_PG_URL names a tournament on a server (tests/pg/with_pg.py). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "schedule.h"
#include "store.h"
#include "store_fixture.h"

#define GAMES 10

static size_t done_games(store *db)
{
    tgame *g;
    size_t n, done = 0;
    assert_int_equal(store_games(db, false, &g, &n), 0);
    for (size_t i = 0; i < n; i++)
        done += g[i].done;
    free(g);
    return done;
}

static int64_t done_count(store *db)
{
    int64_t total, done;
    assert_int_equal(store_counts(db, &total, &done), 0);
    return done;
}

static void snapshot_holds(const char *where)
{
    store *w = new_store(where, GAMES);
    char err[300];
    store *r = store_open(where, false, err, sizeof err);
    if (!r) fail_msg("%s", err);
    put(w, 1);
    assert_int_equal(store_flush(w), 0);
    assert_int_equal(store_snapshot(r, true), 0);
    assert_int_equal(done_count(r), 1);
    put(w, 2);
    put(w, 3);
    assert_int_equal(store_flush(w), 0);
    /* Committed, yet not in the snapshot: counts and games agree. */
    assert_int_equal(done_games(r), 1);
    assert_int_equal(done_count(r), 1);
    assert_int_equal(store_snapshot(r, false), 0);
    assert_int_equal(done_count(r), 3);
    assert_int_equal(done_games(r), 3);
    /* Outside a snapshot each read sees the latest commit (the old way). */
    put(w, 4);
    assert_int_equal(store_flush(w), 0);
    assert_int_equal(done_count(r), 4);
    store_close(r);
    store_close(w);
}

static void test_snapshot_sqlite(void **st)
{
    (void)st;
    char path[] = "/tmp/arena-snapshot-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    snapshot_holds(path);
    char side[64];
    unlink(path);
    snprintf(side, sizeof side, "%s-wal", path);
    unlink(side);
    snprintf(side, sizeof side, "%s-shm", path);
    unlink(side);
}

static void test_snapshot_postgresql(void **st)
{
    (void)st;
    const char *url = getenv("ARENA_TEST_PG_URL");
    if (!url) fail_msg("ARENA_TEST_PG_URL is not set (tests/pg/with_pg.py sets it)");
    snapshot_holds(url);
}

int main(void)
{
    const struct CMUnitTest sqlite[] = {cmocka_unit_test(test_snapshot_sqlite)};
    const struct CMUnitTest pg[] = {cmocka_unit_test(test_snapshot_postgresql)};
    return getenv("ARENA_TEST_PG_URL") ? cmocka_run_group_tests(pg, NULL, NULL)
                                       : cmocka_run_group_tests(sqlite, NULL, NULL);
}
