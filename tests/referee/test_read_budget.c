/* The referee decodes an agent's input a bounded amount per turn of its
 * loop (agent.c, on_read): a flood of the costliest messages an agent may
 * send must not hold the loop long enough to be credited to another bot
 * as the loop's lag (tests/hostile/verdicts.py, flood_other). Here an
 * agent on a socket pair sends its join and then a burst of `log`s of
 * PROTO_MAX_VALUES_IN values each, all at once: one turn of the loop must
 * decode at most two of them (the value budget, and one message that
 * crosses it), and the messages left over must still all be handled on
 * later turns, with nothing more to read from the socket to wake the loop
 * up. A catch-up must say when it stopped at the budget, and in a real
 * match an answer queued behind three such logs must still be found when
 * the loop was late (match.c, catch_up_awaited). Both codecs. */
#include <event2/event.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cmocka.h>

#include "builtins.h"
#include "clock.h"
#include "codec.h"
#include "match.h"
#include "runner.h"

#define LOGS 12

static void put(int fd, codec_kind c, av *msg)
{
    abuf b = {0};
    codec_encode(c, msg, &b);
    assert_int_equal(write(fd, b.data, b.len), (ssize_t)b.len);
    abuf_free(&b);
    av_free(msg);
}

/* A `log` of exactly PROTO_MAX_VALUES_IN values: the map, its three keys,
 * "log", "x", the list, and empty maps in it. */
static av *heavy_log(void)
{
    av *m = av_map();
    av_add_str(m, "type", "log");
    av_add_str(m, "text", "x");
    av *pad = av_list();
    for (int i = 0; i < PROTO_MAX_VALUES_IN - 7; i++)
        av_push(pad, av_map());
    av_add(m, "pad", pad);
    return m;
}

static size_t unread(int fd)
{
    int n = 0;
    assert_int_equal(ioctl(fd, FIONREAD, &n), 0);
    return (size_t)n;
}

static int closed;
static void on_closed(void *ctx)
{
    (void)ctx;
    closed++;
}

/* An agent on a socket pair that has sent its join and LOGS heavy logs,
 * all at once. */
typedef struct flood {
    struct event_base *base;
    arena_agent *a;
    int peer;
    size_t sent, log_len, join_len; /* bytes: all, one log, the join */
} flood;

static void flood_start(flood *f, codec_kind c)
{
    int sv[2];
    assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
    int big = 1 << 20;
    setsockopt(sv[1], SOL_SOCKET, SO_SNDBUF, &big, sizeof big);
    f->peer = sv[1];
    f->base = event_base_new();
    agent_config cfg = {.spec = "tcp", .game = "nim", .startup_ms = 10000};
    agent_limits_default(&cfg.limits);
    f->a = agent_from_socket(f->base, sv[0], &cfg, NULL, NULL);
    assert_non_null(f->a);
    av *join = av_map();
    av_add_str(join, "type", "join");
    av_add_str(join, "name", "flood");
    put(f->peer, c, join);
    f->join_len = unread(sv[0]);
    abuf one = {0}; /* every log is the same size: count them by bytes */
    av *h = heavy_log();
    codec_encode(c, h, &one);
    av_free(h);
    f->log_len = one.len;
    abuf_free(&one);
    for (int i = 0; i < LOGS; i++)
        put(f->peer, c, heavy_log());
    f->sent = unread(sv[0]);
    assert_int_equal(f->sent, f->join_len + LOGS * f->log_len);
}

/* Bytes of input handled so far; checks that the step since `before`
 * decoded at most two logs (the value budget, and one message that
 * crosses it), and the join. */
static size_t flood_step(const flood *f, size_t before)
{
    size_t done = f->sent - unread(f->a->rfd) - frame_decoder_pending(&f->a->dec);
    assert_true(f->a->alive);
    assert_true(done - before <= 2 * f->log_len + (before == 0 ? f->join_len : 0));
    return done;
}

static void flood_end(flood *f)
{
    assert_true(f->a->joined);
    closed = 0;
    agent_close(f->a, on_closed, NULL);
    assert_int_equal(closed, 1);
    event_base_free(f->base);
    close(f->peer);
}

static const codec_kind codecs[] = {CODEC_MSGPACK, CODEC_JSON};

/* Runs `turn` until the whole flood is handled, or it says nothing more
 * waits, checking each step (flood_step); all must then be handled.
 * Returns the turns taken. */
static int drain(flood *f, bool (*turn)(flood *f))
{
    size_t done = 0;
    int turns = 0;
    bool more = true;
    while (more && done < f->sent && turns < 10 * LOGS) {
        more = turn(f);
        turns++;
        done = flood_step(f, done);
    }
    assert_int_equal(done, f->sent); /* nothing stuck in the decoder */
    return turns;
}

static bool loop_turn(flood *f)
{
    event_base_loop(f->base, EVLOOP_ONCE | EVLOOP_NONBLOCK);
    return true;
}

static bool catch_up_turn(flood *f)
{
    return agent_catch_up(f->a);
}

static void test_a_flood_is_decoded_a_few_messages_a_turn(void **st)
{
    (void)st;
    for (size_t ci = 0; ci < 2; ci++) {
        flood f;
        flood_start(&f, codecs[ci]);
        assert_true(drain(&f, loop_turn) >= LOGS / 2);
        flood_end(&f);
    }
}

/* Before a timeout is declared the match reads a few turns more while
 * agent_catch_up says input may be waiting (match.c, catch_up_awaited):
 * it must say so as long as it stopped at the budget, and no longer once
 * all is read. */
