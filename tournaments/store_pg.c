/* PostgreSQL store over libpq. One database holds any number of
 * tournaments, each named (the URL's #fragment, "main" without one); every
 * table is keyed by the tournament. Games are handed out to workers under
 * leases (FOR UPDATE SKIP LOCKED), a result is one UPDATE guarded by
 * `NOT done`, so the first result of a game wins and a late one changes
 * nothing. A lost connection is re-established on the next call, with a
 * growing pause between attempts, so that callers keep going. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "pq_dl.h"
#include "store_impl.h"
#include "store_pg.h"

#define PG_NAME_MAX 64

/* The statements a worker runs for every game (a claim, a result) and on
 * every tick (a heartbeat): prepared once per connection, so the server
 * parses and plans them once; a new connection (a reconnect) prepares them
 * again. */
enum { PS_CLAIM, PS_RESULT, PS_HEARTBEAT, PS_N };
static const struct {
    const char *name, *sql;
} prepared_sql[PS_N] = {
    [PS_CLAIM] = {"arena_claim",
                  "UPDATE arena_games g SET claimed_by = $2, worker = $3, host = $4,"
                  " lease_until = now() + make_interval(secs => $5::float8),"
                  " claims = claims + 1 FROM (SELECT tid, id FROM arena_games WHERE tid = $1"
                  " AND id >= $6 AND NOT done AND NOT withdrawn AND (lease_until IS NULL OR"
                  " lease_until < now()) ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED) p"
                  " WHERE g.tid = p.tid AND g.id = p.id"
                  " RETURNING g.id, g.grp, g.seed, g.players, g.seats"},
    /* One statement, one transaction: all of the result or nothing, and
     * `NOT done` drops a second result of the same game. */
    [PS_RESULT] = {"arena_result",
                   "UPDATE arena_games SET done = true, ranks = $3, scores = $4, reason = $5,"
                   " forfeits = $6, turns = $7, time_ms = $8, wall_ms = $9, log = $10,"
                   " decisions = $11, move_max_ms = $12, move_hist = $13, fault_msgs = $14,"
                   " host = $15, worker = $16, timeout_clocks = $17, finished_at = now(),"
                   " lease_until = NULL,"
                   " posted = nextval('arena_posted')"
                   " WHERE tid = $1 AND id = $2 AND NOT done"},
    [PS_HEARTBEAT] = {"arena_heartbeat",
                      "UPDATE arena_games SET lease_until = now() + make_interval(secs =>"
                      " $2::float8) WHERE claimed_by = $1 AND NOT done AND lease_until IS NOT"
                      " NULL"},
};

typedef struct pg_store {
    store base;
    PGconn *c;
    char name[PG_NAME_MAX + 1];
    char tid[24]; /* tournament id as text, "" when none chosen */
    bool locked, lock_lost, in_tx;
    bool snap;           /* in store_snapshot's transaction */
    bool prepared[PS_N]; /* on this connection */
    double retry_at, backoff;
    char *worker, *host, *token;
    char lease[32]; /* seconds, as text */
    /* Claims look from here on (the games below were handed out already:
     * each claim would otherwise walk their dead index entries again), and
     * from the start now and then for games whose lease expired. */
    int64_t claim_from;
    double full_scan_at;
    int n_agents; /* of the tournament chosen; -1 not known yet */
} pg_store;

static const store_vt pg_vt;

static const char schema[] =
    "CREATE TABLE IF NOT EXISTS arena_tournaments(id bigserial PRIMARY KEY,"
    " name text NOT NULL UNIQUE, created timestamptz NOT NULL DEFAULT now());"
    "CREATE TABLE IF NOT EXISTS arena_meta(tid bigint NOT NULL REFERENCES arena_tournaments"
    " ON DELETE CASCADE, key text NOT NULL, value text NOT NULL, PRIMARY KEY(tid, key));"
    "CREATE TABLE IF NOT EXISTS arena_agents(tid bigint NOT NULL REFERENCES arena_tournaments"
    " ON DELETE CASCADE, id int NOT NULL, name text NOT NULL, spec text NOT NULL,"
    " PRIMARY KEY(tid, id), UNIQUE(tid, name));"
    "CREATE TABLE IF NOT EXISTS arena_games(tid bigint NOT NULL REFERENCES arena_tournaments"
    " ON DELETE CASCADE, id bigint NOT NULL, grp bigint NOT NULL, seed bigint NOT NULL,"
    " players int NOT NULL, seats text NOT NULL, done boolean NOT NULL DEFAULT false,"
    " withdrawn boolean NOT NULL DEFAULT false, ranks text, scores text, reason text,"
    " forfeits text, turns int, time_ms text, wall_ms double precision, log text, host text,"
    " worker text, finished_at timestamptz, decisions text, move_max_ms text, move_hist text,"
    " fault_msgs text, claimed_by text, lease_until timestamptz, claims int NOT NULL DEFAULT 0,"
    " posted bigint, PRIMARY KEY(tid, id));"
    /* Columns added since: a database made before gains them, empty. Looked
     * up first: ALTER TABLE locks the table even when it changes nothing. */
    "DO $$BEGIN IF NOT EXISTS (SELECT 1 FROM pg_attribute WHERE attrelid ="
    " 'arena_games'::regclass AND attname = 'timeout_clocks' AND NOT attisdropped) THEN"
    " ALTER TABLE arena_games ADD COLUMN timeout_clocks text; END IF; END$$;"
    "CREATE SEQUENCE IF NOT EXISTS arena_posted;"
    "CREATE INDEX IF NOT EXISTS arena_games_open ON arena_games(tid, id)"
    " WHERE NOT done AND NOT withdrawn;";

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void quiet(void *arg, const char *msg)
{
    (void)arg;
    (void)msg; /* "relation already exists, skipping" and the like */
}

