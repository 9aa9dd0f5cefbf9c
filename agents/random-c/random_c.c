/* random-c: a bot for any Arena game, built on the C SDK. Every decision is
 * answered uniformly at random among the legal answers' sizes and then among
 * the options: a count in [pick.min, pick.max], then that many distinct
 * indices (in random order, which also serves ordered picks). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "arena_bot.h"

typedef struct rng {
    uint64_t s;
} rng;

/* splitmix64: tiny, fast and good enough for a random player. */
static uint64_t rng_next(rng *r)
{
    uint64_t z = (r->s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* Uniform in [0, n) without modulo bias; n > 0. */
static uint64_t rng_below(rng *r, uint64_t n)
{
    uint64_t limit = UINT64_MAX - UINT64_MAX % n;
    for (;;) {
        uint64_t x = rng_next(r);
        if (x < limit) return x % n;
    }
}

static int decide(arena_session *s, const msg_decide *d, int64_t *choice)
{
    rng *r = arena_session_user(s);
    int64_t n = (int64_t)d->n_options;
    int64_t lo = d->pick.min < 0 ? 0 : d->pick.min;
    int64_t hi = d->pick.max > n ? n : d->pick.max;
    if (lo > hi) return -1; /* no legal answer exists */
    int64_t count = lo + (int64_t)rng_below(r, (uint64_t)(hi - lo + 1));
    /* Partial Fisher-Yates over 0..n-1, in choice itself (it has room for
     * n): the first `count` slots end up a uniform random sample in random
     * order. */
    for (int64_t i = 0; i < n; i++)
        choice[i] = i;
    for (int64_t i = 0; i < count; i++) {
        int64_t j = i + (int64_t)rng_below(r, (uint64_t)(n - i));
        int64_t t = choice[i];
        choice[i] = choice[j];
        choice[j] = t;
    }
    return (int)count;
}

static void usage(FILE *out)
{
    fprintf(out, "usage: random-c [--json] [--seed N] [--name NAME]\n"
                 "                [--connect HOST:PORT --token TOKEN | --serve HOST:PORT]\n"
                 "Plays any Arena game at random: on stdin/stdout by default (spawned by\n"
                 "the referee), or connecting to `arena --listen`, or serving referees\n"
                 "that dial it (tcp:HOST:PORT agents).\n");
}

/* Splits "HOST:PORT" at the last colon (so "[::1]:9000" style works too). */
static int split_hostport(char *s, char **host, char **port)
{
    char *c = strrchr(s, ':');
    if (!c || c[1] == '\0') return -1;
    *c = '\0';
    *host = s;
    *port = c + 1;
    if (**host == '[') {
        (*host)++;
        char *e = strchr(*host, ']');
        if (e) *e = '\0';
    }
    return 0;
}

int main(int argc, char **argv)
{
    /* It never looks at the game: the SDK need not build views and events. */
    arena_bot_options opts = {.codec = CODEC_MSGPACK, .skip_state = true};
    const char *name = "random-c", *token = NULL;
    char *connect = NULL, *serve = NULL;
    bool seeded = false;
    uint64_t seed = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        bool more = i + 1 < argc;
        if (strcmp(a, "--json") == 0) {
            opts.codec = CODEC_JSON;
        } else if (strcmp(a, "--seed") == 0 && more) {
            char *end;
            seed = strtoull(argv[++i], &end, 10);
            if (*end) {
                fprintf(stderr, "random-c: bad seed '%s'\n", argv[i]);
                return 2;
            }
            seeded = true;
        } else if (strcmp(a, "--name") == 0 && more) {
            name = argv[++i];
        } else if (strcmp(a, "--connect") == 0 && more) {
            connect = argv[++i];
        } else if (strcmp(a, "--token") == 0 && more) {
            token = argv[++i];
        } else if (strcmp(a, "--serve") == 0 && more) {
            serve = argv[++i];
        } else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            usage(stdout);
            return 0;
        } else {
            usage(stderr);
            return 2;
        }
    }
    if (!seeded) seed = (uint64_t)time(NULL) * 1000003u ^ (uint64_t)getpid();
    rng r = {seed};
    arena_bot bot = {.name = name,
                     .version = ARENA_SDK_VERSION,
                     .author = "arena",
                     .decide = decide,
                     .user = &r};
    char *host, *port;
    int rc;
    if (connect) {
        if (split_hostport(connect, &host, &port) < 0) {
            fprintf(stderr, "random-c: --connect wants HOST:PORT\n");
            return 2;
        }
        rc = arena_bot_run_tcp(host, port, token, &bot, &opts);
    } else if (serve) {
        if (split_hostport(serve, &host, &port) < 0) {
            fprintf(stderr, "random-c: --serve wants HOST:PORT\n");
            return 2;
        }
        rc = arena_bot_serve_tcp(*host ? host : NULL, port, &bot, &opts);
    } else {
        rc = arena_bot_run_stdio(&bot, &opts);
    }
    return rc == 0 ? 0 : 1;
}
