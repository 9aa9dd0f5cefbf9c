/* An entrant's private pages (author.h, docs/web.md). Every answer but the
 * page shell comes after the token: a wrong or missing token, or a name
 * that is no entrant or has no token, gets the same 403, and a network
 * that failed NETLIMIT_BURST times gets 429 until its bucket refills. */
#include "author.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include <event2/buffer.h>
#include <event2/http.h>
#include <event2/keyvalq_struct.h>

#include "assets.h"
#include "codec.h"
#include "ladder.h"
#include "matchlog.h"
#include "netlimit.h"
#include "replay.h"
#include "token.h"
#include "util.h"
#include "value.h"
#include "web.h"

#define NAME_MAX_AUTHOR 256
#define GAMES_SHOWN 200    /* newest games listed on the page */
#define DETAIL_CACHE 8     /* game pages kept (each is one replay of a log) */
#define LINES_MAX 2000     /* stderr, log and note lines kept per seat and game */
#define DECISIONS_MAX 5000 /* decisions kept per seat and game */
#define OPTIONS_MAX 100    /* option labels listed per decision */

typedef struct file_token {
    char *name;
    char rec[TOKEN_RECORD_LEN];
} file_token;

typedef struct stored_token {
    char *name, *rec; /* rec NULL: none stored */
    uint64_t stamp;   /* the snapshot it was read for */
} stored_token;

struct author {
    store *db;
    file_token *ft;
    int n_ft;
    stored_token *st;
    int n_st, cap_st;
    netlimit *lim;
    struct { /* a finished game's log does not change: no stamp in the key */
        int64_t game;
        char *name, *json;
    } cache[DETAIL_CACHE];
    int cache_next;
};

/* ---- tokens ---- */

author *author_new(store *db, const char *tokens_file, char *err, size_t errlen)
{
    author *a = xcalloc(1, sizeof *a);
    a->db = db;
    a->lim = netlimit_new();
    if (!tokens_file) return a;
    FILE *f = fopen(tokens_file, "r");
    if (!f) {
        snprintf(err, errlen, "cannot read tokens file '%s': %s", tokens_file, strerror(errno));
        author_free(a);
        return NULL;
    }
    char line[1024], why[128];
    int lineno = 0;
    bool ok = true;
    while (ok && fgets(line, sizeof line, f)) {
        lineno++;
        char tok[TOKEN_MAX + 2], name[NAME_MAX_AUTHOR + 2], extra[2];
        char *p = line + strspn(line, " \t");
        if (*p == '#' || *p == '\n' || *p == '\r' || *p == '\0') continue;
        int n = sscanf(p, "%256s %257s %1s", tok, name, extra);
        if (n != 2 || strlen(name) > NAME_MAX_AUTHOR) {
            snprintf(err, errlen, "%s:%d: expected 'TOKEN NAME'", tokens_file, lineno);
            ok = false;
        } else if (!token_valid(tok, why, sizeof why)) {
            snprintf(err, errlen, "%s:%d: %s", tokens_file, lineno, why);
            ok = false;
        }
        for (int i = 0; ok && i < a->n_ft; i++)
            if (!strcmp(a->ft[i].name, name) || token_matches(a->ft[i].rec, tok)) {
                snprintf(err, errlen, "%s:%d: a name or token repeated", tokens_file, lineno);
                ok = false;
            }
        if (ok) {
            a->ft = xrealloc(a->ft, (size_t)(a->n_ft + 1) * sizeof *a->ft);
            a->ft[a->n_ft].name = xstrdup(name);
            token_record(tok, a->ft[a->n_ft].rec); /* the clear token is not kept */
            a->n_ft++;
        }
        memset(tok, 0, sizeof tok);
        memset(line, 0, sizeof line);
    }
    fclose(f);
    if (!ok) {
        author_free(a);
        return NULL;
    }
    return a;
}

