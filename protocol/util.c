#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* gcc 12 with -fsanitize=undefined at -O2 reports a bogus "null format
 * string" for the vsnprintf size probes below (its nonnull instrumentation
 * confuses -Wformat-truncation); the format is never NULL. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wformat-truncation"
#endif

static void oom(void)
{
    fputs("arena: out of memory\n", stderr);
    abort();
}

void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) oom();
    return p;
}

void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p) oom();
    return p;
}

void *xrealloc(void *p, size_t n)
{
    p = realloc(p, n ? n : 1);
    if (!p) oom();
    return p;
}

char *xstrdup(const char *s)
{
    size_t n = strlen(s) + 1;
    return memcpy(xmalloc(n), s, n);
}

char *xvasprintf(const char *fmt, va_list ap)
{
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap2);
    va_end(ap2);
    if (n < 0) oom();
    char *s = xmalloc((size_t)n + 1);
    vsnprintf(s, (size_t)n + 1, fmt, ap);
    return s;
}

char *xasprintf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = xvasprintf(fmt, ap);
    va_end(ap);
    return s;
}

void abuf_reserve(abuf *b, size_t extra)
{
    if (b->len + extra + 1 <= b->cap) return;
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->len + extra + 1)
        cap *= 2;
    b->data = xrealloc(b->data, cap);
    b->cap = cap;
}

void abuf_add(abuf *b, const void *p, size_t n)
{
    abuf_reserve(b, n);
    if (n) memcpy(b->data + b->len, p, n);
    b->len += n;
    b->data[b->len] = 0;
}

void abuf_addc(abuf *b, char c)
{
    abuf_add(b, &c, 1);
}
void abuf_adds(abuf *b, const char *s)
{
    abuf_add(b, s, strlen(s));
}

uint8_t *abuf_space(abuf *b, size_t want, size_t *room)
{
    abuf_reserve(b, want);
    *room = b->cap - b->len - 1; /* the NUL after the bytes keeps its place */
    return b->data + b->len;
}

void abuf_commit(abuf *b, size_t n)
{
    b->len += n;
    b->data[b->len] = 0;
}

void abuf_add_file(abuf *b, FILE *f)
{
    size_t room, n;
    do {
        uint8_t *p = abuf_space(b, 8192, &room);
        n = fread(p, 1, room, f);
        abuf_commit(b, n);
    } while (n > 0);
}

void abuf_addf(abuf *b, const char *fmt, ...)
{
    /* Formats once into the spare room; only a text that does not fit is
     * formatted again (callers append many short pieces). */
    va_list ap, ap2;
    va_start(ap, fmt);
    va_copy(ap2, ap);
    abuf_reserve(b, 64);
    size_t room = b->cap - b->len;
    int n = vsnprintf((char *)b->data + b->len, room, fmt, ap);
    if (n > 0 && (size_t)n >= room) {
        abuf_reserve(b, (size_t)n);
        vsnprintf((char *)b->data + b->len, (size_t)n + 1, fmt, ap2);
    }
    if (n > 0) b->len += (size_t)n;
    b->data[b->len] = 0;
    va_end(ap2);
    va_end(ap);
}

const char *dec_i64(char tmp[DEC_I64_MAX], int64_t v, size_t *len)
{
    char *end = tmp + DEC_I64_MAX, *p = end;
    uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
    /* Two digits a step: clock values in ms run to six or seven. */
    static const char pairs[] = "00010203040506070809101112131415161718192021222324"
                                "25262728293031323334353637383940414243444546474849"
                                "50515253545556575859606162636465666768697071727374"
                                "75767778798081828384858687888990919293949596979899";
    while (u >= 100) {
        const char *d = pairs + 2 * (u % 100);
        u /= 100;
        *--p = d[1];
        *--p = d[0];
    }
    if (u >= 10) {
        *--p = pairs[2 * u + 1];
        *--p = pairs[2 * u];
    } else {
        *--p = (char)('0' + u);
    }
    if (v < 0) *--p = '-';
    *len = (size_t)(end - p);
    return p;
}

textbuf text_start(char *buf, size_t len)
{
    if (len) buf[0] = 0;
    return (textbuf){buf, len, 0};
}

void text_add(textbuf *t, const char *s, size_t n)
{
    if (t->at + 1 >= t->len) return;
    if (n > t->len - 1 - t->at) n = t->len - 1 - t->at;
    memcpy(t->buf + t->at, s, n);
    t->at += n;
    t->buf[t->at] = 0;
}

void text_adds(textbuf *t, const char *s)
{
    text_add(t, s, strlen(s));
}

void text_int(textbuf *t, int64_t v)
{
    char tmp[DEC_I64_MAX];
    size_t n;
    const char *p = dec_i64(tmp, v, &n);
    text_add(t, p, n);
}

void abuf_addi(abuf *b, int64_t v)
{
    abuf_reserve(b, DEC_I64_MAX);
    if (v >= 0 && v < 10) { /* most integers of a message: one digit */
        b->data[b->len++] = (uint8_t)('0' + v);
    } else {
        char tmp[DEC_I64_MAX];
        size_t n;
        const char *p = dec_i64(tmp, v, &n);
        memcpy(b->data + b->len, p, n);
        b->len += n;
    }
    b->data[b->len] = 0;
}

void abuf_consume(abuf *b, size_t n)
{
    if (n >= b->len) {
        b->len = 0;
    } else {
        memmove(b->data, b->data + n, b->len - n);
        b->len -= n;
    }
    if (b->data) b->data[b->len] = 0;
}

void abuf_free(abuf *b)
{
    free(b->data);
    b->data = NULL;
    b->len = b->cap = 0;
}
