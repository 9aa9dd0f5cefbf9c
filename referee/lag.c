#include "lag.h"

#include <event2/event.h>
#include <fcntl.h>
#include <stdio.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "procfile.h"
#include "util.h"

void lag_account_start(lag_account *a, double now, double slack)
{
    a->slack = slack;
    a->next_due = now + LAG_PROBE_MS + slack;
    a->total_ms = 0;
    a->stalls = 0;
}

void lag_account_tick(lag_account *a, double now)
{
    double late = now - a->next_due;
    if (late > LAG_STALL_MS) {
        a->total_ms += late;
        a->stalls++;
    }
    a->next_due = now + LAG_PROBE_MS + a->slack;
}

double lag_account_credit(const lag_account *a, double now)
{
    double late = now - a->next_due;
    return late > LAG_STALL_MS ? late : 0;
}

double lag_account_total(const lag_account *a, double now)
{
    double late = now - a->next_due;
    return a->total_ms + (late > LAG_STALL_MS ? late : 0);
}

void lag_account_own(const lag_account *a, lag_own *o, double t0, double t1)
{
    if (o->stall != a->next_due) { /* the probe ran: a new stall, if any */
        o->stall = a->next_due;
        o->ms = 0;
    }
    if (t0 < a->next_due) t0 = a->next_due; /* before it, no stall */
    if (t1 > t0) o->ms += t1 - t0;
}

double lag_account_credit_own(const lag_account *a, const lag_own *o, double now)
{
    double credit = lag_account_credit(a, now);
    if (credit > 0 && o->stall == a->next_due) credit -= o->ms;
    return credit > 0 ? credit : 0;
}

struct lag_meter {
    struct event_base *base;
    int tfd;                /* the probe's timerfd, or -1 */
    struct event *fd_probe; /* its event, while it works */
    struct event *probe;    /* else: a libevent timer, with slack */
    bool precise;           /* the timerfd is in use */
    lag_account acc;
    lag_hold *holds; /* the holders */
    lag_meter *next;
};

static lag_meter *meters; /* one per event base in use */

/* How late a libevent timer may run on an idle loop: two ticks of the
 * coarse clock it keeps time with (an idle tickless kernel moves that clock
 * late) and epoll's millisecond. Measured with a 4 ms tick: up to 8 ms. */
static double coarse_slack(void)
{
    struct timespec res;
    if (clock_getres(CLOCK_MONOTONIC_COARSE, &res) != 0) return 20;
    return 2 * ((double)res.tv_sec * 1e3 + (double)res.tv_nsec / 1e6) + 1;
}

/* Without a timerfd (out of descriptors, say) the probe is a libevent
 * timer: coarse, so its slack is never taken for a stall. */
static void use_coarse_timer(lag_meter *m)
{
    if (m->precise) event_del(m->fd_probe);
    m->precise = false;
    double slack = coarse_slack();
    m->acc.next_due += slack - m->acc.slack;
    m->acc.slack = slack;
}

static void arm(lag_meter *m)
{
    if (m->precise) {
        double due = m->acc.next_due; /* to the nanosecond: slack 0 */
        struct itimerspec it = {
            .it_value = {.tv_sec = (time_t)(due / 1e3), .tv_nsec = (long)(fmod(due, 1e3) * 1e6)}};
        if (timerfd_settime(m->tfd, TFD_TIMER_ABSTIME, &it, NULL) == 0) return;
        use_coarse_timer(m);
    }
    /* libevent counts from its cached time, which is stale after a long
     * callback: refresh it so the probe is due LAG_PROBE_MS from now. */
    event_base_update_cache_time(m->base);
    struct timeval tv = {0, (suseconds_t)(LAG_PROBE_MS * 1000)};
    evtimer_add(m->probe, &tv);
}

typedef struct lag_hist {
    long bins[LAG_HIST_BINS], count;
    double max;
} lag_hist;
static lag_hist probe_late, probe_busy;
static double probe_wait = -1; /* the loop thread's run-queue wait at the last probe */

static void hist_note(lag_hist *h, double ms)
{
    if (ms < 0) ms = 0;
    int bin = (int)(ms / LAG_HIST_STEP_MS);
    if (bin >= LAG_HIST_BINS) bin = LAG_HIST_BINS - 1;
    h->bins[bin]++;
    h->count++;
    if (ms > h->max) h->max = ms;
}

