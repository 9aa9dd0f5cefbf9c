/* The store API over its backends, and the column text forms they share. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "elo.h"
#include "framewrite.h"
#include "store_impl.h"

bool store_is_url(const char *name)
{
    return strncmp(name, "postgresql://", 13) == 0 || strncmp(name, "postgres://", 11) == 0;
}

store *store_open(const char *path, bool create, char *err, size_t errlen)
{
    return store_is_url(path) ? store_pg_open(path, create, err, errlen)
                              : store_sqlite_open(path, create, err, errlen);
}

void store_close(store *s)
{
    if (s) s->vt->close(s);
}

int store_lock(store *s, char *err, size_t errlen)
{
    return s->vt->lock(s, err, errlen);
}

int store_init(store *s, const char *const *meta, char *const *names, char *const *specs,
               int n_agents, const schedule *sch, char *err, size_t errlen)
{
    return s->vt->init(s, meta, names, specs, n_agents, sch, err, errlen);
}

char *store_meta(store *s, const char *key)
{
    return s->vt->meta(s, key);
}

double store_meta_number(store *s, const char *key, double dflt)
{
    char *v = store_meta(s, key);
    double x = v ? strtod(v, NULL) : dflt;
    free(v);
    return x;
}

int store_set_meta(store *s, const char *key, const char *value)
{
    return s->vt->set_meta(s, key, value);
}

int store_agents(store *s, char ***names, char ***specs, int *n)
{
    if (s->vt->agents(s, names, specs, n) != 0) return -1;
    if (*n <= ELO_MAX_AGENTS) return 0;
    /* Arena never writes more (a tournament seats 256, a ladder stops at
     * the bound); every reader sizes rating tables by this count. */
    snprintf(s->err, sizeof s->err,
             "the results file is corrupt: it names %d agents, more than the %d Arena reads", *n,
             ELO_MAX_AGENTS);
    store_agents_free(*names, *specs, *n);
    *names = *specs = NULL;
    *n = 0;
    return -1;
}

bool store_agent_row_bad(long long id, int k, const char *name, const char *spec, char *err,
                         size_t errlen)
{
    if (id != k)
        snprintf(err, errlen,
                 "the results file is corrupt: agent ids are not 0, 1, 2, ... (the agent at "
                 "position %d has id %lld)",
                 k, id);
    else if (!name || !spec)
        snprintf(err, errlen, "the results file is corrupt: agent %d has no name or spec", k);
    return id != k || !name || !spec;
}

void store_agents_free(char **names, char **specs, int n)
{
    for (int i = 0; i < n; i++) {
        free(names[i]);
        free(specs[i]);
    }
    free(names);
    free(specs);
}

/* Readers size tables by a game's id and group (the SPRT's count, the
 * early stop, the audit's schedule): a schedule numbers its games 1..N, all
 * stored when it is made (an SPRT stores each pair as it schedules it), so
 * ids above twice the games stored (more than half of them gone) are
 * refused as corrupt rather than allocated for. */
int64_t store_schedule_cap(int64_t stored)
{
    return 2 * stored;
}

static int games_in_schedule(store *s, const tgame *g, size_t n, int64_t stored)
{
    for (size_t i = 0; i < n; i++) {
        const char *why = NULL;
        if (i > 0 && g[i].s.id <= g[i - 1].s.id)
            why = "ids out of schedule order";
        else if (g[i].s.id > store_schedule_cap(stored))
            why = "id past its schedule";
        if (why) {
            snprintf(s->err, sizeof s->err,
                     "game %lld in the results file is corrupt: %s (it stores %lld games)",
                     (long long)g[i].s.id, why, (long long)stored);
            return -1;
        }
    }
    return 0;
}

int store_games(store *s, bool pending_only, tgame **games, size_t *n)
{
    if (s->vt->games(s, pending_only, games, n) != 0) return -1;
    int64_t stored = (int64_t)*n, done;
    if ((pending_only && store_counts(s, &stored, &done) != 0) ||
        games_in_schedule(s, *games, *n, stored) != 0) {
        free(*games);
        *games = NULL;
        *n = 0;
        return -1;
    }
    return 0;
}

int store_append(store *s, const sched_game *g, size_t n)
{
    return s->vt->append(s, g, n);
}

int store_result(store *s, const tgame *g, const char *log_path)
{
    return s->vt->result(s, g, log_path);
}

int store_moves_by_agent(store *s, int n_agents, store_moves *out)
{
    return s->vt->moves_by_agent(s, n_agents, out);
}

