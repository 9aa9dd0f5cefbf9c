/* Flag helpers for the tournament commands. */
#include "cliargs.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cli_value(int argc, char **argv, int *i, const char *name, const char **val)
{
    const char *a = argv[*i];
    size_t n = strlen(name);
    if (strncmp(a, name, n) != 0) return 0;
    if (a[n] == '=') {
        *val = a + n + 1;
        return 1;
    }
    if (a[n] != '\0') return 0;
    if (*i + 1 >= argc) {
        fprintf(stderr, "arena: %s needs a value\n", name);
        return -1;
    }
    *val = argv[++*i];
    return 1;
}

bool cli_int(const char *s, int64_t lo, int64_t hi, int64_t *out)
{
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (*s == '\0' || *end != '\0' || errno || v < lo || v > hi) return false;
    *out = v;
    return true;
}

bool cli_u64(const char *s, uint64_t *out)
{
    char *end;
    errno = 0;
    if (*s == '-' || *s == '\0') return false;
    unsigned long long v = strtoull(s, &end, 0);
    if (*end != '\0' || errno) return false;
    *out = v;
    return true;
}

bool cli_double(const char *s, double lo, double hi, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (*s == '\0' || *end != '\0' || errno || !isfinite(v) || v < lo || v > hi) return false;
    *out = v;
    return true;
}

int cli_usage_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("arena: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return 2;
}
