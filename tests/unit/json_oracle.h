/* The jansson-based JSON decoder, kept as a test oracle (json_oracle.c). */
#ifndef ARENA_JSON_ORACLE_H
#define ARENA_JSON_ORACLE_H

#include <stddef.h>

#include "value.h"

av *json_oracle_decode(const char *text, size_t n, char *err, size_t errlen);

#endif
