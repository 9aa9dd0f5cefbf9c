/* bench-pingpong: the floors under the referee's decision rate.
 *
 * Ping-pong: two processes bounce frames over a pair of pipes, one
 * `decide`-sized frame one way and one `act`-sized frame back, with no
 * decoding or game logic at all. The sizes are those of real nim frames,
 * encoded with the protocol library, so `arena play nim` decisions/s can be
 * compared with round trips/s here.
 *
 * Same-bots floor (--bots PROGRAM): a do-nothing referee. It starts two
 * PROGRAM bots (random-c: `--seed 1` and `--seed 2`, with `--json` in
 * JSON), reads their `join`s, then sends them in turn the same pre-encoded
 * nim `decide` and reads each whole `act`, waiting for it in epoll as a
 * referee of several agents must (one epoll_wait a decision, as the
 * arena's loop). It pays what any referee of those bots must (the pipes,
 * the wake-ups, the process switches, the bots' own work) and nothing
 * else, and reports its own CPU apart from the whole system's.
 *
 *   bench-pingpong [--rounds N] [--peers N | --bots PROGRAM]
 *                  [--codec msgpack|json] [--json] */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "codec.h"
#include "messages.h"
#include "util.h"

/* A mid-game nim decision for seat 0 of 2 as the referee sends it (checked
 * against a captured frame: 313 bytes in msgpack): three options, the seat's
 * view, and the two moves since its previous answer as events. */
static av *take_event(int seat, int n, int left)
{
    av *e = av_map();
    av_set_str(e, "type", "take");
    av_set_int(e, "seat", seat);
    av_set_int(e, "n", n);
    av_set_int(e, "left", left);
    return e;
}

static void encode_decide(codec_kind codec, abuf *out)
{
    char *labels[] = {"stone:1", "stone:2", "stone:3"};
    av *view = av_map();
    av_set_int(view, "stones", 15);
    av_set_int(view, "max_take", 3);
    av_set_int(view, "to_move", 0);
    av_set(view, "taken", av_push(av_push(av_list(), av_int(4)), av_int(2)));
    av_set_int(view, "secret", 896096);
    av *events = av_push(av_push(av_list(), take_event(0, 1, 16)), take_event(1, 1, 15));
    msg m = {
        .type = MSG_DECIDE,
        .u.decide = {
            .id = 3,
            .kind = "take",
            .prompt = "15 stones left; pick 1 to 3 stones to take",
            .labels = labels,
            .n_options = 3,
            .pick = {.min = 1, .max = 3, .ordered = false},
            .view = view,
            .events = events,
            .clock = {
                .move_ms = 1000, .bank_ms = 10000, .game_ms = -1, .startup_ms = -1, .mode = ""}}};
    av *map = msg_encode(&m);
    codec_encode(codec, map, out);
    av_free(map);
    av_free(view);
    av_free(events);
}

