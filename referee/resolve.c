#include "resolve.h"

#include <errno.h>
#include <event2/event.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "util.h"

struct resolve_req {
    char *host, *port;
    int fds[2]; /* the thread writes a byte to fds[1] once it is done */
    struct event *ev;
    struct addrinfo *res;
    int err;
    atomic_bool done; /* res and err are set */
    atomic_int refs;  /* the thread's and its waiter's: the last one frees */
    resolve_done_fn cb;
    void *arg;
};

static const struct addrinfo HINTS = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM};

int resolve_numeric(const char *host, const char *port, struct addrinfo **res)
{
    struct addrinfo hints = HINTS;
    hints.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV;
    return getaddrinfo(host, port, &hints, res);
}

static void release(resolve_req *r)
{
    if (atomic_fetch_sub_explicit(&r->refs, 1, memory_order_acq_rel) != 1) return;
    if (r->res) freeaddrinfo(r->res);
    close(r->fds[0]);
    close(r->fds[1]);
    free(r->host);
    free(r->port);
    free(r);
}

static void *lookup(void *arg)
{
    resolve_req *r = arg;
    r->err = getaddrinfo(r->host, r->port, &HINTS, &r->res);
    atomic_store_explicit(&r->done, true, memory_order_release);
    ssize_t w;
    do
        w = write(r->fds[1], "", 1);
    while (w < 0 && errno == EINTR);
    release(r);
    return NULL;
}

/* A request with its pipe and the thread under way, or NULL (errno set). */
static resolve_req *start(const char *host, const char *port)
{
    resolve_req *r = xcalloc(1, sizeof *r);
    if (pipe2(r->fds, O_CLOEXEC | O_NONBLOCK) != 0) {
        free(r);
        return NULL;
    }
    r->host = xstrdup(host);
    r->port = xstrdup(port);
    atomic_init(&r->done, false);
    atomic_init(&r->refs, 2);
    /* Signals are the loop's (SIGCHLD, the stop signals): the thread takes
     * none of them, so it starts with all blocked. */
    sigset_t all, old;
    sigfillset(&all);
    pthread_attr_t at;
    pthread_attr_init(&at);
    pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    pthread_t t;
    int e = pthread_create(&t, &at, lookup, r);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    pthread_attr_destroy(&at);
    if (e != 0) {
        atomic_store(&r->refs, 1);
        release(r);
        errno = e;
        return NULL;
    }
    return r;
}

static void on_done(evutil_socket_t fd, short what, void *arg)
{
    (void)fd, (void)what;
    resolve_req *r = arg;
    event_free(r->ev);
    r->ev = NULL;
    /* The byte comes after done is set: this is the thread's result. */
    (void)atomic_load_explicit(&r->done, memory_order_acquire);
    struct addrinfo *res = r->res;
    int err = r->err;
    r->res = NULL;
    resolve_done_fn cb = r->cb;
    void *cb_arg = r->arg;
    release(r);
    cb(res, err, cb_arg);
}

resolve_req *resolve_start(struct event_base *base, const char *host, const char *port,
                           resolve_done_fn done, void *arg)
{
    resolve_req *r = start(host, port);
    if (!r) return NULL;
    r->cb = done;
    r->arg = arg;
    r->ev = event_new(base, r->fds[0], EV_READ, on_done, r);
    event_add(r->ev, NULL);
    return r;
}

void resolve_abandon(resolve_req *r)
{
    event_free(r->ev);
    r->ev = NULL;
    release(r);
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

int resolve_wait(const char *host, const char *port, int64_t timeout_ms, struct addrinfo **res,
                 int *timed_out)
{
    *res = NULL;
    *timed_out = 0;
    if (resolve_numeric(host, port, res) == 0) return 0;
    resolve_req *r = start(host, port);
    if (!r) return EAI_SYSTEM;
    double end = now_ms() + (double)timeout_ms;
    int err = EAI_AGAIN;
    for (;;) {
        if (atomic_load_explicit(&r->done, memory_order_acquire)) {
            *res = r->res;
            r->res = NULL;
            err = r->err;
            break;
        }
        double left = end - now_ms();
        if (left <= 0) {
            *timed_out = 1;
            break;
        }
        struct pollfd p = {.fd = r->fds[0], .events = POLLIN};
        poll(&p, 1, (int)left + 1);
    }
    release(r);
    return err;
}

int resolve_listen(const char *hostport, struct addrinfo **res, char *err, size_t errlen)
{
    char *host = xstrdup(hostport);
    char *colon = strrchr(host, ':');
    int rc = -1;
    if (!colon || colon == host) {
        snprintf(err, errlen, "--listen wants HOST:PORT, not '%s'", hostport);
        goto out;
    }
    *colon = 0;
    const char *h = host;
    if (h[0] == '[' && colon[-1] == ']') { /* [::1]:PORT */
        h++;
        colon[-1] = 0;
    }
    struct addrinfo hints = {
        .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM, .ai_flags = AI_PASSIVE};
    int g = getaddrinfo(h, colon + 1, &hints, res);
    if (g)
        snprintf(err, errlen, "--listen %s: %s", hostport, gai_strerror(g));
    else
        rc = 0;
out:
    free(host);
    return rc;
}
