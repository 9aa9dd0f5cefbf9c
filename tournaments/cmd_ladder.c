/* `arena ladder run|add|retire|status`: a continuous ladder in a results
 * store. See docs/ladder.md. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "agent_spec.h"
#include "cliargs.h"
#include "commands.h"
#include "driver.h"
#include "ladder.h"
#include "ladder_finals.h"
#include "ladder_run.h"
#include "live_hooks.h"
#include "matchmake.h"
#include "sandbox.h"
#include "spec.h"
#include "store_pg.h"
#include "token.h"
#include "utf8.h"
#include "util.h"
#include "value.h"

static void ladder_help(FILE *out)
{
    fputs("usage: arena ladder run DB [--game G] [--http H:P] [options]  play until stopped\n"
          "       arena ladder add DB NAME SPEC [--author A] [--token-file F]\n"
          "                                         enter a bot, or a new version\n"
          "       arena ladder retire DB NAME                    take a bot off the ladder\n"
          "       arena ladder status DB [--format text|json]    the leaderboard\n"
          "       arena ladder finals DB --top K --games-per-pairing N   close the season\n"
          "\n"
          "A ladder is a results store (an SQLite file, or postgresql://...#NAME) where\n"
          "entrants come and go while `ladder run` picks each next game: new versions and\n"
          "those with the fewest games first, opponents near in rating or uncertain, no\n"
          "fixed partners, every table played once in each seat rotation. add, retire\n"
          "and status work whether the ladder runs or not; a running ladder takes up a\n"
          "change within a second. See docs/ladder.md.\n"
          "\n"
          "add: NAME is 1 to 40 letters, digits, '-', '_' or '.'; adding a NAME again\n"
          "makes a new version (a fresh rating; the old version retires, its games stay\n"
          "in the history). A version first plays validation games against copies of\n"
          "itself under the ladder's limits; a fault there disables it, with the reason\n"
          "and its stderr. SPEC as in arena play. --token-file F: F's first line is the\n"
          "token of NAME's private pages on `arena web` (its stderr, faults, views and\n"
          "logs; 16 to 255 printable characters, no space: make it random, e.g.\n"
          "`openssl rand -hex 16 > F`); only its salted SHA-256 is stored. It holds for\n"
          "every version of NAME until a later add gives another.\n"
          "\n"
          "run: the first run makes the ladder and fixes its settings; later runs resume\n"
          "it (games a killed run left unfinished are played first, on their seeds) and\n"
          "take only --concurrency, --games, --hours, --lease, --quiet, --http and\n"
          "--spectator-delay.\n"
          "In PostgreSQL the run schedules each table into the database and `arena\n"
          "worker`s on any host play its games under leases, as a tournament's; the run\n"
          "plays --concurrency of them too (0: none) and the validation games itself.\n"
          "  --game G              the game (required the first time)\n"
          "  --players K           table size (default 2 if the game allows, else its\n"
          "                        minimum)\n"
          "  --concurrency J       matches in flight (default: number of cores; with a\n"
          "                        URL, 0 leaves the ranked games to the workers)\n"
          "  --lease SECONDS       with a URL: how long a game this run plays stays its\n"
          "                        own without a heartbeat (default 60)\n"
          "  --games N             stop after handing out N ranked games (whole tables)\n"
          "  --hours H             stop after H hours\n"
          "  --validation-games V  games against itself before a version is ranked\n"
          "                        (default 2)\n"
          "  --max-faults F        ranked games forfeited (timeout, crash, illegal,\n"
          "                        protocol) that disable a version (default 10) ...\n"
          "  --max-fault-rate R    ... or this share of its ranked games, once it has\n"
          "                        played 20 (default 0.1)\n"
          "  --window E            Elo: how near in rating opponents are preferred\n"
          "                        (default 200)\n"
          "  --variety X           how fast a repeated opponent loses weight (default 1)\n"
          "  --separate-authors    two versions of one author never meet\n"
          "  --pairing P           independent (default): every game on its own seed;\n"
          "                        duplicate: a table's rotations share one seed\n"
          "  --logs DIR|none       gzip match logs (default DB.logs/, or arena-logs/\n"
          "                        with a URL)\n"
          "  --quiet               no progress line\n",
          out);
    live_help(out, 24);
    fputs("\n"
          "finals: freezes ranked play (a running ladder finishes its games in flight and\n"
          "stops), then the top K active versions by rating play a duplicate round robin\n"
          "(N games per table subset, a multiple of the table size) in the same store;\n"
          "status shows them apart from the ladder. Run it again to finish killed finals.\n"
          "In PostgreSQL workers play the finals too.\n"
          "  --concurrency J       matches in flight (default: number of cores; with a\n"
          "                        URL, 0 leaves them to the workers)\n"
          "  --lease SECONDS       with a URL: as for run\n"
          "\n"
          "status: every version with its state (validating, active, disabled,\n"
          "retired), rating +/- 95 %, games, W/L/D, faults and last game; `?` marks a\n"
          "provisional rating (interval over +/-100).\n"
          "\n"
          "Shared match flags of run (as in arena play):\n",
          out);
    run_options_help(out);
}

/* Opens a ladder's store for add, retire or status; NULL after a message. */
static store *open_ladder(const char *path, char **game)
{
    char err[512];
    store *db = store_open(path, false, err, sizeof err);
    if (!db) {
        fprintf(stderr, "arena: ladder: %s\n", err);
        return NULL;
    }
    char *kind = store_meta(db, "kind");
    bool ok = kind && strcmp(kind, "ladder") == 0;
    free(kind);
    if (!ok) {
        fprintf(stderr, "arena: ladder: %s holds no ladder (start one with arena ladder run)\n",
                path);
        store_close(db);
        return NULL;
    }
    *game = store_meta(db, "game");
    return db;
}

