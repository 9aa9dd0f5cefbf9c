#include "matchlog.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "clock.h"
#include "game_rng.h"
#include "messages.h"
#include "runner.h"
#include "utf8.h"
#include "util.h"

/* Times in the log are cut to the microsecond. */
static av *ms3(double ms)
{
    return av_float(clock_cut_us(ms));
}

struct matchlog {
    gzFile f;
    char *path;
    double t0;
    int err; /* errno of the first failed write; 0 while all is well */
};

/* zlib's buffers are larger than its default: fewer write(2)s per game. */
enum { LOG_BUFFER = 64 * 1024 };

matchlog *matchlog_open(const char *path, bool plain, char *err, size_t errlen)
{
    errno = 0;
    /* "T": zlib writes the bytes as they are, so both forms share one path. */
    gzFile f = gzopen(path, plain ? "wT" : "wb6");
    if (!f) {
        snprintf(err, errlen, "cannot write match log '%s': %s", path,
                 strerror(errno ? errno : ENOMEM));
        return NULL;
    }
    gzbuffer(f, LOG_BUFFER);
    matchlog *l = xcalloc(1, sizeof *l);
    l->f = f;
    l->path = xstrdup(path);
    l->t0 = clock_now_ms();
    return l;
}

static av *line(matchlog *l, const char *type, int seat)
{
    av *m = av_map();
    av_set_str(m, "type", type);
    av_set(m, "t", ms3(clock_now_ms() - l->t0));
    if (seat >= 0) av_set_int(m, "seat", seat);
    return m;
}

static void failed(matchlog *l)
{
    if (!l->err) l->err = errno ? errno : EIO;
}

static void emit(matchlog *l, av *m)
{
    char *s = av_to_json(m);
    size_t n = strlen(s);
    s[n] = '\n'; /* the JSON's terminator makes way for the line's end */
    errno = 0;
    if (gzwrite(l->f, s, (unsigned)(n + 1)) != (int)(n + 1)) failed(l);
    free(s);
    av_free(m);
}

/* After a line that ends a step of the game: everything so far reaches the
 * file in a form a reader can decompress, should the referee be killed. */
static void step_done(matchlog *l)
{
    errno = 0;
    if (gzflush(l->f, Z_SYNC_FLUSH) != Z_OK) failed(l);
}

void matchlog_header(matchlog *l, const char *match_id, const char *game, uint64_t seed,
                     int players, const char *const *names, const arena_setting *settings,
                     size_t n_settings, const av *options, const clock_config *clock,
                     fault_policy on_fault, int max_strikes)
{
    av *m = line(l, "match", -1);
    av_set_int(m, "protocol", 1);
    av_set_str(m, "match", match_id);
    av_set_str(m, "game", game);
    av_set_int(m, "seed", (int64_t)seed);
    av_set_str(m, "rng", GAME_RNG_NAME); /* what the seed dealt with: replay checks it */
    av_set_int(m, "players", players);
    av *n = av_list();
    for (int s = 0; s < players; s++)
        av_push(n, av_str(names[s]));
    av_set(m, "agents", n);
    av *set = av_list();
    for (size_t i = 0; i < n_settings; i++) {
        av *kv = av_list();
        av_push(kv, av_str(settings[i].key));
        av_push(kv, av_str(settings[i].value));
        av_push(set, kv);
    }
    av_set(m, "settings", set);
    av_set(m, "options", av_copy(options));
    av *c = av_map();
    av_set_int(c, "move_ms", clock->move_ms);
    av_set_int(c, "bank_ms", clock->bank_ms);
    av_set(c, "game_ms", clock->game_ms < 0 ? av_nil() : av_int(clock->game_ms));
    av_set_int(c, "startup_ms", clock->startup_ms);
    av_set_str(c, "mode", clock_mode_name(clock->mode));
    av_set(m, "clock", c);
    av_set_str(m, "on_fault", on_fault == FAULT_FALLBACK ? "fallback" : "forfeit");
    av_set_int(m, "max_strikes", max_strikes);
    emit(l, m);
    step_done(l);
}

