/* Schedules (balance, determinism, seat rotation, pairing) and the SQLite
 * store (round trip, idempotent results, refusal to overwrite, one run at a
 * time, corrupt rows). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <sqlite3.h>

#include "schedule.h"
#include "store.h"
#include "store_impl.h"

static void test_round_robin_pairs(void **st)
{
    (void)st;
    schedule_params p = {
        .n_agents = 4, .players = 2, .per_pairing = 6, .seed = 42, .pairing = PAIRING_DUPLICATE};
    schedule s;
    char err[200];
    assert_int_equal(schedule_build(&p, &s, err, sizeof err), 0);
    assert_int_equal((int)s.n, 6 * 6); /* C(4,2) pairings x 6 */
    int meet[4][4] = {{0}}, first[4][4] = {{0}};
    for (size_t i = 0; i < s.n; i++) {
        sched_game *g = &s.games[i];
        assert_int_equal(g->id, (int64_t)i + 1);
        assert_int_not_equal(g->seat[0], g->seat[1]);
        meet[g->seat[0]][g->seat[1]]++;
        first[g->seat[0]][g->seat[1]]++;
        if (i % 2 == 1) {
            /* The second game of a pair: same seed, seats swapped. */
            sched_game *a = &s.games[i - 1];
            assert_int_equal(a->group, g->group);
            assert_true(a->seed == g->seed);
            assert_int_equal(a->seat[0], g->seat[1]);
            assert_int_equal(a->seat[1], g->seat[0]);
        } else if (i > 0) {
            assert_true(s.games[i - 1].seed != g->seed);
        }
    }
    for (int a = 0; a < 4; a++)
        for (int b = 0; b < 4; b++)
            if (a != b) assert_int_equal(first[a][b], 3); /* each seat order 3 times */
    /* Deterministic from the seed, different under another seed. */
    schedule t;
    assert_int_equal(schedule_build(&p, &t, err, sizeof err), 0);
    assert_memory_equal(s.games, t.games, s.n * sizeof(sched_game));
    schedule_free(&t);
    p.seed = 43;
    assert_int_equal(schedule_build(&p, &t, err, sizeof err), 0);
    assert_true(t.games[0].seed != s.games[0].seed);
    schedule_free(&t);
    schedule_free(&s);
    /* An odd count cannot be played in seat-swapped pairs. */
    p.per_pairing = 5;
    assert_int_equal(schedule_build(&p, &s, err, sizeof err), -1);
    assert_non_null(strstr(err, "multiple of 2"));
}

static void test_gauntlet(void **st)
{
    (void)st;
    schedule_params p = {
        .n_agents = 5, .players = 2, .format = FORMAT_GAUNTLET, .per_pairing = 4, .seed = 1};
    schedule s;
    char err[200];
    assert_int_equal(schedule_build(&p, &s, err, sizeof err), 0);
    assert_int_equal((int)s.n, 4 * 4);
    for (size_t i = 0; i < s.n; i++)
        assert_true(s.games[i].seat[0] == 0 || s.games[i].seat[1] == 0);
    schedule_free(&s);
}

/* Three-player tables: every 3-subset of 5 agents, every rotation, so each
 * agent sits in each seat equally often. */
static void test_multiplayer_balanced(void **st)
{
    (void)st;
    schedule_params p = {.n_agents = 5, .players = 3, .per_pairing = 3, .seed = 9};
    schedule s;
    char err[200];
    assert_int_equal(schedule_build(&p, &s, err, sizeof err), 0);
    assert_int_equal((int)s.n, 10 * 3);
    int seat[5][3] = {{0}};
    for (size_t i = 0; i < s.n; i++)
        for (int k = 0; k < 3; k++)
            seat[s.games[i].seat[k]][k]++;
    for (int a = 0; a < 5; a++)
        for (int k = 0; k < 3; k++)
            assert_int_equal(seat[a][k], 6); /* C(4,2) */
    schedule_free(&s);

    /* Too large: sampled, still balanced in appearances and seats. */
    p.n_agents = 9;
    p.players = 4;
    p.per_pairing = 4;
    p.max_games = 36 * 4;
    assert_int_equal(schedule_build(&p, &s, err, sizeof err), 0);
    assert_true(s.sampled);
    assert_int_equal((int)s.n, 144);
    int app[9] = {0};
    for (size_t i = 0; i < s.n; i += 4)
        for (int k = 0; k < 4; k++)
            app[s.games[i].seat[k]]++;
    for (int a = 0; a < 9; a++)
        assert_int_equal(app[a], 16); /* 36 groups x 4 / 9 */
    schedule_free(&s);
}

