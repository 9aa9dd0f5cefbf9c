/* arena replay LOG [--seat N] [--format text|html] — re-creates the game from
 * a match log's seed and settings, re-applies every logged choice, checks
 * that each decision reproduces (seat, kind, chosen labels) and that the
 * result matches, and shows the game: as a record turn by turn, or as a
 * self-contained HTML viewer. */
#include "replay.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "replay_agent.h"
#include "codec.h"
#include "utf8.h"
#include "util.h"

/* ---- the text record ---------------------------------------------------- */

typedef struct text_sink {
    int seat;   /* -1: everything */
    long own;   /* the seat's decisions */
    bool named; /* a seat's record: the names it was sent are printed */
    size_t ev_cursor;
    int turn;
    bool quiet;
    int64_t charged[ARENA_MAX_SEATS];
    char started[ARENA_MAX_SEATS][128]; /* the names the header printed */
} text_sink;

/* {"type":"draw","seat":1,"card":"M09"} -> "draw: seat 1, card M09" */
static void print_compact(const av *e)
{
    const char *type = av_get_str(e, "type");
    printf("%s", type ? type : "event");
    const char *sep = ": ";
    for (size_t k = 0; e->type == AV_MAP && k < e->u.map.len; k++) {
        const char *key = e->u.map.keys[k];
        const av *v = e->u.map.vals[k];
        if (!strcmp(key, "type")) continue;
        if (v->type == AV_STR) {
            printf("%s%s %s", sep, key, v->u.str.s);
        } else {
            char *js = av_to_json(v);
            printf("%s%s %s", sep, key, js);
            free(js);
        }
        sep = ", ";
    }
}

static int text_header(void *ctx, replay *r, const av *e)
{
    text_sink *t = ctx;
    if (t->seat >= r->players) {
        fprintf(stderr, "arena: the game has seats 0..%d\n", r->players - 1);
        return 2;
    }
    if (t->quiet) return 0;
    int64_t seed = 0;
    av_get_int(e, "seed", &seed);
    /* A seat's record holds what the seat was sent: not the seed, not the
     * others' commands (the names come with the seats line: text_seats). */
    if (t->seat >= 0) {
        printf("%s, %d players\n", r->gvt->name, r->players);
        return 0;
    }
    printf("%s, seed %" PRId64 ", %d players (omniscient: every event, tagged with who saw it)\n",
           r->gvt->name, seed, r->players);
    for (int k = 0; k < r->players; k++) {
        printf("  seat %d: %s\n", k, r->names[k]);
        snprintf(t->started[k], sizeof t->started[k], "%s", r->names[k]);
    }
    return 0;
}

static void text_moved(void *ctx, replay *r)
{
    text_sink *t = ctx;
    if (t->seat >= 0 && !t->named) return; /* the seat has had no hello yet */
    size_t n = r->gvt->event_count(r->g);
    for (; t->ev_cursor < n; t->ev_cursor++) {
        const av *e = r->gvt->event(r->g, t->ev_cursor, t->seat);
        if (!e || t->quiet) continue;
        printf("      ");
        print_compact(e);
        if (t->seat < 0) {
            char who[64];
            replay_audience(r, t->ev_cursor, who, sizeof who);
            if (who[0]) printf("   [%s only]", who);
        }
        printf("\n");
    }
}

/* The names as the agents joined. A seat's record prints them only now (its
 * hello held these, never the others' commands); the omniscient one printed
 * the specs and says the name each spawned agent joined as. */
static void text_seats(void *ctx, replay *r)
{
    text_sink *t = ctx;
    if (t->seat >= 0 && !t->named && !t->quiet) {
        /* The names the seat's hello held. */
        for (int k = 0; k < r->players; k++)
            printf("  seat %d: %s\n", k, r->names[k]);
        printf("as seen by seat %d (%s)\n", t->seat, r->names[t->seat]);
    }
    bool was = t->named;
    t->named = true;
    if (t->seat >= 0 && !was) text_moved(ctx, r); /* what the setup showed it */
    for (int k = 0; k < r->players && !t->quiet && t->seat < 0; k++)
        if (strcmp(t->started[k], r->names[k]) != 0)
            printf("  seat %d joined as %s\n", k, r->names[k]);
}

