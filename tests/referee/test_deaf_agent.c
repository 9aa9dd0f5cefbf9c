/* An agent that stops reading its input must still time out on every
 * decision: the referee cannot write the decide out, and the clock runs
 * from when the output backs up (match_on_blocked), or the match would
 * wait for the last byte forever. The agent is this binary run as a bot: it joins,
 * answers hello, shrinks its stdin pipe to one page and never reads again,
 * so after a few decides the referee's writes block. With fallback moves
 * and a few strikes the seat must forfeit on time; without that timer the
 * match would wait forever (the loop's deadline fails the test then).
 * The bot also checks the form of the opaque match id its hello carries.
 * Usage: test-deaf_agent (it finds itself through /proc/self/exe). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <event2/event.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "builtins.h"
#include "clock.h"
#include "codec.h"
#include "match.h"

#define WAIT_LIMIT_MS 40000.0 /* any wait longer than this is a hang */

static void put_frame(av *v)
{
    abuf b = {0};
    codec_encode(CODEC_MSGPACK, v, &b);
    for (size_t at = 0; at < b.len;) {
        ssize_t w = write(1, b.data + at, b.len - at);
        if (w <= 0) exit(3);
        at += (size_t)w;
    }
    abuf_free(&b);
    av_free(v);
}

/* The bot: join, read up to the hello, ready, then never read again. */
static int deaf_bot(void)
{
    if (fcntl(0, F_SETPIPE_SZ, 4096) < 0) {
        perror("deaf bot: F_SETPIPE_SZ");
        return 2;
    }
    av *join = av_map();
    av_set_str(join, "type", "join");
    av_set_str(join, "name", "deaf");
    put_frame(join);
    frame_decoder dec;
    frame_decoder_init(&dec, 1 << 20, CODEC_MSGPACK);
    for (;;) {
        av *m = NULL;
        int got = frame_decoder_next(&dec, &m);
        if (got < 0) return 2;
        if (got > 0) {
            const char *type = av_get_str(m, "type"), *id = av_get_str(m, "match");
            bool hello = type && strcmp(type, "hello") == 0;
            /* The opaque match id: "m-" and 64 random bits in hex. */
            bool id_ok = id && strlen(id) == 18 && strncmp(id, "m-", 2) == 0 &&
                         strspn(id + 2, "0123456789abcdef") == 16;
            if (hello && !id_ok) {
                fprintf(stderr, "deaf bot: match id '%s' is not m-<16 hex digits>\n", id);
                return 2; /* a crash at startup: the forfeit's cause tells */
            }
            av_free(m);
            if (hello) break;
            continue;
        }
        uint8_t buf[256]; /* small reads: nothing past the hello is taken */
        ssize_t r = read(0, buf, sizeof buf);
        if (r <= 0) return 2;
        frame_decoder_feed(&dec, buf, (size_t)r);
    }
    frame_decoder_free(&dec);
    av *ready = av_map();
    av_set_str(ready, "type", "ready");
    put_frame(ready);
    for (;;)
        pause(); /* until the referee kills the group */
}

static struct event_base *base;
static int finished, closed;
static match_outcome outcome;

static void on_done(const match_outcome *o, void *ctx)
{
    (void)ctx;
    outcome = *o;
    finished++;
}

static void on_closed(void *ctx)
{
    (void)ctx;
    closed++;
}

static void loop_until(const int *count, const char *what)
{
    double deadline = clock_now_ms() + WAIT_LIMIT_MS;
    while (*count < 1) {
        if (clock_now_ms() > deadline) {
            fprintf(stderr, "deaf-agent: %s still not done after %.0f ms\n", what, WAIT_LIMIT_MS);
            exit(1);
        }
        event_base_loop(base, EVLOOP_ONCE);
    }
}

static void test_agent_that_stops_reading_times_out(void **st)
{
    (void)st;
    char self[4096], spec[4200], err[256];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    assert_true(n > 0);
    self[n] = 0;
    snprintf(spec, sizeof spec, "cmd:%s --deaf-bot", self);
    base = event_base_new();
    agent_config c = {.spec = spec, .game = "nim", .startup_ms = 10000, .exit_grace_ms = 200};
    agent_limits_default(&c.limits);
    arena_agent *deaf = agent_new(base, &c, err, sizeof err);
    if (!deaf) fail_msg("%s", err);
    c.spec = "builtin:random";
    arena_agent *other = agent_new(base, &c, err, sizeof err);
    if (!other) fail_msg("%s", err);
    /* Sixty-four options a decision: a decide is over a kilobyte, so the
     * page of pipe is full after a few. */
    arena_setting set[] = {{"stones", "1000000"}, {"max_take", "64"}};
    match_config mc = {.game = arena_find_game("nim"),
                       .settings = set,
                       .n_settings = 2,
                       .on_fault = FAULT_FALLBACK,
                       .max_strikes = 8};
    clock_config_default(&mc.clock);
    mc.clock.move_ms = 20;
    mc.clock.bank_ms = 0;
    mc.clock.startup_ms = 10000;
    arena_agent *seats[2] = {deaf, other};
    double t0 = clock_now_ms();
    if (match_start(base, &mc, seats, 2, 11, on_done, NULL, err, sizeof err) != 0)
        fail_msg("%s", err);
    loop_until(&finished, "the match");
    double took = clock_now_ms() - t0;
    agent_close(deaf, on_closed, NULL);
    loop_until(&closed, "closing the deaf agent");
    closed = 0;
    agent_close(other, on_closed, NULL);
    loop_until(&closed, "closing the other agent");
    event_base_free(base);

    assert_string_equal(outcome.reason, "forfeit");
    assert_int_equal(outcome.forfeit[0], CAUSE_TIMEOUT);
    assert_int_equal(outcome.strikes[0], 8);
    assert_int_equal(outcome.fallbacks[0], 7); /* the eighth strike forfeits */
    assert_int_equal(outcome.forfeit[1], CAUSE_NONE);
    /* The outcome's texts are written only up to their NUL (match.c's
     * outcome_clear): they must still read as they should, every seat. */
    assert_int_equal(outcome.players, 2);
    assert_non_null(strstr(outcome.fault_message[0], "no answer within"));
    assert_non_null(strstr(outcome.fallback_last[0], "timeout: no answer within"));
    assert_string_equal(outcome.error, "");
    assert_string_equal(outcome.log_error, "");
    for (int s = 1; s < ARENA_MAX_SEATS; s++) {
        assert_string_equal(outcome.fault_message[s], "");
        assert_string_equal(outcome.fallback_last[s], "");
        assert_string_equal(outcome.bot_log_last[s], "");
        if (s >= 2) {
            assert_string_equal(outcome.stderr_tail[s], "");
            assert_int_equal(outcome.ranks[s], 0);
            assert_int_equal(outcome.fallbacks[s], 0);
            assert_int_equal(outcome.decisions[s], 0);
        }
    }
    /* Each strike was charged its move's 20 ms at least: the clock of a
     * decide that never got out runs from when the output backed up (a
     * lower bound only: lateness is the machine's). */
    assert_true(outcome.time_ms[0] >= 8 * 20);
    assert_true(took >= 8 * 20);
}

int main(int argc, char **argv)
{
    arena_builtins_install();
    if (argc > 1 && strcmp(argv[1], "--deaf-bot") == 0) return deaf_bot();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_agent_that_stops_reading_times_out),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
