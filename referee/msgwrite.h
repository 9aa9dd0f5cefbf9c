/* The referee's messages other than decide (hello, event, over, error,
 * bye) written straight into an output buffer: the frame that
 * codec_encode(codec, msg_encode(m)) writes, without building the tree
 * first (tests/referee/test_msgwrite.c compares the two). decide has its
 * own writer (decide.h); the types an agent sends go through the tree. */
#ifndef ARENA_MSGWRITE_H
#define ARENA_MSGWRITE_H

#include "codec.h"
#include "messages.h"

void msg_write(codec_kind codec, abuf *out, const msg *m);

#endif
