/* SQLite store. Results are committed in groups (STORE_GROUP_RESULTS, or
 * STORE_GROUP_MS after the first), in WAL mode: a kill at any instant loses
 * at most the games in flight and the uncommitted group, all of which are
 * still pending and played again on --resume. */
#include "store_impl.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>

typedef struct sq_store {
    store base; /* first: a sq_store * is a store * */
    sqlite3 *db;
    sqlite3_stmt *put;
    char *path;
    int lock_fd;              /* holds the flock of store_lock; -1 when none */
    int pending;              /* results in the open transaction */
    struct timespec first_at; /* when the first of them was written */
    store_enc enc;            /* the last result's columns (buffers reused) */
    char at[32];              /* finished_at: "YYYY-MM-DDTHH:MM:SS" of at_sec, then ms */
    time_t at_sec;
    bool snap; /* in store_snapshot's read transaction */
} sq_store;

static const store_vt sq_vt;
static void sq_close(store *b);
static int sq_lock(store *b, char *err, size_t errlen);
static char *sq_meta(store *b, const char *key);
static int sq_set_meta(store *b, const char *key, const char *value);
static int sq_counts(store *b, int64_t *total, int64_t *done);

static const char schema[] =
    "CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);"
    "CREATE TABLE IF NOT EXISTS agents(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE,"
    " spec TEXT NOT NULL);"
    "CREATE TABLE IF NOT EXISTS games(id INTEGER PRIMARY KEY, grp INTEGER NOT NULL,"
    " seed INTEGER NOT NULL, players INTEGER NOT NULL, seats TEXT NOT NULL,"
    " done INTEGER NOT NULL DEFAULT 0, ranks TEXT, scores TEXT, reason TEXT, forfeits TEXT,"
    " turns INTEGER, time_ms TEXT, wall_ms REAL, log TEXT, finished_at TEXT);";

/* Columns added since the first schema: an older file gains them (empty)
 * when opened, so it stays readable and resumable. */
static const char *const added_columns[][2] = {
    {"decisions", "TEXT"},  {"move_max_ms", "TEXT"},    {"move_hist", "TEXT"},
    {"fault_msgs", "TEXT"}, {"timeout_clocks", "TEXT"},
};

/* 1 the games table has the column, 0 not, -1 error. */
static int has_column(sqlite3 *db, const char *name)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db, "SELECT 1 FROM pragma_table_info('games') WHERE name = ?", -1, &st,
                           NULL) != SQLITE_OK)
        return -1;
    sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
    int have = sqlite3_step(st) == SQLITE_ROW;
    sqlite3_finalize(st);
    return have;
}

/* Looked for, then added under the write lock and looked for again: two
 * processes opening one old file at once (a run and `ladder status`) would
 * otherwise both add a column, and the second fail "duplicate column". */
static int add_columns(sqlite3 *db)
{
    size_t n = sizeof added_columns / sizeof *added_columns, i = 0;
    while (i < n && has_column(db, added_columns[i][0]) == 1)
        i++;
    if (i == n) return 0;
    if (sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK) return -1;
    for (; i < n; i++) {
        int have = has_column(db, added_columns[i][0]);
        char sql[160];
        snprintf(sql, sizeof sql, "ALTER TABLE games ADD COLUMN %s %s", added_columns[i][0],
                 added_columns[i][1]);
        if (have < 0 || (!have && sqlite3_exec(db, sql, NULL, NULL, NULL) != SQLITE_OK)) {
            sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
            return -1;
        }
    }
    return sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) == SQLITE_OK ? 0 : -1;
}

static int fail(sq_store *s, const char *what)
{
    snprintf(s->base.err, sizeof s->base.err, "%s: %s", what, sqlite3_errmsg(s->db));
    return -1;
}