static int cmd_add(int argc, char **argv)
{
    const char *pos[3] = {NULL, NULL, NULL}, *author = "", *token_file = NULL, *v;
    int np = 0;
    for (int i = 1; i < argc; i++) {
        int r;
        if ((r = cli_value(argc, argv, &i, "--author", &v)) != 0) {
            if (r < 0) return 2;
            author = v;
        } else if ((r = cli_value(argc, argv, &i, "--token-file", &v)) != 0) {
            if (r < 0) return 2;
            token_file = v;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            return cli_usage_error("ladder add: unknown option '%s' (see arena ladder --help)",
                                   argv[i]);
        } else if (np < 3) {
            pos[np++] = argv[i];
        } else {
            return cli_usage_error("ladder add: DB NAME SPEC, then options only");
        }
    }
    if (np != 3) return cli_usage_error("ladder add needs DB NAME SPEC (see arena ladder --help)");
    char *game = NULL, err[512], tok[TOKEN_MAX + 1], rec[TOKEN_RECORD_LEN];
    if (token_file) {
        if (token_read_file(token_file, tok, sizeof tok, err, sizeof err) != 0) {
            fprintf(stderr, "arena: ladder add: %s\n", err);
            return 2;
        }
        token_record(tok, rec); /* only the salted hash is stored */
        memset(tok, 0, sizeof tok);
    }
    store *db = open_ladder(pos[0], &game);
    if (!db) return 1;
    int rc = 1, version;
    if (!game || agent_spec_check(game, pos[2], err, sizeof err) != 0) {
        fprintf(stderr, "arena: ladder add: %s: %s\n", pos[2], game ? err : "no game stored");
        rc = 2;
    } else if (ladder_add(db, pos[1], pos[2], author, token_file ? rec : NULL, &version, err,
                          sizeof err) != 0) {
        fprintf(stderr, "arena: ladder add: %s\n", err);
    } else {
        printf("%s version %d added: it plays validation games first\n", pos[1], version);
        rc = 0;
    }
    free(game);
    store_close(db);
    return rc;
}

static int cmd_retire(int argc, char **argv)
{
    if (argc != 3 || argv[1][0] == '-' || argv[2][0] == '-')
        return cli_usage_error("ladder retire needs DB NAME (see arena ladder --help)");
    char *game = NULL, err[512];
    store *db = open_ladder(argv[1], &game);
    if (!db) return 1;
    int rc = ladder_retire(db, argv[2], err, sizeof err);
    if (rc != 0)
        fprintf(stderr, "arena: ladder retire: %s\n", err);
    else
        printf("%s retired\n", argv[2]);
    free(game);
    store_close(db);
    return rc == 0 ? 0 : 1;
}

/* Leaderboard order: active versions by rating, then validating, disabled
 * and retired ones, each by name. */
typedef struct row {
    const ladder_entrant *e;
    const ladder_line *l;
} row;

static int state_order(ladder_state s)
{
    return s == LADDER_ACTIVE ? 0 : s == LADDER_VALIDATING ? 1 : (int)s;
}

static int row_cmp(const void *a, const void *b)
{
    const row *x = a, *y = b;
    if (x->e->state != y->e->state) return state_order(x->e->state) - state_order(y->e->state);
    if (x->e->state == LADDER_ACTIVE && x->l->rating != y->l->rating)
        return x->l->rating > y->l->rating ? -1 : 1;
    int c = strcmp(x->e->name, y->e->name);
    return c ? c : x->e->version - y->e->version;
}