int store_forfeits(store *s, store_forfeit **out, size_t *n)
{
    return s->vt->forfeits(s, out, n);
}

void store_forfeits_free(store_forfeit *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(v[i].log);
    free(v);
}

int store_span(store *s, char *first, char *last, size_t len, double *seconds)
{
    return s->vt->span(s, first, last, len, seconds);
}

int store_counts(store *s, int64_t *total, int64_t *done)
{
    return s->vt->counts(s, total, done);
}

int store_add_agent(store *s, const char *name, const char *spec, const char *const *meta, int *id)
{
    return s->vt->add_agent(s, name, spec, meta, id);
}

int store_log_hosts(store *s, store_log_host **out, size_t *n)
{
    *out = NULL;
    *n = 0;
    return s->vt->log_hosts ? s->vt->log_hosts(s, out, n) : 0;
}

int store_workers(store *s, bool speeds, store_worker **out, size_t *n)
{
    *out = NULL;
    *n = 0;
    if (!s->vt->workers) return 0;
    if (s->vt->workers(s, out, n) != 0) return -1;
    for (size_t i = 0; speeds && i < *n; i++) {
        char *k = xasprintf(STORE_WORKER_SPEED "%s", (*out)[i].name);
        (*out)[i].speed = store_meta_number(s, k, 0);
        free(k);
        k = xasprintf(STORE_WORKER_SCALE "%s", (*out)[i].name);
        (*out)[i].scale = store_meta_number(s, k, 0);
        free(k);
    }
    return 0;
}

void store_workers_free(store_worker *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(v[i].name);
    free(v);
}

void store_log_hosts_free(store_log_host *v, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(v[i].host);
        free(v[i].dir);
    }
    free(v);
}

int store_flush(store *s)
{
    return s->vt->flush ? s->vt->flush(s, false) : 0;
}

int store_snapshot(store *s, bool begin)
{
    return s->vt->snapshot(s, begin);
}

int store_tick(store *s)
{
    return s->vt->flush ? s->vt->flush(s, true) : 0;
}

const char *store_error(store *s)
{
    return s->err;
}

/* ---- column text forms ---- */

/* The text columns are written without printf and into buffers reused from
 * one result to the next: a tournament stores one row per game, each of
 * some fifty numbers, and this runs between two of its games. A column is
 * built piece by piece (put, put_i) and NUL-terminated once at its end
 * (terminate). */
static inline void put(abuf *b, const char *p, size_t n)
{
    if (b->len + n + 1 > b->cap) abuf_reserve(b, n);
    memcpy(b->data + b->len, p, n);
    b->len += n;
}

static inline void put_c(abuf *b, char c)
{
    if (b->len + 2 > b->cap) abuf_reserve(b, 1);
    b->data[b->len++] = (uint8_t)c;
}

