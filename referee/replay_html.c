/* The HTML viewer of a match log: the walk records, before every decision
 * (in a seat's file, before each of that seat's own), each reader's view
 * (deduplicated), the events each reader was shown since
 * the previous decision, the prompt, options and choice, the charged time,
 * and the agents' stderr, `log` lines and faults; the page draws them. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "codec.h"
#include "replay.h"
#include "util.h"
#include "viewer_html.h"

#define MAX_READERS (ARENA_MAX_SEATS + 1)

typedef struct html_sink {
    int nreaders;
    int reader[MAX_READERS]; /* -1 omniscient, else a seat */
    av *views;               /* the distinct views, referenced by index */
    char *last[MAX_READERS]; /* JSON of each reader's last view */
    int64_t last_idx[MAX_READERS];
    av *pending[MAX_READERS]; /* events since the last decision, per reader */
    av *aside;                /* lines since the last decision */
    size_t ev_cursor;
    av *steps;
    av *result;
    av *options; /* the header's resolved options: public (the Pacifica card table) */
} html_sink;

/* Index of reader k's current view in the pool (a repeat reuses it). */
static int64_t view_index(html_sink *h, replay *r, int k)
{
    av *v = arena_view_tree(r->gvt, r->g, h->reader[k]);
    char *js = av_to_json(v);
    if (h->last[k] && strcmp(h->last[k], js) == 0) {
        free(js);
        av_free(v);
        return h->last_idx[k];
    }
    free(h->last[k]);
    h->last[k] = js;
    h->last_idx[k] = (int64_t)av_len(h->views);
    av_push(h->views, v);
    return h->last_idx[k];
}

/* The step's per-reader views and events, and its aside lines. */
static void fill(html_sink *h, replay *r, av *step)
{
    av *views = av_list(), *events = av_list();
    for (int k = 0; k < h->nreaders; k++) {
        av_push(views, av_int(view_index(h, r, k)));
        av_push(events, h->pending[k]);
        h->pending[k] = av_list();
    }
    av_set(step, "view", views);
    av_set(step, "events", events);
    av_set(step, "aside", h->aside);
    h->aside = av_list();
}

static void html_moved(void *ctx, replay *r)
{
    html_sink *h = ctx;
    size_t n = r->gvt->event_count(r->g);
    for (; h->ev_cursor < n; h->ev_cursor++)
        for (int k = 0; k < h->nreaders; k++) {
            const av *e = r->gvt->event(r->g, h->ev_cursor, h->reader[k]);
            if (e) av_push(h->pending[k], av_copy(e));
        }
}

static void push_str(void *list, int i, const char *s)
{
    (void)i;
    av_push(list, av_str(s));
}

static void html_decision(void *ctx, replay *r, const arena_decision *d, const int *c, int n,
                          const av *line)
{
    html_sink *h = ctx;
    /* A seat's file holds what the seat was sent: a step at each of its own
     * decisions, the events since its previous one; the others' decisions
     * not at all (some exist only because of a hidden card). */
    if (h->reader[0] >= 0 && h->reader[0] != d->seat) return;
    av *step = av_map();
    av_set_int(step, "seat", d->seat);
    av_set_str(step, "kind", d->kind);
    av_set_int(step, "turn", d->turn);
    const av *ms = av_get(line, "ms");
    av_set(step, "ms", av_float(ms && ms->type == AV_FLOAT ? ms->u.f : 0));
    const char *by = av_get_str(line, "by");
    av_set_str(step, "by", by ? by : "agent");
    char buf[4096];
    r->gvt->prompt(r->g, buf, sizeof buf);
    av_set_str(step, "prompt", buf);
    av *opts = av_list(), *chosen = av_list(), *pick = av_list();
    arena_game_labels(r->gvt, r->g, d->n_options, buf, sizeof buf, push_str, opts);
    for (int k = 0; k < n; k++)
        av_push(chosen, av_int(c[k]));
    av_push(pick, av_int(d->pick_min));
    av_push(pick, av_int(d->pick_max));
    av_set(step, "options", opts);
    av_set(step, "chosen", chosen);
    av_set(step, "pick", pick);
    fill(h, r, step);
    av_push(h->steps, step);
}

static void html_aside(void *ctx, replay *r, const av *e)
{
    html_sink *h = ctx;
    (void)r;
    int64_t seat = -1;
    av_get_int(e, "seat", &seat);
    if (h->reader[0] >= 0 && seat != h->reader[0]) return;
    const char *type = av_get_str(e, "type");
    char text[1024];
    if (!strcmp(type, "fault")) {
        const char *cause = av_get_str(e, "cause"), *msg = av_get_str(e, "message"),
                   *verdict = av_get_str(e, "verdict");
        snprintf(text, sizeof text, "%s: %s -> %s", cause ? cause : "?", msg ? msg : "",
                 verdict ? verdict : "");
    } else if (!strcmp(type, "msg")) {
        const char *t = av_get_str(av_get(e, "msg"), "text");
        snprintf(text, sizeof text, "%s", t ? t : "");
        type = "log";
    } else {
        const char *t = av_get_str(e, "text");
        snprintf(text, sizeof text, "%s", t ? t : "");
    }
    av *l = av_map();
    av_set_int(l, "seat", seat);
    av_set_str(l, "type", type);
    av_set_str(l, "text", text);
    av_push(h->aside, l);
}

