/* One game between seated agents: the handshake, the decision loop, the
 * clock of protocol.md §4, the faults of §5, the match log.
 *
 * Game progress only ever happens in the match's own `step` callback, never
 * inside an agent's I/O callback: an agent reports a message, the match
 * records it and schedules a step. So a done-callback that closes agents or
 * starts the next game never runs under an agent's feet. */
#include <errno.h>
#include <event2/event.h>
#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "clock.h"
#include "proctree.h"
#include "decide.h"
#include "fault.h"
#include "lag.h"
#include "loop.h"
#include "matchlog.h"
#include "msgwrite.h"
#include "runner.h"
#include "seatnotes.h"
#include "seeds.h"
#include "util.h"

#define STDERR_LOG_CAP (256 * 1024) /* bytes of stderr logged per seat per game */
/* What a stderr line costs the log besides its text: its record (some 50
 * bytes, and some 2 us of the loop to write). Counted against the cap, so
 * that a flood of empty lines is not logged 262,144 times a game. */
#define STDERR_RECORD_BYTES 48
/* The match log keeps of an agent's messages what the referee read of them
 * (matchlog_msg_in), in JSON bytes: at most IN_MSG_LOG_CAP of one message,
 * IN_LOG_CAP of all a seat's messages in a game, BOT_LOG_CAP of them its
 * `log`s. Past a cap a note, not the bytes: else a legal bot that pads its
 * answers or logs without end fills the organiser's disk, and keeps the
 * shared loop compressing (tests/hostile/padding.py). */
#define IN_MSG_LOG_CAP (16 * 1024)
#define IN_LOG_CAP (1024 * 1024)
#define BOT_LOG_CAP (256 * 1024)
#define BUILTIN_BATCH 256 /* in-process decisions before yielding */
/* Turns of an agent's input read to find its answer when the loop was
 * late (catch_up_awaited). */
#define CATCH_UP_TURNS 4

typedef enum { M_WAIT_JOIN, M_WAIT_READY, M_PLAYING, M_DONE } match_state;

typedef struct seat_state {
    arena_agent *agent;
    bool hello_sent, ready;
    fault_cause forfeit;
    int strikes;
    seat_clock clock;
    size_t ev_cursor;
    uint64_t next_id; /* the last id of its decides (ids count per seat) */
    long decisions;
    double time_ms;
    double move_max_ms; /* per-move summary for reports */
    int move_hist[MOVE_HIST_BINS];
    void *policy; /* built-in seat's policy instance */
    size_t stderr_logged, stderr_dropped;
    /* `log` messages: bytes kept in the match log, messages dropped */
    size_t bot_log_logged, bot_log_dropped;
    /* all its messages (`log`s included) and the notes of those too big */
    size_t in_logged, in_dropped;
    lag_own own;            /* the loop's time on this seat's input, not credited */
    clock_evidence timeout; /* its last timeout's figures */
    seat_notes notes;       /* for the outcome's readers; last (see match_alloc) */
} seat_state;

struct match {
    struct event_base *base;
    match_config cfg;
    arena_setting *settings;
    char *match_id;
    const arena_game_vt *gvt;
    arena_game *g;
    int players;
    uint64_t seed;
    match_state state;
    const char *end_reason;
    match_done_fn done;
    void *done_ctx;
    arena_rng fallback_rng;
    bool fallback_seeded; /* seeded on the first fallback: most games have none */

    /* The decision waiting for an agent. */
    bool pending;
    arena_decision pd;
    uint64_t pid;
    bool sent;
    bool guarded;                    /* not sent: the agent's input backed up, its clock runs */
    double t_clock, cpu0, allowance; /* t_clock: the wall clock's start */
    /* The look at its agent's tasks (clock_probe), where the agent is
     * spawned here and the kernel keeps its run-queue waits. fair: under
     * the fair clock, from the decide (false: the seat has a wall clock
     * instead). probe_late: under the cpu clock, for its wall cap, from
     * the first look, move_ms in: most decisions end sooner and cost no
     * reading of /proc. probed: the look has begun. */
    bool fair, probe_late, probed;
    clock_probe probe;
    clock_evidence ev; /* of the answer or timeout being judged */
    /* An answer that arrived, to be judged in step(), and the time it used
     * (ev), measured as it arrived: a bot busy after its answer must not
     * be charged its CPU, nor credited its waits, of the time until then. */
    bool answered;
    msg answer;
    double answer_used;
    /* The loop's own lag is never charged (lag.h): the credit for the
     * stall the answer was read in, and totals for the log's summary. */
    lag_meter *lag;
    lag_hold lag_hold; /* reads a waiting answer when a stall ends */
    double t_hello, lag_start;
    long stalls_start;

    struct event *ev_step, *ev_timer;
    /* ev_timer is armed to fire at timer_at (clock_now_ms), for the
     * decision before this one maybe: see arm_by. */
    bool timer_on;
    double timer_at;
    matchlog *log;
    int *choice;
    size_t choice_cap;
    const av **evs; /* the events of the decide being written (borrowed) */
    size_t *evi;    /* and their indices in the game */
    size_t evs_cap;
    evcache evc;         /* their bytes, shared by the seats */
    int events_turn;     /* send_events: the turn whose events wait unsent */
    size_t watch_cursor; /* cfg.watch: the events it has been shown */
    bool watch_marks;    /* cfg.watch is told at the game's turn marks */
    char error[256];
    double t_start; /* the trace's zero */
    /* One per player only: a seat is some 1.7 KB, most of it its notes'
     * texts (see match_alloc). */
    seat_state seat[];
};

/* A match zeroed for its players, all but the kilobytes of its seats'
 * notes, which are made empty (seat_notes_init): a game costs no needless
 * zeroes. */
static struct match *match_alloc(int players)
{
    struct match *m = xmalloc(sizeof *m + (size_t)players * sizeof m->seat[0]);
    memset(m, 0, sizeof *m);
    for (int s = 0; s < players; s++) {
        memset(&m->seat[s], 0, offsetof(seat_state, notes));
        seat_notes_init(&m->seat[s].notes);
    }
    return m;
}

#define TRACE(m, s, ...)                                                                           \
    do {                                                                                           \
        if ((m)->cfg.trace)                                                                        \
            trace_printf((m)->cfg.trace, clock_now_ms() - (m)->t_start, (s), __VA_ARGS__);         \
    } while (0)
#define TRACE_MSG(m, s, arrow, v)                                                                  \
    do {                                                                                           \
        if ((m)->cfg.trace)                                                                        \
            trace_msg((m)->cfg.trace, clock_now_ms() - (m)->t_start, (s), (arrow), (v));           \
    } while (0)

/* Between two polls of the loop at most LOOP_MAX_CALLBACKS callbacks (a
 * built-in step is up to BUILTIN_BATCH decisions, so the poll costs
 * nothing that shows) and LOOP_MAX_DISPATCH_US of them: an event that
 * becomes ready meanwhile is then seen, and run before the rest of the
 * background work (loop.h), within about that time. */
#define LOOP_MAX_CALLBACKS 32
#define LOOP_MAX_DISPATCH_US 1000

struct event_base *match_loop_new(void)
{
    struct event_config *c = event_config_new();
    if (!c) return NULL;
    struct timeval most = {0, LOOP_MAX_DISPATCH_US};
    event_config_set_max_dispatch_interval(c, &most, LOOP_MAX_CALLBACKS, 0);
    struct event_base *base = event_base_new_with_config(c);
    event_config_free(c);
    if (base && event_base_priority_init(base, LOOP_PRIOS) != 0) { /* loop.h */
        event_base_free(base);
        return NULL;
    }
    return base;
}

static void schedule_step(struct match *m)
{
    event_active(m->ev_step, 0, 0);
}

