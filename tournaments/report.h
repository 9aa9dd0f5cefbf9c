/* Everything a tournament report shows, computed once from the store and
 * rendered as text, JSON or HTML. */
#ifndef ARENA_REPORT_H
#define ARENA_REPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "elo.h"
#include "ranked.h"
#include "stats.h"
#include "store.h"
#include "value.h"

#define REPORT_CAUSES 5 /* timeout, illegal, crash, protocol, other */
extern const char *const report_cause_names[REPORT_CAUSES];

typedef struct report_pair {
    int a, b; /* a < b; statistics from a's point of view */
    double wdl[3];
    double penta[5];
    h2h tri, pen;
} report_pair;

/* An SPRT run (kind "sprt"): its settings, verdict and LLR over the pairs. */
typedef struct report_sprt {
    bool on;
    double elo0, elo1, alpha, beta;
    sprt_bounds b;
    char *result;  /* stored: H1 | H0 | inconclusive; NULL while running or stopped */
    int decided;   /* counted again from the games (sprt_count.h): 1 H1, -1 H0, 0 */
    double llr;    /* at the decision, else after the pairs counted */
    double *trace; /* LLR after each counted pair, in schedule order */
    int64_t n_trace;
} report_sprt;

/* Per agent: per-move times against the move budget. */
typedef struct report_moves {
    double moves, mean_ms, max_ms;
    double p95_ms; /* a bound on the 95th percentile: the upper edge of the 5 %-of-budget
                      step holding it, or the longest move when shorter; < 0 unknown */
    bool p95_over; /* the 95th percentile is over the budget */
    double over90; /* moves over 90 % of the budget (-1: unknown) */
} report_moves;

/* Per agent: its timeout forfeits and what their stored figures show. */
typedef struct report_timeouts {
    int64_t forfeits;     /* games it forfeited on time */
    int64_t with_figures; /* of them, those whose figures are stored */
    int64_t borne_out;    /* of those, figures that give the verdict (clock_evidence_holds) */
    double max_over_ms;   /* the most charged past the allowance; 0 when none */
} report_timeouts;

/* The tolerance a stored timeout's figures are checked with: they are cut
 * to the microsecond, each of them (as `arena audit` checks a log's). */
#define REPORT_CLOCK_TOLERANCE_MS 0.01

typedef struct report {
    char *kind, *game, *format, *seed;
    char *pairing;    /* duplicate | independent */
    char *stop;       /* the stop rule ("none"), NULL before stopping existed */
    char *stopped;    /* why the run stopped early, NULL if it did not */
    char *stopped_at; /* HH:MM (UTC) of the stop */
    int players;
    int n;
    char **names, **specs;
    int64_t scheduled, finished;
    int64_t *games;    /* per agent */
    double *draws;     /* per agent: pairwise draws */
    int64_t *forfeits; /* n * REPORT_CAUSES */
    elo_data pw;       /* pairwise tallies (crosstable) */
    elo_fit fit;
    rating_model model; /* plackett-luce when any game had 3+ players */
    double prior;
    int anchor;
    report_pair *pairs; /* 2-player games only: every pair that met */
    int n_pairs;
    int *turns; /* per finished game */
    int64_t n_turns;
    double wall_ms_total;
    int *turn_pair; /* per finished game: its report_pair, -1 for 3+ players */
    report_sprt sprt;
    /* The run: its stored settings (flags, agents left out), first and
     * last result, the move budget, per-move times, seat advantage. */
    char *settings;
    char *created; /* when the run was set up (ISO UTC), NULL if unknown */
    char first_result[40], last_result[40];
    double duration_s;
    double move_budget_ms; /* 0: unknown */
    report_moves *moves;   /* per agent */
    double *wld;           /* per agent: pairwise wins, losses, draws (n * 3) */
    double seat_points[RANKED_MAX], seat_games[RANKED_MAX]; /* pairwise, by seat */
    store_forfeit *forfeit_list;
    size_t n_forfeit_list;
    report_timeouts *timeouts; /* per agent */
    store_worker *workers;     /* hosts that played (PostgreSQL), names masked */
    size_t n_workers;
} report;

/* Whether a game counts in the report's ratings: finished, every seat one
 * of agents 0..n-1. */
bool report_rated(const tgame *x, int n);
/* The report's fit of rated games g (pw: their pairwise tallies): the model
 * rating_model_default picks, prior/anchor as below. Returns the model. */
rating_model report_fit(const ranked_game *g, size_t n_games, const elo_data *pw, double prior,
                        int anchor, elo_fit *f);

/* Loads and computes. prior/anchor as for elo_fit_compute (anchor by name,
 * NULL for mean 0). Returns 0, or -1 with err. */
int report_load(store *s, double prior, const char *anchor, report *r, char *err, size_t errlen);
void report_free(report *r);
/* "stopped early: WHY after N of M games (at HH:MM)" into buf, or "" when
 * the run did not stop early. */
void report_stop_text(const report *r, char *buf, size_t len);
/* Shortest, median and longest game of a pairing (pair -1: every game);
 * false when it has none. */
bool report_lengths(const report *r, int pair, int *min, int *median, int *max);
/* The first seat's score against the others, its 95 % half-width, and the
 * games it rests on (0 when none). */
void report_seat_advantage(const report *r, double *score, double *error, double *games);
/* "H1 accepted" / "H0 accepted" / "inconclusive" / "running". */
const char *report_sprt_verdict(const report *r);
/* One sentence naming the rating model, for the text and HTML reports. */
const char *report_model_text(const report *r);

/* Whether a timeout forfeit's stored figures give its verdict; false
 * without figures. */
bool report_timeout_borne_out(const store_forfeit *f);

/* Decimals to print a time in ms with: 3 below 1 ms, 1 below 10, else 0. */
int report_ms_decimals(double ms);

void report_text(const report *r, FILE *out);
av *report_json(const report *r);
/* The HTML page, written into page_dir (report_page_dir): the DB's path
 * finds the forfeited games' viewers (report_link.h). */
void report_html(const report *r, const char *db, const char *page_dir, FILE *out);

#endif
