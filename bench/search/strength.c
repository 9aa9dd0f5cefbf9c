/* Head-to-head strength of two built-in bots, in-process through the game
 * interface and the policy registry:
 *
 *   bench-strength GAME N SEED BOT_A BOT_B [--set KEY=VALUE]...
 *
 * Plays N two-player games; game i uses seed arena_hash_mix(SEED, i) and
 * seats BOT_A first on even i, second on odd i, so both bots get both seats
 * and the same deals. Prints A's wins-losses-draws, its score (win 1, draw
 * 1/2), the Elo difference with a 95 % interval from the score's standard
 * error, and each bot's mean and largest time per decision it made; every
 * 20 games too, so a run cut short still reports. The loop is written out
 * (not arena_selfplay) to time each bot's decide(). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "builtins.h"
#include "policy.h"
#include "util.h"

#define MAX_SETTINGS 16

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

typedef struct bot {
    const char *spec;
    const arena_policy_vt *vt;
    const char *arg;
    long decisions;
    double ms, max_ms;
} bot;

static double elo(double score)
{
    if (score <= 0) return -INFINITY;
    if (score >= 1) return INFINITY;
    return -400.0 * log10(1.0 / score - 1.0);
}

/* Plays one game; returns seat 0's result (1, 0.5, 0) or -1 on error. */
static double play(const arena_game_vt *game, const arena_setting *set, size_t nset, uint64_t seed,
                   bot *seat_bot[2])
{
    char err[256];
    arena_game *g = game->create(set, nset, seed, 2, ARENA_GAME_NO_EVENTS, err, sizeof err);
    if (!g) {
        fprintf(stderr, "bench-strength: %s\n", err);
        return -1;
    }
    void *self[2] = {0};
    double out = -1;
    int *choice = NULL;
    for (int s = 0; s < 2; s++) {
        self[s] = seat_bot[s]->vt->create(
            seat_bot[s]->arg, s, arena_hash_mix(seed, 1000u + (unsigned)s), err, sizeof err);
        if (!self[s]) {
            fprintf(stderr, "bench-strength: %s: %s\n", seat_bot[s]->spec, err);
            goto out;
        }
    }
    arena_decision d;
    size_t cap = 0;
    while (game_decision(g, &d)) {
        if ((size_t)d.n_options > cap) {
            cap = (size_t)d.n_options * 2;
            choice = xrealloc(choice, cap * sizeof *choice);
        }
        bot *b = seat_bot[d.seat];
        double t0 = now_ms();
        int n = b->vt->decide(self[d.seat], g, &d, choice);
        double dt = now_ms() - t0;
        b->decisions++;
        b->ms += dt;
        if (dt > b->max_ms) b->max_ms = dt;
        const char *why = arena_check_choice(&d, choice, n);
        if (why || !game_apply(g, choice, n)) {
            fprintf(stderr, "bench-strength: %s made a bad choice at %s: %s\n", b->spec, d.kind,
                    why ? why : "rejected");
            goto out;
        }
    }
    arena_result r;
    game->result(g, &r);
    /* Seat 0's result; the caller maps it to bot A. */
    out = r.ranks[0] < r.ranks[1] ? 1.0 : r.ranks[0] > r.ranks[1] ? 0.0 : 0.5;
out:
    for (int s = 0; s < 2; s++)
        if (self[s]) seat_bot[s]->vt->free(self[s]);
    free(choice);
    game_free(g);
    return out;
}

static void report(const arena_game_vt *game, const bot *bots, long n, uint64_t seed, long w,
                   long l, long dr, double sum, double sum2, double t0)
{
    double mean = sum / (double)n;
    double var = n > 1 ? (sum2 - (double)n * mean * mean) / (double)(n - 1) : 0;
    double se = sqrt(var / (double)n);
    double lo = elo(mean - 1.96 * se), hi = elo(mean + 1.96 * se);
    printf("%s %s vs %s, %ld games (seed %llu):\n", game->name, bots[0].spec, bots[1].spec, n,
           (unsigned long long)seed);
    printf("  W-L-D %ld-%ld-%ld, score %.3f +- %.3f, Elo %+.0f (95%%: %+.0f .. %+.0f)\n", w, l, dr,
           mean, 1.96 * se, elo(mean), lo, hi);
    for (int i = 0; i < 2; i++)
        printf("  %-24s %8ld decisions, %8.3f ms mean, %8.1f ms max per decision\n", bots[i].spec,
               bots[i].decisions, bots[i].decisions ? bots[i].ms / (double)bots[i].decisions : 0,
               bots[i].max_ms);
    printf("  %.1f s wall\n", (now_ms() - t0) / 1e3);
    fflush(stdout);
}

static int usage(void)
{
    fprintf(stderr, "usage: bench-strength GAME N SEED BOT_A BOT_B [--set KEY=VALUE]...\n");
    return 2;
}

int main(int argc, char **argv)
{
    arena_builtins_install();
    if (argc < 6) return usage();
    const arena_game_vt *game = arena_find_game(argv[1]);
    long n = strtol(argv[2], NULL, 10);
    uint64_t seed = strtoull(argv[3], NULL, 10);
    if (!game || n < 1) return usage();
    bot bots[2] = {{.spec = argv[4]}, {.spec = argv[5]}};
    for (int i = 0; i < 2; i++) {
        bots[i].vt = arena_find_policy(game->name, bots[i].spec, &bots[i].arg);
        if (!bots[i].vt) {
            fprintf(stderr, "bench-strength: no built-in bot '%s' for %s\n", bots[i].spec,
                    game->name);
            return 2;
        }
    }
    arena_setting set[MAX_SETTINGS];
    size_t nset = 0;
    for (int i = 6; i < argc; i += 2) { /* --set KEY=VALUE pairs */
        char *eq = i + 1 < argc && strcmp(argv[i], "--set") == 0 ? strchr(argv[i + 1], '=') : NULL;
        if (!eq || nset == MAX_SETTINGS) return usage();
        *eq = '\0';
        set[nset++] = (arena_setting){argv[i + 1], eq + 1};
    }
    long w = 0, l = 0, dr = 0;
    double sum = 0, sum2 = 0, t0 = now_ms();
    for (long i = 0; i < n; i++) {
        int a = (int)(i % 2); /* seat of bot A */
        bot *seat_bot[2] = {&bots[a], &bots[1 - a]};
        double s0 = play(game, set, nset, arena_hash_mix(seed, (uint64_t)i), seat_bot);
        if (s0 < 0) return 1;
        double x = a == 0 ? s0 : 1.0 - s0;
        w += x == 1.0, l += x == 0.0, dr += x == 0.5;
        sum += x, sum2 += x * x;
        /* A full report every 20 games: a run cut short still tells. */
        if ((i + 1) % 20 == 0 || i + 1 == n)
            report(game, bots, i + 1, seed, w, l, dr, sum, sum2, t0);
    }
    return 0;
}