static char *masked(const char *s)
{
    char *m = xstrdup(s);
    utf8_mask_controls(m, false);
    return m;
}

/* One table of lines: the ladder (ranks for active versions) or the finals
 * (every finalist ranked). */
static void table_text(const row *rows, int n, bool finals)
{
    printf("%4s  %-24s %15s %6s %14s %6s %7s  %s\n", "rank", "version", "rating", "games", "W/L/D",
           "faults", "last", finals ? "" : "state");
    int rank = 0;
    for (int i = 0; i < n; i++) {
        const ladder_entrant *e = rows[i].e;
        const ladder_line *l = rows[i].l;
        char who[64], rating[32] = "-", wld[72], place[16] = "", last[24] = "-";
        snprintf(who, sizeof who, "%s v%d", e->name, e->version);
        if (l->games > 0)
            snprintf(rating, sizeof rating, "%+.0f +/- %.0f%s", l->rating, l->ci95,
                     l->ci95 > LADDER_SETTLED_CI ? "?" : "");
        if (finals || e->state == LADDER_ACTIVE) snprintf(place, sizeof place, "%d", ++rank);
        if (l->last_game) snprintf(last, sizeof last, "%lld", (long long)l->last_game);
        snprintf(wld, sizeof wld, "%lld/%lld/%lld", (long long)l->wins, (long long)l->losses,
                 (long long)l->draws);
        char *author = masked(e->author), *reason = masked(e->reason);
        printf("%4s  %-24s %15s %6lld %14s %6lld %7s  %s%s%s%s%s%s\n", place, who, rating,
               (long long)l->games, wld, (long long)l->faults, last,
               finals ? "" : ladder_state_name(e->state), author[0] ? " (by " : "", author,
               author[0] ? ")" : "", !finals && reason[0] ? ": " : "", finals ? "" : reason);
        free(author);
        free(reason);
    }
}

static av *table_json(const row *rows, int n)
{
    av *list = av_list();
    for (int i = 0; i < n; i++) {
        const ladder_entrant *e = rows[i].e;
        av *o = ladder_line_json(e, rows[i].l);
        av_set_str(o, "stderr", e->err);
        av_set_str(o, "spec", e->spec);
        av_set_str(o, "added", e->added);
        av_push(list, o);
    }
    return list;
}

/* The finalists (LADDER_FINALS_AGENTS), by their finals rating. */
static int finals_rows(store *db, const ladder_roster *r, const ladder_line *fl, row *out)
{
    char *list = store_meta(db, LADDER_FINALS_AGENTS);
    int n = 0;
    for (char *p = list; p && *p && n < r->n;) {
        char *end;
        long a = strtol(p, &end, 10);
        if (end == p || a < 0 || a >= r->n) break; /* a corrupt list ends here */
        out[n++] = (row){&r->e[a], &fl[a]};
        p = *end == ',' ? end + 1 : end;
    }
    free(list);
    for (int i = 1; i < n; i++) /* insertion sort by finals rating */
        for (int j = i; j > 0 && out[j].l->rating > out[j - 1].l->rating; j--) {
            row t = out[j];
            out[j] = out[j - 1];
            out[j - 1] = t;
        }
    return n;
}

