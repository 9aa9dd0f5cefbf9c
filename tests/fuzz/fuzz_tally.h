/* What the reader targets (fuzz_matchlog.c, fuzz_cards.c, fuzz_spec.c,
 * fuzz_store_row.c) tell the corpus driver: how many inputs the reader took
 * and how many it refused. The seeds must reach both, or the target is
 * inert (fuzz_tally.c). */
#ifndef ARENA_FUZZ_TALLY_H
#define ARENA_FUZZ_TALLY_H

#include <stddef.h>

extern const char fuzz_target_name[];
extern size_t fuzz_taken, fuzz_refused;

#endif
