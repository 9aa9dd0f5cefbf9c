/* libFuzzer target: the store's row decoding, as both backends read a game
 * back (store_row_decode, which report, audit and --resume rely on), and
 * the move and forfeit columns the reports read, on a row from anyone. The
 * SQL itself is SQLite's or PostgreSQL's; what is Arena's is the text of
 * the columns, so the input is a row's columns, one a line:
 *   1  "ID GRP SEED PLAYERS DONE TURNS WALL_MS N_AGENTS" (numbers)
 *   2  seats   3 ranks   4 scores   5 reason   6 forfeits   7 time_ms
 *   8  decisions   9 move_max_ms   10 move_hist   11 fault_msgs   12 log
 *   13 timeout_clocks
 * a missing line being SQL NULL. Besides no crash, no leak and no UB: a row
 * that decodes keeps every promise of store.h (seats and ranks in range,
 * 1 <= group <= id, turns and clock times in range), and encodes to columns
 * that decode to the same game; timeout figures that are taken are times
 * (finite, not negative) and encode to the same text they decode from
 * once encoded.
 *
 * usage: tests/fuzz/run-libfuzzer.sh SECONDS BUILD_DIR fuzz-store-row */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_tally.h"
#include "store_impl.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

const char fuzz_target_name[] = "fuzz-store-row";

enum { COLS = 13 };

static void broken(const char *what, int64_t id)
{
    fprintf(stderr, "fuzz-store-row: game %lld decoded but %s\n", (long long)id, what);
    abort();
}

static void check_promises(const tgame *g, int n_agents)
{
    if (g->s.players < 2 || g->s.players > RANKED_MAX) broken("its player count", g->s.id);
    if (g->s.id < 1 || g->s.group < 1 || g->s.group > g->s.id) broken("its group", g->s.id);
    for (int i = 0; i < g->s.players; i++) {
        if (g->s.seat[i] < 0 || g->s.seat[i] >= n_agents) broken("a seat", g->s.id);
        if (g->done && (g->rank[i] < 1 || g->rank[i] > g->s.players)) broken("a rank", g->s.id);
        if (g->done && !(g->time_ms[i] >= 0 && g->time_ms[i] < 1e15))
            broken("a clock time", g->s.id);
    }
    if (g->done && (g->turns < 0 || g->turns > STORE_MAX_TURNS)) broken("its turns", g->s.id);
}

/* The game encoded as the store writes it decodes to the same game. */
static void round_trip(const tgame *g, int n_agents)
{
    store_enc e = {0};
    abuf seats = {0};
    store_enc_result(g, &e);
    store_enc_seats(&g->s, &seats);
    store_row r = {.id = g->s.id,
                   .grp = g->s.group,
                   .seed = (int64_t)g->s.seed,
                   .players = g->s.players,
                   .seats = (char *)seats.data,
                   .done = g->done,
                   .ranks = (char *)e.ranks.data,
                   .scores = (char *)e.scores.data,
                   .reason = g->reason,
                   .forfeits = (char *)e.forfeits.data,
                   .turns = g->turns,
                   .time_ms = (char *)e.time_ms.data,
                   .wall_ms = g->wall_ms};
    tgame back;
    char err[300];
    if (store_row_decode(&r, n_agents, &back, err, sizeof err) != 0) {
        fprintf(stderr, "fuzz-store-row: a decoded game, encoded, is refused: %s\n", err);
        abort();
    }
    bool same = back.s.players == g->s.players && back.done == g->done && back.turns == g->turns &&
                strcmp(back.reason, g->reason) == 0;
    for (int i = 0; same && i < g->s.players; i++) {
        char a[400], b[400];
        snprintf(a, sizeof a, "%.3f", g->time_ms[i]);
        snprintf(b, sizeof b, "%.3f", back.time_ms[i]);
        same = back.s.seat[i] == g->s.seat[i] &&
               (!g->done || (back.rank[i] == g->rank[i] && back.score[i] == g->score[i] &&
                             strcmp(back.forfeit[i], g->forfeit[i]) == 0 && strcmp(a, b) == 0));
    }
    if (!same) broken("reads back otherwise once encoded", g->s.id);
    store_enc_free(&e);
    abuf_free(&seats);
}