store *store_sqlite_open(const char *path, bool create, char *err, size_t errlen)
{
    if (!path[0]) {
        /* SQLite would take "" for a private temporary database: every
         * result would be lost at exit. */
        snprintf(err, errlen, "the results file name is empty");
        return NULL;
    }
    sqlite3 *db = NULL;
    /* NOMUTEX: one thread uses a connection (the tournament's loop), and
     * SQLite's own locking of it cost ~1 K instructions a result. */
    int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX | (create ? SQLITE_OPEN_CREATE : 0);
    if (sqlite3_open_v2(path, &db, flags, NULL) != SQLITE_OK) {
        snprintf(err, errlen, "cannot open %s: %s", path, db ? sqlite3_errmsg(db) : "no memory");
        sqlite3_close(db);
        return NULL;
    }
    sqlite3_busy_timeout(db, 5000);
    /* WAL with synchronous=NORMAL survives a killed process (not a power cut
     * during the last commit) at a fraction of the fsync cost. */
    char *msg = NULL;
    if (sqlite3_exec(db, "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;", NULL, NULL, &msg) !=
            SQLITE_OK ||
        sqlite3_exec(db, schema, NULL, NULL, &msg) != SQLITE_OK || add_columns(db) != 0) {
        snprintf(err, errlen, "%s: %s", path, msg ? msg : sqlite3_errmsg(db));
        sqlite3_free(msg);
        sqlite3_close(db);
        return NULL;
    }
    sq_store *s = xcalloc(1, sizeof *s);
    s->base.vt = &sq_vt;
    s->db = db;
    s->path = xstrdup(path);
    s->lock_fd = -1;
    if (create) {
        /* A new run claims the file first: a DB another run is filling
         * reads as "in use", not as "already holds a tournament". */
        if (sq_lock(&s->base, err, errlen) != 0) {
            sq_close(&s->base);
            return NULL;
        }
        int64_t total = 0, done = 0;
        sq_counts(&s->base, &total, &done);
        char *kind = sq_meta(&s->base, "kind");
        if (kind || total > 0) {
            snprintf(err, errlen, "%s already holds a %s; continue it with --resume %s", path,
                     kind ? kind : "tournament", path);
            free(kind);
            sq_close(&s->base);
            return NULL;
        }
    } else {
        char *kind = sq_meta(&s->base, "kind");
        if (!kind) {
            snprintf(err, errlen, "%s holds no tournament", path);
            sq_close(&s->base);
            return NULL;
        }
        free(kind);
    }
    return &s->base;
}

static int sq_lock(store *b, char *err, size_t errlen)
{
    sq_store *s = (sq_store *)b;
    if (s->lock_fd >= 0) return 0;
    /* flock, not SQLite's own locks: those last one transaction, this one
     * the whole run, and the kernel drops it when the process dies (kill -9
     * included), so nothing stale is left behind. It is taken on a separate
     * descriptor that is closed only after SQLite's (see store_close). */
    int fd = open(s->path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        snprintf(err, errlen, "%s: %s", s->path, strerror(errno));
        return -1;
    }
    if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
        int e = errno;
        close(fd);
        if (e == EWOULDBLOCK)
            snprintf(err, errlen,
                     "%s is in use by another arena tournament or sprt run; wait for it to "
                     "finish or stop it first",
                     s->path);
        else
            snprintf(err, errlen, "cannot lock %s: %s", s->path, strerror(e));
        return -1;
    }
    s->lock_fd = fd;
    return 0;
}

