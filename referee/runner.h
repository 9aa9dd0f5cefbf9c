/* Internals shared by agent.c (transports, processes) and match.c (games,
 * clock, faults). Not part of the public match.h API. */
#ifndef ARENA_RUNNER_H
#define ARENA_RUNNER_H

#include <stdbool.h>
#include <sys/types.h>

struct addrinfo;

#include "cgroup.h"
#include "clock.h"
#include "codec.h"
#include "freeze.h"
#include "match.h"
#include "messages.h"
#include "owed.h"
#include "policy.h"
#include "proctree.h"

struct match;

/* What an agent reports to the match that seats it. match.c fills one table
 * and sets it with the seat; agent.c reaches its match only through it, so
 * the seam runs one way: match.c drives agents by name (agent_* below), and
 * agent.c knows no function of match.c. */
typedef struct agent_host {
    void (*joined)(struct match *m, int seat);
    /* The loop was busy with the seat's input from t0 to t1 (lag.h: its own
     * time, never credited to it as the loop's lag). */
    void (*busy)(struct match *m, int seat, double t0, double t1);
    void (*message)(struct match *m, int seat, msg *in, double arrived_ms);
    void (*sent)(struct match *m, int seat, double when_ms); /* out buffer drained */
    /* The agent's output could not all be written (it is not reading). */
    void (*blocked)(struct match *m, int seat);
    void (*dead)(struct match *m, int seat);
    void (*stderr_line)(struct match *m, int seat, const char *line, size_t len);
    /* Logs a raw incoming message (before validation), which arrived as a
     * frame of `bytes` bytes, into the match log: every message but `log`s
     * beyond a cap per seat and game. */
    void (*log_in)(struct match *m, int seat, const av *raw, size_t bytes);
    /* Whether log_in wants every message's tree (a log or the trace):
     * without, a canonical `act` skips the tree (actframe.h). */
    bool (*wants_raw)(const struct match *m);
    /* Whether the match's first step has yet to send this seat its hello. */
    bool (*hello_due)(const struct match *m, int seat);
    /* A late answer (see owed.h) was dropped: logged, never charged. */
    void (*dropped)(struct match *m, int seat, const char *what);
} agent_host;

/* The longest join name shown or passed on, in bytes. */
#define AGENT_NAME_MAX 64

typedef enum { AGENT_SPAWNED, AGENT_TCP, AGENT_BUILTIN } agent_kind;

struct arena_agent {
    struct event_base *base;
    agent_kind kind;
    char *spec, *display, *game;
    agent_config cfg;

    /* Process / connection (not for builtins). */
    pid_t pid; /* 0 when none; the process group id otherwise */
    int rfd, wfd, efd;
    int xfd; /* spawned, until its exec is known to have succeeded: see spawn.h */
    struct event *ev_read, *ev_write, *ev_err, *ev_timer, *ev_exec;
    /* tcp: a connect under way (not waited for: agent.c, tcp_start), with
     * the addresses still to try. */
    bool connecting;
    struct addrinfo *ai, *ai_next;
    /* Its host name's lookup, while one is under way (resolve.h). */
    struct resolve_req *resolving;
    struct event *ev_flush; /* output written once the loop's current batch is done */
    bool flush_deferred;    /* ev_flush let a new match's first step go first */
    frame_decoder dec;
    abuf out;
    freezer frz;      /* --freeze-idle, without a freezer cgroup */
    bool cg_frozen;   /* --freeze-idle, by its freezer cgroup */
    bool write_waits; /* ev_write is added: out did not all go at once */
    /* Whole messages wait in dec past a wake-up's budget: ev_read is off
     * and ev_readmore takes them on the loop's next turn. */
    bool read_held;
    struct event *ev_readmore;
    bool read_more; /* the last on_read stopped at a budget: more may wait */
    bool exited;
    int exit_status;
    /* Its output closed while its process ran: the verdict waits for the
     * exit, at most EXIT_WAIT_MS (agent.c, agent_ending), with ev_ending. */
    bool ending;
    int ending_err; /* the read's errno, 0 at EOF */
    struct event *ev_ending;
    agent_cgroup cg; /* spawned, where cgroups serve (cgroup.h) */