static void test_store_roundtrip(void **st)
{
    (void)st;
    char path[] = "/tmp/arena-store-test-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    char err[300];
    store *db = store_open(path, true, err, sizeof err);
    assert_non_null(db);
    schedule_params p = {.n_agents = 3, .players = 2, .per_pairing = 2, .seed = 5};
    schedule s;
    assert_int_equal(schedule_build(&p, &s, err, sizeof err), 0);
    char *names[] = {"a", "b", "c"}, *specs[] = {"builtin:random", "builtin:random", "x"};
    const char *meta[] = {"kind", "tournament", "game", "nim", NULL};
    assert_int_equal(store_init(db, meta, names, specs, 3, &s, err, sizeof err), 0);
    int64_t total, done;
    store_counts(db, &total, &done);
    assert_int_equal(total, 6);
    assert_int_equal(done, 0);
    tgame g;
    memset(&g, 0, sizeof g);
    g.s = s.games[2];
    g.rank[0] = 2;
    g.rank[1] = 1;
    g.score[0] = -5;
    g.score[1] = 7;
    strcpy(g.reason, "forfeit");
    strcpy(g.forfeit[0], "timeout");
    g.turns = 17;
    g.time_ms[0] = 40;
    g.time_ms[1] = 12.5;
    tgame_detail det;
    memset(&det, 0, sizeof det);
    det.decisions[0] = 3;
    det.decisions[1] = 5;
    det.move_max_ms[0] = 30.25;
    det.move_hist[0][2] = 2;
    det.move_hist[0][STORE_MOVE_BINS - 1] = 1; /* one move over the budget */
    det.move_hist[1][0] = 5;
    strcpy(det.fault_msg[0], "no answer, \"quoted\", within 10 ms");
    det.clock[0] = (clock_evidence){.set = true,
                                    .mode = CLOCK_FAIR,
                                    .allowance_ms = 10,
                                    .charged_ms = 12.3456789,
                                    .wall_ms = 40.25,
                                    .cpu_ms = 12.5,
                                    .wait_ms = 27.9,
                                    .wait_sum_ms = 30,
                                    .lag_ms = 0,
                                    .host_psi_ms = -1};
    g.detail = &det;
    assert_int_equal(store_result(db, &g, "logs/x.jsonl"), 1);
    assert_int_equal(store_result(db, &g, "logs/x.jsonl"), 0); /* never twice */
    store_close(db);

    /* Reopen as a resume would. */
    assert_null(store_open(path, true, err, sizeof err));
    assert_non_null(strstr(err, "--resume"));
    db = store_open(path, false, err, sizeof err);
    assert_non_null(db);
    char *game = store_meta(db, "game");
    assert_string_equal(game, "nim");
    free(game);
    tgame *all;
    size_t n;
    assert_int_equal(store_games(db, false, &all, &n), 0);
    assert_int_equal((int)n, 6);
    assert_true(all[2].done);
    assert_false(all[0].done);
    assert_int_equal(all[2].rank[1], 1);
    assert_int_equal(all[2].score[0], -5);
    assert_string_equal(all[2].forfeit[0], "timeout");
    assert_string_equal(all[2].forfeit[1], "");
    assert_string_equal(all[2].reason, "forfeit");
    assert_int_equal(all[2].turns, 17);
    assert_true(all[2].s.seed == s.games[2].seed);
    assert_int_equal(all[2].s.seat[0], s.games[2].seat[0]);
    assert_null(all[2].detail);
    free(all);
    /* The per-move summary and the forfeit, per agent. */
    store_moves mv[3];
    assert_int_equal(store_moves_by_agent(db, 3, mv), 0);
    int a0 = s.games[2].seat[0], a1 = s.games[2].seat[1];
    assert_true(mv[a0].decisions == 3 && mv[a0].time_ms == 40 && mv[a0].max_ms == 30.25);
    assert_true(mv[a0].hist[2] == 2 && mv[a0].hist[STORE_MOVE_BINS - 1] == 1);
    assert_true(mv[a1].decisions == 5 && mv[a1].hist[0] == 5 && mv[a1].hist[2] == 0);
    store_forfeit *ff;
    size_t nf;
    assert_int_equal(store_forfeits(db, &ff, &nf), 0);
    assert_int_equal((int)nf, 1);
    assert_int_equal(ff[0].agent, a0);
    assert_int_equal(ff[0].game, s.games[2].id);
    assert_string_equal(ff[0].cause, "timeout");
    assert_string_equal(ff[0].message, "no answer, \"quoted\", within 10 ms");
    assert_string_equal(ff[0].log, "logs/x.jsonl");
    /* Its timeout's figures, cut to the microsecond as the log cuts them;
     * a figure not read (host pressure here) stays unread. */
    assert_true(ff[0].clock_column && ff[0].clock.set && ff[0].clock.mode == CLOCK_FAIR);
    assert_int_equal(ff[0].seat, 0);
    assert_true(ff[0].clock.allowance_ms == 10 && ff[0].clock.charged_ms == 12.345);
    assert_true(ff[0].clock.wall_ms == 40.25 && ff[0].clock.cpu_ms == 12.5);
    assert_true(ff[0].clock.wait_ms == 27.9 && ff[0].clock.wait_sum_ms == 30);
    assert_true(ff[0].clock.lag_ms == 0 && ff[0].clock.host_psi_ms == -1);
    store_forfeits_free(ff, nf);
    char first[40], last[40];
    double secs;
    assert_int_equal(store_span(db, first, last, sizeof first, &secs), 0);
    assert_true(first[0] && strcmp(first, last) == 0 && secs == 0);
    assert_int_equal(store_games(db, true, &all, &n), 0);
    assert_int_equal((int)n, 5);
    free(all);
    char **nm, **sp;
    int na;
    assert_int_equal(store_agents(db, &nm, &sp, &na), 0);
    assert_int_equal(na, 3);
    assert_string_equal(nm[2], "c");
    assert_string_equal(sp[2], "x");
    store_agents_free(nm, sp, na);
    store_close(db);
    schedule_free(&s);
    unlink(path);
    char side[sizeof path + 8];
    snprintf(side, sizeof side, "%s-wal", path);
    unlink(side);
    snprintf(side, sizeof side, "%s-shm", path);
    unlink(side);
}

