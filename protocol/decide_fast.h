/* The bot's hot message, decide, decoded straight from a frame's payload
 * into msg_decide: one walk over the top-level map fills the scalars and
 * strings, and only view and events become value trees, built by the
 * codec's own reader (the struct hands them out as trees). No tree of the
 * whole message, no key lookups.
 *
 * A fast path only. It takes the shape the referee writes (keys in any
 * order; extra keys at the top level or in an option are read and dropped,
 * as the general path ignores them) and declines everything else: another
 * type, a repeated key, a wrong type, a limit reached, forms it does not
 * copy (msgpack bin strings, JSON whitespace and escapes), bytes the
 * codec's reader would refuse. The caller then runs the general path
 * (frame_decoder_next and msg_decode_take) on the same bytes, so every
 * accept and reject decision and every error text stays the general
 * path's; whatever this takes, the general path gives the same msg
 * (tests/sdk/test_c_decide_fast.c, tests/fuzz/fuzz_decoder.c). */
#ifndef ARENA_DECIDE_FAST_H
#define ARENA_DECIDE_FAST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "codec.h"
#include "messages.h"

/* true: *out holds the decide (msg_free it); false: declined, *out is
 * untouched. Both codecs (JSON: compact, as the referee writes it). */
bool msg_decide_fast(codec_kind c, const uint8_t *p, size_t n, msg *out);

#endif
