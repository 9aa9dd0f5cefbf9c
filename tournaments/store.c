/* SQLite store. One transaction per finished game and WAL journaling make
 * a kill at any instant lose at most the games still in flight. */
#include "store.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "util.h"

struct store {
    sqlite3 *db;
    sqlite3_stmt *put;
    char *path;
    int lock_fd; /* holds the flock of store_lock; -1 when none */
    char err[256];
};

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
    {"decisions", "TEXT"}, {"move_max_ms", "TEXT"}, {"move_hist", "TEXT"}, {"fault_msgs", "TEXT"}};

static int add_columns(sqlite3 *db)
{
    for (size_t i = 0; i < sizeof added_columns / sizeof *added_columns; i++) {
        sqlite3_stmt *st;
        bool have = false;
        if (sqlite3_prepare_v2(db, "SELECT 1 FROM pragma_table_info('games') WHERE name = ?", -1,
                               &st, NULL) != SQLITE_OK)
            return -1;
        sqlite3_bind_text(st, 1, added_columns[i][0], -1, SQLITE_STATIC);
        have = sqlite3_step(st) == SQLITE_ROW;
        sqlite3_finalize(st);
        if (have) continue;
        char sql[160];
        snprintf(sql, sizeof sql, "ALTER TABLE games ADD COLUMN %s %s", added_columns[i][0],
                 added_columns[i][1]);
        if (sqlite3_exec(db, sql, NULL, NULL, NULL) != SQLITE_OK) return -1;
    }
    return 0;
}

const char *store_error(store *s)
{
    return s->err;
}

static int fail(store *s, const char *what)
{
    snprintf(s->err, sizeof s->err, "%s: %s", what, sqlite3_errmsg(s->db));
    return -1;
}

store *store_open(const char *path, bool create, char *err, size_t errlen)
{
    if (!path[0]) {
        /* SQLite would take "" for a private temporary database: every
         * result would be lost at exit. */
        snprintf(err, errlen, "the results file name is empty");
        return NULL;
    }
    sqlite3 *db = NULL;
    int flags = SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0);
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
    store *s = xcalloc(1, sizeof *s);
    s->db = db;
    s->path = xstrdup(path);
    s->lock_fd = -1;
    if (create) {
        /* A new run claims the file first: a DB another run is filling
         * reads as "in use", not as "already holds a tournament". */
        if (store_lock(s, err, errlen) != 0) {
            store_close(s);
            return NULL;
        }
        int64_t total = 0, done = 0;
        store_counts(s, &total, &done);
        char *kind = store_meta(s, "kind");
        if (kind || total > 0) {
            snprintf(err, errlen, "%s already holds a %s; continue it with --resume %s", path,
                     kind ? kind : "tournament", path);
            free(kind);
            store_close(s);
            return NULL;
        }
    } else {
        char *kind = store_meta(s, "kind");
        if (!kind) {
            snprintf(err, errlen, "%s holds no tournament", path);
            store_close(s);
            return NULL;
        }
        free(kind);
    }
    return s;
}

