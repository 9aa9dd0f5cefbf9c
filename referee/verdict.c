/* The verdict a match log proves (see verdict.h). */
#include "verdict.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* Log times are rounded to the microsecond, the decide's bank down to the
 * millisecond: a time up by the referee's clock is up by these within it. */
#define CLOCK_SLACK_MS 1.0

static bool say(char *why, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static bool say(char *why, size_t len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, len, fmt, ap);
    va_end(ap);
    return false;
}

static bool number(const av *m, const char *key, double *out)
{
    const av *x = m ? av_get(m, key) : NULL;
    if (x && x->type == AV_INT)
        *out = (double)x->u.i;
    else if (x && x->type == AV_FLOAT)
        *out = x->u.f;
    else
        return false;
    return true;
}

void verdict_start(verdict *v, int players, bool cpu_clock)
{
    memset(v, 0, sizeof *v);
    v->players = v->live = players;
    v->cpu_clock = cpu_clock;
}

/* A decide sent: its seat's clock runs from here with the allowance the
 * decide itself tells the agent (protocol.md §4). */
static void on_decide(verdict *v, const av *line, const av *msg)
{
    int64_t seat, id;
    double t, move = 0, bank = 0, game = -1;
    const av *clk = av_get(msg, "clock");
    if (!av_get_int(line, "seat", &seat) || seat < 0 || seat >= v->players ||
        !av_get_int(msg, "id", &id) || !number(line, "t", &t))
        return;
    number(clk, "move_ms", &move);
    number(clk, "bank_ms", &bank);
    number(clk, "game_ms", &game);
    double allowance = move + (bank > 0 ? bank : 0);
    if (game >= 0 && game < allowance) allowance = game;
    if (!clk || !number(clk, "move_ms", &move)) allowance = -1; /* not told: unknown */
    verdict_decide *d = &v->decide[seat];
    d->id = id;
    d->t = t;
    d->allowance = allowance;
    d->open = d->ever = true;
}

/* The start-up span from hello to ready, as the hello tells the agent. */
static void on_hello(verdict *v, const av *line, const av *msg)
{
    int64_t seat;
    double t, startup = 0;
    if (!av_get_int(line, "seat", &seat) || seat < 0 || seat >= v->players ||
        !number(line, "t", &t))
        return;
    number(av_get(msg, "clock"), "startup_ms", &startup);
    v->decide[seat].hello = true;
    v->decide[seat].hello_t = t;
    v->decide[seat].startup_ms = startup;
}

static bool on_choice(verdict *v, const av *line, char *why, size_t len)
{
    int64_t seat, id = 0;
    const char *by = av_get_str(line, "by");
    if (!av_get_int(line, "seat", &seat) || seat < 0 || seat >= v->players || !by)
        return say(why, len, "a choice line without its seat or mover");
    av_get_int(line, "id", &id);
    v->moves++;
    if (v->ended) return say(why, len, "a move after the match ended (fewer than two seats left)");
    verdict_decide *d = &v->decide[seat];
    if (v->forfeit[seat][0] && strcmp(by, "fallback") != 0)
        return say(why, len, "seat %" PRId64 " moves by '%s' after it forfeited", seat, by);
    if (strcmp(by, "agent") == 0) {
        double ms;
        if (!d->open || d->id != id)
            return say(why, len, "seat %" PRId64 " answers id %" PRId64 ", which it was not sent",
                       seat, id);
        if (d->allowance >= 0 && number(line, "ms", &ms) && ms > d->allowance + CLOCK_SLACK_MS)
            return say(why, len,
                       "seat %" PRId64 "'s answer took %.3f ms of the %.0f ms it had: "
                       "that is a timeout, not a move",
                       seat, ms, d->allowance);
    }
    if (d->open && d->id == id) d->open = false;
    return true;
}

/* A timeout forfeit: the seat had a decide out, and by the log's own
 * times its allowance was up; or it never got to play (start-up). */
static bool timed_out(verdict *v, int seat, const av *line, char *why, size_t len)
{
    verdict_decide *d = &v->decide[seat];
    double t;
    if (!d->open && (d->ever || d->ready || v->moves))
        return say(why, len, "seat %d forfeits on time with no decision of its pending", seat);
    if (!d->open) { /* start-up, before play began */
        if (d->hello && !v->cpu_clock && number(line, "t", &t) &&
            t - d->hello_t + CLOCK_SLACK_MS < d->startup_ms)
            return say(why, len,
                       "seat %d forfeits its start-up %.3f ms after its hello, but it had %.0f ms",
                       seat, t - d->hello_t, d->startup_ms);
        if (!d->hello || v->cpu_clock) v->clock_unchecked++; /* its span began before the log */
        return true;
    }
    if (v->cpu_clock || d->allowance < 0) { /* CPU time: a threaded agent uses more than the
                                                wall shows; or the decide told no clock */
        v->clock_unchecked++;
        return true;
    }
    if (!number(line, "t", &t)) return say(why, len, "a fault line without its time");
    if (t - d->t + CLOCK_SLACK_MS < d->allowance)
        return say(why, len,
                   "seat %d forfeits on time %.3f ms after its decide, but it had %.0f ms "
                   "(move + bank, as its decide says)",
                   seat, t - d->t, d->allowance);
    return true;
}