static int live_seats(const struct match *m)
{
    int n = 0;
    for (int s = 0; s < m->players; s++)
        n += m->seat[s].forfeit == CAUSE_NONE;
    return n;
}

static void disarm_timer(struct match *m)
{
    event_del(m->ev_timer);
    m->timer_on = false;
}

static void end_match(struct match *m, const char *reason)
{
    if (m->state == M_DONE) return;
    m->state = M_DONE;
    m->end_reason = reason;
    disarm_timer(m);
    schedule_step(m);
}

/* A log or the trace records this match's messages, as trees: only then
 * are the messages built as trees at all. */
static bool recorded(const struct match *m)
{
    return m->log || m->cfg.trace;
}

static void send_msg(struct match *m, int s, const msg *out)
{
    arena_agent *a = m->seat[s].agent;
    if (!a->alive || a->kind == AGENT_BUILTIN) return;
    if (recorded(m)) { /* the tree they need goes out as it is */
        av *v = msg_encode(out);
        if (m->log) matchlog_msg(m->log, s, "out", v);
        TRACE_MSG(m, s, "->", v);
        agent_send_av(a, v);
        av_free(v);
        return;
    }
    agent_send(a, out); /* written straight from the struct (msgwrite.h) */
}

typedef struct seat_view {
    struct match *m;
    int seat;
} seat_view;

static void write_seat_view(vout *o, void *ctx)
{
    const seat_view *sv = ctx;
    sv->m->gvt->view(sv->m->g, sv->seat, o);
}

static void send_error(struct match *m, int s, uint64_t id, const char *code, const char *text,
                       int strikes_left)
{
    msg e = {.type = MSG_ERROR};
    e.u.error.id = id;
    e.u.error.code = (char *)code;
    e.u.error.message = (char *)text;
    e.u.error.strikes_left = strikes_left;
    send_msg(m, s, &e);
}

static void forfeit(struct match *m, int s, fault_cause cause, const char *why)
{
    seat_state *st = &m->seat[s];
    if (st->forfeit != CAUSE_NONE) return;
    st->forfeit = cause;
    seat_notes_forfeit(&st->notes, fault_cause_name(cause), why);
    TRACE(m, s, "FORFEIT (%s): %s", fault_cause_name(cause), why);
    const clock_evidence *ev = cause == CAUSE_TIMEOUT && m->ev.set ? &m->ev : NULL;
    if (ev) m->seat[s].timeout = *ev;
    if (m->log) matchlog_fault(m->log, s, fault_cause_name(cause), why, st->strikes, true, ev);
    if (m->pending && m->pd.seat == s) {
        m->pending = false;
        disarm_timer(m);
        /* An answer read with the fault (an act, then garbage in one read)
         * is not played: the seat is out, the fallback moves for it. */
        if (m->answered) {
            msg_free(&m->answer);
            m->answered = false;
        }
    }
    /* With fewer than two seats left there is no game to play on. */
    if (live_seats(m) < 2)
        end_match(m, "forfeit");
    else if (m->state == M_PLAYING)
        schedule_step(m);
}

/* A timeout or illegal answer: forfeit, or strike + random choice. Returns
 * true when the caller should play the fallback choice. */
static bool judge_fault(struct match *m, int s, fault_cause cause, uint64_t id, const char *why)
{
    seat_state *st = &m->seat[s];
    fault_verdict v = fault_judge(m->cfg.on_fault, m->cfg.max_strikes, &st->strikes, cause, false);
    bool out = v == VERDICT_FORFEIT;
    send_error(m, s, id, fault_cause_name(cause), why,
               out ? 0 : fault_strikes_left(m->cfg.on_fault, m->cfg.max_strikes, st->strikes));
    if (out) {
        forfeit(m, s, cause, why);
        return false;
    }
    seat_notes_fallback(&st->notes, fault_cause_name(cause), why);
    TRACE(m, s, "strike %d (%s): %s; the fallback plays", st->strikes, fault_cause_name(cause),
          why);
    if (cause == CAUSE_TIMEOUT && m->ev.set) st->timeout = m->ev;
    if (m->log)
        matchlog_fault(m->log, s, fault_cause_name(cause), why, st->strikes, false,
                       cause == CAUSE_TIMEOUT && m->ev.set ? &m->ev : NULL);
    return true;
}

/* The events before index n seat s has not been sent yet, as a list of
 * copies. */
static av *events_upto(struct match *m, int s, size_t n)
{
    av *list = av_list();
    for (size_t i = m->seat[s].ev_cursor; i < n; i++) {
        const av *e = m->gvt->event(m->g, i, s);
        if (e) av_push(list, av_copy(e));
    }
    if (m->seat[s].ev_cursor < n) m->seat[s].ev_cursor = n;
    return list;
}

/* The events seat s has not been sent yet. */
static av *events_for(struct match *m, int s)
{
    return events_upto(m, s, m->gvt->event_count(m->g));
}

/* The same events borrowed into m->evs, their indices into m->evi (for
 * decide_write); returns how many. */
static size_t new_events(struct match *m, int s)
{
    size_t n = m->gvt->event_count(m->g), k = 0;
    for (size_t i = m->seat[s].ev_cursor; i < n; i++) {
        const av *e = m->gvt->event(m->g, i, s);
        if (!e) continue;
        if (k == m->evs_cap) {
            m->evs_cap = m->evs_cap ? m->evs_cap * 2 : 16;
            m->evs = xrealloc(m->evs, m->evs_cap * sizeof *m->evs);
            m->evi = xrealloc(m->evi, m->evs_cap * sizeof *m->evi);
        }
        m->evi[k] = i;
        m->evs[k++] = e;
    }
    m->seat[s].ev_cursor = n;
    return k;
}

/* With send_events on, every agent hears about new events when a turn
 * ends (and when the game does) instead of with its next decision. Not
 * after each decision: some are asked only because of a hidden card
 * (Library drew an Action, the victim holds a Moat), so where the others'
 * messages split would tell what the cards do not (tests/hostile/
 * framing.py). Nor up to the new turn's first decision: whether that is
 * "play an Action?" or "buy" depends on the hand, and the events before it
 * (Treasures played or not yet) would tell (action_framing.py). So the
 * flush stops where the game's turn counter moved (turn_from), a point no
 * hidden card decides; at the game's end, upto is every event. */
static void flush_events(struct match *m, size_t n)
{
    for (int s = 0; s < m->players; s++) {
        seat_state *st = &m->seat[s];
        arena_agent *a = st->agent;
        if (st->ev_cursor >= n || !a->alive || a->kind == AGENT_BUILTIN) continue;
        av *list = events_upto(m, s, n);
        if (av_len(list)) {
            msg ev = {.type = MSG_EVENT};
            ev.u.event.events = list;
            send_msg(m, s, &ev);
        }
        av_free(list);
    }
}

/* Frees the events every reader has had: the agents on the wire read them
 * through their cursors (a seat on the fallback only with send_events);
 * nothing else in a match reads them (the log and the trace get copies in
 * the messages, built-in bots and replays read games of their own). A long
 * game thus holds only its recent events, and what it frees goes back to
 * the value pools for the next views. */
static void release_events(struct match *m)
{
    size_t upto = m->gvt->event_count(m->g);
    for (int s = 0; s < m->players; s++) {
        const seat_state *st = &m->seat[s];
        if (!st->agent->alive || st->agent->kind == AGENT_BUILTIN) continue;
        /* A forfeited seat gets no decide again, only flushed events. */
        if (st->forfeit != CAUSE_NONE && !m->cfg.send_events) continue;
        if (st->ev_cursor < upto) upto = st->ev_cursor;
    }
    if (m->cfg.watch && m->watch_cursor < upto) upto = m->watch_cursor;
    arena_game_release_events(m->g, upto);
    evcache_release(&m->evc, upto);
}

