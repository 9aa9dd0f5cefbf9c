/* Links to forfeited games' viewers (see report_link.h). */
#include "report_link.h"

#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store.h"
#include "util.h"

char *report_page_dir(const char *outpath)
{
    char *dir = xstrdup(outpath ? outpath : ".");
    if (outpath) {
        char *slash = strrchr(dir, '/');
        if (!slash)
            strcpy(dir, ".");
        else if (slash == dir)
            dir[1] = '\0';
        else
            *slash = '\0';
    }
    char *real = realpath(dir, NULL);
    free(dir);
    return real;
}

/* The viewer's real path, or NULL. */
static char *find_viewer(const char *log, const char *db)
{
    char *p = xasprintf("%s.html", log);
    char *real = realpath(p, NULL);
    free(p);
    if (real || log[0] == '/' || !db || store_is_url(db)) return real;
    const char *slash = strrchr(db, '/');
    if (!slash) return NULL;
    p = xasprintf("%.*s/%s.html", (int)(slash - db), db, log);
    real = realpath(p, NULL);
    free(p);
    return real;
}

static bool unreserved(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
           c == '.' || c == '_' || c == '~';
}

char *report_viewer_link(const char *log, int64_t game, const char *db, const char *page_dir)
{
    if (!log || !page_dir) return NULL;
    char *target = find_viewer(log, db);
    if (!target) return NULL;
    const char *base = strrchr(target, '/') + 1; /* realpath: absolute */
    char gz[64], plain[64];
    snprintf(gz, sizeof gz, "game-%06" PRId64 ".jsonl.gz.html", game);
    snprintf(plain, sizeof plain, "game-%06" PRId64 ".jsonl.html", game);
    if (strcmp(base, gz) != 0 && strcmp(base, plain) != 0) {
        free(target);
        return NULL;
    }
    /* The longest common directory prefix, then one step up for each of
     * page_dir's directories past it. */
    size_t common = 0;
    for (size_t i = 0; page_dir[i] && page_dir[i] == target[i]; i++)
        if (page_dir[i] == '/') common = i;
    size_t pd = strlen(page_dir);
    if (strncmp(page_dir, target, pd) == 0 && target[pd] == '/') common = pd;
    size_t ups = 0;
    for (size_t i = common; i < pd && pd > 1; i++) /* page_dir "/": none */
        if (page_dir[i] == '/') ups++;
    const char *rest = pd == 1 ? target + 1 : target + common + 1;
    size_t cap = ups * 3 + strlen(rest) * 3 + 1;
    char *href = xmalloc(cap), *o = href;
    for (size_t i = 0; i < ups; i++)
        o += sprintf(o, "../");
    for (const unsigned char *c = (const unsigned char *)rest; *c; c++)
        if (unreserved(*c) || *c == '/')
            *o++ = (char)*c;
        else
            o += sprintf(o, "%%%02X", *c);
    *o = '\0';
    free(target);
    return href;
}
