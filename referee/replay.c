/* Walking a match log (see replay.h): the game is re-created from the log's
 * seed and settings, every logged choice re-applied and checked, and a sink
 * told what happens. */
#include "replay.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "codec.h"
#include "game_rng.h"
#include "matchlog.h"
#include "utf8.h"
#include "util.h"

/* The message may quote the log (a kind, a card's field), which may come
 * from anyone: masked as bot text is. */
static int fail(const replay *r, long line, const char *what)
{
    char *msg = xasprintf("arena: %s:%ld: %s", r->path, line, what);
    utf8_mask_lines(msg);
    fprintf(stderr, "%s\n", msg);
    free(msg);
    return 1;
}

void replay_audience(const replay *r, size_t i, char *buf, size_t len)
{
    int seen[ARENA_MAX_SEATS], n = 0;
    for (int s = 0; s < r->players; s++)
        if (r->gvt->event(r->g, i, s)) seen[n++] = s;
    buf[0] = 0;
    if (n == r->players) return;
    size_t off = (size_t)snprintf(buf, len, n == 1 ? "seat" : n ? "seats" : "nobody");
    for (int k = 0; k < n && off < len; k++)
        off += (size_t)snprintf(buf + off, len - off, "%s %d", k ? "," : "", seen[k]);
}

static void read_settings(const av *e, arena_setting *s, size_t *ns, size_t cap)
{
    const av *set = av_get(e, "settings");
    *ns = 0;
    for (size_t k = 0; set && set->type == AV_LIST && k < set->u.list.len && *ns < cap; k++) {
        const av *kv = set->u.list.items[k];
        if (kv->type != AV_LIST || kv->u.list.len != 2 || kv->u.list.items[0]->type != AV_STR ||
            kv->u.list.items[1]->type != AV_STR)
            continue;
        s[*ns].key = kv->u.list.items[0]->u.str.s;
        s[*ns].value = kv->u.list.items[1]->u.str.s;
        (*ns)++;
    }
}

static void read_names(replay *r, const av *names)
{
    if (!names || names->type != AV_LIST) return; /* a crafted log's, maybe a string */
    for (int k = 0; k < r->players && k < (int)names->u.list.len; k++)
        if (names->u.list.items[k]->type == AV_STR) {
            snprintf(r->names[k], sizeof r->names[k], "%s", names->u.list.items[k]->u.str.s);
            utf8_mask_controls(r->names[k], false); /* agents chose them */
        }
}

static int on_header(replay *r, const av *e, long lineno, char *err, size_t errlen)
{
    const char *game = av_get_str(e, "game");
    int64_t seed, players;
    r->gvt = game ? arena_find_game(game) : NULL;
    if (!r->gvt || !av_get_int(e, "seed", &seed) || !av_get_int(e, "players", &players) ||
        players < 1 || players > ARENA_MAX_SEATS)
        return fail(r, lineno, "bad match header (game, seed, players)");
    /* A seed deals alike only through the same generator. */
    const char *rng = av_get_str(e, "rng");
    if (!rng || strcmp(rng, GAME_RNG_NAME) != 0)
        return fail(r, lineno,
                    rng ? "the log's games were dealt by another rng than this arena's"
                        : "the log was written before the games' rng became " GAME_RNG_NAME
                          " (it names none): this arena deals its seed otherwise");
    r->players = (int)players;
    for (int k = 0; k < r->players; k++)
        snprintf(r->names[k], sizeof r->names[k], "?");
    read_names(r, av_get(e, "agents"));
    clock_config_default(&r->clock);
    const av *c = av_get(e, "clock");
    if (c) {
        av_get_int(c, "move_ms", &r->clock.move_ms);
        av_get_int(c, "bank_ms", &r->clock.bank_ms);
    }
    const char *mode = c ? av_get_str(c, "mode") : NULL;
    verdict_start(&r->v, r->players, mode && strcmp(mode, "cpu") == 0);
    arena_setting s[64];
    size_t ns;
    read_settings(e, s, &ns, 64);
    /* The cards come from the log, whatever path its settings name. */
    const av *opts = av_get(e, "options");
    char *logged = opts && opts->type == AV_MAP ? av_to_json(opts) : xstrdup("null");
    for (size_t k = 0; k < ns; k++)
        if (strcmp(s[k].key, "cards") == 0) s[k].value = logged;
    r->g = r->gvt->create(s, ns, (uint64_t)seed, r->players, ARENA_GAME_FROM_LOG, err, errlen);
    free(logged);
    return r->g ? 0 : fail(r, lineno, err);
}

