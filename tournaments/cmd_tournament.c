/* `arena tournament`: schedule, store, play and report a tournament. */
#include <ctype.h>
#include <errno.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "agent_spec.h"
#include "cliargs.h"
#include "commands.h"
#include "distributed.h"
#include "driver.h"
#include "live_hooks.h"
#include "early_stop.h"
#include "match.h"
#include "hostspeed.h"
#include "report.h"
#include "spec.h"
#include "sandbox.h"
#include "store_pg.h"
#include "util.h"

#define MAX_AGENTS 256

typedef struct topts {
    const char *game;
    const char *names[MAX_AGENTS], *specs[MAX_AGENTS];
    int n_agents;
    tourn_format format;
    tourn_pairing pairing;
    int64_t per_pairing, max_games, players, concurrency;
    uint64_t seed;
    bool have_seed;
    const char *db, *logs, *resume;
    bool quiet;
    bool tc_scale; /* --tc-scale auto */
    stop_rule stop;
    run_options ro;
    live_cfg live;   /* --http: this run's, never stored */
    argvec canon;    /* the settings to store for --resume */
    argvec run_args; /* the match flags among them, for workers on other hosts */
} topts;

static void tournament_help(FILE *out)
{
    fputs("usage: arena tournament [FILE] [--game G] [--agent NAME=SPEC]...\n"
          "                        [--format round-robin|gauntlet] [--games-per-pairing N]\n"
          "                        [--pairing independent|duplicate]\n"
          "                        [--players K] [--max-games M] [--seed S]\n"
          "                        [--concurrency J] [--db FILE] [--logs DIR|none]\n"
          "                        [--stop none|ranking:CONF|top:K:CONF]\n"
          "                        [--stop-min-games N] [--tc-scale auto|off]\n"
          "                        [clock, fault and limit flags] [--set KEY=VALUE]...\n"
          "                        [--http HOST:PORT [--spectator-delay SEC]]\n"
          "       arena tournament --resume DB [--concurrency J] [--quiet] [--http ...]\n"
          "\n"
          "Plays a tournament and prints the final report. Every game is played in a\n"
          "group with the seats rotated (2 players: a seat-swapped pair). Settings, agents,\n"
          "the whole schedule and each result (committed in groups of 64 or 50 ms) go to\n"
          "SQLite file; a stopped or killed tournament continues with --resume.\n"
          "With a postgresql://...#NAME URL as --db (or --resume), tournament NAME\n"
          "lives in PostgreSQL: `arena worker`s on other hosts play its games and this\n"
          "command coordinates (docs/distributed.md).\n"
          "\n"
          "FILE holds the same settings, one `key = value` per line, the key being\n"
          "a flag name without dashes (see docs/tournaments.md); flags given on the\n"
          "command line come after the file's.\n"
          "\n"
          "  --game G               the game (required)\n"
          "  --agent NAME=SPEC      an entrant (at least the table size); SPEC as in\n"
          "                         arena play: builtin:NAME, cmd:LINE, tcp:HOST:PORT, PATH\n"
          "  --format F             round-robin (default): every subset of K agents;\n"
          "                         gauntlet: the first agent against all others\n"
          "  --games-per-pairing N  games per table subset, a multiple of K (default 10)\n"
          "  --players K            table size (default 2 if the game allows, else its\n"
          "                         minimum); 3-4 players: every subset in every seat\n"
          "                         rotation\n"
          "  --max-games M          cap: when the full schedule is larger, play a sampled\n"
          "                         balanced schedule of at most M games (default: none)\n"
          "  --pairing P            independent (default): every game on its own seed;\n"
          "                         duplicate: a group's games share one seed, so the\n"
          "                         deal's luck cancels, but a bot that remembers game 1\n"
          "                         knows the deals of game 2: only for trusted bots\n"
          "  --seed S               master seed (default: random, stored in the DB and\n"
          "                         printed in the report); the same settings and seed\n"
          "                         give the same games and seeds. Publishing it before\n"
          "                         the event gives every hidden card away\n"
          "  --concurrency J        matches in flight (default: number of cores); with a\n"
          "                         PostgreSQL --db, 0 plays nothing here (workers do)\n"
          "  --db FILE|URL          results file (default results.sqlite; must not hold a\n"
          "                         tournament yet), or postgresql://...#NAME\n"
          "  --logs DIR|none        gzip match logs (default DB.logs/; with a URL\n"
          "                         arena-logs/, in NAME/ below it), referenced from the DB\n"
          "  --stop RULE            stop early once the ranking is settled: ranking:CONF\n"
          "                         (every adjacent pair of the ranking separated with\n"
          "                         likelihood of superiority >= CONF, e.g. 0.95) or\n"
          "                         top:K:CONF (only the top K places); checked after\n"
          "                         each whole group (default none). With a URL --db,\n"
          "                         on the workers' results; the groups nobody started\n"
          "                         are then withdrawn\n"
          "  --stop-min-games N     games every pairing plays before a stop (default 20,\n"
          "                         or all its games if it has fewer)\n"
          "  --tc-scale auto|off    auto: each worker scales the move, bank and game\n"
          "                         clocks by this host's speed over its own, so a bot\n"
          "                         gets the same work per move on every host; hosts\n"
          "                         over 4x slower or faster are refused (PostgreSQL\n"
          "                         --db only; default off)\n"
          "  --quiet                no progress line\n"
          "  --resume DB            continue the tournament stored in DB\n"
          "  --help                 this text\n",
          out);
    live_help(out, 25);
    fputs("\nShared match flags (as in arena play):\n", out);
    run_options_help(out);
}