void author_free(author *a)
{
    if (!a) return;
    for (int i = 0; i < a->n_ft; i++)
        free(a->ft[i].name);
    free(a->ft);
    for (int i = 0; i < a->n_st; i++) {
        free(a->st[i].name);
        free(a->st[i].rec);
    }
    free(a->st);
    for (int i = 0; i < DETAIL_CACHE; i++) {
        free(a->cache[i].name);
        free(a->cache[i].json);
    }
    netlimit_free(a->lim);
    free(a);
}

/* The ladder's stored token record of an entrant, read once per snapshot
 * (the stamp changes when a version is added, the only write of one). */
static const char *stored_record(author *a, const web_snap *w, const char *name)
{
    stored_token *t = NULL;
    for (int i = 0; i < a->n_st && !t; i++)
        if (!strcmp(a->st[i].name, name)) t = &a->st[i];
    if (!t) {
        if (a->n_st == a->cap_st) {
            a->cap_st = a->cap_st ? 2 * a->cap_st : 16;
            a->st = xrealloc(a->st, (size_t)a->cap_st * sizeof *a->st);
        }
        t = &a->st[a->n_st++];
        t->name = xstrdup(name);
        t->rec = NULL;
        t->stamp = 0;
    }
    if (t->stamp != w->stamp) {
        char *k = xasprintf(LADDER_TOKEN_KEY "%s", name);
        free(t->rec);
        t->rec = store_meta(a->db, k);
        free(k);
        t->stamp = w->stamp;
    }
    return t->rec;
}

/* The agents of entrant `name`: a ladder's versions of that name, else the
 * agent of that name. false when there is none. */
static bool entrant_agents(const web_snap *w, const char *name, bool *mine)
{
    bool any = false;
    for (int i = 0; i < w->n; i++) {
        mine[i] = !strcmp(w->ladder ? w->roster.e[i].name : w->names[i], name);
        any |= mine[i];
    }
    return any;
}

/* The bearer token of the request, or NULL. */
static const char *bearer(struct evhttp_request *req)
{
    const char *h = evhttp_find_header(evhttp_request_get_input_headers(req), "Authorization");
    if (!h || strncasecmp(h, "Bearer ", 7) != 0) return NULL;
    h += 7;
    while (*h == ' ')
        h++;
    return *h ? h : NULL;
}

/* 200 when the request holds name's token, else 403 or 429. Both token
 * sources are hashed against, present or not, so the time taken tells
 * nothing of which entrants have a token. */
static int authorize(author *a, struct evhttp_request *req, const web_snap *w, const char *name,
                     bool *mine)
{
    const char *tok = bearer(req);
    bool entrant = entrant_agents(w, name, mine);
    const char *frec = NULL, *srec = entrant && w->ladder ? stored_record(a, w, name) : NULL;
    for (int i = 0; i < a->n_ft; i++)
        if (!strcmp(a->ft[i].name, name)) frec = a->ft[i].rec;
    bool m1 = token_matches(frec, tok), m2 = token_matches(srec, tok);
    if (entrant & (m1 | m2)) return 200;
    if (!tok) return 403; /* no try made */
    /* Tokens are strong (token.h): the right one is let in even when the
     * network's bucket is empty, so that others sharing its address (a
     * NAT, the reverse proxy) cannot lock an author out with wrong tries,
     * as `arena serve` lets a strong token join. */
    struct evhttp_connection *c = evhttp_request_get_connection(req);
    char net[64];
    netlimit_net(c ? evhttp_connection_get_addr(c) : NULL, net, sizeof net);
    if (!netlimit_may_fail(a->lim, net, NULL)) return 429;
    netlimit_failed(a->lim, net);
    return 403;
}

/* ---- replies ---- */

