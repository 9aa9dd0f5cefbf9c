/* An agent that closes its stdout and lives on (tests/hostile: close_linger)
 * must not stall the event loop while the referee waits up to EXIT_WAIT_MS
 * for its exit to name the crash: every other match on the loop would stop
 * that long, once per game such an entrant plays.
 *
 * ROUNDS matches run one after another on one loop, each the hostile
 * (every other one busy: runnable at its decide) against builtin:random;
 * a ticker (a 5 ms timer, standing for any other match) measures, between
 * two of its runs, how long this thread slept voluntarily: wall time less
 * its CPU time and its run-queue wait (schedstat). A loaded machine delays
 * the loop by preemption, which is run-queue wait, not sleep; a loop that
 * sleeps in a callback is blocked. The ticker's own sleep in epoll is a few
 * ms at most. A host can still stop a thread in other ways that are neither
 * (memory reclaim, I/O): CI saw one 15.5 ms gap at load average 51. The
 * blocking wait showed one gap in every round, so the check is at most
 * ROUNDS / 2 gaps of BLOCK_MS or more. It also checks, by order, that the
 * ticker ran while each hostile's verdict was pending (no look of the fair
 * clock at the decision cut the wait short: it did in 4 of 5 rounds), and
 * that the verdict and its text are those of an agent whose process still
 * ran.
 *
 * While a verdict waits, its match goes on with the other seats but sends
 * the ending agent nothing: as when the verdict came with the EOF. The
 * closer (this program, --closer) answers its first decide, closes its
 * stdout and tells the waiter (--waiter) by a FIFO, which only then
 * answers its own: the referee reads the EOF before that answer, and the
 * match, whose next decision is the closer's again, must not send it (the
 * match log has one decide for seat 0).
 * Usage: exit-wait HOSTILE */
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
#include "messages.h"
#include "runner.h" /* agent_ending: whether a verdict is pending */
#include "../timing.h"

#define ROUNDS 5
/* The ticker's period: less than the exit wait (EXIT_WAIT_MS, 20 ms), more
 * than the fair clock's first looks at a decision (1, 2 and 4 ms in). */
#define TICK_US 5000
/* A sleep this long between two ticks: the loop was blocked in a callback
 * (a wait there for the exit sleeps EXIT_WAIT_MS on top of the period). */
#define BLOCK_MS 20.0
#define WAIT_LIMIT_MS 60000.0

static const char *hostile;
static struct event_base *base;

static double thread_cpu_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* The ticker: how often the loop slept BLOCK_MS or more between two of its
 * runs, and how often it ran while a hostile's verdict was pending. */
typedef struct ticker {
    struct event *ev;
    double wall, cpu, wait; /* at its last run */
    int ticks, blocks;
    double blocked_ms, worst_ms;
    arena_agent *watch[ROUNDS];
    int ticks_pending[ROUNDS];
} ticker;

static void ticker_sample(ticker *t, double *wall, double *cpu, double *wait)
{
    *wall = clock_now_ms();
    *cpu = thread_cpu_ms();
    *wait = timing_run_delay_ms();
    (void)t;
}

static void on_tick(evutil_socket_t fd, short what, void *arg)
{
    (void)fd, (void)what;
    ticker *t = arg;
    double wall, cpu, wait;
    ticker_sample(t, &wall, &cpu, &wait);
    double slept = (wall - t->wall) - (cpu - t->cpu) - (wait - t->wait);
    if (slept > t->worst_ms) t->worst_ms = slept;
    if (slept >= BLOCK_MS) {
        t->blocks++;
        t->blocked_ms += slept;
    }
    for (int i = 0; i < ROUNDS; i++)
        if (t->watch[i] && agent_ending(t->watch[i])) t->ticks_pending[i]++;
    t->wall = wall, t->cpu = cpu, t->wait = wait;
    t->ticks++;
    struct timeval ms = {0, TICK_US};
    event_add(t->ev, &ms);
}

static void loop_until(const int *count, int want, const char *what)
{
    double deadline = clock_now_ms() + WAIT_LIMIT_MS;
    while (*count < want) {
        if (clock_now_ms() > deadline) {
            fprintf(stderr, "exit-wait: %s still not done after %.0f ms\n", what, WAIT_LIMIT_MS);
            exit(1);
        }
        event_base_loop(base, EVLOOP_ONCE);
    }
}

static int finished;
static match_outcome outcomes[ROUNDS];

static void on_done(const match_outcome *o, void *ctx)
{
    *(match_outcome *)ctx = *o;
    finished++;
}

static int closed_count;
static void count_closed(void *ctx)
{
    (void)ctx;
    closed_count++;
}

