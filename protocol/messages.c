/* Typed messages of protocol.md §2 <-> value-tree maps. */
#include "messages.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

static const char *const type_names[MSG__COUNT] = {
    [MSG_HELLO] = "hello", [MSG_DECIDE] = "decide", [MSG_EVENT] = "event", [MSG_OVER] = "over",
    [MSG_ERROR] = "error", [MSG_BYE] = "bye",       [MSG_JOIN] = "join",   [MSG_READY] = "ready",
    [MSG_ACT] = "act",     [MSG_LOG] = "log",
};

const char *msg_type_name(msg_type t)
{
    return (unsigned)t < MSG__COUNT ? type_names[t] : "unknown";
}

msg_type msg_type_parse(const char *name)
{
    if (!name) return MSG__COUNT;
    for (int t = 0; t < MSG__COUNT; t++)
        if (strcmp(type_names[t], name) == 0) return (msg_type)t;
    return MSG__COUNT;
}

/* ---------------------------------------------------------------- encode */

static av *copy_or(const av *v, av *(*make)(void))
{
    return v ? av_copy(v) : make();
}

static av *clock_encode(const msg_clock *c)
{
    av *m = av_map();
    av_set_int(m, "move_ms", c->move_ms);
    av_set_int(m, "bank_ms", c->bank_ms);
    av_set(m, "game_ms", c->game_ms < 0 ? av_nil() : av_int(c->game_ms));
    if (c->startup_ms >= 0) av_set_int(m, "startup_ms", c->startup_ms);
    if (c->mode[0]) av_set_str(m, "mode", c->mode);
    return m;
}

static av *str_list(char *const *s, size_t n)
{
    av *l = av_list();
    for (size_t i = 0; i < n; i++)
        av_push(l, av_str(s[i] ? s[i] : ""));
    return l;
}

static av *int_list(const int64_t *v, size_t n)
{
    av *l = av_list();
    for (size_t i = 0; i < n; i++)
        av_push(l, av_int(v[i]));
    return l;
}

static void set_opt_str(av *m, const char *key, const char *s)
{
    if (s) av_set_str(m, key, s);
}

av *msg_encode(const msg *m)
{
    av *o = av_map();
    av_set_str(o, "type", msg_type_name(m->type));
    switch (m->type) {
    case MSG_HELLO: {
        const msg_hello *h = &m->u.hello;
        av_set_int(o, "protocol", h->protocol);
        av_set_str(o, "game", h->game ? h->game : "");
        av_set(o, "options", copy_or(h->options, av_map));
        av_set_int(o, "seat", h->seat);
        av_set_int(o, "players", h->players);
        av_set(o, "names", str_list(h->names, h->n_names));
        av_set_str(o, "match", h->match ? h->match : "");
        av_set(o, "clock", clock_encode(&h->clock));
        break;
    }
    case MSG_DECIDE: {
        const msg_decide *d = &m->u.decide;
        av_set_int(o, "id", (int64_t)d->id);
        av_set_str(o, "kind", d->kind ? d->kind : "");
        av_set_str(o, "prompt", d->prompt ? d->prompt : "");
        av *opts = av_list();
        for (size_t i = 0; i < d->n_options; i++)
            av_push(opts, av_set_str(av_map(), "label", d->labels[i] ? d->labels[i] : ""));
        av_set(o, "options", opts);
        av *pick = av_map();
        av_set_int(pick, "min", d->pick.min);
        av_set_int(pick, "max", d->pick.max);
        av_set_bool(pick, "ordered", d->pick.ordered);
        av_set(o, "pick", pick);
        av_set(o, "view", copy_or(d->view, av_map));
        av_set(o, "events", copy_or(d->events, av_list));
        av_set(o, "clock", clock_encode(&d->clock));
        break;
    }
    case MSG_EVENT: av_set(o, "events", copy_or(m->u.event.events, av_list)); break;
    case MSG_OVER: {
        const msg_over *r = &m->u.over;
        av *res = av_map();
        av_set(res, "ranks", int_list(r->ranks, r->n_seats));
        av_set(res, "scores", int_list(r->scores, r->n_seats));
        av_set_str(res, "reason", r->reason ? r->reason : "normal");
        av *ff = av_list();
        for (size_t i = 0; i < r->n_forfeits; i++) {
            av *f = av_map();
            av_set_int(f, "seat", r->forfeits[i].seat);
            av_set_str(f, "cause", r->forfeits[i].cause);
            av_push(ff, f);
        }
        av_set(res, "forfeits", ff);
        av_set(o, "result", res);
        av_set(o, "view", copy_or(r->view, av_map));
        break;
    }
    case MSG_ERROR:
        av_set_int(o, "id", (int64_t)m->u.error.id);
        av_set_str(o, "code", m->u.error.code ? m->u.error.code : "protocol");
        av_set_str(o, "message", m->u.error.message ? m->u.error.message : "");
        av_set_int(o, "strikes_left", m->u.error.strikes_left);
        break;
    case MSG_JOIN:
        av_set_str(o, "name", m->u.join.name ? m->u.join.name : "");
        set_opt_str(o, "version", m->u.join.version);
        set_opt_str(o, "author", m->u.join.author);
        set_opt_str(o, "token", m->u.join.token);
        break;
    case MSG_ACT:
        av_set_int(o, "id", (int64_t)m->u.act.id);
        av_set(o, "choice", int_list(m->u.act.choice, m->u.act.n_choice));
        break;
    case MSG_LOG: av_set_str(o, "text", m->u.log.text ? m->u.log.text : ""); break;
    case MSG_BYE:
    case MSG_READY:
    case MSG__COUNT: break;
    }
    return o;
}