/* The same fixed bodies whatever was asked: nothing of the request. */
static void refuse(struct evhttp_request *req, int code)
{
    const char *why = code == 403   ? "forbidden"
                      : code == 429 ? "too many failed tries; wait a few seconds"
                                    : "not found";
    char body[128];
    snprintf(body, sizeof body, "{\"error\":%d,\"message\":\"%s\"}\n", code, why);
    if (code == 429) evhttp_add_header(evhttp_request_get_output_headers(req), "Retry-After", "2");
    web_reply(req, code,
              code == 403   ? "Forbidden"
              : code == 429 ? "Too Many Requests"
                            : "Not Found",
              "application/json; charset=utf-8", body, strlen(body));
}

static void send_json(struct evhttp_request *req, const char *js)
{
    web_reply(req, 200, "OK", "application/json; charset=utf-8", js, strlen(js));
}

/* ---- what is shown ---- */

/* The game's log, once its whole group ended, as for the public viewer:
 * under duplicate pairing a seat's view of an ended game shows the cards
 * that a game of the same group, still being played, deals to others. */
static char *log_path(const web_snap *w, const tgame *g)
{
    return w->logs[0] ? web_game_log(w, (size_t)(g - w->games)) : NULL;
}

static bool has_seat(const tgame *g, const bool *mine)
{
    for (int k = 0; k < g->s.players; k++)
        if (mine[g->s.seat[k]]) return true;
    return false;
}

static char *summary_json(const web_snap *w, const char *name, const bool *mine)
{
    av *root = av_map(), *versions = av_list(), *games = av_list(), *faults = av_list();
    av_set_str(root, "name", name);
    av_set_str(root, "kind", w->kind);
    av_set_str(root, "game", w->game);
    for (int i = 0; i < w->n; i++) {
        if (!mine[i]) continue;
        av *v = av_map();
        av_set_str(v, "agent", w->names[i]);
        av_set_str(v, "spec", w->specs[i]);
        if (w->ladder) {
            const ladder_entrant *e = &w->roster.e[i];
            av_set_int(v, "version", e->version);
            av_set_str(v, "state", ladder_state_name(e->state));
            av_set_str(v, "reason", e->reason);
            av_set_str(v, "validation_stderr", e->err); /* a failed validation's stderr */
        }
        av_push(versions, v);
    }
    int64_t finished = 0;
    for (size_t i = w->n_games; i-- > 0;) {
        const tgame *g = &w->games[i];
        if (!g->done || !has_seat(g, mine)) continue;
        if (finished++ >= GAMES_SHOWN) continue;
        char *log = log_path(w, g);
        for (int k = 0; k < g->s.players; k++) {
            if (!mine[g->s.seat[k]]) continue;
            av *o = av_map();
            av_set_int(o, "id", g->s.id);
            av_set_int(o, "seat", k);
            av_set_int(o, "players", g->s.players);
            av_set_str(o, "agent", w->names[g->s.seat[k]]);
            av_set_int(o, "rank", g->rank[k]);
            av_set_int(o, "score", g->score[k]);
            av_set_str(o, "forfeit", g->forfeit[k]);
            av_set_int(o, "turns", g->turns);
            av_set_bool(o, "details", log != NULL);
            av_push(games, o);
        }
        free(log);
    }
    web_faults_add(w, mine, faults);
    av_set(root, "versions", versions);
    av_set_int(root, "finished", finished);
    av_set(root, "games", games);
    av_set(root, "faults", faults);
    char *js = av_to_json(root);
    av_free(root);
    return js;
}

/* spec in single quotes for a POSIX shell. */
static char *shell_quote(const char *s)
{
    abuf b = {0};
    abuf_addc(&b, '\'');
    for (; *s; s++)
        if (*s == '\'')
            abuf_adds(&b, "'\\''");
        else
            abuf_addc(&b, *s);
    abuf_addc(&b, '\'');
    abuf_addc(&b, '\0');
    return (char *)b.data;
}

/* One replay of the log, keeping for the entrant's seats only what each
 * saw and wrote: its view at each of its decisions (view(seat), never
 * another seat's or the omniscient -1), its stderr, `log` and note lines,
 * its faults with their clock evidence. */