static int cmd_status(int argc, char **argv)
{
    const char *path = NULL, *format = "text", *v;
    for (int i = 1; i < argc; i++) {
        int r;
        if ((r = cli_value(argc, argv, &i, "--format", &v)) != 0) {
            if (r < 0) return 2;
            format = v;
        } else if (argv[i][0] == '-' || path) {
            return cli_usage_error("ladder status: DB [--format text|json], not '%s'", argv[i]);
        } else {
            path = argv[i];
        }
    }
    if (!path) return cli_usage_error("ladder status needs DB (see arena ladder --help)");
    if (strcmp(format, "text") != 0 && strcmp(format, "json") != 0)
        return cli_usage_error("ladder status: --format text or json, not '%s'", format);
    char *game = NULL, err[512];
    store *db = open_ladder(path, &game);
    if (!db) return 1;
    ladder_roster r;
    int rc = 1;
    if (ladder_load(db, &r, err, sizeof err) != 0) {
        fprintf(stderr, "arena: ladder status: %s\n", err);
        goto out;
    }
    int64_t from = (int64_t)store_meta_number(db, LADDER_FINALS_FROM, 0), games, fgames = 0;
    ladder_line *lines = xcalloc((size_t)r.n + 1, sizeof *lines),
                *flines = xcalloc((size_t)r.n + 1, sizeof *flines);
    row *rows = xcalloc((size_t)r.n + 1, sizeof *rows),
        *frows = xcalloc((size_t)r.n + 1, sizeof *frows);
    int nf = 0;
    if (ladder_standings(db, r.n, 0, from, lines, &games, err, sizeof err) != 0 ||
        (from > 0 && ladder_standings(db, r.n, from, 0, flines, &fgames, err, sizeof err) != 0)) {
        fprintf(stderr, "arena: ladder status: %s\n", err);
    } else {
        for (int i = 0; i < r.n; i++)
            rows[i] = (row){&r.e[i], &lines[i]};
        qsort(rows, (size_t)r.n, sizeof *rows, row_cmp);
        if (from > 0) nf = finals_rows(db, &r, flines, frows);
        const char *g = game ? game : "";
        if (format[0] == 'j') {
            av *root = av_map();
            av_set_str(root, "game", g);
            av_set_int(root, "games", games);
            av_set(root, "entrants", table_json(rows, r.n));
            if (from > 0) {
                av *f = av_map();
                av_set_int(f, "games", fgames);
                av_set(f, "finalists", table_json(frows, nf));
                av_set(root, "finals", f);
            }
            char *js = av_to_json(root);
            printf("%s\n", js);
            free(js);
            av_free(root);
        } else {
            printf("ladder %s: %lld ranked games, %d versions%s\n\n", g, (long long)games, r.n,
                   from > 0 ? " (closed for its finals)" : "");
            table_text(rows, r.n, false);
            if (from > 0) {
                printf("\nfinals: %d finalists, %lld games played\n", nf, (long long)fgames);
                table_text(frows, nf, true);
            }
        }
        rc = 0;
    }
    free(rows);
    free(frows);
    free(lines);
    free(flines);
    ladder_roster_free(&r);
out:
    free(game);
    store_close(db);
    return rc;
}

/* ---- run ---- */

typedef struct run_args {
    const char *db, *game, *logs;
    int64_t players, concurrency, games, validation, max_faults;
    double hours, max_fault_rate, window, variety, lease;
    bool separate_authors, quiet;
    tourn_pairing pairing;
    run_options ro;
    live_cfg live;      /* --http: this run's only */
    argvec match_flags; /* for the store: the next run's match settings */
    bool fixed;         /* a setting only a new ladder takes was given */
    const char *first_fixed;
} run_args;

