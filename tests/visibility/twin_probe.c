/* twin-probe SEAT LOG_A LOG_B — for the transcript twin test (twins.py).
 *
 * Re-creates the games of two match logs (header seed and settings, so the
 * `twin` wrapper's determinize happens exactly as in the match) and replays
 * each with its own logged choices, in lockstep. After every choice it
 * compares what SEAT can know in the two games: view(SEAT), the events
 * visible to SEAT, and, when SEAT decides, the decision's kind, pick, labels
 * and prompt; at the end the result. Up to the first state where these
 * differ, an honest referee must have sent SEAT the same bytes in both
 * matches.
 *
 * Prints "K NA NB": K = choices applied when SEAT's knowledge first differs
 * (-1: never), NA/NB = messages the referee sent SEAT in each log before
 * that state (all of them when K is -1). Exit 1 on a log that does not
 * replay.
 *
 * twin-probe spectator LOG_A LOG_B — for the spectator twin test
 * (spectator_twins.py). Replays both logs in lockstep and marks the boards
 * a live spectator is sent, where the match's watch does (the start, each
 * move of turn_from, the end), each holding the events the spectator may
 * see (EVENTS_SPECTATOR) and at the end the result: never public_view, the
 * view under test. Prints "D N": D = the first board (numbered as the
 * board's "turn", the start being 1) whose public events differ between
 * the twins (-1: none), N = boards of game A. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codec.h"
#include "game.h"
#include "matchlog.h"
#include "util.h"

typedef struct tlog {
    av *header;
    av **choices; /* the "choice" index lists, in order */
    size_t n;
    long *outs_before; /* messages to the seat before choice i */
    long outs_total;
} tlog;

static int die(const char *path, const char *what)
{
    fprintf(stderr, "twin-probe: %s: %s\n", path, what);
    exit(1);
}

static void load(const char *path, int seat, tlog *l)
{
    memset(l, 0, sizeof *l);
    char err[256];
    matchlog_reader *f = matchlog_read_open(path, err, sizeof err); /* gzip or plain */
    if (!f) die(path, err);
    const char *line;
    size_t len, ccap = 0;
    while ((line = matchlog_read_line(f, &len))) {
        av *e = json_decode(line, len, err, sizeof err);
        if (!e) die(path, err);
        const char *type = av_get_str(e, "type");
        int64_t s = -1;
        av_get_int(e, "seat", &s);
        if (type && !strcmp(type, "match")) {
            l->header = e;
            continue;
        }
        if (type && !strcmp(type, "msg") && s == seat && !strcmp(av_get_str(e, "dir"), "out"))
            l->outs_total++;
        if (type && !strcmp(type, "choice")) {
            if (l->n == ccap) {
                ccap = ccap ? ccap * 2 : 64;
                l->choices = xrealloc(l->choices, ccap * sizeof *l->choices);
                l->outs_before = xrealloc(l->outs_before, ccap * sizeof *l->outs_before);
            }
            l->outs_before[l->n] = l->outs_total;
            l->choices[l->n++] = av_take(e, "choice");
        }
        av_free(e);
    }
    if (matchlog_read_error(f)) die(path, matchlog_read_error(f));
    matchlog_read_close(f);
    if (!l->header) die(path, "no match header");
}

static arena_game *create(const char *path, const tlog *l)
{
    const char *name = av_get_str(l->header, "game");
    const arena_game_vt *vt = name ? arena_find_game(name) : NULL;
    int64_t seed, players;
    if (!vt || !av_get_int(l->header, "seed", &seed) || !av_get_int(l->header, "players", &players))
        die(path, "bad header");
    const av *set = av_get(l->header, "settings");
    arena_setting s[64];
    size_t ns = 0;
    for (size_t k = 0; set && k < av_len(set) && ns < 64; k++) {
        const av *kv = set->u.list.items[k];
        s[ns].key = kv->u.list.items[0]->u.str.s;
        s[ns++].value = kv->u.list.items[1]->u.str.s;
    }
    char err[256];
    arena_game *g = vt->create(s, ns, (uint64_t)seed, (int)players, 0, err, sizeof err);
    if (!g) die(path, err);
    return g;
}

/* Everything SEAT can know now, as one JSON string; consumes new events. */
static char *knowledge(const arena_game *g, int seat, size_t *cursor)
{
    av *k = av_map();
    av_set(k, "view", game_view(g, seat));
    av *ev = av_list();
    size_t n = g->vt->event_count(g);
    for (; *cursor < n; (*cursor)++) {
        const av *e = g->vt->event(g, *cursor, seat);
        if (e) av_push(ev, av_copy(e));
    }
    av_set(k, "events", ev);
    arena_decision d;
    if (g->vt->decision(g, &d)) {
        if (d.seat == seat) {
            char buf[512];
            av_set_str(k, "kind", d.kind);
            av_set_int(k, "min", d.pick_min);
            av_set_int(k, "max", d.pick_max);
            av_set_bool(k, "ordered", d.pick_ordered);
            g->vt->prompt(g, buf, sizeof buf);
            av_set_str(k, "prompt", buf);
            av *labels = av_list();
            for (int i = 0; i < d.n_options; i++) {
                g->vt->label(g, i, buf, sizeof buf);
                av_push(labels, av_str(buf));
            }
            av_set(k, "labels", labels);
        }
    } else {
        arena_result r;
        g->vt->result(g, &r);
        av *res = av_list();
        for (int s = 0; s < ARENA_MAX_SEATS; s++) {
            av_push(res, av_int(r.ranks[s]));
            av_push(res, av_int(r.scores[s]));
        }
        av_set(k, "result", res);
    }
    char *json = av_to_json(k);
    av_free(k);
    return json;
}

