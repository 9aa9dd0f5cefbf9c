/* The referee's messages other than decide (hello, event, over, error,
 * bye) written straight into an output buffer: the frame that
 * codec_encode(codec, msg_encode(m)) writes, without building the tree
 * first (tests/referee/test_msgwrite.c compares the two). decide has its
 * own writer (decide.h); the types an agent sends go through the tree. */
#ifndef ARENA_MSGWRITE_H
#define ARENA_MSGWRITE_H

#include "codec.h"
#include "messages.h"
#include "valueout.h"

void msg_write(codec_kind codec, abuf *out, const msg *m);

/* Writes a game's view into the frame where vout o stands (valueout.h). */
typedef void (*msg_view_fn)(vout *o, void *ctx);
/* msg_write of an over whose view (r->view is not read) view(o, ctx)
 * writes straight into the frame, as decide's is (decide.h). */
void msg_write_over(codec_kind codec, abuf *out, const msg_over *r, msg_view_fn view, void *ctx);

#endif