static bool valid_name(const char *s)
{
    if (!*s || strlen(s) > 64) return false;
    for (; *s; s++)
        if (!(isalnum((unsigned char)*s) || strchr("._+-:@", *s))) return false;
    return true;
}

static int parse_one(topts *o, int n, char **v, int *ip, const char **file, bool *canonp,
                     bool *runp);

/* Parses tournament flags from v[0..n-1]. resume_only: only the flags that
 * may change on --resume. Returns 0 or the exit code 2. */
static int parse(topts *o, int n, char **v, bool resume_only, const char **file)
{
    for (int i = 0; i < n; i++) {
        const char *val;
        int r, start = i;
        if ((r = cli_value(n, v, &i, "--concurrency", &val)) != 0) {
            if (r < 0) return 2;
            /* 0 (only coordinate) is checked against the store later. */
            if (!cli_int(val, 0, 4096, &o->concurrency))
                return cli_usage_error("--concurrency needs an integer 0..4096, not '%s'", val);
            continue;
        }
        if (strcmp(v[i], "--quiet") == 0) {
            o->quiet = true;
            continue;
        }
        if ((r = live_parse_arg(n, v, &i, &o->live)) != 0) {
            if (r == 2) return 2;
            continue;
        }
        if ((r = cli_value(n, v, &i, "--resume", &val)) != 0) {
            if (r < 0) return 2;
            if (!file) return cli_usage_error("--resume is a command-line flag only");
            o->resume = val;
            continue;
        }
        if (resume_only) {
            if (v[i][0] == '-')
                return cli_usage_error(
                    "tournament: '%s' cannot change on --resume (only --concurrency, --quiet, "
                    "--http, --spectator-delay)",
                    v[i]);
            return cli_usage_error("tournament: unexpected '%s' with --resume", v[i]);
        }
        bool canon = true, run = false;
        /* Copies taken before parsing: the shared parser may edit its strings. */
        char *snap[2] = {xstrdup(v[i]), i + 1 < n ? xstrdup(v[i + 1]) : NULL};
        int prc = parse_one(o, n, v, &i, file, &canon, &run);
        if (prc == 0 && canon)
            for (int k = start; k <= i && k - start < 2; k++) {
                argvec_push(&o->canon, snap[k - start]);
                if (run) argvec_push(&o->run_args, snap[k - start]);
            }
        free(snap[0]);
        free(snap[1]);
        if (prc != 0) return prc;
    }
    return 0;
}

