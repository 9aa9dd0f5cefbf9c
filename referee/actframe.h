/* The referee reads one message far more often than any other: `act`. Its
 * canonical shape, as every SDK writes it, is parsed here straight from the
 * frame's bytes, without the value tree and msg_decode:
 *   msgpack: a 3-key fixmap {"type": "act", "id": N, "choice": [i, ...]}
 *            (fixstr keys; N and the items as non-negative ints of up to
 *            32 bits; a fixarray of up to 15 items);
 *   json:    {"type":"act","id":N,"choice":[i,...]} without blanks, N and
 *            the items plain non-negative decimals of up to 18 digits.
 * Anything else, valid or not, is left to the general path, so what is
 * accepted and refused, and every error text, stays the general path's.
 * tests/referee/test_actframe.c holds the two to the same results. */
#ifndef ARENA_ACTFRAME_H
#define ARENA_ACTFRAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "codec.h"
#include "messages.h"

/* True with *out an MSG_ACT (free with msg_free) when the payload p[0, n)
 * is the canonical act in codec c; false (out untouched) otherwise. */
bool act_frame_parse(codec_kind c, const uint8_t *p, size_t n, msg *out);

#endif