    bool joined;
    char *join_name; /* cut to AGENT_NAME_MAX bytes, controls masked */
    msg_join join;   /* as received */
    bool alive;
    fault_cause dead_cause;
    bool dead_at_startup;
    char dead_reason[240];

    /* Current match, and how to tell it what happens (NULL: none). */
    struct match *match;
    const agent_host *host;
    int seat;
    owed_answers owed; /* late answers still to come: dropped when they do */
    /* Late answers dropped while no match was running, for the next log. */
    int dropped_between;
    char dropped_last[120];

    /* Builtins. */
    const arena_policy_vt *pv;
    const char *parg;
    void *policy;

    /* stderr lines being assembled, and read but not yet handled. */
    abuf errline, errpend;
    struct event *ev_errmore; /* handles errpend on the loop's next turn */

    /* arena serve: vets the join's token; on_dead hears of a death while
     * the agent sits in no match (both get check_ctx). */
    agent_join_check check;
    void *check_ctx;
    void (*on_dead)(arena_agent *a, void *ctx);

    agent_report *report;
    double t_start, t_close;
    /* The start-up span under way (agent_span_start): its tree's waits for
     * a CPU since it began, and its CPU time then. */
    clock_probe span;
    double span_cpu0;
    /* Its process's /proc files, kept open for the fair clock's looks
     * (proctree_keep); closed once it is reaped. */
    proctree_keep procfs;

    /* Closing. */
    bool closing;
    void (*closed)(void *ctx);
    void *closed_ctx;
    struct agent_list_node *node;
};

/* agent.c -> the rest */
void agent_send(arena_agent *a, const msg *m);
/* Sends an already built wire map (for a match log or trace, which want
 * the tree; agent_send and decide_write write without one). */
void agent_send_av(arena_agent *a, const av *v);
codec_kind agent_codec(const arena_agent *a);
/* For a message written straight into the agent's output: the buffer to
 * append whole frames to and the codec to write them in, or NULL when the
 * agent is not to be written to (dead, built-in); then agent_flush. */
abuf *agent_out(arena_agent *a, codec_kind *c);
void agent_flush(arena_agent *a);
/* --freeze-idle (freeze.h): stop the agent's processes while it is not on
 * the move, continue them when it must answer. No-ops for other agents. */
void agent_freeze(arena_agent *a);
void agent_thaw(arena_agent *a);
/* The CPU time in ms of all the agent's processes (clock.h): from its
 * cpuacct cgroup where it has one, else a walk of its process tree; -1 if
 * it has no process. */
double agent_cpu_ms(arena_agent *a);
/* A start-up span (exec to join, hello to ready) begins now, the agent's
 * CPU time then `cpu0` (`fresh`: at its exec, clock_probe_start); what is
 * left of it, begun at wall time t0 (clock_startup_left under startup_ms,
 * the wall cap leaving out the tree's waits for a CPU since the start);
 * the span is over. */
void agent_span_start(arena_agent *a, double cpu0, bool fresh);
double agent_span_left(arena_agent *a, double t0, double now);
void agent_span_end(arena_agent *a);
/* Catches up with an agent after the loop was late: writes what is queued
 * for it and handles what it has sent (before a timeout is declared), as
 * much as one turn of the loop reads. True when it stopped at that budget
 * with more perhaps waiting. An agent_ending one gets its verdict now. */
bool agent_catch_up(arena_agent *a);
/* event_add of a timer `ms` from now (the real now, not libevent's cached
 * time, which is stale after a long callback). */
void arm_after(struct event_base *base, struct event *ev, double ms);
/* Whether the agent closed its output and its verdict waits (at most
 * EXIT_WAIT_MS, agent.c) for its process's exit, to say how it died: not
 * alive, and nothing is to be sent to it; its match hears of it through
 * agent_host.dead. */
bool agent_ending(const arena_agent *a);
/* Marks the agent dead (kills a process) and tells its match. */
void agent_fail(arena_agent *a, fault_cause cause, bool at_startup, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

#endif
