/* The ladder's matchmaking against a round robin of the same number of
 * games, on simulated entrants of known strength (docs/benchmarks.md,
 * "Ladder"). Outcomes are drawn from the Bradley-Terry model of the true
 * ratings; the ladder side runs the real policy (tournaments/matchmake.c)
 * and the real rating fit (ladder_fit), as `arena ladder run` does.
 *
 * usage: bench-ladder [ENTRANTS [GAMES [RUNS [WINDOW [VARIETY]]]]]
 *        (defaults 40 10000 5 200 1) */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ladder.h"
#include "matchmake.h"
#include "rng.h"
#include "util.h"

#define REFIT 10 /* games between fits, as the ladder run */

typedef struct sim {
    int n, cap;
    double *truth;
    mm_entrant *e;
    int64_t *met;
    ranked_game *hist;
    size_t nh;
    double *elo, *ci;
    arena_rng rng;
    double cpu_ms; /* the ladder's own work: picking tables and fitting */
} sim;

static double cpu_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static double uniform(arena_rng *r)
{
    return (double)(arena_rng_next(r) >> 11) / 9007199254740992.0;
}

static int64_t met(void *ctx, int a, int b)
{
    sim *s = ctx;
    return s->met[a * s->cap + b];
}

static void play(sim *s, int a, int b)
{
    double p = 1.0 / (1.0 + pow(10.0, (s->truth[b] - s->truth[a]) / 400.0));
    bool a_wins = uniform(&s->rng) < p;
    ranked_game g = {.k = 2, .agent = {a, b}, .rank = {a_wins ? 1 : 2, a_wins ? 2 : 1}};
    s->hist[s->nh++] = g;
    s->e[a].games++;
    s->e[b].games++;
    s->met[a * s->cap + b]++;
    s->met[b * s->cap + a]++;
}

static void refit(sim *s)
{
    double t0 = cpu_ms();
    ladder_fit(s->hist, s->nh, s->n, s->elo, s->ci);
    for (int i = 0; i < s->n; i++) {
        s->e[i].rating = s->elo[i];
        s->e[i].se = s->ci[i] / 1.96;
    }
    s->cpu_ms += cpu_ms() - t0;
}

static void sim_init(sim *s, int n, int cap, uint64_t seed)
{
    memset(s, 0, sizeof *s);
    s->n = n;
    s->cap = cap;
    s->truth = xcalloc((size_t)cap, sizeof *s->truth);
    s->e = xcalloc((size_t)cap, sizeof *s->e);
    s->met = xcalloc((size_t)cap * (size_t)cap, sizeof *s->met);
    s->hist = xcalloc(1000000, sizeof *s->hist);
    s->elo = xcalloc((size_t)cap, sizeof *s->elo);
    s->ci = xcalloc((size_t)cap, sizeof *s->ci);
    arena_rng_seed(&s->rng, seed);
    /* Graded strengths: evenly spaced over 800 Elo, in a random order of ids. */
    for (int i = 0; i < cap; i++) {
        s->ci[i] = LADDER_CI_UNKNOWN;
        s->truth[i] = 800.0 * i / (n - 1);
        s->e[i] = (mm_entrant){.id = i, .author = -1, .se = LADDER_CI_UNKNOWN / 1.96};
    }
    for (int i = n - 1; i > 0; i--) {
        int j = (int)arena_rng_below(&s->rng, (uint32_t)i + 1);
        double t = s->truth[i];
        s->truth[i] = s->truth[j];
        s->truth[j] = t;
    }
}

static void sim_free(sim *s)
{
    free(s->truth);
    free(s->e);
    free(s->met);
    free(s->hist);
    free(s->elo);
    free(s->ci);
}

/* Kendall's tau-b between the fitted and the true ratings of entrants 0..n-1. */
static double kendall(const sim *s, int n)
{
    double conc = 0, disc = 0;
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++) {
            double a = s->elo[i] - s->elo[j], b = s->truth[i] - s->truth[j];
            if (a * b > 0) conc++;
            if (a * b < 0) disc++;
        }
    return (conc - disc) / (conc + disc);
}

typedef struct result {
    double tau_ladder, tau_rr;
    int64_t gmin, gmed, gmax;
    int new_in_100;    /* games the version added mid-run got in the next 100 */
    int64_t new_games; /* its games when its interval first fell below +/-100 (-1: never) */
    double new_error;  /* how far its rating was from the truth then, Elo */
    double cpu_per_game_ms;
} result;

static int cmp64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

