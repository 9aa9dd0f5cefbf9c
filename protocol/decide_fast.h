/* The bot's hot message, decide, decoded straight from a frame's payload
 * into msg_decide: one walk over the top-level map fills the scalars and
 * strings (copied into a reused buffer), and only view and events become
 * value trees, built by the codec's own reader (the struct hands them out
 * as trees), or not even those for a bot that does not look at them. No
 * tree of the whole message, no key lookups.
 *
 * A fast path only. It takes the shape the referee writes (keys in any
 * order; extra keys at the top level or in an option are read and dropped,
 * as the general path ignores them) and declines everything else: another
 * type, a repeated key, a wrong type, a limit reached, forms it does not
 * copy (msgpack bin strings, JSON whitespace and escapes), bytes the
 * codec's reader would refuse. The caller then runs the general path
 * (frame_decoder_next and msg_decode_take) on the same bytes, so every
 * accept and reject decision and every error text stays the general
 * path's; whatever this takes, the general path gives the same msg (with
 * skip_state, but for the state it leaves out) (tests/sdk/test_c_decide_fast.c,
 * tests/fuzz/fuzz_decoder.c). */
#ifndef ARENA_DECIDE_FAST_H
#define ARENA_DECIDE_FAST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "codec.h"
#include "messages.h"

/* Where a decide read here keeps its strings: kind, prompt and the labels
 * (and the labels array), reused from one decide to the next, so that in
 * steady state a decision allocates nothing but its view and events. Zero
 * it to start; decide_buf_free at the end. */
typedef struct decide_buf {
    char *text;
    size_t text_cap;
    char **labels;
    size_t labels_cap;
} decide_buf;

/* true: *out holds the decide; its strings live in buf until the next call
 * with buf, and msg_decide_fast_release (not msg_free) frees the rest.
 * false: declined, *out is untouched. Both codecs (JSON: compact, as the
 * referee writes it). skip_state: view and events are checked exactly as
 * the general path checks them (the frame is taken or declined the same)
 * but not built: NULL in *out. */
bool msg_decide_fast(codec_kind c, const uint8_t *p, size_t n, bool skip_state, decide_buf *buf,
                     msg *out);
/* The same for hello and over (once a game each; the first key must be
 * type): true: *out holds the message, which the caller owns (msg_free);
 * false: declined, *out untouched. The trees (options, view) are built,
 * but for over's view with skip_state: checked, and NULL in *out. */
bool msg_hello_over_fast(codec_kind c, const uint8_t *p, size_t n, bool skip_state, msg *out);
/* Frees what a decide from msg_decide_fast owns: its view and events. */
void msg_decide_fast_release(msg *m);
/* What skip_state leaves out, dropped from a message the general path
 * read: a decide's view and events, an over's view. */
void msg_drop_state(msg *m);
void decide_buf_free(decide_buf *b);

#endif
