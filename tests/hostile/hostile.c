/* hostile: an agent that breaks the protocol in one chosen way, for the
 * end-to-end fault tests. It speaks the protocol by hand (not through the
 * SDK) so that it can misbehave at any point.
 *
 *   hostile --fault F [--json] [--busy] [--pidfile FILE] [--report FILE]
 *
 * Faults (F):
 *   no_join       never sends join; sleeps
 *   slow          plays, then sleeps through its first decision
 *   wrong_id      answers its first decision with another id
 *   illegal       answers every decision with an out-of-range index
 *   big_frame     answers with a 2 MiB frame (above the 1 MiB cap)
 *   garbage       answers with bytes that do not decode in its codec
 *   crash         exits in the middle of the game (second decision)
 *   stderr_flood  plays correctly while writing 50 MB to stderr
 *   log_flood     plays correctly while sending 8 MB of small, legal `log`
 *                 messages on its protocol channel (2 MB before each answer)
 *   ignore_term   plays correctly, ignores SIGTERM, SIGHUP and EOF, and
 *                 keeps a child in its process group; never exits by itself
 *   many_keys     before its first answer, sends a `log` of almost
 *                 1 MiB whose map holds ~120,000 distinct keys (~90,000 in
 *                 JSON), more values than the protocol allows; plays legally
 *   close_linger  closes its stdout at its first decision and lives on for
 *                 a second: EOF without an exit to say how it died
 *
 * --busy waits for the referee's messages busy (polling its input without
 * blocking), so that it is runnable when one comes.
 *
 * --pidfile appends the pid of every process it creates (one per line), so
 * a test can check that the referee left none alive. --report appends one
 * line per message received ("decide ID", "error CODE STRIKES_LEFT", "over
 * REASON", "bye") for the tests that look at what the referee said. */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "codec.h"
#include "messages.h"
#include "util.h"

typedef enum {
    F_NO_JOIN,
    F_SLOW,
    F_WRONG_ID,
    F_ILLEGAL,
    F_BIG_FRAME,
    F_GARBAGE,
    F_CRASH,
    F_STDERR_FLOOD,
    F_IGNORE_TERM,
    F_MANY_KEYS,
    F_LOG_FLOOD,
    F_CLOSE_LINGER,
    F__COUNT
} fault;

static const char *const fault_names[F__COUNT] = {
    "no_join", "slow",         "wrong_id",    "illegal",   "big_frame", "garbage",
    "crash",   "stderr_flood", "ignore_term", "many_keys", "log_flood", "close_linger",
};

#define FLOOD_TOTAL (50u << 20)
#define FLOOD_PER_DECISION (10u << 20)
#define BIG_FRAME (2u << 20)
#define LOG_FLOOD_TOTAL (8u << 20)
#define LOG_FLOOD_PER_DECISION (2u << 20)

static codec_kind codec = CODEC_MSGPACK;
static FILE *report;
static size_t flooded;

static void write_all(const void *p, size_t n, int fd)
{
    const char *c = p;
    while (n > 0) {
        ssize_t w = write(fd, c, n);
        if (w < 0) {
            if (errno == EINTR) continue;
            /* The referee cut us off: nothing more to do. */
            _exit(0);
        }
        c += w;
        n -= (size_t)w;
    }
}

static void send_msg(const msg *m)
{
    av *map = msg_encode(m);
    abuf b = {0};
    codec_encode(codec, map, &b);
    write_all(b.data, b.len, STDOUT_FILENO);
    abuf_free(&b);
    av_free(map);
}

static void send_act(uint64_t id, int64_t *choice, size_t n)
{
    msg m = {.type = MSG_ACT, .u.act = {.id = id, .choice = choice, .n_choice = n}};
    send_msg(&m);
}

/* Never returns: for the faults that hang on purpose until killed. */
static void sleep_forever(void)
{
    for (;;)
        pause();
}

static void note_pid(const char *pidfile)
{
    if (!pidfile) return;
    FILE *f = fopen(pidfile, "a");
    if (!f) return;
    fprintf(f, "%d\n", (int)getpid());
    fclose(f);
}

static void flood_stderr(size_t n)
{
    static char chunk[64 << 10];
    if (!chunk[0]) {
        memset(chunk, 'x', sizeof chunk);
        for (size_t i = 99; i < sizeof chunk; i += 100)
            chunk[i] = '\n';
    }
    while (n > 0 && flooded < FLOOD_TOTAL) {
        size_t k = n < sizeof chunk ? n : sizeof chunk;
        write_all(chunk, k, STDERR_FILENO);
        n -= k;
        flooded += k;
    }
}

/* Whole `log` frames, ~100 bytes each, in ~60 KiB writes: many messages per
 * read on the referee's side, each one legal. */
