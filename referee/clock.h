/* Clock arithmetic of protocol.md §4, kept pure so it is unit-tested apart
 * from any I/O. Times are milliseconds as doubles (sub-ms wall precision). */
#ifndef ARENA_CLOCK_H
#define ARENA_CLOCK_H

#include <stdbool.h>
#include <sys/types.h>

#include "match.h"

typedef struct seat_clock {
    double bank_left; /* bank_ms still unused this game */
    double game_left; /* game_ms still unused; < 0 when no game cap */
} seat_clock;

void seat_clock_start(seat_clock *c, const clock_config *cfg);

/* How long the next decision may take in total before it times out:
 * move_ms + bank left, capped by the game time left. */
double clock_allowance(const clock_config *cfg, const seat_clock *c);

/* Charges `used` ms for one decision: time over move_ms comes out of the
 * bank, all of it out of the game cap. Returns false (timed out) when the
 * bank or the game time would go negative. */
bool clock_charge(const clock_config *cfg, seat_clock *c, double used);

/* In cpu mode the wall clock still caps a decision at 10 x move_ms (and a
 * start-up at 10 x startup_ms): a sleeping or blocked agent times out. */
#define CLOCK_CPU_WALL_CAP 10
double clock_wall_cap(const clock_config *cfg);
/* What is left of a start-up span of `limit_ms` begun at wall time `t0`
 * (startup_ms: exec to join, hello to ready), <= 0 when it is over. With
 * the agent's CPU time `used` (>= 0; -1: wall time), counted in the CPU
 * time it used since it had `cpu0`, within the wall cap: an opponent that
 * starves the host of CPU then cannot make an agent miss its start-up. */
double clock_startup_left(double limit_ms, double t0, double used, double cpu0, double now);

/* Monotonic wall time in ms. */
double clock_now_ms(void);
/* CPU time (user + system) in ms of a process and all its descendants,
 * to the microsecond as far as the kernel has counted it (up to a
 * scheduler tick of a running process may not be), but for reaped
 * children's (10 ms ticks); -1 if the process is gone. */
double proc_tree_cpu_ms(pid_t pid);

#endif