static int parse_run(run_args *a, int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        const char *v;
        int r, start = i;
        bool fixed = true;
        if ((r = cli_value(argc, argv, &i, "--game", &v)) != 0) {
            if (r < 0) return 2;
            a->game = v;
            fixed = false; /* checked against the stored game */
        } else if ((r = cli_value(argc, argv, &i, "--players", &v)) != 0) {
            if (r < 0 || !cli_int(v, 1, RANKED_MAX, &a->players))
                return r < 0 ? 2 : cli_usage_error("--players needs 1..%d", RANKED_MAX);
        } else if ((r = cli_value(argc, argv, &i, "--concurrency", &v)) != 0) {
            if (r < 0 || !cli_int(v, 0, 4096, &a->concurrency))
                return r < 0 ? 2 : cli_usage_error("--concurrency needs an integer 0..4096");
            fixed = false;
        } else if ((r = cli_value(argc, argv, &i, "--lease", &v)) != 0) {
            if (r < 0 || !cli_double(v, 0.5, 86400, &a->lease))
                return r < 0 ? 2 : cli_usage_error("--lease needs seconds 0.5..86400");
            fixed = false;
        } else if ((r = cli_value(argc, argv, &i, "--games", &v)) != 0) {
            if (r < 0 || !cli_int(v, 1, INT64_MAX / 4, &a->games))
                return r < 0 ? 2 : cli_usage_error("--games needs a positive integer");
            fixed = false;
        } else if ((r = cli_value(argc, argv, &i, "--hours", &v)) != 0) {
            if (r < 0 || !cli_double(v, 1e-6, 1e6, &a->hours))
                return r < 0 ? 2 : cli_usage_error("--hours needs a positive number");
            fixed = false;
        } else if ((r = cli_value(argc, argv, &i, "--validation-games", &v)) != 0) {
            if (r < 0 || !cli_int(v, 0, 1000, &a->validation))
                return r < 0 ? 2 : cli_usage_error("--validation-games needs 0..1000");
        } else if ((r = cli_value(argc, argv, &i, "--max-faults", &v)) != 0) {
            if (r < 0 || !cli_int(v, 1, INT64_MAX / 4, &a->max_faults))
                return r < 0 ? 2 : cli_usage_error("--max-faults needs a positive integer");
        } else if ((r = cli_value(argc, argv, &i, "--max-fault-rate", &v)) != 0) {
            if (r < 0 || !cli_double(v, 0.0001, 1, &a->max_fault_rate))
                return r < 0 ? 2 : cli_usage_error("--max-fault-rate needs a share in (0, 1]");
        } else if ((r = cli_value(argc, argv, &i, "--window", &v)) != 0) {
            if (r < 0 || !cli_double(v, 1, 10000, &a->window))
                return r < 0 ? 2 : cli_usage_error("--window needs Elo 1..10000");
        } else if ((r = cli_value(argc, argv, &i, "--variety", &v)) != 0) {
            if (r < 0 || !cli_double(v, 0, 10, &a->variety))
                return r < 0 ? 2 : cli_usage_error("--variety needs 0..10");
        } else if ((r = cli_value(argc, argv, &i, "--pairing", &v)) != 0) {
            if (r < 0) return 2;
            if (!schedule_pairing_parse(v, &a->pairing))
                return cli_usage_error("--pairing must be independent or duplicate, not '%s'", v);
        } else if ((r = cli_value(argc, argv, &i, "--logs", &v)) != 0) {
            if (r < 0) return 2;
            a->logs = v;
        } else if (strcmp(argv[i], "--separate-authors") == 0) {
            a->separate_authors = true;
        } else if (strcmp(argv[i], "--quiet") == 0) {
            a->quiet = true;
            fixed = false;
        } else if ((r = live_parse_arg(argc, argv, &i, &a->live)) != 0) {
            if (r == 2) return 2;
            fixed = false;
        } else if (argv[i][0] != '-' && !a->db) {
            a->db = argv[i];
            fixed = false;
        } else {
            /* The parser may cut a value in place (KEY=VALUE): store the flags as given. */
            char *snap[2] = {xstrdup(argv[i]), i + 1 < argc ? xstrdup(argv[i + 1]) : NULL};
            int rr = run_options_parse(&a->ro, argc, argv, &i);
            for (int k = start; rr > 0 && k <= i && k - start < 2; k++)
                argvec_push(&a->match_flags, snap[k - start]);
            free(snap[0]);
            free(snap[1]);
            if (rr < 0) return 2;
            if (rr == 0)
                return cli_usage_error("ladder run: unknown option '%s' (see arena ladder --help)",
                                       argv[i]);
        }
        if (fixed && !a->fixed) {
            a->fixed = true;
            a->first_fixed = argv[start];
        }
    }
    return 0;
}

/* ro keeps pointers into *flags (settings' KEY=VALUE): free it after the run. */
static int load_settings(store *db, ladder_settings *ls, run_options *ro, argvec *flags_out,
                         char *err, size_t n)
{
    char *game = store_meta(db, "game"), *pairing = store_meta(db, "pairing"),
         *flags = store_meta(db, "run_args"), *seed = store_meta(db, "seed");
    argvec *av = flags_out;
    int rc = -1;
    ls->game = game ? arena_find_game(game) : NULL;
    ls->players = (int)store_meta_number(db, "players", 0);
    ls->validation_games = (int)store_meta_number(db, "validation_games", -1);
    ls->max_faults = (int64_t)store_meta_number(db, "max_faults", 0);
    ls->max_fault_rate = store_meta_number(db, "max_fault_rate", 0);
    ls->window = store_meta_number(db, "window", 0);
    ls->variety = store_meta_number(db, "variety", -1);
    ls->separate_authors = store_meta_number(db, "separate_authors", 0) != 0;
    if (!ls->game)
        snprintf(err, n, "unknown game '%s'", game ? game : "");
    else if (ls->players < ls->game->min_players || ls->players > ls->game->max_players ||
             ls->players > RANKED_MAX || ls->validation_games < 0 || ls->max_faults < 1 ||
             !(ls->max_fault_rate > 0 && ls->max_fault_rate <= 1) || !(ls->window >= 1) ||
             !(ls->variety >= 0) || !pairing || !schedule_pairing_parse(pairing, &ls->pairing) ||
             !seed || !cli_u64(seed, &ls->seed))
        snprintf(err, n, "the ladder's stored settings are missing or out of range");
    else if (!flags || argvec_from_json(flags, av) != 0)
        snprintf(err, n, "the ladder's match settings are missing");
    else
        rc = 0;
    for (int i = 0; rc == 0 && i < av->n; i++)
        if (run_options_parse(ro, av->n, av->v, &i) != 1) {
            snprintf(err, n, "stored match flag '%s' not understood", av->v[i]);
            rc = -1;
        }
    free(game);
    free(pairing);
    free(flags);
    free(seed);
    return rc;
}

