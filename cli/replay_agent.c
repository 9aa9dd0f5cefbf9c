/* arena replay LOG --seat N --agent SPEC: runs a bot in seat N of a logged
 * game against the recorded moves of the others, and says at which decision
 * it first chose otherwise than the log records.
 *
 * The bot is fed the messages the log says the referee sent seat N (`msg`
 * lines, dir "out", that seat), in their order, re-encoded in the codec the
 * bot speaks; nothing else of the log reaches it (no other seat's messages,
 * no seed: the header stays here). Each `act` it sends back is compared with
 * the `choice` line the log holds for that decision. Once it chose
 * otherwise, what the log sent next no longer follows from its moves, so the
 * replay stops there. The game is not re-created: the log's own messages are
 * what the bot got the first time, byte for byte as values. */
#include "replay_agent.h"

#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "codec.h"
#include "matchlog.h"
#include "runopts.h"
#include "spawn.h"
#include "utf8.h"
#include "util.h"

/* The clock is generous (the bot may run under a debugger or a slower
 * machine): every wait is this many times the game's own. */
#define GENEROUS 10

typedef struct bot {
    spawned sp;
    bool running;
    frame_decoder dec;
    abuf errtail; /* its stderr, the last ERRTAIL bytes or so */
    bool eof;     /* its stdout closed */
    bool exited;  /* its leader exited (reaped: status) */
    int status;
    char why[300];
} bot;

#define ERRTAIL 4096

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void read_err(bot *b)
{
    uint8_t tmp[4096];
    ssize_t n = read(b->sp.err_fd, tmp, sizeof tmp);
    if (n <= 0) {
        if (n == 0 || (errno != EAGAIN && errno != EINTR)) {
            close(b->sp.err_fd);
            b->sp.err_fd = -1;
        }
        return;
    }
    abuf_add(&b->errtail, tmp, (size_t)n);
    if (b->errtail.len > 2 * ERRTAIL) { /* keep the tail only */
        size_t drop = b->errtail.len - ERRTAIL;
        memmove(b->errtail.data, b->errtail.data + drop, b->errtail.len - drop);
        b->errtail.len -= drop;
        b->errtail.data[b->errtail.len] = 0;
    }
}

static void read_out(bot *b)
{
    size_t room;
    uint8_t *p = frame_decoder_space(&b->dec, 4096, &room);
    ssize_t n = read(b->sp.from_fd, p, room);
    if (n > 0) {
        frame_decoder_commit(&b->dec, (size_t)n);
    } else if (n == 0 || (errno != EAGAIN && errno != EINTR)) {
        b->eof = true;
    }
}

/* Writes out[0..n) to the bot while reading what it says (so that neither
 * side blocks on a full pipe), then, if want_msg, waits for one whole
 * message from it. 1: *m holds it (or the write is done); 0: the deadline
 * passed; -1: it died, closed its output or broke the framing (b->why). */
