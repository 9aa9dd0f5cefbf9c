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
    char *result;  /* H1 | H0 | inconclusive; NULL while running or stopped */
    double llr;    /* the decision's (stored), else over every complete pair */
    double *trace; /* LLR after each complete pair, in schedule order */
    int64_t n_trace;
} report_sprt;

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
    report_sprt sprt;
} report;

/* Loads and computes. prior/anchor as for elo_fit_compute (anchor by name,
 * NULL for mean 0). Returns 0, or -1 with err. */
int report_load(store *s, double prior, const char *anchor, report *r, char *err, size_t errlen);
void report_free(report *r);
/* "stopped early: WHY after N of M games (at HH:MM)" into buf, or "" when
 * the run did not stop early. */
void report_stop_text(const report *r, char *buf, size_t len);
/* "H1 accepted" / "H0 accepted" / "inconclusive" / "running". */
const char *report_sprt_verdict(const report *r);
/* One sentence naming the rating model, for the text and HTML reports. */
const char *report_model_text(const report *r);

void report_text(const report *r, FILE *out);
av *report_json(const report *r);
void report_html(const report *r, FILE *out);

#endif
