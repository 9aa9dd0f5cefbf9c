/* Agents: spawned processes, TCP peers and in-process built-ins, all driven
 * from one libevent loop. This file owns bytes, processes and sockets; what
 * the messages mean for a game is match.c's business. */
#include <errno.h>
#include <event2/event.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "actframe.h"
#include "clock.h"
#include "fault.h"
#include "msgwrite.h"
#include "pidtab.h"
#include "proctree.h"
#include "resolve.h"
#include "runner.h"
#include "spawn.h"
#include "utf8.h"
#include "util.h"

#define STDERR_LINE_MAX 4096

/* Every spawned agent by pid, for SIGCHLD reaping. */
static pidtab spawned_tab;
static struct event *sigchld_ev;

static void agent_finish_close(arena_agent *a);
static void on_read(evutil_socket_t fd, short what, void *arg);
static void on_write(evutil_socket_t fd, short what, void *arg);
static void tcp_connected(arena_agent *a);
static void on_exec(evutil_socket_t fd, short what, void *arg);

static void spawned_add(arena_agent *a)
{
    if (spawned_tab.len + 1 > spawned_tab.cap / 2)
        pidtab_reserve(&spawned_tab, 2 * spawned_tab.len + 8);
    pidtab_put(&spawned_tab, a->pid, a);
}

static void spawned_remove(arena_agent *a)
{
    void *cur;
    if (a->pid > 0 && pidtab_get(&spawned_tab, a->pid, &cur) && cur == a)
        pidtab_del(&spawned_tab, a->pid);
}

static void reap(arena_agent *a)
{
    if (a->pid <= 0 || a->exited) return;
    int st;
    pid_t r = waitpid(a->pid, &st, WNOHANG);
    if (r == a->pid) {
        a->exited = true;
        a->exit_status = st;
        /* Whatever the leader left behind goes with it: its group, and
         * where cgroups serve, the processes that left the group. */
        kill(-a->pid, SIGKILL);
        cgroup_kill(&a->cg);
        spawn_forget(a->pid);
    }
}

/* The crash verdict of an agent whose process was reaped: how it died. */
static void fail_exited(arena_agent *a)
{
    char how[120];
    fault_describe_exit(a->exit_status, a->cfg.sandbox, how, sizeof how);
    agent_fail(a, CAUSE_CRASH, !a->joined, "the agent process %s", how);
}

/* EOF on a spawned agent's output mostly means it is dying: the kernel
 * closes its files, then makes it a zombie, so its exit status (which says
 * how it died) follows the EOF closely. Waited for at most EXIT_WAIT_MS,
 * so that the crash verdict can name it. The verdict is the same either
 * way; only its text says more. The wait is on the loop (SIGCHLD, or
 * ev_ending), not in it: a wait in a callback stalled every match on the
 * loop, once per game of an entrant that closes its stdout and lives on
 * (tests/e2e/exit_wait.c). Meanwhile the agent is `ending`: not alive, read
 * and written no more, and its match neither asks it nor ends before the
 * verdict (agent_ending). */
#define EXIT_WAIT_MS 20

/* The verdict on a's closed output (err: the read's errno, 0 at EOF). */
static void fail_closed(arena_agent *a, int err)
{
    if (a->exited)
        fail_exited(a);
    else
        agent_fail(a, CAUSE_CRASH, !a->joined, "the agent closed its output (%s)%s",
                   err ? strerror(err) : "EOF",
                   a->kind == AGENT_SPAWNED && a->pid > 0 ? "; its process was still running" : "");
}

/* The wait for an ending agent's exit is over: it exited, or EXIT_WAIT_MS
 * passed, or its match cannot wait (agent_catch_up). */
static void end_wait(arena_agent *a)
{
    if (!a->ending) return;
    reap(a);
    fail_closed(a, a->ending_err); /* agent_fail ends the wait */
}

static void on_ending(evutil_socket_t fd, short what, void *arg)
{
    (void)fd, (void)what;
    end_wait(arg);
}

static void stop_io(arena_agent *a);

/* EOF or a read error (err) on a's output. */
static void output_closed(arena_agent *a, int err)
{
    bool process = a->kind == AGENT_SPAWNED && a->pid > 0;
    if (process) reap(a);
    if (!process || a->exited) {
        fail_closed(a, err);
        return;
    }
    a->ending = true;
    a->ending_err = err;
    a->alive = false;
    stop_io(a);
    if (!a->ev_ending) a->ev_ending = evtimer_new(a->base, on_ending, a);
    arm_after(a->base, a->ev_ending, EXIT_WAIT_MS);
}

bool agent_ending(const arena_agent *a)
{
    return a->ending;
}

/* a's process was just reaped: act on it (may free a). */
static void on_reaped(arena_agent *a)
{
    proctree_keep_close(&a->procfs);
    if (a->closing) {
        if (a->report) {
            a->report->exited_itself = true;
            a->report->exit_ms = clock_now_ms() - a->t_close;
        }
        agent_finish_close(a);
    } else if (a->ending) {
        end_wait(a);
    } else if (a->alive) {
        /* Died before or at exec: say why. */
        if (a->xfd >= 0) on_exec(a->xfd, EV_READ, a);
        /* Drain what it wrote before dying, then judge: EOF on
         * stdout will follow, but a grandchild may hold the pipe. */
        if (a->rfd >= 0) on_read(a->rfd, EV_READ, a);
        fail_exited(a);
    }
}

static void child_exited(arena_agent *a)
{
    if (a->exited) return;
    reap(a);
    if (a->exited) on_reaped(a);
}

/* Tries every spawned agent: the fallback when a child that is not an agent
 * is waiting to be reaped by its owner. Pids first, since handling one may
 * close (and remove) others. */
static void sigchld_scan_all(void)
{
    size_t n = 0;
    pid_t *pids = xmalloc((spawned_tab.len + 1) * sizeof *pids);
    for (size_t s = 0; s < spawned_tab.cap; s++)
        if (spawned_tab.keys[s] > 0) pids[n++] = spawned_tab.keys[s];
    for (size_t i = 0; i < n; i++) {
        void *a;
        if (pidtab_get(&spawned_tab, pids[i], &a)) child_exited(a);
    }
    free(pids);
}