static void flood_logs(size_t n)
{
    static abuf chunk;
    static size_t sent;
    if (chunk.len == 0) {
        char text[80];
        memset(text, 'y', sizeof text - 1);
        text[sizeof text - 1] = '\0';
        msg m = {.type = MSG_LOG, .u.log.text = text};
        while (chunk.len < (60u << 10)) {
            av *map = msg_encode(&m);
            codec_encode(codec, map, &chunk);
            av_free(map);
        }
    }
    for (size_t done = 0; done < n && sent < LOG_FLOOD_TOTAL; done += chunk.len) {
        write_all(chunk.data, chunk.len, STDOUT_FILENO);
        sent += chunk.len;
    }
}

/* The least legal answer size; nim always allows taking one stone. */
static void play_legal(const msg_decide *d)
{
    int64_t n = d->pick.min > 0 ? d->pick.min : (d->pick.max > 0 ? 1 : 0);
    int64_t *choice = xcalloc((size_t)n + 1, sizeof *choice);
    for (int64_t i = 0; i < n; i++)
        choice[i] = i;
    send_act(d->id, choice, (size_t)n);
    free(choice);
}

static void send_big_frame(const msg_decide *d)
{
    int64_t zero = 0;
    msg m = {.type = MSG_ACT, .u.act = {.id = d->id, .choice = &zero, .n_choice = 1}};
    av *map = msg_encode(&m);
    char *pad = xmalloc(BIG_FRAME + 1);
    memset(pad, 'p', BIG_FRAME);
    pad[BIG_FRAME] = '\0';
    av_set_str(map, "pad", pad); /* an unknown key: legal except for size */
    free(pad);
    abuf b = {0};
    codec_encode(codec, map, &b);
    write_all(b.data, b.len, STDOUT_FILENO);
    abuf_free(&b);
    av_free(map);
}

static void send_garbage(void)
{
    if (codec == CODEC_MSGPACK) {
        /* A well-formed length, then 0xc1: a byte msgpack never uses. */
        static const unsigned char bad[] = {0,    0,    0,    8,    0xc1, 0xc1,
                                            0xc1, 0xc1, 0xc1, 0xc1, 0xc1, 0xc1};
        write_all(bad, sizeof bad, STDOUT_FILENO);
    } else {
        static const char bad[] = "{\"type\": \"act\", \"id\": \x01 garbage ]]\n";
        write_all(bad, sizeof bad - 1, STDOUT_FILENO);
    }
}

/* A `log` with 120,000 distinct keys besides type and text, padded to just
 * under the 1 MiB cap. Written byte by byte: building it as a value tree
 * would time the very code under test. */
#define MANY_KEYS 120000
static void send_many_keys_log(void)
{
    abuf b = {0};
    char k[16];
    if (codec == CODEC_MSGPACK) {
        static const uint8_t head[] = {0,    0,   0,   0,   0xdf, 0,    0,   0,   0,
                                       0xa4, 't', 'y', 'p', 'e',  0xa3, 'l', 'o', 'g'};
        abuf_add(&b, head, sizeof head);
        for (unsigned i = 0; i < MANY_KEYS; i++) {
            int n = snprintf(k, sizeof k, "k%x", i);
            abuf_addc(&b, (char)(0xa0 | n));
            abuf_add(&b, k, (size_t)n);
            abuf_addc(&b, (char)(i & 0x7f));
        }
        size_t text = PROTO_MAX_FRAME_DEFAULT - 64 - (b.len - 4); /* pad with the text */
        uint8_t th[10] = {0xa4,
                          't',
                          'e',
                          'x',
                          't',
                          0xdb,
                          (uint8_t)(text >> 24),
                          (uint8_t)(text >> 16),
                          (uint8_t)(text >> 8),
                          (uint8_t)text};
        abuf_add(&b, th, sizeof th);
        for (size_t i = 0; i < text; i++)
            abuf_addc(&b, 'x');
        size_t len = b.len - 4, count = MANY_KEYS + 2;
        for (int i = 0; i < 4; i++) {
            b.data[3 - i] = (uint8_t)(len >> (8 * i));
            b.data[8 - i] = (uint8_t)(count >> (8 * i));
        }
    } else {
        /* JSON spends more bytes a key: as many as fit (about 90,000) */
        abuf_adds(&b, "{\"type\":\"log\"");
        for (unsigned i = 0; i < MANY_KEYS && b.len < PROTO_MAX_FRAME_DEFAULT - 128; i++)
            abuf_addf(&b, ",\"k%x\":%u", i, i & 0x7f);
        abuf_adds(&b, ",\"text\":\"");
        while (b.len < PROTO_MAX_FRAME_DEFAULT - 64)
            abuf_addc(&b, 'x');
        abuf_adds(&b, "\"}\n");
    }
    write_all(b.data, b.len, STDOUT_FILENO);
    abuf_free(&b);
}