/* Independent pairing: groups keep their seat rotation, every game has its
 * own seed (none shared with a duplicate group seed), deterministically. */
static void test_independent_pairing(void **st)
{
    (void)st;
    schedule_params p = {.n_agents = 3, .players = 2, .per_pairing = 4, .seed = 42};
    assert_int_equal(p.pairing, PAIRING_INDEPENDENT); /* the zero value, the default */
    schedule s, t, dup;
    char err[200];
    assert_int_equal(schedule_build(&p, &s, err, sizeof err), 0);
    assert_int_equal(schedule_build(&p, &t, err, sizeof err), 0);
    assert_memory_equal(s.games, t.games, s.n * sizeof(sched_game));
    p.pairing = PAIRING_DUPLICATE;
    assert_int_equal(schedule_build(&p, &dup, err, sizeof err), 0);
    assert_int_equal((int)s.n, (int)dup.n);
    for (size_t i = 0; i < s.n; i++) {
        for (size_t j = 0; j < i; j++)
            assert_true(s.games[i].seed != s.games[j].seed);
        for (size_t j = 0; j < dup.n; j++)
            assert_true(s.games[i].seed != dup.games[j].seed);
        /* Same groups and seats as duplicate pairing: only seeds differ. */
        assert_int_equal(s.games[i].group, dup.games[i].group);
        assert_memory_equal(s.games[i].seat, dup.games[i].seat, sizeof s.games[i].seat);
    }
    assert_string_equal(schedule_pairing_name(PAIRING_INDEPENDENT), "independent");
    tourn_pairing pp;
    assert_true(schedule_pairing_parse("duplicate", &pp) && pp == PAIRING_DUPLICATE);
    assert_false(schedule_pairing_parse("Duplicate", &pp));
    schedule_free(&s);
    schedule_free(&t);
    schedule_free(&dup);
}