/* Work per SIGCHLD is per child exited, not per agent: waitid(WNOWAIT)
 * names an exited child without reaping it, the table finds its agent, and
 * reap() collects it. A child that is not ours (never reaped here) would be
 * named again and again: then every agent is tried once (sigchld_scan_all). */
static void on_sigchld(evutil_socket_t sig, short what, void *arg)
{
    (void)sig, (void)what, (void)arg;
    for (;;) {
        siginfo_t si;
        si.si_pid = 0;
        if (waitid(P_ALL, 0, &si, WEXITED | WNOHANG | WNOWAIT) != 0 || si.si_pid == 0) return;
        void *found;
        if (!pidtab_get(&spawned_tab, si.si_pid, &found)) {
            sigchld_scan_all();
            return;
        }
        arena_agent *a = found;
        bool was = a->exited;
        if (!was) reap(a);
        if (was || !a->exited) { /* not collectable after all: never spin on it */
            sigchld_scan_all();
            return;
        }
        on_reaped(a);
    }
}

const char *agent_name(const arena_agent *a)
{
    if (a->display) return a->display;
    if (a->join_name) return a->join_name;
    return a->spec;
}

bool agent_alive(const arena_agent *a)
{
    return a->alive;
}
bool agent_busy(const arena_agent *a)
{
    return a->match != NULL;
}
codec_kind agent_codec(const arena_agent *a)
{
    return a->dec.codec;
}

static void close_exec(arena_agent *a)
{
    if (a->xfd < 0) return;
    if (a->ev_exec) event_del(a->ev_exec);
    close(a->xfd);
    a->xfd = -1;
}

static void stop_io(arena_agent *a)
{
    close_exec(a);
    if (a->ev_read) event_del(a->ev_read);
    if (a->ev_readmore) event_del(a->ev_readmore);
    a->read_held = false;
    if (a->ev_write) event_del(a->ev_write);
    a->write_waits = false;
    if (a->ev_timer) event_del(a->ev_timer);
}

static void flush_out(arena_agent *a);

void agent_fail(arena_agent *a, fault_cause cause, bool at_startup, const char *fmt, ...)
{
    if (!a->alive && !a->ending) return;
    if (a->ending) { /* its verdict: this one */
        a->ending = false;
        event_del(a->ev_ending);
    }
    char why[sizeof a->dead_reason];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    long ooms = cause == CAUSE_CRASH ? cgroup_oom_kills(&a->cg) : 0;
    if (ooms > 0) {
        size_t n = strlen(why);
        const char *whom = ooms == 1 ? "a process of it" : "processes of it";
        if (a->cfg.limits.mem_mb > 0)
            snprintf(why + n, sizeof why - n, "; the kernel killed %s at --limit-mem %lld", whom,
                     (long long)a->cfg.limits.mem_mb);
        else
            snprintf(why + n, sizeof why - n, "; the kernel killed %s for memory", whom);
    }
    /* A connection to `arena serve` that breaks the protocol before its join
     * is accepted is told why before it is closed. */
    if (a->check && !a->joined && cause == CAUSE_PROTOCOL) {
        msg e = {.type = MSG_ERROR};
        e.u.error.code = "protocol";
        e.u.error.message = why;
        agent_send(a, &e);
        /* Written now: the agent is freed below. */
        flush_out(a);
        if (!a->alive) return; /* the write failed: that was the verdict */
    }
    a->alive = false;
    a->dead_cause = cause;
    a->dead_at_startup = at_startup;
    memcpy(a->dead_reason, why, sizeof why);
    stop_io(a);
    if (a->pid > 0 && !a->exited) kill(-a->pid, SIGKILL);
    cgroup_kill(&a->cg);
    if (a->match)
        a->host->dead(a->match, a->seat);
    else if (a->on_dead)
        a->on_dead(a, a->check_ctx);
}

static void flush_out(arena_agent *a)
{
    /* The clock starts before the write that sends the last byte: the
     * agent it wakes may take this core at once, and a time read after the
     * write would then start the agent's clock only once it gave it back. */
    double t = clock_now_ms();
    while (a->out.len > 0) {
        ssize_t w = write(a->wfd, a->out.data, a->out.len);
        if (w > 0) {
            abuf_consume(&a->out, (size_t)w);
            if (a->out.len > 0) t = clock_now_ms();
            continue;
        }
        if (w < 0 && errno == EINTR) continue;
        if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            event_add(a->ev_write, NULL);
            a->write_waits = true;
            if (a->match) a->host->blocked(a->match, a->seat);
            return;
        }
        agent_fail(a, CAUSE_CRASH, !a->joined, "writing to the agent failed: %s",
                   w < 0 ? strerror(errno) : "closed");
        return;
    }
    if (a->write_waits) { /* (most writes never waited: no event_del for them) */
        event_del(a->ev_write);
        a->write_waits = false;
    }
    if (a->match) a->host->sent(a->match, a->seat, t);
}

static void on_write(evutil_socket_t fd, short what, void *arg)
{
    (void)fd, (void)what;
    arena_agent *a = arg;
    if (a->closing) {
        /* Flush the bye, then close stdin so the agent sees EOF. */
        while (a->out.len > 0) {
            ssize_t w = write(a->wfd, a->out.data, a->out.len);
            if (w <= 0) break;
            abuf_consume(&a->out, (size_t)w);
        }
        if (a->out.len == 0 || errno != EAGAIN) {
            event_del(a->ev_write);
            a->write_waits = false;
            if (a->kind == AGENT_TCP)
                shutdown(a->wfd, SHUT_WR);
            else if (a->wfd >= 0) {
                close(a->wfd);
                a->wfd = -1;
            }
        }
        return;
    }
    if (a->connecting) {
        if (a->alive) tcp_connected(a);
        return;
    }
    if (a->alive) flush_out(a);
}

abuf *agent_out(arena_agent *a, codec_kind *c)
{
    if (!a->alive || a->kind == AGENT_BUILTIN) return NULL;
    /* The agent's first byte picked its codec; before join it is unknown,
     * and the referee never speaks first. */
    *c = a->dec.codec != CODEC_NONE ? a->dec.codec : CODEC_MSGPACK;
    return &a->out;
}

