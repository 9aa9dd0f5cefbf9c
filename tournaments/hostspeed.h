/* How fast this host runs bots' kind of work: a fixed benchmark, so that a
 * tournament's clocks can be scaled per worker (--tc-scale auto). The same
 * bot then gets the same work per move on a slow host as on a fast one. */
#ifndef ARENA_HOSTSPEED_H
#define ARENA_HOSTSPEED_H

#include <stdbool.h>
#include <string.h>

/* A worker plays a --tc-scale auto tournament only when its speed is within
 * this factor of the tournament's reference, either way; further off, its
 * clocks would be scaled past what the measurement can vouch for. */
#define HOSTSPEED_RANGE 4.0

/* Games of random-play Dominion per CPU second of this thread: the best of
 * a few runs of the same fixed games, timed on the thread's CPU clock, so a
 * loaded host measures its speed, not its load. About 0.2 s of CPU. */
double hostspeed_measure(void);

/* The factor that a tournament's move, bank and game clocks are multiplied
 * by on a host of speed `speed`, for a reference host of speed `ref`. */
static inline double hostspeed_scale(double ref, double speed)
{
    return ref / speed;
}

/* --tc-scale auto|off; false for anything else. */
static inline bool tc_scale_parse(const char *s, bool *on)
{
    if (strcmp(s, "auto") != 0 && strcmp(s, "off") != 0) return false;
    *on = s[0] == 'a';
    return true;
}

/* Whether a host of speed `speed` may play for a reference of `ref`. */
static inline bool hostspeed_in_range(double ref, double speed)
{
    return speed > 0 && ref > 0 && speed * HOSTSPEED_RANGE >= ref && speed <= ref * HOSTSPEED_RANGE;
}

#endif