/* Tells the spectator's hook (match_watch) where the game stands when its
 * turn moved since the last call, or when it is over. */
static void watch_turn(struct match *m, bool over)
{
    size_t to = m->gvt->event_count(m->g);
    if (!over && m->gvt->turn_from) {
        to = m->gvt->turn_from(m->g);
        if (to <= m->watch_cursor) return; /* the same turn */
    }
    if (m->cfg.watch->turn(m->cfg.watch_ctx, m->g, m->watch_cursor, to, over) &&
        to > m->watch_cursor)
        m->watch_cursor = to;
}

/* The game marked a turn, mid-apply (game.h, on_turn). */
static void watch_mark(void *arg)
{
    watch_turn(arg, false);
}

static void ensure_choice_cap(struct match *m, int n)
{
    if ((size_t)n > m->choice_cap) {
        m->choice_cap = (size_t)n * 2;
        m->choice = xrealloc(m->choice, m->choice_cap * sizeof *m->choice);
    }
}

static void apply_choice(struct match *m, const arena_decision *d, int n, const char *by, double ms,
                         uint64_t id)
{
    if (recorded(m)) {
        char lab[256];
        av *labels = av_list(), *idx = av_list();
        for (int i = 0; i < n; i++) {
            m->gvt->label(m->g, m->choice[i], lab, sizeof lab);
            av_push(labels, av_str(lab));
            av_push(idx, av_int(m->choice[i]));
        }
        if (m->cfg.trace) {
            char *j = av_to_json(labels);
            TRACE(m, d->seat, "choice %s at '%s' by %s (%.3f ms)", j, d->kind, by, ms);
            free(j);
        }
        if (m->log) {
            matchlog_choice(m->log, d->seat, id, d->kind, d->turn, idx, labels, by, ms);
        } else {
            av_free(labels);
            av_free(idx);
        }
    }
    if (!game_apply(m->g, m->choice, n)) {
        /* The game broke its own contract: abort rather than guess. */
        snprintf(m->error, sizeof m->error, "game rejected a valid choice at '%s' (game bug)",
                 d->kind);
        end_match(m, "aborted");
        return;
    }
    m->seat[d->seat].decisions++;
    if (m->cfg.watch && !m->watch_marks) watch_turn(m, false);
    release_events(m);
}

static void play_fallback(struct match *m, const arena_decision *d, uint64_t id)
{
    ensure_choice_cap(m, d->n_options);
    if (!m->fallback_seeded) {
        arena_rng_seed(&m->fallback_rng, arena_seed_derive(m->seed, SEED_FALLBACK, 0));
        m->fallback_seeded = true;
    }
    int n = arena_random_choice(&m->fallback_rng, d, m->choice);
    apply_choice(m, d, n, "fallback", 0, id);
}

static void hello_clock(const struct match *m, msg_clock *c)
{
    const clock_config *cc = &m->cfg.clock;
    c->move_ms = cc->move_ms;
    c->bank_ms = cc->bank_ms;
    c->game_ms = cc->game_ms;
    c->startup_ms = cc->startup_ms;
    /* The wire knows wall and cpu (protocol.md §5): the fair clock is
     * announced as wall, which it never charges more than for a
     * single-threaded bot. */
    strcpy(c->mode, cc->mode == CLOCK_CPU ? "cpu" : "wall");
}

static void arm_timer(struct match *m, double ms)
{
    arm_after(m->base, m->ev_timer, ms);
    m->timer_on = true;
    m->timer_at = clock_now_ms() + ms;
}

/* Arms the timer to fire within ms of now: one still set for an earlier
 * decision and due sooner is left as it is, as on_timer looks again when
 * it fires early. Deleting the timer on each answer and adding it on each
 * decide was two timer-heap updates per round trip, each touching a path
 * of the heap's entries, with thousands of timers at scale. */
static void arm_by(struct match *m, double now, double ms)
{
    if (m->timer_on && m->timer_at <= now + ms) return;
    arm_timer(m, ms);
}

/* The decide message is the hot path of every game: unless a log or the
 * trace wants its tree, it is written straight into the agent's output
 * (decide.h), the view by the game itself and the events from the game's
 * own list, with no tree and no copy. */
static void send_decide(struct match *m, const arena_decision *d)
{
    int s = d->seat;
    arena_agent *a = m->seat[s].agent;
    const seat_clock *sc = &m->seat[s].clock;
    decide_clock clk = {m->cfg.clock.move_ms, (int64_t)sc->bank_left,
                        sc->game_left < 0 ? -1 : (int64_t)sc->game_left};
    /* Ids count each seat's own decides: a count shared by the seats would
     * tell each how many decisions the others were asked, some of them
     * only because of a hidden card (a Moat held, an Action in hand). */
    m->pid = ++m->seat[s].next_id;
    m->pending = true;
    m->pd = *d;
    m->sent = m->guarded = false;
    m->allowance = clock_allowance(&m->cfg.clock, sc);
    /* The CPU clock's start, before the first byte goes out: the agent
     * starts work as soon as it can read, on the other core or while
     * this process waits for one, and sampling only once all was sent
     * gave it that work free (3 ms a move on a loaded host, e2e
     * cpu_clock_is_precise). */
    bool probe = m->cfg.clock.mode != CLOCK_WALL && a->kind == AGENT_SPAWNED && a->pid > 0 &&
                 proctree_schedstat();
    m->probed = m->fair = probe && m->cfg.clock.mode == CLOCK_FAIR;
    m->probe_late = probe && m->cfg.clock.mode == CLOCK_CPU;
    if (m->cfg.clock.mode == CLOCK_CPU || m->fair) m->cpu0 = agent_cpu_ms(a);
    if (m->fair)
        clock_probe_start(&m->probe, a->pid, &a->procfs, false);
    else if (a->kind != AGENT_BUILTIN)
        m->probe.host_psi_us = clock_host_psi_us();
    /* --freeze-idle: only the seat on the move runs (freeze.h). */
    for (int t = 0; t < m->players; t++)
        if (t != s) agent_freeze(m->seat[t].agent);
    agent_thaw(a);
    if (recorded(m)) {
        av *out = decide_tree(m->gvt, m->g, d, m->pid, events_for(m, s), &clk);
        if (m->log) matchlog_msg(m->log, s, "out", out);
        TRACE_MSG(m, s, "->", out);
        agent_send_av(a, out);
        av_free(out);
    } else {
        size_t n = new_events(m, s);
        codec_kind codec;
        abuf *out = agent_out(a, &codec);
        if (out) {
            decide_events evs = {m->evs, m->evi, n, &m->evc};
            decide_write(codec, out, m->gvt, m->g, d, m->pid, &evs, &clk);
            agent_flush(a);
        }
    }
    release_events(m);
    /* The wall clock starts when the last byte is out (match_on_sent), or
     * when the agent's input backs up (match_on_blocked); the timer is
     * armed then. No timer is armed here only to be moved a moment later,
     * when the loop writes the decide out. */
}

static bool clock_running(const struct match *m)
{
    return m->sent || m->guarded;
}

static void start_clock(struct match *m, double when)
{
    m->t_clock = when;
    const clock_config *cc = &m->cfg.clock;
    if (cc->mode == CLOCK_CPU || m->fair) {
        double first = m->allowance < clock_wall_cap(cc) ? m->allowance : clock_wall_cap(cc);
        if (m->fair && m->probe.straddling && first > CLOCK_FAIR_STRADDLE_LOOK_MS)
            first = CLOCK_FAIR_STRADDLE_LOOK_MS;
        if (m->probe_late && first > (double)cc->move_ms) first = (double)cc->move_ms;
        arm_by(m, when, first);
    } else {
        arm_by(m, when, m->allowance);
    }
}