static void apply(const char *path, arena_game *g, const av *choice)
{
    int c[256], n = 0;
    for (size_t i = 0; i < av_len(choice) && n < 256; i++)
        c[n++] = (int)choice->u.list.items[i]->u.i;
    if (!game_apply(g, c, n)) die(path, "a logged choice does not apply");
}

static void unload(tlog *l)
{
    for (size_t i = 0; i < l->n; i++)
        av_free(l->choices[i]);
    av_free(l->header);
    free(l->choices);
    free(l->outs_before);
}

/* The public events [from, to) and, at the end, the result, as JSON. */
static char *public_board(const arena_game *g, size_t from, size_t to, bool over)
{
    av *k = av_map();
    av *ev = av_list();
    for (size_t i = from; i < to; i++) {
        const av *e = g->vt->event(g, i, EVENTS_SPECTATOR);
        if (e) av_push(ev, av_copy(e));
    }
    av_set(k, "events", ev);
    av_set_bool(k, "over", over);
    if (over) {
        arena_result r;
        g->vt->result(g, &r);
        av *res = av_list();
        for (int s = 0; s < ARENA_MAX_SEATS; s++) {
            av_push(res, av_int(r.ranks[s]));
            av_push(res, av_int(r.scores[s]));
        }
        av_set(k, "result", res);
    }
    char *json = av_to_json(k);
    av_free(k);
    return json;
}

/* The boards the match's watch reports after a choice (match.c,
 * watch_turn): one when turn_from moved (or, without it, after every
 * choice), and one more when the game is over, each holding the events from
 * *cursor on; *cursor moves past them. Returns how many (0..2) in b[]. */
static int next_boards(const arena_game *g, size_t *cursor, char *b[2])
{
    int n = 0;
    for (int over = 0; over < 2; over++) {
        if (over && game_decision(g, &(arena_decision){0})) break;
        size_t to = g->vt->event_count(g);
        if (!over && g->vt->turn_from) {
            to = g->vt->turn_from(g);
            if (to <= *cursor) continue;
        }
        b[n++] = public_board(g, *cursor, to, over);
        if (to > *cursor) *cursor = to;
    }
    return n;
}

static int spectator_main(const char *pa, const char *pb)
{
    tlog l[2];
    const char *path[2] = {pa, pb};
    arena_game *g[2];
    size_t cur[2];
    char *bd[2][2];
    int nb[2];
    for (int x = 0; x < 2; x++) { /* the board at the start */
        load(path[x], 0, &l[x]);
        g[x] = create(path[x], &l[x]);
        cur[x] = g[x]->vt->turn_from ? g[x]->vt->turn_from(g[x]) : g[x]->vt->event_count(g[x]);
        bd[x][0] = public_board(g[x], 0, cur[x], false);
        nb[x] = 1;
    }
    long board = 1, first = -1, n_a = 0;
    for (size_t j = 0;; j++) {
        for (int i = 0; i < 2; i++) {
            const char *x = i < nb[0] ? bd[0][i] : NULL, *y = i < nb[1] ? bd[1][i] : NULL;
            if (!x && !y) continue;
            if (first < 0 && (!x || !y || strcmp(x, y))) first = board;
            board++;
        }
        n_a += nb[0];
        for (int x = 0; x < 2; x++) {
            for (int i = 0; i < nb[x]; i++)
                free(bd[x][i]);
            nb[x] = 0;
        }
        bool more = false;
        for (int x = 0; x < 2; x++) { /* one may end sooner: past its end, no board */
            arena_decision d;
            if (!game_decision(g[x], &d)) continue;
            if (j >= l[x].n) die(path[x], "the log ends before the game does");
            apply(path[x], g[x], l[x].choices[j]);
            nb[x] = next_boards(g[x], &cur[x], bd[x]);
            more = true;
        }
        if (!more) break;
    }
    printf("%ld %ld\n", first, n_a);
    for (int x = 0; x < 2; x++) {
        game_free(g[x]);
        unload(&l[x]);
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 4 && !strcmp(argv[1], "spectator")) return spectator_main(argv[2], argv[3]);
    if (argc != 4) {
        fprintf(stderr, "usage: twin-probe SEAT|spectator LOG_A LOG_B\n");
        return 2;
    }
    int seat = atoi(argv[1]);
    tlog a, b;
    load(argv[2], seat, &a);
    load(argv[3], seat, &b);
    arena_game *ga = create(argv[2], &a), *gb = create(argv[3], &b);
    size_t ca = 0, cb = 0;
    long k = -1;
    for (size_t j = 0;; j++) {
        char *ka = knowledge(ga, seat, &ca), *kb = knowledge(gb, seat, &cb);
        bool same = !strcmp(ka, kb);
        free(ka);
        free(kb);
        if (!same) {
            k = (long)j;
            break;
        }
        arena_decision d;
        if (!game_decision(ga, &d)) break;
        if (j >= a.n || j >= b.n) die(argv[2], "the logs end before the games do");
        apply(argv[2], ga, a.choices[j]);
        apply(argv[3], gb, b.choices[j]);
    }
    long na = k < 0 ? a.outs_total : k == 0 ? 0 : a.outs_before[k - 1];
    long nb = k < 0 ? b.outs_total : k == 0 ? 0 : b.outs_before[k - 1];
    printf("%ld %ld %ld\n", k, na, nb);
    game_free(ga);
    game_free(gb);
    for (size_t i = 0; i < a.n; i++)
        av_free(a.choices[i]);
    for (size_t i = 0; i < b.n; i++)
        av_free(b.choices[i]);
    av_free(a.header);
    av_free(b.header);
    free(a.choices);
    free(b.choices);
    free(a.outs_before);
    free(b.outs_before);
    return 0;
}