void matchlog_seats(matchlog *l, const char *const *names, int players)
{
    av *m = line(l, "seats", -1);
    av *n = av_list();
    for (int s = 0; s < players; s++)
        av_push(n, av_str(names[s]));
    av_set(m, "agents", n);
    emit(l, m);
}

void matchlog_msg(matchlog *l, int seat, const char *dir, const av *msg)
{
    av *m = line(l, "msg", seat);
    av_set_str(m, "dir", dir);
    av_set(m, "msg", av_copy(msg));
    emit(l, m);
}

/* The length of a `log` message's text when it is over cap (its JSON is
 * longer still), else 0. */
static size_t log_text_over(const av *raw, size_t cap)
{
    const char *type = av_get_str(raw, "type"), *text = av_get_str(raw, "text");
    size_t n = type && text && strcmp(type, "log") == 0 ? strlen(text) : 0;
    return n > cap ? n : 0;
}

/* What the referee read of an agent's message: its type and the keys the
 * protocol gives it, as read (a join's name cut as its seat shows it).
 * Never a join's token, nor a key the protocol does not know: an agent may
 * send those, and pad them without end. NULL when raw is no message. */
static av *in_form(const av *raw, size_t cap)
{
    if (log_text_over(raw, cap)) return NULL; /* before it is copied */
    msg m;
    char why[8];
    if (msg_decode(raw, &m, why, sizeof why) != 0) return NULL;
    av *o = av_map();
    av_set_str(o, "type", msg_type_name(m.type));
    if (m.type == MSG_JOIN) {
        av_set(o, "name", av_strn(m.u.join.name, utf8_cut(m.u.join.name, AGENT_NAME_MAX)));
    } else if (m.type == MSG_ACT) {
        av_set_int(o, "id", (int64_t)m.u.act.id);
        av *c = av_list();
        for (size_t k = 0; k < m.u.act.n_choice; k++)
            av_push(c, av_int(m.u.act.choice[k]));
        av_set(o, "choice", c);
    } else if (m.type == MSG_LOG) {
        av_set_str(o, "text", m.u.log.text);
    }
    msg_free(&m);
    return o;
}

size_t matchlog_msg_in(matchlog *l, int seat, const av *raw, size_t cap)
{
    av *form = in_form(raw, cap);
    if (!form) return log_text_over(raw, cap);
    char *body = av_to_json(form);
    av_free(form);
    size_t n = strlen(body);
    if (n > cap) {
        free(body);
        return n;
    }
    /* The line without its message, which then takes the place of its
     * closing brace: the message is encoded once, and measured. */
    av *m = line(l, "msg", seat);
    av_set_str(m, "dir", "in");
    char *head = av_to_json(m);
    av_free(m);
    size_t h = strlen(head);
    char *s = xmalloc(h + n + 9);
    memcpy(s, head, h - 1);
    memcpy(s + h - 1, ",\"msg\":", 7);
    memcpy(s + h + 6, body, n);
    memcpy(s + h + 6 + n, "}\n", 2);
    errno = 0;
    if (gzwrite(l->f, s, (unsigned)(h + n + 8)) != (int)(h + n + 8)) failed(l);
    free(s);
    free(head);
    free(body);
    return n;
}

void matchlog_choice(matchlog *l, int seat, uint64_t id, const char *kind, int turn, av *idx,
                     av *labels, const char *by, double ms)
{
    av *m = line(l, "choice", seat);
    av_set_int(m, "id", (int64_t)id);
    av_set_str(m, "kind", kind);
    av_set_int(m, "turn", turn);
    av_set(m, "choice", idx);
    av_set(m, "labels", labels);
    av_set_str(m, "by", by);
    av_set(m, "ms", ms3(ms));
    emit(l, m);
    step_done(l);
}

