/* Framing and the two codecs of protocol.md §1.
 *
 *  msgpack: 4-byte big-endian length N, then N bytes holding one msgpack map.
 *  json:    one JSON object per line, UTF-8, ended by '\n'.
 *
 * The agent speaks first; its first byte picks the codec: 0x00 -> msgpack,
 * '{' -> json, anything else is a protocol error. */
#ifndef ARENA_CODEC_H
#define ARENA_CODEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util.h"
#include "value.h"

typedef enum { CODEC_NONE = 0, CODEC_MSGPACK, CODEC_JSON } codec_kind;

#define PROTO_MAX_FRAME_DEFAULT ((size_t)1 << 20)
/* Cap on frames from a TCP peer of `arena serve` before its join is
 * accepted: a join is tiny, and an anonymous peer gets no more. */
#define PROTO_PREJOIN_MAX_FRAME ((size_t)64 << 10)
/* Deepest nesting of lists/maps accepted from the wire (the top-level map is
 * level 1). msgpack-c's own parser stack holds 32 levels. */
#define PROTO_MAX_DEPTH 32
/* Most values (map keys included) in one message. No message of the
 * protocol comes near it; it bounds the work one frame can cost the loop
 * (a 1 MiB frame of a million tiny values took 250-440 ms to decode): the
 * readers stop at the first value past it. */
#define PROTO_MAX_VALUES 32768
/* Most values in one message from an agent to the referee. An agent's
 * messages are small (an `act` holds at most a few hundred choices); the
 * lower cap keeps what one of them costs the referee's loop well under the
 * stall it would credit as its own lag (referee/lag.h). */
#define PROTO_MAX_VALUES_IN 1024

const char *codec_name(codec_kind c); /* "msgpack", "json", "none" */
/* Parses "msgpack" / "json"; CODEC_NONE if neither. */
codec_kind codec_parse(const char *name);

/* Appends one complete frame holding msg (normally a map) to out. */
void codec_encode(codec_kind c, const av *msg, abuf *out);

/* Streaming decoder: feed bytes in any split (one byte at a time works),
 * pull whole messages. Once it reports an error it stays failed. */
typedef struct frame_decoder {
    codec_kind codec;  /* CODEC_NONE until the first byte picks it */
    size_t max_frame;  /* payload cap in bytes (msgpack: N; json: line w/o '\n') */
    size_t max_values; /* values in one message: PROTO_MAX_VALUES unless set */
    size_t values;     /* values read by the last frame_decoder_next */
    abuf in;
    size_t head; /* bytes at the front of `in` already returned as messages */
    size_t scan; /* json: bytes of `in` already searched for '\n' */
    bool failed;
    char error[200]; /* one line, set when failed */
} frame_decoder;

/* forced: CODEC_NONE to detect from the first byte, else that codec. */
void frame_decoder_init(frame_decoder *d, size_t max_frame, codec_kind forced);
void frame_decoder_feed(frame_decoder *d, const void *p, size_t n);
/* Feeding without a copy: space returns where at least `want` more bytes
 * may be written (*room: how many), and commit(n) takes the first n of them,
 * as feed would. A reader reads straight into it. */
uint8_t *frame_decoder_space(frame_decoder *d, size_t want, size_t *room);
void frame_decoder_commit(frame_decoder *d, size_t n);
/* 1: *msg holds a decoded map (caller frees); 0: need more bytes;
 * -1: protocol error, reason in d->error (oversized frame, undecodable bytes,
 * top level not a map, non-string map key, unknown first byte). */
int frame_decoder_next(frame_decoder *d, av **msg);
/* The front frame's payload, undecoded, for a reader with a fast path for
 * one exact shape: 1 with [*p, *p + *n) (valid until the next feed or
 * next/skip), 0 or -1 as frame_decoder_next (which then decodes the same
 * frame). frame_decoder_skip drops a frame peek returned 1 for. */
int frame_decoder_peek(frame_decoder *d, const uint8_t **p, size_t *n);
void frame_decoder_skip(frame_decoder *d);
/* Bytes buffered but not yet returned as messages. */
size_t frame_decoder_pending(const frame_decoder *d);
void frame_decoder_free(frame_decoder *d);
/* frame_decoder_next with a fast path: the next complete frame's payload is
 * first offered to fast(ctx, codec, bytes, len); if it returns true it has
 * taken the message, the frame is consumed and 2 is returned (*msg NULL).
 * Otherwise the frame is decoded as frame_decoder_next does (same results,
 * same errors). */
int frame_decoder_next_fast(frame_decoder *d,
                            bool (*fast)(void *, codec_kind, const uint8_t *, size_t), void *ctx,
                            av **msg);

/* Whole-buffer helpers (tests, logs). Return NULL and fill err on failure. */
av *msgpack_decode(const void *p, size_t n, char *err, size_t errlen);
av *json_decode(const char *text, size_t n, char *err, size_t errlen);
/* The same with another cap than PROTO_MAX_VALUES; *values (if not NULL)
 * gets how many values were read, up to a failure. */
av *msgpack_decode_max(const void *p, size_t n, size_t max_values, size_t *values, char *err,
                       size_t errlen);
av *json_decode_max(const char *text, size_t n, size_t max_values, size_t *values, char *err,
                    size_t errlen);

/* One value of a msgpack message that starts at p[*off], read as
 * msgpack_decode reads the values inside a message: depth is its nesting
 * level (the top-level map is 0), *values counts the values read so far
 * (PROTO_MAX_VALUES in all). Advances *off and *values; NULL on any error
 * (no reason: for a fast path that then falls back to msgpack_decode). */
av *msgpack_read_value(const uint8_t *p, size_t n, size_t *off, size_t *values, int depth);
/* The same for one JSON value starting at text[*off] (whitespace before it
 * allowed, as json_decode allows it there). */
av *json_read_value(const char *text, size_t n, size_t *off, size_t *values, int depth);
/* The two above, reading the value without building it: every check is
 * made (the same true/false, *off and *values as the readers above), and
 * nothing is allocated. For a bot that does not look at the game state. */
bool msgpack_skip_value(const uint8_t *p, size_t n, size_t *off, size_t *values, int depth);
bool json_skip_value(const char *text, size_t n, size_t *off, size_t *values, int depth);

#endif