static int fail(pg_store *s, const char *what, const char *why)
{
    char tmp[400];
    snprintf(tmp, sizeof tmp, "%s", why);
    size_t n = strlen(tmp);
    while (n > 0 && (tmp[n - 1] == '\n' || tmp[n - 1] == ' '))
        tmp[--n] = '\0';
    snprintf(s->base.err, sizeof s->base.err, "%s: %s", what, tmp);
    return -1;
}

static void relock(pg_store *s)
{
    const char *v[] = {s->tid};
    PGresult *r = pq.execParams(s->c, "SELECT pg_try_advisory_lock(1095913025, $1::int)", 1, NULL,
                                v, NULL, NULL, 0);
    bool ok = pq.resultStatus(r) == PGRES_TUPLES_OK && pq.getvalue(r, 0, 0)[0] == 't';
    pq.clear(r);
    if (!ok) s->lock_lost = true;
}

/* True when connected, reconnecting first (not more often than the
 * backoff allows: 0.25 s doubling up to 8 s). */
static bool ready(pg_store *s)
{
    if (pq.status(s->c) == CONNECTION_OK) return true;
    double t = now_s();
    if (t < s->retry_at) {
        snprintf(s->base.err, sizeof s->base.err, "the database is unreachable (retrying)");
        return false;
    }
    pq.reset(s->c);
    if (pq.status(s->c) == CONNECTION_OK) {
        s->backoff = 0;
        memset(s->prepared, 0, sizeof s->prepared); /* a new session has none */
        if (s->locked) relock(s);
        return true;
    }
    s->backoff = s->backoff > 0 ? (s->backoff * 2 > 8 ? 8 : s->backoff * 2) : 0.25;
    s->retry_at = t + s->backoff;
    fail(s, "the database is unreachable", pq.errorMessage(s->c));
    return false;
}

/* Whether a failed call may be tried again on a new connection. */
static bool failed(pg_store *s, PGresult *r)
{
    fail(s, "postgresql", r ? pq.resultErrorMessage(r) : pq.errorMessage(s->c));
    pq.clear(r);
    return pq.status(s->c) == CONNECTION_BAD && !s->in_tx;
}

/* Runs one statement (sql, or prepared statement k when k >= 0); a
 * connection lost outside a transaction is retried once on a new one
 * (every statement outside a transaction is either a read or guarded so
 * that running it twice changes nothing more). */
static PGresult *run(pg_store *s, const char *sql, int k, int n, const char *const *v)
{
    for (int attempt = 0; attempt < 2; attempt++) {
        if (!ready(s)) return NULL;
        if (k >= 0 && !s->prepared[k]) {
            PGresult *p = pq.prepare(s->c, prepared_sql[k].name, prepared_sql[k].sql, n, NULL);
            if (pq.resultStatus(p) != PGRES_COMMAND_OK) {
                if (failed(s, p)) continue;
                return NULL;
            }
            pq.clear(p);
            s->prepared[k] = true;
        }
        PGresult *r = k < 0 ? pq.execParams(s->c, sql, n, NULL, v, NULL, NULL, 0)
                            : pq.execPrepared(s->c, prepared_sql[k].name, n, v, NULL, NULL, 0);
        ExecStatusType st = pq.resultStatus(r);
        if (st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK) return r;
        if (!failed(s, r)) return NULL;
    }
    return NULL;
}

static PGresult *q(pg_store *s, const char *sql, int n, const char *const *v)
{
    return run(s, sql, -1, n, v);
}

/* A hot statement, prepared on first use on each connection. */
static PGresult *qp(pg_store *s, int k, int n, const char *const *v)
{
    return run(s, NULL, k, n, v);
}

static int exec(pg_store *s, const char *sql, int n, const char *const *v)
{
    PGresult *r = q(s, sql, n, v);
    pq.clear(r);
    return r ? 0 : -1;
}

/* The first row of a query on this tournament's rows ($1 = its id): k
 * integers into out. -1 on error. */
static int q_tid_ints(pg_store *s, const char *sql, int64_t *out, int k)
{
    const char *v[] = {s->tid};
    PGresult *r = q(s, sql, 1, v);
    if (!r) return -1;
    for (int i = 0; i < k; i++)
        out[i] = strtoll(pq.getvalue(r, 0, i), NULL, 10);
    pq.clear(r);
    return 0;
}