/* Decimal, as %lld. */
static void put_i(abuf *b, int64_t v)
{
    if (v >= 0 && v < 10) {
        put_c(b, (char)('0' + v));
        return;
    }
    char tmp[24], *end = tmp + sizeof tmp, *p = end;
    uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
    do {
        *--p = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    if (v < 0) *--p = '-';
    put(b, p, (size_t)(end - p));
}

/* v as printf's "%.3f" writes it, byte for byte: the exact binary value
 * rounded to thousandths, a tie to even (the default rounding mode), the
 * sign kept on a negative value that rounds to zero. Exact in 64-bit
 * integers below 1e15 (mantissa * 1000 < 2^63); anything else (larger,
 * infinite, NaN: no clock time) goes to printf. */
static void put_ms(abuf *b, double v)
{
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    int ex = (int)(bits >> 52 & 0x7ff);
    if (ex == 0x7ff || v >= 1e15 || v <= -1e15) {
        char tmp[400];
        int n = snprintf(tmp, sizeof tmp, "%.3f", v);
        if (n > 0 && (size_t)n < sizeof tmp) put(b, tmp, (size_t)n);
        return;
    }
    /* |v| = m / 2^s exactly, s > 0 as |v| < 1e15 < 2^52 <= m. */
    uint64_t m = bits & ((1ull << 52) - 1);
    int s = 1074;
    if (ex) {
        m |= 1ull << 52;
        s = 1075 - ex;
    }
    uint64_t q; /* round(|v| * 1000) */
    if (s >= 64) {
        q = 0; /* m * 1000 < 2^63 <= half of 2^s */
    } else {
        uint64_t x = m * 1000, rem = x & ((1ull << s) - 1), half = 1ull << (s - 1);
        q = x >> s;
        if (rem > half || (rem == half && (q & 1))) q++;
    }
    char tmp[32], *end = tmp + sizeof tmp, *p = end;
    for (int i = 0; i < 3; i++) {
        *--p = (char)('0' + q % 10);
        q /= 10;
    }
    *--p = '.';
    do {
        *--p = (char)('0' + q % 10);
        q /= 10;
    } while (q);
    if (bits >> 63) *--p = '-';
    put(b, p, (size_t)(end - p));
}

/* Ends a column (an empty one still needs its text ""). */
static void terminate(abuf *b)
{
    abuf_add(b, "", 0);
}

static void list_int(abuf *b, const int *v, int n)
{
    for (int i = 0; i < n; i++) {
        if (i) put_c(b, ',');
        put_i(b, v[i]);
    }
    terminate(b);
}

static void list_i64(abuf *b, const int64_t *v, int n)
{
    for (int i = 0; i < n; i++) {
        if (i) put_c(b, ',');
        put_i(b, v[i]);
    }
    terminate(b);
}

/* strtod(t, NULL), quicker for the numbers the store writes ("12",
 * "0.250"): up to 15 digits, at most three of them decimals, are N / 10^d
 * with N and 10^d exact doubles, and one IEEE division rounds that to the
 * nearest double, as strtod does. Anything else is strtod's. */
static double num(const char *t)
{
    static const double pow10[] = {1, 10, 100, 1000};
    const char *p = t;
    uint64_t n = 0;
    int digits = 0, dec = 0;
    while (*p >= '0' && *p <= '9' && digits < 16)
        n = n * 10 + (uint64_t)(*p++ - '0'), digits++;
    if (digits > 0 && *p == '.')
        for (p++; *p >= '0' && *p <= '9' && dec < 4; p++)
            n = n * 10 + (uint64_t)(*p - '0'), dec++;
    if (digits == 0 || digits + dec > 15 || dec > 3 || (*p >= '0' && *p <= '9') || *p == '.' ||
        *p == 'e' || *p == 'E' || *p == 'x' || *p == 'X')
        return strtod(t, NULL);
    return (double)n / pow10[dec];
}

/* strtoll(t, end, 10), quicker for an optional '-' and up to 18 digits
 * (no overflow possible): the lists the store writes. */
static int64_t inum(const char *t, const char **end)
{
    const char *d = t + (*t == '-'), *p = d;
    uint64_t v = 0;
    while (*p >= '0' && *p <= '9' && p - d < 18)
        v = v * 10 + (uint64_t)(*p++ - '0');
    if (p == d || (*p >= '0' && *p <= '9')) {
        char *e;
        long long r = strtoll(t, &e, 10);
        *end = e;
        return r;
    }
    *end = p;
    return d > t ? -(int64_t)v : (int64_t)v;
}

static int parse_list(const char *t, int64_t *out, int max)
{
    int n = 0;
    while (t && *t && n < max) {
        const char *end;
        out[n++] = inum(t, &end);
        t = *end == ',' ? end + 1 : end;
        if (*end != ',') break;
    }
    return n;
}

void store_enc_seats(const sched_game *g, abuf *b)
{
    list_int(b, g->seat, g->players);
}

void store_enc_result(const tgame *g, store_enc *e)
{
    abuf *all[] = {&e->ranks, &e->scores, &e->forfeits, &e->time_ms,   &e->dec,
                   &e->max,   &e->hist,   &e->msgs_buf, &e->clocks_buf};
    for (size_t i = 0; i < sizeof all / sizeof *all; i++) {
        all[i]->len = 0;
        if (all[i]->data) all[i]->data[0] = 0;
    }
    e->msgs = NULL;
    e->clocks = NULL;
    e->detail = false;
    int k = g->s.players;
    list_int(&e->ranks, g->rank, k);
    list_i64(&e->scores, g->score, k);
    for (int i = 0; i < k; i++) {
        if (i) {
            put_c(&e->forfeits, ',');
            put_c(&e->time_ms, ',');
        }
        put(&e->forfeits, g->forfeit[i], strnlen(g->forfeit[i], sizeof g->forfeit[i]));
        put_ms(&e->time_ms, g->time_ms[i]);
    }
    terminate(&e->forfeits);
    terminate(&e->time_ms);
    if (!g->detail) return;
    const tgame_detail *d = g->detail;
    e->detail = true;
    /* The fault messages as a JSON array of strings. They may quote what a
     * bot sent, so bytes that are not UTF-8 become U+FFFD (jsonw_str)
     * rather than dropping the message and shifting the seats after it. */
    abuf *msgs = &e->msgs_buf;
    put_c(msgs, '[');
    for (int i = 0; i < k; i++) {
        if (i) {
            put_c(&e->dec, ',');
            put_c(&e->max, ',');
            put_c(&e->hist, ';');
            put_c(msgs, ',');
        }
        put_i(&e->dec, d->decisions[i]);
        put_ms(&e->max, d->move_max_ms[i]);
        for (int b = 0; b < STORE_MOVE_BINS; b++) {
            if (b) put_c(&e->hist, ' ');
            put_i(&e->hist, d->move_hist[i][b]);
        }
        jsonw_str(msgs, d->fault_msg[i], strnlen(d->fault_msg[i], sizeof d->fault_msg[i]));
    }
    put_c(msgs, ']');
    terminate(&e->dec);
    terminate(&e->max);
    terminate(&e->hist);
    terminate(msgs);
    e->msgs = (char *)msgs->data;
    store_clocks_encode(&e->clocks_buf, d->clock, k);
    e->clocks = (char *)e->clocks_buf.data;
}

void store_enc_free(store_enc *e)
{
    abuf_free(&e->ranks);
    abuf_free(&e->scores);
    abuf_free(&e->forfeits);
    abuf_free(&e->time_ms);
    abuf_free(&e->dec);
    abuf_free(&e->max);
    abuf_free(&e->hist);
    abuf_free(&e->msgs_buf);
    abuf_free(&e->clocks_buf);
    e->msgs = NULL;
    e->clocks = NULL;
    e->detail = false;
}

/* A row that could index past the agents or the per-seat arrays is refused
 * here, once, so that no caller can crash on it. */
static bool row_ok(const tgame *g, int n_seats, int n_ranks, int n_agents, char *err, size_t errlen)
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
    if (!why && g->done && (g->turns < 0 || g->turns > STORE_MAX_TURNS))
        why = "turn count", bad = g->turns;
    for (int i = 0; !why && g->done && i < g->s.players; i++)
        if (g->rank[i] < 1 || g->rank[i] > g->s.players) why = "rank", bad = g->rank[i];
    if (!why) return true;
    snprintf(err, errlen,
             "game %lld in the results file is corrupt: %s %d (the tournament has %d agents, "
             "%d players a game)",
             (long long)g->s.id, why, bad, n_agents, g->s.players);
    return false;
}