/* Checks a logged choice against the game and applies it. */
static int on_choice(replay *r, const replay_sink *sink, void *ctx, const av *e, long lineno)
{
    int64_t seat;
    const char *kind = av_get_str(e, "kind");
    const av *idx = av_get(e, "choice"), *labels = av_get(e, "labels");
    arena_decision d;
    if (!r->g || !av_get_int(e, "seat", &seat) || !kind || !idx || idx->type != AV_LIST)
        return fail(r, lineno, "choice line before the header, or malformed");
    if (!game_decision(r->g, &d))
        return fail(r, lineno, "the log has a choice but the game is already over");
    if (d.seat != seat || strcmp(d.kind, kind) != 0) {
        char err[300];
        snprintf(err, sizeof err,
                 "does not reproduce: log has seat %" PRId64 " '%s', game asks seat %d '%s'", seat,
                 kind, d.seat, d.kind);
        return fail(r, lineno, err);
    }
    int n = (int)idx->u.list.len;
    int *c = xcalloc((size_t)(n ? n : 1), sizeof *c);
    bool ok = true;
    for (int k = 0; k < n && ok; k++) {
        const av *x = idx->u.list.items[k];
        if (x->type != AV_INT || x->u.i < 0 || x->u.i >= d.n_options) {
            ok = false;
            break;
        }
        c[k] = (int)x->u.i;
        char lab[256];
        r->gvt->label(r->g, c[k], lab, sizeof lab);
        const av *want = labels && k < (int)av_len(labels) ? labels->u.list.items[k] : NULL;
        ok = want && want->type == AV_STR && strcmp(want->u.str.s, lab) == 0;
    }
    ok = ok && !arena_check_choice(&d, c, n);
    if (ok && sink->decision) sink->decision(ctx, r, &d, c, n, e);
    ok = ok && game_apply(r->g, c, n);
    free(c);
    if (!ok) return fail(r, lineno, "does not reproduce: the options or labels differ");
    r->choices++;
    if (sink->moved) sink->moved(ctx, r);
    return 0;
}

static int on_result(replay *r, const av *e, long lineno)
{
    r->have_result = true;
    arena_result res;
    r->gvt->result(r->g, &res);
    char why[800];
    return verdict_result(&r->v, &res, e, why, sizeof why) ? 0 : fail(r, lineno, why);
}

static bool is_aside(const char *type, const av *e)
{
    if (!strcmp(type, "fault") || !strcmp(type, "stderr") || !strcmp(type, "note")) return true;
    if (strcmp(type, "msg") != 0) return false;
    const char *dir = av_get_str(e, "dir");
    const av *m = av_get(e, "msg");
    const char *mt = m ? av_get_str(m, "type") : NULL;
    return dir && !strcmp(dir, "in") && mt && !strcmp(mt, "log");
}

int replay_walk(replay *r, const replay_sink *sink, void *ctx)
{
    char err[512];
    matchlog_reader *rd = matchlog_read_open(r->path, err, sizeof err);
    if (!rd) {
        fprintf(stderr, "arena: %s\n", err);
        return 1;
    }
    const char *line;
    size_t len;
    long lineno = 0;
    int rc = 0;
    while (rc == 0 && (line = matchlog_read_line(rd, &len))) {
        lineno++;
        av *e = json_decode(line, len, err, sizeof err);
        if (!e) {
            rc = fail(r, lineno, err);
            break;
        }
        const char *type = av_get_str(e, "type");
        if (!type) type = "";
        if (!strcmp(type, "match")) {
            /* One log holds one game: every table of a reader is sized by
             * the one header, so a second one is refused, never re-read. */
            rc = r->gvt ? fail(r, lineno, "a second match header: a log holds one game")
                        : on_header(r, e, lineno, err, sizeof err);
            if (rc == 0 && sink->header) rc = sink->header(ctx, r, e);
            if (rc == 0 && sink->moved) sink->moved(ctx, r);
        } else if (!r->g) {
            rc = fail(r, lineno, "a line before the match header");
        } else if (!verdict_line(&r->v, type, e, err, sizeof err)) {
            rc = fail(r, lineno, err);
        } else if (!strcmp(type, "seats")) {
            read_names(r, av_get(e, "agents"));
            if (sink->seats) sink->seats(ctx, r);
        } else if (!strcmp(type, "choice")) {
            rc = on_choice(r, sink, ctx, e, lineno);
        } else if (!strcmp(type, "result")) {
            rc = on_result(r, e, lineno);
            if (rc == 0 && sink->result) sink->result(ctx, r, e);
        } else if (is_aside(type, e) && sink->aside) {
            sink->aside(ctx, r, e);
        }
        av_free(e);
    }
    if (rc == 0 && matchlog_read_error(rd)) rc = fail(r, lineno + 1, matchlog_read_error(rd));
    r->cut = matchlog_read_cut(rd);
    matchlog_read_close(rd);
    if (rc == 0 && !r->g) rc = fail(r, lineno, "no match header in the log");
    return rc;
}

void replay_free(replay *r)
{
    game_free(r->g);
    r->g = NULL;
}
