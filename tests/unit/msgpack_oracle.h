/* The three-pass msgpack decoder, kept as a test oracle (msgpack_oracle.c). */
#ifndef ARENA_MSGPACK_ORACLE_H
#define ARENA_MSGPACK_ORACLE_H

#include <stddef.h>

#include "value.h"

av *msgpack_oracle_decode(const void *p, size_t n, char *err, size_t errlen);

#endif