int store_lock(store *s, char *err, size_t errlen)
{
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

void store_close(store *s)
{
    if (!s) return;
    sqlite3_finalize(s->put);
    sqlite3_close(s->db);
    if (s->lock_fd >= 0) close(s->lock_fd);
    free(s->path);
    free(s);
}

static void list_int(abuf *b, const int *v, int n)
{
    for (int i = 0; i < n; i++)
        abuf_addf(b, "%s%d", i ? "," : "", v[i]);
    abuf_addc(b, '\0');
    b->len--;
}

static void list_i64(abuf *b, const int64_t *v, int n)
{
    for (int i = 0; i < n; i++)
        abuf_addf(b, "%s%lld", i ? "," : "", (long long)v[i]);
    abuf_addc(b, '\0');
    b->len--;
}

static int parse_list(const char *t, int64_t *out, int max)
{
    int n = 0;
    while (t && *t && n < max) {
        char *end;
        out[n++] = strtoll(t, &end, 10);
        t = *end == ',' ? end + 1 : end;
        if (*end != ',') break;
    }
    return n;
}

static int insert_games(store *s, const sched_game *g, size_t n)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(s->db,
                           "INSERT INTO games(id, grp, seed, players, seats) VALUES(?,?,?,?,?)", -1,
                           &st, NULL) != SQLITE_OK)
        return fail(s, "prepare");
    for (size_t i = 0; i < n; i++) {
        abuf seats = {0};
        list_int(&seats, g[i].seat, g[i].players);
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

int store_set_meta(store *s, const char *key, const char *value)
{
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

int store_init(store *s, const char *const *meta, char *const *names, char *const *specs,
               int n_agents, const schedule *sch, char *err, size_t errlen)
{
    int rc = -1;
    if (sqlite3_exec(s->db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK) {
        fail(s, "begin");
        goto out;
    }
    for (size_t i = 0; meta[i]; i += 2)
        if (store_set_meta(s, meta[i], meta[i + 1]) != 0) goto rollback;
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
    if (rc != 0) snprintf(err, errlen, "%s", s->err);
    return rc;
}

int store_append(store *s, const sched_game *g, size_t n)
{
    if (sqlite3_exec(s->db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK)
        return fail(s, "begin");
    if (insert_games(s, g, n) != 0 ||
        sqlite3_exec(s->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
        if (!s->err[0]) fail(s, "commit");
        sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
        return -1;
    }
    return 0;
}

char *store_meta(store *s, const char *key)
{
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

int store_agents(store *s, char ***names, char ***specs, int *n)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(s->db, "SELECT name, spec FROM agents ORDER BY id", -1, &st, NULL) !=
        SQLITE_OK)
        return fail(s, "prepare");
    int cap = 8, k = 0;
    *names = xcalloc((size_t)cap, sizeof(char *));
    *specs = xcalloc((size_t)cap, sizeof(char *));
    while (sqlite3_step(st) == SQLITE_ROW) {
        if (k == cap) {
            cap *= 2;
            *names = xrealloc(*names, sizeof(char *) * (size_t)cap);
            *specs = xrealloc(*specs, sizeof(char *) * (size_t)cap);
        }
        (*names)[k] = xstrdup((const char *)sqlite3_column_text(st, 0));
        (*specs)[k] = xstrdup((const char *)sqlite3_column_text(st, 1));
        k++;
    }
    sqlite3_finalize(st);
    *n = k;
    return 0;
}

/* A row that could index past the agents or the per-seat arrays is refused
 * here, once, so that no caller can crash on it. */
static bool row_ok(store *s, const tgame *g, int n_seats, int n_ranks, int n_agents)
{
    const char *why = NULL;
    int bad = 0;
    if (g->s.players < 2 || g->s.players > RANKED_MAX)
        why = "player count", bad = g->s.players;
    else if (n_seats != g->s.players)
        why = "number of seats", bad = n_seats;
    for (int i = 0; !why && i < g->s.players; i++) {
        if (g->s.seat[i] < 0 || g->s.seat[i] >= n_agents) why = "seat index", bad = g->s.seat[i];
        for (int j = 0; !why && j < i; j++)
            if (g->s.seat[j] == g->s.seat[i]) why = "agent seated twice", bad = g->s.seat[i];
    }
    if (!why && g->done && n_ranks != g->s.players) why = "number of ranks", bad = n_ranks;
    for (int i = 0; !why && g->done && i < g->s.players; i++)
        if (g->rank[i] < 1 || g->rank[i] > g->s.players) why = "rank", bad = g->rank[i];
    if (!why) return true;
    snprintf(s->err, sizeof s->err,
             "game %lld in the results file is corrupt: %s %d (the tournament has %d agents, "
             "%d players a game)",
             (long long)g->s.id, why, bad, n_agents, g->s.players);
    return false;
}

static int count_agents(store *s)
{
    sqlite3_stmt *st;
    int n = -1;
    if (sqlite3_prepare_v2(s->db, "SELECT count(*) FROM agents", -1, &st, NULL) != SQLITE_OK)
        return -1;
    if (sqlite3_step(st) == SQLITE_ROW) n = sqlite3_column_int(st, 0);
    sqlite3_finalize(st);
    return n;
}

int store_games(store *s, bool pending_only, tgame **games, size_t *n)
{
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
        tgame *g = &v[k++];
        memset(g, 0, sizeof *g);
        int64_t tmp[RANKED_MAX];
        g->s.id = sqlite3_column_int64(st, 0);
        g->s.group = sqlite3_column_int64(st, 1);
        g->s.seed = (uint64_t)sqlite3_column_int64(st, 2);
        g->s.players = sqlite3_column_int(st, 3);
        int n_seats = parse_list((const char *)sqlite3_column_text(st, 4), tmp, RANKED_MAX + 1);
        for (int i = 0; i < n_seats && i < RANKED_MAX; i++)
            g->s.seat[i] = tmp[i] < INT32_MIN || tmp[i] > INT32_MAX ? -1 : (int)tmp[i];
        g->done = sqlite3_column_int(st, 5) != 0;
        int n_ranks = 0;
        if (g->done) {
            n_ranks = parse_list((const char *)sqlite3_column_text(st, 6), tmp, RANKED_MAX + 1);
            for (int i = 0; i < n_ranks && i < RANKED_MAX; i++)
                g->rank[i] = tmp[i] < 0 || tmp[i] > RANKED_MAX ? -1 : (int)tmp[i];
        }
        if (!row_ok(s, g, n_seats, n_ranks, n_agents)) {
            sqlite3_finalize(st);
            free(v);
            return -1;
        }
        if (!g->done) continue;
        int m = parse_list((const char *)sqlite3_column_text(st, 7), tmp, RANKED_MAX);
        for (int i = 0; i < m; i++)
            g->score[i] = tmp[i];
        const char *reason = (const char *)sqlite3_column_text(st, 8);
        snprintf(g->reason, sizeof g->reason, "%s", reason ? reason : "");
        const char *ff = (const char *)sqlite3_column_text(st, 9);
        for (int i = 0; ff && i < g->s.players; i++) {
            size_t len = strcspn(ff, ",");
            if (len >= sizeof g->forfeit[i]) len = sizeof g->forfeit[i] - 1;
            memcpy(g->forfeit[i], ff, len);
            g->forfeit[i][len] = '\0';
            ff = strchr(ff, ',');
            if (ff) ff++;
        }
        g->turns = sqlite3_column_int(st, 10);
        const char *tm = (const char *)sqlite3_column_text(st, 11);
        for (int i = 0; tm && i < g->s.players; i++) {
            g->time_ms[i] = strtod(tm, NULL);
            tm = strchr(tm, ',');
            if (tm) tm++;
        }
        g->wall_ms = sqlite3_column_double(st, 12);
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

int store_result(store *s, const tgame *g, const char *log_path)
{
    if (!s->put &&
        sqlite3_prepare_v2(s->db,
                           "UPDATE games SET done = 1, ranks = ?, scores = ?, reason = ?,"
                           " forfeits = ?, turns = ?, time_ms = ?, wall_ms = ?, log = ?,"
                           " finished_at = strftime('%Y-%m-%dT%H:%M:%fZ','now'),"
                           " decisions = ?10, move_max_ms = ?11, move_hist = ?12,"
                           " fault_msgs = ?13 WHERE id = ?9 AND done = 0",
                           -1, &s->put, NULL) != SQLITE_OK)
        return fail(s, "prepare");
    int k = g->s.players;
    abuf ranks = {0}, scores = {0}, ff = {0}, tm = {0};
    list_int(&ranks, g->rank, k);
    list_i64(&scores, g->score, k);
    for (int i = 0; i < k; i++) {
        abuf_addf(&ff, "%s%s", i ? "," : "", g->forfeit[i]);
        abuf_addf(&tm, "%s%.3f", i ? "," : "", g->time_ms[i]);
    }
    abuf_addc(&ff, '\0');
    abuf_addc(&tm, '\0');
    sqlite3_stmt *st = s->put;
    sqlite3_bind_text(st, 1, (const char *)ranks.data, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 2, (const char *)scores.data, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 3, g->reason, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 4, (const char *)ff.data, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int(st, 5, g->turns);
    sqlite3_bind_text(st, 6, (const char *)tm.data, -1, SQLITE_TRANSIENT);
    sqlite3_bind_double(st, 7, g->wall_ms);
    if (log_path)
        sqlite3_bind_text(st, 8, log_path, -1, SQLITE_TRANSIENT);
    else
        sqlite3_bind_null(st, 8);
    sqlite3_bind_int64(st, 9, g->s.id);
    abuf dec = {0}, mx = {0}, hist = {0};
    char *msgs = NULL;
    if (g->detail) {
        const tgame_detail *d = g->detail;
        json_t *arr = json_array();
        for (int i = 0; i < k; i++) {
            abuf_addf(&dec, "%s%ld", i ? "," : "", d->decisions[i]);
            abuf_addf(&mx, "%s%.3f", i ? "," : "", d->move_max_ms[i]);
            for (int b = 0; b < STORE_MOVE_BINS; b++)
                abuf_addf(&hist, "%s%d", b ? " " : i ? ";" : "", d->move_hist[i][b]);
            json_array_append_new(arr, json_string(d->fault_msg[i]));
        }
        abuf_addc(&dec, '\0');
        abuf_addc(&mx, '\0');
        abuf_addc(&hist, '\0');
        msgs = json_dumps(arr, JSON_COMPACT);
        json_decref(arr);
        sqlite3_bind_text(st, 10, (const char *)dec.data, -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(st, 11, (const char *)mx.data, -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(st, 12, (const char *)hist.data, -1, SQLITE_TRANSIENT);
        if (msgs) sqlite3_bind_text(st, 13, msgs, -1, SQLITE_TRANSIENT);
    }
    /* A single UPDATE is its own transaction: the result is all there or
     * not at all, and `done = 0` in the WHERE makes a replay a no-op. */
    int rc = sqlite3_step(st);
    int changed = sqlite3_changes(s->db);
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
    abuf_free(&ranks);
    abuf_free(&scores);
    abuf_free(&ff);
    abuf_free(&tm);
    abuf_free(&dec);
    abuf_free(&mx);
    abuf_free(&hist);
    free(msgs);
    if (rc != SQLITE_DONE) return fail(s, "store result");
    return changed > 0 ? 1 : 0;
}

int store_counts(store *s, int64_t *total, int64_t *done)
{
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

/* Agent index of each seat of a stored row; -1 past the agents. */
static int row_seats(sqlite3_stmt *st, int col, int n_agents, int *seat)
{
    int64_t tmp[RANKED_MAX];
    int n = parse_list((const char *)sqlite3_column_text(st, col), tmp, RANKED_MAX);
    for (int i = 0; i < n; i++)
        seat[i] = tmp[i] < 0 || tmp[i] >= n_agents ? -1 : (int)tmp[i];
    return n;
}

int store_moves_by_agent(store *s, int n_agents, store_moves *out)
{
    memset(out, 0, sizeof *out * (size_t)n_agents);
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(s->db,
                           "SELECT seats, decisions, time_ms, move_max_ms, move_hist FROM games"
                           " WHERE done = 1 AND decisions IS NOT NULL",
                           -1, &st, NULL) != SQLITE_OK)
        return fail(s, "prepare");
    while (sqlite3_step(st) == SQLITE_ROW) {
        int seat[RANKED_MAX];
        int k = row_seats(st, 0, n_agents, seat);
        const char *dec = (const char *)sqlite3_column_text(st, 1);
        const char *tm = (const char *)sqlite3_column_text(st, 2);
        const char *mx = (const char *)sqlite3_column_text(st, 3);
        const char *hist = (const char *)sqlite3_column_text(st, 4);
        for (int i = 0; i < k; i++) {
            store_moves *m = seat[i] >= 0 ? &out[seat[i]] : NULL;
            double d = dec ? strtod(dec, NULL) : 0, t = tm ? strtod(tm, NULL) : 0;
            double x = mx ? strtod(mx, NULL) : 0;
            if (m) {
                m->decisions += d;
                m->time_ms += t;
                if (x > m->max_ms) m->max_ms = x;
            }
            for (int b = 0; hist && b < STORE_MOVE_BINS; b++) {
                char *end;
                long c = strtol(hist, &end, 10);
                if (end == hist) break;
                if (m && c > 0) m->hist[b] += (double)c;
                hist = end + (*end == ' ');
            }
            if (hist && *hist == ';') hist++;
            const char *nx[3] = {dec, tm, mx};
            for (int j = 0; j < 3; j++)
                if (nx[j]) {
                    nx[j] = strchr(nx[j], ',');
                    if (nx[j]) nx[j]++;
                }
            dec = nx[0], tm = nx[1], mx = nx[2];
        }
    }
    sqlite3_finalize(st);
    return 0;
}

int store_forfeits(store *s, store_forfeit **out, size_t *n)
{
    *out = NULL;
    *n = 0;
    int n_agents = count_agents(s);
    sqlite3_stmt *st;
    if (n_agents < 0 || sqlite3_prepare_v2(s->db,
                                           "SELECT id, seats, forfeits, fault_msgs, log FROM games"
                                           " WHERE done = 1 AND reason = 'forfeit' ORDER BY id",
                                           -1, &st, NULL) != SQLITE_OK)
        return fail(s, "prepare");
    size_t cap = 0;
    while (sqlite3_step(st) == SQLITE_ROW) {
        int seat[RANKED_MAX];
        int k = row_seats(st, 1, n_agents, seat);
        const char *ff = (const char *)sqlite3_column_text(st, 2);
        const char *mj = (const char *)sqlite3_column_text(st, 3);
        const char *log = (const char *)sqlite3_column_text(st, 4);
        json_t *msgs = mj ? json_loads(mj, 0, NULL) : NULL;
        for (int i = 0; i < k && ff; i++) {
            size_t len = strcspn(ff, ",");
            if (len > 0 && seat[i] >= 0) {
                if (*n == cap) {
                    cap = cap ? cap * 2 : 16;
                    *out = xrealloc(*out, cap * sizeof **out);
                }
                store_forfeit *f = &(*out)[(*n)++];
                memset(f, 0, sizeof *f);
                f->game = sqlite3_column_int64(st, 0);
                f->agent = seat[i];
                snprintf(f->cause, sizeof f->cause, "%.*s", (int)len, ff);
                const char *m = json_string_value(json_array_get(msgs, (size_t)i));
                snprintf(f->message, sizeof f->message, "%s", m ? m : "");
                f->log = log && log[0] ? xstrdup(log) : NULL;
            }
            ff = strchr(ff, ',');
            if (ff) ff++;
        }
        json_decref(msgs);
    }
    sqlite3_finalize(st);
    return 0;
}

void store_forfeits_free(store_forfeit *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(v[i].log);
    free(v);
}

int store_span(store *s, char *first, char *last, size_t len, double *seconds)
{
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