static void match_on_blocked(struct match *m, int s)
{
    /* The agent holds the decide's first bytes (its id and options come
     * first), or does not read at all: its clock runs from now, once, not
     * from the last byte. An agent that shrank its pipe and read just the
     * options could otherwise think while the referee waited to write the
     * rest, charged nothing (tests/hostile/trickler.py). */
    if (!m->pending || m->pd.seat != s || m->sent || m->guarded || m->state != M_PLAYING) return;
    m->guarded = true;
    start_clock(m, clock_now_ms());
}

static void match_on_sent(struct match *m, int s, double when)
{
    if (!m->pending || m->pd.seat != s || m->sent) return;
    m->sent = true;
    if (!m->guarded) start_clock(m, when);
}

/* The clock the pending decision is timed by: a remote or built-in seat
 * keeps the wall clock under the fair one, as does every seat where the
 * kernel keeps no run-queue waits (protocol.md §5). */
static clock_mode seat_mode(const struct match *m)
{
    clock_mode c = m->cfg.clock.mode;
    return c == CLOCK_FAIR && !m->fair ? CLOCK_WALL : c;
}

/* Time the pending decision used up to `now` (an answer's arrival; < 0: a
 * look, now) in its seat's clock, `lag` of it the referee's (wall and fair
 * clocks), with the figures into *e; *stalled (may be NULL): a task of the
 * agent may be waiting for a CPU now, a wait not counted yet
 * (clock_probe_wait). */
static double measure(struct match *m, double now, double lag, clock_evidence *e, bool *stalled)
{
    bool look = now < 0;
    if (look) now = clock_now_ms();
    clock_mode mode = seat_mode(m);
    *e = (clock_evidence){.set = true,
                          .mode = mode,
                          .allowance_ms = m->allowance,
                          .cpu_ms = -1,
                          .wait_ms = -1,
                          .wait_sum_ms = -1,
                          .host_psi_ms = -1};
    bool run = false;
    if (clock_running(m)) {
        arena_agent *a = m->seat[m->pd.seat].agent;
        e->wall_ms = now - m->t_clock;
        if (e->wall_ms < 0) e->wall_ms = 0;
        e->lag_ms = lag < e->wall_ms ? lag : e->wall_ms;
        if (mode != CLOCK_WALL) {
            double c = agent_cpu_ms(a);
            /* (Below cpu0 only when CPU left the tree: never a credit.) */
            e->cpu_ms = c < m->cpu0 ? 0 : c - m->cpu0;
        }
        if (m->probed) {
            e->wait_ms = clock_probe_wait(&m->probe, a->pid, e->cpu_ms, &e->wait_sum_ms, &run);
            /* A look's time runs to its reading. A wait after an answer (a
             * bot busy after it) is not the decision's: where the reading
             * began later, the tree waited at most that long in between. */
            double late = m->probe.t_look - now;
            if (look && late > 0)
                e->wall_ms += late;
            else if (late > 0)
                e->wait_ms = e->wait_ms > late ? e->wait_ms - late : 0;
            /* A wait that began before the decide (a task still runnable
             * after its last answer) must not pay for this one: within the
             * decision, the tree waited at most the wall time it did not run. */
            if (e->wait_ms > e->wall_ms - e->cpu_ms)
                e->wait_ms = e->wall_ms > e->cpu_ms ? e->wall_ms - e->cpu_ms : 0;
        }
        if (mode == CLOCK_CPU) e->lag_ms = 0;
    }
    if (stalled) *stalled = run;
    e->charged_ms = clock_recharge(e);
    return e->charged_ms;
}

/* The host's CPU pressure over the decision into e, for a fault record. */
static void note_pressure(const struct match *m, clock_evidence *e)
{
    double now = m->probe.host_psi_us >= 0 ? clock_host_psi_us() : -1;
    e->host_psi_ms = now >= 0 ? (now - m->probe.host_psi_us) / 1e3 : -1;
}

/* One move's charged time into its seat's summary (see match_outcome). */
static void note_move(const struct match *m, seat_state *st, double used)
{
    if (used > st->move_max_ms) st->move_max_ms = used;
    if (m->cfg.clock.move_ms <= 0) return;
    double b = used * (MOVE_HIST_BINS - 1) / (double)m->cfg.clock.move_ms;
    st->move_hist[b >= MOVE_HIST_BINS - 1 ? MOVE_HIST_BINS - 1 : b < 0 ? 0 : (int)b]++;
}

static void decision_timed_out(struct match *m, double used)
{
    int s = m->pd.seat;
    arena_decision d = m->pd;
    uint64_t id = m->pid;
    m->pending = false;
    owed_add_act(&m->seat[s].agent->owed, id); /* its answer may still come */
    m->seat[s].time_ms += used;
    note_move(m, &m->seat[s], used);
    clock_charge(&m->cfg.clock, &m->seat[s].clock, used);
    char why[160];
    snprintf(why, sizeof why, "no answer within %.0f ms (move %lld ms + bank)", m->allowance,
             (long long)m->cfg.clock.move_ms);
    TRACE(m, s, "no answer to id %" PRIu64 ": %.3f ms charged, bank left %.0f ms", id, used,
          m->seat[s].clock.bank_left);
    bool fallback = judge_fault(m, s, CAUSE_TIMEOUT, id, why);
    m->ev.set = false;
    if (fallback) play_fallback(m, &d, id);
    schedule_step(m);
}

/* startup_ms is over (or the timer ran early or late): seats that have not
 * answered their hello forfeit. */
static void ready_timed_out(struct match *m)
{
    for (int s = 0; s < m->players; s++)
        if (m->seat[s].forfeit == CAUSE_NONE && !m->seat[s].ready)
            agent_catch_up(m->seat[s].agent); /* a ready may sit unread */
    if (m->state != M_WAIT_READY) return;
    /* Each seat's time left: wall time, or its own CPU time where the
     * agent's start-up is timed so (startup_cpu, agent_span_left). */
    double now = clock_now_ms(), next = -1, left[ARENA_MAX_SEATS];
    bool waiting = false, over = false;
    for (int s = 0; s < m->players; s++) {
        seat_state *st = &m->seat[s];
        if (st->forfeit != CAUSE_NONE || st->ready) continue;
        waiting = true;
        left[s] = agent_span_left(st->agent, m->t_hello, now);
        if (left[s] <= 0)
            over = true;
        else if (next < 0 || left[s] < next)
            next = left[s];
    }
    if (!waiting) return; /* the step that just got scheduled starts play */
    if (!over) {
        arm_timer(m, next < 1 ? 1 : next);
        return;
    }
    for (int s = 0; s < m->players; s++) {
        seat_state *st = &m->seat[s];
        if (st->forfeit == CAUSE_NONE && !st->ready && left[s] <= 0) {
            if (m->log)
                matchlog_fault(m->log, s, "timeout", "no 'ready' within startup_ms", 0, true, NULL);
            seat_notes_forfeit(&st->notes, "timeout", "no 'ready' within startup_ms");
            TRACE(m, s, "FORFEIT (timeout): no 'ready' within startup_ms");
            st->forfeit = CAUSE_TIMEOUT;
        }
    }
    if (live_seats(m) < 2) {
        end_match(m, "forfeit");
    } else if (next > 0) { /* others still have time to get ready */
        arm_timer(m, next < 1 ? 1 : next);
    } else {
        m->state = M_PLAYING;
        schedule_step(m);
    }
}

/* Reads the awaited agent's input after the loop was late (a stall's end,
 * a timer), until its answer: that may wait behind its other messages,
 * past one turn's budget (agent.c), so a few turns are read. Not more: the
 * time is the agent's, but the stall is every match's. */