static arena_agent *agent(const char *spec)
{
    agent_config c = {.spec = spec, .game = "nim", .startup_ms = 20000, .exit_grace_ms = 200};
    agent_limits_default(&c.limits);
    char err[256];
    arena_agent *a = agent_new(base, &c, err, sizeof err);
    if (!a) fail_msg("%s", err);
    return a;
}

static void test_closed_output_does_not_block_the_loop(void **st)
{
    (void)st;
    char spec[512], busy[512];
    snprintf(spec, sizeof spec, "cmd:%s --fault close_linger", hostile);
    /* Runnable at its decide: the fair clock then looks 1 ms in (clock.h,
     * CLOCK_FAIR_STRADDLE_LOOK_MS), and such a look ended the wait at once. */
    snprintf(busy, sizeof busy, "cmd:%s --fault close_linger --busy", hostile);
    arena_agent *agents[ROUNDS][2];
    /* Every process starts before the ticker looks: a fork may sleep. */
    for (int i = 0; i < ROUNDS; i++) {
        agents[i][0] = agent(i % 2 ? busy : spec);
        agents[i][1] = agent("builtin:random");
    }
    ticker t = {0};
    t.ev = evtimer_new(base, on_tick, &t);
    ticker_sample(&t, &t.wall, &t.cpu, &t.wait);
    struct timeval ms = {0, TICK_US};
    event_add(t.ev, &ms);
    clock_config clk;
    clock_config_default(&clk);
    clk.move_ms = 20000; /* no verdict here is a timeout */
    clk.bank_ms = 20000;
    clk.startup_ms = 20000;
    match_config mc = {.game = arena_find_game("nim"), .on_fault = FAULT_FORFEIT, .max_strikes = 3};
    mc.clock = clk;
    finished = 0;
    for (int i = 0; i < ROUNDS; i++) { /* one at a time: each EOF on its own */
        char err[256];
        t.watch[i] = agents[i][0];
        if (match_start(base, &mc, agents[i], 2, (uint64_t)(7 + i), on_done, &outcomes[i], err,
                        sizeof err) != 0)
            fail_msg("%s", err);
        loop_until(&finished, i + 1, "a hostile's match");
        t.watch[i] = NULL;
        int next = t.ticks + 1; /* a stall at the match's end shows at the next tick */
        loop_until(&t.ticks, next, "the ticker");
    }
    event_free(t.ev);
    closed_count = 0;
    for (int i = 0; i < ROUNDS; i++) {
        agent_close(agents[i][0], count_closed, NULL);
        agent_close(agents[i][1], count_closed, NULL);
    }
    loop_until(&closed_count, 2 * ROUNDS, "closing the agents");

    int pending_seen = 0;
    for (int i = 0; i < ROUNDS; i++) {
        pending_seen += t.ticks_pending[i] > 0;
        assert_string_equal(outcomes[i].reason, "forfeit");
        assert_int_equal(outcomes[i].forfeit[0], CAUSE_CRASH);
        assert_int_equal(outcomes[i].forfeit[1], CAUSE_NONE);
        assert_string_equal(outcomes[i].fault_message[0],
                            "the agent closed its output (EOF); its process was still running");
    }
    print_message("%d rounds: %d blocks of the loop >= %.0f ms (%.1f ms in all, worst sleep "
                  "%.1f ms); the ticker ran during %d of %d pending verdicts\n",
                  ROUNDS, t.blocks, BLOCK_MS, t.blocked_ms, t.worst_ms, pending_seen, ROUNDS);
    /* A sleep, not a delay: preemption is run-queue wait. A stray stop by
     * the host is allowed; a wait in the callback shows in every round. */
    assert_timely(t.blocks <= ROUNDS / 2);
    /* The loop ran on while each verdict waited: the ticker's timer is due
     * before the wait's own (ordering, not time). */
    assert_int_equal(pending_seen, ROUNDS);
}

static void bot_send(const msg *m)
{
    av *v = msg_encode(m);
    abuf b = {0};
    codec_encode(CODEC_MSGPACK, v, &b);
    for (size_t off = 0; off < b.len;) {
        ssize_t w = write(STDOUT_FILENO, b.data + off, b.len - off);
        if (w <= 0) _exit(0);
        off += (size_t)w;
    }
    abuf_free(&b);
    av_free(v);
}

/* --closer FIFO / --waiter FIFO: a nim bot that takes one stone; the
 * closer closes its stdout after its first answer and says so on FIFO, the
 * waiter answers its first decide once it has heard that. */
