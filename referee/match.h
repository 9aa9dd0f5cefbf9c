/* The match runner: agents and matches hosted on one libevent loop.
 *
 * An agent is a connection to one bot (a spawned process, a TCP peer, or a
 * built-in policy). It lives across many games: the runner sends `hello`
 * for each game and `bye` only when the agent is closed. A match is one game
 * between agents seated in order. Many matches run concurrently on one loop;
 * an agent plays in at most one match at a time.
 *
 * Everything is asynchronous: match_start returns at once and calls `done`
 * from the loop when the game has ended (normally, by forfeit or aborted). */
#ifndef ARENA_MATCH_H
#define ARENA_MATCH_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "game.h"

struct event_base;

/* protocol.md §5: wall time; the agent tree's CPU time; fair, the wall
 * time less what its runnable tasks waited for a CPU (clock.h). */
typedef enum { CLOCK_WALL, CLOCK_CPU, CLOCK_FAIR } clock_mode;
const char *clock_mode_name(clock_mode m); /* "wall", "cpu", "fair" */

/* The figures a decision's verdict on time rests on (protocol.md §5),
 * kept with every timeout so that it can be checked: in ms. */
typedef struct clock_evidence {
    bool set;
    clock_mode mode;     /* the clock the seat was timed by */
    double allowance_ms; /* what the decision could use */
    double charged_ms;   /* what it was charged */
    double wall_ms;      /* decide -> answer (or the verdict) */
    double cpu_ms;       /* the agent tree's CPU time; < 0: not read */
    double wait_ms;      /* the tree's run-queue wait: fair, discounted; cpu, left out
                          * of the wall cap (clock_cap_left); < 0: not read */
    double wait_sum_ms;  /* its tasks' run-queue waits, summed; < 0: not read */
    double lag_ms;       /* the referee's lag credited */
    double host_psi_ms;  /* the host's CPU pressure ("some") over the decision; < 0: none */
} clock_evidence;
typedef enum { FAULT_FORFEIT, FAULT_FALLBACK } fault_policy;
typedef enum {
    CAUSE_NONE = 0,
    CAUSE_TIMEOUT,
    CAUSE_ILLEGAL,
    CAUSE_CRASH,
    CAUSE_PROTOCOL,
} fault_cause;

const char *fault_cause_name(fault_cause c); /* "timeout", ... ; "" for NONE */

typedef struct clock_config {
    int64_t move_ms;    /* per decision */
    int64_t bank_ms;    /* shared reserve per game */
    int64_t game_ms;    /* total per game; < 0: none */
    int64_t startup_ms; /* exec/connect -> join, and hello -> ready */
    clock_mode mode;
} clock_config;

/* Defaults of `arena play` (and every command that runs matches): 1000 ms
 * a move, 10 s bank, no game cap, 5 s startup, fair clock. */
void clock_config_default(clock_config *c);

typedef struct agent_limits {
    int64_t as_mb;    /* address space (RLIMIT_AS), MiB; 0 = unlimited */
    int64_t cpu_s;    /* CPU seconds over the process lifetime (RLIMIT_CPU) */
    int64_t nproc;    /* processes of the agent's user (RLIMIT_NPROC) */
    int64_t fsize_mb; /* largest file it may write (RLIMIT_FSIZE), MiB */
    int64_t tmp_mb;   /* --sandbox: its /tmp and its /dev/shm, each, MiB */
    int64_t mem_mb;   /* memory of all its processes together (cgroup.h), MiB */
} agent_limits;

void agent_limits_default(agent_limits *l);