static void catch_up_awaited(struct match *m)
{
    arena_agent *a = m->seat[m->pd.seat].agent;
    bool more = agent_catch_up(a);
    for (int turn = 1; more && turn < CATCH_UP_TURNS && m->pending && !m->answered; turn++)
        more = agent_catch_up(a);
}

static void on_timer(evutil_socket_t fd, short what, void *arg)
{
    (void)fd, (void)what;
    struct match *m = arg;
    m->timer_on = false;
    if (m->state == M_WAIT_READY) {
        ready_timed_out(m);
        return;
    }
    if (!m->pending) return;
    const clock_config *cc = &m->cfg.clock;
    /* The timer may have been set for an earlier decision (arm_by): then
     * it fires before this one's time is up, and only looks again. */
    double now = clock_now_ms();
    /* Left from the decision before: this one's is set once its decide is
     * out (match_on_sent) or backs up (match_on_blocked). */
    if (!clock_running(m)) return;
    if ((cc->mode == CLOCK_WALL || (cc->mode == CLOCK_FAIR && !m->fair)) &&
        now - m->t_clock < m->allowance) {
        double left = m->allowance - (now - m->t_clock);
        arm_timer(m, left < 1 ? 1 : left);
        return;
    }
    /* An agent whose output closed has its verdict within EXIT_WAIT_MS, on
     * its own timer (agent.c): a look must not cut its wait for the exit
     * short, nor time out an agent that is dying (agent_ending). */
    if (agent_ending(m->seat[m->pd.seat].agent)) return;
    /* Before any verdict, catch up with the agent: if the loop was late its
     * answer may be waiting in the pipe (it is then judged with the lag
     * credited), or the decide still in our buffer. */
    catch_up_awaited(m);
    if (!m->pending || m->answered || m->state != M_PLAYING) return;
    bool capped = seat_mode(m) != CLOCK_WALL, stalled;
    if (m->probe_late && !m->probed) {
        /* Waits from here on are left out of the cap: the first move_ms
         * counts whole, so the cap is at least 9 x move_ms of not waiting. */
        double psi = m->probe.host_psi_us; /* (the decision's, from the decide) */
        clock_probe_start(&m->probe, m->seat[m->pd.seat].agent->pid,
                          &m->seat[m->pd.seat].agent->procfs, false);
        m->probe.host_psi_us = psi;
        m->probed = true;
    }
    /* The lag of a stall going on: the answer may be in the pipe unread. */
    /* (No lag: catch_up_awaited found no answer, so none waited unread.) */
    double used = measure(m, -1, 0, &m->ev, &stalled), wall = m->ev.wall_ms;
    now = m->t_clock + wall;
    /* (A wall clock has no cap: its bank may hold more than 100 x move_ms.) */
    double end_left = capped ? CLOCK_FAIR_WALL_CAP * (double)cc->move_ms - wall : HUGE_VAL,
           cap_left = capped ? clock_cap_left(cc->mode, (double)cc->move_ms, wall, m->ev.wait_ms)
                             : HUGE_VAL;
    /* Over its time (fair clock) or the wall cap (cpu clock) with a task
     * runnable: that task may be waiting for a CPU now, a wait counted
     * once it runs (CLOCK_FAIR_SETTLE_STEP_MS), which may yet put the
     * decision back within both; not past the cap that no wait moves. */
    bool settling = stalled && m->ev.cpu_ms < m->allowance && end_left > 0 &&
                    (used >= m->allowance || cap_left <= 0);
    if ((used < m->allowance && cap_left > 0) || settling) {
        /* Not out of time yet (in cpu or fair mode, or a timer that ran
         * early): look again when it could be. Under the fair clock a
         * runnable task of the agent may wait for a CPU now, a wait not
         * all counted: look again until none is runnable (clock.h). */
        double next = settling ? CLOCK_FAIR_SETTLE_STEP_MS : m->allowance - used;
        if (!settling && m->fair && m->probe.straddling) {
            double soon = now - m->probe.t0; /* (clock.h: as long again as it is old) */
            if (soon < CLOCK_FAIR_STRADDLE_LOOK_MS) soon = CLOCK_FAIR_STRADDLE_LOOK_MS;
            if (soon < next) next = soon;
        }
        if (cap_left > 0 && next > cap_left) next = cap_left;
        if (next > end_left) next = end_left;
        arm_timer(m, next < 1 ? 1 : next);
        return;
    }
    if (capped && used < m->allowance) used = m->ev.charged_ms = m->allowance; /* wall cap hit */
    note_pressure(m, &m->ev);
    decision_timed_out(m, used);
}

/* The loop stalled while this decision's answer may have come: read it
 * now, so that it is judged with the stall credited (lag.h). */
static void on_stall_end(void *arg)
{
    struct match *m = arg;
    /* (Not an agent whose verdict is on the way: that would cut its wait
     * for the exit short, agent_ending.) */
    if (m->state == M_PLAYING && m->pending && clock_running(m) && !m->answered &&
        !agent_ending(m->seat[m->pd.seat].agent))
        catch_up_awaited(m);
}

static void judge_answer(struct match *m)
{
    msg *in = &m->answer;
    m->answered = false;
    int s = m->pd.seat;
    seat_state *st = &m->seat[s];
    arena_decision d = m->pd;
    uint64_t id = m->pid;
    double used = m->answer_used;
    if (m->ev.lag_ms > 0 && m->log) matchlog_lag(m->log, s, id, m->ev.lag_ms, m->ev.wall_ms, used);
    m->pending = false; /* its timer stays: see arm_by */
    st->time_ms += used;
    note_move(m, st, used);
    /* Charged whether in time or not: an answer read before the timer ran
     * but after the deadline is as late as one the timer catches, and
     * under --on-fault fallback it must cost its time, bank and game clock
     * alike, or each strike buys a whole move + bank of thought. */
    bool charged = clock_charge(&m->cfg.clock, &st->clock, used);
    bool in_time = used <= m->allowance && charged;
    TRACE(m, s, "answer to id %" PRIu64 ": %.3f ms charged (allowed %.0f), bank left %.0f ms", id,
          used, m->allowance, st->clock.bank_left);
    if (in_time) m->ev.set = false;
    if (!in_time) {
        note_pressure(m, &m->ev);
        char why[160];
        snprintf(why, sizeof why, "answer took %.0f ms, more than the %.0f ms allowed", used,
                 m->allowance);
        bool fallback = judge_fault(m, s, CAUSE_TIMEOUT, id, why);
        m->ev.set = false;
        if (fallback) play_fallback(m, &d, id);
        msg_free(in);
        return;
    }
    int n = (int)in->u.act.n_choice;
    ensure_choice_cap(m, n > 0 ? n : 1);
    bool fits = true;
    for (int i = 0; i < n; i++) {
        if (in->u.act.choice[i] < 0 || in->u.act.choice[i] >= d.n_options) fits = false;
        m->choice[i] = fits ? (int)in->u.act.choice[i] : -1;
    }
    const char *why = fits ? arena_check_choice(&d, m->choice, n) : "option index out of range";
    msg_free(in);
    if (why) {
        char text[200];
        snprintf(text, sizeof text, "illegal choice for '%s': %s (pick %d..%d of %d options)",
                 d.kind, why, d.pick_min, d.pick_max, d.n_options);
        if (judge_fault(m, s, CAUSE_ILLEGAL, id, text)) play_fallback(m, &d, id);
        return;
    }
    apply_choice(m, &d, n, "agent", used, id);
}

static void match_on_dropped(struct match *m, int s, const char *what)
{
    TRACE(m, s, "note: %s", what);
    if (m->log) matchlog_note(m->log, s, what);
}

