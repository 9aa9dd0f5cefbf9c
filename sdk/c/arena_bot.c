/* The protocol loop of the C SDK: blocking reads into the streaming frame
 * decoder, one callback per message, one blocking write per answer. */
#include "arena_bot.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "decide_fast.h"
#include "framewrite.h"
#include "util.h"

struct arena_session {
    int in_fd, out_fd;
    codec_kind codec;
    const arena_bot *bot;
    frame_decoder dec;
    abuf out;
    msg hello;
    bool have_hello;
    int64_t *choice; /* decide's answer buffer, kept between decisions */
    size_t choice_cap;
    bool skip_state; /* arena_bot_options.skip_state */
    decide_buf dbuf; /* a fast-path decide's strings, kept between decisions */
    char err[300];
};

void *arena_session_user(const arena_session *s)
{
    return s->bot->user;
}

const msg_hello *arena_session_hello(const arena_session *s)
{
    return s->have_hello ? &s->hello.u.hello : NULL;
}

static int fail(arena_session *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(arena_session *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s->err, sizeof s->err, fmt, ap);
    va_end(ap);
    return -1;
}

static int write_all(int fd, const uint8_t *p, size_t n)
{
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

static int send_frame(arena_session *s, const char *what)
{
    if (write_all(s->out_fd, s->out.data, s->out.len) < 0)
        return fail(s, "cannot send %s: %s", what, strerror(errno));
    return 0;
}

/* Encodes m into one frame and writes it whole. */
static int send_msg(arena_session *s, const msg *m)
{
    av *map = msg_encode(m);
    s->out.len = 0;
    codec_encode(s->codec, map, &s->out);
    av_free(map);
    return send_frame(s, msg_type_name(m->type));
}

/* Starts a message of `fields` keys, `type` first, straight into the
 * output buffer, in the key order msg_encode uses. */
static void start_message(arena_session *s, frame_writer *w, const char *type, size_t fields)
{
    s->out.len = 0;
    fw_begin(w, s->codec, &s->out);
    fw_map(w, fields);
    FW_KEY(w, "type");
    fw_str(w, type, strlen(type));
}

/* The answer to a decide, written straight into the output buffer: the
 * same bytes as send_msg would write for the act message. */
static int send_act(arena_session *s, uint64_t id, const int64_t *choice, size_t n)
{
    frame_writer w;
    start_message(s, &w, "act", 3);
    FW_KEY(&w, "id");
    fw_int(&w, (int64_t)id);
    FW_KEY(&w, "choice");
    fw_list(&w, n);
    for (size_t i = 0; i < n; i++)
        fw_int(&w, choice[i]);
    fw_end(&w);
    fw_end(&w);
    fw_finish(&w);
    return send_frame(s, "act");
}

/* The answer to a hello, the same way: no message tree on a game's first
 * wake-up either. */
static int send_ready(arena_session *s)
{
    frame_writer w;
    start_message(s, &w, "ready", 1);
    fw_end(&w);
    fw_finish(&w);
    return send_frame(s, "ready");
}

int arena_session_log(arena_session *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *text = xvasprintf(fmt, ap);
    va_end(ap);
    msg m = {.type = MSG_LOG, .u.log.text = text};
    int rc = send_msg(s, &m);
    free(text);
    return rc;
}

typedef struct fast_ctx {
    arena_session *s;
    msg *out;
} fast_ctx;

/* The fast path of next_msg: a well-formed decide straight into the msg,
 * its strings in the session's dbuf; or a hello or over. */
static bool read_fast(void *ctx, codec_kind c, const uint8_t *p, size_t n)
{
    fast_ctx *f = ctx;
    return msg_decide_fast(c, p, n, f->s->skip_state, &f->s->dbuf, f->out) ||
           msg_hello_over_fast(c, p, n, f->s->skip_state, f->out);
}

/* 1: *out holds the next message (*borrowed: a fast-path decide, released
 * by msg_decide_fast_release; else msg_free); 0: clean end of input; -1:
 * failure. */
static int next_msg(arena_session *s, msg *out, bool *borrowed)
{
    fast_ctx f = {s, out};
    for (;;) {
        av *map = NULL;
        int r = frame_decoder_next_fast(&s->dec, read_fast, &f, &map);
        if (r < 0) return fail(s, "bad frame from the referee: %s", s->dec.error);
        *borrowed = r == 2 && out->type == MSG_DECIDE;
        if (r == 2) return 1;
        if (r > 0) {
            char why[200];
            int rc = msg_decode_take(map, out, why, sizeof why);
            av_free(map);
            if (rc < 0) return fail(s, "bad message from the referee: %s", why);
            if (s->skip_state) msg_drop_state(out); /* as the fast path has it */
            return 1;
        }
        /* Straight into the decoder: no copy, and no big stack buffer to
         * touch on every decision. */
        size_t room;
        uint8_t *p = frame_decoder_space(&s->dec, 4096, &room);
        ssize_t n = read(s->in_fd, p, room);
        if (n < 0) {
            if (errno == EINTR) continue;
            return fail(s, "read: %s", strerror(errno));
        }
        if (n == 0) {
            if (frame_decoder_pending(&s->dec) == 0) return 0;
            return fail(s, "connection closed in the middle of a message");
        }
        frame_decoder_commit(&s->dec, (size_t)n);
    }
}

static int on_decide(arena_session *s, const msg_decide *d)
{
    if (d->n_options + 1 > s->choice_cap) {
        s->choice_cap = d->n_options + 1;
        free(s->choice);
        s->choice = xmalloc(s->choice_cap * sizeof *s->choice);
    }
    int64_t *choice = s->choice;
    memset(choice, 0, (d->n_options + 1) * sizeof *choice);
    int n = s->bot->decide(s, d, choice);
    int rc;
    if (n < 0) {
        rc = fail(s, "the bot gave up on decision %llu", (unsigned long long)d->id);
    } else if ((size_t)n > d->n_options) {
        rc = fail(s, "decide returned %d choices for %zu options", n, d->n_options);
    } else {
        rc = send_act(s, d->id, choice, (size_t)n);
    }
    return rc;
}

/* Handles one message: 1 to go on, 0 on bye, -1 on failure. Takes m
 * (borrowed: see next_msg). */
static int dispatch(arena_session *s, msg *m, bool borrowed)
{
    const arena_bot *b = s->bot;
    int rc = 1;
    switch (m->type) {
    case MSG_HELLO: {
        if (s->have_hello) msg_free(&s->hello);
        s->hello = *m; /* kept (not freed) for arena_session_hello */
        s->have_hello = true;
        if (b->on_hello && b->on_hello(s, &s->hello.u.hello) != 0)
            return fail(s, "the bot refused game %s", s->hello.u.hello.game);
        return send_ready(s) < 0 ? -1 : 1;
    }
    case MSG_DECIDE:
        if (on_decide(s, &m->u.decide) < 0) rc = -1;
        break;
    case MSG_EVENT:
        if (b->on_event) b->on_event(s, m->u.event.events);
        break;
    case MSG_OVER:
        if (b->on_over) b->on_over(s, &m->u.over);
        break;
    case MSG_ERROR:
        if (b->on_error) b->on_error(s, &m->u.error);
        /* A protocol error (a refused join among them) ends the connection:
         * the bot must not exit 0 as if it had played. */
        if (m->u.error.code && strcmp(m->u.error.code, "protocol") == 0)
            rc = fail(s, "the referee ended the connection: %s",
                      m->u.error.message ? m->u.error.message : "(no message)");
        break;
    case MSG_BYE: rc = 0; break;
    default: rc = fail(s, "unexpected '%s' from the referee", msg_type_name(m->type)); break;
    }
    if (borrowed)
        msg_decide_fast_release(m);
    else
        msg_free(m);
    return rc;
}

int arena_bot_run_fds(int in_fd, int out_fd, const char *token, const arena_bot *bot,
                      const arena_bot_options *opts)
{
    static const arena_bot_options defaults = {0};
    if (!opts) opts = &defaults;
    /* A referee that went away must surface as a write error. */
    signal(SIGPIPE, SIG_IGN);

    arena_session s = {
        .in_fd = in_fd, .out_fd = out_fd, .bot = bot, .skip_state = opts->skip_state};
    s.codec = opts->codec == CODEC_JSON ? CODEC_JSON : CODEC_MSGPACK;
    frame_decoder_init(&s.dec, opts->max_frame ? opts->max_frame : PROTO_MAX_FRAME_DEFAULT,
                       s.codec);

    int rc;
    if (!bot || !bot->name || !bot->decide) {
        rc = fail(&s, "arena_bot needs a name and a decide callback");
    } else {
        msg join = {.type = MSG_JOIN,
                    .u.join = {.name = (char *)bot->name,
                               .version = (char *)bot->version,
                               .author = (char *)bot->author,
                               .token = (char *)token}};
        rc = send_msg(&s, &join);
        while (rc >= 0) {
            msg m;
            bool borrowed = false;
            rc = next_msg(&s, &m, &borrowed);
            if (rc <= 0) break;
            rc = dispatch(&s, &m, borrowed);
            if (rc == 0) break;
        }
    }
    if (rc < 0 && !opts->quiet)
        fprintf(stderr, "%s: %s\n", bot && bot->name ? bot->name : "arena_bot", s.err);
    if (s.have_hello) msg_free(&s.hello);
    frame_decoder_free(&s.dec);
    abuf_free(&s.out);
    free(s.choice);
    decide_buf_free(&s.dbuf);
    return rc < 0 ? -1 : 0;
}

int arena_bot_run_stdio(const arena_bot *bot, const arena_bot_options *opts)
{
    /* The protocol gets a private copy of stdout and fd 1 becomes stderr, so
     * a stray printf in the bot lands in the match log instead of corrupting
     * the message stream. */
    fflush(stdout);
    int proto = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
    if (proto < 0 || dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
        if (proto >= 0) close(proto);
        return arena_bot_run_fds(STDIN_FILENO, STDOUT_FILENO, NULL, bot, opts);
    }
    int rc = arena_bot_run_fds(STDIN_FILENO, proto, NULL, bot, opts);
    fflush(stdout);
    dup2(proto, STDOUT_FILENO);
    close(proto);
    return rc;
}

static void say(const arena_bot *bot, const arena_bot_options *opts, const char *what,
                const char *host, const char *port, const char *why)
{
    if (opts && opts->quiet) return;
    fprintf(stderr, "%s: cannot %s %s:%s: %s\n", bot && bot->name ? bot->name : "arena_bot", what,
            host ? host : "*", port, why);
}

/* Small messages go out at once: one decision is one round trip. */
static void no_delay(int fd)
{
    int one = 1;
    (void)setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
}

int arena_bot_run_tcp(const char *host, const char *port, const char *token, const arena_bot *bot,
                      const arena_bot_options *opts)
{
    struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM}, *res, *ai;
    int gai = getaddrinfo(host, port, &hints, &res);
    if (gai != 0) {
        say(bot, opts, "resolve", host, port, gai_strerror(gai));
        return -1;
    }
    int fd = -1, err = 0;
    for (ai = res; ai; ai = ai->ai_next) {
        fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, ai->ai_protocol);
        if (fd < 0) {
            err = errno;
            continue;
        }
        if (connect(fd, ai->ai_addr, ai->ai_addrlen) == 0) break;
        err = errno;
        close(fd);
        fd = -1;
    }
    freeaddrinfo(res);
    if (fd < 0) {
        say(bot, opts, "connect to", host, port, strerror(err));
        return -1;
    }
    no_delay(fd);
    int rc = arena_bot_run_fds(fd, fd, token, bot, opts);
    close(fd);
    return rc;
}