/* A figure of a timeout, null where it was not read. */
static void set_ms(av *m, const char *key, double ms)
{
    av_set(m, key, ms < 0 ? av_nil() : ms3(ms));
}

av *matchlog_clock_av(const clock_evidence *ev)
{
    av *c = av_map();
    av_set_str(c, "mode", clock_mode_name(ev->mode));
    set_ms(c, "allowance_ms", ev->allowance_ms);
    set_ms(c, "charged_ms", ev->charged_ms);
    set_ms(c, "wall_ms", ev->wall_ms);
    set_ms(c, "cpu_ms", ev->cpu_ms);
    set_ms(c, "wait_ms", ev->mode != CLOCK_WALL ? ev->wait_ms : -1);
    set_ms(c, "wait_sum_ms", ev->wait_sum_ms);
    set_ms(c, "lag_ms", ev->lag_ms);
    set_ms(c, "host_psi_ms", ev->host_psi_ms);
    return c;
}

void matchlog_fault(matchlog *l, int seat, const char *cause, const char *why, int strikes,
                    bool forfeit, const clock_evidence *ev)
{
    av *m = line(l, "fault", seat);
    av_set_str(m, "cause", cause);
    av_set_str(m, "message", why);
    av_set_int(m, "strikes", strikes);
    av_set_str(m, "verdict", forfeit ? "forfeit" : "fallback");
    if (ev) av_set(m, "clock", matchlog_clock_av(ev));
    emit(l, m);
    step_done(l);
}

void matchlog_lag(matchlog *l, int seat, uint64_t id, double lag_ms, double measured_ms,
                  double charged_ms)
{
    av *m = line(l, "lag", seat);
    av_set_int(m, "id", (int64_t)id);
    av_set(m, "lag_ms", ms3(lag_ms));
    av_set(m, "measured_ms", ms3(measured_ms));
    av_set(m, "charged_ms", ms3(charged_ms));
    emit(l, m);
}

void matchlog_lag_total(matchlog *l, long stalls, double lag_ms)
{
    av *m = line(l, "lag", -1);
    av_set_int(m, "stalls", stalls);
    av_set(m, "lag_ms", ms3(lag_ms));
    emit(l, m);
}

void matchlog_note(matchlog *l, int seat, const char *text)
{
    av *m = line(l, "note", seat);
    av_set_str(m, "text", text);
    emit(l, m);
    step_done(l);
}

void matchlog_stderr(matchlog *l, int seat, const char *text, size_t len)
{
    av *m = line(l, "stderr", seat);
    av_set(m, "text", av_strn(text, len));
    emit(l, m);
}

av *outcome_to_av(const match_outcome *o)
{
    av *m = av_map();
    av *ranks = av_list(), *scores = av_list(), *ff = av_list(), *dec = av_list(), *tm = av_list();
    for (int s = 0; s < o->players; s++) {
        av_push(ranks, av_int(o->ranks[s]));
        av_push(scores, av_int(o->scores[s]));
        av_push(dec, av_int(o->decisions[s]));
        av_push(tm, ms3(o->time_ms[s]));
        if (o->forfeit[s] != CAUSE_NONE) {
            av *f = av_map();
            av_set_int(f, "seat", s);
            av_set_str(f, "cause", fault_cause_name(o->forfeit[s]));
            av_push(ff, f);
        }
    }
    av_set(m, "ranks", ranks);
    av_set(m, "scores", scores);
    av_set_str(m, "reason", o->reason);
    av_set(m, "forfeits", ff);
    av_set_int(m, "turns", o->turns);
    av_set(m, "decisions", dec);
    av_set(m, "time_ms", tm);
    if (o->error[0]) av_set_str(m, "error", o->error);
    return m;
}

void matchlog_result(matchlog *l, const match_outcome *o)
{
    av *m = line(l, "result", -1);
    av *r = outcome_to_av(o);
    for (size_t i = 0; i < r->u.map.len; i++)
        av_set(m, r->u.map.keys[i], av_copy(r->u.map.vals[i]));
    av_free(r);
    emit(l, m);
}