/* Its place in the schedule: ids count from 1, and a group's games follow
 * one another (group g holds games from g on), so 1 <= group <= id. */
static bool place_ok(const store_row *r, char *err, size_t errlen)
{
    if (r->id >= 1 && r->grp >= 1 && r->grp <= r->id) return true;
    snprintf(err, errlen,
             "game %lld in the results file is corrupt: group %lld is not a place in its "
             "schedule (1 to its id)",
             (long long)r->id, (long long)r->grp);
    return false;
}

/* Clock times are finite and not negative: NaN or infinity would pass every
 * comparison a report makes and print as numbers no clock measured. */
static bool time_ok(double ms)
{
    return ms >= 0 && ms < 1e15;
}

int store_row_decode(const store_row *r, int n_agents, tgame *g, char *err, size_t errlen)
{
    memset(g, 0, sizeof *g);
    if (!place_ok(r, err, errlen)) return -1;
    int64_t tmp[RANKED_MAX + 1];
    g->s.id = r->id;
    g->s.group = r->grp;
    g->s.seed = (uint64_t)r->seed;
    g->s.players = r->players;
    int n_seats = parse_list(r->seats, tmp, RANKED_MAX + 1);
    for (int i = 0; i < n_seats && i < RANKED_MAX; i++)
        g->s.seat[i] = tmp[i] < INT32_MIN || tmp[i] > INT32_MAX ? -1 : (int)tmp[i];
    g->done = r->done;
    g->turns = r->turns;
    int n_ranks = 0;
    if (g->done) {
        n_ranks = parse_list(r->ranks, tmp, RANKED_MAX + 1);
        for (int i = 0; i < n_ranks && i < RANKED_MAX; i++)
            g->rank[i] = tmp[i] < 0 || tmp[i] > RANKED_MAX ? -1 : (int)tmp[i];
    }
    if (!row_ok(g, n_seats, n_ranks, n_agents, err, errlen)) return -1;
    if (!g->done) return 0;
    int m = parse_list(r->scores, tmp, RANKED_MAX);
    for (int i = 0; i < m; i++)
        g->score[i] = tmp[i];
    const char *why = r->reason ? r->reason : ""; /* g is zeroed: terminated */
    memcpy(g->reason, why, strnlen(why, sizeof g->reason - 1));
    const char *ff = r->forfeits;
    for (int i = 0; ff && i < g->s.players; i++) {
        size_t len = strcspn(ff, ",");
        if (len >= sizeof g->forfeit[i]) len = sizeof g->forfeit[i] - 1;
        memcpy(g->forfeit[i], ff, len);
        g->forfeit[i][len] = '\0';
        ff = strchr(ff, ',');
        if (ff) ff++;
    }
    const char *tm = r->time_ms;
    for (int i = 0; tm && i < g->s.players; i++) {
        g->time_ms[i] = num(tm);
        tm = strchr(tm, ',');
        if (tm) tm++;
    }
    g->wall_ms = r->wall_ms;
    for (int i = 0; i <= g->s.players; i++)
        if (!time_ok(i < g->s.players ? g->time_ms[i] : g->wall_ms)) {
            snprintf(err, errlen,
                     "game %lld in the results file is corrupt: a clock time that is negative, "
                     "infinite or not a number",
                     (long long)g->s.id);
            return -1;
        }
    return 0;
}

