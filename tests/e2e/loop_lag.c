/* The referee's own lag is never charged to a bot, and nothing else is
 * taken off. Two matches share one event loop: in match B an in-process
 * bot stalls the whole loop for STALL_MS on each of its decisions (a
 * deterministic stand-in for any referee slowness: a huge message, a slow
 * disk, a loaded machine, or a colluding bot in another match).
 *
 * spared: in match A a spawned bot (this program with --bot: THINK_MS a
 * decision) answers every decision well within move_ms, but its answers
 * sit unread in the pipe while the loop is stalled. A must end normally,
 * and A's match log must record the lag it was spared.
 *
 * after: match B's other bot thinks THINK_MS, so the loop runs free for
 * a while after each stall. A's bot (--after FIFO) waits for the end of
 * B's next stall (the staller writes a byte to FIFO) and answers AFTER_MS
 * later, while the loop is running: nothing delayed that answer, so all of
 * its time is charged. (The probe once credited a whole stall to any
 * answer read up to 10 ms after it ended: a colluding bot that stalled the
 * loop, with a 1 MiB frame say, won its partner that much time.)
 * Usage: loop-lag RANDOM_C [spared|after] */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <event2/event.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "builtins.h"
#include "clock.h"
#include "codec.h"
#include "match.h"
#include "matchlog.h"
#include "../timing.h"
#include "messages.h"
#include "runner.h" /* to seat the test-only stalling policy */

#define STALL_MS 300
#define THINK_MS 20
#define AFTER_MS 8
#define MOVE_MS 150 /* A's whole allowance: less than one stall */
#define DEADLINE_MS 60000

static const char *random_c;

/* Test-only built-in bot: sleeps in its callback (stalling the loop), then
 * takes the first pick.min options. */
static void *stall_create(const char *arg, int seat, uint64_t seed, char *err, size_t errlen)
{
    (void)arg, (void)seat, (void)seed, (void)err, (void)errlen;
    static int token;
    return &token;
}
static int stall_signal = -1; /* after: the FIFO the staller writes to */

static int stall_decide(void *self, const arena_game *g, const arena_decision *d, int *choice)
{
    (void)self, (void)g;
    struct timespec ts = {0, STALL_MS * 1000000L};
    while (nanosleep(&ts, &ts) != 0) {
    }
    if (stall_signal >= 0 && write(stall_signal, "", 1) < 0 && errno != EAGAIN)
        fprintf(stderr, "loop-lag: cannot signal the stall's end\n");
    int n = d->pick_min > 0 ? d->pick_min : 1;
    for (int i = 0; i < n; i++)
        choice[i] = i;
    return n;
}
static void stall_free(void *self)
{
    (void)self;
}
static const arena_policy_vt stall_policy = {.name = "stall",
                                             .summary = "sleeps in its callback",
                                             .create = stall_create,
                                             .decide = stall_decide,
                                             .free = stall_free};

static void bot_send(const msg *m)
{
    av *v = msg_encode(m);
    abuf b = {0};
    codec_encode(CODEC_MSGPACK, v, &b);
    for (size_t off = 0; off < b.len;) {
        ssize_t w = write(STDOUT_FILENO, b.data + off, b.len - off);
        if (w <= 0) exit(0);
        off += (size_t)w;
    }
    abuf_free(&b);
    av_free(v);
}

/* Waits for the end of the staller's next stall: a byte on `fifo` that
 * comes after the decide did (older ones are drained first). */
static void await_stall_end(int fifo)
{
    char b[64];
    while (read(fifo, b, sizeof b) > 0) {
    }
    struct pollfd p = {.fd = fifo, .events = POLLIN};
    if (poll(&p, 1, 5 * STALL_MS) == 1 && read(fifo, b, 1) < 0) {
    }
    struct timespec ts = {0, AFTER_MS * 1000000L};
    nanosleep(&ts, NULL);
}

/* --bot: a correct bot that thinks THINK_MS, then takes one stone.
 * --after FIFO: the same, but it answers AFTER_MS after a stall's end. */