static char *url_name(const char *url, char *name, size_t len, char *err, size_t errlen)
{
    const char *hash = strchr(url, '#');
    snprintf(name, len, "%s", hash && hash[1] ? hash + 1 : "main");
    bool ok = strlen(name) <= PG_NAME_MAX;
    for (const char *p = name; ok && *p; p++)
        ok = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
             strchr("._-", *p);
    if (!ok) {
        snprintf(err, errlen,
                 "tournament name '%s' (after # in the URL): use at most %d letters, "
                 "digits and ._-",
                 name, PG_NAME_MAX);
        return NULL;
    }
    return hash ? xasprintf("%.*s", (int)(hash - url), url) : xstrdup(url);
}

static pg_store *connect_url(const char *url, char *err, size_t errlen)
{
    char name[PG_NAME_MAX + 2];
    char *conn = url_name(url, name, sizeof name, err, errlen);
    if (!conn) return NULL;
    if (pq_load(err, errlen) != 0) {
        free(conn);
        return NULL;
    }
    /* The URL may set its own connect_timeout: it comes after ours. */
    const char *keys[] = {"connect_timeout", "application_name", "dbname", NULL};
    const char *vals[] = {"10", "arena", conn, NULL};
    PGconn *c = pq.connectdbParams(keys, vals, 1);
    free(conn);
    if (pq.status(c) != CONNECTION_OK) {
        char tmp[400];
        snprintf(tmp, sizeof tmp, "%s", c ? pq.errorMessage(c) : "out of memory");
        tmp[strcspn(tmp, "\n")] = '\0';
        snprintf(err, errlen, "cannot connect to PostgreSQL: %s", tmp);
        pq.finish(c);
        return NULL;
    }
    pq.setNoticeProcessor(c, quiet, NULL);
    pg_store *s = xcalloc(1, sizeof *s);
    s->base.vt = &pg_vt;
    s->c = c;
    snprintf(s->name, sizeof s->name, "%s", name);
    char host[256] = "";
    if (gethostname(host, sizeof host - 1) != 0) snprintf(host, sizeof host, "unknown");
    s->host = xstrdup(host);
    /* Unique per process and connection: the leases this process holds. */
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    s->token =
        xasprintf("%s:%ld:%lld.%09ld", host, (long)getpid(), (long long)ts.tv_sec, ts.tv_nsec);
    s->worker = xstrdup("coordinator");
    s->n_agents = -1;
    snprintf(s->lease, sizeof s->lease, "60");
    /* Several processes may create the schema at once: serialize them. */
    PGresult *r = pq.exec(c, "BEGIN; SELECT pg_advisory_xact_lock(1095913024);");
    bool ok = pq.resultStatus(r) == PGRES_TUPLES_OK;
    pq.clear(r);
    if (ok) {
        r = pq.exec(c, schema);
        ok = pq.resultStatus(r) == PGRES_COMMAND_OK;
        if (!ok) snprintf(err, errlen, "cannot create the tables: %s", pq.resultErrorMessage(r));
        pq.clear(r);
    } else {
        snprintf(err, errlen, "cannot create the tables: %s", pq.errorMessage(c));
    }
    pq.clear(pq.exec(c, ok ? "COMMIT" : "ROLLBACK"));
    if (!ok) {
        store_close(&s->base);
        return NULL;
    }
    return s;
}

store *store_pg_connect(const char *url, char *err, size_t errlen)
{
    pg_store *s = connect_url(url, err, errlen);
    return s ? &s->base : NULL;
}

bool store_is_pg(const store *s)
{
    return s->vt == &pg_vt;
}

const char *store_pg_name(const store *b)
{
    return ((const pg_store *)b)->name;
}

static void set_tid(pg_store *s, const char *tid)
{
    snprintf(s->tid, sizeof s->tid, "%s", tid);
    s->n_agents = -1;
    s->claim_from = 0;
}

static pg_store *pg(store *b)
{
    return (pg_store *)b;
}

/* Chooses the named tournament; 1 found, 0 not there, -1 error. */
static int select_name(pg_store *s, const char *name)
{
    const char *v[] = {name};
    PGresult *r = q(s, "SELECT id FROM arena_tournaments WHERE name = $1", 1, v);
    if (!r) return -1;
    int found = pq.ntuples(r) > 0;
    if (found) {
        set_tid(s, pq.getvalue(r, 0, 0));
        if (name != s->name) snprintf(s->name, sizeof s->name, "%s", name);
    }
    pq.clear(r);
    return found;
}