static int pump(bot *b, const uint8_t *out, size_t n, bool want_msg, av **m, double deadline)
{
    size_t off = 0;
    for (;;) {
        if (want_msg && off == n) {
            int r = frame_decoder_next(&b->dec, m);
            if (r == 1) return 1;
            if (r < 0) {
                snprintf(b->why, sizeof b->why, "it broke the protocol: %s", b->dec.error);
                return -1;
            }
        }
        if (off == n && !want_msg) return 1;
        if (b->eof) {
            snprintf(b->why, sizeof b->why, "it closed its output (exited or crashed)");
            return -1;
        }
        /* Its leader's exit ends it, even where a process it left behind
         * holds its pipes open. */
        if (!b->exited && waitpid(b->sp.pid, &b->status, WNOHANG) == b->sp.pid) {
            b->exited = true;
            /* What it wrote before it went is still to be read. */
            size_t before;
            do {
                before = frame_decoder_pending(&b->dec);
                read_out(b);
            } while (!b->eof && frame_decoder_pending(&b->dec) > before);
            continue;
        }
        if (b->exited) {
            if (WIFSIGNALED(b->status))
                snprintf(b->why, sizeof b->why, "it was killed by signal %d", WTERMSIG(b->status));
            else
                snprintf(b->why, sizeof b->why, "it exited with status %d", WEXITSTATUS(b->status));
            return -1;
        }
        struct pollfd pf[3] = {{b->sp.from_fd, POLLIN, 0},
                               {b->sp.err_fd, POLLIN, 0},
                               {off < n ? b->sp.to_fd : -1, POLLOUT, 0}};
        double left = deadline - now_ms();
        if (left <= 0) return 0;
        int r = poll(pf, 3, left > 100 ? 100 : (int)left + 1);
        if (r < 0 && errno != EINTR) {
            snprintf(b->why, sizeof b->why, "poll: %s", strerror(errno));
            return -1;
        }
        if (r <= 0) continue;
        if (pf[1].revents) read_err(b);
        if (pf[0].revents) read_out(b);
        if (pf[2].revents & (POLLERR | POLLHUP)) {
            snprintf(b->why, sizeof b->why, "it closed its input (exited or crashed)");
            return -1;
        }
        if (pf[2].revents & POLLOUT) {
            ssize_t w = write(b->sp.to_fd, out + off, n - off);
            if (w > 0)
                off += (size_t)w;
            else if (w < 0 && errno != EAGAIN && errno != EINTR) {
                snprintf(b->why, sizeof b->why, "writing to it: %s", strerror(errno));
                return -1;
            }
        }
    }
}

/* The next message of the bot that is not a `log` line. */
static int next_msg(bot *b, av **m, double deadline)
{
    for (;;) {
        int r = pump(b, NULL, 0, true, m, deadline);
        if (r != 1) return r;
        const char *t = av_get_str(*m, "type");
        if (!t || strcmp(t, "log") != 0) return 1;
        av_free(*m);
    }
}

static void bot_stop(bot *b)
{
    if (!b->running) return;
    if (b->sp.to_fd >= 0) close(b->sp.to_fd);
    b->sp.to_fd = -1;
    /* A moment to read its bye and exit by itself, then its group goes. */
    double end = now_ms() + 500;
    int st;
    while (!b->exited && waitpid(b->sp.pid, &st, WNOHANG) == 0 && now_ms() < end) {
        if (b->sp.err_fd >= 0) {
            struct pollfd pf = {b->sp.err_fd, POLLIN, 0};
            if (poll(&pf, 1, 20) > 0) read_err(b);
        } else {
            usleep(20000);
        }
    }
    kill(-b->sp.pid, SIGKILL);
    if (!b->exited) waitpid(b->sp.pid, &st, 0);
    spawn_forget(b->sp.pid);
    /* What it wrote last, as long as the pipe has it (a process that left
     * the group may hold it open: not waited for). */
    for (double until = now_ms() + 200; b->sp.err_fd >= 0 && now_ms() < until;) {
        struct pollfd pf = {b->sp.err_fd, POLLIN, 0};
        if (poll(&pf, 1, 50) > 0) read_err(b);
    }
    if (b->sp.err_fd >= 0) close(b->sp.err_fd);
    b->sp.err_fd = -1;
    close(b->sp.from_fd);
    if (b->sp.exec_fd >= 0) close(b->sp.exec_fd);
    cgroup_close(&b->sp.cg);
    b->running = false;
}

static void print_errtail(bot *b)
{
    if (!b->errtail.len) {
        printf("  it wrote nothing to stderr\n");
        return;
    }
    char *s = xstrdup((const char *)b->errtail.data);
    utf8_mask_lines(s);
    /* The last 10 lines. */
    int lines = 0;
    char *start = s + strlen(s);
    while (start > s && start[-1] == '\n')
        *--start = 0;
    for (start = s + strlen(s); start > s; start--)
        if (start[-1] == '\n' && ++lines == 10) break;
    printf("  its last stderr lines:\n");
    for (char *l = strtok(start, "\n"); l; l = strtok(NULL, "\n"))
        printf("  | %s\n", l);
    free(s);
}