static void text_decision(void *ctx, replay *r, const arena_decision *d, const int *c, int n,
                          const av *e)
{
    text_sink *t = ctx;
    double ms = 0;
    const av *msv = av_get(e, "ms");
    if (msv && msv->type == AV_FLOAT) ms = msv->u.f;
    t->charged[d->seat] += (int64_t)ms;
    /* A seat's record holds what the seat was sent: its own decisions, not
     * the others' (some exist only because of a hidden card: a Moat held,
     * an Action not played), not even by kind. */
    if (t->seat >= 0 && t->seat != d->seat) return;
    t->own++;
    if (t->quiet) return;
    if (d->turn != t->turn) {
        t->turn = d->turn;
        printf("turn %d: seat %d %s\n", d->turn, d->seat, r->names[d->seat]);
    }
    const char *by = av_get_str(e, "by");
    bool fallback = by && !strcmp(by, "fallback");
    printf("  seat %d %s: ", d->seat, d->kind);
    for (int k = 0; k < n; k++) {
        char lab[256];
        r->gvt->label(r->g, c[k], lab, sizeof lab);
        printf("%s%s", k ? ", " : "", lab);
    }
    if (n == 0) printf("(nothing)");
    if (ms >= 1) printf("  (%.0f ms)", ms);
    printf("%s\n", fallback ? "  [played by the fallback]" : "");
}

/* A string of the log as printed: what agents wrote (names, stderr, `log`
 * lines) reaches the terminal masked (utf8.h). Free it. */
static char *masked(const char *s)
{
    char *m = xstrdup(s ? s : "");
    utf8_mask_controls(m, true);
    return m;
}

static void text_aside(void *ctx, replay *r, const av *e)
{
    text_sink *t = ctx;
    int64_t seat = -1;
    av_get_int(e, "seat", &seat);
    if (t->quiet || (t->seat >= 0 && seat != t->seat)) return;
    const char *type = av_get_str(e, "type");
    const char *who = seat >= 0 && seat < r->players ? r->names[seat] : "referee";
    char *what, *text;
    if (!strcmp(type, "fault")) {
        char *verdict = masked(av_get_str(e, "verdict"));
        what = masked(av_get_str(e, "cause"));
        text = masked(av_get_str(e, "message"));
        printf("  !! seat %" PRId64 " %s: %s: %s -> %s\n", seat, who, *what ? what : "fault", text,
               verdict);
        free(verdict);
    } else {
        bool log = !strcmp(type, "msg");
        what = masked(log ? "log" : type);
        text = masked(av_get_str(log ? av_get(e, "msg") : e, "text"));
        printf("  %-5s seat %" PRId64 " %s: %s\n", what, seat, who, text);
    }
    free(what);
    free(text);
}

static void text_result(void *ctx, replay *r, const av *e)
{
    text_sink *t = ctx;
    if (t->quiet) return;
    const char *reason = av_get_str(e, "reason");
    const av *ranks = av_get(e, "ranks"), *scores = av_get(e, "scores");
    int64_t turns = 0;
    av_get_int(e, "turns", &turns);
    printf("final standing (%s, %" PRId64 " turn%s):\n", reason ? reason : "?", turns,
           turns == 1 ? "" : "s");
    for (int rank = 1; rank <= r->players; rank++)
        for (int s = 0; s < r->players; s++) {
            const av *rk = ranks && s < (int)av_len(ranks) ? ranks->u.list.items[s] : NULL;
            const av *sc = scores && s < (int)av_len(scores) ? scores->u.list.items[s] : NULL;
            if (!rk || rk->type != AV_INT || rk->u.i != rank) continue;
            printf("  %d. seat %d %-20s score %" PRId64 "\n", rank, s, r->names[s],
                   sc && sc->type == AV_INT ? sc->u.i : 0);
        }
    const av *ff = av_get(e, "forfeits");
    for (size_t k = 0; ff && k < av_len(ff); k++) {
        int64_t s = -1;
        av_get_int(ff->u.list.items[k], "seat", &s);
        const char *cause = av_get_str(ff->u.list.items[k], "cause");
        printf("  seat %" PRId64 " forfeited (%s)\n", s, cause ? cause : "?");
    }
}

static int replay_help(void)
{
    printf("usage: arena replay LOG [--seat N] [--quiet] [--format text|html [-o FILE]]\n"
           "       arena replay LOG --seat N --agent SPEC\n"
           "\n"
           "Re-runs the game of a match log (written by `arena play --log`) from its seed,\n"
           "settings and logged choices, checks that every decision reproduces move for\n"
           "move and that the result matches (ranks, scores, reason and forfeits, as the\n"
           "game and the log's fault records and clock data give them), and shows the\n"
           "game.\n"
           "\n"
           "  --format text  (default) a record turn by turn: every choice with its labels\n"
           "                 and charged time, the events (tagged with who saw them when\n"
           "                 they were not public), faults, stderr and `log` lines where\n"
           "                 they happened, and the final standing\n"
           "  --format html  a self-contained HTML viewer (no network): the board at every\n"
           "                 decision, the prompt and options with the chosen one marked,\n"
           "                 time charged and clocks, events, stderr and `log` lines; step\n"
           "                 with the arrow keys or the slider, switch between the seats'\n"
           "                 views and the omniscient one\n"
           "  -o FILE        write to FILE instead of standard output\n"
           "  --seat N       only what seat N was sent: its events, its own decisions, the\n"
           "                 result; not the others' decisions, not the seed. With\n"
           "                 --format html the file then holds nothing else, so it can be\n"
           "                 handed to that seat's author.\n"
           "  --quiet        only check, print the verdict\n"
           "  --agent SPEC   run the bot SPEC (a path or cmd:LINE) in seat N against the\n"
           "                 recorded moves of the others: it is sent what the log says\n"
           "                 seat N was sent (its hello, decides, events, errors, over;\n"
           "                 then a bye), in its own codec, and nothing else (no other\n"
           "                 seat's messages, no seed). Each answer is compared with the\n"
           "                 logged choice; the first decision where it chose otherwise is\n"
           "                 reported and ends the replay. Every wait is 10 times the\n"
           "                 game's clock (move plus bank; startup).\n"
           "\n"
           "Exit status: 0 when the log reproduces, 1 when it does not or its output\n"
           "cannot be written, 2 on bad arguments (a LOG that is missing or unreadable).\n"
           "With --agent: 0 when every decision chose as recorded, 1 at a divergence, a\n"
           "bot that does not join, dies or times out, or a log that ends mid-game.\n");
    return 0;
}

