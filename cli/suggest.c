#include "suggest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runopts.h"
#include "util.h"

#define WORD_MAX 64

size_t suggest_distance(const char *a, const char *b)
{
    size_t n = strlen(a), m = strlen(b);
    if (n > WORD_MAX || m > WORD_MAX) return (size_t)-1;
    /* Optimal string alignment: three rows of the Levenshtein table. */
    size_t rows[3][WORD_MAX + 1];
    size_t *pp = rows[0], *p = rows[1], *c = rows[2];
    for (size_t j = 0; j <= m; j++)
        p[j] = j;
    for (size_t i = 1; i <= n; i++) {
        c[0] = i;
        for (size_t j = 1; j <= m; j++) {
            size_t best = p[j - 1] + (a[i - 1] != b[j - 1]);
            if (p[j] + 1 < best) best = p[j] + 1;
            if (c[j - 1] + 1 < best) best = c[j - 1] + 1;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
                pp[j - 2] + 1 < best)
                best = pp[j - 2] + 1;
            c[j] = best;
        }
        size_t *t = pp;
        pp = p, p = c, c = t;
    }
    return p[m];
}

const char *suggest_closest(const char *word, const char *const *candidates)
{
    size_t len = strlen(word), best = (size_t)-1;
    size_t limit = len <= 4 ? 1 : len <= 8 ? 2 : 3;
    const char *pick = NULL;
    for (const char *const *c = candidates; *c; c++) {
        size_t d = suggest_distance(word, *c);
        if (d < best) best = d, pick = *c;
    }
    if (pick && best <= limit && best > 0) return pick;
    /* "--move" for "--move-ms": a prefix long enough to mean something */
    for (const char *const *c = candidates; *c && len >= 4; c++)
        if (!strncmp(*c, word, len) && strlen(*c) > len) return *c;
    return NULL;
}

static size_t count(const char *const *list)
{
    size_t n = 0;
    while (list && list[n])
        n++;
    return n;
}

void suggest_unknown_option(const char *cmd, const char *arg, const char *const *own,
                            const char *const *more)
{
    size_t n_own = count(own), n_more = count(more), n_shared = 0, n = 0;
    while (run_options_flag_name(n_shared))
        n_shared++;
    const char **all = xcalloc(n_own + n_more + n_shared + 1, sizeof *all);
    for (size_t k = 0; k < n_own; k++)
        all[n++] = own[k];
    for (size_t k = 0; k < n_more; k++)
        all[n++] = more[k];
    for (size_t k = 0; k < n_shared; k++)
        all[n++] = run_options_flag_name(k);
    char name[WORD_MAX + 1];
    snprintf(name, sizeof name, "%.*s", (int)strcspn(arg, "="), arg); /* --flag=VALUE */
    const char *near = suggest_closest(name, all);
    if (near)
        fprintf(stderr, "arena: unknown option '%s' (did you mean %s? see `arena %s --help`)\n",
                arg, near, cmd);
    else
        fprintf(stderr, "arena: unknown option '%s' (see `arena %s --help`)\n", arg, cmd);
    free(all);
}
