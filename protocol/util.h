/* Allocation helpers that abort on failure, and a growable byte buffer. */
#ifndef ARENA_UTIL_H
#define ARENA_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xvasprintf(const char *fmt, va_list ap);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Growable byte buffer; data is always NUL-terminated past len for text use. */
typedef struct abuf {
    uint8_t *data;
    size_t len, cap;
} abuf;

void abuf_reserve(abuf *b, size_t extra);
void abuf_add(abuf *b, const void *p, size_t n);
void abuf_addc(abuf *b, char c);
void abuf_adds(abuf *b, const char *s);
void abuf_addf(abuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void abuf_addi(abuf *b, int64_t v);   /* decimal, as %lld, without printf */
void abuf_add_file(abuf *b, FILE *f); /* what is left of f, to its end */
/* Writing straight in (a read, fread): space returns where at least `want`
 * more bytes may go (*room: how many); commit(n) takes the first n of them,
 * as abuf_add would. */
uint8_t *abuf_space(abuf *b, size_t want, size_t *room);
void abuf_commit(abuf *b, size_t n);

/* v in decimal as %lld writes it, without printf: the digits are written at
 * the end of tmp; returns where they start (*len bytes, no NUL). */
#define DEC_I64_MAX 20 /* "-9223372036854775808" */
const char *dec_i64(char tmp[DEC_I64_MAX], int64_t v, size_t *len);

/* A caller's fixed buffer written piece by piece, always NUL-terminated and
 * cut at len - 1 bytes as snprintf cuts: for a game's labels and prompts,
 * written for every decision, where parsing snprintf's format was most of
 * their cost. */
typedef struct textbuf {
    char *buf;
    size_t len, at;
} textbuf;
textbuf text_start(char *buf, size_t len);
void text_add(textbuf *t, const char *s, size_t n);
void text_adds(textbuf *t, const char *s);
void text_int(textbuf *t, int64_t v);
#define TEXT_LIT(t, lit) text_add((t), "" lit, sizeof(lit) - 1)
void abuf_consume(abuf *b, size_t n); /* drop n bytes from the front */
void abuf_free(abuf *b);

#endif