static void run_ladder(int n, int64_t games, uint64_t seed, mm_params *p, result *out)
{
    sim s;
    sim_init(&s, n, n + 1, seed);
    /* The new version: as strong as the median entrant, added half way. */
    s.truth[n] = 400;
    int64_t added_at = -1, seen_at = -1;
    out->new_games = -1;
    while ((int64_t)s.nh < games) {
        if (added_at < 0 && (int64_t)s.nh >= games / 2) {
            s.n = n + 1;
            added_at = (int64_t)s.nh;
        }
        double t0 = cpu_ms();
        int t[2];
        p->tables = (int64_t)s.nh / 2;
        for (int i = 0; i < s.n; i++)
            s.e[i].provisional = s.ci[i] > LADDER_SETTLED_CI;
        if (added_at == (int64_t)s.nh) s.e[n].since = p->tables;
        bool ok = mm_pick(s.e, s.n, p, met, &s, &s.rng, t);
        s.cpu_ms += cpu_ms() - t0;
        if (!ok) break;
        play(&s, t[0], t[1]); /* both seat rotations of the table */
        play(&s, t[1], t[0]);
        if (s.nh % REFIT == 0) refit(&s);
        if (added_at >= 0 && seen_at < 0 && (int64_t)s.nh >= added_at + 100) {
            out->new_in_100 = (int)s.e[n].games;
            seen_at = (int64_t)s.nh;
        }
        if (added_at >= 0 && out->new_games < 0 && s.e[n].games > 0 && s.ci[n] < 100) {
            out->new_games = s.e[n].games;
            /* Ratings have mean 0: the truth, centred the same way. */
            double mean = 0;
            for (int i = 0; i < s.n; i++)
                mean += s.truth[i] - s.elo[i];
            mean /= s.n;
            out->new_error = fabs(s.elo[n] + mean - s.truth[n]);
        }
    }
    refit(&s);
    out->tau_ladder = kendall(&s, n);
    int64_t *g = xcalloc((size_t)n, sizeof *g);
    for (int i = 0; i < n; i++)
        g[i] = s.e[i].games;
    qsort(g, (size_t)n, sizeof *g, cmp64);
    out->gmin = g[0];
    out->gmed = g[n / 2];
    out->gmax = g[n - 1];
    free(g);
    out->cpu_per_game_ms = s.cpu_ms / (double)s.nh;
    sim_free(&s);
}

/* The same number of games as a round robin: every pair in turn, each pair
 * played in both seats, on the same entrants (same seed). */
static double run_round_robin(int n, int64_t games, uint64_t seed)
{
    sim s;
    sim_init(&s, n, n + 1, seed);
    while ((int64_t)s.nh < games)
        for (int i = 0; i < n && (int64_t)s.nh < games; i++)
            for (int j = i + 1; j < n && (int64_t)s.nh < games; j++) {
                play(&s, i, j);
                play(&s, j, i);
            }
    refit(&s);
    double tau = kendall(&s, n);
    sim_free(&s);
    return tau;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 40;
    int64_t games = argc > 2 ? atoll(argv[2]) : 10000;
    int runs = argc > 3 ? atoi(argv[3]) : 5;
    mm_params p = {.players = 2,
                   .window = argc > 4 ? atof(argv[4]) : MM_WINDOW,
                   .variety = argc > 5 ? atof(argv[5]) : MM_VARIETY};
    if (n < 3 || games < 100 || runs < 1 || games > 999000) {
        fprintf(stderr, "usage: bench-ladder [ENTRANTS>=3 [GAMES 100..999000 [RUNS [WINDOW "
                        "[VARIETY]]]]]\n");
        return 2;
    }
    printf("%d entrants 0..800 Elo, %lld games, window %g, variety %g, %d runs\n", n,
           (long long)games, p.window, p.variety, runs);
    printf("%4s %8s %8s %16s %12s %14s %10s %10s\n", "run", "tau", "tau RR", "games min/med/max",
           "new in 100", "new: +/-100 at", "its error", "ms/game");
    double sum_l = 0, sum_r = 0, worst_ratio = 0, cpu = 0;
    int64_t worst_new = 0;
    for (int r = 0; r < runs; r++) {
        result x = {0};
        uint64_t seed = 1000 + (uint64_t)r;
        run_ladder(n, games, seed, &p, &x);
        x.tau_rr = run_round_robin(n, games, seed);
        printf("%4d %8.4f %8.4f %6lld/%lld/%lld %12d %14lld %10.0f %10.4f\n", r + 1, x.tau_ladder,
               x.tau_rr, (long long)x.gmin, (long long)x.gmed, (long long)x.gmax, x.new_in_100,
               (long long)x.new_games, x.new_error, x.cpu_per_game_ms);
        fflush(stdout);
        sum_l += x.tau_ladder;
        sum_r += x.tau_rr;
        double ratio = x.gmin > 0 ? (double)x.gmax / (double)x.gmin : INFINITY;
        if (ratio > worst_ratio) worst_ratio = ratio;
        if (x.new_games < 0 || x.new_games > worst_new)
            worst_new = x.new_games < 0 ? INT64_MAX : x.new_games;
        cpu += x.cpu_per_game_ms;
    }
    printf("mean tau: ladder %.4f, round robin %.4f (ladder/RR %.3f)\n", sum_l / runs, sum_r / runs,
           (sum_l / runs) / (sum_r / runs));
    printf("worst max/min games: %.2fx (goal <= 3)\n", worst_ratio);
    printf("new version at +/-100 Elo after at most %lld of its games (goal <= 60)\n",
           (long long)worst_new);
    printf("ladder CPU per game handed out: %.4f ms (picking and fitting)\n", cpu / runs);
    return 0;
}