static void on_flush(evutil_socket_t fd, short what, void *arg)
{
    (void)fd, (void)what;
    arena_agent *a = arg;
    /* An agent that goes straight on to its next game (a pool, `play
     * --games`) has the last game's `over` waiting here, while the new
     * match's first step, which sends the `hello`, was queued after this
     * flush. Letting that step go first, once, makes the two one write: one
     * wake-up of the bot instead of two. */
    if (a->match && !a->flush_deferred && a->host->hello_due(a->match, a->seat)) {
        a->flush_deferred = true;
        event_active(a->ev_flush, EV_WRITE, 0);
        return;
    }
    a->flush_deferred = false;
    if (a->alive && !a->closing) flush_out(a);
}

/* Output is written after the callbacks the loop already has ready: a whole
 * batch of answers is handled before the first bot is woken, and an `over`
 * and the next game's `hello` leave in one write (on_flush). */
void agent_flush(arena_agent *a)
{
    if (!a->alive) return;
    if (a->ev_flush)
        event_active(a->ev_flush, EV_WRITE, 0);
    else
        flush_out(a);
}

static bool freezable(const arena_agent *a)
{
    return a->cfg.freeze_idle && a->kind == AGENT_SPAWNED && a->pid > 0 && !a->exited;
}

/* By its freezer cgroup where it has one: one write, where the walk of
 * freeze.h reads each of its processes, and an agent of 500 idle ones
 * stalled the loop 20-30 ms a stop (verdict_no_stall_by_processes). */
void agent_freeze(arena_agent *a)
{
    if (!freezable(a) || !a->alive || a->cg_frozen) return;
    if (cgroup_freeze(&a->cg, true))
        a->cg_frozen = true;
    else
        freezer_stop(&a->frz, a->pid);
}

/* With an agent of 500 processes, the walk stalled the loop some 10 ms a
 * reading, two or more a move (verdict_no_stall_by_processes). */
double agent_cpu_ms(arena_agent *a)
{
    double ms = cgroup_cpu_ms(&a->cg);
    if (ms >= 0) return ms;
    return a->pid > 0 ? proc_tree_cpu_ms(a->pid) : -1;
}

void agent_span_start(arena_agent *a, double cpu0, bool fresh)
{
    a->span_cpu0 = cpu0;
    if (a->cfg.startup_cpu && a->pid > 0 && proctree_schedstat())
        clock_probe_start(&a->span, a->pid, &a->procfs, fresh);
}

double agent_span_left(arena_agent *a, double t0, double now)
{
    double limit = (double)a->cfg.startup_ms;
    double cpu = a->cfg.startup_cpu ? agent_cpu_ms(a) : -1, wait = 0, sum;
    bool stalled = false;
    if (cpu >= 0 && a->span.t)
        wait = clock_probe_wait(&a->span, a->pid, cpu - a->span_cpu0, &sum, &stalled);
    double left = clock_startup_left(limit, t0, cpu, a->span_cpu0, wait, now);
    /* Over the wall cap, not its CPU, with a task runnable: it may be
     * waiting for a CPU now, a wait schedstat counts once it runs
     * (CLOCK_FAIR_SETTLE_STEP_MS). */
    if (left <= 0 && stalled && cpu - a->span_cpu0 < limit &&
        now - t0 < CLOCK_FAIR_WALL_CAP * limit)
        return CLOCK_FAIR_SETTLE_STEP_MS;
    return left;
}

void agent_span_end(arena_agent *a)
{
    clock_probe_free(&a->span);
}

void agent_thaw(arena_agent *a)
{
    if (a->cg_frozen) cgroup_freeze(&a->cg, false);
    a->cg_frozen = false;
    if (a->frz.stopped) freezer_cont(&a->frz, a->exited ? 0 : a->pid);
}

void agent_send_av(arena_agent *a, const av *v)
{
    codec_kind c;
    abuf *out = agent_out(a, &c);
    if (!out) return;
    codec_encode(c, v, out);
    agent_flush(a);
}

void agent_send(arena_agent *a, const msg *m)
{
    codec_kind c;
    abuf *out = agent_out(a, &c);
    if (!out) return;
    msg_write(c, out, m); /* no tree: the bytes codec_encode(msg_encode(m)) are */
    agent_flush(a);
}

/* A decoded message m (owned) from a. */
static void handle_msg(arena_agent *a, msg m, double now)
{
    if (m.type == MSG_LOG) {
        msg_free(&m);
        return;
    }
    if (!a->joined) {
        if (m.type != MSG_JOIN) {
            agent_fail(a, CAUSE_PROTOCOL, true, "first message was '%s', not 'join'",
                       msg_type_name(m.type));
            msg_free(&m);
            return;
        }
        if (a->check) {
            char why[200] = "refused";
            if (!a->check(a, m.u.join.name, m.u.join.token, a->check_ctx, why, sizeof why)) {
                msg_free(&m);
                agent_fail(a, CAUSE_PROTOCOL, true, "join refused: %s", why); /* sends it */
                return;
            }
            a->dec.max_frame = a->cfg.max_frame ? a->cfg.max_frame : PROTO_MAX_FRAME_DEFAULT;
        }
        a->joined = true;
        agent_span_end(a);
        if (a->report) a->report->join_ms = clock_now_ms() - a->t_start;
        a->join = m.u.join;
        /* The name reaches terminals, logs and the other seats: one short
         * line that cannot drive a terminal. */
        a->join_name =
            xasprintf("%.*s", (int)utf8_cut(m.u.join.name, AGENT_NAME_MAX), m.u.join.name);
        utf8_mask_controls(a->join_name, false);
        event_del(a->ev_timer);
        if (a->match) a->host->joined(a->match, a->seat);
        return;
    }
    /* A correct bot answers every hello and decide, even once the referee
     * stopped waiting; such a late answer is dropped, never charged. */
    char late[120] = "";
    if (m.type == MSG_READY && owed_take_ready(&a->owed))
        snprintf(late, sizeof late, "dropped a late 'ready' (it answers an earlier game's hello)");
    else if (m.type == MSG_ACT && owed_take_act(&a->owed, m.u.act.id))
        snprintf(late, sizeof late,
                 "dropped a late 'act' for id %llu (the decision timed out or its game ended)",
                 (unsigned long long)m.u.act.id);
    if (late[0]) {
        msg_free(&m);
        if (a->match) {
            a->host->dropped(a->match, a->seat, late);
        } else {
            a->dropped_between++;
            snprintf(a->dropped_last, sizeof a->dropped_last, "%s", late);
        }
        return;
    }
    if (!a->match) {
        agent_fail(a, CAUSE_PROTOCOL, false, "'%s' sent between games", msg_type_name(m.type));
        msg_free(&m);
        return;
    }
    a->host->message(a->match, a->seat, &m, now);
}

