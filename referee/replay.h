/* Walking a match log: the game is re-created from the log's seed and
 * settings and every logged choice re-applied and checked, while a sink (the
 * text record or the HTML viewer) is told what happens. */
#ifndef ARENA_CLI_REPLAY_H
#define ARENA_CLI_REPLAY_H

#include <stdbool.h>
#include <stdio.h>

#include "game.h"
#include "match.h"
#include "value.h"
#include "verdict.h"

typedef struct replay {
    const char *path;
    const arena_game_vt *gvt;
    arena_game *g;
    int players;
    char names[ARENA_MAX_SEATS][128];
    clock_config clock;
    long choices;
    bool have_result;
    bool cut;  /* the log ends mid-line or mid-stream: its writer was killed */
    verdict v; /* the result its game and fault records give (verdict.h) */
} replay;

typedef struct replay_sink {
    /* The header has been read and the game created; non-zero stops the
     * walk with that exit status. */
    int (*header)(void *ctx, replay *r, const av *line);
    /* A logged choice, before it is applied: the decision it answers. */
    void (*decision)(void *ctx, replay *r, const arena_decision *d, const int *choice, int n,
                     const av *line);
    /* The game moved (setup, or a choice was applied): new events. */
    void (*moved)(void *ctx, replay *r);
    /* A line beside the game: fault, stderr, note, or a message the agent
     * sent that is not an answer (its `log` lines). */
    void (*aside)(void *ctx, replay *r, const av *line);
    void (*result)(void *ctx, replay *r, const av *line);
    /* The agents' own names (the `seats` line) replaced the header's specs;
     * optional. */
    void (*seats)(void *ctx, replay *r);
} replay_sink;

/* Returns 0 when the log reproduces; else prints `arena: LOG:LINE: why` and
 * returns 1 (or what `header` returned). */
int replay_walk(replay *r, const replay_sink *sink, void *ctx);
void replay_free(replay *r);

/* Who sees event i: "" when everyone, else "seat 0" / "seats 0, 2". */
void replay_audience(const replay *r, size_t i, char *buf, size_t len);

/* Writes the HTML viewer for a walked log; seat >= 0 keeps only what that
 * seat saw. Returns the walk's status. */
int replay_html(const char *path, int seat, FILE *out);

#endif
