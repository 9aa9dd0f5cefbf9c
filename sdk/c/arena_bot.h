/* arena_bot: the C SDK for Arena bots.
 *
 * A bot fills a `struct arena_bot` with its name and callbacks, then hands it
 * to one of the run functions, which speak the whole wire protocol
 * (protocol.md): send `join`, answer every `hello` with `ready` and every
 * `decide` with `act`, pass `event`, `over` and `error` to the bot, and
 * return when the referee says `bye` or closes the connection.
 *
 * The smallest complete bot (always takes the first `pick.min` options):
 *
 *     static int first(arena_session *s, const msg_decide *d, int64_t *choice)
 *     {
 *         (void)s;
 *         for (int64_t i = 0; i < d->pick.min; i++) choice[i] = i;
 *         return (int)d->pick.min;
 *     }
 *
 *     int main(void)
 *     {
 *         arena_bot bot = {.name = "first", .decide = first};
 *         return arena_bot_run_stdio(&bot, NULL) == 0 ? 0 : 1;
 *     }
 *
 * Everything is blocking and single-threaded: a bot process talks to exactly
 * one referee at a time. The message structs handed to callbacks (msg_hello,
 * msg_decide, msg_over, msg_error; see messages.h) and the value trees inside
 * them (views, events: see value.h) belong to the SDK and are valid only
 * during the call; copy with av_copy what must outlive it.
 *
 * Link with pkg-config: `cc bot.c $(pkg-config --cflags --libs arena-sdk)`. */
#ifndef ARENA_BOT_H
#define ARENA_BOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "codec.h"
#include "messages.h"
#include "value.h"

#define ARENA_SDK_VERSION "0.1.0"

/* One connection to a referee; passed to every callback. */
typedef struct arena_session arena_session;

typedef struct arena_bot {
    /* Sent in `join`. name is required; version and author may be NULL. */
    const char *name;
    const char *version;
    const char *author;

    /* Required. Choose for decision d (d->view and d->events are NULL
     * with arena_bot_options.skip_state): write the chosen option indices
     * (0-based, distinct, each < d->n_options) into choice, which has room
     * for d->n_options entries, and return how many were written; it must be
     * within [d->pick.min, d->pick.max] or the referee rejects the answer.
     * Return a negative number to give up: the SDK then stops and the run
     * function returns -1. */
    int (*decide)(arena_session *s, const msg_decide *d, int64_t *choice);

    /* Optional. A game starts (seat, players, options, clock). Return
     * nonzero to refuse it: the SDK stops without sending `ready`. */
    int (*on_hello)(arena_session *s, const msg_hello *h);
    /* Optional. Events between decisions (only if the referee sends them);
     * events that come with a decision are in msg_decide.events instead. */
    void (*on_event)(arena_session *s, const av *events);
    /* Optional. A game ended; more may follow on the same connection. */
    void (*on_over)(arena_session *s, const msg_over *o);
    /* Optional. The referee rejected an answer (illegal, timeout, protocol)
     * and says how many strikes are left. */
    void (*on_error)(arena_session *s, const msg_error *e);

    /* Anything the bot wants back in its callbacks: arena_session_user(). */
    void *user;
} arena_bot;

typedef struct arena_bot_options {
    /* Codec this bot speaks: CODEC_MSGPACK (default, also for CODEC_NONE)
     * or CODEC_JSON. The referee answers in the same codec. */
    codec_kind codec;
    /* Largest frame accepted from the referee; 0: PROTO_MAX_FRAME_DEFAULT. */
    size_t max_frame;
    /* Do not print the one-line reason of a failure to stderr. */
    bool quiet;
    /* arena_bot_serve_tcp only: stop after this many connections
     * (0: serve forever). */
    int max_connections;
    /* For a bot whose decide does not look at the game state: in every
     * msg_decide, view and events are NULL, and so is msg_over's view.
     * The referee's messages are still checked whole, as without this (a
     * malformed view is still a bad message), but the SDK builds no value
     * trees for them, which saves most of the CPU time a decision costs
     * the SDK. */
    bool skip_state;
} arena_bot_options;

/* Runs the protocol over the file descriptors in_fd (referee -> bot) and
 * out_fd (bot -> referee), which may be the same socket. token, if not NULL,
 * is sent in `join`. Returns 0 after `bye` or when the referee closes the
 * connection between messages; -1 on any failure (I/O error, undecodable or
 * unexpected message, decide gave up, hello refused), with one line on
 * stderr unless opts->quiet. opts may be NULL (defaults). SIGPIPE is ignored
 * from the first call on, so a vanished referee is an error return, not a
 * killed bot. The descriptors are not closed. */
int arena_bot_run_fds(int in_fd, int out_fd, const char *token, const arena_bot *bot,
                      const arena_bot_options *opts);

/* The usual case: spawned by the referee, protocol on stdin/stdout. While
 * it runs, file descriptor 1 points at stderr (the protocol keeps a private
 * copy of the real stdout), so printf in a callback is a debug line in the
 * match log, not a broken message. Restored on return. */
int arena_bot_run_stdio(const arena_bot *bot, const arena_bot_options *opts);

/* Connects to a referee listening with `--listen HOST:PORT` and plays with
 * the operator-issued token (required by such referees). */
int arena_bot_run_tcp(const char *host, const char *port, const char *token, const arena_bot *bot,
                      const arena_bot_options *opts);

/* Serves referees that dial this bot (`tcp:HOST:PORT` agents): listens on
 * host:port (host NULL: all interfaces) and plays each accepted connection
 * to its end, one at a time. Returns -1 if it cannot listen, otherwise 0
 * after opts->max_connections connections (never, if 0). */
int arena_bot_serve_tcp(const char *host, const char *port, const arena_bot *bot,
                        const arena_bot_options *opts);

/* The bot's `user` pointer. */
void *arena_session_user(const arena_session *s);
/* The current game's hello (NULL before the first one). */
const msg_hello *arena_session_hello(const arena_session *s);
/* Sends a `log` message: a debug line the referee stores in the match log.
 * Returns 0, or -1 if the write failed. */
int arena_session_log(arena_session *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
