/* Plays one game in-process with built-in policies, no protocol: the fast
 * path used by fuzz tests, bot-strength tests and benchmarks. */
#ifndef ARENA_SELFPLAY_H
#define ARENA_SELFPLAY_H

#include "policy.h"

typedef struct arena_selfplay_opts {
    const arena_setting *settings;
    size_t n_settings;
    uint64_t seed;
    int players;
    unsigned flags;     /* ARENA_GAME_* for create() */
    long max_decisions; /* 0 = no limit; exceeded -> error */
    /* Called after create and after every applied choice (fuzz invariants).
     * Return false to stop with an error; write the reason into err. */
    bool (*check)(const arena_game *g, void *ctx, char *err, size_t errlen);
    void *check_ctx;
} arena_selfplay_opts;

typedef struct arena_selfplay_stats {
    long decisions;
    arena_result result;
} arena_selfplay_stats;

/* policies[seat] are "NAME[:ARG]" built-in specs. Returns 0 on success,
 * -1 with a message in err. */
int arena_selfplay(const arena_game_vt *game, const char *const *policies,
                   const arena_selfplay_opts *opts, arena_selfplay_stats *stats, char *err,
                   size_t errlen);

#endif
