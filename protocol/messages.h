/* Typed structs for every message of protocol.md §2, with conversion to and
 * from the generic value tree (which the codecs turn into bytes).
 *
 * Decoding is strict about the keys the protocol defines (type and presence)
 * and ignores unknown extra keys, as the protocol requires. */
#ifndef ARENA_MESSAGES_H
#define ARENA_MESSAGES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "value.h"

#define PROTOCOL_VERSION 1

typedef enum {
    MSG_HELLO, /* referee -> agent */
    MSG_DECIDE,
    MSG_EVENT,
    MSG_OVER,
    MSG_ERROR,
    MSG_BYE,
    MSG_JOIN, /* agent -> referee */
    MSG_READY,
    MSG_ACT,
    MSG_LOG,
    MSG__COUNT
} msg_type;

const char *msg_type_name(msg_type t);
/* MSG__COUNT if the name is not a protocol message type. */
msg_type msg_type_parse(const char *name);

/* `clock` map. In hello all fields are set; in decide startup_ms and mode are
 * absent (startup_ms = -1, mode = ""). game_ms < 0 encodes nil. */
typedef struct msg_clock {
    int64_t move_ms, bank_ms, game_ms, startup_ms;
    char mode[8]; /* "wall" | "cpu" | "" */
} msg_clock;

typedef struct msg_hello {
    int64_t protocol;
    char *game;
    av *options; /* map */
    int64_t seat, players;
    char **names;
    size_t n_names;
    char *match;
    msg_clock clock;
} msg_hello;

typedef struct msg_pick {
    int64_t min, max;
    bool ordered;
} msg_pick;

typedef struct msg_decide {
    uint64_t id;
    char *kind;
    char *prompt;
    char **labels; /* options[i].label; extra option keys are not kept */
    size_t n_options;
    msg_pick pick;
    av *view;   /* map */
    av *events; /* list */
    msg_clock clock;
} msg_decide;

typedef struct msg_event {
    av *events; /* list */
} msg_event;

typedef struct msg_forfeit {
    int64_t seat;
    char cause[12]; /* timeout | illegal | crash | protocol */
} msg_forfeit;

typedef struct msg_over {
    int64_t *ranks, *scores; /* by seat */
    size_t n_seats;
    char *reason; /* normal | forfeit | aborted */
    msg_forfeit *forfeits;
    size_t n_forfeits;
    av *view; /* map */
} msg_over;

typedef struct msg_error {
    uint64_t id;
    char *code; /* illegal | timeout | protocol */
    char *message;
    int64_t strikes_left;
} msg_error;

typedef struct msg_join {
    char *name;
    char *version, *author, *token; /* NULL when absent */
} msg_join;

typedef struct msg_act {
    uint64_t id;
    int64_t *choice;
    size_t n_choice;
} msg_act;

typedef struct msg_log {
    char *text;
} msg_log;

typedef struct msg {
    msg_type type;
    union {
        msg_hello hello;
        msg_decide decide;
        msg_event event;
        msg_over over;
        msg_error error;
        msg_join join;
        msg_act act;
        msg_log log;
    } u;
} msg;

/* Builds the wire map of m (copies everything; m is untouched). */
av *msg_encode(const msg *m);
/* Parses a decoded map. Returns 0, or -1 with a one-line reason in err
 * (missing `type`, unknown type, missing or mistyped protocol key). On
 * success the caller owns out and releases it with msg_free. */
int msg_decode(const av *map, msg *out, char *err, size_t errlen);
/* The same for a map the caller is about to free: its top-level subtrees
 * (view, events, options) are moved into out instead of copied, so map is
 * left without them. */
int msg_decode_take(av *map, msg *out, char *err, size_t errlen);
void msg_free(msg *m);

#endif
