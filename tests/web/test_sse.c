/* Broadcasts to spectators' streams (web/sse.h) on a real evhttp server
 * and real sockets: a broadcast leaves its caller at once and goes out on
 * later turns of the loop, each stream gets every event in order while
 * broadcasts overlap, and a loop that never gets to its background does
 * not let them pile up: past SSE_PEND_MAX they go out at once. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <arpa/inet.h>
#include <errno.h>
#include <event2/event.h>
#include <event2/http.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "match.h"
#include "sse.h"

#define STREAMS 40 /* two and a half batches of a broadcast */
#define EVENTS 200

typedef struct reader {
    int fd;
    char buf[1 << 16];
    size_t len;
} reader;

typedef struct fixture {
    struct event_base *base;
    struct evhttp *http;
    sse_hub hub;
    sse_group *group;
    reader r[STREAMS];
} fixture;

static void on_request(struct evhttp_request *req, void *arg)
{
    fixture *f = arg;
    assert_non_null(sse_open(&f->hub, f->group, req, NULL));
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Reads what each stream has for it, without waiting. */
static void read_all(fixture *f)
{
    for (int i = 0; i < STREAMS; i++) {
        reader *r = &f->r[i];
        ssize_t n;
        while (r->len < sizeof r->buf - 1 &&
               (n = read(r->fd, r->buf + r->len, sizeof r->buf - 1 - r->len)) > 0)
            r->len += (size_t)n;
        r->buf[r->len] = '\0';
    }
}

/* The numbers of the events stream i got, in order; their count. */
static int events_of(const reader *r, int *seen, int max)
{
    int n = 0;
    for (const char *p = r->buf; (p = strstr(p, "data: ")) != NULL && n < max; p += 6)
        seen[n++] = atoi(p + 6);
    return n;
}

/* Turns the loop until every stream has `want` events, 20 s at most. */
static void run_until_read(fixture *f, int want)
{
    int seen[EVENTS + 1];
    double end = now_s() + 20;
    for (;;) {
        event_base_loop(f->base, EVLOOP_NONBLOCK);
        read_all(f);
        int short_of = 0;
        for (int i = 0; i < STREAMS; i++)
            short_of += events_of(&f->r[i], seen, EVENTS + 1) < want;
        if (!short_of) return;
        if (now_s() > end) fail_msg("%d streams short of %d events after 20 s", short_of, want);
        usleep(1000);
    }
}

static int setup(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    f->base = match_loop_new();
    f->http = evhttp_new(f->base);
    f->hub = (sse_hub){.max = 1000, .buffer = 1 << 20};
    f->group = sse_group_new();
    evhttp_set_gencb(f->http, on_request, f);
    struct evhttp_bound_socket *bound = evhttp_bind_socket_with_handle(f->http, "127.0.0.1", 0);
    assert_non_null(bound);
    struct sockaddr_in addr;
    socklen_t alen = sizeof addr;
    assert_int_equal(
        getsockname(evhttp_bound_socket_get_fd(bound), (struct sockaddr *)&addr, &alen), 0);
    static const char get[] = "GET /events HTTP/1.1\r\nHost: test\r\n\r\n";
    for (int i = 0; i < STREAMS; i++) {
        int fd = socket(AF_INET, SOCK_STREAM, 0);
        assert_true(fd >= 0);
        assert_int_equal(connect(fd, (struct sockaddr *)&addr, sizeof addr), 0);
        assert_int_equal(write(fd, get, sizeof get - 1), (ssize_t)(sizeof get - 1));
        fcntl(fd, F_SETFL, O_NONBLOCK);
        f->r[i].fd = fd;
    }
    double end = now_s() + 20;
    while (f->hub.n < STREAMS) {
        event_base_loop(f->base, EVLOOP_NONBLOCK);
        if (now_s() > end) fail_msg("%d of %d streams open after 20 s", f->hub.n, STREAMS);
        usleep(1000);
    }
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    sse_end_all(f->group, true);
    free(f->group);
    for (int i = 0; i < STREAMS; i++)
        close(f->r[i].fd);
    evhttp_free(f->http);
    event_base_free(f->base);
    free(f);
    return 0;
}

static void broadcast(fixture *f, int i)
{
    char ev[64];
    int n = snprintf(ev, sizeof ev, "event: board\ndata: %d\n\n", i);
    sse_broadcast(f->group, ev, (size_t)n);
}

static void assert_in_order(fixture *f, int want)
{
    int seen[EVENTS + 1];
    for (int i = 0; i < STREAMS; i++) {
        int n = events_of(&f->r[i], seen, EVENTS + 1);
        assert_int_equal(n, want);
        for (int k = 0; k < n; k++)
            if (seen[k] != k) fail_msg("stream %d: event %d is %d", i, k, seen[k]);
    }
}

/* Broadcasts made while earlier ones are going out, with turns of the loop
 * between some of them: each stream still gets all of them in order. */
static void test_overlapping_broadcasts_arrive_in_order(void **state)
{
    fixture *f = *state;
    for (int i = 0; i < 30; i++) {
        broadcast(f, i);
        assert_true(f->group->n_pend > 0); /* queued, not sent, in its caller */
        if (i % 3 == 2) event_base_loop(f->base, EVLOOP_NONBLOCK | EVLOOP_ONCE);
    }
    run_until_read(f, 30);
    assert_in_order(f, 30);
    assert_int_equal(f->group->n_pend, 0);
}

/* A loop that never runs its background between broadcasts (always
 * busy): the events waiting never pass SSE_PEND_MAX, and none is lost. */
static void test_a_busy_loop_does_not_pile_broadcasts_up(void **state)
{
    fixture *f = *state;
    for (int i = 0; i < EVENTS; i++) {
        broadcast(f, i);
        assert_true(f->group->n_pend <= SSE_PEND_MAX);
    }
    run_until_read(f, EVENTS);
    assert_in_order(f, EVENTS);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_overlapping_broadcasts_arrive_in_order, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_a_busy_loop_does_not_pile_broadcasts_up, setup,
                                        teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