/* "[0, 2] (stone:1, stone:3)" from a choice and the decide's options. */
static void describe(const av *choice, const av *decide, char *buf, size_t len)
{
    const av *opts = decide ? av_get(decide, "options") : NULL;
    if (opts && opts->type != AV_LIST) opts = NULL; /* the log may come from anyone */
    size_t off = (size_t)snprintf(buf, len, "[");
    size_t n = choice && choice->type == AV_LIST ? choice->u.list.len : 0;
    for (size_t k = 0; k < n && off < len; k++) {
        const av *x = choice->u.list.items[k];
        off += (size_t)snprintf(buf + off, len - off, "%s%" PRId64, k ? ", " : "",
                                x->type == AV_INT ? x->u.i : -1);
    }
    if (off < len) off += (size_t)snprintf(buf + off, len - off, "] (");
    for (size_t k = 0; k < n && off < len; k++) {
        const av *x = choice->u.list.items[k];
        const char *lab = NULL;
        if (x->type == AV_INT && opts && x->u.i >= 0 && (size_t)x->u.i < av_len(opts))
            lab = av_get_str(opts->u.list.items[x->u.i], "label");
        off += (size_t)snprintf(buf + off, len - off, "%s%s", k ? ", " : "",
                                lab ? lab : "not an option");
    }
    if (off < len) snprintf(buf + off, len - off, "%s)", n ? "" : "nothing");
    utf8_mask_controls(buf, true);
}

static bool same_choice(const av *a, const av *b)
{
    if (!a || !b || a->type != AV_LIST || b->type != AV_LIST) return false;
    if (a->u.list.len != b->u.list.len) return false;
    for (size_t k = 0; k < a->u.list.len; k++) {
        const av *x = a->u.list.items[k], *y = b->u.list.items[k];
        if (x->type != AV_INT || y->type != AV_INT || x->u.i != y->u.i) return false;
    }
    return true;
}

typedef struct walk {
    const char *path, *spec;
    int seat;
    int players;
    int64_t startup_ms, answer_ms; /* generous */
    bot b;
    bool started, over_seen;
    long decisions; /* decide messages fed */
    long matched;
    av *pending;     /* the decide fed last, its answer not yet checked */
    av *pending_act; /* the bot's choice for it */
    av *logged_act;  /* the choice the logged answer to it held */
} walk;

static int refuse(const walk *w, long line, const char *fmt, const char *arg)
{
    char what[1024]; /* fmt with arg, which may be as long as an err buffer */
    snprintf(what, sizeof what, fmt, arg ? arg : "");
    char *msg = xasprintf("arena: %s:%ld: %s", w->path, line, what);
    utf8_mask_lines(msg);
    fprintf(stderr, "%s\n", msg);
    free(msg);
    return 1;
}

static int start_bot(walk *w, const char *game)
{
    run_options o;
    run_options_default(&o);
    agent_config ac;
    run_options_agent(&o, game, w->spec, &ac);
    ac.wait_exec = true;
    bool shell = strncmp(w->spec, "cmd:", 4) == 0;
    char err[300];
    if (spawn_agent(shell ? w->spec + 4 : w->spec, shell, &ac, &w->b.sp, err, sizeof err) != 0) {
        fprintf(stderr, "arena: cannot start %s: %s\n", w->spec, err);
        return 1;
    }
    w->b.running = true;
    frame_decoder_init(&w->b.dec, PROTO_MAX_FRAME_DEFAULT, CODEC_NONE);
    av *join = NULL;
    int r = next_msg(&w->b, &join, now_ms() + (double)w->startup_ms);
    const char *t = r == 1 ? av_get_str(join, "type") : NULL;
    if (r != 1 || !t || strcmp(t, "join") != 0) {
        printf("seat %d: the bot did not join: %s\n", w->seat,
               r == 0  ? "no join within the generous startup clock"
               : r < 0 ? w->b.why
                       : "its first message is not a join");
        av_free(join);
        bot_stop(&w->b);
        print_errtail(&w->b);
        return 1;
    }
    av_free(join);
    w->started = true;
    return 0;
}