static int parse_one(topts *o, int n, char **v, int *ip, const char **file, bool *canonp,
                     bool *runp)
{
    int i = *ip, r;
    const char *val;
    bool canon = true;
    {
        if ((r = cli_value(n, v, &i, "--game", &val)) != 0) {
            if (r < 0) return 2;
            o->game = val;
        } else if ((r = cli_value(n, v, &i, "--agent", &val)) != 0) {
            if (r < 0) return 2;
            if (o->n_agents == MAX_AGENTS) return cli_usage_error("at most %d agents", MAX_AGENTS);
            const char *eq = strchr(val, '=');
            char *name = eq ? xasprintf("%.*s", (int)(eq - val), val) : NULL;
            if (!name || !valid_name(name)) {
                free(name);
                return cli_usage_error("--agent needs NAME=SPEC with a NAME of letters, digits "
                                       "and ._+-:@ (got '%s')",
                                       val);
            }
            for (int a = 0; a < o->n_agents; a++)
                if (strcmp(o->names[a], name) == 0) {
                    int rc = cli_usage_error("agent name '%s' given twice", name);
                    free(name);
                    return rc;
                }
            if (!eq[1]) {
                free(name);
                return cli_usage_error("--agent %s has an empty SPEC", val);
            }
            o->names[o->n_agents] = name; /* freed at exit */
            o->specs[o->n_agents++] = eq + 1;
        } else if ((r = cli_value(n, v, &i, "--format", &val)) != 0) {
            if (r < 0) return 2;
            if (strcmp(val, "round-robin") == 0)
                o->format = FORMAT_ROUND_ROBIN;
            else if (strcmp(val, "gauntlet") == 0)
                o->format = FORMAT_GAUNTLET;
            else
                return cli_usage_error("--format must be round-robin or gauntlet, not '%s'", val);
        } else if ((r = cli_value(n, v, &i, "--pairing", &val)) != 0) {
            if (r < 0) return 2;
            if (!schedule_pairing_parse(val, &o->pairing))
                return cli_usage_error("--pairing must be independent or duplicate, not '%s'", val);
        } else if ((r = cli_value(n, v, &i, "--games-per-pairing", &val)) != 0) {
            if (r < 0) return 2;
            if (!cli_int(val, 1, 1000000000, &o->per_pairing))
                return cli_usage_error("--games-per-pairing needs a positive integer, not '%s'",
                                       val);
        } else if ((r = cli_value(n, v, &i, "--players", &val)) != 0) {
            if (r < 0) return 2;
            if (!cli_int(val, 2, RANKED_MAX, &o->players))
                return cli_usage_error("--players needs an integer 2..%d, not '%s'", RANKED_MAX,
                                       val);
        } else if ((r = cli_value(n, v, &i, "--max-games", &val)) != 0) {
            if (r < 0) return 2;
            if (!cli_int(val, 1, INT64_MAX / 2, &o->max_games))
                return cli_usage_error("--max-games needs a positive integer, not '%s'", val);
        } else if ((r = cli_value(n, v, &i, "--seed", &val)) != 0) {
            if (r < 0) return 2;
            if (!cli_u64(val, &o->seed))
                return cli_usage_error("--seed needs an unsigned integer, not '%s'", val);
            o->have_seed = true;
        } else if ((r = cli_value(n, v, &i, "--stop", &val)) != 0) {
            if (r < 0) return 2;
            char e[200];
            if (stop_rule_parse(val, &o->stop, e, sizeof e) != 0) return cli_usage_error("--%s", e);
        } else if ((r = cli_value(n, v, &i, "--stop-min-games", &val)) != 0) {
            if (r < 0) return 2;
            int64_t m;
            if (!cli_int(val, 0, 1000000000, &m))
                return cli_usage_error("--stop-min-games needs an integer >= 0, not '%s'", val);
            o->stop.min_games = (int)m;
        } else if ((r = cli_value(n, v, &i, "--tc-scale", &val)) != 0) {
            if (r < 0) return 2;
            if (!tc_scale_parse(val, &o->tc_scale))
                return cli_usage_error("--tc-scale takes auto or off, not '%s'", val);
        } else if ((r = cli_value(n, v, &i, "--db", &val)) != 0) {
            if (r < 0) return 2;
            if (!val[0]) return cli_usage_error("--db needs a file name, not ''");
            o->db = val;
            canon = false;
        } else if ((r = cli_value(n, v, &i, "--logs", &val)) != 0) {
            if (r < 0) return 2;
            o->logs = val;
            canon = false;
        } else {
            int rr = run_options_parse(&o->ro, n, v, &i);
            if (rr < 0) return 2;
            *runp = rr > 0;
            if (rr == 0) {
                if (v[i][0] == '-' || !file)
                    return cli_usage_error(
                        "tournament: unknown option '%s' (see arena tournament --help)", v[i]);
                if (*file)
                    return cli_usage_error("tournament: one tournament FILE, got '%s' and '%s'",
                                           *file, v[i]);
                *file = v[i];
                canon = false;
            }
        }
    }
    *ip = i;
    *canonp = canon;
    return 0;
}