store *store_pg_open(const char *url, bool create, char *err, size_t errlen)
{
    pg_store *s = connect_url(url, err, errlen);
    if (!s) return NULL;
    int found = select_name(s, s->name);
    if (found < 0) {
        snprintf(err, errlen, "%s", s->base.err);
        goto fail;
    }
    if (create) {
        if (!found) {
            const char *v[] = {s->name};
            PGresult *r = q(s,
                            "INSERT INTO arena_tournaments(name) VALUES($1) ON CONFLICT DO NOTHING"
                            " RETURNING id",
                            1, v);
            if (r && pq.ntuples(r) == 1) set_tid(s, pq.getvalue(r, 0, 0));
            pq.clear(r);
            if (!s->tid[0] && select_name(s, s->name) != 1) {
                snprintf(err, errlen, "cannot create tournament %s: %s", s->name, s->base.err);
                goto fail;
            }
        }
        /* Claim it first, as with a file: a run being set up reads as "in
         * use", not as "already holds a tournament". */
        if (store_lock(&s->base, err, errlen) != 0) goto fail;
        char *kind = store_meta(&s->base, "kind");
        int64_t total = 0, done = 0;
        store_counts(&s->base, &total, &done);
        if (kind || total > 0) {
            snprintf(err, errlen,
                     "the database already holds a %s named %s; continue it with --resume, or "
                     "name a new one with #NAME at the end of the URL",
                     kind ? kind : "tournament", s->name);
            free(kind);
            goto fail;
        }
    } else {
        char *kind = found ? store_meta(&s->base, "kind") : NULL;
        if (!kind) {
            snprintf(err, errlen, "the database holds no tournament named %s", s->name);
            goto fail;
        }
        free(kind);
    }
    return &s->base;
fail:
    store_close(&s->base);
    return NULL;
}

static void pg_close(store *b)
{
    pg_store *s = pg(b);
    pq.finish(s->c);
    free(s->worker);
    free(s->host);
    free(s->token);
    free(s);
}

static int pg_lock(store *b, char *err, size_t errlen)
{
    pg_store *s = pg(b);
    if (s->locked) return 0;
    const char *v[] = {s->tid};
    PGresult *r = q(s, "SELECT pg_try_advisory_lock(1095913025, $1::int)", 1, v);
    if (!r) {
        snprintf(err, errlen, "%s", s->base.err);
        return -1;
    }
    bool ok = pq.getvalue(r, 0, 0)[0] == 't';
    pq.clear(r);
    if (!ok) {
        snprintf(err, errlen,
                 "tournament %s is in use by another arena tournament or sprt run (its "
                 "coordinator); wait for it to finish or stop it first",
                 s->name);
        return -1;
    }
    s->locked = true;
    return 0;
}

static int set_meta(pg_store *s, const char *key, const char *value)
{
    const char *v[] = {s->tid, key, value};
    if (exec(s,
             "INSERT INTO arena_meta(tid, key, value) VALUES($1, $2, $3)"
             " ON CONFLICT (tid, key) DO UPDATE SET value = excluded.value",
             3, v) != 0)
        return -1;
    return 0;
}

static int pg_set_meta(store *b, const char *key, const char *value)
{
    return set_meta(pg(b), key, value);
}

static int insert_games(pg_store *s, const sched_game *g, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        abuf seats = {0};
        store_enc_seats(&g[i], &seats);
        char id[24], grp[24], seed[24], players[16];
        snprintf(id, sizeof id, "%lld", (long long)g[i].id);
        snprintf(grp, sizeof grp, "%lld", (long long)g[i].group);
        snprintf(seed, sizeof seed, "%lld", (long long)(int64_t)g[i].seed); /* bit pattern kept */
        snprintf(players, sizeof players, "%d", g[i].players);
        const char *v[] = {s->tid, id, grp, seed, players, (const char *)seats.data};
        int rc = exec(s,
                      "INSERT INTO arena_games(tid, id, grp, seed, players, seats)"
                      " VALUES($1, $2, $3, $4, $5, $6)",
                      6, v);
        abuf_free(&seats);
        if (rc != 0) return -1;
    }
    return 0;
}

static int begin(pg_store *s)
{
    if (exec(s, "BEGIN", 0, NULL) != 0) return -1;
    s->in_tx = true;
    return 0;
}

static int commit(pg_store *s, bool ok)
{
    s->in_tx = false;
    if (ok && exec(s, "COMMIT", 0, NULL) == 0) return 0;
    pq.clear(pq.exec(s->c, "ROLLBACK"));
    return -1;
}

/* Repeatable read: every statement of the transaction sees the snapshot
 * its first one took. Read only: a slip that writes fails. */
static int pg_snapshot(store *b, bool begin)
{
    pg_store *s = pg(b);
    if (begin) {
        if (s->in_tx) return 0;
        if (exec(s, "BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY", 0, NULL) != 0) return -1;
        s->in_tx = s->snap = true;
        return 0;
    }
    if (!s->snap) return 0;
    s->snap = false;
    return commit(s, true);
}

static int pg_init(store *b, const char *const *meta, char *const *names, char *const *specs,
                   int n_agents, const schedule *sch, char *err, size_t errlen)
{
    pg_store *s = pg(b);
    bool ok = begin(s) == 0;
    for (size_t i = 0; ok && meta[i]; i += 2)
        ok = set_meta(s, meta[i], meta[i + 1]) == 0;
    for (int i = 0; ok && i < n_agents; i++) {
        char id[16];
        snprintf(id, sizeof id, "%d", i);
        const char *v[] = {s->tid, id, names[i], specs[i]};
        ok = exec(s, "INSERT INTO arena_agents(tid, id, name, spec) VALUES($1, $2, $3, $4)", 4,
                  v) == 0;
    }
    ok = ok && insert_games(s, sch->games, sch->n) == 0;
    if (commit(s, ok) != 0) {
        snprintf(err, errlen, "%s", s->base.err);
        return -1;
    }
    return 0;
}