int cmd_replay(int argc, char **argv)
{
    const char *path = NULL, *format = "text", *outpath = NULL, *agent = NULL;
    text_sink t = {.seat = -1, .turn = -1};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) return replay_help();
        if (!strcmp(a, "--quiet")) {
            t.quiet = true;
        } else if (!strcmp(a, "--seat") || !strcmp(a, "--format") || !strcmp(a, "-o") ||
                   !strcmp(a, "--agent")) {
            if (i + 1 >= argc) {
                fprintf(stderr, "arena: %s needs a value\n", a);
                return 2;
            }
            const char *v = argv[++i];
            char *end;
            if (!strcmp(a, "-o")) {
                outpath = v;
            } else if (!strcmp(a, "--agent")) {
                agent = v;
            } else if (!strcmp(a, "--format")) {
                if (strcmp(v, "text") != 0 && strcmp(v, "html") != 0) {
                    fprintf(stderr, "arena: --format must be text or html, not '%s'\n", v);
                    return 2;
                }
                format = v;
            } else if ((t.seat = (int)strtol(v, &end, 10), *end) || !*v || t.seat < 0 ||
                       t.seat >= ARENA_MAX_SEATS) {
                fprintf(stderr, "arena: --seat wants a seat number, not '%s'\n", v);
                return 2;
            }
        } else if (a[0] == '-') {
            fprintf(stderr, "arena: unknown option '%s' (see `arena replay --help`)\n", a);
            return 2;
        } else if (!path) {
            path = a;
        } else {
            fprintf(stderr, "arena: replay takes one LOG\n");
            return 2;
        }
    }
    if (!path) {
        fprintf(stderr, "arena: replay needs a LOG file (see `arena replay --help`)\n");
        return 2;
    }
    if (access(path, R_OK) != 0) { /* a missing input file is a bad argument everywhere */
        fprintf(stderr, "arena: cannot read '%s': %s\n", path, strerror(errno));
        return 2;
    }
    if (agent) {
        if (t.seat < 0 || t.quiet || outpath || strcmp(format, "text") != 0) {
            fprintf(stderr,
                    "arena: --agent wants --seat N, and neither --quiet, -o nor --format\n");
            return 2;
        }
        return replay_agent(path, t.seat, agent);
    }
    if (!strcmp(format, "html")) {
        FILE *out = outpath ? fopen(outpath, "w") : stdout;
        if (!out) {
            fprintf(stderr, "arena: cannot write '%s': %s\n", outpath, strerror(errno));
            return 1;
        }
        int rc = replay_html(path, t.seat, out);
        if (out != stdout && fclose(out) != 0 && rc == 0) {
            fprintf(stderr, "arena: cannot write '%s': %s\n", outpath, strerror(errno));
            rc = 1;
        }
        if (rc == 0 && outpath) fprintf(stderr, "replay OK: viewer written to %s\n", outpath);
        return rc;
    }
    if (outpath && !freopen(outpath, "w", stdout)) {
        fprintf(stderr, "arena: cannot write '%s': %s\n", outpath, strerror(errno));
        return 1;
    }
    replay r = {.path = path};
    replay_sink sink = {text_header, text_decision, text_moved,
                        text_aside,  text_result,   text_seats};
    int rc = replay_walk(&r, &sink, &t);
    if (rc == 0)
        printf("replay OK: %ld decisions%s reproduced%s\n", t.seat >= 0 ? t.own : r.choices,
               t.seat >= 0 ? " of the seat" : "",
               r.have_result ? ", result matches"
               : r.cut       ? " (the log is cut short: its writer was stopped mid-game)"
                             : " (log has no result line: match unfinished)");
    replay_free(&r);
    return rc;
}