static void encode_act(codec_kind codec, abuf *out)
{
    int64_t choice[] = {0, 1};
    msg m = {.type = MSG_ACT, .u.act = {.id = 3, .choice = choice, .n_choice = 2}};
    av *map = msg_encode(&m);
    codec_encode(codec, map, out);
    av_free(map);
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

/* Reads exactly n bytes; -1 on error or EOF. */
static int read_all(int fd, uint8_t *p, size_t n)
{
    while (n > 0) {
        ssize_t r = read(fd, p, n);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) return -1;
        p += r;
        n -= (size_t)r;
    }
    return 0;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double cpu_s(int who)
{
    struct rusage ru;
    getrusage(who, &ru);
    return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
           (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
}

/* Reads one whole frame (msgpack: length-prefixed; JSON: a line) from fd
 * into buf (cap bytes); -1 on error, EOF or a frame larger than buf. A bot
 * writes an answer whole, so this is one read a frame. */
static int read_frame(int fd, uint8_t *buf, size_t cap, bool json)
{
    size_t have = 0;
    for (;;) {
        if (json ? memchr(buf, '\n', have) != NULL
                 : have >= 4 && have >= 4 + ((size_t)buf[0] << 24 | (size_t)buf[1] << 16 |
                                             (size_t)buf[2] << 8 | buf[3]))
            return 0;
        if (have == cap) return -1;
        ssize_t r = read(fd, buf + have, cap - have);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) return -1;
        have += (size_t)r;
    }
}

typedef struct peer {
    pid_t pid;
    int down, up; /* referee -> bot, bot -> referee */
} peer;

/* Forks one "bot": it waits for a decide-sized frame and answers with the
 * act frame, until its input closes. */
static int spawn_peer(peer *p, const peer *older, long n_older, const abuf *decide, const abuf *act,
                      uint8_t *buf)
{
    int down[2], up[2];
    if (pipe(down) < 0 || pipe(up) < 0) return -1;
    p->pid = fork();
    if (p->pid < 0) return -1;
    if (p->pid == 0) {
        close(down[1]);
        close(up[0]);
        /* Older peers' pipe ends would keep them from ever seeing EOF. */
        for (long k = 0; k < n_older; k++) {
            close(older[k].down);
            close(older[k].up);
        }
        while (read_all(down[0], buf, decide->len) == 0)
            if (write_all(up[1], act->data, act->len) < 0) break;
        _exit(0);
    }
    close(down[0]);
    close(up[1]);
    p->down = down[1];
    p->up = up[0];
    return 0;
}

/* Starts `prog --seed SEED [--json]` on a pipe pair and reads its join. */
static int spawn_bot(peer *p, const peer *older, long n_older, const char *prog, int seed,
                     bool json, uint8_t *buf, size_t cap)
{
    int down[2], up[2];
    if (pipe(down) < 0 || pipe(up) < 0) return -1;
    p->pid = fork();
    if (p->pid < 0) return -1;
    if (p->pid == 0) {
        dup2(down[0], 0);
        dup2(up[1], 1);
        close(down[0]);
        close(down[1]);
        close(up[0]);
        close(up[1]);
        for (long k = 0; k < n_older; k++) {
            close(older[k].down);
            close(older[k].up);
        }
        char s[16];
        snprintf(s, sizeof s, "%d", seed);
        execl(prog, prog, "--seed", s, json ? "--json" : (char *)NULL, (char *)NULL);
        _exit(127);
    }
    close(down[0]);
    close(up[1]);
    p->down = down[1];
    p->up = up[0];
    return read_frame(p->up, buf, cap, json);
}

int main(int argc, char **argv)
{
    long rounds = 100000, peers = 1;
    const char *bots = NULL;
    codec_kind codec = CODEC_MSGPACK;
    int json = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--rounds") == 0 && i + 1 < argc) {
            rounds = strtol(argv[++i], NULL, 10);
        } else if (strcmp(argv[i], "--peers") == 0 && i + 1 < argc) {
            peers = strtol(argv[++i], NULL, 10);
        } else if (strcmp(argv[i], "--bots") == 0 && i + 1 < argc) {
            bots = argv[++i];
            peers = 2;
        } else if (strcmp(argv[i], "--codec") == 0 && i + 1 < argc) {
            codec = codec_parse(argv[++i]);
        } else if (strcmp(argv[i], "--json") == 0) {
            json = 1;
        } else {
            codec = CODEC_NONE;
            break;
        }
    }
    if (rounds < 1 || peers < 1 || peers > 16 || codec == CODEC_NONE) {
        fprintf(stderr, "usage: bench-pingpong [--rounds N] [--peers 1..16 | --bots PROGRAM] "
                        "[--codec msgpack|json] [--json]\n");
        return 2;
    }

    abuf decide = {0}, act = {0};
    encode_decide(codec, &decide);
    encode_act(codec, &act);
    bool json_codec = codec == CODEC_JSON;
    size_t cap = bots ? 4096 : decide.len > act.len ? decide.len : act.len;
    uint8_t *buf = xmalloc(cap);

    /* --peers 2 mirrors a two-player game: the referee alternates between
     * two bot processes, one round trip per decision. */
    peer p[16];
    for (long k = 0; k < peers; k++) {
        if (bots ? spawn_bot(&p[k], p, k, bots, (int)k + 1, json_codec, buf, cap) < 0
                 : spawn_peer(&p[k], p, k, &decide, &act, buf) < 0) {
            fprintf(stderr, "bench-pingpong: %s did not start\n", bots ? bots : "a peer");
            return 1;
        }
    }

    int ep = -1;
    if (bots) {
        ep = epoll_create1(EPOLL_CLOEXEC);
        for (long k = 0; k < peers; k++) {
            struct epoll_event ev = {.events = EPOLLIN, .data.u64 = (uint64_t)k};
            if (ep < 0 || epoll_ctl(ep, EPOLL_CTL_ADD, p[k].up, &ev) < 0) {
                perror("bench-pingpong: epoll");
                return 1;
            }
        }
    }

    double t0 = now_s(), self0 = cpu_s(RUSAGE_SELF);
    for (long r = 0; r < rounds; r++) {
        const peer *q = &p[r % peers];
        struct epoll_event ev;
        if (write_all(q->down, decide.data, decide.len) < 0 ||
            (bots && epoll_wait(ep, &ev, 1, -1) != 1) ||
            (bots ? read_frame(q->up, buf, cap, json_codec) : read_all(q->up, buf, act.len)) < 0) {
            fprintf(stderr, "bench-pingpong: a peer went away\n");
            return 1;
        }
    }
    double secs = now_s() - t0, self = cpu_s(RUSAGE_SELF) - self0;
    if (ep >= 0) close(ep);
    for (long k = 0; k < peers; k++) {
        close(p[k].down);
        close(p[k].up);
        waitpid(p[k].pid, NULL, 0);
    }

    double rate = (double)rounds / secs, us = secs * 1e6 / (double)rounds;
    /* CPU of both sides (the peers were waited for): on a shared machine
     * steadier than the wall clock. */
    double cpu = cpu_s(RUSAGE_SELF) + cpu_s(RUSAGE_CHILDREN);
    if (json) {
        printf("{\"codec\":\"%s\",\"peers\":%ld,\"bots\":%s,\"decide_bytes\":%zu,"
               "\"act_bytes\":%zu,\"rounds\":%ld,\"seconds\":%.6f,\"round_trips_per_s\":%.1f,"
               "\"us_per_round_trip\":%.3f,\"cpu_us_per_round_trip\":%.3f,"
               "\"referee_cpu_us_per_round_trip\":%.3f}\n",
               codec_name(codec), peers, bots ? "true" : "false", decide.len, act.len, rounds, secs,
               rate, us, cpu * 1e6 / (double)rounds, self * 1e6 / (double)rounds);
    } else {
        printf("codec %s, %ld peer(s): decide frame %zu bytes, act frame %zu bytes\n",
               codec_name(codec), peers, decide.len, act.len);
        printf("%ld round trips in %.3f s: %.0f round trips/s, %.2f us per round trip\n", rounds,
               secs, rate, us);
        printf("CPU per round trip: %.2f us in all, %.2f us of this process\n",
               cpu * 1e6 / (double)rounds, self * 1e6 / (double)rounds);
    }
    free(buf);
    abuf_free(&decide);
    abuf_free(&act);
    return 0;
}