static double hist_quantile(const lag_hist *h, double q)
{
    long want = (long)ceil(q * (double)h->count), seen = 0;
    for (int i = 0; i < LAG_HIST_BINS; i++)
        if ((seen += h->bins[i]) >= want && seen > 0) return (i + 1) / (1 / LAG_HIST_STEP_MS);
    return 0;
}

/* The calling thread's run-queue wait so far, in ms (the second figure of
 * its schedstat); -1 where the kernel does not say. */
static double thread_wait_ms(void)
{
    static int fd = -2;
    char buf[96];
    if (!procfile_read(procfile_keep(&fd, "/proc/thread-self/schedstat"), buf, sizeof buf))
        return -1;
    unsigned long long run, wait;
    return sscanf(buf, "%llu %llu", &run, &wait) == 2 ? (double)wait / 1e6 : -1;
}

/* One probe ran `late` ms after it was due (slack included). */
static void probe_note(double late)
{
    hist_note(&probe_late, late);
    /* The loop's own share: the lateness less the time its thread waited
     * for a CPU since the probe before, as the fair clock charges a bot
     * (protocol.md section 4). Without schedstat, all of it. */
    double wait = thread_wait_ms();
    double waited = wait >= 0 && probe_wait >= 0 ? wait - probe_wait : 0;
    hist_note(&probe_busy, late - waited);
    probe_wait = wait;
}

void lag_probe_stats_get(lag_probe_stats *out)
{
    out->probes = probe_late.count;
    out->p50_ms = hist_quantile(&probe_late, 0.5);
    out->p99_ms = hist_quantile(&probe_late, 0.99);
    out->max_ms = probe_late.max;
    out->busy_p50_ms = hist_quantile(&probe_busy, 0.5);
    out->busy_p99_ms = hist_quantile(&probe_busy, 0.99);
    out->busy_max_ms = probe_busy.max;
}

static void on_probe(evutil_socket_t fd, short what, void *arg)
{
    (void)what;
    lag_meter *m = arg;
    if (fd >= 0) {
        uint64_t expired; /* read to clear the timerfd; EAGAIN is harmless */
        ssize_t r = read(fd, &expired, sizeof expired);
        (void)r;
    }
    /* A stall ends here: what agents sent during it waits in their pipes.
     * Read it now, while it still counts as delayed by the stall; anything
     * read after this came while the loop was running. */
    double now = clock_now_ms();
    probe_note(now - m->acc.next_due);
    if (lag_account_credit(&m->acc, now) > 0)
        for (lag_hold *h = m->holds; h; h = h->next)
            h->on_stall_end(h->arg);
    lag_account_tick(&m->acc, clock_now_ms());
    arm(m);
}

lag_meter *lag_meter_hold(struct event_base *base, lag_hold *h)
{
    lag_meter *m = meters;
    while (m && m->base != base)
        m = m->next;
    if (!m) {
        m = xcalloc(1, sizeof *m);
        m->base = base;
        m->tfd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
        if (m->tfd >= 0) m->fd_probe = event_new(base, m->tfd, EV_READ | EV_PERSIST, on_probe, m);
        m->probe = evtimer_new(base, on_probe, m);
        m->next = meters;
        meters = m;
    }
    if (!m->holds) {
        lag_account_start(&m->acc, clock_now_ms(), 0);
        m->precise = m->fd_probe && event_add(m->fd_probe, NULL) == 0;
        if (!m->precise) use_coarse_timer(m);
        arm(m);
    }
    h->prev = NULL;
    h->next = m->holds;
    if (m->holds) m->holds->prev = h;
    m->holds = h;
    return m;
}

void lag_meter_release(lag_meter *m, lag_hold *h)
{
    if (h->prev)
        h->prev->next = h->next;
    else
        m->holds = h->next;
    if (h->next) h->next->prev = h->prev;
    if (m->holds) return;
    for (lag_meter **p = &meters; *p; p = &(*p)->next)
        if (*p == m) {
            *p = m->next;
            break;
        }
    if (m->fd_probe) event_free(m->fd_probe);
    if (m->tfd >= 0) close(m->tfd);
    event_free(m->probe);
    free(m);
}

double lag_meter_credit_own(const lag_meter *m, const lag_own *o, double now)
{
    return lag_account_credit_own(&m->acc, o, now);
}

void lag_meter_own(const lag_meter *m, lag_own *o, double t0, double t1)
{
    lag_account_own(&m->acc, o, t0, t1);
}

double lag_meter_total(const lag_meter *m, double now)
{
    return lag_account_total(&m->acc, now);
}

long lag_meter_stalls(const lag_meter *m)
{
    return m->acc.stalls;
}