static void match_on_message(struct match *m, int s, msg *in, double arrived)
{
    seat_state *st = &m->seat[s];
    arena_agent *a = st->agent;
    if (in->type == MSG_READY && st->hello_sent && !st->ready) {
        msg_free(in);
        st->ready = true;
        agent_span_end(a);
        if (m->state == M_WAIT_READY)
            schedule_step(m);
        else /* after startup_ms: the seat has forfeited already */
            match_on_dropped(m, s, "dropped a late 'ready' (after startup_ms)");
        return;
    }
    if (in->type == MSG_ACT && m->pending && m->pd.seat == s && !m->answered &&
        m->state == M_PLAYING) {
        if (in->u.act.id != m->pid) {
            char why[120];
            snprintf(why, sizeof why, "act for id %" PRIu64 ", expected %" PRIu64, in->u.act.id,
                     m->pid);
            msg_free(in);
            agent_fail(a, CAUSE_PROTOCOL, false, "%s", why);
            return;
        }
        owed_forget_acts(&a->owed);
        m->answer = *in;
        m->answered = true;
        /* The answer may have waited in the pipe while the loop was late. */
        m->answer_used =
            measure(m, arrived, lag_meter_credit_own(m->lag, &st->own, arrived), &m->ev, NULL);
        schedule_step(m);
        return;
    }
    const char *t = msg_type_name(in->type);
    msg_free(in);
    agent_fail(a, CAUSE_PROTOCOL, false, "unexpected '%s' message", t);
}

static void match_on_busy(struct match *m, int s, double t0, double t1)
{
    lag_meter_own(m->lag, &m->seat[s].own, t0, t1);
}

static void match_on_joined(struct match *m, int s)
{
    (void)s;
    if (m->state == M_WAIT_JOIN) schedule_step(m);
}

static void match_on_dead(struct match *m, int s)
{
    arena_agent *a = m->seat[s].agent;
    if (m->log && a->dead_reason[0]) matchlog_note(m->log, s, a->dead_reason);
    if (m->state == M_DONE) { /* the end may have waited for this verdict */
        schedule_step(m);
        return;
    }
    forfeit(m, s, a->dead_cause, a->dead_reason);
    if (m->state == M_WAIT_JOIN || m->state == M_WAIT_READY) schedule_step(m);
}

static void match_on_stderr(struct match *m, int s, const char *line, size_t len)
{
    seat_state *st = &m->seat[s];
    seat_notes_stderr(&st->notes, line, len);
    if (m->cfg.trace) trace_stderr(m->cfg.trace, clock_now_ms() - m->t_start, s, line, len);
    size_t cost = len + STDERR_RECORD_BYTES;
    if (st->stderr_logged + cost > STDERR_LOG_CAP) {
        st->stderr_dropped += len + 1;
        return;
    }
    st->stderr_logged += cost;
    if (m->log) matchlog_stderr(m->log, s, line, len);
}

static void match_log_in(struct match *m, int s, const av *raw, size_t bytes)
{
    seat_state *st = &m->seat[s];
    seat_notes_message(&st->notes, raw);
    TRACE_MSG(m, s, "<-", raw);
    if (!m->log) return;
    const char *type = av_get_str(raw, "type");
    bool is_log = type && strcmp(type, "log") == 0;
    size_t room = IN_LOG_CAP - st->in_logged;
    if (is_log && BOT_LOG_CAP - st->bot_log_logged < room) room = BOT_LOG_CAP - st->bot_log_logged;
    size_t n = matchlog_msg_in(m->log, s, raw, room < IN_MSG_LOG_CAP ? room : IN_MSG_LOG_CAP);
    if (n <= room && n <= IN_MSG_LOG_CAP) { /* logged (or no message at all) */
        st->in_logged += n;
        if (is_log) st->bot_log_logged += n;
        return;
    }
    char note[200];
    int k = n > IN_MSG_LOG_CAP ? snprintf(note, sizeof note,
                                          "a '%s' message of %zu bytes was not logged: what the "
                                          "referee read of it is over the %d KiB of one message",
                                          type ? type : "?", bytes, IN_MSG_LOG_CAP / 1024)
                               : 0;
    if (k > 0 && (size_t)k <= room) { /* the note counts as the seat's too */
        st->in_logged += (size_t)k;
        matchlog_note(m->log, s, note);
    } else if (is_log) {
        st->bot_log_dropped++;
    } else {
        st->in_dropped++;
    }
}

static bool match_wants_raw(const struct match *m)
{
    return recorded(m);
}

static bool match_hello_due(const struct match *m, int seat)
{
    return m->state == M_WAIT_JOIN && !m->seat[seat].hello_sent;
}

/* What a seated agent tells its match (runner.h). */
static const agent_host match_host = {
    .joined = match_on_joined,
    .busy = match_on_busy,
    .message = match_on_message,
    .sent = match_on_sent,
    .blocked = match_on_blocked,
    .dead = match_on_dead,
    .stderr_line = match_on_stderr,
    .log_in = match_log_in,
    .wants_raw = match_wants_raw,
    .hello_due = match_hello_due,
    .dropped = match_on_dropped,
};

static void send_hellos(struct match *m)
{
    if (m->log) { /* names as the agents joined, now that they have */
        const char *names[ARENA_MAX_SEATS];
        for (int s = 0; s < m->players; s++)
            names[s] = agent_name(m->seat[s].agent);
        matchlog_seats(m->log, names, m->players);
    }
    av *options = NULL; /* the same for every seat: built once */
    for (int s = 0; s < m->players; s++) {
        seat_state *st = &m->seat[s];
        seat_clock_start(&st->clock, &m->cfg.clock);
        if (st->forfeit != CAUSE_NONE) continue;
        if (st->agent->kind == AGENT_BUILTIN) {
            st->ready = true;
            continue;
        }
        if (!options) options = m->gvt->settings(m->g);
        msg h = {.type = MSG_HELLO};
        msg_hello *hm = &h.u.hello;
        hm->protocol = PROTOCOL_VERSION;
        hm->game = (char *)m->gvt->name;
        hm->options = options;
        hm->seat = s;
        hm->players = m->players;
        char *names[ARENA_MAX_SEATS];
        for (int t = 0; t < m->players; t++)
            names[t] = (char *)agent_name(m->seat[t].agent);
        hm->names = names;
        hm->n_names = (size_t)m->players;
        hm->match = m->match_id;
        hello_clock(m, &hm->clock);
        agent_thaw(st->agent); /* it must answer: ready */
        if (st->agent->cfg.startup_cpu && st->agent->pid > 0)
            agent_span_start(st->agent, agent_cpu_ms(st->agent), false);
        send_msg(m, s, &h);
        st->hello_sent = true;
    }
    av_free(options);
}

static void finish(struct match *m);

/* Whether a seat's agent closed its output and its verdict is on the way
 * (agent_ending: at most EXIT_WAIT_MS, agent.c). As though it had come with
 * the EOF, the match sends that seat nothing and does not end meanwhile;
 * match_on_dead steps on. */
static bool verdict_due(const struct match *m)
{
    for (int s = 0; s < m->players; s++)
        if (agent_ending(m->seat[s].agent)) return true;
    return false;
}