/* The bot died, timed out or broke the protocol while it owed an answer. */
static int bot_failed(walk *w, int r, const char *waiting)
{
    bool hello = !strcmp(waiting, "hello");
    if (r == 0)
        printf("seat %d: no answer to %s within %" PRId64 " ms (a generous clock: %dx the game's "
               "%s)\n",
               w->seat, waiting, hello ? w->startup_ms : w->answer_ms, GENEROUS,
               hello ? "startup" : "move plus bank");
    else
        printf("seat %d: %s, waiting for its answer to %s\n", w->seat, w->b.why, waiting);
    bot_stop(&w->b);
    print_errtail(&w->b);
    return 1;
}

/* A message the log says seat N was sent: to the bot, and its answer. */
static int feed(walk *w, const av *m)
{
    const char *t = av_get_str(m, "type");
    if (!t) return 0;
    abuf out = {0};
    codec_encode(w->b.dec.codec, m, &out);
    bool decide = !strcmp(t, "decide"), hello = !strcmp(t, "hello");
    av *ans = NULL;
    char what[64];
    if (decide)
        snprintf(what, sizeof what, "decision #%ld", w->decisions + 1);
    else
        snprintf(what, sizeof what, "%s", hello ? "hello" : t);
    double deadline = now_ms() + (double)(hello ? w->startup_ms : w->answer_ms);
    int r = pump(&w->b, out.data, out.len, false, NULL, deadline);
    free(out.data);
    if (r == 1 && (decide || hello)) r = next_msg(&w->b, &ans, deadline);
    if (r != 1) return bot_failed(w, r, what);
    if (!strcmp(t, "over")) w->over_seen = true;
    if (hello) {
        const char *at = av_get_str(ans, "type");
        if (!at || strcmp(at, "ready") != 0) {
            snprintf(w->b.why, sizeof w->b.why, "it answered the hello with '%s', not ready",
                     at ? at : "?");
            av_free(ans);
            return bot_failed(w, -1, what);
        }
        av_free(ans);
        return 0;
    }
    if (!decide) return 0;
    w->decisions++;
    int64_t id = -1, want = -2;
    av_get_int(m, "id", &want);
    const char *at = av_get_str(ans, "type");
    if (!at || strcmp(at, "act") != 0 || !av_get_int(ans, "id", &id) || id != want) {
        snprintf(w->b.why, sizeof w->b.why,
                 "it answered with %s id %" PRId64 ", not act id %" PRId64, at ? at : "?", id,
                 want);
        av_free(ans);
        return bot_failed(w, -1, what);
    }
    av_free(w->pending);
    av_free(w->pending_act);
    w->pending = av_copy(m);
    w->pending_act = av_take(ans, "choice");
    av_free(ans);
    return 0;
}

/* The log's choice line for the decision fed last. */
static int check(walk *w, const av *e)
{
    char rec[600], now[600];
    const av *choice = av_get(e, "choice");
    int64_t turn = -1;
    av_get_int(e, "turn", &turn);
    const char *kind = av_get_str(e, "kind"), *by = av_get_str(e, "by");
    /* The fallback played for an answer that was not applied (illegal,
     * late): the answer itself is what the bot chose the first time. */
    bool fallback = by && !strcmp(by, "fallback");
    const av *applied = choice;
    if (fallback && w->logged_act) choice = w->logged_act;
    bool same = same_choice(choice, w->pending_act);
    if (same) {
        w->matched++;
    } else {
        describe(choice, w->pending, rec, sizeof rec);
        describe(w->pending_act, w->pending, now, sizeof now);
        char k[128];
        snprintf(k, sizeof k, "%s", kind ? kind : "?");
        utf8_mask_controls(k, true);
        char fb[700] = "", app[600];
        if (fallback) {
            describe(applied, w->pending, app, sizeof app);
            snprintf(fb, sizeof fb, " [not applied: the fallback played %s]", app);
        }
        printf("seat %d: first divergence at decision #%ld (turn %" PRId64
               ", kind %s): recorded %s%s, now %s\n",
               w->seat, w->decisions, turn, k, rec, fb, now);
    }
    av_free(w->pending);
    av_free(w->pending_act);
    av_free(w->logged_act);
    w->pending = w->pending_act = w->logged_act = NULL;
    return same ? 0 : 1;
}

