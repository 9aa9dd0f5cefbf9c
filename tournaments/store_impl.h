/* What the store backends (store_sqlite.c, store_pg.c) share: the vtable
 * behind store.h and the text forms of a result's columns, so that both
 * write and read exactly the same values. Not for callers of store.h. */
#ifndef ARENA_STORE_IMPL_H
#define ARENA_STORE_IMPL_H

#include "store.h"
#include "util.h"

typedef struct store_vt {
    void (*close)(store *s);
    int (*lock)(store *s, char *err, size_t errlen);
    int (*init)(store *s, const char *const *meta, char *const *names, char *const *specs,
                int n_agents, const schedule *sch, char *err, size_t errlen);
    char *(*meta)(store *s, const char *key);
    int (*set_meta)(store *s, const char *key, const char *value);
    int (*agents)(store *s, char ***names, char ***specs, int *n);
    int (*games)(store *s, bool pending_only, tgame **games, size_t *n);
    int (*append)(store *s, const sched_game *g, size_t n);
    int (*add_agent)(store *s, const char *name, const char *spec, const char *const *meta,
                     int *id);
    int (*result)(store *s, const tgame *g, const char *log_path);
    int (*moves_by_agent)(store *s, int n_agents, store_moves *out);
    int (*forfeits)(store *s, store_forfeit **out, size_t *n);
    int (*span)(store *s, char *first, char *last, size_t len, double *seconds);
    int (*counts)(store *s, int64_t *total, int64_t *done);
    int (*log_hosts)(store *s, store_log_host **out, size_t *n);
    /* names, games and timeouts only; NULL: no workers */
    int (*workers)(store *s, store_worker **out, size_t *n);
    int (*flush)(store *s, bool only_if_due); /* NULL: results are committed each */
    int (*snapshot)(store *s, bool begin);
} store_vt;

/* Every backend's handle starts with this. */
struct store {
    const store_vt *vt;
    char err[512];
};

store *store_sqlite_open(const char *path, bool create, char *err, size_t errlen);
store *store_pg_open(const char *url, bool create, char *err, size_t errlen);

/* A game's columns as stored (text lists "1,2", "0.500,1.250"). */
typedef struct store_row {
    int64_t id, grp, seed;
    int players;
    const char *seats;
    bool done;
    const char *ranks, *scores, *reason, *forfeits, *time_ms;
    int turns;
    double wall_ms;
} store_row;

/* Fills g from a row; -1 with the reason in err when the row is corrupt (a
 * seat index outside the agents, a wrong count of seats or ranks, a bad
 * rank), so that no caller can index past an array on it. */
int store_row_decode(const store_row *r, int n_agents, tgame *g, char *err, size_t errlen);
/* Whether the agents table's row at position k (by id) is corrupt, with why
 * in err: games name agents by position, so ids must run 0..N-1 (an id
 * moved would credit games to another agent), and name and spec be set. */
bool store_agent_row_bad(long long id, int k, const char *name, const char *spec, char *err,
                         size_t errlen);

/* A finished game's result columns as text. e starts zeroed ({0}) and may
 * be passed again for the next result: its buffers are reused, so a
 * backend keeps one for its connection; store_enc_free frees them (and
 * leaves e zeroed). Without g->detail, dec/max/hist are empty and msgs and
 * clocks are NULL. */
typedef struct store_enc {
    abuf ranks, scores, forfeits, time_ms, dec, max, hist;
    char *msgs; /* the fault messages as a JSON array, in msgs_buf */
    abuf msgs_buf;
    char *clocks; /* the timeout figures (store_clocks_encode), in clocks_buf */
    abuf clocks_buf;
    bool detail;
} store_enc;
void store_enc_result(const tgame *g, store_enc *e);
void store_enc_free(store_enc *e);
/* The seats of a schedule entry as text (abuf NUL-terminated). */
void store_enc_seats(const sched_game *g, abuf *b);

/* Adds one finished game's move statistics to out (per agent). */
void store_moves_add(store_moves *out, int n_agents, const char *seats, const char *dec,
                     const char *tm, const char *mx, const char *hist);
/* Appends the forfeited seats of one finished game to *out, with their
 * timeout figures (clocks_json: the timeout_clocks column, NULL when the
 * row has none). -1 with the reason in err when those are corrupt. */
int store_forfeits_add(store_forfeit **out, size_t *n, size_t *cap, int n_agents, int64_t game,
                       const char *seats, const char *ff, const char *msgs_json,
                       const char *clocks_json, const char *log, char *err, size_t errlen);

/* The timeout_clocks column (store_clock.c): by seat, null or the figures
 * of a timeout forfeit as a map with the keys of a fault record's `clock`
 * (protocol.md §5), each figure cut to the microsecond as the log cuts it.
 * Encoding writes a JSON array of k entries into b (NUL-terminated). */
void store_clocks_encode(abuf *b, const clock_evidence *ev, int k);
/* Decodes a column of k seats into out[k] (set false where null). -1 with
 * the reason in why when it is not what store_clocks_encode writes: not a
 * JSON array of k entries, a map without its clock mode or a required
 * figure, a figure that is negative, not finite or absurdly large. Where
 * they sit (a seat that timed out or not) is for the reader to judge. */
int store_clocks_decode(const char *json, int k, clock_evidence *out, char *why, size_t len);

#endif