static int pg_append(store *b, const sched_game *g, size_t n)
{
    pg_store *s = pg(b);
    bool ok = begin(s) == 0 && insert_games(s, g, n) == 0;
    return commit(s, ok);
}

static int pg_add_agent(store *b, const char *name, const char *spec, const char *const *meta,
                        int *id)
{
    pg_store *s = pg(b);
    bool ok = begin(s) == 0;
    /* One adder at a time per tournament: the next index is taken whole. */
    const char *v[] = {s->tid, name, spec};
    ok = ok && exec(s, "SELECT pg_advisory_xact_lock(1095913026, $1::int)", 1, v) == 0;
    PGresult *r = ok ? q(s,
                         "INSERT INTO arena_agents(tid, id, name, spec) SELECT $1, coalesce(max(id)"
                         " + 1, 0), $2, $3 FROM arena_agents WHERE tid = $1 RETURNING id",
                         3, v)
                     : NULL;
    ok = r && pq.ntuples(r) == 1;
    if (ok) *id = atoi(pq.getvalue(r, 0, 0));
    pq.clear(r);
    for (size_t i = 0; ok && meta && meta[i]; i += 2)
        ok = set_meta(s, meta[i], meta[i + 1]) == 0;
    return commit(s, ok);
}

static char *pg_meta(store *b, const char *key)
{
    pg_store *s = pg(b);
    const char *v[] = {s->tid, key};
    PGresult *r = q(s, "SELECT value FROM arena_meta WHERE tid = $1 AND key = $2", 2, v);
    char *out = r && pq.ntuples(r) > 0 ? xstrdup(pq.getvalue(r, 0, 0)) : NULL;
    pq.clear(r);
    return out;
}

static const char *col(PGresult *r, int row, int c);

static int pg_agents(store *b, char ***names, char ***specs, int *n)
{
    pg_store *s = pg(b);
    const char *v[] = {s->tid};
    PGresult *r = q(s, "SELECT id, name, spec FROM arena_agents WHERE tid = $1 ORDER BY id", 1, v);
    if (!r) return -1;
    int k = pq.ntuples(r);
    *names = xcalloc((size_t)k + 1, sizeof(char *));
    *specs = xcalloc((size_t)k + 1, sizeof(char *));
    for (int i = 0; i < k; i++) {
        const char *name = col(r, i, 1), *spec = col(r, i, 2);
        if (store_agent_row_bad(strtoll(pq.getvalue(r, i, 0), NULL, 10), i, name, spec, s->base.err,
                                sizeof s->base.err)) {
            store_agents_free(*names, *specs, i);
            *names = *specs = NULL;
            *n = 0;
            pq.clear(r);
            return -1;
        }
        (*names)[i] = xstrdup(name);
        (*specs)[i] = xstrdup(spec);
    }
    pq.clear(r);
    *n = k;
    return 0;
}

static int count_agents(pg_store *s)
{
    const char *v[] = {s->tid};
    PGresult *r = q(s, "SELECT count(*) FROM arena_agents WHERE tid = $1", 1, v);
    int n = r ? atoi(pq.getvalue(r, 0, 0)) : -1;
    pq.clear(r);
    return n;
}

static const char *col(PGresult *r, int row, int c)
{
    return pq.getisnull(r, row, c) ? NULL : pq.getvalue(r, row, c);
}

/* Rows of `SELECT id, grp, seed, players, seats, done, ranks, scores,
 * reason, forfeits, turns, time_ms, wall_ms` as games. */
static int decode_games(pg_store *s, PGresult *r, int n_agents, tgame **games, size_t *n)
{
    size_t k = (size_t)pq.ntuples(r);
    tgame *out = xcalloc(k + 1, sizeof *out);
    for (size_t i = 0; i < k; i++) {
        int row = (int)i;
        const char *turns = col(r, row, 10), *wall = col(r, row, 12);
        store_row sr = {
            .id = strtoll(pq.getvalue(r, row, 0), NULL, 10),
            .grp = strtoll(pq.getvalue(r, row, 1), NULL, 10),
            .seed = strtoll(pq.getvalue(r, row, 2), NULL, 10),
            .players = atoi(pq.getvalue(r, row, 3)),
            .seats = col(r, row, 4),
            .done = pq.getvalue(r, row, 5)[0] == 't',
            .ranks = col(r, row, 6),
            .scores = col(r, row, 7),
            .reason = col(r, row, 8),
            .forfeits = col(r, row, 9),
            .turns = turns ? atoi(turns) : 0,
            .time_ms = col(r, row, 11),
            .wall_ms = wall ? strtod(wall, NULL) : 0,
        };
        if (store_row_decode(&sr, n_agents, &out[i], s->base.err, sizeof s->base.err) != 0) {
            free(out);
            return -1;
        }
    }
    *games = out;
    *n = k;
    return 0;
}

