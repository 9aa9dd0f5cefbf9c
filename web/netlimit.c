/* Failed tries per network (netlimit.h). */
#include "netlimit.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util.h"

typedef struct source {
    char net[64];
    double credit, at; /* tries left, as of `at` (ms) */
} source;

struct netlimit {
    source s[NETLIMIT_SOURCES];
    int n;
    source global;
};

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

netlimit *netlimit_new(void)
{
    netlimit *l = xcalloc(1, sizeof *l);
    l->global.credit = NETLIMIT_GLOBAL_BURST;
    l->global.at = now_ms();
    return l;
}

void netlimit_free(netlimit *l)
{
    free(l);
}

void netlimit_net(const struct sockaddr *addr, char *net, size_t len)
{
    if (addr && addr->sa_family == AF_INET6) {
        const struct sockaddr_in6 *a6 = (const struct sockaddr_in6 *)addr;
        const uint8_t *b = a6->sin6_addr.s6_addr;
        if (IN6_IS_ADDR_V4MAPPED(&a6->sin6_addr)) {
            snprintf(net, len, "%u.%u.%u.0/24", b[12], b[13], b[14]);
            return;
        }
        struct in6_addr m;
        memset(&m, 0, sizeof m);
        memcpy(m.s6_addr, b, 8);
        char t[INET6_ADDRSTRLEN];
        inet_ntop(AF_INET6, &m, t, sizeof t);
        snprintf(net, len, "%s/64", t);
    } else if (addr && addr->sa_family == AF_INET) {
        const uint8_t *b = (const uint8_t *)&((const struct sockaddr_in *)addr)->sin_addr;
        snprintf(net, len, "%u.%u.%u.0/24", b[0], b[1], b[2]);
    } else {
        snprintf(net, len, "?");
    }
}

static void refill(source *s, double burst, double refill_ms, double now)
{
    s->credit += (now - s->at) / refill_ms;
    if (s->credit > burst) s->credit = burst;
    s->at = now;
}

static source *source_of(netlimit *l, const char *net)
{
    double now = now_ms();
    source *s = NULL;
    for (int i = 0; i < l->n && !s; i++)
        if (!strcmp(l->s[i].net, net)) s = &l->s[i];
    if (!s) {
        if (l->n < NETLIMIT_SOURCES) {
            s = &l->s[l->n++];
        } else {
            s = &l->s[0];
            for (int i = 1; i < NETLIMIT_SOURCES; i++)
                if (l->s[i].at < s->at) s = &l->s[i];
        }
        snprintf(s->net, sizeof s->net, "%s", net);
        s->credit = NETLIMIT_BURST;
        s->at = now;
    }
    refill(s, NETLIMIT_BURST, NETLIMIT_REFILL_MS, now);
    refill(&l->global, NETLIMIT_GLOBAL_BURST, NETLIMIT_GLOBAL_REFILL_MS, now);
    return s;
}

bool netlimit_may_fail(netlimit *l, const char *net, bool *net_spent)
{
    source *s = source_of(l, net);
    if (net_spent) *net_spent = s->credit < 1;
    return s->credit >= 1 && l->global.credit >= 1;
}

void netlimit_failed(netlimit *l, const char *net)
{
    source *s = source_of(l, net);
    s->credit -= 1;
    l->global.credit -= 1;
}