static int sq_flush(store *b, bool only_if_due)
{
    sq_store *s = (sq_store *)b;
    if (s->pending == 0) return 0;
    if (only_if_due) {
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        double ms = (double)(now.tv_sec - s->first_at.tv_sec) * 1e3 +
                    (double)(now.tv_nsec - s->first_at.tv_nsec) / 1e6;
        if (ms < STORE_GROUP_MS) return 0;
    }
    s->pending = 0;
    if (sqlite3_exec(s->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
        fail(s, "commit results");
        sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
        return -1;
    }
    return 0;
}

/* In WAL mode a read transaction reads one snapshot from its first
 * read; writers go on (and a checkpoint stops short of it meanwhile). */
static int sq_snapshot(store *b, bool begin)
{
    sq_store *s = (sq_store *)b;
    if (begin) {
        if (s->snap) return 0;
        if (sq_flush(b, false) != 0) return -1;
        if (sqlite3_exec(s->db, "BEGIN", NULL, NULL, NULL) != SQLITE_OK)
            return fail(s, "begin a snapshot");
        s->snap = true;
        return 0;
    }
    if (!s->snap) return 0;
    s->snap = false;
    if (sqlite3_exec(s->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
        sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
        return fail(s, "end a snapshot");
    }
    return 0;
}

static void sq_close(store *b)
{
    sq_store *s = (sq_store *)b;
    sq_flush(b, false);
    if (!s) return;
    sqlite3_finalize(s->put);
    store_enc_free(&s->enc);
    sqlite3_close(s->db);
    if (s->lock_fd >= 0) close(s->lock_fd);
    free(s->path);
    free(s);
}

static int insert_games(sq_store *s, const sched_game *g, size_t n)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(s->db,
                           "INSERT INTO games(id, grp, seed, players, seats) VALUES(?,?,?,?,?)", -1,
                           &st, NULL) != SQLITE_OK)
        return fail(s, "prepare");
    for (size_t i = 0; i < n; i++) {
        abuf seats = {0};
        store_enc_seats(&g[i], &seats);
        sqlite3_bind_int64(st, 1, g[i].id);
        sqlite3_bind_int64(st, 2, g[i].group);
        sqlite3_bind_int64(st, 3, (int64_t)g[i].seed); /* bit pattern kept */
        sqlite3_bind_int(st, 4, g[i].players);
        sqlite3_bind_text(st, 5, (const char *)seats.data, -1, SQLITE_TRANSIENT);
        int rc = sqlite3_step(st);
        abuf_free(&seats);
        sqlite3_reset(st);
        if (rc != SQLITE_DONE) {
            sqlite3_finalize(st);
            return fail(s, "insert game");
        }
    }
    sqlite3_finalize(st);
    return 0;
}

static int sq_set_meta(store *b, const char *key, const char *value)
{
    sq_store *s = (sq_store *)b;
    if (sq_flush(b, false) != 0) return -1;
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(s->db, "INSERT OR REPLACE INTO meta(key, value) VALUES(?,?)", -1, &st,
                           NULL) != SQLITE_OK)
        return fail(s, "prepare");
    sqlite3_bind_text(st, 1, key, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 2, value, -1, SQLITE_TRANSIENT);
    int rc = sqlite3_step(st);
    sqlite3_finalize(st);
    return rc == SQLITE_DONE ? 0 : fail(s, "meta");
}