static bool is_time(double ms)
{
    return ms >= 0 && ms < 1e15;
}

/* Figures taken are a timeout forfeit's, times or unread (-1), and the
 * store's own text for them reads back the same. */
static void check_clocks(const store_forfeit *ff, size_t n, const char *column)
{
    for (size_t i = 0; i < n; i++) {
        const clock_evidence *e = &ff[i].clock;
        if (!e->set) continue;
        if (!column) broken("has figures without their column", ff[i].game);
        const double need[] = {e->allowance_ms, e->charged_ms, e->wall_ms, e->lag_ms};
        const double opt[] = {e->cpu_ms, e->wait_ms, e->wait_sum_ms, e->host_psi_ms};
        for (int k = 0; k < 4; k++)
            if (!is_time(need[k]) || !(is_time(opt[k]) || opt[k] == -1))
                broken("has a timeout figure that is not a time", ff[i].game);
        abuf once = {0}, twice = {0};
        clock_evidence back[1];
        char why[200];
        store_clocks_encode(&once, e, 1);
        if (store_clocks_decode((char *)once.data, 1, back, why, sizeof why) != 0)
            broken("has timeout figures that, encoded, are refused", ff[i].game);
        store_clocks_encode(&twice, back, 1);
        if (strcmp((char *)once.data, (char *)twice.data) != 0)
            broken("has timeout figures that read back otherwise once encoded", ff[i].game);
        abuf_free(&once);
        abuf_free(&twice);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text) abort();
    memcpy(text, data, size);
    text[size] = '\0';
    const char *col[COLS + 1] = {0};
    int n = 0;
    for (char *p = text; p && n <= COLS;) {
        col[n++] = p;
        p = strchr(p, '\n');
        if (p) *p++ = '\0';
    }
    /* strtoll and strtod saturate where sscanf's overflow is undefined. */
    long long num[8] = {0};
    double wall = 0;
    const char *p = col[0];
    for (int i = 0; p && *p && i < 8; i++) {
        char *end;
        if (i == 6)
            wall = strtod(p, &end);
        else
            num[i] = strtoll(p, &end, 10);
        if (end == p) break;
        p = end;
    }
    long long id = num[0], grp = num[1], seed = num[2], players = num[3], done = num[4],
              turns = num[5], agents = num[7];
    int n_agents = agents < 0 ? 0 : agents > 64 ? 64 : (int)agents;
    store_row r = {.id = id,
                   .grp = grp,
                   .seed = seed,
                   .players = (int)players,
                   .seats = col[1],
                   .done = done != 0,
                   .ranks = col[2],
                   .scores = col[3],
                   .reason = col[4],
                   .forfeits = col[5],
                   .turns = (int)turns,
                   .time_ms = col[6],
                   .wall_ms = wall};
    tgame g;
    char err[300];
    if (store_row_decode(&r, n_agents, &g, err, sizeof err) == 0) {
        fuzz_taken++;
        check_promises(&g, n_agents);
        round_trip(&g, n_agents);
    } else {
        fuzz_refused++;
    }
    /* The columns the reports read beside the game (any row's text). */
    store_moves moves[65];
    memset(moves, 0, sizeof moves);
    store_moves_add(moves, n_agents, col[1] ? col[1] : "", col[7], col[6], col[8], col[9]);
    store_forfeit *ff = NULL;
    size_t nf = 0, cap = 0;
    if (store_forfeits_add(&ff, &nf, &cap, n_agents, id, col[1] ? col[1] : "", col[5], col[10],
                           col[12], col[11], err, sizeof err) == 0)
        check_clocks(ff, nf, col[12]);
    store_forfeits_free(ff, nf);
    free(text);
    return 0;
}