static void handle_message(arena_agent *a, av *raw, size_t bytes, double now)
{
    if (a->match) a->host->log_in(a->match, a->seat, raw, bytes);
    msg m;
    char why[200];
    if (msg_decode(raw, &m, why, sizeof why) != 0) {
        agent_fail(a, CAUSE_PROTOCOL, !a->joined, "bad message: %s", why);
        return;
    }
    handle_msg(a, m, now);
}

/* The canonical `act` of a joined agent straight from the frame's bytes
 * (actframe.h), unless its match wants the tree for a log or the trace.
 * 1 when the front frame was taken that way, 0 when there is no whole
 * frame yet (frame_decoder_next would say so too), -1 for the general
 * way. */
static int fast_act(arena_agent *a, double now)
{
    const uint8_t *p;
    size_t n;
    msg m;
    if (!a->joined || (a->match && a->host->wants_raw(a->match))) return -1;
    int got = frame_decoder_peek(&a->dec, &p, &n);
    if (got == 0) return 0;
    if (got < 0 || !act_frame_parse(a->dec.codec, p, n, &m)) return -1;
    frame_decoder_skip(&a->dec);
    handle_msg(a, m, now);
    return 1;
}

/* What one wake-up of on_read reads and decodes at most. The referee
 * decodes what it reads at once, and an agent's costly messages must not
 * keep the loop from the other agents and the lag probe long enough to be
 * credited to any of them as the loop's lag (lag.h). Decoding costs by the
 * value (an allocation each), so the wake-up stops reading at
 * READ_BUDGET bytes and decoding once VALUES_A_WAKE values are read: fewer
 * than twice PROTO_MAX_VALUES_IN, some 0.2 ms here (0.5 ms under
 * AddressSanitizer, where 4 KiB of 4,096-value messages took 1.2 ms and
 * now and then stalled the loop past LAG_STALL_MS). An act is some 30
 * bytes and a few values. */
#define READ_BUDGET ((size_t)4 << 10)
#define VALUES_A_WAKE PROTO_MAX_VALUES_IN

/* The loop has been busy with a's input since *since: that is a's time. */
static void busy_until(arena_agent *a, double *since, double now)
{
    if (a->match) a->host->busy(a->match, a->seat, *since, now);
    *since = now;
}

typedef enum { TAKEN_ALL, TAKEN_BUDGET, TAKEN_DEAD } taken;

/* Handles the whole messages buffered while the wake-up's *values last. */
static taken take_messages(arena_agent *a, double now, size_t *values)
{
    while (a->alive) {
        if (*values >= VALUES_A_WAKE) return TAKEN_BUDGET;
        size_t pending = frame_decoder_pending(&a->dec);
        int fast = fast_act(a, now);
        if (fast > 0) { /* its bytes bound its values */
            *values += pending - frame_decoder_pending(&a->dec);
            continue;
        }
        av *raw;
        int got;
        if (fast == 0 || (got = frame_decoder_next(&a->dec, &raw)) == 0) return TAKEN_ALL;
        if (got < 0) {
            agent_fail(a, CAUSE_PROTOCOL, !a->joined, "protocol error: %s", a->dec.error);
            return TAKEN_DEAD;
        }
        *values += a->dec.values;
        handle_message(a, raw, pending - frame_decoder_pending(&a->dec), now);
        av_free(raw);
    }
    return TAKEN_DEAD;
}

/* Input left past a wake-up's budget waits for the loop's next turn:
 * `more`, a zero-delay timer, takes it up, and `io` (the descriptor's
 * event) is off meanwhile, so a flood fills its pipe and blocks the
 * flooder. `held`: whether input was waiting already. Messages (on_read)
 * and stderr (on_stderr) alike. */
static void hold_input(struct event *io, struct event *more, bool held, bool hold)
{
    if (hold) {
        struct timeval now = {0, 0};
        if (!held) event_del(io);
        event_add(more, &now);
    } else if (held) {
        event_del(more);
        event_add(io, NULL);
    }
}