static int pg_games(store *b, bool pending_only, tgame **games, size_t *n)
{
    pg_store *s = pg(b);
    int n_agents = count_agents(s);
    if (n_agents < 0) return -1;
    const char *v[] = {s->tid};
    PGresult *r =
        q(s,
          pending_only ? "SELECT id, grp, seed, players, seats, done, ranks, scores, reason,"
                         " forfeits, turns, time_ms, wall_ms FROM arena_games WHERE tid = $1"
                         " AND NOT done AND NOT withdrawn ORDER BY id"
                       : "SELECT id, grp, seed, players, seats, done, ranks, scores, reason,"
                         " forfeits, turns, time_ms, wall_ms FROM arena_games WHERE tid = $1"
                         " ORDER BY id",
          1, v);
    if (!r) return -1;
    int rc = decode_games(s, r, n_agents, games, n);
    pq.clear(r);
    return rc;
}

static int pg_result(store *b, const tgame *g, const char *log_path)
{
    pg_store *s = pg(b);
    store_enc e = {0};
    store_enc_result(g, &e);
    char id[24], turns[16], wall[40];
    snprintf(id, sizeof id, "%lld", (long long)g->s.id);
    snprintf(turns, sizeof turns, "%d", g->turns);
    snprintf(wall, sizeof wall, "%.17g", g->wall_ms);
    const char *v[] = {s->tid,
                       id,
                       (const char *)e.ranks.data,
                       (const char *)e.scores.data,
                       g->reason,
                       (const char *)e.forfeits.data,
                       turns,
                       (const char *)e.time_ms.data,
                       wall,
                       log_path,
                       e.detail ? (const char *)e.dec.data : NULL,
                       e.detail ? (const char *)e.max.data : NULL,
                       e.detail ? (const char *)e.hist.data : NULL,
                       e.msgs,
                       s->host,
                       s->worker,
                       e.clocks};
    PGresult *r = qp(s, PS_RESULT, 17, v);
    store_enc_free(&e);
    if (!r) return -1;
    int changed = atoi(pq.cmdTuples(r));
    pq.clear(r);
    return changed > 0 ? 1 : 0;
}

static int pg_counts(store *b, int64_t *total, int64_t *done)
{
    int64_t v[2] = {0, 0};
    int rc = q_tid_ints(pg(b),
                        "SELECT count(*), count(*) FILTER (WHERE done) FROM arena_games"
                        " WHERE tid = $1",
                        v, 2);
    *total = v[0];
    *done = v[1];
    return rc;
}

static int pg_moves_by_agent(store *b, int n_agents, store_moves *out)
{
    pg_store *s = pg(b);
    memset(out, 0, sizeof *out * (size_t)n_agents);
    const char *v[] = {s->tid};
    PGresult *r = q(s,
                    "SELECT seats, decisions, time_ms, move_max_ms, move_hist FROM arena_games"
                    " WHERE tid = $1 AND done AND decisions IS NOT NULL",
                    1, v);
    if (!r) return -1;
    for (int i = 0; i < pq.ntuples(r); i++)
        store_moves_add(out, n_agents, col(r, i, 0), col(r, i, 1), col(r, i, 2), col(r, i, 3),
                        col(r, i, 4));
    pq.clear(r);
    return 0;
}

static int pg_forfeits(store *b, store_forfeit **out, size_t *n)
{
    pg_store *s = pg(b);
    *out = NULL;
    *n = 0;
    int n_agents = count_agents(s);
    if (n_agents < 0) return -1;
    const char *v[] = {s->tid};
    PGresult *r = q(s,
                    "SELECT id, seats, forfeits, fault_msgs, log, timeout_clocks FROM arena_games"
                    " WHERE tid = $1 AND done AND reason = 'forfeit' ORDER BY id",
                    1, v);
    if (!r) return -1;
    size_t cap = 0;
    int rc = 0;
    for (int i = 0; rc == 0 && i < pq.ntuples(r); i++)
        rc = store_forfeits_add(out, n, &cap, n_agents, strtoll(pq.getvalue(r, i, 0), NULL, 10),
                                col(r, i, 1), col(r, i, 2), col(r, i, 3), col(r, i, 5),
                                col(r, i, 4), s->base.err, sizeof s->base.err);
    pq.clear(r);
    if (rc != 0) {
        store_forfeits_free(*out, *n);
        *out = NULL;
        *n = 0;
    }
    return rc;
}

static int pg_span(store *b, char *first, char *last, size_t len, double *seconds)
{
    pg_store *s = pg(b);
    first[0] = last[0] = '\0';
    *seconds = 0;
    const char *v[] = {s->tid};
    PGresult *r = q(
        s,
        "SELECT to_char(min(finished_at) AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"'),"
        " to_char(max(finished_at) AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"'),"
        " extract(epoch FROM max(finished_at) - min(finished_at))"
        " FROM arena_games WHERE tid = $1 AND done",
        1, v);
    if (!r) return -1;
    if (!pq.getisnull(r, 0, 0)) {
        snprintf(first, len, "%s", pq.getvalue(r, 0, 0));
        snprintf(last, len, "%s", pq.getvalue(r, 0, 1));
        *seconds = strtod(pq.getvalue(r, 0, 2), NULL);
    }
    pq.clear(r);
    return 0;
}

