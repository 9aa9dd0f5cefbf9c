#include "seatnotes.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "utf8.h"
#include "util.h"

void seat_notes_init(seat_notes *n)
{
    n->fault_message[0] = n->stderr_tail[0] = n->fallback_last[0] = n->bot_log_last[0] = 0;
    n->fallbacks = n->bot_logs = 0;
}

void seat_notes_forfeit(seat_notes *n, const char *cause, const char *why)
{
    if (n->fault_message[0]) return;
    snprintf(n->fault_message, sizeof n->fault_message, "%s", why && *why ? why : cause);
}

void seat_notes_fallback(seat_notes *n, const char *cause, const char *why)
{
    n->fallbacks++;
    snprintf(n->fallback_last, sizeof n->fallback_last, "%s: %s", cause, why);
}

void seat_notes_stderr(seat_notes *n, const char *line, size_t len)
{
    char one[SEATNOTES_LINE_CAP + 8];
    if (len > SEATNOTES_LINE_CAP)
        snprintf(one, sizeof one, "%.*s...", SEATNOTES_LINE_CAP, line);
    else
        snprintf(one, sizeof one, "%.*s", (int)len, line);
    utf8_mask_controls(one, true);
    size_t add = strlen(one) + 1, cap = sizeof n->stderr_tail - 1, have = strlen(n->stderr_tail);
    while (have && have + add > cap) { /* drop the oldest line */
        char *nl = strchr(n->stderr_tail, '\n');
        size_t cut = nl ? (size_t)(nl - n->stderr_tail) + 1 : have;
        memmove(n->stderr_tail, n->stderr_tail + cut, have - cut + 1);
        have -= cut;
    }
    if (have) n->stderr_tail[have++] = '\n';
    snprintf(n->stderr_tail + have, sizeof n->stderr_tail - have, "%s", one);
}

void seat_notes_message(seat_notes *n, const av *raw)
{
    const char *type = av_get_str(raw, "type");
    if (!type || strcmp(type, "log") != 0) return;
    const char *text = av_get_str(raw, "text");
    if (!text) text = "";
    n->bot_logs++;
    snprintf(n->bot_log_last, sizeof n->bot_log_last, "%.*s",
             (int)utf8_cut(text, sizeof n->bot_log_last - 1), text);
    utf8_mask_controls(n->bot_log_last, true);
}

void seat_notes_print_tail(FILE *out, const char *tail, const char *indent, int max_lines)
{
    int lines = 1;
    for (const char *q = tail; *q; q++)
        lines += *q == '\n';
    for (; lines > max_lines; lines--) /* the last lines tell most */
        tail = strchr(tail, '\n') + 1;
    while (*tail) {
        const char *nl = strchr(tail, '\n');
        int len = nl ? (int)(nl - tail) : (int)strlen(tail);
        fprintf(out, "%s%.*s\n", indent, len, tail);
        tail += len + (nl != NULL);
    }
}

/* A text up to its NUL (mostly empty: the buffers are kilobytes). */
#define COPY_TEXT(dst, src)                                                                        \
    do {                                                                                           \
        _Static_assert(sizeof(dst) == sizeof(src), "same capacity");                               \
        memcpy((dst), (src), strnlen((src), sizeof(src) - 1) + 1);                                 \
        (dst)[sizeof(dst) - 1] = 0;                                                                \
    } while (0)

void seat_notes_to_outcome(const seat_notes *n, match_outcome *o, int s)
{
    COPY_TEXT(o->fault_message[s], n->fault_message);
    COPY_TEXT(o->stderr_tail[s], n->stderr_tail);
    o->fallbacks[s] = n->fallbacks;
    COPY_TEXT(o->fallback_last[s], n->fallback_last);
    o->bot_logs[s] = n->bot_logs;
    COPY_TEXT(o->bot_log_last[s], n->bot_log_last);
}

void trace_printf(FILE *f, double t_ms, int seat, const char *fmt, ...)
{
    if (seat >= 0)
        fprintf(f, "%10.3f ms  seat %d  ", t_ms, seat);
    else
        fprintf(f, "%10.3f ms          ", t_ms);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(f, fmt, ap);
    va_end(ap);
    fputc('\n', f);
    fflush(f);
}

void trace_msg(FILE *f, double t_ms, int seat, const char *arrow, const av *msg)
{
    char *json = av_to_json(msg);
    utf8_mask_controls(json, false); /* JSON escapes C0, not DEL, C1 or bidi */
    trace_printf(f, t_ms, seat, "%s %s", arrow, json);
    free(json);
}

void trace_stderr(FILE *f, double t_ms, int seat, const char *line, size_t len)
{
    char *copy = xmalloc(len + 1);
    memcpy(copy, line, len);
    copy[len] = '\0';
    utf8_mask_controls(copy, true);
    trace_printf(f, t_ms, seat, "stderr: %s", copy);
    free(copy);
}