int arena_bot_serve_tcp(const char *host, const char *port, const arena_bot *bot,
                        const arena_bot_options *opts)
{
    struct addrinfo hints = {.ai_family = AF_UNSPEC,
                             .ai_socktype = SOCK_STREAM,
                             .ai_flags = AI_PASSIVE},
                    *res, *ai;
    int gai = getaddrinfo(host, port, &hints, &res);
    if (gai != 0) {
        say(bot, opts, "resolve", host, port, gai_strerror(gai));
        return -1;
    }
    int lfd = -1, err = 0;
    for (ai = res; ai; ai = ai->ai_next) {
        lfd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, ai->ai_protocol);
        if (lfd < 0) {
            err = errno;
            continue;
        }
        int one = 1;
        (void)setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
        if (bind(lfd, ai->ai_addr, ai->ai_addrlen) == 0 && listen(lfd, 16) == 0) break;
        err = errno;
        close(lfd);
        lfd = -1;
    }
    freeaddrinfo(res);
    if (lfd < 0) {
        say(bot, opts, "listen on", host, port, strerror(err));
        return -1;
    }
    int max = opts ? opts->max_connections : 0;
    for (int served = 0; max == 0 || served < max;) {
        int fd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
        if (fd < 0) {
            if (errno == EINTR || errno == ECONNABORTED) continue;
            say(bot, opts, "accept on", host, port, strerror(errno));
            close(lfd);
            return -1;
        }
        no_delay(fd);
        /* A broken connection ends that referee's games, not the server. */
        (void)arena_bot_run_fds(fd, fd, NULL, bot, opts);
        close(fd);
        served++;
    }
    close(lfd);
    return 0;
}