static void on_decide(fault f, const msg_decide *d, int nth)
{
    switch (f) {
    case F_SLOW: sleep_forever(); break;
    case F_WRONG_ID: {
        int64_t zero = 0;
        send_act(d->id + 1000, &zero, 1);
        break;
    }
    case F_ILLEGAL: {
        int64_t bad = (int64_t)d->n_options + 5;
        send_act(d->id, &bad, 1);
        break;
    }
    case F_BIG_FRAME: send_big_frame(d); break;
    case F_GARBAGE: send_garbage(); break;
    case F_MANY_KEYS:
        if (nth == 1) send_many_keys_log();
        play_legal(d);
        break;
    case F_CLOSE_LINGER:
        close(STDOUT_FILENO);
        sleep(1);
        _exit(0);
    case F_CRASH:
        if (nth == 2) _exit(3);
        play_legal(d);
        break;
    case F_STDERR_FLOOD:
        flood_stderr(FLOOD_PER_DECISION);
        play_legal(d);
        break;
    case F_LOG_FLOOD:
        flood_logs(LOG_FLOOD_PER_DECISION);
        play_legal(d);
        break;
    default: play_legal(d); break;
    }
}

static void log_report(const msg *m)
{
    if (!report) return;
    switch (m->type) {
    case MSG_DECIDE: fprintf(report, "decide %llu\n", (unsigned long long)m->u.decide.id); break;
    case MSG_ERROR:
        fprintf(report, "error %s %lld\n", m->u.error.code, (long long)m->u.error.strikes_left);
        break;
    case MSG_OVER: fprintf(report, "over %s\n", m->u.over.reason); break;
    default: fprintf(report, "%s\n", msg_type_name(m->type)); break;
    }
    fflush(report);
}

/* After the last game: ordinary faults just exit; ignore_term lingers. */
static int finish(fault f)
{
    if (f == F_IGNORE_TERM) sleep_forever();
    return 0;
}

int main(int argc, char **argv)
{
    fault f = F__COUNT;
    const char *pidfile = NULL, *report_path = NULL;
    bool busy = false;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--json") == 0) {
            codec = CODEC_JSON;
        } else if (strcmp(argv[i], "--busy") == 0) {
            busy = true;
        } else if (strcmp(argv[i], "--fault") == 0 && i + 1 < argc) {
            i++;
            for (int k = 0; k < F__COUNT; k++)
                if (strcmp(argv[i], fault_names[k]) == 0) f = (fault)k;
        } else if (strcmp(argv[i], "--pidfile") == 0 && i + 1 < argc) {
            pidfile = argv[++i];
        } else if (strcmp(argv[i], "--report") == 0 && i + 1 < argc) {
            report_path = argv[++i];
        } else {
            f = F__COUNT;
            break;
        }
    }
    if (f == F__COUNT) {
        fprintf(stderr,
                "usage: hostile --fault F [--json] [--busy] [--pidfile FILE] [--report FILE]\n");
        return 2;
    }
    note_pid(pidfile);
    if (report_path) report = fopen(report_path, "a");
    signal(SIGPIPE, SIG_IGN);

    if (f == F_IGNORE_TERM) {
        signal(SIGTERM, SIG_IGN);
        signal(SIGHUP, SIG_IGN);
        pid_t child = fork();
        if (child == 0) { /* same process group; inherits the ignored signals */
            note_pid(pidfile);
            sleep_forever();
        }
    }
    if (f == F_NO_JOIN) sleep_forever();

    msg join = {.type = MSG_JOIN, .u.join = {.name = (char *)fault_names[f]}};
    send_msg(&join);

    frame_decoder dec;
    frame_decoder_init(&dec, PROTO_MAX_FRAME_DEFAULT, codec);
    int decisions = 0;
    for (;;) {
        av *map = NULL;
        int r = frame_decoder_next(&dec, &map);
        if (r < 0) {
            fprintf(stderr, "hostile: bad frame from the referee: %s\n", dec.error);
            return 1;
        }
        if (r == 0) {
            struct pollfd in = {.fd = STDIN_FILENO, .events = POLLIN};
            while (busy && poll(&in, 1, 0) == 0) {
            }
            char buf[65536];
            ssize_t n = read(STDIN_FILENO, buf, sizeof buf);
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) {
                frame_decoder_free(&dec);
                return finish(f);
            }
            frame_decoder_feed(&dec, buf, (size_t)n);
            continue;
        }
        msg m;
        char err[200];
        int rc = msg_decode(map, &m, err, sizeof err);
        av_free(map);
        if (rc < 0) {
            fprintf(stderr, "hostile: bad message from the referee: %s\n", err);
            return 1;
        }
        log_report(&m);
        if (m.type == MSG_HELLO) {
            msg ready = {.type = MSG_READY};
            send_msg(&ready);
        } else if (m.type == MSG_DECIDE) {
            on_decide(f, &m.u.decide, ++decisions);
        } else if (m.type == MSG_BYE) {
            msg_free(&m);
            frame_decoder_free(&dec);
            return finish(f);
        }
        msg_free(&m);
    }
}