/* From ev_read, or from ev_readmore (a timer: fd is -1). */
static void on_read(evutil_socket_t fd, short what, void *arg)
{
    (void)fd, (void)what;
    arena_agent *a = arg;
    size_t budget = READ_BUDGET, values = 0;
    double busy = -1; /* since when this wake-up has been at work */
    taken t = TAKEN_ALL;
    if (a->read_held) { /* first what the last wake-up left */
        busy = clock_now_ms();
        t = take_messages(a, busy, &values);
    }
    while (t == TAKEN_ALL && a->alive && budget > 0) {
        /* Straight into the decoder's buffer, with room for a few acts (one
         * is ~30 bytes) so an agent's buffer stays small; a bigger message
         * takes more rounds while the buffer doubles. */
        size_t room;
        uint8_t *buf = frame_decoder_space(&a->dec, 128, &room);
        if (room > budget) room = budget;
        ssize_t r = read(a->rfd, buf, room);
        if (r < 0 && errno == EINTR) continue;
        if (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
        double now = clock_now_ms();
        if (busy < 0)
            busy = now;
        else
            busy_until(a, &busy, now); /* before a message read here is judged */
        if (r <= 0) {
            output_closed(a, r < 0 ? errno : 0);
            return;
        }
        budget -= (size_t)r;
        frame_decoder_commit(&a->dec, (size_t)r);
        t = take_messages(a, now, &values);
        if ((size_t)r < room) break; /* drained: no read just for EAGAIN */
    }
    if (t == TAKEN_DEAD || !a->alive) return;
    a->read_more = t == TAKEN_BUDGET || budget == 0;
    hold_input(a->ev_read, a->ev_readmore, a->read_held, t == TAKEN_BUDGET);
    a->read_held = t == TAKEN_BUDGET;
    if (busy >= 0) busy_until(a, &busy, clock_now_ms());
}

/* One complete stderr line (or a STDERR_LINE_MAX piece of a longer one). */
static void stderr_line(arena_agent *a, const char *p, size_t n)
{
    if (a->report && a->report->stderr_lines++ == 0)
        snprintf(a->report->stderr_first, sizeof a->report->stderr_first, "%.*s", (int)n, p);
    if (a->match) a->host->stderr_line(a->match, a->seat, p, n);
}

/* Lines of stderr handled a wake-up: each is noted and may be logged (some
 * 2 us each here), so a flood of empty lines is bounded by lines, not by
 * bytes (tests/hostile/verdicts.py, flood_stderr). */
#define STDERR_LINES_A_WAKE 256

/* Handles the lines of p[0, n), at most `lines` of them; returns the bytes
 * consumed (a line's unfinished end is kept in errline). */
static size_t stderr_span(arena_agent *a, const char *p, size_t n, int lines)
{
    const char *start = p, *end = p + n;
    while (p < end && lines > 0) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t room = STDERR_LINE_MAX - a->errline.len;
        size_t take = nl ? (size_t)(nl - p) : (size_t)(end - p);
        lines--;
        if (take >= room) { /* an over-long line is cut into pieces */
            abuf_add(&a->errline, p, room);
            stderr_line(a, (const char *)a->errline.data, a->errline.len);
            abuf_consume(&a->errline, a->errline.len);
            p += room;
            continue;
        }
        if (!nl) {
            abuf_add(&a->errline, p, take);
            return n;
        }
        if (a->errline.len) {
            abuf_add(&a->errline, p, take);
            stderr_line(a, (const char *)a->errline.data, a->errline.len);
            abuf_consume(&a->errline, a->errline.len);
        } else {
            stderr_line(a, p, take);
        }
        p = nl + 1;
    }
    return (size_t)(p - start);
}

/* Reads stderr in spans of READ_BUDGET bytes and handles them a bounded
 * number of lines a wake-up: a bot writing megabytes, or a flood of empty
 * lines, may not stall the loop any more than a flood of messages
 * (on_read). What a span has beyond that waits in errpend, and the pipe
 * is not read until it is handled: the bot's writes then block. */
static void on_stderr(evutil_socket_t fd, short what, void *arg)
{
    (void)fd, (void)what;
    arena_agent *a = arg;
    bool held = a->errpend.len > 0;
    char buf[READ_BUDGET];
    const char *p = (const char *)a->errpend.data;
    size_t n = a->errpend.len;
    if (!held) {
        ssize_t r;
        do
            r = read(a->efd, buf, sizeof buf);
        while (r < 0 && errno == EINTR);
        if (r <= 0) {
            if (r == 0 || (errno != EAGAIN && errno != EWOULDBLOCK)) event_del(a->ev_err);
            return;
        }
        if (a->report) a->report->stderr_bytes += (size_t)r;
        p = buf;
        n = (size_t)r;
    }
    double busy = clock_now_ms();
    size_t used = stderr_span(a, p, n, STDERR_LINES_A_WAKE);
    if (held)
        abuf_consume(&a->errpend, used);
    else if (used < n)
        abuf_add(&a->errpend, p + used, n - used);
    hold_input(a->ev_err, a->ev_errmore, held, a->errpend.len > 0);
    busy_until(a, &busy, clock_now_ms());
}

static struct timeval tv_ms(double ms)
{
    if (ms < 0) ms = 0;
    struct timeval tv = {(time_t)(ms / 1000), (suseconds_t)((long long)(ms * 1000) % 1000000)};
    return tv;
}

void arm_after(struct event_base *base, struct event *ev, double ms)
{
    /* libevent counts from the time cached when the loop woke up, stale
     * after a long callback: without this the timer would fire early. */
    event_base_update_cache_time(base);
    struct timeval tv = tv_ms(ms);
    event_add(ev, &tv);
}

/* The spawned child exec'd (or failed to): startup_ms counts from here,
 * not from the fork, which on a loaded machine can be long before. */
static void on_exec(evutil_socket_t fd, short what, void *arg)
{
    (void)what;
    arena_agent *a = arg;
    int e = 0;
    int r = spawn_exec_result(fd, &e);
    if (r == 0) return;
    close_exec(a);
    if (r < 0) {
        agent_fail(a, CAUSE_CRASH, true, "cannot run '%s': %s", a->cfg.sandbox ? "bwrap" : a->spec,
                   strerror(e));
        return;
    }
    a->t_start = clock_now_ms();
    /* The tree's CPU since its exec is all it used: no baseline. */
    agent_span_start(a, 0, true);
    if (!a->joined && a->alive) arm_after(a->base, a->ev_timer, (double)a->cfg.startup_ms);
}

static void on_timer(evutil_socket_t fd, short what, void *arg)
{
    (void)fd, (void)what;
    arena_agent *a = arg;
    if (a->closing) {
        /* exit_grace_ms is over: kill the whole group and reap it. */
        if (a->pid > 0 && !a->exited) {
            kill(-a->pid, SIGKILL);
            cgroup_kill(&a->cg);
            int st;
            while (waitpid(a->pid, &st, 0) < 0 && errno == EINTR) {
            }
            a->exited = true;
            spawn_forget(a->pid);
        }
        agent_finish_close(a);
        return;
    }
    if (a->joined) return;
    if (a->xfd >= 0) {
        on_exec(a->xfd, EV_READ, a);
        if (!a->alive || a->xfd < 0) return; /* failed, or its clock starts now */
    }
    /* The loop may have been late: a join may sit unread in the pipe, or
     * the timer may have been armed from a stale cached time. */
    agent_catch_up(a);
    if (a->joined || !a->alive) return;
    double left = agent_span_left(a, a->t_start, clock_now_ms());
    if (left > 0) {
        arm_after(a->base, a->ev_timer, left < 1 ? 1 : left);
        return;
    }
    if (a->resolving)
        agent_fail(a, CAUSE_TIMEOUT, true, "cannot resolve '%s' within startup_ms (%lld ms)",
                   a->spec + 4, (long long)a->cfg.startup_ms);
    else
        agent_fail(a, CAUSE_TIMEOUT, true, "no 'join' within startup_ms (%lld ms)",
                   (long long)a->cfg.startup_ms);
}