/* Drives the match as far as it can go without waiting for an agent. */
static void on_step(evutil_socket_t fd, short what, void *arg)
{
    (void)fd, (void)what;
    struct match *m = arg;
    if (m->state == M_WAIT_JOIN) {
        for (int s = 0; s < m->players; s++) {
            arena_agent *a = m->seat[s].agent;
            if (m->seat[s].forfeit == CAUSE_NONE && a->alive && !a->joined) return;
        }
        if (verdict_due(m)) return; /* no hello for it */
        m->state = M_WAIT_READY;
        m->t_hello = clock_now_ms(); /* before the writes, as for decide (agent.c) */
        send_hellos(m);
        arm_timer(m, (double)m->cfg.clock.startup_ms);
    }
    if (m->state == M_WAIT_READY) {
        for (int s = 0; s < m->players; s++)
            if (m->seat[s].forfeit == CAUSE_NONE && !m->seat[s].ready) return;
        disarm_timer(m);
        m->state = M_PLAYING;
    }
    if (m->state == M_PLAYING && m->answered) judge_answer(m);
    if (m->state == M_DONE) {
        if (!verdict_due(m)) finish(m);
        return;
    }
    if (m->pending) return;

    arena_decision d;
    for (int batch = 0; m->state == M_PLAYING; batch++) {
        if (!game_decision(m->g, &d)) {
            end_match(m, live_seats(m) < m->players ? "forfeit" : "normal");
            break;
        }
        if (m->cfg.send_events && d.turn != m->events_turn) {
            flush_events(m,
                         m->gvt->turn_from ? m->gvt->turn_from(m->g) : m->gvt->event_count(m->g));
            m->events_turn = d.turn;
        }
        seat_state *st = &m->seat[d.seat];
        if (batch >= BUILTIN_BATCH) {
            schedule_step(m); /* let other matches and agents breathe */
            return;
        }
        if (st->forfeit != CAUSE_NONE) {
            play_fallback(m, &d, 0);
            continue;
        }
        if (st->agent->kind == AGENT_BUILTIN) {
            ensure_choice_cap(m, d.n_options);
            double t0 = clock_now_ms();
            int n = st->agent->pv->decide(st->policy, m->g, &d, m->choice);
            double ms = clock_now_ms() - t0;
            st->time_ms += ms;
            note_move(m, st, ms);
            if (arena_check_choice(&d, m->choice, n)) {
                /* A built-in bot is our own code: a bad choice is a bug. */
                snprintf(m->error, sizeof m->error, "built-in bot %s made an invalid choice at %s",
                         agent_name(st->agent), d.kind);
                end_match(m, "aborted");
                break;
            }
            apply_choice(m, &d, n, "builtin", ms, 0);
            continue;
        }
        if (agent_ending(st->agent)) return; /* judged first: match_on_dead steps on */
        send_decide(m, &d);
        return;
    }
    if (m->state == M_DONE && !verdict_due(m)) finish(m);
}

/* Every number zero and every text empty, with only the texts' first byte
 * written: the texts are nearly all of the outcome's 12 KB (match.h). */
static void outcome_clear(match_outcome *o)
{
    memset(o, 0, offsetof(match_outcome, error));
    o->error[0] = o->log_error[0] = 0;
    for (int s = 0; s < ARENA_MAX_SEATS; s++)
        o->fault_message[s][0] = o->stderr_tail[s][0] = o->fallback_last[s][0] =
            o->bot_log_last[s][0] = 0;
}

static void finish(struct match *m)
{
    match_outcome o;
    outcome_clear(&o);
    arena_result r;
    m->gvt->result(m->g, &r);
    o.players = m->players;
    o.turns = r.turns;
    o.seed = m->seed;
    o.reason = m->end_reason ? m->end_reason : "aborted";
    if (m->error[0]) snprintf(o.error, sizeof o.error, "%s", m->error);
    int live = live_seats(m);
    for (int s = 0; s < m->players; s++) {
        seat_state *st = &m->seat[s];
        o.scores[s] = r.scores[s];
        o.forfeit[s] = st->forfeit;
        o.strikes[s] = st->strikes;
        o.decisions[s] = st->decisions;
        o.time_ms[s] = st->time_ms;
        o.timeout[s] = st->timeout;
        seat_notes_to_outcome(&st->notes, &o, s);
        o.move_max_ms[s] = st->move_max_ms;
        memcpy(o.move_hist[s], st->move_hist, sizeof o.move_hist[s]);
        if (st->forfeit != CAUSE_NONE) {
            o.ranks[s] = live + 1;
            continue;
        }
        /* Survivors ranked among themselves by the game (shared first
         * place when the game was cut short). */
        int better = 0;
        if (r.over)
            for (int t = 0; t < m->players; t++)
                if (m->seat[t].forfeit == CAUSE_NONE && r.ranks[t] < r.ranks[s]) better++;
        o.ranks[s] = better + 1;
    }
    if (strcmp(o.reason, "normal") == 0 && live < m->players) o.reason = "forfeit";
    if (m->cfg.send_events) flush_events(m, m->gvt->event_count(m->g)); /* the last turn's */
    if (m->cfg.watch) watch_turn(m, true);

    for (int s = 0; s < m->players; s++) {
        arena_agent *a = m->seat[s].agent;
        if (!a->alive || a->kind == AGENT_BUILTIN) continue;
        msg ov = {.type = MSG_OVER};
        msg_over *om = &ov.u.over;
        int64_t ranks[ARENA_MAX_SEATS], scores[ARENA_MAX_SEATS];
        msg_forfeit ff[ARENA_MAX_SEATS];
        size_t nf = 0;
        for (int t = 0; t < m->players; t++) {
            ranks[t] = o.ranks[t];
            scores[t] = o.scores[t];
            if (o.forfeit[t] != CAUSE_NONE) {
                ff[nf].seat = t;
                snprintf(ff[nf].cause, sizeof ff[nf].cause, "%s", fault_cause_name(o.forfeit[t]));
                nf++;
            }
        }
        om->ranks = ranks;
        om->scores = scores;
        om->n_seats = (size_t)m->players;
        om->reason = (char *)o.reason;
        om->forfeits = ff;
        om->n_forfeits = nf;
        codec_kind codec;
        abuf *out;
        if (!recorded(m) && (out = agent_out(a, &codec))) {
            /* as decide's: the view written into the frame by the game */
            seat_view sv = {m, s};
            msg_write_over(codec, out, om, write_seat_view, &sv);
            agent_flush(a);
        } else {
            om->view = arena_view_tree(m->gvt, m->g, s);
            send_msg(m, s, &ov);
            av_free(om->view);
        }
    }
    if (m->log) {
        for (int s = 0; s < m->players; s++) {
            if (m->seat[s].stderr_dropped)
                matchlog_note(m->log, s, "stderr beyond the log cap was dropped");
            if (m->seat[s].bot_log_dropped) {
                char note[120];
                snprintf(note, sizeof note,
                         "%zu 'log' messages beyond the log cap (%d KiB) were dropped",
                         m->seat[s].bot_log_dropped, BOT_LOG_CAP / 1024);
                matchlog_note(m->log, s, note);
            }
            if (m->seat[s].in_dropped) {
                char note[120];
                snprintf(note, sizeof note,
                         "%zu messages beyond the log cap of a seat's messages (%d KiB) were "
                         "not logged",
                         m->seat[s].in_dropped, IN_LOG_CAP / 1024);
                matchlog_note(m->log, s, note);
            }
        }
        long stalls = lag_meter_stalls(m->lag) - m->stalls_start;
        if (stalls > 0)
            matchlog_lag_total(m->log, stalls,
                               lag_meter_total(m->lag, clock_now_ms()) - m->lag_start);
        matchlog_result(m->log, &o);
        matchlog_close(m->log, o.log_error, sizeof o.log_error);
        m->log = NULL;
    }
    match_done_fn done = m->done;
    void *ctx = m->done_ctx;
    for (int s = 0; s < m->players; s++) {
        seat_state *st = &m->seat[s];
        /* Answers still on their way belong to this game, not the next. */
        if (st->agent->alive && st->hello_sent && !st->ready) owed_add_ready(&st->agent->owed);
        if (st->agent->alive && m->pending && !m->answered && m->pd.seat == s)
            owed_add_act(&st->agent->owed, m->pid);
        st->agent->match = NULL;
        st->agent->host = NULL;
        st->agent->seat = -1;
        if (st->policy) st->agent->pv->free(st->policy);
        agent_freeze(st->agent); /* idle until its next hello (or bye) */
    }
    if (m->answered) msg_free(&m->answer);
    lag_meter_release(m->lag, &m->lag_hold);
    event_free(m->ev_step);
    event_free(m->ev_timer);
    game_free(m->g);
    for (size_t i = 0; i < m->cfg.n_settings; i++) {
        free((char *)m->settings[i].key);
        free((char *)m->settings[i].value);
    }
    free(m->settings);
    free(m->match_id);
    free(m->choice);
    free(m->evs);
    free(m->evi);
    evcache_free(&m->evc);
    clock_probe_free(&m->probe);
    free(m);
    done(&o, ctx);
}