typedef struct agent_config {
    const char *spec;      /* builtin:NAME, cmd:LINE, tcp:HOST:PORT, or a path */
    const char *name;      /* display name; NULL: the join name or spec */
    const char *game;      /* for builtin policy lookup */
    agent_limits limits;   /* spawned agents only */
    int64_t startup_ms;    /* exec/connect -> join */
    int64_t exit_grace_ms; /* after bye: wait this long, then SIGKILL group */
    size_t max_frame;      /* 0: PROTO_MAX_FRAME_DEFAULT */
    bool sandbox;          /* bubblewrap (spawned agents) */
    bool freeze_idle;      /* stopped while not on the move (freeze.h; spawned agents) */
    /* startup_ms counts CPU time (within 10 x in wall time): under --clock
     * cpu, and under --freeze-idle, which cannot stop anyone while all
     * agents start. Spawned agents only. */
    bool startup_cpu;
    /* --pass-env names for the sandbox, NULL-terminated; may be NULL */
    const char *const *pass_env;
    /* agent_new waits for the exec (spawned) or the connect (tcp:), so
     * that a program that cannot run or a server out of reach is an error
     * at once; otherwise the loop learns it later (a crash at startup) and
     * does not stall while many agents start or a connect hangs. */
    bool wait_exec;
} agent_config;

typedef struct arena_agent arena_agent;

/* Creates (spawns/dials/instantiates) an agent; the join handshake runs in
 * the background and a match waits for it. NULL + err on immediate failure
 * (unknown builtin, unparsable spec, exec impossible). */
arena_agent *agent_new(struct event_base *base, const agent_config *cfg, char *err, size_t errlen);
/* agent_new that also says whose the failure is: *host_fault is set when
 * this host could not start any agent (spawn.h, SPAWN_HOST_FAULT), which
 * must not count against the agent. */
arena_agent *agent_try_new(struct event_base *base, const agent_config *cfg, bool *host_fault,
                           char *err, size_t errlen);
/* The name the agent joined with (or the configured/display name). */
const char *agent_name(const arena_agent *a);
/* False once the agent crashed, broke the protocol or was closed: make a
 * new one to play on. */
bool agent_alive(const arena_agent *a);
bool agent_busy(const arena_agent *a); /* seated in a running match */
/* Sends bye (if connected), closes stdin, waits exit_grace_ms, then kills the
 * process group; frees the agent when done. `closed` (may be NULL) is called
 * from the loop once everything is released. */
void agent_close(arena_agent *a, void (*closed)(void *ctx), void *ctx);

/* For `arena serve`: an agent on a connection accepted elsewhere. `check`
 * sees its `join` and may refuse it: the reason goes to the agent in an
 * `error` message and the connection is closed. */
typedef bool (*agent_join_check)(arena_agent *a, const char *name, const char *token, void *ctx,
                                 char *why, size_t whylen);
arena_agent *agent_from_socket(struct event_base *base, int fd, const agent_config *cfg,
                               agent_join_check check, void *ctx);
/* A seat no agent came to fill: it forfeits every game with `cause`. */
arena_agent *agent_absent(const char *name, fault_cause cause, const char *why);

/* What an agent did outside the games, for `arena check-bot`. The agent
 * fills it as things happen; it must outlive the agent. */
typedef struct agent_report {
    double join_ms;      /* start (spawn/connect) -> join; < 0 until joined */
    size_t stderr_bytes; /* everything it wrote to stderr */
    size_t stderr_lines;
    char stderr_first[160]; /* its first stderr line */
    bool closed;            /* agent_close finished */
    bool exited_itself;     /* it exited within exit_grace_ms after bye */
    double exit_ms;         /* bye -> exit, when it exited itself */
    /* The most memory all its processes held at once (its cgroup's peak),
     * bytes; < 0 where it has no cgroup (cgroup.h). */
    int64_t mem_peak;
} agent_report;
void agent_set_report(arena_agent *a, agent_report *r);

/* A spectator's hook (match_config.watch): what a live web front shows of a
 * game in progress. The match calls it when the game is created, each time
 * the game's turn moves (from inside the game's apply, at the mark: game.h
 * on_turn; after every choice for a game without it), so never at a point
 * a hidden card decides, and once more when the game ends
 * (over), the game freed just after. g is lent for the call only; the
 * events [from, to) are new since the last call and still held: the hook
 * reads them with g->vt->event(g, i, EVENTS_SPECTATOR) and the view with
 * arena_public_view_tree(g), never a seat's view or options. A hook that
 * nobody watches returns at once: the referee builds nothing for it. It
 * returns false to pass a turn by (a board shown a moment ago): the match
 * then keeps those events and passes them again with the next turn's. */
