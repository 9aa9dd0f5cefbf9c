/* What a seat did that a person reading the result should see, gathered
 * while the game runs: why it forfeited, its last stderr lines, the moves
 * the fallback played for it, the `log` lines it sent (the SDKs report the
 * exceptions they caught that way). Copied into match_outcome at the end.
 * Also the live trace of `arena play --trace`. */
#ifndef ARENA_SEATNOTES_H
#define ARENA_SEATNOTES_H

#include <stddef.h>
#include <stdio.h>

#include "match.h"
#include "value.h"

#define SEATNOTES_LINE_CAP 200 /* a longer stderr line is cut (with "...") in the tail */

typedef struct seat_notes {
    char fault_message[240];
    char stderr_tail[600];
    int fallbacks;
    char fallback_last[240];
    int bot_logs;
    char bot_log_last[240];
} seat_notes;

/* Empty notes, writing only the texts' first bytes (the texts are 1.3 KB,
 * and every match starts one per seat). */
void seat_notes_init(seat_notes *n);
/* The first forfeit reason is kept. */
void seat_notes_forfeit(seat_notes *n, const char *cause, const char *why);
void seat_notes_fallback(seat_notes *n, const char *cause, const char *why);
/* Appends one stderr line; the oldest lines give way to stay under the cap. */
void seat_notes_stderr(seat_notes *n, const char *line, size_t len);
/* Counts `raw` if it is a `log` message. */
void seat_notes_message(seat_notes *n, const av *raw);
/* Prints the last `max_lines` lines of a stderr tail, each after `indent`. */
void seat_notes_print_tail(FILE *out, const char *tail, const char *indent, int max_lines);
void seat_notes_to_outcome(const seat_notes *n, match_outcome *o, int seat);

/* One trace line: "  12.345 ms  seat 0  TEXT" (seat < 0: no seat). */
void trace_printf(FILE *f, double t_ms, int seat, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* A stderr line of the agent, control bytes shown as '?'. */
void trace_stderr(FILE *f, double t_ms, int seat, const char *line, size_t len);
/* A message: arrow "->" (referee to agent) or "<-" (agent to referee). */
void trace_msg(FILE *f, double t_ms, int seat, const char *arrow, const av *msg);

#endif
