/* Drives the SDK loop over a socketpair: the bot runs in a thread, the test
 * plays a scripted fake referee on the other end, in both codecs. */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "arena_bot.h"

/* What the bot saw, for the referee side to check after the run. */
typedef struct record {
    int hellos, events, overs, errors, decides;
    int64_t seat, strikes_left;
    char game[32], over_reason[16], error_code[16];
    int64_t last_n_options;
    bool give_up;   /* decide returns -1 */
    bool log_hello; /* on_hello sends a log line */
} record;

/* Deterministic: the last pick.max options, highest first. */
static int decide(arena_session *s, const msg_decide *d, int64_t *choice)
{
    record *r = arena_session_user(s);
    r->decides++;
    r->last_n_options = (int64_t)d->n_options;
    if (r->give_up) return -1;
    int n = (int)d->pick.max;
    for (int i = 0; i < n; i++)
        choice[i] = (int64_t)d->n_options - 1 - i;
    return n;
}

static int on_hello(arena_session *s, const msg_hello *h)
{
    record *r = arena_session_user(s);
    r->hellos++;
    r->seat = h->seat;
    snprintf(r->game, sizeof r->game, "%s", h->game);
    assert_ptr_equal(arena_session_hello(s), h);
    if (r->log_hello) return arena_session_log(s, "hello %d", r->hellos);
    return 0;
}

static void on_event(arena_session *s, const av *events)
{
    record *r = arena_session_user(s);
    r->events += (int)av_len(events);
}

static void on_over(arena_session *s, const msg_over *o)
{
    record *r = arena_session_user(s);
    r->overs++;
    snprintf(r->over_reason, sizeof r->over_reason, "%s", o->reason);
}

static void on_error(arena_session *s, const msg_error *e)
{
    record *r = arena_session_user(s);
    r->errors++;
    r->strikes_left = e->strikes_left;
    snprintf(r->error_code, sizeof r->error_code, "%s", e->code);
}

typedef struct harness {
    int sv[2]; /* [0] referee side, [1] bot side */
    pthread_t thread;
    arena_bot bot;
    arena_bot_options opts;
    const char *token;
    record rec;
    int rc;
    frame_decoder dec;
    codec_kind codec;
} harness;

static void *bot_thread(void *p)
{
    harness *h = p;
    h->rc = arena_bot_run_fds(h->sv[1], h->sv[1], h->token, &h->bot, &h->opts);
    /* The referee side sees EOF once the bot is done, as with a process. */
    shutdown(h->sv[1], SHUT_WR);
    return NULL;
}

static void start(harness *h, codec_kind codec)
{
    memset(h, 0, sizeof *h);
    assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, h->sv), 0);
    h->bot = (arena_bot){.name = "tester",
                         .version = "9.9",
                         .author = "me",
                         .decide = decide,
                         .on_hello = on_hello,
                         .on_event = on_event,
                         .on_over = on_over,
                         .on_error = on_error,
                         .user = &h->rec};
    h->opts = (arena_bot_options){.codec = codec, .quiet = true};
    h->codec = codec;
    frame_decoder_init(&h->dec, PROTO_MAX_FRAME_DEFAULT, CODEC_NONE);
}

static void run(harness *h)
{
    assert_int_equal(pthread_create(&h->thread, NULL, bot_thread, h), 0);
}

static int finish(harness *h)
{
    pthread_join(h->thread, NULL);
    close(h->sv[0]);
    close(h->sv[1]);
    frame_decoder_free(&h->dec);
    return h->rc;
}

static void send_raw(harness *h, const void *p, size_t n)
{
    assert_int_equal(write(h->sv[0], p, n), (ssize_t)n);
}

static void send_msg(harness *h, const msg *m)
{
    av *map = msg_encode(m);
    abuf b = {0};
    codec_encode(h->codec, map, &b);
    send_raw(h, b.data, b.len);
    abuf_free(&b);
    av_free(map);
}

/* Next message from the bot; fails the test on EOF or a bad frame. */
static void recv_msg(harness *h, msg *out)
{
    for (;;) {
        av *map = NULL;
        int r = frame_decoder_next(&h->dec, &map);
        assert_true(r >= 0);
        if (r > 0) {
            assert_int_equal(h->dec.codec, h->codec);
            char err[200];
            int rc = msg_decode(map, out, err, sizeof err);
            av_free(map);
            assert_int_equal(rc, 0);
            return;
        }
        char buf[4096];
        ssize_t n = read(h->sv[0], buf, sizeof buf);
        assert_true(n > 0);
        frame_decoder_feed(&h->dec, buf, (size_t)n);
    }
}

static void expect(harness *h, msg_type t)
{
    msg m;
    recv_msg(h, &m);
    assert_string_equal(msg_type_name(m.type), msg_type_name(t));
    msg_free(&m);
}