typedef struct detail {
    const bool *seat_mine; /* by seat */
    av *seat[ARENA_MAX_SEATS];
    int64_t decisions[ARENA_MAX_SEATS], lines[ARENA_MAX_SEATS];
} detail;

static void put_label(void *ctx, int i, const char *label)
{
    if (i < OPTIONS_MAX) av_push(ctx, av_str(label));
}

static void on_decision(void *ctx, replay *r, const arena_decision *d, const int *choice, int n,
                        const av *line)
{
    (void)choice;
    (void)n;
    detail *dt = ctx;
    if (d->seat < 0 || d->seat >= r->players || !dt->seat_mine[d->seat]) return;
    if (++dt->decisions[d->seat] > DECISIONS_MAX) return;
    av *o = av_map(), *opts = av_list();
    av_set_int(o, "n", dt->decisions[d->seat]);
    av_set_int(o, "turn", d->turn);
    av_set_str(o, "kind", d->kind);
    av_set(o, "view", game_view(r->g, d->seat));
    char buf[256];
    arena_game_labels(r->gvt, r->g, d->n_options, buf, sizeof buf, put_label, opts);
    av_set_int(o, "n_options", d->n_options);
    av_set(o, "options", opts);
    const av *labels = av_get(line, "labels");
    av_set(o, "choice", labels ? av_copy(labels) : av_list());
    const char *by = av_get_str(line, "by");
    av_set_str(o, "by", by ? by : "");
    const av *ms = av_get(line, "ms");
    av_set(o, "ms", ms ? av_copy(ms) : av_nil());
    av_push((av *)av_get(dt->seat[d->seat], "decisions"), o);
}

static void on_aside(void *ctx, replay *r, const av *line)
{
    detail *dt = ctx;
    int64_t s = -1;
    if (!av_get_int(line, "seat", &s) || s < 0 || s >= r->players || !dt->seat_mine[s]) return;
    const char *type = av_get_str(line, "type");
    av *o = av_map();
    const av *t = av_get(line, "t");
    av_set(o, "t", t ? av_copy(t) : av_nil());
    const char *list;
    if (!strcmp(type, "fault")) {
        list = "faults";
        const char *keys[] = {"cause", "message", "strikes", "verdict", "clock", NULL};
        for (int k = 0; keys[k]; k++) {
            const av *v = av_get(line, keys[k]);
            av_set(o, keys[k], v ? av_copy(v) : av_nil());
        }
    } else {
        const av *m = !strcmp(type, "msg") ? av_get(line, "msg") : line;
        const char *text = m ? av_get_str(m, "text") : NULL;
        list = !strcmp(type, "stderr") ? "stderr" : !strcmp(type, "msg") ? "log" : "notes";
        av_set_str(o, "text", text ? text : "");
        if (++dt->lines[s] > LINES_MAX) {
            av_free(o);
            return;
        }
    }
    av_push((av *)av_get(dt->seat[s], list), o);
}

