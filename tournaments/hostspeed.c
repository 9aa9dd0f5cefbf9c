#include <stdlib.h>
#include <time.h>

#include "game.h"
#include "hostspeed.h"
#include "policy.h"
#include "rng.h"
#include "util.h"

#define HOSTSPEED_GAMES 1000
#define HOSTSPEED_RUNS 5

static double thread_cpu_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* The same games every time: seeds 1..N, uniformly random legal play. */
static double one_run(const arena_game_vt *vt)
{
    char err[200];
    int *choice = NULL;
    size_t cap = 0;
    double t0 = thread_cpu_s();
    for (uint64_t seed = 1; seed <= HOSTSPEED_GAMES; seed++) {
        arena_game *g = vt->create(NULL, 0, seed, 2, ARENA_GAME_NO_EVENTS, err, sizeof err);
        if (!g) {
            free(choice);
            return -1;
        }
        arena_rng r;
        arena_rng_seed(&r, seed);
        arena_decision d;
        while (game_decision(g, &d)) {
            if ((size_t)d.n_options > cap) {
                cap = (size_t)d.n_options;
                choice = xrealloc(choice, cap * sizeof *choice);
            }
            game_apply(g, choice, arena_random_choice(&r, &d, choice));
        }
        vt->free(g);
    }
    free(choice);
    return thread_cpu_s() - t0;
}

double hostspeed_measure(void)
{
    const arena_game_vt *vt = arena_find_game("dominion");
    double best = -1;
    for (int i = 0; vt && i < HOSTSPEED_RUNS; i++) {
        double s = one_run(vt);
        if (s > 0 && (best < 0 || s < best)) best = s;
    }
    return best > 0 ? HOSTSPEED_GAMES / best : 0;
}