static char *new_store(store **db)
{
    static char path[64];
    snprintf(path, sizeof path, "/tmp/arena-store-test-XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    char err[300];
    *db = store_open(path, true, err, sizeof err);
    assert_non_null(*db);
    schedule_params p = {.n_agents = 2, .players = 2, .per_pairing = 2, .seed = 5};
    schedule s;
    assert_int_equal(schedule_build(&p, &s, err, sizeof err), 0);
    char *names[] = {"a", "b"}, *specs[] = {"builtin:random", "builtin:random"};
    const char *meta[] = {"kind", "tournament", "game", "nim", NULL};
    assert_int_equal(store_init(*db, meta, names, specs, 2, &s, err, sizeof err), 0);
    schedule_free(&s);
    return path;
}

static void remove_store(const char *path)
{
    char side[128];
    unlink(path);
    snprintf(side, sizeof side, "%s-wal", path);
    unlink(side);
    snprintf(side, sizeof side, "%s-shm", path);
    unlink(side);
}

/* Two runs on one DB: the second store_lock fails until the first closes. */
static void test_store_lock(void **st)
{
    (void)st;
    store *a, *b;
    char *path = new_store(&a), err[300];
    assert_int_equal(store_lock(a, err, sizeof err), 0);
    b = store_open(path, false, err, sizeof err);
    assert_non_null(b);
    assert_int_equal(store_lock(b, err, sizeof err), -1);
    assert_non_null(strstr(err, "in use"));
    /* Reading still works (arena report does not lock). */
    tgame *g;
    size_t n;
    assert_int_equal(store_games(b, false, &g, &n), 0);
    free(g);
    store_close(a);
    assert_int_equal(store_lock(b, err, sizeof err), 0);
    store_close(b);
    assert_null(store_open("", false, err, sizeof err));
    assert_non_null(strstr(err, "empty"));
    remove_store(path);
}

/* A seat index past the agents (it would overflow the driver's pools). */
static void test_store_corrupt_row(void **st)
{
    (void)st;
    store *db;
    char *path = new_store(&db);
    tgame *g;
    size_t n;
    assert_int_equal(store_games(db, true, &g, &n), 0);
    free(g);
    tgame bad;
    memset(&bad, 0, sizeof bad);
    bad.s.id = 2;
    bad.s.players = 2;
    bad.rank[0] = 1;
    bad.rank[1] = 7; /* no 7th place at a 2-player table */
    strcpy(bad.reason, "normal");
    assert_int_equal(store_result(db, &bad, NULL), 1);
    assert_int_equal(store_games(db, false, &g, &n), -1);
    assert_non_null(strstr(store_error(db), "game 2"));
    assert_non_null(strstr(store_error(db), "corrupt: rank 7"));
    /* Pending rows only: game 2 is done, so the bad rank is not read. */
    assert_int_equal(store_games(db, true, &g, &n), 0);
    assert_int_equal((int)n, 1);
    free(g);
    sched_game extra = {.id = 3, .group = 2, .seed = 1, .players = 2, .seat = {0, 5}};
    assert_int_equal(store_append(db, &extra, 1), 0);
    assert_int_equal(store_games(db, true, &g, &n), -1);
    assert_non_null(strstr(store_error(db), "game 3 in the results file is corrupt: seat index 5"));
    /* Readers size tables by group and id: each stays in its schedule. */
    const int64_t places[][2] = {{4, 0}, {4, -1}, {4, 5}, {0, 1}, {0, 0}};
    for (size_t i = 0; i < sizeof places / sizeof *places; i++) {
        store_row r = {.id = places[i][0], .grp = places[i][1], .players = 2, .seats = "0,1"};
        char err[200];
        assert_int_equal(store_row_decode(&r, 2, &bad, err, sizeof err), -1);
        assert_non_null(strstr(err, "is not a place in its schedule"));
    }
    store_close(db);
    remove_store(path);
}

/* The text columns of a result, exactly, and the fault messages back per
 * seat. A message that is not valid UTF-8 (it may quote a bot) is kept,
 * repaired, at its own seat: once, such a message dropped out of the JSON
 * array and the next seat's message moved up to it. */
static void test_store_text_columns(void **st)
{
    (void)st;
    tgame g;
    memset(&g, 0, sizeof g);
    g.s.players = 2;
    g.s.seat[0] = 1;
    g.s.seat[1] = 0;
    g.rank[0] = 2;
    g.rank[1] = 1;
    g.score[0] = INT64_MIN;
    g.score[1] = INT64_MAX;
    strcpy(g.forfeit[0], "protocol");
    strcpy(g.forfeit[1], "timeout");
    g.time_ms[0] = 0.0005;
    g.time_ms[1] = 12.25;
    tgame_detail det;
    memset(&det, 0, sizeof det);
    det.decisions[0] = 0;
    det.decisions[1] = 1234567;
    det.move_max_ms[1] = 99.9999;
    det.move_hist[0][0] = 7;
    det.move_hist[1][STORE_MOVE_BINS - 1] = 12;
    strcpy(det.fault_msg[0], "bad frame near '\xff\xfe' \x01"); /* raw bytes */
    strcpy(det.fault_msg[1], "no answer, \"quoted\" \\ within\n10 ms");
    det.clock[1] = (clock_evidence){.set = true,
                                    .mode = CLOCK_WALL,
                                    .allowance_ms = 1000,
                                    .charged_ms = 1000.0009,
                                    .wall_ms = 1003.5,
                                    .cpu_ms = -1,
                                    .wait_ms = 7, /* not the wall clock's: null */
                                    .wait_sum_ms = -1,
                                    .lag_ms = 3.4999,
                                    .host_psi_ms = 0};
    g.detail = &det;
    store_enc e = {0};
    store_enc_result(&g, &e);
    assert_string_equal((char *)e.ranks.data, "2,1");
    assert_string_equal((char *)e.scores.data, "-9223372036854775808,9223372036854775807");
    assert_string_equal((char *)e.forfeits.data, "protocol,timeout");
    assert_string_equal((char *)e.time_ms.data, "0.001,12.250");
    assert_string_equal((char *)e.dec.data, "0,1234567");
    assert_string_equal((char *)e.max.data, "0.000,100.000");
    char hist[200] = "7";
    for (int b = 1; b < STORE_MOVE_BINS; b++)
        strcat(hist, " 0");
    strcat(hist, ";0");
    for (int b = 1; b < STORE_MOVE_BINS - 1; b++)
        strcat(hist, " 0");
    strcat(hist, " 12");
    assert_string_equal((char *)e.hist.data, hist);

    store_forfeit *ff = NULL;
    size_t n = 0, cap = 0;
    assert_string_equal(e.clocks, "[null,{\"mode\":\"wall\",\"allowance_ms\":1000.000,"
                                  "\"charged_ms\":1000.000,\"wall_ms\":1003.500,\"cpu_ms\":null,"
                                  "\"wait_ms\":null,\"wait_sum_ms\":null,\"lag_ms\":3.499,"
                                  "\"host_psi_ms\":0.000}]");
    char err[300];
    assert_int_equal(store_forfeits_add(&ff, &n, &cap, 2, 9, "1,0", (char *)e.forfeits.data, e.msgs,
                                        e.clocks, NULL, err, sizeof err),
                     0);
    assert_int_equal((int)n, 2);
    assert_false(ff[0].clock.set);
    assert_true(ff[1].clock.set && ff[1].clock.mode == CLOCK_WALL && ff[1].clock.lag_ms == 3.499);
    assert_true(ff[1].clock.cpu_ms == -1 && ff[1].clock.wait_ms == -1 && ff[1].seat == 1);
    assert_int_equal(ff[0].agent, 1);
    assert_string_equal(ff[0].cause, "protocol");
    assert_non_null(strstr(ff[0].message, "bad frame near"));
    assert_non_null(strstr(ff[0].message, "\xef\xbf\xbd")); /* U+FFFD */
    assert_int_equal(ff[1].agent, 0);
    assert_string_equal(ff[1].cause, "timeout");
    assert_string_equal(ff[1].message, "no answer, \"quoted\" \\ within\n10 ms");
    store_forfeits_free(ff, n);

    g.detail = NULL; /* no detail: empty columns, still text */
    store_enc_free(&e);
    store_enc_result(&g, &e);
    assert_false(e.detail);
    assert_string_equal((char *)e.dec.data ? (char *)e.dec.data : "", "");
    assert_null(e.msgs);
    store_enc_free(&e);
}

/* The millisecond columns (time_ms, move_max_ms) are formatted without
 * printf: each must be the text printf's "%.3f" gives, byte for byte, for
 * any double, ties to even, signs, subnormals, and the values sent on to
 * printf (huge, infinite, NaN) included. */
static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;
static uint64_t rng(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static double any_double(int kind)
{
    uint64_t r = rng();
    double v;
    switch (kind) {
    case 0: /* any bit pattern */ memcpy(&v, &r, sizeof v); return v;
    case 1: /* a clock time in ms */ return (double)(r % 100000000) / 1e4;
    case 2: /* a tie in binary: k/8000 */ return (double)(r % 8000000) / 8000.0;
    case 3: /* around the printf cut-over */
        return ldexp((double)(r >> 11), (int)(rng() % 120) - 100);
    default: /* a ms value and its neighbours */
        v = (double)(r % 1000000) / 1000.0 + 0.0005;
        return rng() & 1 ? nextafter(v, 0) : nextafter(v, 1e9);
    }
}

static void test_store_ms_text(void **st)
{
    (void)st;
    const double fixed[] = {0.0,      -0.0,
                            0.0005,   0.0015,
                            0.0025,   0.0625,
                            0.1875,   -0.0625,
                            -0.0001,  99.9999,
                            1e15,     nextafter(1e15, 0),
                            -1e15,    9.999999999999999e14,
                            1e300,    -1e308,
                            4.9e-324, 2.2250738585072014e-308,
                            HUGE_VAL, -HUGE_VAL,
                            NAN,      4503599627370495.5,
                            0.9995,   1.0005};
    store_enc e = {0};
    tgame g;
    memset(&g, 0, sizeof g);
    g.s.players = 2;
    tgame_detail det;
    memset(&det, 0, sizeof det);
    g.detail = &det;
    size_t n_fixed = sizeof fixed / sizeof *fixed;
    for (size_t i = 0; i < n_fixed + 400000; i++) {
        for (int k = 0; k < 2; k++) {
            double v = i < n_fixed ? (k ? -fixed[i] : fixed[i]) : any_double((int)(rng() % 5));
            g.time_ms[k] = v;
            det.move_max_ms[k] = -v;
        }
        store_enc_result(&g, &e);
        char want[1000];
        snprintf(want, sizeof want, "%.3f,%.3f", g.time_ms[0], g.time_ms[1]);
        if (strcmp(want, (char *)e.time_ms.data) != 0)
            fail_msg("time_ms %a,%a: '%s', printf '%s'", g.time_ms[0], g.time_ms[1],
                     (char *)e.time_ms.data, want);
        snprintf(want, sizeof want, "%.3f,%.3f", det.move_max_ms[0], det.move_max_ms[1]);
        if (strcmp(want, (char *)e.max.data) != 0)
            fail_msg("move_max_ms %a,%a: '%s', printf '%s'", det.move_max_ms[0], det.move_max_ms[1],
                     (char *)e.max.data, want);
    }
    store_enc_free(&e);
}

/* A store_enc reused for the next result holds only that one: nothing of a
 * longer or detailed result before it is left in any column. */
static void test_store_enc_reused(void **st)
{
    (void)st;
    tgame g;
    memset(&g, 0, sizeof g);
    g.s.players = 3;
    for (int k = 0; k < 3; k++) {
        g.rank[k] = k + 1;
        g.score[k] = 1000000 * (k + 1);
        g.time_ms[k] = 1234.5678;
        strcpy(g.forfeit[k], "timeout");
    }
    tgame_detail det;
    memset(&det, 0, sizeof det);
    det.decisions[2] = 99;
    strcpy(det.fault_msg[1], "a long fault message");
    g.detail = &det;
    store_enc e = {0};
    store_enc_result(&g, &e);
    assert_string_equal((char *)e.ranks.data, "1,2,3");
    assert_string_equal(e.msgs, "[\"\",\"a long fault message\",\"\"]");

    memset(&g, 0, sizeof g);
    g.s.players = 2;
    g.rank[0] = 1;
    g.rank[1] = 1;
    store_enc_result(&g, &e); /* shorter, no detail */
    assert_string_equal((char *)e.ranks.data, "1,1");
    assert_string_equal((char *)e.scores.data, "0,0");
    assert_string_equal((char *)e.forfeits.data, ",");
    assert_string_equal((char *)e.time_ms.data, "0.000,0.000");
    assert_false(e.detail);
    assert_null(e.msgs);
    assert_string_equal((char *)e.dec.data, "");
    assert_string_equal((char *)e.max.data, "");
    assert_string_equal((char *)e.hist.data, "");

    g.detail = &det; /* and detailed again */
    memset(&det, 0, sizeof det);
    store_enc_result(&g, &e);
    assert_string_equal((char *)e.dec.data, "0,0");
    assert_string_equal(e.msgs, "[\"\",\"\"]");
    store_enc_free(&e);
    assert_null(e.ranks.data);
    assert_null(e.msgs);
}

/* finished_at is written by the store, not by SQL: it must still be the
 * text SQLite's strftime('%Y-%m-%dT%H:%M:%fZ') writes (the reports and
 * bench/scale parse it, store_span takes julianday of it), in UTC, now. */
static void test_store_finished_at(void **st)
{
    (void)st;
    char path[] = "/tmp/arena-store-test-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    char err[300];
    store *db = store_open(path, true, err, sizeof err);
    assert_non_null(db);
    schedule_params p = {.n_agents = 2, .players = 2, .per_pairing = 4, .seed = 3};
    schedule s;
    assert_int_equal(schedule_build(&p, &s, err, sizeof err), 0);
    char *names[] = {"a", "b"}, *specs[] = {"builtin:random", "builtin:random"};
    const char *meta[] = {"kind", "tournament", NULL};
    assert_int_equal(store_init(db, meta, names, specs, 2, &s, err, sizeof err), 0);
    for (size_t i = 0; i < s.n; i++) {
        tgame g;
        memset(&g, 0, sizeof g);
        g.s = s.games[i];
        g.rank[0] = 1;
        g.rank[1] = 2;
        strcpy(g.reason, "normal");
        assert_int_equal(store_result(db, &g, NULL), 1);
        if (i == 1) usleep(2000); /* results in different milliseconds too */
    }
    store_close(db);
    sqlite3 *q;
    assert_int_equal(sqlite3_open(path, &q), SQLITE_OK);
    sqlite3_stmt *stmt;
    assert_int_equal(
        sqlite3_prepare_v2(q,
                           "SELECT finished_at, strftime('%Y-%m-%dT%H:%M:%fZ', finished_at),"
                           " (julianday('now') - julianday(finished_at)) * 86400 FROM games",
                           -1, &stmt, NULL),
        SQLITE_OK);
    int rows = 0;
    while (sqlite3_step(stmt) == SQLITE_ROW) {
        const char *at = (const char *)sqlite3_column_text(stmt, 0);
        assert_non_null(at);
        assert_int_equal(strlen(at), 24);
        assert_string_equal(at, (const char *)sqlite3_column_text(stmt, 1));
        double age = sqlite3_column_double(stmt, 2);
        assert_true(age >= -1 && age < 600); /* now, in UTC: not hours off */
        rows++;
    }
    assert_int_equal(rows, (int)s.n);
    sqlite3_finalize(stmt);
    sqlite3_close(q);
    schedule_free(&s);
    unlink(path);
    char side[sizeof path + 8];
    snprintf(side, sizeof side, "%s-wal", path);
    unlink(side);
    snprintf(side, sizeof side, "%s-shm", path);
    unlink(side);
}

/* The report reads the move columns back (store_moves_add) with its own
 * number parsing: each value must come back as strtod/strtol read it from
 * the text, for what the store writes (random results through the real
 * encoder) and for text it does not write but an edited file may hold. */
static void test_store_moves_parse(void **st)
{
    (void)st;
    store_moves got[2], want[2];
    memset(got, 0, sizeof got);
    memset(want, 0, sizeof want);
    store_enc e = {0};
    tgame g;
    memset(&g, 0, sizeof g);
    g.s.players = 2;
    g.s.seat[0] = 1;
    g.s.seat[1] = 0;
    tgame_detail det;
    memset(&det, 0, sizeof det);
    g.detail = &det;
    /* One game at a time: a sum would hide a value read one ulp off. */
    for (int i = 0; i < 20000; i++) {
        memset(got, 0, sizeof got);
        memset(want, 0, sizeof want);
        for (int k = 0; k < 2; k++) {
            uint64_t r = rng();
            det.decisions[k] = (long)(r % 5 == 0 ? rng() % 100000000000LL : r % 300);
            g.time_ms[k] = r % 7 == 0 ? any_double(3) : any_double(1);
            det.move_max_ms[k] = any_double((int)(rng() % 5));
            for (int b = 0; b < STORE_MOVE_BINS; b++)
                det.move_hist[k][b] = rng() % 3 ? (int)(rng() % 40) : (int)(rng() % 2000000000);
            store_moves *w = &want[g.s.seat[k]];
            char txt[400];
            w->decisions += (double)det.decisions[k];
            snprintf(txt, sizeof txt, "%.3f", g.time_ms[k]);
            w->time_ms += strtod(txt, NULL);
            snprintf(txt, sizeof txt, "%.3f", det.move_max_ms[k]);
            double x = strtod(txt, NULL);
            if (x > w->max_ms) w->max_ms = x;
            for (int b = 0; b < STORE_MOVE_BINS; b++)
                if (det.move_hist[k][b] > 0) w->hist[b] += det.move_hist[k][b];
        }
        store_enc_result(&g, &e);
        store_moves_add(got, 2, "1,0", (char *)e.dec.data, (char *)e.time_ms.data,
                        (char *)e.max.data, (char *)e.hist.data);
        for (int a = 0; a < 2; a++) {
            if (got[a].time_ms != want[a].time_ms || got[a].max_ms != want[a].max_ms ||
                got[a].decisions != want[a].decisions)
                fail_msg("'%s' '%s' '%s': read %a %a %a", (char *)e.dec.data,
                         (char *)e.time_ms.data, (char *)e.max.data, got[a].decisions,
                         got[a].time_ms, got[a].max_ms);
            for (int b = 0; b < STORE_MOVE_BINS; b++)
                assert_true(got[a].hist[b] == want[a].hist[b]);
        }
    }
    store_enc_free(&e);
    /* Text the store does not write: read as strtod/strtol read it. */
    const char *odd[] = {"1e3",     " 5",      "+2.5",
                         "0x10",    "inf",     "-7.25",
                         "1.",      "1.2345",  "12345678901234567",
                         "0.1e-2",  "3.5.1",   "nan",
                         "",        "x",       "123456789012.125",
                         "9.99999", "0000012", "1234567890123456"};
    for (size_t i = 0; i < sizeof odd / sizeof *odd; i++) {
        memset(got, 0, sizeof got);
        char hist[80];
        snprintf(hist, sizeof hist, "%s 3", odd[i]);
        store_moves_add(got, 1, "0", odd[i], odd[i], odd[i], hist);
        double v = strtod(odd[i], NULL);
        char *end;
        long c = strtol(hist, &end, 10);
        if (!(got[0].decisions == v || (isnan(v) && isnan(got[0].decisions))))
            fail_msg("'%s': decisions %a, strtod %a", odd[i], got[0].decisions, v);
        if (!(got[0].time_ms == v || (isnan(v) && isnan(got[0].time_ms))))
            fail_msg("'%s': time %a, strtod %a", odd[i], got[0].time_ms, v);
        assert_true(got[0].max_ms == (v > 0 ? v : 0));
        /* The first bin is what strtol takes from the text, if positive. */
        if (got[0].hist[0] != (end == hist ? 0 : c > 0 ? (double)c : 0))
            fail_msg("'%s': first bin %g, strtol %ld", hist, got[0].hist[0], c);
    }
}

/* A stored row read back (store_row_decode, which --resume and the reports
 * use) has every number the encoder wrote: scores over the whole int64
 * range, ranks, seats, and times as strtod reads the "%.3f" text; and text
 * the store does not write is read as strtoll would. */
static void test_store_row_numbers(void **st)
{
    (void)st;
    store_enc e = {0};
    abuf seats = {0};
    for (int i = 0; i < 20000; i++) {
        tgame g;
        memset(&g, 0, sizeof g);
        g.s.id = i + 1;
        g.s.players = 2 + (int)(rng() % (RANKED_MAX - 1));
        for (int k = 0; k < g.s.players; k++) {
            g.s.seat[k] = (k + i) % RANKED_MAX;
            g.rank[k] = 1 + (int)(rng() % (uint64_t)g.s.players);
            uint64_t r = rng();
            g.score[k] = r % 4 == 0   ? (int64_t)rng()
                         : r % 4 == 1 ? (r & 1 ? INT64_MIN : INT64_MAX)
                                      : (int64_t)(rng() % 2001) - 1000;
            g.time_ms[k] = any_double((int)(rng() % 5));
        }
        strcpy(g.reason, "normal");
        store_enc_result(&g, &e);
        seats.len = 0;
        store_enc_seats(&g.s, &seats);
        store_row r = {.id = g.s.id,
                       .grp = 1,
                       .players = g.s.players,
                       .seats = (char *)seats.data,
                       .done = true,
                       .ranks = (char *)e.ranks.data,
                       .scores = (char *)e.scores.data,
                       .reason = g.reason,
                       .forfeits = (char *)e.forfeits.data,
                       .time_ms = (char *)e.time_ms.data};
        tgame back;
        char err[200];
        /* A time no clock measures (negative, past 1e15, NaN) makes the
         * row corrupt; every other one reads back as strtod reads it. */
        bool clock_ok = true;
        for (int k = 0; k < g.s.players; k++) {
            char txt[400];
            snprintf(txt, sizeof txt, "%.3f", g.time_ms[k]);
            double v = strtod(txt, NULL);
            clock_ok = clock_ok && v >= 0 && v < 1e15;
        }
        if (!clock_ok) {
            assert_int_equal(store_row_decode(&r, RANKED_MAX, &back, err, sizeof err), -1);
            assert_non_null(strstr(err, "corrupt: a clock time"));
            continue;
        }
        assert_int_equal(store_row_decode(&r, RANKED_MAX, &back, err, sizeof err), 0);
        for (int k = 0; k < g.s.players; k++) {
            assert_int_equal(back.s.seat[k], g.s.seat[k]);
            assert_int_equal(back.rank[k], g.rank[k]);
            if (back.score[k] != g.score[k])
                fail_msg("score '%s' read as %lld", r.scores, (long long)back.score[k]);
            char txt[400];
            snprintf(txt, sizeof txt, "%.3f", g.time_ms[k]);
            double want = strtod(txt, NULL);
            if (!(back.time_ms[k] == want || (isnan(want) && isnan(back.time_ms[k]))))
                fail_msg("time '%s' read as %a, strtod %a", txt, back.time_ms[k], want);
        }
        assert_string_equal(back.reason, "normal");
    }
    store_enc_free(&e);
    abuf_free(&seats);
    const char *odd[] = {"-",
                         "+5,3",
                         " 7,1",
                         "-0,0",
                         "12x,4",
                         "99999999999999999999,1",
                         "-99999999999999999999,1",
                         "123456789012345678,1",
                         "1234567890123456789,1",
                         "-9223372036854775808,9223372036854775807",
                         "5,,6",
                         "0x10,2"};
    for (size_t i = 0; i < sizeof odd / sizeof *odd; i++) {
        store_row r = {.id = 1,
                       .grp = 1,
                       .players = 2,
                       .seats = "0,1",
                       .done = true,
                       .ranks = "1,2",
                       .scores = odd[i],
                       .reason = "a reason longer than its column"};
        tgame back;
        char err[200];
        assert_int_equal(store_row_decode(&r, 2, &back, err, sizeof err), 0);
        char *end;
        long long want = strtoll(odd[i], &end, 10);
        if (back.score[0] != want)
            fail_msg("'%s': first score %lld, strtoll %lld", odd[i], (long long)back.score[0],
                     want);
        long long want2 = *end == ',' ? strtoll(end + 1, NULL, 10) : 0;
        if (back.score[1] != want2)
            fail_msg("'%s': second score %lld, strtoll %lld", odd[i], (long long)back.score[1],
                     want2);
        assert_string_equal(back.reason, "a reason longer"); /* cut to the column, as before */
    }
}

/* A crafted timeout_clocks column is refused with a reason, never read
 * past its seats nor taken for figures it does not hold. */
static void test_store_clocks_refused(void **st)
{
    (void)st;
    static const char *const bad[] = {
        "",
        "{}",
        "[null]",           /* one seat of two */
        "[null,null,null]", /* three */
        "[null,7]",         /* neither null nor a map */
        "[null,{}]",        /* no mode */
        "[null,{\"mode\":\"sundial\",\"allowance_ms\":1,\"charged_ms\":1,\"wall_ms\":1,"
        "\"lag_ms\":0}]",
        "[null,{\"mode\":\"wall\",\"allowance_ms\":1,\"charged_ms\":1,\"lag_ms\":0}]",
        "[null,{\"mode\":\"wall\",\"allowance_ms\":1,\"charged_ms\":-1,\"wall_ms\":1,"
        "\"lag_ms\":0}]",
        "[null,{\"mode\":\"wall\",\"allowance_ms\":1,\"charged_ms\":1e300,\"wall_ms\":1,"
        "\"lag_ms\":0}]",
        "[null,{\"mode\":\"wall\",\"allowance_ms\":\"1\",\"charged_ms\":1,\"wall_ms\":1,"
        "\"lag_ms\":0}]",
        "[null,{\"mode\":\"fair\",\"allowance_ms\":1,\"charged_ms\":1,\"wall_ms\":1,"
        "\"lag_ms\":0}]", /* fair without its wait */
        "[null,{\"mode\":\"wall\",\"mode\":\"cpu\",\"allowance_ms\":1,\"charged_ms\":1,"
        "\"wall_ms\":1,\"lag_ms\":0}]", /* a key twice */
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        store_forfeit *ff = NULL;
        size_t n = 0, cap = 0;
        char err[300] = "";
        int rc = store_forfeits_add(&ff, &n, &cap, 2, 9, "1,0", "protocol,timeout", NULL, bad[i],
                                    NULL, err, sizeof err);
        if (rc != -1) fail_msg("taken: %s", bad[i]);
        assert_non_null(strstr(err, "game 9 in the results file is corrupt"));
        store_forfeits_free(ff, n);
    }
    /* What the store writes is taken; a NULL column is no figures. Figures
     * on a forfeit of another cause stay with it, for the audit to name. */
    const char *good =
        "[{\"mode\":\"wall\",\"allowance_ms\":1,\"charged_ms\":1,"
        "\"wall_ms\":1,\"lag_ms\":0},{\"mode\":\"cpu\",\"allowance_ms\":5,\"charged_ms\":5.5,"
        "\"wall_ms\":9,\"cpu_ms\":5.5,\"wait_ms\":null,\"lag_ms\":0}]";
    for (int k = 0; k < 2; k++) {
        store_forfeit *ff = NULL;
        size_t n = 0, cap = 0;
        char err[300] = "";
        assert_int_equal(store_forfeits_add(&ff, &n, &cap, 2, 9, "1,0", "protocol,timeout", NULL,
                                            k ? good : NULL, NULL, err, sizeof err),
                         0);
        assert_int_equal((int)n, 2);
        assert_true(ff[1].clock.set == (k == 1) && ff[1].clock_column == (k == 1));
        assert_true(!k || (ff[1].clock.mode == CLOCK_CPU && ff[1].clock.host_psi_ms == -1));
        assert_true(ff[0].clock.set == (k == 1) && strcmp(ff[0].cause, "protocol") == 0);
        store_forfeits_free(ff, n);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_robin_pairs),    cmocka_unit_test(test_gauntlet),
        cmocka_unit_test(test_multiplayer_balanced), cmocka_unit_test(test_store_roundtrip),
        cmocka_unit_test(test_independent_pairing),  cmocka_unit_test(test_store_lock),
        cmocka_unit_test(test_store_corrupt_row),    cmocka_unit_test(test_store_text_columns),
        cmocka_unit_test(test_store_ms_text),        cmocka_unit_test(test_store_enc_reused),
        cmocka_unit_test(test_store_finished_at),    cmocka_unit_test(test_store_moves_parse),
        cmocka_unit_test(test_store_row_numbers),    cmocka_unit_test(test_store_clocks_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
