/* Loop lag: how late the referee's own event loop runs. One long callback
 * (or a loaded machine) delays every other match on the loop: an answer
 * can sit unread in a pipe, and a timer runs late. The time a bot is
 * charged must not include that, so a probe timer measures the lag and the
 * match subtracts it from an answer read at the end of a stall (protocol.md
 * §5). Stalls while the bot was still thinking delayed nothing: they are
 * not credited. An answer read after the stall's end is not credited
 * either: when the probe sees the end, the holders (the matches) first read
 * whatever their agents sent meanwhile, so what comes later came while the
 * loop was running.
 *
 * Time the loop spends on an agent's own messages is that agent's time,
 * stall or not: a bot that keeps the loop decoding its `log`s while it
 * thinks would otherwise have its own flood credited back as the referee's
 * lag (tests/hostile/verdicts.py, flood_self). agent.c bounds that time
 * per wake-up, so that no agent can stall the loop long enough to win
 * another a credit (flood_other).
 *
 * The accounting is pure (times in, totals out) so it is unit-tested; the
 * meter runs it on a timerfd of CLOCK_MONOTONIC, the clock the match times
 * with. Not on a libevent timer: libevent keeps time on the coarse clock
 * (a 4 ms tick on a HZ=250 kernel), so its timers run up to a tick plus
 * epoll's millisecond late on an idle loop, and each such "stall" took
 * time off a bot's next answer (tests/hostile/verdicts.py, no_false_lag). */
#ifndef ARENA_LAG_H
#define ARENA_LAG_H

struct event_base;

#define LAG_PROBE_MS 10.0 /* the probe's period */
/* A probe later than this: the loop stalled. What is below it is charged to
 * the bot, so it is small; the timerfd probe of an idle loop runs 0.1-0.8
 * ms late here, up to 4 ms with the cores oversubscribed (that is a stall:
 * the loop did not run). */
#define LAG_STALL_MS 2.0

typedef struct lag_account {
    double slack;    /* how late the probe's timer may run unstalled */
    double next_due; /* when the probe should run next, slack included */
    double total_ms; /* stall time seen so far */
    long stalls;
} lag_account;

/* `slack`: 0 for a precise timer; a coarse one's granularity otherwise. */
void lag_account_start(lag_account *a, double now, double slack);
/* The probe ran at `now`: records a stall if it ran late, schedules the
 * next run. */
void lag_account_tick(lag_account *a, double now);
/* How long the loop had not been running when something was read at
 * `now`: the stall going on (the probe is overdue), else 0. A message read
 * then may have arrived at any time in that stall, so this much of its time
 * is the referee's. */
double lag_account_credit(const lag_account *a, double now);
/* Stall time so far, the stall going on included. */
double lag_account_total(const lag_account *a, double now);

/* The loop's time on one agent's input (reading and decoding what it
 * sent) in the stall going on. */
typedef struct lag_own {
    double stall; /* the stall (its due time) that ms belongs to */
    double ms;
} lag_own;
/* The loop was busy with the agent's input from t0 to t1. */
void lag_account_own(const lag_account *a, lag_own *o, double t0, double t1);
/* lag_account_credit for a message of that agent: the stall going on,
 * less the part of it the loop spent on the agent's own input. */
double lag_account_credit_own(const lag_account *a, const lag_own *o, double now);

/* The probe of one event base, shared by every match on it and running
 * only while one holds it (so an idle loop can still exit). */
typedef struct lag_meter lag_meter;
/* A holder: when a stall ends, on_stall_end(arg) reads what its agents
 * sent during it (while the stall still counts as going on). It must not
 * release a hold: game progress waits for the match's own step. */
typedef struct lag_hold {
    void (*on_stall_end)(void *arg);
    void *arg;
    struct lag_hold *prev, *next;
} lag_hold;
lag_meter *lag_meter_hold(struct event_base *base, lag_hold *h);
void lag_meter_release(lag_meter *m, lag_hold *h);
/* lag_account_credit_own / _own / _total of the base's probe, in
 * clock_now_ms() time. */
double lag_meter_credit_own(const lag_meter *m, const lag_own *o, double now);
void lag_meter_own(const lag_meter *m, lag_own *o, double t0, double t1);
double lag_meter_total(const lag_meter *m, double now);
long lag_meter_stalls(const lag_meter *m);

/* How late the probe ran, over every probe of the process (the meters of
 * all bases, also those released since): in LAG_HIST_STEP_MS steps up to
 * LAG_HIST_BINS of them, the last bin holding anything later. For the
 * organiser (the web front's /api/live) and the load test: the loop's own
 * health, which spectators must not spoil. */
#define LAG_HIST_BINS 1000
#define LAG_HIST_STEP_MS 0.1
typedef struct lag_probe_stats {
    long probes;
    double p50_ms, p99_ms, max_ms; /* upper edges of their bins; max exact */
    /* The same for the loop's own share of each lateness: less the time
     * its thread waited for a CPU since the probe before (its schedstat),
     * which is the host's, the loop ready to run while other processes
     * held the CPUs; no work on the loop (spectators, say) causes that. */
    double busy_p50_ms, busy_p99_ms, busy_max_ms;
} lag_probe_stats;
void lag_probe_stats_get(lag_probe_stats *out);

#endif
