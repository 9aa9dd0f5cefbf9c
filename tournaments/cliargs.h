/* Small helpers for the tournament commands' own flags. */
#ifndef ARENA_CLIARGS_H
#define ARENA_CLIARGS_H

#include <stdbool.h>
#include <stdint.h>

/* If argv[*i] is `name` ("--name VALUE" or "--name=VALUE"), stores the value
 * in *val, advances *i past it and returns 1; 0 if it is another argument;
 * -1 (after printing "arena: NAME needs a value") if the value is missing. */
int cli_value(int argc, char **argv, int *i, const char *name, const char **val);
/* Strict number parsing; false on junk, overflow or out of [lo, hi]. */
bool cli_int(const char *s, int64_t lo, int64_t hi, int64_t *out);
bool cli_u64(const char *s, uint64_t *out);
bool cli_double(const char *s, double lo, double hi, double *out);
/* Prints "arena: <msg>" and returns 2. */
int cli_usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