static int pg_log_hosts(store *b, store_log_host **out, size_t *n)
{
    pg_store *s = pg(b);
    const char *v[] = {s->tid};
    PGresult *r = q(s,
                    "SELECT coalesce(host, '?'), regexp_replace(log, '/[^/]*$', ''), count(*)"
                    " FROM arena_games WHERE tid = $1 AND done AND log IS NOT NULL"
                    " GROUP BY 1, 2 ORDER BY 1, 2",
                    1, v);
    if (!r) return -1;
    *n = (size_t)pq.ntuples(r);
    *out = xcalloc(*n + 1, sizeof **out);
    for (size_t i = 0; i < *n; i++) {
        (*out)[i].host = xstrdup(pq.getvalue(r, (int)i, 0));
        (*out)[i].dir = xstrdup(pq.getvalue(r, (int)i, 1));
        (*out)[i].games = strtoll(pq.getvalue(r, (int)i, 2), NULL, 10);
    }
    pq.clear(r);
    return 0;
}

/* ---- workers and coordinators ---- */

static const char games_cols[] = "id, grp, seed, players, seats, done, ranks, scores, reason,"
                                 " forfeits, turns, time_ms, wall_ms";

const char *store_pg_worker(const store *b)
{
    return ((const pg_store *)b)->worker;
}

void store_pg_identity(store *b, const char *worker, double lease_s)
{
    pg_store *s = pg(b);
    free(s->worker);
    s->worker = xstrdup(worker);
    snprintf(s->lease, sizeof s->lease, "%.3f", lease_s);
}

int store_pg_pick(store *b, const char *skip, char *name, size_t len)
{
    pg_store *s = pg(b);
    const char *v[] = {skip};
    PGresult *r = q(s,
                    "SELECT t.id, t.name FROM arena_tournaments t WHERE EXISTS (SELECT 1 FROM"
                    " arena_games g WHERE g.tid = t.id AND NOT done AND NOT withdrawn AND"
                    " (lease_until IS NULL OR lease_until < now())) AND NOT (t.name = ANY("
                    "string_to_array($1, chr(10)))) ORDER BY t.id LIMIT 1",
                    1, v);
    if (!r) return -1;
    int found = pq.ntuples(r) > 0;
    if (found) {
        set_tid(s, pq.getvalue(r, 0, 0));
        snprintf(s->name, sizeof s->name, "%s", pq.getvalue(r, 0, 1));
        snprintf(name, len, "%s", s->name);
    }
    pq.clear(r);
    return found;
}

#define CLAIM_FULL_SCAN_S 5.0

static int claim(pg_store *s, sched_game *g);

int store_pg_claim(store *b, sched_game *g)
{
    pg_store *s = pg(b);
    double t = now_s();
    if (t >= s->full_scan_at) {
        s->claim_from = 0;
        s->full_scan_at = t + CLAIM_FULL_SCAN_S;
    }
    int r = claim(s, g);
    if (r == 0 && s->claim_from > 0) {
        s->claim_from = 0;
        s->full_scan_at = t + CLAIM_FULL_SCAN_S;
        r = claim(s, g);
    }
    if (r == 1) s->claim_from = g->id + 1;
    return r;
}

static int claim(pg_store *s, sched_game *g)
{
    char from[24];
    snprintf(from, sizeof from, "%lld", (long long)s->claim_from);
    const char *v[] = {s->tid, s->token, s->worker, s->host, s->lease, from};
    PGresult *r = qp(s, PS_CLAIM, 6, v);
    if (!r) return -1;
    int got = pq.ntuples(r) > 0;
    if (got) {
        if (s->n_agents < 0) s->n_agents = count_agents(s);
        int n_agents = s->n_agents;
        tgame t;
        store_row sr = {.id = strtoll(pq.getvalue(r, 0, 0), NULL, 10),
                        .grp = strtoll(pq.getvalue(r, 0, 1), NULL, 10),
                        .seed = strtoll(pq.getvalue(r, 0, 2), NULL, 10),
                        .players = atoi(pq.getvalue(r, 0, 3)),
                        .seats = pq.getvalue(r, 0, 4)};
        int drc = n_agents < 0
                      ? -1
                      : store_row_decode(&sr, n_agents, &t, s->base.err, sizeof s->base.err);
        if (drc != 0 && n_agents >= 0) {
            /* Agents added since the count (a ladder's new versions). */
            s->n_agents = n_agents = count_agents(s);
            drc = n_agents < 0
                      ? -1
                      : store_row_decode(&sr, n_agents, &t, s->base.err, sizeof s->base.err);
        }
        if (drc != 0)
            got = -1;
        else
            *g = t.s;
    }
    pq.clear(r);
    return got;
}

int store_pg_heartbeat(store *b)
{
    pg_store *s = pg(b);
    const char *v[] = {s->token, s->lease};
    PGresult *r = qp(s, PS_HEARTBEAT, 2, v);
    pq.clear(r);
    return r ? 0 : -1;
}