int matchlog_close(matchlog *l, char *err, size_t errlen)
{
    errno = 0;
    if (gzclose(l->f) != Z_OK) failed(l);
    int rc = 0;
    if (l->err) {
        snprintf(err, errlen, "match log '%s' could not be written: %s", l->path, strerror(l->err));
        rc = -1;
    }
    free(l->path);
    free(l);
    return rc;
}

/* ---- reading ------------------------------------------------------------ */

/* The file is read in blocks into buf; lines are cut out of it where they
 * stand, so the buffer holds one line at most (MATCHLOG_MAX_LINE and its
 * newline) besides the block it ends in. */
struct matchlog_reader {
    gzFile f;
    char *buf;
    size_t cap;
    size_t start, end; /* the bytes read and not yet returned */
    size_t scan;       /* buf[start..scan) holds no newline */
    bool cut, done;
    char error[256];
};

matchlog_reader *matchlog_read_open(const char *path, char *err, size_t errlen)
{
    errno = 0;
    gzFile f = gzopen(path, "rb"); /* a plain file reads through unchanged */
    if (!f) {
        snprintf(err, errlen, "cannot read '%s': %s", path, strerror(errno ? errno : ENOMEM));
        return NULL;
    }
    gzbuffer(f, LOG_BUFFER);
    matchlog_reader *r = xcalloc(1, sizeof *r);
    r->f = f;
    r->cap = LOG_BUFFER;
    r->buf = xmalloc(r->cap);
    return r;
}

const char *matchlog_read_line(matchlog_reader *r, size_t *len)
{
    const size_t most = MATCHLOG_MAX_LINE + 1; /* the longest line and its newline */
    while (!r->done) {
        char *nl = memchr(r->buf + r->scan, '\n', r->end - r->scan);
        if (nl) {
            char *line = r->buf + r->start;
            *nl = '\0';
            *len = (size_t)(nl - line);
            r->start = r->scan = (size_t)(nl - r->buf) + 1;
            return line;
        }
        r->scan = r->end;
        if (r->end - r->start > MATCHLOG_MAX_LINE) {
            snprintf(r->error, sizeof r->error,
                     "a line longer than %zu bytes: no match log holds one (refused unread)",
                     (size_t)MATCHLOG_MAX_LINE);
            r->done = true;
            break;
        }
        if (r->start > 0) { /* the part line to the front: room behind it */
            memmove(r->buf, r->buf + r->start, r->end - r->start);
            r->end -= r->start;
            r->scan = r->end;
            r->start = 0;
        }
        if (r->end == r->cap) {
            r->cap = r->cap * 2 < most ? r->cap * 2 : most;
            r->buf = xrealloc(r->buf, r->cap);
        }
        int k = gzread(r->f, r->buf + r->end, (unsigned)(r->cap - r->end));
        if (k > 0) {
            r->end += (size_t)k;
            continue;
        }
        r->done = true;
        int zerr;
        const char *msg = gzerror(r->f, &zerr);
        /* Z_BUF_ERROR: the compressed stream stops early (its writer was
         * killed); a last line without its newline is cut the same way.
         * Both are ends. */
        if (r->end > r->start || zerr == Z_BUF_ERROR)
            r->cut = true;
        else if (zerr != Z_OK)
            snprintf(r->error, sizeof r->error, "%s",
                     zerr == Z_ERRNO ? strerror(errno ? errno : EIO) : msg);
    }
    return NULL;
}

bool matchlog_read_cut(const matchlog_reader *r)
{
    return r->cut;
}

const char *matchlog_read_error(const matchlog_reader *r)
{
    return r->error[0] ? r->error : NULL;
}

void matchlog_read_close(matchlog_reader *r)
{
    if (!r) return;
    gzclose(r->f);
    free(r->buf);
    free(r);
}