/* ---------------------------------------------------------------- decode */

typedef struct dctx {
    const char *type; /* message type, prefixes every error */
    av *take;         /* msg_decode_take: the map whose subtrees may be moved out */
    char *err;
    size_t errlen;
    /* get()'s memory: where the next search starts (just past the key
     * found last) in the message's map and in the other map looked into
     * last. */
    const av *top, *other;
    size_t hint_top, hint_other;
} dctx;

/* Does the stored key k equal key? */
static bool same_key(const char *k, const char *key)
{
    while (*k == *key) {
        if (!*k) return true;
        k++, key++;
    }
    return false;
}

/* av_get, for the small maps of the protocol searched from where the last
 * search in the same map stopped: senders list keys in the order of
 * protocol.md, which is the order they are read here, so most searches hit
 * at the first key they look at. Large maps use av_get's index. */
static const av *get(dctx *c, const av *map, const char *key)
{
    if (!map || map->type != AV_MAP || map->u.map.len > 16) return av_get(map, key);
    size_t *hint = &c->hint_top;
    if (map != c->top) {
        if (map != c->other) c->other = map, c->hint_other = 0;
        hint = &c->hint_other;
    }
    size_t n = map->u.map.len, at = *hint < n ? *hint : 0;
    for (size_t k = 0; k < n; k++, at = at + 1 < n ? at + 1 : 0)
        if (same_key(map->u.map.keys[at], key)) {
            *hint = at + 1;
            return map->u.map.vals[at];
        }
    return NULL;
}