/* Agent index of each seat of a stored row; -1 past the agents. */
static int row_seats(const char *seats, int n_agents, int *seat)
{
    int64_t tmp[RANKED_MAX];
    int n = parse_list(seats, tmp, RANKED_MAX);
    for (int i = 0; i < n; i++)
        seat[i] = tmp[i] < 0 || tmp[i] >= n_agents ? -1 : (int)tmp[i];
    return n;
}

void store_moves_add(store_moves *out, int n_agents, const char *seats, const char *dec,
                     const char *tm, const char *mx, const char *hist)
{
    int seat[RANKED_MAX];
    int k = row_seats(seats, n_agents, seat);
    for (int i = 0; i < k; i++) {
        store_moves *m = seat[i] >= 0 ? &out[seat[i]] : NULL;
        double d = dec ? num(dec) : 0, t = tm ? num(tm) : 0;
        double x = mx ? num(mx) : 0;
        if (m) {
            m->decisions += d;
            m->time_ms += t;
            if (x > m->max_ms) m->max_ms = x;
        }
        for (int b = 0; hist && b < STORE_MOVE_BINS; b++) {
            const char *end;
            int64_t c = inum(hist, &end);
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

int store_forfeits_add(store_forfeit **out, size_t *n, size_t *cap, int n_agents, int64_t game,
                       const char *seats, const char *ff, const char *msgs_json,
                       const char *clocks_json, const char *log, char *err, size_t errlen)
{
    int seat[RANKED_MAX];
    int k = row_seats(seats, n_agents, seat);
    clock_evidence clk[RANKED_MAX];
    char why[160];
    if (store_clocks_decode(clocks_json, k, clk, why, sizeof why) != 0) {
        snprintf(err, errlen, "game %lld in the results file is corrupt: %s", (long long)game, why);
        return -1;
    }
    json_t *msgs = msgs_json ? json_loads(msgs_json, 0, NULL) : NULL;
    for (int i = 0; i < k; i++) {
        size_t len = ff ? strcspn(ff, ",") : 0;
        /* Figures on a forfeit of another cause are kept with it (the
         * audit names them: the store writes them for timeouts only); on a
         * seat that did not forfeit, nothing reads them. */
        if (len > 0 && seat[i] >= 0) {
            if (*n == *cap) {
                *cap = *cap ? *cap * 2 : 16;
                *out = xrealloc(*out, *cap * sizeof **out);
            }
            store_forfeit *f = &(*out)[(*n)++];
            memset(f, 0, sizeof *f);
            f->game = game;
            f->agent = seat[i];
            f->seat = i;
            snprintf(f->cause, sizeof f->cause, "%.*s", (int)len, ff);
            const char *m = json_string_value(json_array_get(msgs, (size_t)i));
            snprintf(f->message, sizeof f->message, "%s", m ? m : "");
            f->log = log && log[0] ? xstrdup(log) : NULL;
            f->clock = clk[i];
            f->clock_column = clocks_json != NULL;
        }
        if (ff) ff = strchr(ff, ',');
        if (ff) ff++;
    }
    json_decref(msgs);
    return 0;
}