typedef struct tctx {
    store *db;
    sched_game *pending; /* the games left to play: only their schedule entries */
    size_t n_pending, next;
    int n;
    char **names;
    double *points, *games;
    early_stop *es;
    bool stopped;  /* the ranking is settled: no new group starts */
    bool recorded; /* ... and the store says so */
    char why[300];
    /* PostgreSQL: results followed up to here (posted order), and whether
     * the groups not started were withdrawn after the stop. */
    int64_t cursor;
    bool withdrawn;
    char err[300];
} tctx;

static bool t_next(void *ctx, sched_game *g)
{
    tctx *t = ctx;
    while (t->next < t->n_pending) {
        const sched_game *s = &t->pending[t->next++];
        if (!early_stop_may_start(t->es, s, t->stopped)) continue;
        *g = *s;
        return true;
    }
    return false;
}

/* Records the stop (t->why) in the store, so that --resume and the report
 * know. */
static int mark_stopped(tctx *t)
{
    char at[16] = "?";
    time_t now = time(NULL);
    struct tm tm;
    if (gmtime_r(&now, &tm)) strftime(at, sizeof at, "%H:%M", &tm);
    t->stopped = true;
    if (store_set_meta(t->db, "stopped_at", at) != 0 ||
        store_set_meta(t->db, "stopped", t->why) != 0) {
        snprintf(t->err, sizeof t->err, "%s", store_error(t->db));
        return -1;
    }
    t->recorded = true;
    return 0;
}

static void tally(tctx *t, const tgame *g)
{
    for (int a = 0; a < g->s.players; a++)
        for (int b = 0; b < g->s.players; b++) {
            if (a == b) continue;
            int i = g->s.seat[a];
            t->games[i] += 1;
            t->points[i] += g->rank[a] < g->rank[b] ? 1.0 : g->rank[a] == g->rank[b] ? 0.5 : 0.0;
        }
}

static bool t_done(void *ctx, const tgame *g, const char *log, bool *fatal)
{
    tctx *t = ctx;
    if (t->err[0] || store_result(t->db, g, log) < 0) {
        snprintf(t->err, sizeof t->err, "%s", store_error(t->db));
        *fatal = true;
        return false;
    }
    tally(t, g);
    if (!t->stopped && early_stop_done(t->es, g, t->why, sizeof t->why) && mark_stopped(t) != 0) {
        *fatal = true;
        return false;
    }
    return true;
}

/* PostgreSQL: the workers' results, followed in the order they were
 * posted, go through the same early-stop rule. Once it settles, the stop is
 * recorded and the groups nobody started are withdrawn (the started ones
 * are completed, as on one host); both are tried again on the next tick
 * while the database is away. */
static void t_watch(void *ctx)
{
    tctx *t = ctx;
    tgame *g;
    size_t n;
    if (store_pg_results_since(t->db, &t->cursor, &g, &n) == 0) {
        for (size_t i = 0; i < n; i++) {
            tally(t, &g[i]);
            if (!t->stopped && early_stop_done(t->es, &g[i], t->why, sizeof t->why))
                t->stopped = true;
        }
        free(g);
    }
    if (t->stopped && !t->recorded) {
        t->err[0] = '\0';
        mark_stopped(t);
    }
    if (t->recorded && !t->withdrawn) t->withdrawn = store_pg_withdraw_unstarted(t->db) == 0;
}

/* Commits the results of the last STORE_GROUP_MS (SQLite groups them). */
static void t_tick(void *ctx)
{
    tctx *t = ctx;
    if (store_tick(t->db) != 0 && !t->err[0])
        snprintf(t->err, sizeof t->err, "%s", store_error(t->db));
}