static bool on_fault(verdict *v, const av *line, char *why, size_t len)
{
    int64_t seat;
    const char *cause = av_get_str(line, "cause"), *verdict = av_get_str(line, "verdict");
    if (!av_get_int(line, "seat", &seat) || seat < 0 || seat >= v->players || !cause || !verdict)
        return say(why, len, "a fault line without its seat, cause or verdict");
    if (v->ended) return say(why, len, "a fault after the match ended");
    if (v->forfeit[seat][0]) return say(why, len, "seat %" PRId64 " forfeits twice", seat);
    if (strcmp(verdict, "forfeit") != 0) return true; /* a strike: the fallback's move follows */
    if (strcmp(cause, "timeout") == 0 && !timed_out(v, (int)seat, line, why, len)) return false;
    snprintf(v->forfeit[seat], sizeof v->forfeit[seat], "%s", cause);
    v->decide[seat].open = false;
    if (--v->live < 2) v->ended = true;
    return true;
}

bool verdict_line(verdict *v, const char *type, const av *line, char *why, size_t len)
{
    if (strcmp(type, "choice") == 0) return on_choice(v, line, why, len);
    if (strcmp(type, "fault") == 0) return on_fault(v, line, why, len);
    if (strcmp(type, "msg") == 0) {
        const char *dir = av_get_str(line, "dir");
        const av *msg = av_get(line, "msg");
        const char *mt = msg ? av_get_str(msg, "type") : NULL;
        int64_t seat;
        if (dir && mt && strcmp(dir, "out") == 0 && strcmp(mt, "decide") == 0)
            on_decide(v, line, msg);
        else if (dir && mt && strcmp(dir, "out") == 0 && strcmp(mt, "hello") == 0)
            on_hello(v, line, msg);
        else if (dir && mt && strcmp(dir, "in") == 0 && strcmp(mt, "ready") == 0 &&
                 av_get_int(line, "seat", &seat) && seat >= 0 && seat < v->players)
            v->decide[seat].ready = true;
    }
    return true;
}

/* "ranks 1,2 scores 30,12 reason normal forfeits 1:timeout" */
static void text_of(const int64_t *rank, const int64_t *score, const char *reason,
                    const char (*forfeit)[16], int players, char *buf, size_t size)
{
    size_t n = 0;
#define PUT(...)                                                                                   \
    do {                                                                                           \
        if (n < size) n += (size_t)snprintf(buf + n, size - n, __VA_ARGS__);                       \
    } while (0)
    PUT("ranks");
    for (int k = 0; k < players; k++)
        PUT("%s%" PRId64, k ? "," : " ", rank[k]);
    PUT(" scores");
    for (int k = 0; k < players; k++)
        PUT("%s%" PRId64, k ? "," : " ", score[k]);
    PUT(" reason %s forfeits", reason);
    bool any = false;
    for (int k = 0; k < players; k++)
        if (forfeit[k][0]) {
            PUT("%s%d:%s", any ? "," : " ", k, forfeit[k]);
            any = true;
        }
    if (!any) PUT(" none");
#undef PUT
}

bool verdict_result(verdict *v, const arena_result *res, const av *line, char *why, size_t len)
{
    int n = v->players;
    /* What finish() in match.c makes of this game and these forfeits. */
    int64_t rank[ARENA_MAX_SEATS], score[ARENA_MAX_SEATS];
    bool any = v->live < n;
    const char *reason = res->over  ? (any ? "forfeit" : "normal")
                         : v->ended ? "forfeit"
                                    : "aborted";
    for (int s = 0; s < n; s++) {
        score[s] = res->scores[s];
        if (v->forfeit[s][0]) {
            rank[s] = v->live + 1;
            continue;
        }
        int better = 0;
        for (int t = 0; res->over && t < n; t++)
            if (!v->forfeit[t][0] && res->ranks[t] < res->ranks[s]) better++;
        rank[s] = better + 1;
    }
    /* What the result line says. */
    int64_t lrank[ARENA_MAX_SEATS] = {0}, lscore[ARENA_MAX_SEATS] = {0};
    char lforfeit[ARENA_MAX_SEATS][16] = {{0}};
    const av *ranks = av_get(line, "ranks"), *scores = av_get(line, "scores");
    const av *ff = av_get(line, "forfeits");
    const char *lreason = av_get_str(line, "reason");
    bool same = lreason && strcmp(lreason, reason) == 0 && ranks && scores &&
                ranks->type == AV_LIST && scores->type == AV_LIST && (int)av_len(ranks) == n &&
                (int)av_len(scores) == n;
    for (int k = 0; same && k < n; k++) { /* all read first: the message quotes them */
        const av *r = ranks->u.list.items[k], *s = scores->u.list.items[k];
        same = r->type == AV_INT && s->type == AV_INT;
        if (same) lrank[k] = r->u.i, lscore[k] = s->u.i;
    }
    for (int k = 0; same && k < n; k++)
        same = lrank[k] == rank[k] && lscore[k] == score[k];
    for (size_t i = 0; ff && ff->type == AV_LIST && i < av_len(ff); i++) {
        int64_t seat;
        const char *cause = av_get_str(ff->u.list.items[i], "cause");
        if (!av_get_int(ff->u.list.items[i], "seat", &seat) || !cause || seat < 0 || seat >= n ||
            lforfeit[seat][0]) {
            same = false;
            continue;
        }
        snprintf(lforfeit[seat], sizeof lforfeit[seat], "%s", cause);
    }
    if (!ff || ff->type != AV_LIST) same = false;
    for (int k = 0; same && k < n; k++)
        same = strcmp(lforfeit[k], v->forfeit[k]) == 0;
    if (same) {
        v->aborted = strcmp(reason, "aborted") == 0;
        return true;
    }
    char logged[300], derived[300];
    text_of(lrank, lscore, lreason ? lreason : "?", (const char(*)[16])lforfeit, n, logged,
            sizeof logged);
    text_of(rank, score, reason, (const char(*)[16])v->forfeit, n, derived, sizeof derived);
    return say(why, len,
               "does not reproduce: the result line says %s; the game and its fault records "
               "give %s",
               logged, derived);
}