static int bot(const char *fifo_path)
{
    int fifo = -1;
    if (fifo_path && (fifo = open(fifo_path, O_RDONLY | O_NONBLOCK)) < 0) return 1;
    msg join = {.type = MSG_JOIN, .u.join = {.name = "thinker"}};
    bot_send(&join);
    frame_decoder dec;
    frame_decoder_init(&dec, PROTO_MAX_FRAME_DEFAULT, CODEC_MSGPACK);
    for (;;) {
        av *v = NULL;
        int r = frame_decoder_next(&dec, &v);
        if (r < 0) return 1;
        if (r == 0) {
            uint8_t buf[65536];
            ssize_t n = read(STDIN_FILENO, buf, sizeof buf);
            if (n <= 0) break;
            frame_decoder_feed(&dec, buf, (size_t)n);
            continue;
        }
        msg m;
        char err[200];
        int rc = msg_decode(v, &m, err, sizeof err);
        av_free(v);
        if (rc < 0) return 1;
        if (m.type == MSG_HELLO) {
            msg ready = {.type = MSG_READY};
            bot_send(&ready);
        } else if (m.type == MSG_DECIDE) {
            struct timespec ts = {0, THINK_MS * 1000000L};
            if (fifo >= 0)
                await_stall_end(fifo);
            else
                nanosleep(&ts, NULL);
            int64_t one = 0;
            msg a = {.type = MSG_ACT,
                     .u.act = {.id = m.u.decide.id, .choice = &one, .n_choice = 1}};
            bot_send(&a);
        } else if (m.type == MSG_BYE) {
            msg_free(&m);
            break;
        }
        msg_free(&m);
    }
    frame_decoder_free(&dec);
    return 0;
}

typedef struct done_rec {
    match_outcome o;
    bool done;
} done_rec;
static int finished;
static void on_done(const match_outcome *o, void *ctx)
{
    done_rec *r = ctx;
    r->o = *o;
    r->done = true;
    finished++;
}

static arena_agent *agent(struct event_base *b, const char *spec)
{
    agent_config c = {.spec = spec, .game = "nim", .startup_ms = 10000, .exit_grace_ms = 200};
    agent_limits_default(&c.limits);
    char err[256];
    arena_agent *a = agent_new(b, &c, err, sizeof err);
    if (!a) fail_msg("%s", err);
    return a;
}

static int closed_count;
static void count_closed(void *ctx)
{
    (void)ctx;
    closed_count++;
}

/* Counts the lines of a match log (gzip, the default) of one type. */
static int log_lines(const char *path, const char *type)
{
    char needle[64], err[256];
    matchlog_reader *r = matchlog_read_open(path, err, sizeof err);
    if (!r) return -1;
    snprintf(needle, sizeof needle, "{\"type\":\"%s\"", type);
    int n = 0;
    const char *line;
    size_t len;
    while ((line = matchlog_read_line(r, &len)))
        n += strncmp(line, needle, strlen(needle)) == 0;
    matchlog_read_close(r);
    return n;
}

static void test_stalled_loop_is_not_charged(void **st)
{
    (void)st;
    struct event_base *base = event_base_new();
    char s1[512], s2[512], err[256], log_a[128];
    char self[400];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    assert_true(n > 0);
    self[n] = 0;
    snprintf(s1, sizeof s1, "cmd:%s --bot", self);
    snprintf(s2, sizeof s2, "cmd:%s --seed 2", random_c);
    snprintf(log_a, sizeof log_a, "/tmp/arena-loop-lag-%d.jsonl.gz", (int)getpid());
    arena_agent *ag[4] = {agent(base, s1), agent(base, "builtin:random"),
                          agent(base, "builtin:random"), agent(base, s2)};
    ag[2]->pv = &stall_policy; /* B's seat 0 stalls the loop */

    match_config a = {.game = arena_find_game("nim"), .on_fault = FAULT_FORFEIT, .max_strikes = 1};
    clock_config_default(&a.clock);
    a.clock.move_ms = MOVE_MS;
    a.clock.bank_ms = 0;
    a.clock.startup_ms = 10000;
    arena_setting long_game[] = {{"stones", "300"}};
    a.settings = long_game;
    a.n_settings = 1;
    a.log_path = log_a;
    match_config b = {.game = arena_find_game("nim"), .on_fault = FAULT_FORFEIT, .max_strikes = 1};
    clock_config_default(&b.clock);
    b.clock.move_ms = 10000;
    b.clock.startup_ms = 10000;

    done_rec ra = {0}, rb = {0};
    finished = 0;
    assert_int_equal(match_start(base, &a, ag, 2, 11, on_done, &ra, err, sizeof err), 0);
    assert_int_equal(match_start(base, &b, ag + 2, 2, 12, on_done, &rb, err, sizeof err), 0);
    double deadline = clock_now_ms() + DEADLINE_MS;
    while (finished < 2) {
        if (clock_now_ms() > deadline) { /* fail fast: never hang the suite */
            fprintf(stderr, "loop-lag: matches still running after %d ms\n", DEADLINE_MS);
            exit(1);
        }
        event_base_loop(base, EVLOOP_ONCE);
    }
    closed_count = 0;
    for (int i = 0; i < 4; i++)
        agent_close(ag[i], count_closed, NULL);
    event_base_dispatch(base);
    event_base_free(base);
    int lags = log_lines(log_a, "lag");
    if (!getenv("LOOP_LAG_KEEP_LOG")) unlink(log_a);

    assert_int_equal(closed_count, 4);
    for (int i = 0; i < 2; i++) /* on a failure, say why */
        if (ra.o.fault_message[i][0] || rb.o.fault_message[i][0])
            fprintf(stderr, "seat %d: A '%s', B '%s'\n", i, ra.o.fault_message[i],
                    rb.o.fault_message[i]);
    assert_string_equal(rb.o.reason, "normal");
    /* The bot was never late by its own doing: no forfeit. */
    assert_timely(ra.o.forfeit[0] == CAUSE_NONE);
    assert_string_equal(ra.o.reason, "normal");
    assert_true(ra.o.decisions[0] >= 50);
    /* And the stalls did hit its decisions: the log says how much lag each
     * one was spared. */
    assert_timely(lags >= 1);
}

