/* arena replay LOG [--seat N] — re-creates the game from a match log's seed
 * and settings, re-applies every logged choice, checks that each decision
 * reproduces (seat, kind, chosen labels) and that the result matches, and
 * prints the game turn by turn as one seat saw it (or omnisciently). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "codec.h"
#include "game.h"
#include "util.h"

typedef struct replay {
    const arena_game_vt *gvt;
    arena_game *g;
    int seat; /* -1: omniscient */
    size_t ev_cursor;
    int players;
    char names[ARENA_MAX_SEATS][128];
    bool quiet;
    bool named; /* seat names printed */
} replay;

static void print_events(replay *r)
{
    size_t n = r->gvt->event_count(r->g);
    for (; r->ev_cursor < n; r->ev_cursor++) {
        const av *e = r->gvt->event(r->g, r->ev_cursor, r->seat);
        if (!e || r->quiet) continue;
        char *s = av_to_json(e);
        printf("      %s\n", s);
        free(s);
    }
}

static void print_names(replay *r)
{
    if (r->named || r->quiet) return;
    r->named = true;
    for (int k = 0; k < r->players; k++)
        printf("  seat %d: %s\n", k, r->names[k]);
}

static int fail(const char *path, long line, const char *what)
{
    fprintf(stderr, "arena: %s:%ld: %s\n", path, line, what);
    return 1;
}

static int replay_help(void)
{
    printf("usage: arena replay LOG [--seat N] [--quiet]\n"
           "\n"
           "Re-runs the game of a match log (written by `arena play --log`) from its seed,\n"
           "settings and logged choices, checks that every decision reproduces move for\n"
           "move and that the result matches, and prints the game turn by turn.\n"
           "\n"
           "  --seat N   print what seat N saw (its events, its choices; others' choices\n"
           "             only by kind) and its final view; default: everything\n"
           "  --quiet    only check, print the verdict\n"
           "\n"
           "Exit status: 0 when the log reproduces, 1 when it does not, 2 on bad arguments.\n");
    return 0;
}

