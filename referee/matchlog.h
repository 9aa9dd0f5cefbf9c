/* The match log: one JSON object per line, everything needed to audit and
 * replay a game. Line types (key "type"):
 *   match   header: game, seed, raw settings, resolved options, seats, clock
 *   seats   the agents' names once they have joined (before the first hello)
 *   msg     every protocol message, dir "out" (referee->agent) or "in"
 *           (agent->referee: what the referee read of it, bounded in size;
 *           see matchlog_msg_in and match.c's caps)
 *   choice  every applied decision: seat, id, kind, turn, indices, labels,
 *           by (agent|builtin|fallback), charged ms
 *   fault   a timeout/illegal answer/crash/protocol error and its verdict
 *   lag     the referee's own loop lag, never charged (protocol.md §5): for
 *           a decision (seat, id, lag_ms, measured_ms, charged_ms =
 *           measured - lag), or at the end the game's stalls and lag_ms
 *   stderr  one line an agent wrote to stderr
 *   note    anything else worth knowing (why an agent died)
 *   result  ranks, scores, reason, forfeits, turns, decisions, time_ms
 * Every line carries "t": milliseconds since the match started.
 *
 * Logs are gzip-compressed unless opened plain; readers take both forms.
 * The stream is flushed (Z_SYNC_FLUSH) after every line that ends a step of
 * the game (a choice, fault, note, result, the header), so a referee killed
 * mid-game leaves a log readable up to its last decision. */
#ifndef ARENA_MATCHLOG_H
#define ARENA_MATCHLOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "codec.h"
#include "match.h"
#include "value.h"

typedef struct matchlog matchlog;

/* plain: write JSON lines as they are instead of gzip. */
matchlog *matchlog_open(const char *path, bool plain, char *err, size_t errlen);
void matchlog_header(matchlog *l, const char *match_id, const char *game, uint64_t seed,
                     int players, const char *const *names, const arena_setting *settings,
                     size_t n_settings, const av *options, const clock_config *clock,
                     fault_policy on_fault, int max_strikes);
void matchlog_seats(matchlog *l, const char *const *names, int players);
void matchlog_msg(matchlog *l, int seat, const char *dir, const av *msg);
/* Logs a message an agent sent (raw, as decoded from its frame) as the
 * referee read it: its type and the keys the protocol defines for it
 * (act: id, choice; log: text; join: name, cut as the seat shows it),
 * never a join's token or a key the protocol does not know. Returns the
 * bytes of JSON that form takes: logged when at most cap, not logged (the
 * caller notes why) when more. 0, nothing logged, for a message that does
 * not decode: the fault that follows says why. */
size_t matchlog_msg_in(matchlog *l, int seat, const av *raw, size_t cap);
/* Takes ownership of idx and labels. */
void matchlog_choice(matchlog *l, int seat, uint64_t id, const char *kind, int turn, av *idx,
                     av *labels, const char *by, double ms);
/* A timeout's figures (protocol.md §5) as a map: mode, allowance_ms,
 * charged_ms, wall_ms, cpu_ms, wait_ms, wait_sum_ms, lag_ms, host_psi_ms
 * (null: not read). */
av *matchlog_clock_av(const clock_evidence *ev);
/* ev (may be NULL): a timeout's figures, written as the record's "clock"
 * (protocol.md §5; arena audit checks them). */
void matchlog_fault(matchlog *l, int seat, const char *cause, const char *why, int strikes,
                    bool forfeit, const clock_evidence *ev);
void matchlog_note(matchlog *l, int seat, const char *text);
void matchlog_lag(matchlog *l, int seat, uint64_t id, double lag_ms, double measured_ms,
                  double charged_ms);
void matchlog_lag_total(matchlog *l, long stalls, double lag_ms);
void matchlog_stderr(matchlog *l, int seat, const char *line, size_t len);
void matchlog_result(matchlog *l, const match_outcome *o);
/* Closes the log. -1 and a message in err when any write failed (a full
 * disk): the log is then incomplete and must not be trusted. */
int matchlog_close(matchlog *l, char *err, size_t errlen);

/* The longest line a reader takes, without its newline: what one logged
 * message can become, a frame of PROTO_MAX_FRAME_DEFAULT bytes written as
 * JSON (a control byte of a string is 6 bytes there, "\u0001"), plus the
 * line's own keys. A longer line is no log Arena wrote: it is refused
 * rather than buffered (a small gzip file can hold gigabytes of one line),
 * so a writer never writes one. */
#define MATCHLOG_MAX_LINE (6 * PROTO_MAX_FRAME_DEFAULT + ((size_t)64 << 10))

/* Reading a log back, line by line, gzip or plain. */
typedef struct matchlog_reader matchlog_reader;
matchlog_reader *matchlog_read_open(const char *path, char *err, size_t errlen);
/* The next complete line, without its newline and NUL-terminated (the
 * reader's buffer, valid until the next call); NULL at the end of the file,
 * at a cut (see below), on a read error or at a line longer than
 * MATCHLOG_MAX_LINE (see matchlog_read_error). */
const char *matchlog_read_line(matchlog_reader *r, size_t *len);
/* True once the file was found to end mid-line or mid-stream: a log whose
 * writer was killed. The lines before the cut are all good. */
bool matchlog_read_cut(const matchlog_reader *r);
/* NULL, or why the file could not be read (corrupt compressed data, an I/O
 * error, a line past MATCHLOG_MAX_LINE); set once matchlog_read_line
 * returned NULL. */
const char *matchlog_read_error(const matchlog_reader *r);
void matchlog_read_close(matchlog_reader *r);

/* The outcome as a JSON-ready map (also used by `arena play --json`). */
av *outcome_to_av(const match_outcome *o);

#endif
