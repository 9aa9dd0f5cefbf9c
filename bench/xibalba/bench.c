/* bench-xibalba: in-process games per second on one core.
 *   bench-xibalba [games]
 * Plays random self-play (2, 3, 4 players, normal and apocalypse) and
 * heuristic vs 3x random (4 players); prints games/s, decisions/s, mean
 * turns, the heuristic's first-alone rate and the bytes of game state. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "builtins.h"
#include "selfplay.h"
#include "xibalba.h"

/* CPU time of this process: the figure holds on a busy machine too. */
static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int run(long games, int players, const char *mode, bool heuristic)
{
    arena_setting set[1] = {{"mode", mode}};
    long decisions = 0, turns = 0, firsts = 0;
    double t0 = now();
    for (long i = 0; i < games; i++) {
        const char *pol[4] = {"random", "random", "random", "random"};
        int hs = (int)(i % players);
        if (heuristic) pol[hs] = "heuristic";
        arena_selfplay_opts o = {.settings = set,
                                 .n_settings = 1,
                                 .seed = (uint64_t)i + 1,
                                 .players = players,
                                 .flags = ARENA_GAME_NO_EVENTS};
        arena_selfplay_stats st;
        char err[256];
        if (arena_selfplay(&xibalba_game, pol, &o, &st, err, sizeof err) != 0) {
            fprintf(stderr, "bench-xibalba: %s\n", err);
            return 1;
        }
        decisions += st.decisions;
        turns += st.result.turns;
        bool alone = st.result.ranks[hs] == 1;
        for (int s = 0; s < players; s++)
            if (s != hs && st.result.ranks[s] == 1) alone = false;
        firsts += alone;
    }
    double dt = now() - t0;
    printf("%dp %-10s %-20s %6ld games %7.3f CPU s = %7.0f games/s, %8.0f decisions/s, "
           "%5.1f turns/game",
           players, mode, heuristic ? "heuristic+3 random" : "random self-play", games, dt,
           (double)games / dt, (double)decisions / dt, (double)turns / (double)games);
    if (heuristic) printf(", heuristic first alone %.1f%%", 100.0 * (double)firsts / (double)games);
    printf("\n");
    return 0;
}

int main(int argc, char **argv)
{
    arena_builtins_install();
    long games = argc > 1 ? strtol(argv[1], NULL, 10) : 5000;
    printf("game state: %zu bytes\n", sizeof(xb_game));
    int rc = 0;
    for (int p = 2; p <= 4; p++)
        rc |= run(games, p, "normal", false);
    rc |= run(games, 4, "apocalypse", false);
    rc |= run(games, 4, "normal", true);
    rc |= run(games, 4, "apocalypse", true);
    return rc;
}