typedef struct match_watch {
    bool (*turn)(void *ctx, const arena_game *g, size_t from, size_t to, bool over);
} match_watch;

typedef struct match_config {
    const arena_game_vt *game;
    const arena_setting *settings;
    size_t n_settings;
    clock_config clock;
    fault_policy on_fault;
    int max_strikes;      /* fallback mode: strikes before forfeit */
    const char *log_path; /* JSON-lines match log; NULL: none */
    bool log_plain;       /* the log as plain text, not gzip-compressed */
    const char *match_id; /* sent in hello; NULL: a random one (never the seed) */
    bool send_events;     /* also send `event` messages between decisions */
    /* `arena play --trace`: every message both ways, stderr, faults and the
     * time charged, time-stamped, as they happen; NULL: none. */
    FILE *trace;
    /* The live web front's hook and its context for this game; NULL: none.
     * A watched game records its events (built-in seats and no log too). */
    const match_watch *watch;
    void *watch_ctx;
} match_config;

#define MOVE_HIST_BINS 21

typedef struct match_outcome {
    int players;
    int ranks[ARENA_MAX_SEATS]; /* forfeited seats ranked last */
    int64_t scores[ARENA_MAX_SEATS];
    const char *reason; /* "normal" | "forfeit" | "aborted" */
    fault_cause forfeit[ARENA_MAX_SEATS];
    int strikes[ARENA_MAX_SEATS];
    int turns;
    long decisions[ARENA_MAX_SEATS];
    double time_ms[ARENA_MAX_SEATS]; /* charged time */
    /* Per-move charged times against clock.move_ms: the longest, and a
     * histogram in MOVE_HIST_BINS - 1 steps of 5 % of the budget, the last
     * bin holding moves over it (all zero when there is no move budget). */
    double move_max_ms[ARENA_MAX_SEATS];
    int move_hist[ARENA_MAX_SEATS][MOVE_HIST_BINS];
    uint64_t seed;
    /* The figures of the seat's last timeout (clock_evidence), if any. */
    clock_evidence timeout[ARENA_MAX_SEATS];
    /* For the people reading the result (play, check-bot, reports): */
    int fallbacks[ARENA_MAX_SEATS]; /* moves the fallback played for it (strikes) */
    int bot_logs[ARENA_MAX_SEATS];  /* `log` messages it sent (SDKs report caught exceptions
                                       that way) */
    /* The texts, last: they are most of the struct's 12 KB, and a match
     * fills only their first byte when they are empty (texts past the NUL
     * are unset), so the ending of a game costs no kilobytes of zeroes. */
    char error[256];                          /* "aborted": why */
    char log_error[300];                      /* the match log could not be written: why ("") */
    char fault_message[ARENA_MAX_SEATS][240]; /* why the seat forfeited; "" if it did not */
    char stderr_tail[ARENA_MAX_SEATS][600];   /* its last stderr lines, '\n'-separated */
    char fallback_last[ARENA_MAX_SEATS][240]; /* why the last fallback move was played */
    char bot_log_last[ARENA_MAX_SEATS][240];  /* the last `log` message */
} match_outcome;

/* 64 bits from the kernel's random source (getrandom): for match ids and
 * default seeds, which must not be guessable. */
uint64_t arena_random_u64(void);

/* The event loop to host matches on. A match of built-in bots keeps its
 * next step active (no I/O to wait for), and libevent runs events made
 * active during a pass in that same pass: on a plain event_base_new() loop
 * such matches never let it poll, so pipes, clocks, heartbeats and signals
 * wait until they are all over. This loop polls every few callbacks. */
struct event_base *match_loop_new(void);

typedef void (*match_done_fn)(const match_outcome *o, void *ctx);

/* Seats agents[0..players-1] (distinct, alive, not busy) in a new game.
 * Returns 0, or -1 + err when the game cannot be created (bad settings,
 * player count). `done` is always called exactly once after a 0 return. */
int match_start(struct event_base *base, const match_config *cfg, arena_agent *const *agents,
                int players, uint64_t seed, match_done_fn done, void *ctx, char *err,
                size_t errlen);

#endif