static int bot(bool closer, const char *fifo_path)
{
    int fifo = open(fifo_path, closer ? O_WRONLY | O_NONBLOCK : O_RDONLY | O_NONBLOCK);
    if (fifo < 0) return 1;
    msg join = {.type = MSG_JOIN, .u.join = {.name = closer ? "closer" : "waiter"}};
    bot_send(&join);
    frame_decoder dec;
    frame_decoder_init(&dec, PROTO_MAX_FRAME_DEFAULT, CODEC_MSGPACK);
    for (int decided = 0;;) {
        av *v = NULL;
        int r = frame_decoder_next(&dec, &v);
        if (r < 0) return 1;
        if (r == 0) {
            uint8_t buf[65536];
            ssize_t n = read(STDIN_FILENO, buf, sizeof buf);
            if (n < 0 && errno == EINTR) continue;
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
            if (!closer && decided++ == 0) { /* the closer's EOF first */
                struct pollfd p = {.fd = fifo, .events = POLLIN};
                char c;
                if (poll(&p, 1, 10000) != 1 || read(fifo, &c, 1) != 1) return 1;
            }
            int64_t one = 0;
            msg a = {.type = MSG_ACT,
                     .u.act = {.id = m.u.decide.id, .choice = &one, .n_choice = 1}};
            bot_send(&a);
            if (closer) {
                close(STDOUT_FILENO);
                if (write(fifo, "c", 1) != 1) return 1;
                sleep(1);
                return 0;
            }
        }
        bool bye = m.type == MSG_BYE;
        msg_free(&m);
        if (bye) break;
    }
    frame_decoder_free(&dec);
    return 0;
}

/* Lines of a match log that are messages `dir` of `type` for seat 0. */
static int seat0_lines(const char *path, const char *dir, const char *type)
{
    char err[256], want[128];
    matchlog_reader *r = matchlog_read_open(path, err, sizeof err);
    if (!r) fail_msg("%s", err);
    snprintf(want, sizeof want, "\"seat\":0,\"dir\":\"%s\",\"msg\":{\"type\":\"%s\"", dir, type);
    int n = 0;
    const char *line;
    size_t len;
    while ((line = matchlog_read_line(r, &len)))
        n += strstr(line, want) != NULL;
    matchlog_read_close(r);
    return n;
}

static void test_ending_agent_is_asked_nothing(void **st)
{
    (void)st;
    char self[400], fifo[128], closer[600], waiter[600], log[128], err[256];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    assert_true(n > 0);
    self[n] = 0;
    snprintf(fifo, sizeof fifo, "/tmp/arena-exit-wait-%d.fifo", (int)getpid());
    snprintf(log, sizeof log, "/tmp/arena-exit-wait-%d.jsonl.gz", (int)getpid());
    unlink(fifo);
    assert_int_equal(mkfifo(fifo, 0600), 0);
    int hold = open(fifo, O_RDWR | O_NONBLOCK); /* the closer's write never finds no reader */
    assert_true(hold >= 0);
    snprintf(closer, sizeof closer, "cmd:%s --closer %s", self, fifo);
    snprintf(waiter, sizeof waiter, "cmd:%s --waiter %s", self, fifo);
    arena_agent *ag[2] = {agent(closer), agent(waiter)};
    match_config mc = {.game = arena_find_game("nim"), .on_fault = FAULT_FORFEIT, .max_strikes = 3};
    clock_config_default(&mc.clock);
    mc.clock.move_ms = 20000;
    mc.clock.bank_ms = 20000;
    mc.clock.startup_ms = 20000;
    mc.log_path = log;
    match_outcome o;
    finished = 0;
    if (match_start(base, &mc, ag, 2, 3, on_done, &o, err, sizeof err) != 0) fail_msg("%s", err);
    loop_until(&finished, 1, "the closer's match");
    closed_count = 0;
    agent_close(ag[0], count_closed, NULL);
    agent_close(ag[1], count_closed, NULL);
    loop_until(&closed_count, 2, "closing the agents");
    close(hold);
    unlink(fifo);
    int decides = seat0_lines(log, "out", "decide"), acts = seat0_lines(log, "in", "act");
    unlink(log);
    print_message("closer: %d decide(s) sent, %d act(s) read; %s\n", decides, acts,
                  o.fault_message[0]);
    assert_int_equal(o.forfeit[0], CAUSE_CRASH);
    assert_int_equal(o.forfeit[1], CAUSE_NONE);
    assert_string_equal(o.fault_message[0],
                        "the agent closed its output (EOF); its process was still running");
    assert_int_equal(acts, 1);
    assert_int_equal(decides, 1);
}

int main(int argc, char **argv)
{
    if (argc == 3 && (strcmp(argv[1], "--closer") == 0 || strcmp(argv[1], "--waiter") == 0))
        return bot(strcmp(argv[1], "--closer") == 0, argv[2]);
    arena_builtins_install();
    if (argc < 2) {
        fprintf(stderr, "usage: exit-wait HOSTILE\n");
        return 2;
    }
    hostile = argv[1];
    signal(SIGPIPE, SIG_IGN);
    base = event_base_new();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_closed_output_does_not_block_the_loop),
        cmocka_unit_test(test_ending_agent_is_asked_nothing),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    event_base_free(base);
    return rc;
}
