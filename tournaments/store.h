/* The results store: settings, agents, the full schedule, and each game's
 * result written when it ends. A killed tournament
 * resumes from the games still marked pending. Two backends behind this one
 * API: an SQLite file (a path; store_sqlite.c) and a PostgreSQL database (a
 * postgresql:// or postgres:// URL, a tournament named by the URL's
 * #fragment; store_pg.c), which several hosts' workers share. */
#ifndef ARENA_STORE_H
#define ARENA_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "match.h" /* clock_evidence */
#include "schedule.h"

typedef struct store store;

#define STORE_MOVE_BINS 21 /* = MOVE_HIST_BINS of referee/match.h */
/* Most turns a stored game may hold: far above any game's cap (Dominion's
 * max_turns is at most 1000 rounds), low enough that a report's sums and
 * spans of turn counts cannot overflow an int. */
#define STORE_MAX_TURNS 1000000

/* What a finished game adds for the reports, kept out of tgame so that a
 * whole schedule in memory stays small: per seat, decisions, the longest
 * move, the move-time histogram (5 % steps of the move budget, the last bin
 * over it), the fault message of a forfeit, and the figures of a timeout
 * forfeit (its last timeout's, as its fault record has them). */
typedef struct tgame_detail {
    long decisions[RANKED_MAX];
    double move_max_ms[RANKED_MAX];
    int move_hist[RANKED_MAX][STORE_MOVE_BINS];
    char fault_msg[RANKED_MAX][240];
    clock_evidence clock[RANKED_MAX];  /* set only for a seat forfeited by timeout */
    char stderr_tail[RANKED_MAX][600]; /* a forfeiting seat's last stderr lines (not stored) */
} tgame_detail;

/* A game of the store: its schedule entry and, once done, its result. */
typedef struct tgame {
    sched_game s;
    bool done;
    int rank[RANKED_MAX];
    int64_t score[RANKED_MAX];
    char reason[16];              /* normal | forfeit */
    char forfeit[RANKED_MAX][16]; /* fault cause per seat, "" none */
    int turns;
    double time_ms[RANKED_MAX]; /* charged clock time per seat */
    double wall_ms;
    const tgame_detail *detail; /* NULL: not known (not read back by store_games) */
} tgame;

/* Per agent, over its finished games: moves, charged time, the longest
 * move and the summed histogram. */
typedef struct store_moves {
    double decisions, time_ms, max_ms;
    double hist[STORE_MOVE_BINS];
} store_moves;

/* A forfeited seat of a finished game. */
typedef struct store_forfeit {
    int64_t game;
    int agent, seat;
    char cause[16];
    char message[240];
    char *log; /* malloc'ed, NULL without a log */
    /* A timeout's figures (protocol.md §5), to the microsecond as its fault
     * record has them; clock.set false where none are stored (a game
     * stored before they were, or a timeout with no decision timed). The
     * store writes them for timeout forfeits only. */
    clock_evidence clock;
    bool clock_column; /* the game's row has the figures' column (not NULL) */
} store_forfeit;

/* A logs directory and how many finished games' logs it holds, per host. */
typedef struct store_log_host {
    char *host, *dir;
    int64_t games;
} store_log_host;

/* A host that played games (PostgreSQL: per worker; SQLite: none): its
 * finished games, those with a timeout forfeit, and its speed and clock
 * scale (hostspeed.h) as it recorded them, 0 where it recorded none. */
typedef struct store_worker {
    char *name;
    int64_t games, timeouts;
    double speed, scale;
} store_worker;

/* True for a PostgreSQL URL (postgresql:// or postgres://). */
bool store_is_url(const char *name);

/* Opens (creating if asked) a store: a PostgreSQL URL or an SQLite path.
 * create: the file (the named tournament) must not hold a tournament yet,
 * and the store is locked (store_lock) at once. Returns NULL with a
 * message in err. */
store *store_open(const char *path, bool create, char *err, size_t errlen);
void store_close(store *s);
/* Claims the store for this process until store_close (or its death), so a
 * second run on the same file refuses at once instead of interleaving with
 * the first. -1 with a message in err when another process holds it. */
int store_lock(store *s, char *err, size_t errlen);

/* Writes settings, agents and schedule in one transaction. meta: pairs of
 * key/value strings, NULL-terminated. */
