/* Pacifica throughput: complete in-process games per second (no events, no
 * protocol), random vs random and greedy vs random.
 *   bench-pacifica [GAMES]   (default 20000; greedy runs GAMES/10) */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "builtins.h"
#include "games/pacifica/pacifica.h"
#include "selfplay.h"

static double now_clock(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int run(const char *a, const char *b, long games)
{
    const char *pols[2] = {a, b};
    long decisions = 0, turns = 0, wins0 = 0;
    double t0 = now_clock(CLOCK_MONOTONIC), c0 = now_clock(CLOCK_PROCESS_CPUTIME_ID);
    for (long i = 0; i < games; i++) {
        arena_selfplay_opts o = {
            .seed = 1 + (uint64_t)i, .players = 2, .flags = ARENA_GAME_NO_EVENTS};
        arena_selfplay_stats st;
        char err[256];
        if (arena_selfplay(&pacifica_game, pols, &o, &st, err, sizeof err) != 0) {
            fprintf(stderr, "bench-pacifica: %s\n", err);
            return 1;
        }
        decisions += st.decisions;
        turns += st.result.turns;
        wins0 += st.result.ranks[0] == 1 && st.result.ranks[1] == 2;
    }
    double dt = now_clock(CLOCK_MONOTONIC) - t0, ct = now_clock(CLOCK_PROCESS_CPUTIME_ID) - c0;
    /* CPU time too: on a busy host the wall-clock rate says little. */
    printf("%-7s vs %-7s %7ld games %7.2f s wall %8.0f games/s (%8.0f per CPU s) %9.0f "
           "decisions/s  %.1f turns/game  seat0 wins %.1f%%\n",
           a, b, games, dt, (double)games / dt, (double)games / ct, (double)decisions / dt,
           (double)turns / (double)games, 100.0 * (double)wins0 / (double)games);
    return 0;
}

int main(int argc, char **argv)
{
    arena_builtins_install();
    long games = argc > 1 ? strtol(argv[1], NULL, 10) : 20000;
    if (games < 1) games = 1;
    return run("random", "random", games) || run("greedy", "random", games / 10 + 1) ||
           run("greedy", "greedy", games / 10 + 1);
}