static int bad(dctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int bad(dctx *c, const char *fmt, ...)
{
    if (!c->err || !c->errlen) return -1;
    int k = snprintf(c->err, c->errlen, "%s: ", c->type);
    if (k >= 0 && (size_t)k < c->errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(c->err + k, c->errlen - (size_t)k, fmt, ap);
        va_end(ap);
    }
    return -1;
}

static const char *type_desc(const av *v)
{
    switch (v->type) {
    case AV_NIL: return "nil";
    case AV_BOOL: return "a boolean";
    case AV_INT: return "an integer";
    case AV_FLOAT: return "a float";
    case AV_STR: return "a string";
    case AV_LIST: return "a list";
    case AV_MAP: return "a map";
    }
    return "?";
}

/* Struct fields are C strings: an embedded NUL would silently cut them. */
static bool has_nul(const av *str)
{
    return strlen(str->u.str.s) != str->u.str.len;
}

/* Fetches a required key of the given type; path names it in errors. */
static const av *need(dctx *c, const av *map, const char *key, const char *path, av_type t,
                      const char *want)
{
    const av *v = get(c, map, key);
    if (!v) {
        bad(c, "missing key \"%s\"", path);
        return NULL;
    }
    if (v->type != t) {
        bad(c, "key \"%s\" must be %s, not %s", path, want, type_desc(v));
        return NULL;
    }
    return v;
}

static int need_int(dctx *c, const av *map, const char *key, const char *path, int64_t *out)
{
    const av *v = need(c, map, key, path, AV_INT, "an integer");
    if (!v) return -1;
    *out = v->u.i;
    return 0;
}

static int need_nonneg(dctx *c, const av *map, const char *key, const char *path, int64_t *out)
{
    if (need_int(c, map, key, path, out) < 0) return -1;
    if (*out < 0) return bad(c, "key \"%s\" must be a non-negative integer", path);
    return 0;
}

static int need_uint(dctx *c, const av *map, const char *key, const char *path, uint64_t *out)
{
    int64_t i = 0;
    if (need_nonneg(c, map, key, path, &i) < 0) return -1;
    *out = (uint64_t)i;
    return 0;
}

static int need_str(dctx *c, const av *map, const char *key, const char *path, char **out)
{
    const av *v = need(c, map, key, path, AV_STR, "a string");
    if (!v) return -1;
    if (has_nul(v)) return bad(c, "key \"%s\" contains a NUL byte", path);
    *out = xstrdup(v->u.str.s);
    return 0;
}

/* Free text (prompt, message, log line): a NUL merely ends the C string, which
 * costs nothing, so it is not worth a protocol error. */
static int need_text(dctx *c, const av *map, const char *key, char **out)
{
    const av *v = need(c, map, key, key, AV_STR, "a string");
    if (!v) return -1;
    *out = xstrdup(v->u.str.s);
    return 0;
}

/* Optional string: absent or nil leaves *out NULL. */
static int opt_str(dctx *c, const av *map, const char *key, char **out)
{
    const av *v = get(c, map, key);
    if (!v || v->type == AV_NIL) return 0;
    if (v->type != AV_STR) return bad(c, "key \"%s\" must be a string, not %s", key, type_desc(v));
    if (has_nul(v)) return bad(c, "key \"%s\" contains a NUL byte", key);
    *out = xstrdup(v->u.str.s);
    return 0;
}

static int need_copy(dctx *c, const av *map, const char *key, av_type t, av **out)
{
    const av *v = need(c, map, key, key, t, t == AV_MAP ? "a map" : "a list");
    if (!v) return -1;
    /* A top-level subtree of a map the caller gave away is moved, not
     * copied: the view and events are most of a decide. */
    *out = c->take == map ? av_take(c->take, key) : av_copy(v);
    return 0;
}

static int int_items(dctx *c, const av *list, const char *path, int64_t **out, size_t *n)
{
    size_t len = av_len(list);
    *out = xcalloc(len ? len : 1, sizeof **out);
    *n = len;
    for (size_t i = 0; i < len; i++) {
        const av *e = list->u.list.items[i];
        if (e->type != AV_INT)
            return bad(c, "%s[%zu] must be an integer, not %s", path, i, type_desc(e));
        (*out)[i] = e->u.i;
    }
    return 0;
}

static int clock_decode(dctx *c, const av *map, bool full, msg_clock *out)
{
    const av *ck = need(c, map, "clock", "clock", AV_MAP, "a map");
    if (!ck) return -1;
    out->startup_ms = -1;
    out->mode[0] = '\0';
    /* Durations: never negative (a negative startup_ms would read as absent). */
    if (need_nonneg(c, ck, "move_ms", "clock.move_ms", &out->move_ms) < 0) return -1;
    if (need_nonneg(c, ck, "bank_ms", "clock.bank_ms", &out->bank_ms) < 0) return -1;
    const av *g = get(c, ck, "game_ms");
    if (!g || g->type == AV_NIL)
        out->game_ms = -1;
    else if (g->type == AV_INT && g->u.i >= 0)
        out->game_ms = g->u.i;
    else
        return bad(c, "key \"clock.game_ms\" must be a non-negative integer or nil");
    const av *s = get(c, ck, "startup_ms");
    if (full || (s && s->type != AV_NIL))
        if (need_nonneg(c, ck, "startup_ms", "clock.startup_ms", &out->startup_ms) < 0) return -1;
    const av *md = get(c, ck, "mode");
    if (full || (md && md->type != AV_NIL)) {
        const av *v = need(c, ck, "mode", "clock.mode", AV_STR, "a string");
        if (!v) return -1;
        if (strcmp(v->u.str.s, "wall") != 0 && strcmp(v->u.str.s, "cpu") != 0)
            return bad(c, "key \"clock.mode\" must be \"wall\" or \"cpu\"");
        snprintf(out->mode, sizeof out->mode, "%s", v->u.str.s);
    }
    return 0;
}

static bool one_of(const char *s, const char *const *set)
{
    for (; *set; set++)
        if (strcmp(s, *set) == 0) return true;
    return false;
}

static int hello_decode(dctx *c, const av *m, msg_hello *h)
{
    if (need_int(c, m, "protocol", "protocol", &h->protocol) < 0) return -1;
    if (need_str(c, m, "game", "game", &h->game) < 0) return -1;
    if (need_copy(c, m, "options", AV_MAP, &h->options) < 0) return -1;
    if (need_int(c, m, "seat", "seat", &h->seat) < 0) return -1;
    if (need_int(c, m, "players", "players", &h->players) < 0) return -1;
    const av *names = need(c, m, "names", "names", AV_LIST, "a list");
    if (!names) return -1;
    h->n_names = av_len(names);
    h->names = xcalloc(h->n_names ? h->n_names : 1, sizeof *h->names);
    for (size_t i = 0; i < h->n_names; i++) {
        const av *e = names->u.list.items[i];
        if (e->type != AV_STR || has_nul(e))
            return bad(c, "names[%zu] must be a string without NUL bytes", i);
        h->names[i] = xstrdup(e->u.str.s);
    }
    if (need_str(c, m, "match", "match", &h->match) < 0) return -1;
    return clock_decode(c, m, true, &h->clock);
}

static int decide_decode(dctx *c, const av *m, msg_decide *d)
{
    if (need_uint(c, m, "id", "id", &d->id) < 0) return -1;
    if (need_str(c, m, "kind", "kind", &d->kind) < 0) return -1;
    if (need_text(c, m, "prompt", &d->prompt) < 0) return -1;
    const av *opts = need(c, m, "options", "options", AV_LIST, "a list");
    if (!opts) return -1;
    d->n_options = av_len(opts);
    d->labels = xcalloc(d->n_options ? d->n_options : 1, sizeof *d->labels);
    for (size_t i = 0; i < d->n_options; i++) {
        const av *o = opts->u.list.items[i];
        if (o->type != AV_MAP) return bad(c, "options[%zu] must be a map", i);
        const av *label = get(c, o, "label");
        if (!label || label->type != AV_STR || has_nul(label))
            return bad(c, "options[%zu] needs a string \"label\" (without NUL bytes)", i);
        d->labels[i] = xstrdup(label->u.str.s);
    }
    const av *pick = need(c, m, "pick", "pick", AV_MAP, "a map");
    if (!pick) return -1;
    if (need_int(c, pick, "min", "pick.min", &d->pick.min) < 0) return -1;
    if (need_int(c, pick, "max", "pick.max", &d->pick.max) < 0) return -1;
    const av *ord = need(c, pick, "ordered", "pick.ordered", AV_BOOL, "a boolean");
    if (!ord) return -1;
    d->pick.ordered = ord->u.b;
    if (need_copy(c, m, "view", AV_MAP, &d->view) < 0) return -1;
    if (need_copy(c, m, "events", AV_LIST, &d->events) < 0) return -1;
    return clock_decode(c, m, false, &d->clock);
}

static int over_decode(dctx *c, const av *m, msg_over *o)
{
    static const char *const reasons[] = {"normal", "forfeit", "aborted", NULL};
    static const char *const causes[] = {"timeout", "illegal", "crash", "protocol", NULL};
    const av *res = need(c, m, "result", "result", AV_MAP, "a map");
    if (!res) return -1;
    const av *ranks = need(c, res, "ranks", "result.ranks", AV_LIST, "a list");
    if (!ranks) return -1;
    const av *scores = need(c, res, "scores", "result.scores", AV_LIST, "a list");
    if (!scores) return -1;
    if (av_len(ranks) != av_len(scores))
        return bad(c, "result.ranks and result.scores differ in length");
    size_t n;
    if (int_items(c, ranks, "result.ranks", &o->ranks, &o->n_seats) < 0) return -1;
    if (int_items(c, scores, "result.scores", &o->scores, &n) < 0) return -1;
    if (need_str(c, res, "reason", "result.reason", &o->reason) < 0) return -1;
    if (!one_of(o->reason, reasons))
        return bad(c, "result.reason must be \"normal\", \"forfeit\" or \"aborted\"");
    const av *ff = need(c, res, "forfeits", "result.forfeits", AV_LIST, "a list");
    if (!ff) return -1;
    o->n_forfeits = av_len(ff);
    o->forfeits = xcalloc(o->n_forfeits ? o->n_forfeits : 1, sizeof *o->forfeits);
    for (size_t i = 0; i < o->n_forfeits; i++) {
        const av *f = ff->u.list.items[i];
        if (f->type != AV_MAP) return bad(c, "result.forfeits[%zu] must be a map", i);
        if (!av_get_int(f, "seat", &o->forfeits[i].seat))
            return bad(c, "result.forfeits[%zu] needs an integer \"seat\"", i);
        const char *cause = av_get_str(f, "cause");
        if (!cause || !one_of(cause, causes))
            return bad(c,
                       "result.forfeits[%zu].cause must be \"timeout\", \"illegal\", \"crash\" "
                       "or \"protocol\"",
                       i);
        snprintf(o->forfeits[i].cause, sizeof o->forfeits[i].cause, "%s", cause);
    }
    return need_copy(c, m, "view", AV_MAP, &o->view);
}

static int error_decode(dctx *c, const av *m, msg_error *e)
{
    static const char *const codes[] = {"illegal", "timeout", "protocol", NULL};
    /* id may be nil when the error concerns no particular decision. */
    const av *id = get(c, m, "id");
    if (id && id->type != AV_NIL && need_uint(c, m, "id", "id", &e->id) < 0) return -1;
    if (need_str(c, m, "code", "code", &e->code) < 0) return -1;
    if (!one_of(e->code, codes))
        return bad(c, "code must be \"illegal\", \"timeout\" or \"protocol\"");
    if (need_text(c, m, "message", &e->message) < 0) return -1;
    return need_int(c, m, "strikes_left", "strikes_left", &e->strikes_left);
}

static int join_decode(dctx *c, const av *m, msg_join *j)
{
    if (need_str(c, m, "name", "name", &j->name) < 0) return -1;
    if (opt_str(c, m, "version", &j->version) < 0) return -1;
    if (opt_str(c, m, "author", &j->author) < 0) return -1;
    return opt_str(c, m, "token", &j->token);
}

static int act_decode(dctx *c, const av *m, msg_act *a)
{
    if (need_uint(c, m, "id", "id", &a->id) < 0) return -1;
    const av *ch = get(c, m, "choice");
    if (!ch) return bad(c, "missing key \"choice\"");
    if (ch->type == AV_INT) { /* single index, allowed for pick.max == 1 */
        a->choice = xmalloc(sizeof *a->choice);
        a->choice[0] = ch->u.i;
        a->n_choice = 1;
        return 0;
    }
    if (ch->type != AV_LIST)
        return bad(c, "key \"choice\" must be a list of integers or an integer, not %s",
                   type_desc(ch));
    return int_items(c, ch, "choice", &a->choice, &a->n_choice);
}

static int decode(const av *map, av *take, msg *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    out->type = MSG__COUNT;
    dctx c = {.type = "message", .take = take, .err = err, .errlen = errlen, .top = map};
    if (!map || map->type != AV_MAP)
        return bad(&c, "top level must be a map, not %s", map ? type_desc(map) : "nothing");
    const av *tv = get(&c, map, "type");
    if (!tv) return bad(&c, "missing key \"type\"");
    if (tv->type != AV_STR) return bad(&c, "key \"type\" must be a string, not %s", type_desc(tv));
    msg_type t = msg_type_parse(tv->u.str.s);
    if (t == MSG__COUNT || strlen(tv->u.str.s) != tv->u.str.len) {
        /* Clip hostile names so the one-line error stays short. */
        char shown[40];
        size_t k = 0;
        for (size_t i = 0; i < tv->u.str.len && k + 1 < sizeof shown; i++) {
            char ch = tv->u.str.s[i];
            shown[k++] = (ch >= 0x20 && ch < 0x7f && ch != '"') ? ch : '?';
        }
        shown[k] = '\0';
        return bad(&c, "unknown type \"%s%s\"", shown, tv->u.str.len >= sizeof shown ? "..." : "");
    }
    out->type = t;
    c.type = type_names[t];
    int r = 0;
    switch (t) {
    case MSG_HELLO: r = hello_decode(&c, map, &out->u.hello); break;
    case MSG_DECIDE: r = decide_decode(&c, map, &out->u.decide); break;
    case MSG_EVENT: r = need_copy(&c, map, "events", AV_LIST, &out->u.event.events); break;
    case MSG_OVER: r = over_decode(&c, map, &out->u.over); break;
    case MSG_ERROR: r = error_decode(&c, map, &out->u.error); break;
    case MSG_JOIN: r = join_decode(&c, map, &out->u.join); break;
    case MSG_ACT: r = act_decode(&c, map, &out->u.act); break;
    case MSG_LOG: r = need_text(&c, map, "text", &out->u.log.text); break;
    case MSG_BYE:
    case MSG_READY:
    case MSG__COUNT: break;
    }
    if (r < 0) {
        msg_free(out);
        out->type = MSG__COUNT;
        return -1;
    }
    return 0;
}

static void free_strs(char **s, size_t n)
{
    if (!s) return;
    for (size_t i = 0; i < n; i++)
        free(s[i]);
    free(s);
}

void msg_free(msg *m)
{
    if (!m) return;
    switch (m->type) {
    case MSG_HELLO:
        free(m->u.hello.game);
        av_free(m->u.hello.options);
        free_strs(m->u.hello.names, m->u.hello.n_names);
        free(m->u.hello.match);
        break;
    case MSG_DECIDE:
        free(m->u.decide.kind);
        free(m->u.decide.prompt);
        free_strs(m->u.decide.labels, m->u.decide.n_options);
        av_free(m->u.decide.view);
        av_free(m->u.decide.events);
        break;
    case MSG_EVENT: av_free(m->u.event.events); break;
    case MSG_OVER:
        free(m->u.over.ranks);
        free(m->u.over.scores);
        free(m->u.over.reason);
        free(m->u.over.forfeits);
        av_free(m->u.over.view);
        break;
    case MSG_ERROR:
        free(m->u.error.code);
        free(m->u.error.message);
        break;
    case MSG_JOIN:
        free(m->u.join.name);
        free(m->u.join.version);
        free(m->u.join.author);
        free(m->u.join.token);
        break;
    case MSG_ACT: free(m->u.act.choice); break;
    case MSG_LOG: free(m->u.log.text); break;
    case MSG_BYE:
    case MSG_READY:
    case MSG__COUNT: break;
    }
    memset(&m->u, 0, sizeof m->u);
}

int msg_decode(const av *map, msg *out, char *err, size_t errlen)
{
    return decode(map, NULL, out, err, errlen);
}

int msg_decode_take(av *map, msg *out, char *err, size_t errlen)
{
    return decode(map, map, out, err, errlen);
}