bool agent_catch_up(arena_agent *a)
{
    /* A verdict waited for is due now: the match would judge otherwise. */
    if (a->ending) {
        end_wait(a);
        return false;
    }
    if (!a->alive || a->kind == AGENT_BUILTIN || a->closing || a->connecting) return false;
    if (a->out.len) flush_out(a);
    if (!a->alive || a->rfd < 0) return false;
    a->read_more = false;
    on_read(a->rfd, EV_READ, a);
    return a->alive && a->read_more;
}

/* A tcp: agent's HOST:PORT ([IPv6]:PORT too) split in place: *host and
 * *port point into the returned copy (the caller's to free), or NULL. */
static char *tcp_split(const char *hostport, const char **host, const char **port, char *err,
                       size_t errlen)
{
    char *copy = xstrdup(hostport);
    char *colon = strrchr(copy, ':');
    if (!colon || colon == copy || !colon[1]) {
        snprintf(err, errlen, "tcp agent '%s' is not HOST:PORT", hostport);
        free(copy);
        return NULL;
    }
    *colon = 0;
    char *h = copy;
    if (h[0] == '[') { /* [::1]:port */
        h++;
        char *rb = strchr(h, ']');
        if (rb) *rb = 0;
    }
    *host = h;
    *port = colon + 1;
    return copy;
}

static void tcp_nodelay(int fd)
{
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
}

/* A connect waited for, up to timeout_ms an address: only where no other
 * match runs on the loop (wait_exec). */
static int tcp_dial(const char *hostport, int64_t timeout_ms, char *err, size_t errlen)
{
    const char *host, *port;
    char *copy = tcp_split(hostport, &host, &port, err, errlen);
    if (!copy) return -1;
    struct addrinfo *res;
    int late, rc = resolve_wait(host, port, timeout_ms, &res, &late);
    free(copy);
    if (rc != 0) {
        if (late)
            snprintf(err, errlen, "cannot resolve '%s' within startup_ms (%lld ms)", hostport,
                     (long long)timeout_ms);
        else
            snprintf(err, errlen, "cannot resolve '%s': %s", hostport, gai_strerror(rc));
        return -1;
    }
    int fd = -1;
    for (struct addrinfo *ai = res; ai; ai = ai->ai_next) {
        fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, ai->ai_protocol);
        if (fd < 0) continue;
        struct timeval tv = tv_ms((double)timeout_ms);
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
        if (connect(fd, ai->ai_addr, ai->ai_addrlen) == 0) break;
        close(fd);
        fd = -1;
    }
    freeaddrinfo(res);
    if (fd < 0) {
        snprintf(err, errlen, "cannot connect to %s: %s", hostport, strerror(errno));
        return -1;
    }
    tcp_nodelay(fd);
    evutil_make_socket_nonblocking(fd);
    return fd;
}

/* Starts a connect not waited for, to the next address left: its socket,
 * or -1 (errno set) when none is left. A connect waited for stalls every
 * match on the loop for as long as the entrant's server lets it hang (one
 * that drops SYNs: startup_ms), and the loop's lag is then credited to
 * whichever answer comes after it, a colluding partner's say. */
static int tcp_start(arena_agent *a)
{
    int e = ECONNREFUSED;
    while (a->ai_next) {
        struct addrinfo *ai = a->ai_next;
        a->ai_next = ai->ai_next;
        int fd =
            socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK, ai->ai_protocol);
        if (fd < 0) {
            e = errno;
            continue;
        }
        if (connect(fd, ai->ai_addr, ai->ai_addrlen) == 0 || errno == EINPROGRESS) return fd;
        e = errno;
        close(fd);
    }
    errno = e;
    return -1;
}

/* The connect of a tcp: agent finished (ev_write): read from now on, or
 * try the next address, or fail the agent (a crash at start-up). The
 * startup timer, armed in agent_new, bounds the whole of it. */
static void tcp_connected(arena_agent *a)
{
    int e = 0;
    socklen_t len = sizeof e;
    if (getsockopt(a->rfd, SOL_SOCKET, SO_ERROR, &e, &len) != 0) e = errno;
    event_del(a->ev_write);
    a->write_waits = false;
    if (e == 0) {
        a->connecting = false;
        freeaddrinfo(a->ai);
        a->ai = a->ai_next = NULL;
        tcp_nodelay(a->rfd);
        event_add(a->ev_read, NULL);
        return;
    }
    close(a->rfd);
    a->rfd = a->wfd = tcp_start(a);
    if (a->rfd < 0) {
        agent_fail(a, CAUSE_CRASH, true, "cannot connect to %s: %s", a->spec + 4, strerror(e));
        return;
    }
    event_assign(a->ev_read, a->base, a->rfd, EV_READ | EV_PERSIST, on_read, a);
    event_assign(a->ev_write, a->base, a->wfd, EV_WRITE | EV_PERSIST, on_write, a);
    event_add(a->ev_write, NULL);
    a->write_waits = true;
}

/* The first connect of a tcp: agent: to the first of its addresses. */
static bool tcp_first(arena_agent *a, struct addrinfo *res)
{
    a->ai = a->ai_next = res;
    a->rfd = a->wfd = tcp_start(a);
    a->connecting = a->rfd >= 0;
    return a->connecting;
}

/* Its host name was looked up (resolve.h): connect, or fail the agent (a
 * crash at start-up, as a refused connect). The startup timer, armed in
 * agent_new, bounds the lookup too: it abandons one that runs past it. */
static void tcp_resolved(struct addrinfo *res, int err, void *arg)
{
    arena_agent *a = arg;
    a->resolving = NULL;
    if (!a->alive) { /* failed or closing meanwhile */
        if (res) freeaddrinfo(res);
        return;
    }
    if (!res) {
        agent_fail(a, CAUSE_CRASH, true, "cannot resolve '%s': %s", a->spec + 4, gai_strerror(err));
        return;
    }
    if (!tcp_first(a, res)) {
        agent_fail(a, CAUSE_CRASH, true, "cannot connect to %s: %s", a->spec + 4, strerror(errno));
        return;
    }
    event_assign(a->ev_read, a->base, a->rfd, EV_READ | EV_PERSIST, on_read, a);
    event_assign(a->ev_write, a->base, a->wfd, EV_WRITE | EV_PERSIST, on_write, a);
    event_add(a->ev_write, NULL);
    a->write_waits = true;
}

