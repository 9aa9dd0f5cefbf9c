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

/* The ranks and scores of a finished game, seat by seat. */
static av *result_list(const arena_game *g)
{
    arena_result r;
    g->vt->result(g, &r);
    av *res = av_list();
    for (int s = 0; s < ARENA_MAX_SEATS; s++) {
        av_push(res, av_int(r.ranks[s]));
        av_push(res, av_int(r.scores[s]));
    }
    return res;
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
        av_set(k, "result", result_list(g));
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
    if (over) av_set(k, "result", result_list(g));
    char *json = av_to_json(k);
    av_free(k);
    return json;
}

/* One game's boards as the match's watch cuts them: at the start, at each
 * turn mark, mid-apply (game.h on_turn; without it after every choice), and
 * once more at the end, each holding the events from cursor on. */
typedef struct boards {
    arena_game *g;
    size_t cursor;
    char **b;
    size_t n, cap;
} boards;

static void cut(boards *x, size_t to, bool over)
{
    if (x->n == x->cap) {
        x->cap = x->cap ? 2 * x->cap : 64;
        x->b = xrealloc(x->b, x->cap * sizeof *x->b);
    }
    x->b[x->n++] = public_board(x->g, x->cursor, to, over);
    if (to > x->cursor) x->cursor = to;
}

static void marked(void *ctx)
{
    boards *x = ctx;
    size_t to = x->g->vt->turn_from(x->g);
    if (to > x->cursor) cut(x, to, false);
}

/* Replays one log, board by board. The twins may take different numbers of
 * choices (one stops at a decision the other skips), so their boards are
 * compared by number, not by choice. */
static void replay_boards(const char *path, boards *x)
{
    tlog l;
    load(path, 0, &l);
    arena_game *g = x->g = create(path, &l);
    cut(x, g->vt->turn_from ? g->vt->turn_from(g) : g->vt->event_count(g), false);
    if (g->vt->turn_from && g->vt->on_turn) g->vt->on_turn(g, marked, x);
    arena_decision d;
    for (size_t j = 0; game_decision(g, &d); j++) {
        if (j >= l.n) die(path, "the log ends before the game does");
        apply(path, g, l.choices[j]);
        if (!g->vt->on_turn) marked(x);
    }
    cut(x, g->vt->event_count(g), true);
    game_free(g);
    unload(&l);
}

static int spectator_main(const char *pa, const char *pb)
{
    boards bd[2] = {0};
    replay_boards(pa, &bd[0]);
    replay_boards(pb, &bd[1]);
    long first = -1, n_a = (long)bd[0].n;
    for (size_t i = 0; first < 0 && (i < bd[0].n || i < bd[1].n); i++)
        if (i >= bd[0].n || i >= bd[1].n || strcmp(bd[0].b[i], bd[1].b[i])) first = (long)i + 1;
    for (int x = 0; x < 2; x++) {
        for (size_t i = 0; i < bd[x].n; i++)
            free(bd[x].b[i]);
        free(bd[x].b);
    }
    printf("%ld %ld\n", first, n_a);
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
