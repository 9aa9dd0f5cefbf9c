/* libpq, loaded with dlopen the first time a postgresql:// URL is opened,
 * so that every other arena run starts without it and the ~20 libraries
 * it pulls in (Kerberos, LDAP, TLS). The table holds the functions
 * store_pg.c calls, typed from libpq-fe.h (only its declarations are used:
 * arena does not link libpq). */
#ifndef ARENA_PQ_DL_H
#define ARENA_PQ_DL_H

#include <libpq-fe.h>
#include <stddef.h>

#define PQ_FN(name) __typeof__(&PQ##name) name
typedef struct pq_api {
    PQ_FN(connectdbParams);
    PQ_FN(finish);
    PQ_FN(reset);
    PQ_FN(status);
    PQ_FN(errorMessage);
    PQ_FN(setNoticeProcessor);
    PQ_FN(exec);
    PQ_FN(execParams);
    PQ_FN(prepare);
    PQ_FN(execPrepared);
    PQ_FN(resultStatus);
    PQ_FN(resultErrorMessage);
    PQ_FN(ntuples);
    PQ_FN(getvalue);
    PQ_FN(getisnull);
    PQ_FN(cmdTuples);
    PQ_FN(clear);
} pq_api;
#undef PQ_FN

/* Filled by pq_load. */
extern pq_api pq;

/* Loads libpq once (later calls return at once): 0, or -1 with what is
 * missing and how to install it in err. */
int pq_load(char *err, size_t errlen);

#endif