int64_t store_pg_unfinished(store *b)
{
    int64_t n;
    if (q_tid_ints(pg(b),
                   "SELECT count(*) FROM arena_games WHERE tid = $1 AND NOT done AND NOT withdrawn",
                   &n, 1) != 0)
        return -1;
    return n;
}

int store_pg_waiting(store *b, int64_t *waiting, int64_t *held)
{
    int64_t v[2] = {0, 0};
    int rc = q_tid_ints(pg(b),
                        "SELECT count(*) FILTER (WHERE lease_until IS NULL OR lease_until < now()),"
                        " count(*) FILTER (WHERE lease_until >= now()) FROM arena_games"
                        " WHERE tid = $1 AND NOT done AND NOT withdrawn",
                        v, 2);
    *waiting = v[0];
    *held = v[1];
    return rc;
}

static int pg_workers(store *b, store_worker **out, size_t *n)
{
    pg_store *s = pg(b);
    const char *v[] = {s->tid};
    PGresult *r = q(s,
                    "SELECT coalesce(worker, '?'), count(*), count(*) FILTER (WHERE forfeits LIKE"
                    " '%timeout%') FROM arena_games WHERE tid = $1 AND done GROUP BY 1 ORDER BY 1",
                    1, v);
    if (!r) return -1;
    int k = pq.ntuples(r);
    *out = xcalloc((size_t)k + 1, sizeof **out);
    for (int i = 0; i < k; i++) {
        (*out)[i].name = xstrdup(pq.getvalue(r, i, 0));
        (*out)[i].games = strtoll(pq.getvalue(r, i, 1), NULL, 10);
        (*out)[i].timeouts = strtoll(pq.getvalue(r, i, 2), NULL, 10);
    }
    pq.clear(r);
    *n = (size_t)k;
    return 0;
}

int store_pg_results_since(store *b, int64_t *cursor, tgame **games, size_t *n)
{
    pg_store *s = pg(b);
    int n_agents = count_agents(s);
    if (n_agents < 0) return -1;
    char cur[24];
    snprintf(cur, sizeof cur, "%lld", (long long)*cursor);
    const char *v[] = {s->tid, cur};
    char *sql =
        xasprintf("SELECT %s, posted FROM arena_games WHERE tid = $1 AND done AND posted > $2"
                  " ORDER BY posted",
                  games_cols);
    PGresult *r = q(s, sql, 2, v);
    free(sql);
    if (!r) return -1;
    int rc = decode_games(s, r, n_agents, games, n);
    if (rc == 0 && *n > 0) *cursor = strtoll(pq.getvalue(r, (int)*n - 1, 13), NULL, 10);
    pq.clear(r);
    return rc;
}

int store_pg_last_game(store *b, int64_t *id, int64_t *group)
{
    int64_t v[2];
    if (q_tid_ints(pg(b),
                   "SELECT coalesce(max(id), 0), coalesce(max(grp), 0) FROM arena_games"
                   " WHERE tid = $1",
                   v, 2) != 0)
        return -1;
    *id = v[0];
    *group = v[1];
    return 0;
}

int store_pg_withdraw(store *b)
{
    pg_store *s = pg(b);
    const char *v[] = {s->tid};
    return exec(s, "UPDATE arena_games SET withdrawn = true WHERE tid = $1 AND NOT done", 1, v);
}

int store_pg_withdraw_unstarted(store *b)
{
    pg_store *s = pg(b);
    const char *v[] = {s->tid};
    /* The table lock holds claims back for the few milliseconds this takes,
     * so that no group can be started between the look and the update (a
     * group half withdrawn would break its seat-swapped pair). Reads go on. */
    bool ok = begin(s) == 0 && exec(s, "LOCK TABLE arena_games IN EXCLUSIVE MODE", 0, NULL) == 0 &&
              exec(s,
                   "UPDATE arena_games g SET withdrawn = true WHERE tid = $1 AND NOT done AND"
                   " NOT withdrawn AND NOT EXISTS (SELECT 1 FROM arena_games h WHERE h.tid = $1"
                   " AND h.grp = g.grp AND (h.done OR h.claims > 0))",
                   1, v) == 0;
    return commit(s, ok);
}

bool store_pg_lock_lost(const store *b)
{
    return ((const pg_store *)b)->lock_lost;
}

bool store_pg_reachable(const store *b)
{
    return pq.status(((const pg_store *)b)->c) == CONNECTION_OK;
}

static const store_vt pg_vt = {
    .close = pg_close,
    .lock = pg_lock,
    .init = pg_init,
    .meta = pg_meta,
    .set_meta = pg_set_meta,
    .agents = pg_agents,
    .games = pg_games,
    .append = pg_append,
    .result = pg_result,
    .moves_by_agent = pg_moves_by_agent,
    .forfeits = pg_forfeits,
    .span = pg_span,
    .counts = pg_counts,
    .log_hosts = pg_log_hosts,
    .add_agent = pg_add_agent,
    .workers = pg_workers,
    .snapshot = pg_snapshot,
};