/* A tcp: agent not waited for: its connect starts now, or once its host
 * name is looked up off the loop. 0, or -1 with err. */
static int tcp_open(arena_agent *a, char *err, size_t errlen)
{
    const char *host, *port;
    char *copy = tcp_split(a->spec + 4, &host, &port, err, errlen);
    if (!copy) return -1;
    struct addrinfo *res;
    int rc = 0;
    if (resolve_numeric(host, port, &res) == 0) {
        if (!tcp_first(a, res)) {
            snprintf(err, errlen, "cannot connect to %s: %s", a->spec + 4, strerror(errno));
            rc = -1;
        }
    } else if ((a->resolving = resolve_start(a->base, host, port, tcp_resolved, a))) {
        a->connecting = true;
    } else {
        snprintf(err, errlen, "cannot resolve '%s': %s", a->spec + 4, strerror(errno));
        rc = -1;
    }
    free(copy);
    return rc;
}

/* An agent's messages are small: PROTO_MAX_VALUES_IN, not the referee's cap. */
static void decoder_init(arena_agent *a, size_t max_frame)
{
    frame_decoder_init(&a->dec, max_frame, CODEC_NONE);
    a->dec.max_values = PROTO_MAX_VALUES_IN;
}

arena_agent *agent_new(struct event_base *base, const agent_config *cfg, char *err, size_t errlen)
{
    return agent_try_new(base, cfg, NULL, err, errlen);
}

arena_agent *agent_try_new(struct event_base *base, const agent_config *cfg, bool *host_fault,
                           char *err, size_t errlen)
{
    if (host_fault) *host_fault = false;
    /* A write to an agent that just died must be an error, not our death. */
    signal(SIGPIPE, SIG_IGN);
    arena_agent *a = xcalloc(1, sizeof *a);
    a->base = base;
    a->cfg = *cfg;
    a->spec = xstrdup(cfg->spec);
    a->display = cfg->name ? xstrdup(cfg->name) : NULL;
    a->game = cfg->game ? xstrdup(cfg->game) : NULL;
    a->cfg.spec = a->spec;
    a->cfg.name = a->display;
    a->cfg.game = a->game;
    a->rfd = a->wfd = a->efd = a->xfd = -1;
    a->seat = -1;
    size_t max_frame = cfg->max_frame ? cfg->max_frame : PROTO_MAX_FRAME_DEFAULT;
    decoder_init(a, max_frame);

    const char *spec = cfg->spec;
    if (strncmp(spec, "builtin:", 8) == 0) {
        a->kind = AGENT_BUILTIN;
        a->pv = arena_find_policy(cfg->game, spec + 8, &a->parg);
        if (!a->pv) {
            snprintf(err, errlen, "no built-in bot '%s' for %s (see `arena bots`)", spec + 8,
                     cfg->game ? cfg->game : "this game");
            goto fail;
        }
        a->joined = true;
        a->join_name = xstrdup(spec);
        a->alive = true;
        return a;
    }

    if (strncmp(spec, "tcp:", 4) == 0) {
        a->kind = AGENT_TCP;
        if (cfg->wait_exec) {
            a->rfd = a->wfd = tcp_dial(spec + 4, cfg->startup_ms, err, errlen);
            if (a->rfd < 0) goto fail;
        } else if (tcp_open(a, err, errlen) != 0) {
            goto fail;
        }
    } else {
        a->kind = AGENT_SPAWNED;
        bool shell = strncmp(spec, "cmd:", 4) == 0;
        spawned sp;
        int r = spawn_agent(shell ? spec + 4 : spec, shell, cfg, &sp, err, errlen);
        if (r == SPAWN_HOST_FAULT && host_fault) *host_fault = true;
        if (r != 0) goto fail;
        a->pid = sp.pid;
        a->rfd = sp.from_fd;
        a->wfd = sp.to_fd;
        a->efd = sp.err_fd;
        a->xfd = sp.exec_fd;
        a->cg = sp.cg;
        if (a->xfd >= 0) {
            a->ev_exec = event_new(base, a->xfd, EV_READ, on_exec, a);
            event_add(a->ev_exec, NULL);
        }
        if (!sigchld_ev) {
            sigchld_ev = evsignal_new(base, SIGCHLD, on_sigchld, NULL);
            event_add(sigchld_ev, NULL);
        }
        spawned_add(a);
        a->ev_err = event_new(base, a->efd, EV_READ | EV_PERSIST, on_stderr, a);
        a->ev_errmore = evtimer_new(base, on_stderr, a);
        event_add(a->ev_err, NULL);
    }
    a->alive = true;
    a->t_start = clock_now_ms();
    if (a->pid > 0 && a->xfd < 0) agent_span_start(a, 0, true); /* the exec was waited for */
    a->ev_read = event_new(base, a->rfd, EV_READ | EV_PERSIST, on_read, a);
    a->ev_readmore = evtimer_new(base, on_read, a);
    a->ev_write = event_new(base, a->wfd, EV_WRITE | EV_PERSIST, on_write, a);
    a->ev_flush = event_new(base, -1, 0, on_flush, a);
    a->ev_timer = evtimer_new(base, on_timer, a);
    if (a->resolving) {
        /* its descriptor comes with the lookup's end: tcp_resolved */
    } else if (a->connecting) {
        event_add(a->ev_write, NULL);
        a->write_waits = true;
    } else {
        event_add(a->ev_read, NULL);
    }
    arm_after(base, a->ev_timer, (double)cfg->startup_ms);
    return a;
fail:
    if (a->ai) freeaddrinfo(a->ai);
    frame_decoder_free(&a->dec);
    free(a->spec);
    free(a->display);
    free(a->game);
    free(a);
    return NULL;
}