static void html_result(void *ctx, replay *r, const av *e)
{
    html_sink *h = ctx;
    (void)r;
    av_free(h->result);
    h->result = av_copy(e);
}

/* "normal, 14 turns: 1. seat 1 bob (3), 2. seat 0 alice (1)" */
static char *result_text(const replay *r, const av *e)
{
    abuf b = {0};
    const char *reason = av_get_str(e, "reason");
    const av *ranks = av_get(e, "ranks"), *scores = av_get(e, "scores");
    int64_t turns = 0;
    av_get_int(e, "turns", &turns);
    abuf_addf(&b, "%s, %" PRId64 " turns:", reason ? reason : "?", turns);
    for (int rank = 1; rank <= r->players; rank++)
        for (int s = 0; s < r->players; s++) {
            const av *rk = ranks && s < (int)av_len(ranks) ? ranks->u.list.items[s] : NULL;
            const av *sc = scores && s < (int)av_len(scores) ? scores->u.list.items[s] : NULL;
            if (rk && rk->type == AV_INT && rk->u.i == rank)
                abuf_addf(&b, " %d. seat %d %s (%" PRId64 ")", rank, s, r->names[s],
                          sc && sc->type == AV_INT ? sc->u.i : 0);
        }
    abuf_addc(&b, '\0');
    return (char *)b.data;
}

/* JSON inside a <script> element: "<" is written as \u003c so that no
 * "</script>" in a name or a card can end the element. */
static void write_json_in_script(FILE *out, const char *js)
{
    for (const char *p = js; *p; p++) {
        if (*p == '<')
            fputs("\\u003c", out);
        else
            fputc(*p, out);
    }
}

/* The seat count is in the header: an omniscient file has every seat's
 * view besides the omniscient one. */
static int html_header(void *ctx, replay *r, const av *line)
{
    html_sink *h = ctx;
    const av *opts = av_get(line, "options");
    if (opts && !h->options) h->options = av_copy(opts);
    if (h->reader[0] >= r->players) {
        fprintf(stderr, "arena: the game has seats 0..%d\n", r->players - 1);
        return 2;
    }
    if (h->reader[0] < 0 && h->nreaders == 1)
        for (int s = 0; s < r->players && h->nreaders < MAX_READERS; s++)
            h->reader[h->nreaders++] = s;
    return 0;
}

int replay_html(const char *path, int seat, FILE *out)
{
    html_sink h = {.views = av_list(), .aside = av_list(), .steps = av_list()};
    h.reader[h.nreaders++] = seat; /* the file's own reader comes first */
    for (int k = 0; k < MAX_READERS; k++)
        h.pending[k] = av_list();
    replay r = {.path = path};
    replay_sink sink = {html_header, html_decision, html_moved, html_aside, html_result, NULL};
    int rc = replay_walk(&r, &sink, &h);
    if (rc == 0) {
        av *data = av_map();
        av_set_str(data, "game", r.gvt->name);
        av_set_str(data, "title", r.gvt->title);
        av *names = av_list(), *readers = av_list();
        for (int s = 0; s < r.players; s++)
            av_push(names, av_str(r.names[s]));
        for (int k = 0; k < h.nreaders; k++)
            av_push(readers, av_int(h.reader[k]));
        av_set(data, "names", names);
        av_set(data, "readers", readers);
        av *clock = av_map();
        av_set_int(clock, "move_ms", r.clock.move_ms);
        av_set_int(clock, "bank_ms", r.clock.bank_ms);
        av_set(data, "clock", clock);
        av_set(data, "options", h.options ? h.options : av_nil());
        h.options = NULL;
        av *end = av_map();
        fill(&h, &r, end);
        if (h.result) {
            char *rt = result_text(&r, h.result);
            av_set_str(data, "result_text", rt);
            free(rt);
            av_set(end, "result", h.result);
            h.result = NULL;
        }
        av_set(data, "steps", h.steps);
        av_set(data, "end", end);
        av_set(data, "views", h.views);
        h.steps = h.views = NULL;
        char *js = av_to_json(data);
        const char *mark = strstr(viewer_html, "@ARENA_REPLAY_DATA@");
        fwrite(viewer_html, 1, (size_t)(mark - viewer_html), out);
        write_json_in_script(out, js);
        fputs(mark + strlen("@ARENA_REPLAY_DATA@"), out);
        free(js);
        av_free(data);
    }
    for (int k = 0; k < MAX_READERS; k++) {
        av_free(h.pending[k]);
        free(h.last[k]);
    }
    av_free(h.aside);
    av_free(h.steps);
    av_free(h.views);
    av_free(h.result);
    av_free(h.options);
    replay_free(&r);
    return rc;
}