static void send_hello(harness *h, int seat)
{
    char *names[] = {"tester", "other"};
    msg m = {.type = MSG_HELLO,
             .u.hello = {.protocol = PROTOCOL_VERSION,
                         .game = "nim",
                         .options = av_set_int(av_map(), "stones", 21),
                         .seat = seat,
                         .players = 2,
                         .names = names,
                         .n_names = 2,
                         .match = "m1",
                         .clock = {.move_ms = 100,
                                   .bank_ms = 200,
                                   .game_ms = -1,
                                   .startup_ms = 1000,
                                   .mode = "wall"}}};
    send_msg(h, &m);
    av_free(m.u.hello.options);
}

static void send_decide(harness *h, uint64_t id, int n_options, int max)
{
    char *labels[] = {"stone:1", "stone:2", "stone:3"};
    msg m = {.type = MSG_DECIDE,
             .u.decide = {
                 .id = id,
                 .kind = "take",
                 .prompt = "take stones",
                 .labels = labels,
                 .n_options = (size_t)n_options,
                 .pick = {.min = 1, .max = max, .ordered = false},
                 .view = av_set_int(av_map(), "stones", 21),
                 .events = av_list(),
                 .clock = {
                     .move_ms = 100, .bank_ms = 200, .game_ms = -1, .startup_ms = -1, .mode = ""}}};
    send_msg(h, &m);
    av_free(m.u.decide.view);
    av_free(m.u.decide.events);
}

static void send_simple(harness *h, msg_type t)
{
    msg m = {.type = t};
    send_msg(h, &m);
}

static void send_over(harness *h)
{
    int64_t ranks[] = {1, 2}, scores[] = {1, 0};
    msg m = {
        .type = MSG_OVER,
        .u.over = {
            .ranks = ranks, .scores = scores, .n_seats = 2, .reason = "normal", .view = av_map()}};
    send_msg(h, &m);
    av_free(m.u.over.view);
}

/* A whole connection: join, two games with decisions, events, an error,
 * then bye. */
static void full_session(codec_kind codec)
{
    harness h;
    start(&h, codec);
    h.token = "sekrit";
    h.rec.log_hello = true;
    run(&h);

    msg m;
    recv_msg(&h, &m);
    assert_int_equal(m.type, MSG_JOIN);
    assert_string_equal(m.u.join.name, "tester");
    assert_string_equal(m.u.join.version, "9.9");
    assert_string_equal(m.u.join.author, "me");
    assert_string_equal(m.u.join.token, "sekrit");
    msg_free(&m);

    for (int game = 0; game < 2; game++) {
        send_hello(&h, game);
        recv_msg(&h, &m);
        assert_int_equal(m.type, MSG_LOG);
        char want[32];
        snprintf(want, sizeof want, "hello %d", game + 1);
        assert_string_equal(m.u.log.text, want);
        msg_free(&m);
        expect(&h, MSG_READY);

        send_decide(&h, 41 + (uint64_t)game, 3, 2);
        recv_msg(&h, &m);
        assert_int_equal(m.type, MSG_ACT);
        assert_int_equal(m.u.act.id, 41 + game);
        assert_int_equal(m.u.act.n_choice, 2);
        assert_int_equal(m.u.act.choice[0], 2);
        assert_int_equal(m.u.act.choice[1], 1);
        msg_free(&m);

        av *evs = av_push(av_push(av_list(), av_map()), av_map());
        msg ev = {.type = MSG_EVENT, .u.event.events = evs};
        send_msg(&h, &ev);
        av_free(evs);

        msg er = {.type = MSG_ERROR,
                  .u.error = {.id = 41, .code = "illegal", .message = "no", .strikes_left = 2}};
        send_msg(&h, &er);

        send_decide(&h, 50, 1, 1);
        recv_msg(&h, &m);
        assert_int_equal(m.type, MSG_ACT);
        assert_int_equal(m.u.act.id, 50);
        assert_int_equal(m.u.act.n_choice, 1);
        assert_int_equal(m.u.act.choice[0], 0);
        msg_free(&m);

        send_over(&h);
    }
    send_simple(&h, MSG_BYE);
    assert_int_equal(finish(&h), 0);

    assert_int_equal(h.rec.hellos, 2);
    assert_int_equal(h.rec.seat, 1);
    assert_string_equal(h.rec.game, "nim");
    assert_int_equal(h.rec.decides, 4);
    assert_int_equal(h.rec.last_n_options, 1);
    assert_int_equal(h.rec.events, 4);
    assert_int_equal(h.rec.errors, 2);
    assert_int_equal(h.rec.strikes_left, 2);
    assert_string_equal(h.rec.error_code, "illegal");
    assert_int_equal(h.rec.overs, 2);
    assert_string_equal(h.rec.over_reason, "normal");
}

static void test_session_msgpack(void **state)
{
    (void)state;
    full_session(CODEC_MSGPACK);
}

static void test_session_json(void **state)
{
    (void)state;
    full_session(CODEC_JSON);
}

