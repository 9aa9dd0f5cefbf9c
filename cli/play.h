/* The game series runner behind `arena play` and `arena serve`: N games with
 * the same agents, seats rotating, results printed as they end. */
#ifndef ARENA_PLAY_H
#define ARENA_PLAY_H

#include <stdbool.h>
#include <stdint.h>

#include "match.h"
#include "runopts.h"

typedef struct play_run {
    struct event_base *base;
    const arena_game_vt *game;
    run_options opts;
    int n_agents;
    char *specs[ARENA_MAX_SEATS]; /* how to (re)start agent i */
    bool fixed[ARENA_MAX_SEATS];  /* remote: cannot be restarted */
    arena_agent *agents[ARENA_MAX_SEATS];
    int games, played, aborted;
    uint64_t seed;   /* game 1's; with have_seed, game i's is seed + i - 1 */
    bool have_seed;  /* --seed given */
    uint64_t secret; /* without --seed: the games' seeds derive from it */
    const char *log_arg;
    bool log_is_dir;
    bool log_plain; /* --log-plain: JSON lines, not gzip */
    bool json;
    bool events;
    bool quiet;      /* print nothing per game (check-bot reads the logs) */
    bool trace;      /* --trace: every message, as it goes, on stdout */
    int score_every; /* --score-every K: the score line every K games too */
    int repeat;      /* check-bot --repeat: every game the same seed and seating */
    double wdl[3];   /* agent 1 against agent 2: wins, draws, losses */
    char *log_path;
    int seat_of[ARENA_MAX_SEATS]; /* seat -> agent index, this game */
} play_run;

void play_init(play_run *r);
/* Consumes a series flag (--seed --games --log --json --events and the
 * shared run options). 1 consumed, 0 not ours, -1 bad value (printed). */
int play_parse_flag(play_run *r, int argc, char **argv, int *i);
/* The flags play_parse_flag takes besides the shared ones (NULL-ended): for
 * the "did you mean" of a mistyped option. */
extern const char *const play_flag_names[];
/* A missing agent program (a bare PATH, or cmd:LINE's first word when it
 * holds a '/') is a bad argument: prints one line and returns 2; else 0.
 * Not for `arena serve`, whose remote seats' specs are names. */
int play_check_programs(const play_run *r);
/* After parsing: picks a seed, checks the settings, prepares the log
 * directory. Returns 0, or an exit code after printing one line. */
int play_prepare(play_run *r);
/* The log file of game g (0-based) when logging to a directory:
 * DIR/GAME-SEED.jsonl.gz (with --repeat: DIR/GAME-SEED-rK.jsonl.gz; no .gz
 * with --log-plain). Free it. */
char *play_log_path(const play_run *r, int g);
/* The seed of game g (0-based). */
uint64_t play_game_seed(const play_run *r, int g);
/* Starts agent i from its spec. */
arena_agent *play_make_agent(play_run *r, int i, char *err, size_t errlen);
/* Plays the series on r->base (agents must exist); run the loop after. */
void play_begin(play_run *r);
void play_flags_help(FILE *out);

#endif
