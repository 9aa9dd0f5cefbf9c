#include "lag.h"

#include <event2/event.h>
#include <stdlib.h>

#include "clock.h"
#include "util.h"

void lag_account_start(lag_account *a, double now)
{
    a->next_due = now + LAG_PROBE_MS;
    a->stall_from = a->stall_to = -1e300; /* no stall yet */
    a->total_ms = 0;
    a->stalls = 0;
}

void lag_account_tick(lag_account *a, double now)
{
    double late = now - a->next_due;
    if (late > LAG_STALL_MS) {
        a->stall_from = a->next_due;
        a->stall_to = now;
        a->total_ms += late;
        a->stalls++;
    }
    a->next_due = now + LAG_PROBE_MS;
}

double lag_account_credit(const lag_account *a, double now)
{
    double late = now - a->next_due;
    if (late > LAG_STALL_MS) return late;
    if (now - a->stall_to <= LAG_PROBE_MS) return now - a->stall_from;
    return 0;
}

double lag_account_total(const lag_account *a, double now)
{
    double late = now - a->next_due;
    return a->total_ms + (late > LAG_STALL_MS ? late : 0);
}

struct lag_meter {
    struct event_base *base;
    struct event *probe;
    lag_account acc;
    int holders;
    lag_meter *next;
};

static lag_meter *meters; /* one per event base in use */

static void arm(lag_meter *m)
{
    /* libevent counts from its cached time, which is stale after a long
     * callback: refresh it so the probe is due LAG_PROBE_MS from now. */
    event_base_update_cache_time(m->base);
    struct timeval tv = {0, (suseconds_t)(LAG_PROBE_MS * 1000)};
    evtimer_add(m->probe, &tv);
}

static void on_probe(evutil_socket_t fd, short what, void *arg)
{
    (void)fd, (void)what;
    lag_meter *m = arg;
    lag_account_tick(&m->acc, clock_now_ms());
    arm(m);
}

lag_meter *lag_meter_hold(struct event_base *base)
{
    lag_meter *m = meters;
    while (m && m->base != base)
        m = m->next;
    if (!m) {
        m = xcalloc(1, sizeof *m);
        m->base = base;
        m->probe = evtimer_new(base, on_probe, m);
        m->next = meters;
        meters = m;
    }
    if (m->holders++ == 0) {
        lag_account_start(&m->acc, clock_now_ms());
        arm(m);
    }
    return m;
}

void lag_meter_release(lag_meter *m)
{
    if (--m->holders > 0) return;
    for (lag_meter **p = &meters; *p; p = &(*p)->next)
        if (*p == m) {
            *p = m->next;
            break;
        }
    event_free(m->probe);
    free(m);
}

double lag_meter_credit(const lag_meter *m, double now)
{
    return lag_account_credit(&m->acc, now);
}

double lag_meter_total(const lag_meter *m, double now)
{
    return lag_account_total(&m->acc, now);
}

long lag_meter_stalls(const lag_meter *m)
{
    return m->acc.stalls;
}
