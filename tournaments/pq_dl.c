/* libpq loaded on first use. */
#include "pq_dl.h"

#include <dlfcn.h>
#include <stdbool.h>
#include <stdio.h>

pq_api pq;

int pq_load(char *err, size_t errlen)
{
    static bool loaded;
    if (loaded) return 0;
    void *h = dlopen("libpq.so.5", RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        snprintf(err, errlen,
                 "cannot load libpq, the PostgreSQL client library (%s); install it (Debian: "
                 "apt-get install libpq5) to use a postgresql:// URL",
                 dlerror());
        return -1;
    }
    const char *missing = NULL;
    /* POSIX: a dlsym result converts to a function pointer. */
#define LOAD(name)                                                                                 \
    if (!(pq.name = (__typeof__(pq.name))dlsym(h, "PQ" #name)) && !missing) missing = "PQ" #name
    LOAD(connectdbParams);
    LOAD(finish);
    LOAD(reset);
    LOAD(status);
    LOAD(errorMessage);
    LOAD(setNoticeProcessor);
    LOAD(exec);
    LOAD(execParams);
    LOAD(prepare);
    LOAD(execPrepared);
    LOAD(resultStatus);
    LOAD(resultErrorMessage);
    LOAD(ntuples);
    LOAD(getvalue);
    LOAD(getisnull);
    LOAD(cmdTuples);
    LOAD(clear);
#undef LOAD
    if (missing) {
        snprintf(err, errlen, "libpq.so.5 has no %s (too old a libpq?)", missing);
        dlclose(h);
        return -1;
    }
    loaded = true; /* kept loaded until exit */
    return 0;
}
