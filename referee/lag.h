/* Loop lag: how late the referee's own event loop runs. One long callback
 * (or a loaded machine) delays every other match on the loop: an answer
 * can sit unread in a pipe, and a timer runs late. The time a bot is
 * charged must not include that, so a probe timer measures the lag and the
 * match subtracts what fell inside each decision (protocol.md §5).
 *
 * The accounting is pure (times in, totals out) so it is unit-tested; the
 * meter runs it on a libevent timer. */
#ifndef ARENA_LAG_H
#define ARENA_LAG_H

struct event_base;

#define LAG_PROBE_MS 10.0 /* the probe's period */
#define LAG_STALL_MS 5.0  /* a probe later than this: the loop stalled */

typedef struct lag_account {
    double next_due; /* when the probe should run next */
    double total_ms; /* stall time seen so far */
    double max_ms;   /* the longest stall */
    long stalls;
} lag_account;

void lag_account_start(lag_account *a, double now);
/* The probe ran at `now`: counts its lateness and schedules the next run. */
void lag_account_tick(lag_account *a, double now);
/* Stall time up to `now`, including a stall still going on (the probe is
 * overdue). Never decreases as `now` grows, across ticks too, so the lag
 * inside a span is total(end) - total(start). */
double lag_account_total(const lag_account *a, double now);

/* The probe of one event base, shared by every match on it and running
 * only while one holds it (so an idle loop can still exit). */
typedef struct lag_meter lag_meter;
lag_meter *lag_meter_hold(struct event_base *base);
void lag_meter_release(lag_meter *m);
/* lag_account_total of the base's probe, in clock_now_ms() time. */
double lag_meter_total(const lag_meter *m, double now);
long lag_meter_stalls(const lag_meter *m);

#endif
