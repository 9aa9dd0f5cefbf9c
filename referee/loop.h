/* The priorities of the events on a match loop (match_loop_new). Every
 * event runs at LOOP_PRIO_DEFAULT, libevent's default on such a loop
 * (its middle one: 0 is unused), except work that comes in bulk and has
 * no clock: that runs at LOOP_PRIO_BACKGROUND, only
 * when nothing else is ready, a short piece at a time. So it holds up an
 * agent's bytes, a clock or the lag probe by one piece at most, not by
 * all of it. Such work is the web's broadcasts to spectators (sse.c: with
 * 1,200 spectators, the loop's own lag at p99 went from 5.4-6.0 ms to
 * 2.7-3.7 ms; web-live-load). A match of built-in bots only, always
 * ready, keeps the background from running: its broadcasts then go out
 * SSE_PEND_MAX at a time (sse.c). Nothing in the web is above the matches:
 * with the matches ranked above it, 1,200 spectators' connections were
 * accepted too slowly beside two matches of fast bots. */
#ifndef ARENA_LOOP_H
#define ARENA_LOOP_H

#include <event2/event.h>

enum { LOOP_PRIO_DEFAULT = 1, LOOP_PRIO_BACKGROUND, LOOP_PRIOS };

/* Gives ev, not yet added or active, priority prio. On a loop of fewer
 * priorities (a plain event_base, as tests make) it keeps the one it has. */
static inline void loop_prio(struct event *ev, int prio)
{
    if (ev) (void)event_priority_set(ev, prio);
}

#endif
