/* Stopping a tournament early once its ranking is settled: every adjacent
 * pair of the ranking (or of its top K) separated with a given likelihood of
 * superiority, after a minimum number of games per pairing. The driver asks
 * only between whole seat-rotation groups, so duplicate pairs stay whole. */
#ifndef ARENA_STOPPING_H
#define ARENA_STOPPING_H

#include <stdbool.h>
#include <stddef.h>

#include "elo.h"

typedef struct stop_rule {
    bool on;
    int top;       /* 0: the whole ranking; else the top K places */
    double conf;   /* LOS every adjacent pair must reach, in (0.5, 1) */
    int min_games; /* per pairing (or all it is scheduled, if fewer) */
} stop_rule;

#define STOP_MIN_GAMES_DEFAULT 20

/* "ranking:CONF" or "top:K:CONF" ("none" turns it off). min_games is left
 * as it is. Returns 0, or -1 with a message in err. */
int stop_rule_parse(const char *spec, stop_rule *r, char *err, size_t errlen);
/* The spec back ("ranking:0.95"), for the store and reports. */
void stop_rule_format(const stop_rule *r, char *buf, size_t len);

/* Whether the ranking is settled. met[i*n+j]: games i and j played together
 * so far; planned[i*n+j]: games the schedule has them play together (pairs
 * it never brings together are not required to meet). names break rating
 * ties as the reports do. When settled, why says so in one line. */
bool stop_settled(const stop_rule *r, const elo_fit *f, char *const *names, const double *met,
                  const double *planned, char *why, size_t whylen);

#endif