static int create_ladder(store *db, const run_args *a, const arena_game_vt *game, int players,
                         const char *logs, uint64_t seed, char *err, size_t errlen)
{
    char s_players[16], s_val[24], s_maxf[24], s_rate[32], s_window[32], s_variety[32], s_seed[32],
        move_ms[32], created[32] = "";
    snprintf(s_players, sizeof s_players, "%d", players);
    snprintf(s_val, sizeof s_val, "%lld", (long long)a->validation);
    snprintf(s_maxf, sizeof s_maxf, "%lld", (long long)a->max_faults);
    snprintf(s_rate, sizeof s_rate, "%.6g", a->max_fault_rate);
    snprintf(s_window, sizeof s_window, "%.6g", a->window);
    snprintf(s_variety, sizeof s_variety, "%.6g", a->variety);
    snprintf(s_seed, sizeof s_seed, "%llu", (unsigned long long)seed);
    snprintf(move_ms, sizeof move_ms, "%lld", (long long)a->ro.clock.move_ms);
    time_t now = time(NULL);
    struct tm tm;
    if (gmtime_r(&now, &tm)) strftime(created, sizeof created, "%Y-%m-%dT%H:%M:%SZ", &tm);
    char *flags = argvec_to_json(&a->match_flags);
    /* clang-format off */
    const char *meta[] = {
        "kind", "ladder",
        "version", "1",
        "game", game->name,
        "format", "ladder",
        "players", s_players,
        "validation_games", s_val,
        "max_faults", s_maxf,
        "max_fault_rate", s_rate,
        "window", s_window,
        "variety", s_variety,
        "separate_authors", a->separate_authors ? "1" : "0",
        "pairing", schedule_pairing_name(a->pairing),
        "seed", s_seed,
        "run_args", flags,
        "args", flags,
        "logs", logs ? logs : "",
        "move_ms", move_ms,
        "created", created,
        NULL};
    /* clang-format on */
    schedule none = {0};
    int rc = store_init(db, meta, NULL, NULL, 0, &none, err, errlen);
    free(flags);
    return rc;
}

static bool exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