arena_agent *agent_from_socket(struct event_base *base, int fd, const agent_config *cfg,
                               agent_join_check check, void *ctx)
{
    signal(SIGPIPE, SIG_IGN);
    arena_agent *a = xcalloc(1, sizeof *a);
    a->base = base;
    a->cfg = *cfg;
    a->kind = AGENT_TCP;
    a->spec = xstrdup(cfg->spec ? cfg->spec : "tcp-listen");
    a->display = cfg->name ? xstrdup(cfg->name) : NULL;
    a->game = cfg->game ? xstrdup(cfg->game) : NULL;
    a->cfg.spec = a->spec;
    a->cfg.name = a->display;
    a->cfg.game = a->game;
    a->efd = a->xfd = -1;
    a->rfd = a->wfd = fd;
    a->seat = -1;
    a->check = check;
    a->check_ctx = ctx;
    /* Until its join is accepted the peer is anonymous: small frames only. */
    size_t cap = cfg->max_frame ? cfg->max_frame : PROTO_MAX_FRAME_DEFAULT;
    decoder_init(a, cap < PROTO_PREJOIN_MAX_FRAME ? cap : PROTO_PREJOIN_MAX_FRAME);
    evutil_make_socket_nonblocking(fd);
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    a->alive = true;
    a->t_start = clock_now_ms();
    a->ev_read = event_new(base, fd, EV_READ | EV_PERSIST, on_read, a);
    a->ev_readmore = evtimer_new(base, on_read, a);
    a->ev_write = event_new(base, fd, EV_WRITE | EV_PERSIST, on_write, a);
    a->ev_flush = event_new(base, -1, 0, on_flush, a);
    a->ev_timer = evtimer_new(base, on_timer, a);
    event_add(a->ev_read, NULL);
    arm_after(base, a->ev_timer, (double)cfg->startup_ms);
    return a;
}

arena_agent *agent_absent(const char *name, fault_cause cause, const char *why)
{
    arena_agent *a = xcalloc(1, sizeof *a);
    a->kind = AGENT_TCP;
    a->spec = xstrdup(name);
    a->display = xstrdup(name);
    a->rfd = a->wfd = a->efd = a->xfd = -1;
    a->seat = -1;
    a->dead_cause = cause;
    a->dead_at_startup = true;
    snprintf(a->dead_reason, sizeof a->dead_reason, "%s", why);
    decoder_init(a, PROTO_MAX_FRAME_DEFAULT);
    return a;
}

static void agent_free(arena_agent *a)
{
    if (a->ev_read) event_free(a->ev_read);
    if (a->ev_readmore) event_free(a->ev_readmore);
    if (a->ev_write) event_free(a->ev_write);
    if (a->ev_flush) event_free(a->ev_flush);
    if (a->ev_err) event_free(a->ev_err);
    if (a->ev_errmore) event_free(a->ev_errmore);
    if (a->ev_timer) event_free(a->ev_timer);
    if (a->ev_exec) event_free(a->ev_exec);
    if (a->ev_ending) event_free(a->ev_ending);
    if (a->ai) freeaddrinfo(a->ai);
    if (a->resolving) resolve_abandon(a->resolving);
    if (a->xfd >= 0) close(a->xfd);
    if (a->rfd >= 0) close(a->rfd);
    if (a->wfd >= 0 && a->wfd != a->rfd) close(a->wfd);
    if (a->efd >= 0) close(a->efd);
    cgroup_close(&a->cg);
    if (a->joined && a->kind != AGENT_BUILTIN) {
        msg jm = {.type = MSG_JOIN, .u.join = a->join};
        msg_free(&jm);
    }
    frame_decoder_free(&a->dec);
    abuf_free(&a->out);
    abuf_free(&a->errline);
    abuf_free(&a->errpend);
    freezer_free(&a->frz);
    agent_span_end(a);
    proctree_keep_close(&a->procfs);
    free(a->join_name);
    free(a->spec);
    free(a->display);
    free(a->game);
    free(a);
}

void agent_set_report(arena_agent *a, agent_report *r)
{
    a->report = r;
    r->join_ms = -1;
    r->mem_peak = -1;
}

static void agent_finish_close(arena_agent *a)
{
    if (a->report) {
        a->report->closed = true;
        a->report->mem_peak = cgroup_mem_peak(&a->cg);
    }
    spawned_remove(a);
    if (spawned_tab.len == 0 && sigchld_ev) {
        event_free(sigchld_ev);
        sigchld_ev = NULL;
        pidtab_free(&spawned_tab);
    }
    void (*cb)(void *) = a->closed;
    void *ctx = a->closed_ctx;
    agent_free(a);
    if (cb) cb(ctx);
}

void agent_close(arena_agent *a, void (*closed)(void *ctx), void *ctx)
{
    a->closed = closed;
    a->closed_ctx = ctx;
    if (a->ending) { /* no verdict: it is closed as a dead agent is */
        a->ending = false;
        event_del(a->ev_ending);
    }
    if (a->kind == AGENT_BUILTIN || a->pid <= 0) {
        if (a->kind == AGENT_TCP && a->alive && a->joined) {
            msg bye = {.type = MSG_BYE};
            agent_send(a, &bye);
            flush_out(a); /* written now: the connection closes below */
        }
        a->closing = true;
        stop_io(a);
        agent_finish_close(a);
        return;
    }
    agent_thaw(a); /* to read its bye and exit, or to die of SIGKILL at once */
    bool polite = a->alive && a->joined && !a->exited;
    if (polite) {
        msg bye = {.type = MSG_BYE};
        agent_send(a, &bye);
    }
    a->closing = true;
    a->alive = false;
    a->t_close = clock_now_ms();
    /* A retired agent is no longer read: only its stdin (until the bye is
     * out), its pid and a timer outlive this call, so a tournament that
     * retires agents does not pile up descriptors through the exit grace. */
    if (a->ev_read) event_del(a->ev_read);
    if (a->ev_readmore) event_del(a->ev_readmore);
    a->read_held = false;
    if (a->ev_err) event_del(a->ev_err);
    if (a->ev_errmore) event_del(a->ev_errmore);
    close_exec(a);
    if (a->rfd >= 0) close(a->rfd);
    if (a->efd >= 0) close(a->efd);
    a->rfd = a->efd = -1;
    if (a->exited) {
        agent_finish_close(a);
        return;
    }
    /* Close stdin once the bye is out (at once if it already is). */
    event_add(a->ev_write, NULL);
    struct timeval tv = tv_ms(polite ? (double)a->cfg.exit_grace_ms : 0);
    event_add(a->ev_timer, &tv);
}