static int on_header(walk *w, const av *e, long lineno)
{
    const char *game = av_get_str(e, "game");
    int64_t players = 0;
    if (!game || !av_get_int(e, "players", &players) || players < 1 || players > ARENA_MAX_SEATS)
        return refuse(w, lineno, "bad match header (game, players)", NULL);
    w->players = (int)players;
    if (w->seat >= w->players) {
        fprintf(stderr, "arena: the game has seats 0..%d\n", w->players - 1);
        return 2;
    }
    clock_config c;
    clock_config_default(&c);
    const av *cl = av_get(e, "clock");
    if (cl) {
        av_get_int(cl, "move_ms", &c.move_ms);
        av_get_int(cl, "bank_ms", &c.bank_ms);
        av_get_int(cl, "startup_ms", &c.startup_ms);
    }
    /* A log may come from anyone: its clock is taken up to a day. */
    const int64_t day = 86400000;
    c.startup_ms = c.startup_ms > day ? day : c.startup_ms;
    c.move_ms = c.move_ms > day ? day : c.move_ms;
    c.bank_ms = c.bank_ms > day ? day : c.bank_ms;
    w->startup_ms = GENEROUS * (c.startup_ms > 0 ? c.startup_ms : 5000);
    w->answer_ms =
        GENEROUS * ((c.move_ms > 0 ? c.move_ms : 1000) + (c.bank_ms > 0 ? c.bank_ms : 0));
    const av *agents = av_get(e, "agents");
    const char *was = agents && agents->type == AV_LIST && (int)av_len(agents) > w->seat &&
                              agents->u.list.items[w->seat]->type == AV_STR
                          ? agents->u.list.items[w->seat]->u.str.s
                          : "?";
    char *m = xstrdup(was);
    utf8_mask_controls(m, true);
    char g[64];
    snprintf(g, sizeof g, "%s", game);
    utf8_mask_controls(g, true);
    char *spec = xstrdup(w->spec);
    utf8_mask_controls(spec, true);
    printf("%s, seat %d (played by %s in the log) now played by %s\n", g, w->seat, m, spec);
    free(spec);
    free(m);
    /* The game's own name picks the bot's limits (builtin policies are not
     * spawned here: start_bot refuses them). */
    return 0;
}