static int cmd_run(int argc, char **argv)
{
    run_args a = {.live.spectator_delay = -1,
                  .players = 0,
                  .concurrency = driver_default_concurrency(),
                  .validation = LADDER_VALIDATION_GAMES,
                  .max_faults = LADDER_MAX_FAULTS,
                  .max_fault_rate = LADDER_MAX_FAULT_RATE,
                  .window = MM_WINDOW,
                  .variety = MM_VARIETY,
                  .pairing = PAIRING_INDEPENDENT};
    run_options_default(&a.ro);
    int rc = parse_run(&a, argc, argv);
    if (rc == 0) rc = live_cfg_check(&a.live);
    char err[512];
    store *db = NULL;
    char *logdir = NULL;
    ladder_settings ls = {0};
    argvec stored = {0};
    run_options ro;
    run_options_default(&ro);
    if (rc != 0) goto out;
    rc = 2;
    if (!a.db) {
        rc = cli_usage_error("ladder run needs DB (see arena ladder --help)");
        goto out;
    }
    bool url = store_is_url(a.db);
    if (!url && (a.concurrency == 0 || a.lease > 0)) {
        rc = cli_usage_error(a.lease > 0 ? "ladder run: --lease is for a ladder in PostgreSQL"
                                         : "ladder run: --concurrency 0 is for a ladder in "
                                           "PostgreSQL (its workers play)");
        goto out;
    }
    bool fresh = url ? false : !exists(a.db);
    if (url) { /* a new tournament name in the database: made below */
        db = store_open(a.db, false, err, sizeof err);
        fresh = !db;
    } else if (!fresh) {
        db = store_open(a.db, false, err, sizeof err);
    }
    if (!fresh && !db) {
        fprintf(stderr, "arena: ladder run: %s\n", err);
        rc = 1;
        goto out;
    }
    if (fresh) {
        const arena_game_vt *game = a.game ? arena_find_game(a.game) : NULL;
        if (!game) {
            rc = cli_usage_error(a.game ? "ladder run: unknown game '%s' (see arena games)"
                                        : "ladder run: --game is required to make a ladder%s",
                                 a.game ? a.game : "");
            goto out;
        }
        int players = a.players                                          ? (int)a.players
                      : game->min_players <= 2 && game->max_players >= 2 ? 2
                                                                         : game->min_players;
        if (players < game->min_players || players > game->max_players) {
            rc = cli_usage_error("ladder run: %s is for %d to %d players", game->name,
                                 game->min_players, game->max_players);
            goto out;
        }
        db = store_open(a.db, true, err, sizeof err);
        if (!db) {
            fprintf(stderr, "arena: ladder run: %s\n", err);
            rc = 1;
            goto out;
        }
        char *logs = a.logs && strcmp(a.logs, "none") == 0 ? NULL
                     : a.logs                              ? xstrdup(a.logs)
                     : url                                 ? xstrdup("arena-logs")
                                                           : xasprintf("%s.logs", a.db);
        uint64_t seed = arena_random_u64();
        int irc = create_ladder(db, &a, game, players, logs ? logs : "", seed, err, sizeof err);
        free(logs);
        if (irc != 0) {
            fprintf(stderr, "arena: ladder run: %s\n", err);
            rc = 1;
            goto out;
        }
    } else {
        char *kind = store_meta(db, "kind");
        bool ladder = kind && strcmp(kind, "ladder") == 0;
        free(kind);
        if (!ladder) {
            rc = cli_usage_error("ladder run: %s holds a tournament, not a ladder", a.db);
            goto out;
        }
        if (store_meta_number(db, LADDER_FROZEN, 0) != 0) {
            rc = cli_usage_error("ladder run: %s is closed for its finals (arena ladder finals "
                                 "plays them; arena ladder status shows them)",
                                 a.db);
            goto out;
        }
        if (a.fixed) {
            rc = cli_usage_error(
                "ladder run: '%s' is fixed when the ladder is made; a running "
                "ladder takes only --concurrency, --games, --hours, --lease, --quiet, --http "
                "and --spectator-delay",
                a.first_fixed);
            goto out;
        }
        if (store_lock(db, err, sizeof err) != 0) {
            fprintf(stderr, "arena: ladder run: %s\n", err);
            rc = 1;
            goto out;
        }
    }
    if (!url) sandbox_hide_db(a.db);
    if (load_settings(db, &ls, &ro, &stored, err, sizeof err) != 0) {
        fprintf(stderr, "arena: ladder run: %s: %s\n", a.db, err);
        rc = 1;
        goto out;
    }
    if (a.game && strcmp(a.game, ls.game->name) != 0) {
        rc = cli_usage_error("ladder run: %s is a ladder of %s, not %s", a.db, ls.game->name,
                             a.game);
        goto out;
    }
    logdir = store_meta(db, "logs");
    if (logdir && !logdir[0]) {
        free(logdir);
        logdir = NULL;
    }
    if (logdir && mkdir(logdir, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "arena: ladder run: cannot create the log directory %s: %s\n", logdir,
                strerror(errno));
        rc = 1;
        goto out;
    }
    ladder_limits lim = {.concurrency = (int)a.concurrency,
                         .games = a.games,
                         .hours = a.hours,
                         .logs = logdir,
                         .lease = a.lease,
                         .quiet = a.quiet,
                         .live = &a.live};
    a.live.db = a.db;
    int drc = ladder_run(db, &ls, &ro, &lim, err, sizeof err);
    if (drc == DRIVER_INTERRUPTED) {
        if (!a.quiet) fprintf(stderr, "arena: ladder run: stopped; run it again to go on\n");
        rc = 130;
    } else if (drc != DRIVER_OK) {
        fprintf(stderr, "arena: ladder run: %s\n", err);
        rc = 1;
    } else {
        rc = 0;
    }
out:
    store_close(db);
    free(logdir);
    argvec_free(&a.match_flags);
    argvec_free(&stored);
    return rc;
}

/* Waits for a running ladder to see the freeze and let the store go. */
static int lock_when_free(store *db, bool quiet, char *err, size_t errlen)
{
    bool said = false;
    for (int tries = 0; tries < 1200; tries++) {
        if (store_lock(db, err, errlen) == 0) return 0;
        if (!said && !quiet)
            fprintf(stderr, "arena: ladder finals: waiting for the running ladder to finish "
                            "its games in flight\n");
        said = true;
        struct timespec t = {0, 100000000};
        nanosleep(&t, NULL);
    }
    return -1;
}

