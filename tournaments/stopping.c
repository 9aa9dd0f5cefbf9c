/* The early-stopping rule of a tournament. */
#include "stopping.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ratings.h"
#include "util.h"

static int parse_conf(const char *s, double *out)
{
    char *end;
    double v = strtod(s, &end);
    if (end == s || *end || !(v > 0.5 && v < 1.0)) return -1;
    *out = v;
    return 0;
}

int stop_rule_parse(const char *spec, stop_rule *r, char *err, size_t errlen)
{
    if (strcmp(spec, "none") == 0) {
        r->on = false;
        return 0;
    }
    int top = 0;
    const char *conf = NULL;
    if (strncmp(spec, "ranking:", 8) == 0) {
        conf = spec + 8;
    } else if (strncmp(spec, "top:", 4) == 0) {
        char *end;
        long k = strtol(spec + 4, &end, 10);
        if (end == spec + 4 || *end != ':' || k < 1 || k > 1000) {
            snprintf(err, errlen, "stop: 'top:K:CONF' wants K a whole number >= 1, not '%s'", spec);
            return -1;
        }
        top = (int)k;
        conf = end + 1;
    } else {
        snprintf(err, errlen, "stop must be none, ranking:CONF or top:K:CONF, not '%s'", spec);
        return -1;
    }
    double c;
    if (parse_conf(conf, &c) != 0) {
        snprintf(err, errlen, "stop: the confidence must be a number between 0.5 and 1, not '%s'",
                 conf);
        return -1;
    }
    r->on = true;
    r->top = top;
    r->conf = c;
    return 0;
}

void stop_rule_format(const stop_rule *r, char *buf, size_t len)
{
    if (!r->on)
        snprintf(buf, len, "none");
    else if (r->top)
        snprintf(buf, len, "top:%d:%g", r->top, r->conf);
    else
        snprintf(buf, len, "ranking:%g", r->conf);
}

bool stop_settled(const stop_rule *r, const elo_fit *f, char *const *names, const double *met,
                  const double *planned, char *why, size_t whylen)
{
    int n = f->n;
    if (!r->on || n < 2) return false;
    for (int i = 0; i < n * n; i++) {
        double need = planned[i] < r->min_games ? planned[i] : r->min_games;
        if (met[i] < need) return false;
    }
    int *order = xcalloc((size_t)n + 1, sizeof(int));
    ratings_order(f, names, order);
    int pairs = r->top && r->top < n ? r->top : n - 1;
    double weakest = 1.0;
    for (int k = 0; k < pairs; k++) {
        double los = f->los[order[k] * n + order[k + 1]];
        if (los < weakest) weakest = los;
    }
    free(order);
    if (weakest < r->conf) return false;
    char spec[64];
    stop_rule_format(r, spec, sizeof spec);
    snprintf(why, whylen,
             "ranking settled (stop = %s): every adjacent pair of the %s separated with LOS >= "
             "%.3f (weakest %.4f)",
             spec, r->top && r->top < n ? "top places" : "ranking", r->conf, weakest);
    return true;
}