int store_init(store *s, const char *const *meta, char *const *names, char *const *specs,
               int n_agents, const schedule *sch, char *err, size_t errlen);
/* Value of a meta key (malloc'ed), or NULL. */
char *store_meta(store *s, const char *key);
/* A meta key read as a number, or dflt when it is not stored. */
double store_meta_number(store *s, const char *key, double dflt);
int store_set_meta(store *s, const char *key, const char *value);
/* Adds an agent after the others (a ladder's new entrant) and writes the
 * meta pairs (NULL-terminated, or NULL) in the same transaction. Its index
 * goes to *id. -1 on error (a name already taken among them). */
int store_add_agent(store *s, const char *name, const char *spec, const char *const *meta, int *id);
/* Agents by index (arrays and strings malloc'ed: store_agents_free). */
int store_agents(store *s, char ***names, char ***specs, int *n);
void store_agents_free(char **names, char **specs, int n);
/* Games in schedule order; pending_only: only those without a result.
 * -1 (store_error says which game) when a row is corrupt: a seat index
 * outside the agents, a wrong count of seats or ranks, a bad rank, a group
 * outside 1..id, an id above twice the games stored (readers size tables
 * by them), a turn count outside 0..STORE_MAX_TURNS, a clock time that is
 * negative or not finite. */
int store_games(store *s, bool pending_only, tgame **games, size_t *n);
/* The most games a schedule may number when `stored` of them are stored:
 * every game is stored when it is scheduled, so a schedule past twice the
 * games stored is a corrupt file, not a reason to allocate for it. */
int64_t store_schedule_cap(int64_t stored);
/* Appends games to the schedule (SPRT extends it as it goes). */
int store_append(store *s, const sched_game *g, size_t n);
/* Records a finished game, all of it or nothing (PostgreSQL: its own
 * transaction; SQLite: committed with its group, below). Returns 1 if
 * stored, 0 if the game already had a result (nothing changed), -1 on
 * error. */
int store_result(store *s, const tgame *g, const char *log_path);
/* SQLite commits results in groups: every STORE_GROUP_RESULTS results, or
 * once the oldest uncommitted one is STORE_GROUP_MS old (store_tick, which
 * a running tournament calls that often), and before any other write and
 * at store_close. A kill loses at most that window; its games are still
 * pending and are played again on --resume. PostgreSQL commits each. */
#define STORE_GROUP_RESULTS 64
#define STORE_GROUP_MS 50
/* Commits the results not committed yet; -1 on error. */
int store_flush(store *s);
/* begin: the reads that follow see the store as of one moment, whatever
 * other connections commit meanwhile, until store_snapshot(s, false):
 * standings, games and counts read one by one agree (the web's snapshot,
 * while a run or its workers write). No write of s's own in between.
 * -1 on error (store_error). */
int store_snapshot(store *s, bool begin);
/* store_flush when the oldest uncommitted result is STORE_GROUP_MS old. */
int store_tick(store *s);
/* Move times per agent (out: n_agents entries, zeroed first). */
int store_moves_by_agent(store *s, int n_agents, store_moves *out);
/* Every forfeited seat, in game order (array malloc'ed; free with
 * store_forfeits_free). -1 (store_error says which game) when a row's
 * timeout figures are corrupt (store_clocks_decode). */
int store_forfeits(store *s, store_forfeit **out, size_t *n);
void store_forfeits_free(store_forfeit *v, size_t n);
/* The first and last result times (ISO UTC, "" when none) and the seconds
 * between them. */
int store_span(store *s, char *first, char *last, size_t len, double *seconds);
/* Games scheduled and finished. */
int store_counts(store *s, int64_t *total, int64_t *done);
/* Where the match logs are (PostgreSQL: per worker host; SQLite: none, the
 * logs directory is in the meta "logs"). Free with store_log_hosts_free. */
int store_log_hosts(store *s, store_log_host **out, size_t *n);
void store_log_hosts_free(store_log_host *v, size_t n);
/* The hosts that played, by name (free with store_workers_free); with
 * `speeds`, also what each recorded of its speed and scale. */
int store_workers(store *s, bool speeds, store_worker **out, size_t *n);
void store_workers_free(store_worker *v, size_t n);
/* The meta keys under which a worker records its speed and clock scale. */
#define STORE_WORKER_SPEED "worker_speed:"
#define STORE_WORKER_SCALE "worker_scale:"
const char *store_error(store *s);

#endif
