/* One filled-in message of every protocol type, shared by the unit tests. */
#ifndef ARENA_TEST_SAMPLES_H
#define ARENA_TEST_SAMPLES_H

#include "messages.h"

/* Fills *m with a representative message of type t (heap-owned; msg_free). */
void sample_msg(msg_type t, msg *m);
/* Its wire map (msg_encode of sample_msg). */
av *sample_map(msg_type t);

#endif