static void test_answer_after_a_stall_is_charged(void **st)
{
    (void)st;
    struct event_base *base = event_base_new();
    char fifo[128], s1[600], s2[512], err[256], self[400];
    snprintf(fifo, sizeof fifo, "/tmp/arena-loop-lag-%d.fifo", (int)getpid());
    assert_int_equal(mkfifo(fifo, 0600), 0);
    stall_signal = open(fifo, O_RDWR | O_NONBLOCK); /* (RDWR: no reader yet) */
    assert_true(stall_signal >= 0);
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    assert_true(n > 0);
    self[n] = 0;
    snprintf(s1, sizeof s1, "cmd:%s --after %s", self, fifo);
    snprintf(s2, sizeof s2, "cmd:%s --seed 2", random_c);
    char s3[600];
    snprintf(s3, sizeof s3, "cmd:%s --bot", self);
    arena_agent *ag[4] = {agent(base, s1), agent(base, s2), agent(base, "builtin:random"),
                          agent(base, s3)};
    ag[2]->pv = &stall_policy; /* B's seat 0 stalls the loop; seat 1 thinks between */

    match_config a = {.game = arena_find_game("nim"), .on_fault = FAULT_FORFEIT, .max_strikes = 1};
    clock_config_default(&a.clock);
    a.clock.move_ms = 10000; /* roomy: this is about what is charged */
    a.clock.bank_ms = 0;
    a.clock.startup_ms = 10000;
    arena_setting short_game[] = {{"stones", "12"}};
    a.settings = short_game;
    a.n_settings = 1;
    match_config b = a;
    b.settings = NULL;
    b.n_settings = 0;

    done_rec ra = {0}, rb = {0};
    finished = 0;
    assert_int_equal(match_start(base, &a, ag, 2, 11, on_done, &ra, err, sizeof err), 0);
    assert_int_equal(match_start(base, &b, ag + 2, 2, 12, on_done, &rb, err, sizeof err), 0);
    double deadline = clock_now_ms() + DEADLINE_MS;
    while (!ra.done) {
        if (clock_now_ms() > deadline) {
            fprintf(stderr, "loop-lag: match A still running after %d ms\n", DEADLINE_MS);
            exit(1);
        }
        event_base_loop(base, EVLOOP_ONCE);
    }
    unlink(fifo); /* B would stall on: A's result is all this test wants */
    for (int i = 0; i < 2; i++)
        if (ra.o.fault_message[i][0])
            fprintf(stderr, "A seat %d: '%s'\n", i, ra.o.fault_message[i]);
    assert_string_equal(ra.o.reason, "normal");
    assert_true(ra.o.decisions[0] >= 5);
    /* Each answer came a whole stall (and B's thinking) after its decide. */
    double mean = ra.o.time_ms[0] / (double)ra.o.decisions[0];
    fprintf(stderr, "A seat 0: %ld decisions, %.1f ms charged on average\n", ra.o.decisions[0],
            mean);
    assert_timely(mean > STALL_MS / 2);
}

int main(int argc, char **argv)
{
    arena_builtins_install();
    if (argc == 2 && strcmp(argv[1], "--bot") == 0) return bot(NULL);
    if (argc == 3 && strcmp(argv[1], "--after") == 0) return bot(argv[2]);
    if (argc < 2 || (argc > 2 && strcmp(argv[2], "spared") && strcmp(argv[2], "after"))) {
        fprintf(stderr, "usage: loop-lag RANDOM_C [spared|after]\n");
        return 2;
    }
    random_c = argv[1];
    signal(SIGPIPE, SIG_IGN);
    const struct CMUnitTest spared[] = {
        cmocka_unit_test(test_stalled_loop_is_not_charged),
    };
    const struct CMUnitTest after[] = {
        cmocka_unit_test(test_answer_after_a_stall_is_charged),
    };
    if (argc > 2 && strcmp(argv[2], "after") == 0) return cmocka_run_group_tests(after, NULL, NULL);
    return cmocka_run_group_tests(spared, NULL, NULL);
}