static char *detail_json(const web_snap *w, const tgame *g, const bool *mine, const char *path)
{
    bool seat_mine[ARENA_MAX_SEATS] = {false};
    detail dt = {.seat_mine = seat_mine};
    av *root = av_map(), *seats = av_list();
    av_set_int(root, "game", g->s.id);
    for (int k = 0; k < g->s.players && k < ARENA_MAX_SEATS; k++) {
        if (!mine[g->s.seat[k]]) continue;
        seat_mine[k] = true;
        av *s = dt.seat[k] = av_map();
        av_set_int(s, "seat", k);
        av_set_str(s, "agent", w->names[g->s.seat[k]]);
        av_set_int(s, "rank", g->rank[k]);
        av_set_int(s, "score", g->score[k]);
        av_set_str(s, "forfeit", g->forfeit[k]);
        char *spec = shell_quote(w->specs[g->s.seat[k]]);
        av_set(s, "replay",
               av_strf("arena replay game-%06lld-private.jsonl --seat %d --agent %s",
                       (long long)g->s.id, k, spec));
        free(spec);
        av_set(s, "decisions", av_list());
        av_set(s, "stderr", av_list());
        av_set(s, "log", av_list());
        av_set(s, "notes", av_list());
        av_set(s, "faults", av_list());
    }
    replay r = {.path = path};
    replay_sink sink = {.decision = on_decision, .aside = on_aside};
    int rc = replay_walk(&r, &sink, &dt);
    replay_free(&r);
    for (int k = 0; k < ARENA_MAX_SEATS; k++) {
        if (!dt.seat[k]) continue;
        av_set_bool(dt.seat[k], "truncated",
                    dt.decisions[k] > DECISIONS_MAX || dt.lines[k] > LINES_MAX);
        av_push(seats, dt.seat[k]);
    }
    av_set(root, "seats", seats);
    av_set(root, "replayed", av_bool(rc == 0));
    char *js = av_to_json(root);
    av_free(root);
    return js;
}

/* The log with only what the entrant's seats were sent and did, enough for
 * `arena replay LOG --seat N --agent SPEC` (which feeds a bot the seat's
 * messages and checks its answers, without the game): the header without
 * its seed, the seats and result lines, and the lines of its seats. No
 * other seat's messages, choices, stderr or log lines, and no seed, so
 * nothing another seat held hidden, whether or not the event goes on. */
static int filtered_log(const char *path, const bool *seat_mine, int players, abuf *out)
{
    char err[512];
    matchlog_reader *rd = matchlog_read_open(path, err, sizeof err);
    if (!rd) return -1;
    const char *line;
    size_t len;
    int rc = 0;
    while ((line = matchlog_read_line(rd, &len))) {
        av *e = json_decode(line, len, err, sizeof err);
        if (!e) {
            rc = -1;
            break;
        }
        const char *type = av_get_str(e, "type");
        int64_t s = -1;
        bool seated = av_get_int(e, "seat", &s);
        bool keep;
        if (type && (!strcmp(type, "match") || !strcmp(type, "seats") || !strcmp(type, "result")))
            keep = !seated;
        else
            keep = seated && s >= 0 && s < players && s < ARENA_MAX_SEATS && seat_mine[s];
        if (keep) {
            av_free(av_take(e, "seed"));
            av_json_append(e, out);
            abuf_addc(out, '\n');
        }
        av_free(e);
    }
    if (matchlog_read_error(rd)) rc = -1;
    matchlog_read_close(rd);
    return rc;
}

/* ---- routes ---- */

/* The percent-decoded path segment at *p (up to the next '/'), advancing
 * past it; NULL when empty, too long, or holding a NUL or '/'. */
static char *segment(const char **p)
{
    const char *end = strchr(*p, '/');
    size_t n = end ? (size_t)(end - *p) : strlen(*p);
    if (n == 0 || n > 3 * NAME_MAX_AUTHOR) return NULL;
    char *raw = xasprintf("%.*s", (int)n, *p);
    size_t len = 0;
    char *s = evhttp_uridecode(raw, 0, &len);
    free(raw);
    if (!s) return NULL;
    if (len != strlen(s) || len > NAME_MAX_AUTHOR || strchr(s, '/')) {
        free(s);
        return NULL;
    }
    *p += n;
    return s;
}

static bool game_id(const char *text, int64_t *id)
{
    char *end;
    errno = 0;
    long long v = strtoll(text, &end, 10);
    if (errno || end == text || *end || v <= 0 || text[0] < '0' || text[0] > '9') return false;
    *id = v;
    return true;
}

static const tgame *find_game(const web_snap *w, int64_t id, const bool *mine)
{
    for (size_t i = 0; i < w->n_games; i++)
        if (w->games[i].s.id == id)
            return w->games[i].done && has_seat(&w->games[i], mine) ? &w->games[i] : NULL;
    return NULL;
}

