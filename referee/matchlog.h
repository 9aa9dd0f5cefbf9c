/* The match log: one JSON object per line, everything needed to audit and
 * replay a game. Line types (key "type"):
 *   match   header: game, seed, raw settings, resolved options, seats, clock
 *   seats   the agents' names once they have joined (before the first hello)
 *   msg     every protocol message, dir "out" (referee->agent) or "in"
 *   choice  every applied decision: seat, id, kind, turn, indices, labels,
 *           by (agent|builtin|fallback), charged ms
 *   fault   a timeout/illegal answer/crash/protocol error and its verdict
 *   lag     the referee's own loop lag, never charged (protocol.md §5): for
 *           a decision (seat, id, lag_ms, measured_ms, charged_ms =
 *           measured - lag), or at the end the game's stalls and lag_ms
 *   stderr  one line an agent wrote to stderr
 *   note    anything else worth knowing (why an agent died)
 *   result  ranks, scores, reason, forfeits, turns, decisions, time_ms
 * Every line carries "t": milliseconds since the match started. */
#ifndef ARENA_MATCHLOG_H
#define ARENA_MATCHLOG_H

#include <stddef.h>
#include <stdint.h>

#include "match.h"
#include "value.h"

typedef struct matchlog matchlog;

matchlog *matchlog_open(const char *path, char *err, size_t errlen);
void matchlog_header(matchlog *l, const char *match_id, const char *game, uint64_t seed,
                     int players, const char *const *names, const arena_setting *settings,
                     size_t n_settings, const av *options, const clock_config *clock,
                     fault_policy on_fault, int max_strikes);
void matchlog_seats(matchlog *l, const char *const *names, int players);
void matchlog_msg(matchlog *l, int seat, const char *dir, const av *msg);
/* Takes ownership of idx and labels. */
void matchlog_choice(matchlog *l, int seat, uint64_t id, const char *kind, int turn, av *idx,
                     av *labels, const char *by, double ms);
void matchlog_fault(matchlog *l, int seat, const char *cause, const char *why, int strikes,
                    bool forfeit);
void matchlog_note(matchlog *l, int seat, const char *text);
void matchlog_lag(matchlog *l, int seat, uint64_t id, double lag_ms, double measured_ms,
                  double charged_ms);
void matchlog_lag_total(matchlog *l, long stalls, double lag_ms);
void matchlog_stderr(matchlog *l, int seat, const char *line, size_t len);
void matchlog_result(matchlog *l, const match_outcome *o);
/* Closes the log. -1 and a message in err when any write failed (a full
 * disk): the log is then incomplete and must not be trusted. */
int matchlog_close(matchlog *l, char *err, size_t errlen);

/* The outcome as a JSON-ready map (also used by `arena play --json`). */
av *outcome_to_av(const match_outcome *o);

#endif