static int cmd_finals(int argc, char **argv)
{
    const char *path = NULL, *v;
    int64_t top = 0, per = 0, conc = driver_default_concurrency();
    double lease = 0;
    bool quiet = false;
    for (int i = 1; i < argc; i++) {
        int r;
        if ((r = cli_value(argc, argv, &i, "--top", &v)) != 0) {
            if (r < 0 || !cli_int(v, 2, 256, &top))
                return r < 0 ? 2 : cli_usage_error("--top needs 2..256 finalists");
        } else if ((r = cli_value(argc, argv, &i, "--games-per-pairing", &v)) != 0) {
            if (r < 0 || !cli_int(v, 1, 1000000, &per))
                return r < 0 ? 2 : cli_usage_error("--games-per-pairing needs a positive integer");
        } else if ((r = cli_value(argc, argv, &i, "--concurrency", &v)) != 0) {
            if (r < 0 || !cli_int(v, 0, 4096, &conc))
                return r < 0 ? 2 : cli_usage_error("--concurrency needs an integer 0..4096");
        } else if ((r = cli_value(argc, argv, &i, "--lease", &v)) != 0) {
            if (r < 0 || !cli_double(v, 0.5, 86400, &lease))
                return r < 0 ? 2 : cli_usage_error("--lease needs seconds 0.5..86400");
        } else if (strcmp(argv[i], "--quiet") == 0) {
            quiet = true;
        } else if (argv[i][0] == '-' || path) {
            return cli_usage_error("ladder finals: unexpected '%s' (see arena ladder --help)",
                                   argv[i]);
        } else {
            path = argv[i];
        }
    }
    if (!path) return cli_usage_error("ladder finals needs DB (see arena ladder --help)");
    if (!store_is_url(path) && (conc == 0 || lease > 0))
        return cli_usage_error("ladder finals: --concurrency 0 and --lease are for a ladder in "
                               "PostgreSQL");
    char *game = NULL, err[512], *logdir = NULL;
    store *db = open_ladder(path, &game);
    free(game);
    if (!db) return 1;
    ladder_settings ls = {0};
    argvec stored = {0};
    run_options ro;
    run_options_default(&ro);
    int rc = 1;
    bool scheduled = store_meta_number(db, LADDER_FINALS_FROM, 0) > 0;
    if (load_settings(db, &ls, &ro, &stored, err, sizeof err) != 0) {
        fprintf(stderr, "arena: ladder finals: %s: %s\n", path, err);
    } else if (!scheduled && (top == 0 || per == 0)) {
        rc = cli_usage_error("ladder finals needs --top K and --games-per-pairing N");
    } else if (!scheduled && per % ls.players != 0) {
        rc = cli_usage_error("--games-per-pairing must be a multiple of the table size (%d)",
                             ls.players);
    } else if (store_set_meta(db, LADDER_FROZEN, "1") != 0) {
        fprintf(stderr, "arena: ladder finals: %s\n", store_error(db));
    } else if (lock_when_free(db, quiet, err, sizeof err) != 0) {
        fprintf(stderr, "arena: ladder finals: %s\n", err);
    } else {
        if (scheduled && !quiet && (top || per))
            fprintf(stderr, "arena: ladder finals: scheduled already: playing what is left "
                            "(--top and --games-per-pairing are ignored)\n");
        logdir = store_meta(db, "logs");
        if (logdir && !logdir[0]) {
            free(logdir);
            logdir = NULL;
        }
        if (logdir && mkdir(logdir, 0777) != 0 && errno != EEXIST) {
            free(logdir);
            logdir = NULL;
        }
        ladder_limits lim = {
            .concurrency = (int)conc, .logs = logdir, .lease = lease, .quiet = quiet};
        int drc = ladder_finals(db, &ls, &ro, (int)top, per, &lim, err, sizeof err);
        if (drc == DRIVER_OK) {
            printf("finals played: `arena ladder status %s` shows them\n", path);
            rc = 0;
        } else {
            fprintf(stderr, "arena: ladder finals: %s\n", err);
            rc = drc == DRIVER_INTERRUPTED ? 130 : 1;
        }
    }
    free(logdir);
    argvec_free(&stored);
    store_close(db);
    return rc;
}

int cmd_ladder(int argc, char **argv)
{
    const char *sub = argc > 1 ? argv[1] : NULL;
    if (!sub || strcmp(sub, "--help") == 0 || strcmp(sub, "-h") == 0 || strcmp(sub, "help") == 0) {
        ladder_help(sub ? stdout : stderr);
        return sub ? 0 : 2;
    }
    for (int i = 2; i < argc; i++)
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            ladder_help(stdout);
            return 0;
        }
    if (strcmp(sub, "run") == 0) return cmd_run(argc - 1, argv + 1);
    if (strcmp(sub, "add") == 0) return cmd_add(argc - 1, argv + 1);
    if (strcmp(sub, "retire") == 0) return cmd_retire(argc - 1, argv + 1);
    if (strcmp(sub, "status") == 0) return cmd_status(argc - 1, argv + 1);
    if (strcmp(sub, "finals") == 0) return cmd_finals(argc - 1, argv + 1);
    return cli_usage_error("ladder: unknown command '%s' (run, add, retire, status or finals)",
                           sub);
}