static void on_detail(author *a, struct evhttp_request *req, const web_snap *w, const char *name,
                      const bool *mine, int64_t id)
{
    const tgame *g = find_game(w, id, mine);
    char *path = g ? log_path(w, g) : NULL;
    if (!path) {
        free(path);
        refuse(req, 404);
        return;
    }
    int k = -1;
    for (int i = 0; i < DETAIL_CACHE; i++)
        if (a->cache[i].json && a->cache[i].game == id && !strcmp(a->cache[i].name, name)) k = i;
    if (k < 0) {
        k = a->cache_next;
        a->cache_next = (a->cache_next + 1) % DETAIL_CACHE;
        free(a->cache[k].name);
        free(a->cache[k].json);
        a->cache[k].game = id;
        a->cache[k].name = xstrdup(name);
        a->cache[k].json = detail_json(w, g, mine, path);
    }
    free(path);
    send_json(req, a->cache[k].json);
}

static void on_log(struct evhttp_request *req, const web_snap *w, const bool *mine, int64_t id)
{
    const tgame *g = find_game(w, id, mine);
    char *path = g ? log_path(w, g) : NULL;
    if (!path) {
        refuse(req, 404);
        return;
    }
    bool seat_mine[ARENA_MAX_SEATS] = {false};
    for (int k = 0; k < g->s.players && k < ARENA_MAX_SEATS; k++)
        seat_mine[k] = mine[g->s.seat[k]];
    abuf out = {0};
    int rc = filtered_log(path, seat_mine, g->s.players, &out);
    free(path);
    if (rc != 0) {
        free(out.data);
        refuse(req, 404);
        return;
    }
    char disp[96];
    snprintf(disp, sizeof disp, "attachment; filename=\"game-%06lld-private.jsonl\"",
             (long long)id);
    evhttp_add_header(evhttp_request_get_output_headers(req), "Content-Disposition", disp);
    web_reply(req, 200, "OK", "application/x-ndjson", out.len ? (const char *)out.data : "",
              out.len);
    free(out.data);
}

void author_route(author *a, struct evhttp_request *req, const char *path, const web_snap *w)
{
    bool api = !strncmp(path, "/api/author/", 12);
    const char *p = path + (api ? 12 : 8);
    char *name = segment(&p);
    if (!name) {
        refuse(req, 404);
        return;
    }
    /* What follows the name: "" (the page or the summary), "/game/ID"
     * (api) or "/log/ID" (the page's download). */
    const char *rest = p;
    int64_t id = 0;
    enum { PAGE, SUMMARY, DETAIL, LOG, NONE } what = NONE;
    if (!*rest)
        what = api ? SUMMARY : PAGE;
    else if (api && !strncmp(rest, "/game/", 6) && game_id(rest + 6, &id))
        what = DETAIL;
    else if (!api && !strncmp(rest, "/log/", 5) && game_id(rest + 5, &id))
        what = LOG;
    if (what == NONE) {
        free(name);
        refuse(req, 404);
        return;
    }
    if (what == PAGE) {
        /* The shell holds nothing of the entrant: the script asks for the
         * token and fetches the rest with it. */
        char *html = web_page_html("Author");
        web_reply(req, 200, "OK", "text/html; charset=utf-8", html, strlen(html));
        free(html);
        free(name);
        return;
    }
    bool *mine = xcalloc((size_t)w->n + 1, sizeof *mine);
    int code = authorize(a, req, w, name, mine);
    if (code != 200)
        refuse(req, code);
    else if (what == SUMMARY) {
        char *js = summary_json(w, name, mine);
        send_json(req, js);
        free(js);
    } else if (what == DETAIL)
        on_detail(a, req, w, name, mine, id);
    else
        on_log(req, w, mine, id);
    free(mine);
    free(name);
}
