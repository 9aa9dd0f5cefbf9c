/* bench-scale-floor: the floor under `arena tournament --concurrency N`.
 * One process and one epoll set over the pipes of 2N peer processes, paired
 * as N two-seat "games": each pair has one decide-sized frame in flight,
 * sent to its two peers in turn, and each peer answers with an act-sized
 * frame. No encoding, no game, no clock: only the pipes, the wake-ups and
 * the scheduling that a referee of N concurrent matches cannot avoid.
 *
 *   bench-scale-floor N SECONDS [PEER FRAME]
 *       prints {"n":N,"round_trips_per_s":R}
 *
 * With PEER and FRAME, each peer is the program PEER (a real bot, e.g.
 * random-c) and the frame sent is the file FRAME (one whole length-prefixed
 * decide): the same loop with real bots' work in it, which separates the
 * bots' share of a tournament's cost from the referee's. */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* The sizes of a mid-game nim decide and its act (bench/pingpong). */
#define DECIDE_BYTES 313
#define ACT_BYTES 40

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static int full_io(int fd, void *buf, size_t n, int writing)
{
    size_t done = 0;
    while (done < n) {
        ssize_t r = writing ? write(fd, (char *)buf + done, n - done)
                            : read(fd, (char *)buf + done, n - done);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) return -1;
        done += (size_t)r;
    }
    return 0;
}

/* A peer: answers every decide with an act until its stdin closes; or,
 * given a program, that program on the same pipes. */
static void peer(int in, int out, const char *prog)
{
    /* Only its own pipes: the others' must see EOF when the parent closes. */
    dup2(in, 0);
    dup2(out, 1);
    close_range(3, ~0U, 0);
    if (prog) {
        execl(prog, prog, (char *)NULL);
        _exit(127);
    }
    in = 0;
    out = 1;
    char d[DECIDE_BYTES], a[ACT_BYTES];
    memset(a, 'a', sizeof a);
    while (full_io(in, d, sizeof d, 0) == 0)
        if (full_io(out, a, sizeof a, 1) != 0) break;
    _exit(0);
}

int main(int argc, char **argv)
{
    if (argc != 3 && argc != 5) {
        fprintf(stderr, "usage: bench-scale-floor N SECONDS [PEER FRAME]\n");
        return 2;
    }
    int n = atoi(argv[1]);
    double secs = atof(argv[2]);
    if (n < 1 || secs <= 0) return 2;
    const char *prog = argc == 5 ? argv[3] : NULL;
    static char d[1 << 16];
    size_t dn = DECIDE_BYTES;
    memset(d, 'd', dn);
    if (prog) {
        FILE *f = fopen(argv[4], "rb");
        dn = f ? fread(d, 1, sizeof d, f) : 0;
        if (f) fclose(f);
        if (dn < 5) {
            fprintf(stderr, "bench-scale-floor: cannot read a frame from %s\n", argv[4]);
            return 2;
        }
    }
    signal(SIGPIPE, SIG_IGN);
    int peers = 2 * n;
    int *to = calloc((size_t)peers, sizeof *to), *from = calloc((size_t)peers, sizeof *from);
    pid_t *pid = calloc((size_t)peers, sizeof *pid);
    int *turn = calloc((size_t)n, sizeof *turn);
    if (!to || !from || !pid || !turn) return 1;
    for (int i = 0; i < peers; i++) {
        int a[2], b[2];
        if (pipe2(a, O_CLOEXEC) || pipe2(b, O_CLOEXEC)) {
            perror("pipe");
            return 1;
        }
        pid[i] = fork();
        if (pid[i] == 0) peer(a[0], b[1], prog);
        close(a[0]);
        close(b[1]);
        to[i] = a[1];
        from[i] = b[0];
    }
    int ep = epoll_create1(EPOLL_CLOEXEC);
    for (int i = 0; i < peers; i++) {
        struct epoll_event ev = {.events = EPOLLIN, .data.u32 = (uint32_t)i};
        epoll_ctl(ep, EPOLL_CTL_ADD, from[i], &ev);
    }
    /* A real bot speaks first (join): one whole frame, before any decide. */
    char a[4096];
    for (int i = 0; prog && i < peers; i++) {
        uint8_t len[4];
        if (full_io(from[i], len, 4, 0) != 0) {
            fprintf(stderr, "bench-scale-floor: %s did not start\n", prog);
            return 1;
        }
        size_t left = (size_t)len[0] << 24 | (size_t)len[1] << 16 | (size_t)len[2] << 8 | len[3];
        while (left > 0) {
            size_t k = left < sizeof a ? left : sizeof a;
            if (full_io(from[i], a, k, 0) != 0) return 1;
            left -= k;
        }
    }
    for (int g = 0; g < n; g++)
        full_io(to[2 * g], d, dn, 1);
    long trips = 0, trips0 = 0;
    double t0 = now_s(), warm = t0 + secs / 5, end = warm + secs, tw = t0;
    bool warmed = false;
    struct epoll_event evs[256];
    for (;;) {
        double t = now_s();
        if (!warmed && t >= warm) {
            warmed = true;
            trips0 = trips;
            tw = t;
        }
        if (t >= end) break;
        int k = epoll_wait(ep, evs, 256, 100);
        for (int e = 0; e < k; e++) {
            int i = (int)evs[e].data.u32, g = i / 2;
            /* One answer in flight per peer, written whole: one read. */
            if (prog ? read(from[i], a, sizeof a) <= 0 : full_io(from[i], a, ACT_BYTES, 0) != 0) {
                fprintf(stderr, "bench-scale-floor: peer %d stopped answering\n", i);
                return 1;
            }
            trips++;
            turn[g] ^= 1; /* the other seat moves next */
            full_io(to[2 * g + turn[g]], d, dn, 1);
        }
    }
    double rate = (double)(trips - trips0) / (now_s() - tw);
    for (int i = 0; i < peers; i++)
        close(to[i]);
    for (int i = 0; i < peers; i++) {
        waitpid(pid[i], NULL, 0);
        close(from[i]);
    }
    close(ep);
    free(to);
    free(from);
    free(pid);
    free(turn);
    printf("{\"n\":%d,\"round_trips_per_s\":%.1f}\n", n, rate);
    return 0;
}
