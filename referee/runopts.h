/* Command-line options shared by every command that runs matches
 * (`arena play`, `arena tournament`, `arena sprt`, `arena serve`): clock,
 * fault policy, agent limits, game settings. One parser, so every command
 * spells and documents them the same way. */
#ifndef ARENA_RUNOPTS_H
#define ARENA_RUNOPTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "match.h"

#define RUNOPTS_MAX_SETTINGS 64
#define RUNOPTS_MAX_PASS_ENV 32

typedef struct run_options {
    clock_config clock;
    fault_policy on_fault;
    int64_t max_strikes;
    agent_limits limits;
    int64_t exit_grace_ms;
    int64_t max_frame;
    bool sandbox;
    bool freeze_idle;
    const char *pass_env[RUNOPTS_MAX_PASS_ENV + 1]; /* --pass-env NAME, NULL-terminated */
    size_t n_pass_env;
    arena_setting settings[RUNOPTS_MAX_SETTINGS]; /* --set KEY=VALUE (strings point into argv) */
    size_t n_settings;
} run_options;

void run_options_default(run_options *o);

/* If argv[*i] is one of the shared flags, consumes it (and its value,
 * advancing *i) and returns 1; returns 0 if it is not a shared flag; on a bad
 * value prints one line "arena: ..." to stderr and returns -1 (the caller
 * exits 2). Accepts both "--flag VALUE" and "--flag=VALUE". */
int run_options_parse(run_options *o, int argc, char **argv, int *i);

/* The k-th shared flag's name ("--move-ms"), NULL past the last: for the
 * "did you mean" of a mistyped option. */
const char *run_options_flag_name(size_t k);

/* Prints the help lines of the shared flags, with their defaults. */
void run_options_help(FILE *out);
/* The same without the flags named in `skip` (NULL-terminated): for a
 * command that sets those itself. */
void run_options_help_skip(FILE *out, const char *const *skip);

/* Fills the match and agent configs from the options. */
void run_options_match(const run_options *o, const arena_game_vt *game, match_config *m);
void run_options_agent(const run_options *o, const char *game, const char *spec, agent_config *a);
/* Why the options cannot time the agent of `spec` ("tcp-listen" for the
 * agents of `arena serve`), or NULL: --clock cpu measures a spawned
 * agent's process tree, and a TCP agent's CPU is on the other end. */
const char *run_options_clock_misfit(const run_options *o, const char *spec);

#endif