int replay_agent(const char *path, int seat, const char *spec)
{
    if (!strncmp(spec, "builtin:", 8) || !strncmp(spec, "tcp:", 4)) {
        fprintf(stderr, "arena: --agent takes a program (a path or cmd:LINE), not '%s'\n", spec);
        return 2;
    }
    walk w = {.path = path, .spec = spec, .seat = seat};
    char err[512], game[64] = "";
    matchlog_reader *rd = matchlog_read_open(path, err, sizeof err);
    if (!rd) {
        fprintf(stderr, "arena: %s\n", err);
        return 1;
    }
    signal(SIGPIPE, SIG_IGN); /* a bot that dies mid-write is reported, not fatal */
    const char *line;
    size_t len;
    long lineno = 0;
    int rc = 0;
    bool header = false;
    while (rc == 0 && (line = matchlog_read_line(rd, &len))) {
        lineno++;
        av *e = json_decode(line, len, err, sizeof err);
        if (!e) {
            rc = refuse(&w, lineno, "%s", err);
            break;
        }
        const char *type = av_get_str(e, "type");
        int64_t s = -1;
        av_get_int(e, "seat", &s);
        if (!type) type = "";
        if (!strcmp(type, "match")) {
            if (header)
                rc = refuse(&w, lineno, "a second match header: a log holds one game", NULL);
            else
                rc = on_header(&w, e, lineno);
            header = true;
            const char *gn = av_get_str(e, "game");
            snprintf(game, sizeof game, "%s", gn ? gn : "");
        } else if (!header) {
            rc = refuse(&w, lineno, "a line before the match header", NULL);
        } else if (!strcmp(type, "msg") && s == seat) {
            const char *dir = av_get_str(e, "dir");
            const av *m = av_get(e, "msg");
            const char *mt = m ? av_get_str(m, "type") : NULL;
            int64_t mid = -1, want = -2;
            if (dir && !strcmp(dir, "in") && w.pending && mt && !strcmp(mt, "act") &&
                av_get_int(m, "id", &mid) && av_get_int(w.pending, "id", &want) && mid == want &&
                !w.logged_act)
                w.logged_act = av_copy(av_get(m, "choice"));
            if (dir && !strcmp(dir, "out") && m && m->type == AV_MAP) {
                /* The log applied no choice for the last decision (an error
                 * message may come between the answer and its choice). */
                if (w.pending && mt && (!strcmp(mt, "decide") || !strcmp(mt, "over")))
                    rc = refuse(&w, lineno,
                                "the log records no choice for the seat's decision #%s (its "
                                "answer was not applied: see the log's faults)",
                                (snprintf(err, sizeof err, "%ld", w.decisions), err));
                if (rc == 0 && !w.started) rc = start_bot(&w, game);
                if (rc == 0) rc = feed(&w, m);
            }
        } else if (!strcmp(type, "choice") && s == seat && w.pending) {
            int64_t id = -1, want = -2;
            av_get_int(e, "id", &id);
            av_get_int(w.pending, "id", &want);
            if (id == want) rc = check(&w, e);
        }
        av_free(e);
    }
    if (rc == 0 && matchlog_read_error(rd))
        rc = refuse(&w, lineno + 1, "%s", matchlog_read_error(rd));
    bool cut = matchlog_read_cut(rd);
    matchlog_read_close(rd);
    if (rc == 0 && !header) rc = refuse(&w, lineno, "no match header in the log", NULL);
    if (rc == 0 && !w.started) {
        fprintf(stderr,
                "arena: %s: the log holds no message to seat %d (a built-in bot's seat, or the "
                "game ended before it was sent anything)\n",
                path, seat);
        rc = 1;
    }
    /* At a cut the last decision's choice may simply not have been written. */
    if (rc == 0 && w.pending && !(cut && !w.over_seen))
        rc = refuse(&w, lineno, "the log records no choice for the seat's last decision (#%s)",
                    (snprintf(err, sizeof err, "%ld", w.decisions), err));
    if (rc == 0 && cut && !w.over_seen) {
        printf("seat %d: the %ld decisions up to the cut chose as recorded%s\n", seat, w.matched,
               w.pending ? " (the log ends before the choice of the next)" : "");
        fprintf(stderr, "arena: %s: the log is cut short (its writer was stopped mid-game)\n",
                path);
        rc = 1;
    } else if (rc == 0 && !w.over_seen) {
        printf("seat %d: the %ld decisions the log holds chose as recorded\n", seat, w.matched);
        fprintf(stderr, "arena: %s: the log has no `over` for seat %d: the game is unfinished\n",
                path, seat);
        rc = 1;
    } else if (rc == 0) {
        /* The game is over: the bye the referee sends after the last game. */
        av *bye = av_map();
        av_add_str(bye, "type", "bye");
        abuf out = {0};
        codec_encode(w.b.dec.codec, bye, &out);
        pump(&w.b, out.data, out.len, false, NULL, now_ms() + 2000);
        free(out.data);
        av_free(bye);
        printf("seat %d: all %ld decisions chose as recorded\n", seat, w.matched);
    }
    av_free(w.pending);
    av_free(w.pending_act);
    av_free(w.logged_act);
    if (w.b.running) bot_stop(&w.b);
    frame_decoder_free(&w.b.dec);
    free(w.b.errtail.data);
    return rc;
}
