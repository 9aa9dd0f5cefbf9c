/* SQLite group commit: results become durable in groups of
 * STORE_GROUP_RESULTS or after STORE_GROUP_MS; a process killed in between
 * loses exactly its uncommitted group (those games stay pending, so
 * --resume plays them again), never a committed result. */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "schedule.h"
#include "store.h"
#include "store_fixture.h"

#define GAMES 200

static char path[64];

static void make_store(void)
{
    snprintf(path, sizeof path, "/tmp/arena-group-test-XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    store_close(new_store(path, GAMES));
}

static void remove_store(void)
{
    char side[128];
    unlink(path);
    snprintf(side, sizeof side, "%s-wal", path);
    unlink(side);
    snprintf(side, sizeof side, "%s-shm", path);
    unlink(side);
}

/* Results as another process sees them (only committed ones). */
static int64_t committed(void)
{
    char err[300];
    store *db = store_open(path, false, err, sizeof err);
    assert_non_null(db);
    int64_t total, done;
    assert_int_equal(store_counts(db, &total, &done), 0);
    store_close(db);
    return done;
}

static void test_groups_and_timer(void **st)
{
    (void)st;
    make_store();
    char err[300];
    store *db = store_open(path, false, err, sizeof err);
    assert_non_null(db);
    for (int i = 1; i < STORE_GROUP_RESULTS; i++)
        put(db, i);
    assert_int_equal(committed(), 0); /* one short of a group */
    put(db, STORE_GROUP_RESULTS);
    assert_int_equal(committed(), STORE_GROUP_RESULTS);
    put(db, STORE_GROUP_RESULTS + 1);
    assert_int_equal(store_tick(db), 0); /* too early */
    assert_int_equal(committed(), STORE_GROUP_RESULTS);
    struct timespec wait = {0, (STORE_GROUP_MS + 20) * 1000000L};
    nanosleep(&wait, NULL);
    assert_int_equal(store_tick(db), 0);
    assert_int_equal(committed(), STORE_GROUP_RESULTS + 1);
    /* A replay of a committed game changes nothing. */
    tgame g;
    memset(&g, 0, sizeof g);
    g.s.id = 1;
    g.s.players = 2;
    g.rank[0] = 2;
    g.rank[1] = 1;
    assert_int_equal(store_result(db, &g, NULL), 0);
    put(db, STORE_GROUP_RESULTS + 2);
    store_close(db); /* flushes */
    assert_int_equal(committed(), STORE_GROUP_RESULTS + 2);
    remove_store();
}

/* A writer killed mid-group: the committed groups are all there, the rest of
 * its games are still pending, nothing else. */
static void test_kill_loses_only_the_window(void **st)
{
    (void)st;
    make_store();
    const int written = 2 * STORE_GROUP_RESULTS + 10;
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        char err[300];
        store *db = store_open(path, false, err, sizeof err);
        if (!db) _exit(1);
        for (int i = 1; i <= written; i++)
            put(db, i);
        kill(getpid(), SIGKILL);
        _exit(2);
    }
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
    char err[300];
    store *db = store_open(path, false, err, sizeof err);
    assert_non_null(db);
    tgame *pend;
    size_t n;
    assert_int_equal(store_games(db, true, &pend, &n), 0);
    assert_int_equal((int)n, GAMES - 2 * STORE_GROUP_RESULTS);
    /* Exactly the uncommitted window and the games never played. */
    assert_int_equal(pend[0].s.id, 2 * STORE_GROUP_RESULTS + 1);
    for (size_t i = 1; i < n; i++)
        assert_int_equal(pend[i].s.id, pend[i - 1].s.id + 1);
    free(pend);
    store_close(db);
    remove_store();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_groups_and_timer),
        cmocka_unit_test(test_kill_loses_only_the_window),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