/* The referee closing the connection between messages is a clean end. */
static void eof_is_clean(codec_kind codec)
{
    harness h;
    start(&h, codec);
    run(&h);
    expect(&h, MSG_JOIN);
    send_hello(&h, 0);
    expect(&h, MSG_READY);
    shutdown(h.sv[0], SHUT_WR);
    assert_int_equal(finish(&h), 0);
    assert_int_equal(h.rec.hellos, 1);
}

static void test_eof_msgpack(void **state)
{
    (void)state;
    eof_is_clean(CODEC_MSGPACK);
}

static void test_eof_json(void **state)
{
    (void)state;
    eof_is_clean(CODEC_JSON);
}

/* EOF inside a frame, garbage, and a message the referee never sends are
 * all failures. */
static void test_truncated_frame(void **state)
{
    (void)state;
    harness h;
    start(&h, CODEC_MSGPACK);
    run(&h);
    expect(&h, MSG_JOIN);
    send_raw(&h, "\0\0\0\x10\x81", 5);
    shutdown(h.sv[0], SHUT_WR);
    assert_int_equal(finish(&h), -1);
}

static void test_garbage_json(void **state)
{
    (void)state;
    harness h;
    start(&h, CODEC_JSON);
    run(&h);
    expect(&h, MSG_JOIN);
    send_raw(&h, "{not json}\n", 11);
    assert_int_equal(finish(&h), -1);
}

static void test_unexpected_type(void **state)
{
    (void)state;
    harness h;
    start(&h, CODEC_MSGPACK);
    run(&h);
    expect(&h, MSG_JOIN);
    send_simple(&h, MSG_READY); /* an agent's message, not the referee's */
    assert_int_equal(finish(&h), -1);
}

static void test_give_up(void **state)
{
    (void)state;
    harness h;
    start(&h, CODEC_JSON);
    h.rec.give_up = true;
    run(&h);
    expect(&h, MSG_JOIN);
    send_hello(&h, 0);
    expect(&h, MSG_READY);
    send_decide(&h, 1, 3, 1);
    assert_int_equal(finish(&h), -1);
    assert_int_equal(h.rec.decides, 1);
}

/* A frame above the bot's own cap is refused. */
static void test_frame_cap(void **state)
{
    (void)state;
    harness h;
    start(&h, CODEC_MSGPACK);
    h.opts.max_frame = 64;
    run(&h);
    expect(&h, MSG_JOIN);
    send_decide(&h, 1, 3, 1); /* well above 64 bytes */
    assert_int_equal(finish(&h), -1);
    assert_int_equal(h.rec.decides, 0);
}

/* Missing name or decide: refused before anything is sent. */
static void test_bad_bot(void **state)
{
    (void)state;
    harness h;
    start(&h, CODEC_MSGPACK);
    h.bot.decide = NULL;
    run(&h);
    assert_int_equal(finish(&h), -1);
}

static int chatty_decide(arena_session *s, const msg_decide *d, int64_t *choice)
{
    (void)s;
    printf("thinking about %llu\n", (unsigned long long)d->id);
    fflush(stdout);
    choice[0] = 0;
    return 1;
}

/* arena_bot_run_stdio keeps printf in a bot away from the protocol stream:
 * a forked child runs the bot with stdin/stdout on the socket and stderr on
 * a pipe. */
static void test_stdio_guard(void **state)
{
    (void)state;
    harness h;
    start(&h, CODEC_MSGPACK);
    int errp[2];
    assert_int_equal(pipe(errp), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        dup2(h.sv[1], STDIN_FILENO);
        dup2(h.sv[1], STDOUT_FILENO);
        dup2(errp[1], STDERR_FILENO);
        close(h.sv[0]);
        close(h.sv[1]);
        close(errp[0]);
        close(errp[1]);
        arena_bot bot = {.name = "chatty", .decide = chatty_decide};
        _exit(arena_bot_run_stdio(&bot, NULL) == 0 ? 0 : 1);
    }
    close(h.sv[1]);
    close(errp[1]);
    expect(&h, MSG_JOIN);
    send_decide(&h, 77, 3, 1);
    msg m;
    recv_msg(&h, &m);
    assert_int_equal(m.type, MSG_ACT);
    assert_int_equal(m.u.act.id, 77);
    msg_free(&m);
    send_simple(&h, MSG_BYE);
    int st;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    char buf[256] = {0};
    ssize_t n = read(errp[0], buf, sizeof buf - 1);
    assert_true(n > 0);
    assert_string_equal(buf, "thinking about 77\n");
    close(errp[0]);
    close(h.sv[0]);
    frame_decoder_free(&h.dec);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_session_msgpack), cmocka_unit_test(test_session_json),
        cmocka_unit_test(test_eof_msgpack),     cmocka_unit_test(test_eof_json),
        cmocka_unit_test(test_truncated_frame), cmocka_unit_test(test_garbage_json),
        cmocka_unit_test(test_unexpected_type), cmocka_unit_test(test_give_up),
        cmocka_unit_test(test_frame_cap),       cmocka_unit_test(test_bad_bot),
        cmocka_unit_test(test_stdio_guard),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