uint64_t arena_random_u64(void)
{
    uint64_t r = 0;
    size_t got = 0;
    while (got < sizeof r) {
        ssize_t n = getrandom((char *)&r + got, sizeof r - got, 0);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) { /* no entropy at all: nothing safe to fall back on */
            perror("arena: getrandom");
            abort();
        }
        got += (size_t)n;
    }
    return r;
}

/* A match id tells an agent nothing: 64 random bits, never the seed (a bot
 * that knew the seed could re-run the game's rng and see every card). */
static char *opaque_match_id(void)
{
    static const char hex[] = "0123456789abcdef";
    uint64_t r = arena_random_u64();
    char *id = xmalloc(19); /* "m-%016" PRIx64, without printf's cost per game */
    id[0] = 'm';
    id[1] = '-';
    for (int i = 0; i < 16; i++)
        id[2 + i] = hex[(r >> (60 - 4 * i)) & 15];
    id[18] = 0;
    return id;
}

int match_start(struct event_base *base, const match_config *cfg, arena_agent *const *agents,
                int players, uint64_t seed, match_done_fn done, void *ctx, char *err, size_t errlen)
{
    const arena_game_vt *gvt = cfg->game;
    if (players < gvt->min_players || players > gvt->max_players) {
        if (gvt->min_players == gvt->max_players)
            snprintf(err, errlen, "%s is for %d players, not %d", gvt->name, gvt->min_players,
                     players);
        else
            snprintf(err, errlen, "%s is for %d to %d players, not %d", gvt->name, gvt->min_players,
                     gvt->max_players, players);
        return -1;
    }
    for (int s = 0; s < players; s++) {
        if (agents[s]->match) {
            snprintf(err, errlen, "agent %s is already playing", agent_name(agents[s]));
            return -1;
        }
        /* A verdict waited for is due: the seat forfeits with its reason. */
        if (agent_ending(agents[s])) agent_catch_up(agents[s]);
        for (int t = 0; t < s; t++)
            if (agents[t] == agents[s]) {
                snprintf(err, errlen, "one agent cannot take two seats");
                return -1;
            }
        /* (The commands refuse this before anything runs: runopts.h.) */
        if (cfg->clock.mode == CLOCK_CPU && agents[s]->kind == AGENT_TCP) {
            snprintf(err, errlen, "agent %s: --clock cpu cannot time an agent over TCP",
                     agent_name(agents[s]));
            return -1;
        }
    }
    /* Events exist for agents on the wire and for the log: with neither,
     * building and freeing them would be most of a built-in game's cost. */
    unsigned flags = cfg->log_path || cfg->watch ? 0 : ARENA_GAME_NO_EVENTS;
    for (int s = 0; s < players; s++)
        if (agents[s]->kind != AGENT_BUILTIN) flags = 0;
    arena_game *g = gvt->create(cfg->settings, cfg->n_settings, seed, players, flags, err, errlen);
    if (!g) return -1;

    struct match *m = match_alloc(players);
    m->base = base;
    m->cfg = *cfg;
    m->settings = xcalloc(cfg->n_settings + 1, sizeof *m->settings);
    for (size_t i = 0; i < cfg->n_settings; i++) {
        m->settings[i].key = xstrdup(cfg->settings[i].key);
        m->settings[i].value = xstrdup(cfg->settings[i].value);
    }
    m->cfg.settings = m->settings;
    m->match_id = cfg->match_id ? xstrdup(cfg->match_id) : opaque_match_id();
    m->cfg.match_id = m->match_id;
    m->cfg.log_path = NULL; /* not kept: only used here */
    m->gvt = gvt;
    m->g = g;
    m->players = players;
    m->seed = seed;
    m->done = done;
    m->done_ctx = ctx;
    m->t_start = clock_now_ms();
    m->ev_step = event_new(base, -1, 0, on_step, m);
    m->ev_timer = evtimer_new(base, on_timer, m);
    if (cfg->log_path) {
        m->log = matchlog_open(cfg->log_path, cfg->log_plain, err, errlen);
        if (!m->log) {
            event_free(m->ev_step);
            event_free(m->ev_timer);
            game_free(g);
            for (size_t i = 0; i < cfg->n_settings; i++) {
                free((char *)m->settings[i].key);
                free((char *)m->settings[i].value);
            }
            free(m->settings);
            free(m->match_id);
            free(m);
            return -1;
        }
    }
    const char *names[ARENA_MAX_SEATS];
    for (int s = 0; s < players; s++) {
        seat_state *st = &m->seat[s];
        arena_agent *a = agents[s];
        st->agent = a;
        names[s] = agent_name(a);
        a->match = m;
        a->host = &match_host;
        a->seat = s;
        if (a->kind == AGENT_BUILTIN) {
            char perr[200];
            st->policy = a->pv->create(
                a->parg, s, arena_seed_derive(seed, SEED_POLICY, (uint64_t)s), perr, sizeof perr);
            if (!st->policy) {
                snprintf(m->error, sizeof m->error, "%s", perr);
                seat_notes_forfeit(&st->notes, "crash", perr);
                st->forfeit = CAUSE_CRASH;
            } else if (a->pv->set_move_ms && cfg->clock.move_ms > 0) {
                a->pv->set_move_ms(st->policy, cfg->clock.move_ms);
            }
        }
    }
    if (m->log) {
        av *opts = gvt->settings(g);
        matchlog_header(m->log, m->match_id, gvt->name, seed, players, names, m->settings,
                        cfg->n_settings, opts, &cfg->clock, cfg->on_fault, cfg->max_strikes);
        av_free(opts);
        for (int s = 0; s < players; s++) {
            arena_agent *a = agents[s];
            if (!a->dropped_between) continue;
            char text[200];
            snprintf(text, sizeof text, "between games %d late answer(s) were dropped; last: %s",
                     a->dropped_between, a->dropped_last);
            matchlog_note(m->log, s, text);
        }
    }
    for (int s = 0; s < players; s++)
        agents[s]->dropped_between = 0;
    m->lag_hold = (lag_hold){.on_stall_end = on_stall_end, .arg = m};
    m->lag = lag_meter_hold(base, &m->lag_hold);
    m->lag_start = lag_meter_total(m->lag, clock_now_ms());
    m->stalls_start = lag_meter_stalls(m->lag);
    m->state = M_WAIT_JOIN;
    if (cfg->watch) { /* the board at the start */
        m->watch_cursor = gvt->turn_from ? gvt->turn_from(g) : gvt->event_count(g);
        cfg->watch->turn(cfg->watch_ctx, g, 0, m->watch_cursor, false);
        if (gvt->turn_from && gvt->on_turn) {
            gvt->on_turn(g, watch_mark, m);
            m->watch_marks = true;
        }
    }
    /* Agents that died before the game began forfeit it. */
    for (int s = 0; s < players; s++) {
        arena_agent *a = agents[s];
        if (!a->alive && m->seat[s].forfeit == CAUSE_NONE)
            forfeit(m, s, a->dead_cause ? a->dead_cause : CAUSE_CRASH,
                    a->dead_reason[0] ? a->dead_reason : "agent not running");
    }
    schedule_step(m);
    return 0;
}