static void test_catch_up_says_when_more_may_wait(void **st)
{
    (void)st;
    for (size_t ci = 0; ci < 2; ci++) {
        flood f;
        flood_start(&f, codecs[ci]);
        assert_true(drain(&f, catch_up_turn) >= LOGS / 2);
        assert_false(agent_catch_up(f.a)); /* drained: nothing more */
        flood_end(&f);
    }
}

/* ----------------------------------------------- in a match, at a verdict */

static int finished;
static match_outcome outcome;
static void on_done(const match_outcome *o, void *ctx)
{
    (void)ctx;
    outcome = *o;
    finished++;
}

/* Runs the loop and reads the peer's end until a message of `type`. */
static av *await_msg(struct event_base *base, int peer, frame_decoder *d, const char *type)
{
    for (int i = 0; i < 20000; i++) {
        av *m;
        while (frame_decoder_next(d, &m) == 1) {
            const char *t = av_get_str(m, "type");
            if (t && strcmp(t, type) == 0) return m;
            av_free(m);
        }
        event_base_loop(base, EVLOOP_ONCE | EVLOOP_NONBLOCK);
        uint8_t buf[4096];
        ssize_t r = recv(peer, buf, sizeof buf, MSG_DONTWAIT);
        if (r > 0) frame_decoder_feed(d, buf, (size_t)r);
        if (r <= 0) usleep(500);
    }
    fail_msg("no '%s' from the referee", type);
    return NULL;
}

/* The loop is late (this test stalls it) when an answer arrives, and the
 * answer waits behind three of the agent's logs of PROTO_MAX_VALUES_IN
 * values, sent with it before its deadline: one turn's budget each. The
 * match reads a few turns of the agent's input when it sees the stall end
 * and before a verdict (match.c, catch_up_awaited), so the answer is found
 * within the stall and judged with it credited; reading one turn each time
 * timed the bot out. */
static void test_an_answer_behind_a_flood_is_found_after_a_stall(void **st)
{
    (void)st;
    for (size_t ci = 0; ci < 2; ci++) {
        codec_kind c = codecs[ci];
        int sv[2];
        assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
        int big = 1 << 20;
        setsockopt(sv[1], SOL_SOCKET, SO_SNDBUF, &big, sizeof big);
        struct event_base *base = event_base_new();
        char err[256];
        agent_config cfg = {.spec = "tcp", .game = "nim", .startup_ms = 10000};
        agent_limits_default(&cfg.limits);
        arena_agent *a = agent_from_socket(base, sv[0], &cfg, NULL, NULL);
        cfg.spec = "builtin:random";
        arena_agent *other = agent_new(base, &cfg, err, sizeof err);
        assert_non_null(a);
        assert_non_null(other);
        av *join = av_map();
        av_add_str(join, "type", "join");
        av_add_str(join, "name", "flood");
        put(sv[1], c, join);

        arena_setting set[] = {{"stones", "1"}}; /* one decision: ours */
        match_config mc = {.game = arena_find_game("nim"), .settings = set, .n_settings = 1};
        clock_config_default(&mc.clock);
        mc.clock.move_ms = 50;
        mc.clock.bank_ms = 0;
        mc.clock.startup_ms = 10000;
        arena_agent *seats[2] = {a, other};
        finished = 0;
        assert_int_equal(match_start(base, &mc, seats, 2, 1, on_done, NULL, err, sizeof err), 0);
        frame_decoder d;
        frame_decoder_init(&d, 0, c);
        av_free(await_msg(base, sv[1], &d, "hello"));
        av *ready = av_map();
        av_add_str(ready, "type", "ready");
        put(sv[1], c, ready);
        av *decide = await_msg(base, sv[1], &d, "decide");
        int64_t id = 0, min = 1;
        assert_true(av_get_int(decide, "id", &id));
        av_get_int(av_get(decide, "pick"), "min", &min);
        av_free(decide);

        /* Three logs and the answer in one write, well within the move. */
        abuf out = {0};
        for (int i = 0; i < 3; i++) {
            av *h = heavy_log();
            codec_encode(c, h, &out);
            av_free(h);
        }
        av *act = av_map();
        av_add_str(act, "type", "act");
        av_add(act, "id", av_int(id));
        av *choice = av_list();
        for (int64_t i = 0; i < (min > 0 ? min : 1); i++)
            av_push(choice, av_int(i));
        av_add(act, "choice", choice);
        codec_encode(c, act, &out);
        av_free(act);
        assert_int_equal(write(sv[1], out.data, out.len), (ssize_t)out.len);
        abuf_free(&out);
        usleep(120 * 1000); /* the stall: past the move's 50 ms */

        for (int i = 0; i < 2000 && !finished; i++)
            event_base_loop(base, EVLOOP_ONCE | EVLOOP_NONBLOCK);
        assert_int_equal(finished, 1);
        if (outcome.forfeit[0] != CAUSE_NONE)
            fail_msg("%s: the answer behind the logs was not found: %s", codec_name(c),
                     outcome.fault_message[0]);
        assert_string_equal(outcome.reason, "normal");
        frame_decoder_free(&d);
        closed = 0;
        agent_close(a, on_closed, NULL);
        agent_close(other, on_closed, NULL);
        for (int i = 0; i < 2000 && closed < 2; i++)
            event_base_loop(base, EVLOOP_ONCE | EVLOOP_NONBLOCK);
        assert_int_equal(closed, 2);
        event_base_free(base);
        close(sv[1]);
    }
}

int main(void)
{
    arena_builtins_install();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_flood_is_decoded_a_few_messages_a_turn),
        cmocka_unit_test(test_catch_up_says_when_more_may_wait),
        cmocka_unit_test(test_an_answer_behind_a_flood_is_found_after_a_stall),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
