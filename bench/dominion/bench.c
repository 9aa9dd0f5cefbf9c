/* bench-dominion: in-process games per second on one core.
 *   bench-dominion [games] [policy-a] [policy-b] [kingdom]
 * Without arguments: bmu vs bmu (first-game) and random vs random over a
 * Seaside kingdom (high-seas). Prints games/s, decisions/s, mean turns and
 * the bytes of game state; then what clone + determinize costs, as a search
 * bot does it at every decision. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "builtins.h"
#include "selfplay.h"
#include "state.h"

/* CPU time of this process: the figure holds on a busy machine too. */
static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int run(long games, const char *a, const char *b, const char *kingdom)
{
    arena_setting set[1] = {{"kingdom", kingdom}};
    long decisions = 0, turns = 0, limit_hits = 0;
    double a_points = 0; /* seat-swapped every other game */
    double t0 = now();
    for (long i = 0; i < games; i++) {
        int sa = (int)(i & 1); /* seat of policy a */
        const char *pol[2] = {sa ? b : a, sa ? a : b};
        arena_selfplay_opts o = {0};
        o.settings = set;
        o.n_settings = 1;
        o.seed = (uint64_t)(i / 2) + 1; /* both seatings share a seed */
        o.players = 2;
        o.flags = ARENA_GAME_NO_EVENTS;
        arena_selfplay_stats st;
        char err[256];
        if (arena_selfplay(&dominion_game, pol, &o, &st, err, sizeof err) != 0) {
            fprintf(stderr, "bench-dominion: %s\n", err);
            return 1;
        }
        decisions += st.decisions;
        int ra = st.result.ranks[sa], rb = st.result.ranks[1 - sa];
        a_points += ra < rb ? 1 : ra == rb ? 0.5 : 0;
        turns += st.result.turns;
        limit_hits += st.result.turns >= 100;
    }
    double dt = now() - t0;
    printf("%s vs %s, kingdom %s: %ld games in %.3f CPU s = %.0f games/s, %.0f decisions/s, "
           "mean %.1f turns/player, %ld hit the turn limit, state %zu bytes; %s scores %.3f\n",
           a, b, kingdom, games, dt, (double)games / dt, (double)decisions / dt,
           (double)turns / (double)games, limit_hits, sizeof(dom_game), a,
           a_points / (double)games);
    return 0;
}

/* clone + determinize for every seat at every decision of random games */
static int bench_determinize(long games)
{
    long calls = 0;
    double t_clone = 0, t_det = 0;
    arena_rng r;
    arena_rng_seed(&r, 1);
    for (long i = 0; i < games; i++) {
        arena_setting set[1] = {{"kingdom", i % 2 ? "shipwrecks" : "high-seas"}};
        char err[256];
        int np = 2 + (int)(i % 3);
        arena_game *g = dominion_game.create(set, 1, (uint64_t)i + 1, np, ARENA_GAME_NO_EVENTS, err,
                                             sizeof err);
        if (!g) {
            fprintf(stderr, "bench-dominion: %s\n", err);
            return 1;
        }
        arena_decision d;
        int ch[DOM_OPTCAP];
        while (game_decision(g, &d)) {
            arena_game *c[DOM_MAX_PLAYERS];
            double t0 = now();
            for (int s = 0; s < np; s++)
                c[s] = g->vt->clone(g);
            double t1 = now();
            for (int s = 0; s < np; s++)
                c[s]->vt->determinize(c[s], s, (uint64_t)(calls + s));
            double t2 = now();
            t_clone += t1 - t0;
            t_det += t2 - t1;
            calls += np;
            for (int s = 0; s < np; s++)
                game_free(c[s]);
            game_apply(g, ch, arena_random_choice(&r, &d, ch));
        }
        game_free(g);
    }
    printf("determinize: %ld calls, %.2f us per determinize, %.2f us per clone (CPU)\n", calls,
           t_det * 1e6 / (double)calls, t_clone * 1e6 / (double)calls);
    return 0;
}

int main(int argc, char **argv)
{
    arena_builtins_install();
    long games = argc > 1 ? strtol(argv[1], NULL, 10) : 100000;
    if (argc > 3) return run(games, argv[2], argv[3], argc > 4 ? argv[4] : "first-game");
    if (run(games, "bmu", "bmu", "first-game")) return 1;
    if (run(games / 10 > 0 ? games / 10 : 1, "random", "random", "high-seas")) return 1;
    return bench_determinize(games / 1000 > 0 ? games / 1000 : 1);
}
