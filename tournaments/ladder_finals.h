/* `arena ladder finals`: closes a season. Ranked play freezes (a running
 * ladder stops handing out tables once it sees the finals scheduled), and
 * the top K active versions by rating play a duplicate round robin in the
 * same store, numbered after the ladder's games and reported apart from
 * them (`ladder status`). A killed finals run resumes where it stopped. */
#ifndef ARENA_LADDER_FINALS_H
#define ARENA_LADDER_FINALS_H

#include "ladder_run.h"

/* Meta keys: the first finals game's id (its presence freezes ranked play),
 * and the finalists' agent indices, best first, comma-separated. */
#define LADDER_FROZEN "frozen" /* "1": ranked play stops (written first) */
#define LADDER_FINALS_FROM "finals_from"
#define LADDER_FINALS_AGENTS "finals_agents"

/* Schedules the finals (the first time: top K, per_pairing games per table
 * subset) and plays their unfinished games. Returns a DRIVER_* code. */
int ladder_finals(store *db, const ladder_settings *ls, const run_options *ro, int k,
                  int64_t per_pairing, const ladder_limits *lim, char *err, size_t errlen);

#endif