static void t_status(void *ctx, char *buf, size_t len)
{
    tctx *t = ctx;
    if (t->stopped) {
        snprintf(buf, len, "ranking settled: finishing the started groups");
        return;
    }
    int best = -1;
    for (int i = 0; i < t->n; i++)
        if (t->games[i] > 0 &&
            (best < 0 || t->points[i] / t->games[i] > t->points[best] / t->games[best]))
            best = i;
    if (best >= 0)
        snprintf(buf, len, "leader %s %.1f%%", t->names[best],
                 100 * t->points[best] / t->games[best]);
}

static void free_names(topts *o)
{
    for (int i = 0; i < o->n_agents; i++)
        free((char *)o->names[i]);
    o->n_agents = 0;
}

int cmd_tournament(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            tournament_help(stdout);
            return 0;
        }
    topts o;
    memset(&o, 0, sizeof o);
    run_options_default(&o.ro);
    o.live.spectator_delay = -1;
    o.per_pairing = 10;
    o.pairing = PAIRING_INDEPENDENT;
    o.concurrency = driver_default_concurrency();
    o.stop.min_games = STOP_MIN_GAMES_DEFAULT;
    char err[512];
    int rc = 2;
    argvec args = {0}, stored = {0};
    store *db = NULL;
    char *logdir = NULL, *resume_db = NULL;
    tctx t;
    memset(&t, 0, sizeof t);
    schedule sch = {0};

    /* First pass: the command line (it may name a FILE or --resume). */
    const char *file = NULL;
    argvec cl = {0};
    for (int i = 1; i < argc; i++)
        argvec_push(&cl, argv[i]);
    topts probe;
    memset(&probe, 0, sizeof probe);
    run_options_default(&probe.ro);
    probe.concurrency = o.concurrency;
    /* The shared option parser may edit its strings (KEY=VALUE): probe a copy. */
    argvec scratch = {0};
    for (int i = 1; i < argc; i++)
        argvec_push(&scratch, argv[i]);
    rc = parse(&probe, scratch.n, scratch.v, false, &file);
    /* `file` points into scratch: find the same argument in cl. */
    for (int i = 0; file && i < scratch.n; i++)
        if (scratch.v[i] == file) file = cl.v[i];
    resume_db = probe.resume ? xstrdup(probe.resume) : NULL;
    argvec_free(&scratch);
    if (rc != 0) {
        free_names(&probe);
        argvec_free(&probe.canon);
        argvec_free(&probe.run_args);
        goto out;
    }
    rc = 2;
    bool resuming = resume_db != NULL;
    free_names(&probe);
    argvec_free(&probe.canon);
    argvec_free(&probe.run_args);

    if (resuming) {
        db = resume_db[0] ? store_open(resume_db, false, err, sizeof err) : NULL;
        if (!store_is_url(resume_db)) sandbox_hide_db(resume_db);
        if (!db) {
            rc = cli_usage_error("tournament: %s", resume_db[0] ? err : "--resume needs a file");
            goto out;
        }
        if (store_lock(db, err, sizeof err) != 0) {
            fprintf(stderr, "arena: tournament: %s\n", err);
            rc = 1;
            goto out;
        }
        char *kind = store_meta(db, "kind"), *js = store_meta(db, "args");
        bool ok =
            kind && strcmp(kind, "tournament") == 0 && js && argvec_from_json(js, &stored) == 0;
        free(kind);
        free(js);
        if (!ok) {
            rc = cli_usage_error("tournament: %s is not a resumable tournament", resume_db);
            goto out;
        }
        if ((rc = parse(&o, stored.n, stored.v, false, NULL)) != 0) goto out;
        /* Only --resume/--concurrency/--quiet may come from the command line now. */
        const char *nofile = NULL;
        if ((rc = parse(&o, cl.n, cl.v, true, &nofile)) != 0) goto out;
        o.db = resume_db;
        logdir = store_meta(db, "logs");
        /* The stored master seed, also when it was drawn at random. */
        char *sd = store_meta(db, "seed");
        if (sd) cli_u64(sd, &o.seed);
        free(sd);
    } else {
        if (file && spec_read_file(file, &args, err, sizeof err) != 0) {
            rc = cli_usage_error("%s", err);
            goto out;
        }
        for (int i = 0; i < cl.n; i++)
            if (cl.v[i] != file) argvec_push(&args, cl.v[i]);
        if ((rc = parse(&o, args.n, args.v, false, NULL)) != 0) goto out;
        rc = 2;
    }
    if ((rc = live_cfg_check(&o.live)) != 0) goto out;
    rc = 2;
    if (o.concurrency == 0 && !store_is_url(resuming ? resume_db : o.db ? o.db : "")) {
        rc = cli_usage_error("tournament: --concurrency 0 (only coordinate) needs a PostgreSQL "
                             "--db where workers play");
        goto out;
    }
    if (o.tc_scale && !store_is_url(resuming ? resume_db : o.db ? o.db : "")) {
        rc = cli_usage_error("tournament: --tc-scale auto needs a PostgreSQL --db (it scales "
                             "the clocks of workers on other hosts)");
        goto out;
    }
    const arena_game_vt *game = o.game ? arena_find_game(o.game) : NULL;
    if (!o.game) {
        rc = cli_usage_error("tournament: --game is required (see arena tournament --help)");
        goto out;
    }
    if (!game) {
        rc = cli_usage_error("tournament: unknown game '%s' (see arena games)", o.game);
        goto out;
    }
    if (o.players == 0)
        o.players = game->min_players <= 2 && game->max_players >= 2 ? 2 : game->min_players;
    if (o.players < game->min_players || o.players > game->max_players) {
        if (game->min_players == game->max_players)
            rc = cli_usage_error("tournament: %s is played by %d players, not %lld", game->name,
                                 game->min_players, (long long)o.players);
        else
            rc = cli_usage_error("tournament: %s is played by %d to %d players, not %lld",
                                 game->name, game->min_players, game->max_players,
                                 (long long)o.players);
        goto out;
    }
    schedule_params sp = {.n_agents = o.n_agents,
                          .players = (int)o.players,
                          .format = o.format,
                          .per_pairing = o.per_pairing,
                          .max_games = o.max_games,
                          .seed = o.seed,
                          .pairing = o.pairing};
    if (!resuming) {
        if (!o.have_seed) {
            /* A guessable seed (a fixed default) would let a bot recompute
             * every game's deal; all 64 bits, since a published game seed
             * lets anyone test guesses of it offline. Stored with the
             * settings for --resume. */
            o.seed = sp.seed = arena_random_u64();
            char sd[32];
            snprintf(sd, sizeof sd, "%llu", (unsigned long long)o.seed);
            argvec_push(&o.canon, "--seed");
            argvec_push(&o.canon, sd);
        }
        if (schedule_build(&sp, &sch, err, sizeof err) != 0) {
            rc = cli_usage_error("tournament: %s", err);
            goto out;
        }
        /* Check the game settings once before anything is written. */
        char gerr[256] = "";
        arena_game *probe_game = game->create(o.ro.settings, o.ro.n_settings, 1, (int)o.players,
                                              ARENA_GAME_NO_EVENTS, gerr, sizeof gerr);
        if (!probe_game) {
            rc = cli_usage_error("tournament: %s", gerr);
            goto out;
        }
        game_free(probe_game);
        /* And every agent spec: a bad one must not leave a results file
         * that neither --resume nor a rerun could use. */
        for (int a = 0; a < o.n_agents; a++) {
            const char *misfit = run_options_clock_misfit(&o.ro, o.specs[a]);
            if (misfit) snprintf(gerr, sizeof gerr, "%s", misfit);
            if (misfit || agent_spec_check(game->name, o.specs[a], gerr, sizeof gerr) != 0) {
                rc = cli_usage_error("tournament: agent %s (%s): %s", o.names[a], o.specs[a], gerr);
                goto out;
            }
        }
        if (!o.db) o.db = "results.sqlite";
        db = store_open(o.db, true, err, sizeof err);
        if (!store_is_url(o.db)) sandbox_hide_db(o.db);
        if (!db) {
            rc = cli_usage_error("tournament: %s", err);
            goto out;
        }
        if (store_lock(db, err, sizeof err) != 0) {
            fprintf(stderr, "arena: tournament: %s\n", err);
            rc = 1;
            goto out;
        }
        if (!o.logs && store_is_url(o.db))
            logdir = xstrdup(DIST_LOGS_DEFAULT);
        else if (!o.logs)
            logdir = xasprintf("%s.logs", o.db);
        else if (strcmp(o.logs, "none") != 0)
            logdir = xstrdup(o.logs);
        char *cj = argvec_to_json(&o.canon), *rj = argvec_to_json(&o.run_args);
        char seedbuf[32], players[16], stop[64], stop_min[24], ref[32] = "";
        if (o.tc_scale) snprintf(ref, sizeof ref, "%.0f", hostspeed_measure());
        stop_rule_format(&o.stop, stop, sizeof stop);
        snprintf(stop_min, sizeof stop_min, "%d", o.stop.min_games);
        char move_ms[32], created[32] = "";
        snprintf(move_ms, sizeof move_ms, "%lld", (long long)o.ro.clock.move_ms);
        time_t now = time(NULL);
        struct tm tm;
        if (gmtime_r(&now, &tm)) strftime(created, sizeof created, "%Y-%m-%dT%H:%M:%SZ", &tm);
        snprintf(seedbuf, sizeof seedbuf, "%llu", (unsigned long long)o.seed);
        snprintf(players, sizeof players, "%lld", (long long)o.players);
        /* clang-format off */
        const char *meta[] = {
            "kind", "tournament",
            "version", "1",
            "game", game->name,
            "format", o.format == FORMAT_GAUNTLET ? "gauntlet" : "round-robin",
            "seed", seedbuf,
            "pairing", schedule_pairing_name(o.pairing),
            "players", players,
            "args", cj,
            "run_args", rj,
            "logs", logdir ? logdir : "",
            "sampled", sch.sampled ? "1" : "0",
            "stop", stop,
            "stop_min_games", stop_min,
            "move_ms", move_ms,
            "created", created,
            "tc_scale", o.tc_scale ? "auto" : "off",
            "tc_ref_speed", ref,
            NULL};
        /* clang-format on */
        int irc = store_init(db, meta, (char *const *)o.names, (char *const *)o.specs, o.n_agents,
                             &sch, err, sizeof err);
        free(cj);
        free(rj);
        if (irc != 0) {
            fprintf(stderr, "arena: tournament: %s\n", err);
            rc = 1;
            goto out;
        }
    }
    if (logdir && !logdir[0]) {
        free(logdir);
        logdir = NULL;
    }
    if (logdir && mkdir(logdir, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "arena: tournament: cannot create log directory %s\n", logdir);
        rc = 1;
        goto out;
    }
    bool pg = store_is_pg(db);
    if (pg && resuming) {
        free(logdir);
        logdir = xstrdup(DIST_LOGS_DEFAULT);
    }
    int64_t total, done;
    store_counts(db, &total, &done);
    t.db = db;
    t.n = o.n_agents;
    t.names = (char **)o.names;
    t.points = xcalloc((size_t)o.n_agents + 1, sizeof(double));
    t.games = xcalloc((size_t)o.n_agents + 1, sizeof(double));
    {
        /* The schedule is read once: the games left to play and what the
         * finished ones add up to come from the same rows. */
        tgame *all;
        size_t na;
        if (store_games(db, false, &all, &na) != 0) {
            fprintf(stderr, "arena: tournament: %s\n", store_error(db));
            rc = 1;
            goto out;
        }
        /* A tgame is ~400 bytes, its schedule entry ~60: a long tournament
         * keeps only the latter for the games it has yet to hand out (one
         * host; with PostgreSQL, workers and this command claim them from
         * the database instead). */
        size_t left = 0;
        for (size_t i = 0; i < na && !pg; i++)
            left += !all[i].done;
        t.pending = xcalloc(left + 1, sizeof *t.pending);
        for (size_t i = 0; i < na && !pg; i++)
            if (!all[i].done) t.pending[t.n_pending++] = all[i].s;
        /* PostgreSQL: every result comes through t_watch, finished ones
         * included, in the order they were posted. */
        for (size_t i = 0; i < na; i++)
            if (pg)
                all[i].done = false;
            else if (all[i].done)
                tally(&t, &all[i]);
        t.es = early_stop_new(&o.stop, o.n_agents, (char *const *)o.names, all, na);
        free(all);
#ifdef __GLIBC__
        /* The whole schedule was just read (~400 bytes a game) and freed:
         * give those pages back rather than keep them for the run. */
        malloc_trim(0);
#endif
    }
    if (resuming) {
        /* A stopped run stays stopped: only its started groups complete
         * (PostgreSQL: t_watch withdraws the others again, in case the
         * last run was killed between recording the stop and that). */
        char *st = store_meta(db, "stopped");
        t.stopped = t.recorded = st != NULL;
        free(st);
        if (!pg && !t.stopped && early_stop_check(t.es, t.why, sizeof t.why) &&
            mark_stopped(&t) != 0) {
            fprintf(stderr, "arena: tournament: %s\n", t.err);
            rc = 1;
            goto out;
        }
    }
    if (!o.quiet)
        fprintf(stderr,
                "%s %s: %lld games (%lld done), %d agents, concurrency %lld, seed %llu, db %s\n",
                resuming ? "resuming" : "tournament", game->name, (long long)total, (long long)done,
                o.n_agents, (long long)o.concurrency, (unsigned long long)o.seed, o.db);
    driver_cfg dc = {.game = game,
                     .ro = &o.ro,
                     .names = (char *const *)o.names,
                     .specs = (char *const *)o.specs,
                     .n_agents = o.n_agents,
                     .concurrency = (int)o.concurrency,
                     .log_dir = logdir,
                     .total = total,
                     .done_before = done,
                     .progress = o.quiet ? NULL : stderr,
                     .poll_ms = STORE_GROUP_MS,
                     .live = &o.live};
    o.live.db = o.db;
    driver_src src = {
        .next = t_next, .done = t_done, .status = t_status, .tick = t_tick, .ctx = &t};
    int drc;
    if (pg) {
        /* The coordinator plays like a worker (games claimed under a lease,
         * so workers and it never play one game twice) and shows progress
         * from the database until every game is done. */
        dist_cfg dcfg = {.concurrency = (int)o.concurrency,
                         .log_root = logdir,
                         .lease_s = DIST_LEASE_DEFAULT,
                         .who = "coordinator",
                         .progress = o.quiet ? NULL : stderr,
                         .quiet = o.quiet,
                         .watch = t_watch,
                         .status = t_status,
                         .live = &o.live,
                         .ctx = &t};
        store_pg_identity(db, "coordinator", DIST_LEASE_DEFAULT);
        drc = dist_play(db, &dcfg, err, sizeof err);
        /* Results posted after the last look, and a stop not recorded yet. */
        if (drc == DRIVER_OK) t_watch(&t);
        if (drc == DRIVER_OK && t.stopped && !t.recorded) drc = DRIVER_FAILED;
    } else {
        drc = driver_run(&dc, &src, err, sizeof err);
        /* The last group of results, before the report reads them. */
        if (store_flush(db) != 0 && !t.err[0]) snprintf(t.err, sizeof t.err, "%s", store_error(db));
        if (drc == DRIVER_OK && t.err[0]) drc = DRIVER_FAILED;
    }
    if (drc != DRIVER_OK) {
        fprintf(stderr, "arena: tournament: %s; continue with: arena tournament --resume %s\n",
                t.err[0] ? t.err : err, o.db);
        rc = drc == DRIVER_INTERRUPTED ? 130 : 1;
        goto out;
    }
    report rep;
    if (report_load(db, 2.0, NULL, &rep, err, sizeof err) == 0) {
        printf("\n");
        report_text(&rep, stdout);
        if (rep.finished != rep.scheduled && !t.stopped) {
            fprintf(stderr, "arena: tournament: %lld of %lld games finished\n",
                    (long long)rep.finished, (long long)rep.scheduled);
            rc = 1;
        } else {
            rc = 0;
        }
    } else {
        fprintf(stderr, "arena: tournament: %s\n", err);
        rc = 1;
    }
    report_free(&rep);
out:
    store_close(db);
    free(t.pending);
    early_stop_free(t.es);
    free(t.points);
    free(t.games);
    free(logdir);
    schedule_free(&sch);
    free_names(&o);
    argvec_free(&o.canon);
    argvec_free(&o.run_args);
    argvec_free(&args);
    argvec_free(&stored);
    argvec_free(&cl);
    free(resume_db);
    return rc;
}