int cmd_replay(int argc, char **argv)
{
    const char *path = NULL;
    replay r;
    memset(&r, 0, sizeof r);
    r.seat = -1;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) return replay_help();
        if (!strcmp(argv[i], "--quiet")) {
            r.quiet = true;
        } else if (!strcmp(argv[i], "--seat")) {
            char *end;
            if (i + 1 >= argc || (r.seat = (int)strtol(argv[++i], &end, 10), *end) || r.seat < 0 ||
                r.seat >= ARENA_MAX_SEATS) {
                fprintf(stderr, "arena: --seat wants a seat number\n");
                return 2;
            }
        } else if (argv[i][0] == '-') {
            fprintf(stderr, "arena: unknown option '%s' (see `arena replay --help`)\n", argv[i]);
            return 2;
        } else if (!path) {
            path = argv[i];
        } else {
            fprintf(stderr, "arena: replay takes one LOG\n");
            return 2;
        }
    }
    if (!path) {
        fprintf(stderr, "arena: replay needs a LOG file (see `arena replay --help`)\n");
        return 2;
    }
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "arena: cannot read '%s': %s\n", path, strerror(errno));
        return 1;
    }
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    long lineno = 0, choices = 0;
    int rc = 0, last_turn = -1;
    bool have_result = false;
    char err[512];
    while ((len = getline(&line, &cap, f)) > 0) {
        lineno++;
        av *e = json_decode(line, (size_t)len, err, sizeof err);
        if (!e) {
            rc = fail(path, lineno, err);
            break;
        }
        const char *type = av_get_str(e, "type");
        if (!type) type = "";
        if (!strcmp(type, "match")) {
            const char *game = av_get_str(e, "game");
            int64_t seed, players;
            r.gvt = game ? arena_find_game(game) : NULL;
            if (!r.gvt || !av_get_int(e, "seed", &seed) || !av_get_int(e, "players", &players) ||
                players < 1 || players > ARENA_MAX_SEATS) {
                av_free(e);
                rc = fail(path, lineno, "bad match header (game, seed, players)");
                break;
            }
            r.players = (int)players;
            if (r.seat >= r.players) {
                av_free(e);
                fprintf(stderr, "arena: the game has seats 0..%d\n", r.players - 1);
                rc = 2;
                break;
            }
            const av *set = av_get(e, "settings");
            arena_setting s[64];
            size_t ns = 0;
            for (size_t k = 0; set && set->type == AV_LIST && k < set->u.list.len && ns < 64; k++) {
                const av *kv = set->u.list.items[k];
                if (kv->type != AV_LIST || kv->u.list.len != 2) continue;
                s[ns].key = kv->u.list.items[0]->u.str.s;
                s[ns].value = kv->u.list.items[1]->u.str.s;
                ns++;
            }
            r.g = r.gvt->create(s, ns, (uint64_t)seed, r.players, 0, err, sizeof err);
            const av *names = av_get(e, "agents");
            for (int k = 0; k < r.players; k++) {
                const av *n = names && k < (int)av_len(names) ? names->u.list.items[k] : NULL;
                snprintf(r.names[k], sizeof r.names[k], "%s",
                         n && n->type == AV_STR ? n->u.str.s : "?");
            }
            if (!r.g) {
                av_free(e);
                rc = fail(path, lineno, err);
                break;
            }
            if (!r.quiet)
                printf("%s, seed %" PRId64 ", %d players\n", r.gvt->name, seed, r.players);
            print_events(&r);
        } else if (!strcmp(type, "seats")) {
            const av *names = av_get(e, "agents");
            for (int k = 0; k < r.players && names && k < (int)av_len(names); k++)
                if (names->u.list.items[k]->type == AV_STR)
                    snprintf(r.names[k], sizeof r.names[k], "%s", names->u.list.items[k]->u.str.s);
            print_names(&r);
        } else if (!strcmp(type, "choice")) {
            print_names(&r);
            int64_t seat, turn;
            const char *kind = av_get_str(e, "kind");
            const av *idx = av_get(e, "choice"), *labels = av_get(e, "labels");
            arena_decision d;
            if (!r.g || !av_get_int(e, "seat", &seat) || !kind || !idx || idx->type != AV_LIST) {
                av_free(e);
                rc = fail(path, lineno, "choice line before the header, or malformed");
                break;
            }
            if (!av_get_int(e, "turn", &turn)) turn = 0;
            if (!game_decision(r.g, &d)) {
                av_free(e);
                rc = fail(path, lineno, "the log has a choice but the game is already over");
                break;
            }
            if (d.seat != seat || strcmp(d.kind, kind) != 0) {
                snprintf(err, sizeof err,
                         "does not reproduce: log has seat %" PRId64
                         " '%s', game asks seat %d '%s'",
                         seat, kind, d.seat, d.kind);
                av_free(e);
                rc = fail(path, lineno, err);
                break;
            }
            int n = (int)idx->u.list.len;
            int *c = xcalloc((size_t)(n ? n : 1), sizeof *c);
            abuf shown = {0};
            bool ok = true;
            for (int k = 0; k < n && ok; k++) {
                const av *x = idx->u.list.items[k];
                if (x->type != AV_INT || x->u.i < 0 || x->u.i >= d.n_options) {
                    ok = false;
                    break;
                }
                c[k] = (int)x->u.i;
                char lab[256];
                r.gvt->label(r.g, c[k], lab, sizeof lab);
                const av *want = labels && k < (int)av_len(labels) ? labels->u.list.items[k] : NULL;
                if (!want || want->type != AV_STR || strcmp(want->u.str.s, lab) != 0) ok = false;
                abuf_addf(&shown, "%s%s", k ? ", " : "", lab);
            }
            if (!ok || arena_check_choice(&d, c, n) || !game_apply(r.g, c, n)) {
                free(c);
                abuf_free(&shown);
                av_free(e);
                rc = fail(path, lineno, "does not reproduce: the options or labels differ");
                break;
            }
            free(c);
            choices++;
            if (!r.quiet) {
                if (d.turn != last_turn) {
                    printf("turn %d\n", d.turn);
                    last_turn = d.turn;
                }
                const char *by = av_get_str(e, "by");
                if (r.seat < 0 || r.seat == d.seat)
                    printf("  seat %d %s: %s -> %s%s%s\n", d.seat, r.names[d.seat], d.kind,
                           shown.len ? (char *)shown.data : "(nothing)",
                           by && strcmp(by, "fallback") == 0 ? "  [fallback]" : "", "");
                else
                    printf("  seat %d %s: %s\n", d.seat, r.names[d.seat], d.kind);
            }
            abuf_free(&shown);
            print_events(&r);
        } else if (!strcmp(type, "result")) {
            have_result = true;
            arena_result res;
            r.gvt->result(r.g, &res);
            const char *reason = av_get_str(e, "reason");
            const av *scores = av_get(e, "scores");
            if (reason && !strcmp(reason, "normal")) {
                bool same = res.over && scores && (int)av_len(scores) == r.players;
                for (int k = 0; same && k < r.players; k++)
                    same = scores->u.list.items[k]->type == AV_INT &&
                           scores->u.list.items[k]->u.i == res.scores[k];
                if (!same) {
                    av_free(e);
                    rc = fail(path, lineno, "does not reproduce: the result differs");
                    break;
                }
            }
            if (!r.quiet) {
                char *s = av_to_json(e);
                printf("result %s\n", s);
                free(s);
                av *v = r.gvt->view(r.g, r.seat);
                char *vs = av_to_json(v);
                printf("final view%s: %s\n", r.seat < 0 ? " (omniscient)" : "", vs);
                free(vs);
                av_free(v);
            }
        }
        av_free(e);
    }
    free(line);
    fclose(f);
    if (rc == 0 && !r.g) rc = fail(path, lineno, "no match header in the log");
    if (rc == 0)
        printf("replay OK: %ld decisions reproduced%s\n", choices,
               have_result ? ", result matches" : " (log has no result line: match unfinished)");
    game_free(r.g);
    return rc;
}