static int sq_init(store *b, const char *const *meta, char *const *names, char *const *specs,
                   int n_agents, const schedule *sch, char *err, size_t errlen)
{
    sq_store *s = (sq_store *)b;
    int rc = -1;
    if (sqlite3_exec(s->db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK) {
        fail(s, "begin");
        goto out;
    }
    for (size_t i = 0; meta[i]; i += 2)
        if (sq_set_meta(&s->base, meta[i], meta[i + 1]) != 0) goto rollback;
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(s->db, "INSERT INTO agents(id, name, spec) VALUES(?,?,?)", -1, &st,
                           NULL) != SQLITE_OK) {
        fail(s, "prepare");
        goto rollback;
    }
    for (int i = 0; i < n_agents; i++) {
        sqlite3_bind_int(st, 1, i);
        sqlite3_bind_text(st, 2, names[i], -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(st, 3, specs[i], -1, SQLITE_TRANSIENT);
        int r = sqlite3_step(st);
        sqlite3_reset(st);
        if (r != SQLITE_DONE) {
            sqlite3_finalize(st);
            fail(s, "insert agent");
            goto rollback;
        }
    }
    sqlite3_finalize(st);
    if (insert_games(s, sch->games, sch->n) != 0) goto rollback;
    if (sqlite3_exec(s->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
        fail(s, "commit");
        goto rollback;
    }
    rc = 0;
    goto out;
rollback:
    sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
out:
    if (rc != 0) snprintf(err, errlen, "%s", s->base.err);
    return rc;
}

static int sq_append(store *b, const sched_game *g, size_t n)
{
    sq_store *s = (sq_store *)b;
    if (sq_flush(b, false) != 0) return -1;
    if (sqlite3_exec(s->db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK)
        return fail(s, "begin");
    if (insert_games(s, g, n) != 0 ||
        sqlite3_exec(s->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
        if (!s->base.err[0]) fail(s, "commit");
        sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
        return -1;
    }
    return 0;
}

static int sq_add_agent(store *b, const char *name, const char *spec, const char *const *meta,
                        int *id)
{
    sq_store *s = (sq_store *)b;
    if (sq_flush(b, false) != 0) return -1;
    if (sqlite3_exec(s->db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK)
        return fail(s, "begin");
    sqlite3_stmt *st = NULL;
    int rc = -1;
    if (sqlite3_prepare_v2(s->db,
                           "INSERT INTO agents(id, name, spec) SELECT coalesce(max(id) + 1, 0), ?, "
                           "? FROM agents RETURNING id",
                           -1, &st, NULL) != SQLITE_OK) {
        fail(s, "prepare");
        goto out;
    }
    sqlite3_bind_text(st, 1, name, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 2, spec, -1, SQLITE_TRANSIENT);
    if (sqlite3_step(st) != SQLITE_ROW) {
        fail(s, "insert agent");
        goto out;
    }
    *id = sqlite3_column_int(st, 0);
    sqlite3_finalize(st);
    st = NULL;
    for (size_t i = 0; meta && meta[i]; i += 2)
        if (sq_set_meta(b, meta[i], meta[i + 1]) != 0) goto out;
    if (sqlite3_exec(s->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
        fail(s, "commit");
        goto out;
    }
    rc = 0;
out:
    if (st) sqlite3_finalize(st);
    if (rc != 0) sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
    return rc;
}

static char *sq_meta(store *b, const char *key)
{
    sq_store *s = (sq_store *)b;
    sqlite3_stmt *st;
    char *v = NULL;
    if (sqlite3_prepare_v2(s->db, "SELECT value FROM meta WHERE key = ?", -1, &st, NULL) !=
        SQLITE_OK)
        return NULL;
    sqlite3_bind_text(st, 1, key, -1, SQLITE_TRANSIENT);
    if (sqlite3_step(st) == SQLITE_ROW) v = xstrdup((const char *)sqlite3_column_text(st, 0));
    sqlite3_finalize(st);
    return v;
}

static int sq_agents(store *b, char ***names, char ***specs, int *n)
{
    sq_store *s = (sq_store *)b;
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(s->db, "SELECT id, name, spec FROM agents ORDER BY id", -1, &st, NULL) !=
        SQLITE_OK)
        return fail(s, "prepare");
    int cap = 8, k = 0;
    *names = xcalloc((size_t)cap, sizeof(char *));
    *specs = xcalloc((size_t)cap, sizeof(char *));
    while (sqlite3_step(st) == SQLITE_ROW) {
        const char *name = (const char *)sqlite3_column_text(st, 1),
                   *spec = (const char *)sqlite3_column_text(st, 2);
        if (store_agent_row_bad(sqlite3_column_int64(st, 0), k, name, spec, s->base.err,
                                sizeof s->base.err)) {
            sqlite3_finalize(st);
            store_agents_free(*names, *specs, k);
            *names = *specs = NULL;
            *n = 0;
            return -1;
        }
        if (k == cap) {
            cap *= 2;
            *names = xrealloc(*names, sizeof(char *) * (size_t)cap);
            *specs = xrealloc(*specs, sizeof(char *) * (size_t)cap);
        }
        (*names)[k] = xstrdup(name);
        (*specs)[k] = xstrdup(spec);
        k++;
    }
    sqlite3_finalize(st);
    *n = k;
    return 0;
}

static int count_agents(sq_store *s)
{
    sqlite3_stmt *st;
    int n = -1;
    if (sqlite3_prepare_v2(s->db, "SELECT count(*) FROM agents", -1, &st, NULL) != SQLITE_OK)
        return -1;
    if (sqlite3_step(st) == SQLITE_ROW) n = sqlite3_column_int(st, 0);
    sqlite3_finalize(st);
    return n;
}

static int sq_games(store *b, bool pending_only, tgame **games, size_t *n)
{
    sq_store *s = (sq_store *)b;
    int n_agents = count_agents(s);
    if (n_agents < 0) return fail(s, "count agents");
    sqlite3_stmt *st;
    const char *sql = pending_only
                          ? "SELECT id, grp, seed, players, seats, done, ranks, scores, reason,"
                            " forfeits, turns, time_ms, wall_ms FROM games WHERE done = 0"
                            " ORDER BY id"
                          : "SELECT id, grp, seed, players, seats, done, ranks, scores, reason,"
                            " forfeits, turns, time_ms, wall_ms FROM games ORDER BY id";
    if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK) return fail(s, "prepare");
    size_t cap = 256, k = 0;
    tgame *v = xcalloc(cap, sizeof *v);
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (k == cap) {
            cap *= 2;
            v = xrealloc(v, cap * sizeof *v);
        }
        store_row r = {
            .id = sqlite3_column_int64(st, 0),
            .grp = sqlite3_column_int64(st, 1),
            .seed = sqlite3_column_int64(st, 2),
            .players = sqlite3_column_int(st, 3),
            .seats = (const char *)sqlite3_column_text(st, 4),
            .done = sqlite3_column_int(st, 5) != 0,
            .ranks = (const char *)sqlite3_column_text(st, 6),
            .scores = (const char *)sqlite3_column_text(st, 7),
            .reason = (const char *)sqlite3_column_text(st, 8),
            .forfeits = (const char *)sqlite3_column_text(st, 9),
            .turns = sqlite3_column_int(st, 10),
            .time_ms = (const char *)sqlite3_column_text(st, 11),
            .wall_ms = sqlite3_column_double(st, 12),
        };
        if (store_row_decode(&r, n_agents, &v[k++], s->base.err, sizeof s->base.err) != 0) {
            sqlite3_finalize(st);
            free(v);
            return -1;
        }
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) {
        free(v);
        return fail(s, "read games");
    }
    *games = v;
    *n = k;
    return 0;
}

/* Now as SQLite's strftime('%Y-%m-%dT%H:%M:%fZ','now') writes it (UTC,
 * milliseconds truncated, as SQLite reads the clock), formatted here: in
 * SQL it cost as much as the rest of a result's encoding. The text up to
 * the seconds changes once a second and is kept. */
static const char *finished_at(sq_store *s)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    if (ts.tv_sec != s->at_sec || !s->at[0]) {
        struct tm tm;
        if (!gmtime_r(&ts.tv_sec, &tm) ||
            strftime(s->at, sizeof s->at, "%Y-%m-%dT%H:%M:%S", &tm) != 19) {
            /* No year of four digits: SQLite's own strftime writes it. */
            s->at[0] = '\0';
            return NULL;
        }
        s->at_sec = ts.tv_sec;
    }
    int ms = (int)(ts.tv_nsec / 1000000);
    s->at[19] = '.';
    s->at[20] = (char)('0' + ms / 100);
    s->at[21] = (char)('0' + ms / 10 % 10);
    s->at[22] = (char)('0' + ms % 10);
    s->at[23] = 'Z';
    s->at[24] = '\0';
    return s->at;
}

static int sq_result(store *b, const tgame *g, const char *log_path)
{
    sq_store *s = (sq_store *)b;
    if (!s->put &&
        sqlite3_prepare_v2(s->db,
                           "UPDATE games SET done = 1, ranks = ?, scores = ?, reason = ?,"
                           " forfeits = ?, turns = ?, time_ms = ?, wall_ms = ?, log = ?,"
                           " finished_at = coalesce(?14, strftime('%Y-%m-%dT%H:%M:%fZ','now')),"
                           " decisions = ?10, move_max_ms = ?11, move_hist = ?12,"
                           " fault_msgs = ?13, timeout_clocks = ?15 WHERE id = ?9 AND done = 0",
                           -1, &s->put, NULL) != SQLITE_OK)
        return fail(s, "prepare");
    /* The group's transaction opens with its first result. */
    if (s->pending == 0) {
        if (sqlite3_exec(s->db, "BEGIN", NULL, NULL, NULL) != SQLITE_OK) return fail(s, "begin");
        clock_gettime(CLOCK_MONOTONIC, &s->first_at);
    }
    s->pending++;
    store_enc *e = &s->enc;
    store_enc_result(g, e);
    /* Every parameter is bound for every result, so none is left over from
     * the last one, and all as SQLITE_STATIC: the texts (s->enc, g, the
     * log path) stay put until the step below, the only reader. The
     * pointers left behind afterwards are never read: the next result
     * binds anew before its step, and nothing else runs this statement. */
    sqlite3_stmt *st = s->put;
    sqlite3_bind_text(st, 1, (const char *)e->ranks.data, (int)e->ranks.len, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, (const char *)e->scores.data, (int)e->scores.len, SQLITE_STATIC);
    sqlite3_bind_text(st, 3, g->reason, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 4, (const char *)e->forfeits.data, (int)e->forfeits.len, SQLITE_STATIC);
    sqlite3_bind_int(st, 5, g->turns);
    sqlite3_bind_text(st, 6, (const char *)e->time_ms.data, (int)e->time_ms.len, SQLITE_STATIC);
    sqlite3_bind_double(st, 7, g->wall_ms);
    if (log_path)
        sqlite3_bind_text(st, 8, log_path, -1, SQLITE_STATIC);
    else
        sqlite3_bind_null(st, 8);
    sqlite3_bind_int64(st, 9, g->s.id);
    if (e->detail) {
        sqlite3_bind_text(st, 10, (const char *)e->dec.data, (int)e->dec.len, SQLITE_STATIC);
        sqlite3_bind_text(st, 11, (const char *)e->max.data, (int)e->max.len, SQLITE_STATIC);
        sqlite3_bind_text(st, 12, (const char *)e->hist.data, (int)e->hist.len, SQLITE_STATIC);
        sqlite3_bind_text(st, 13, e->msgs, (int)e->msgs_buf.len, SQLITE_STATIC);
        sqlite3_bind_text(st, 15, e->clocks, (int)e->clocks_buf.len, SQLITE_STATIC);
    } else {
        for (int i = 10; i <= 13; i++)
            sqlite3_bind_null(st, i);
        sqlite3_bind_null(st, 15);
    }
    const char *at = finished_at(s);
    if (at)
        sqlite3_bind_text(st, 14, at, 24, SQLITE_STATIC);
    else
        sqlite3_bind_null(st, 14);
    /* The result is all there or not at all (one UPDATE, in a group that
     * commits or not as a whole), and `done = 0` in the WHERE makes a
     * replay a no-op. */
    int rc = sqlite3_step(st);
    int changed = sqlite3_changes(s->db);
    sqlite3_reset(st);
    if (rc != SQLITE_DONE) return fail(s, "store result");
    if (s->pending >= STORE_GROUP_RESULTS && sq_flush(b, false) != 0) return -1;
    return changed > 0 ? 1 : 0;
}

static int sq_counts(store *b, int64_t *total, int64_t *done)
{
    sq_store *s = (sq_store *)b;
    sqlite3_stmt *st;
    *total = *done = 0;
    if (sqlite3_prepare_v2(s->db, "SELECT count(*), coalesce(sum(done), 0) FROM games", -1, &st,
                           NULL) != SQLITE_OK)
        return fail(s, "prepare");
    if (sqlite3_step(st) == SQLITE_ROW) {
        *total = sqlite3_column_int64(st, 0);
        *done = sqlite3_column_int64(st, 1);
    }
    sqlite3_finalize(st);
    return 0;
}

static int sq_moves_by_agent(store *b, int n_agents, store_moves *out)
{
    sq_store *s = (sq_store *)b;
    memset(out, 0, sizeof *out * (size_t)n_agents);
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(s->db,
                           "SELECT seats, decisions, time_ms, move_max_ms, move_hist FROM games"
                           " WHERE done = 1 AND decisions IS NOT NULL",
                           -1, &st, NULL) != SQLITE_OK)
        return fail(s, "prepare");
    while (sqlite3_step(st) == SQLITE_ROW)
        store_moves_add(
            out, n_agents, (const char *)sqlite3_column_text(st, 0),
            (const char *)sqlite3_column_text(st, 1), (const char *)sqlite3_column_text(st, 2),
            (const char *)sqlite3_column_text(st, 3), (const char *)sqlite3_column_text(st, 4));
    sqlite3_finalize(st);
    return 0;
}

static int sq_forfeits(store *b, store_forfeit **out, size_t *n)
{
    sq_store *s = (sq_store *)b;
    *out = NULL;
    *n = 0;
    int n_agents = count_agents(s);
    sqlite3_stmt *st;
    if (n_agents < 0 ||
        sqlite3_prepare_v2(s->db,
                           "SELECT id, seats, forfeits, fault_msgs, log, timeout_clocks FROM games"
                           " WHERE done = 1 AND reason = 'forfeit' ORDER BY id",
                           -1, &st, NULL) != SQLITE_OK)
        return fail(s, "prepare");
    size_t cap = 0;
    int rc = 0;
    while (rc == 0 && sqlite3_step(st) == SQLITE_ROW)
        rc = store_forfeits_add(
            out, n, &cap, n_agents, sqlite3_column_int64(st, 0),
            (const char *)sqlite3_column_text(st, 1), (const char *)sqlite3_column_text(st, 2),
            (const char *)sqlite3_column_text(st, 3), (const char *)sqlite3_column_text(st, 5),
            (const char *)sqlite3_column_text(st, 4), s->base.err, sizeof s->base.err);
    sqlite3_finalize(st);
    if (rc != 0) {
        store_forfeits_free(*out, *n);
        *out = NULL;
        *n = 0;
    }
    return rc;
}

static int sq_span(store *b, char *first, char *last, size_t len, double *seconds)
{
    sq_store *s = (sq_store *)b;
    sqlite3_stmt *st;
    first[0] = last[0] = '\0';
    *seconds = 0;
    if (sqlite3_prepare_v2(s->db,
                           "SELECT min(finished_at), max(finished_at),"
                           " (julianday(max(finished_at)) - julianday(min(finished_at))) * 86400"
                           " FROM games WHERE done = 1",
                           -1, &st, NULL) != SQLITE_OK)
        return fail(s, "prepare");
    if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_type(st, 0) != SQLITE_NULL) {
        snprintf(first, len, "%s", (const char *)sqlite3_column_text(st, 0));
        snprintf(last, len, "%s", (const char *)sqlite3_column_text(st, 1));
        *seconds = sqlite3_column_double(st, 2);
    }
    sqlite3_finalize(st);
    return 0;
}

static const store_vt sq_vt = {
    .close = sq_close,
    .lock = sq_lock,
    .init = sq_init,
    .meta = sq_meta,
    .set_meta = sq_set_meta,
    .agents = sq_agents,
    .games = sq_games,
    .append = sq_append,
    .add_agent = sq_add_agent,
    .result = sq_result,
    .moves_by_agent = sq_moves_by_agent,
    .forfeits = sq_forfeits,
    .span = sq_span,
    .counts = sq_counts,
    .flush = sq_flush,
    .snapshot = sq_snapshot,
};
