/* A progress line on stderr for the benches that can run for an hour (the
 * search bots' games): at most one every PROGRESS_EVERY_S seconds, so a
 * short run prints none and its stderr stays clean. */
#ifndef ARENA_BENCH_PROGRESS_H
#define ARENA_BENCH_PROGRESS_H

#include <stdio.h>
#include <time.h>

enum { PROGRESS_EVERY_S = 10 };

typedef struct bench_progress {
    const char *name; /* the bench's name, first on the line */
    long total;       /* games in the run */
    double t0, next;  /* monotonic seconds: the start, the next line's time */
} bench_progress;

static inline double bench_now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static inline void bench_progress_start(bench_progress *p, const char *name, long total)
{
    double now = bench_now_s();
    *p = (bench_progress){name, total, now, now + PROGRESS_EVERY_S};
}

/* After `done` games: "NAME: 120/2000 games, about 1540 s left". */
static inline void bench_progress_step(bench_progress *p, long done)
{
    double now = bench_now_s();
    if (now < p->next || done <= 0 || done >= p->total) return;
    p->next = now + PROGRESS_EVERY_S;
    fprintf(stderr, "%s: %ld/%ld games, about %.0f s left\n", p->name, done, p->total,
            (now - p->t0) / (double)done * (double)(p->total - done));
}

#endif
