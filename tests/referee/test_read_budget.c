/* The referee decodes an agent's input a bounded amount per turn of its
 * loop (agent.c, on_read): a flood of the costliest messages an agent may
 * send must not hold the loop long enough to be credited to another bot
 * as the loop's lag (tests/hostile/verdicts.py, flood_other). Here an
 * agent on a socket pair sends its join and then a burst of `log`s of
 * PROTO_MAX_VALUES_IN values each, all at once: one turn of the loop must
 * decode at most two of them (the value budget, and one message that
 * crosses it), and the messages left over must still all be handled on
 * later turns, with nothing more to read from the socket to wake the loop
 * up. Both codecs. */
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

static void test_a_flood_is_decoded_a_few_messages_a_turn(void **st)
{
    (void)st;
    const codec_kind codecs[] = {CODEC_MSGPACK, CODEC_JSON};
    for (size_t ci = 0; ci < 2; ci++) {
        int sv[2];
        assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
        int big = 1 << 20;
        setsockopt(sv[1], SOL_SOCKET, SO_SNDBUF, &big, sizeof big);
        struct event_base *base = event_base_new();
        agent_config cfg = {.spec = "tcp", .game = "nim", .startup_ms = 10000};
        agent_limits_default(&cfg.limits);
        arena_agent *a = agent_from_socket(base, sv[0], &cfg, NULL, NULL);
        assert_non_null(a);

        av *join = av_map();
        av_add_str(join, "type", "join");
        av_add_str(join, "name", "flood");
        put(sv[1], codecs[ci], join);
        /* Every log is the same size: count them by bytes. */
        abuf one = {0};
        av *h = heavy_log();
        codec_encode(codecs[ci], h, &one);
        av_free(h);
        for (int i = 0; i < LOGS; i++)
            put(sv[1], codecs[ci], heavy_log());
        size_t sent = unread(sv[0]);
        assert_true(sent > LOGS * one.len);

        size_t done = 0; /* bytes of input handled */
        int turns = 0;
        while (done < sent && turns < 10 * LOGS) {
            event_base_loop(base, EVLOOP_ONCE | EVLOOP_NONBLOCK);
            turns++;
            size_t now = sent - unread(sv[0]) - frame_decoder_pending(&a->dec);
            assert_true(a->alive);
            /* The join (small) may go with the first turn's two logs. */
            assert_true(now - done <= 2 * one.len + (done == 0 ? sent - LOGS * one.len : 0));
            done = now;
        }
        assert_int_equal(done, sent); /* nothing stuck in the decoder */
        assert_true(a->joined);
        assert_true(turns >= LOGS / 2);

        closed = 0;
        agent_close(a, on_closed, NULL);
        assert_int_equal(closed, 1);
        abuf_free(&one);
        event_base_free(base);
        close(sv[1]);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_flood_is_decoded_a_few_messages_a_turn),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
