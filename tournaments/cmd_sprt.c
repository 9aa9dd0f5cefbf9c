/* `arena sprt`: seat-swapped pairs between two agents until the GSPRT
 * accepts H0 (elo <= elo0) or H1 (elo >= elo1). */
#include <errno.h>
#include <jansson.h>
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
#include "elo.h"
#include "hostspeed.h"
#include "ratings.h"
#include "stats.h"
#include "sandbox.h"
#include "spec.h"
#include "sprt_count.h"
#include "store_pg.h"
#include "util.h"

static void sprt_help(FILE *out)
{
    fputs("usage: arena sprt --game G --agent A=SPEC --agent B=SPEC --elo0 E0 --elo1 E1\n"
          "                  [--alpha 0.05] [--beta 0.05] [--db FILE] [--max-pairs N]\n"
          "                  [--concurrency J] [--seed S] [--logs DIR|none] [--quiet]\n"
          "                  [--pairing duplicate|independent] [--tc-scale auto|off]\n"
          "                  [clock, fault and limit flags] [--set KEY=VALUE]...\n"
          "                  [--http HOST:PORT [--spectator-delay SEC]]\n"
          "       arena sprt --resume DB [--concurrency J] [--quiet] [--http ...]\n"
          "\n"
          "Is A stronger than B? Plays seat-swapped pairs (by default both games on one\n"
          "seed) and runs the generalized SPRT on the pentanomial pair scores with logistic\n"
          "Elo bounds: H0 elo(A - B) <= E0 against H1 elo(A - B) >= E1. Stops as soon\n"
          "as the log-likelihood ratio (LLR) leaves [log(beta/(1-alpha)),\n"
          "log((1-beta)/alpha)], printing the LLR and bounds as it goes. Exit status 0\n"
          "when a hypothesis is accepted or --max-pairs is reached (the last line says\n"
          "which: \"H1 accepted\", \"H0 accepted\" or \"inconclusive\").\n"
          "\n"
          "  --game G           the game (2 players)\n"
          "  --agent A=SPEC     the candidate A, then the baseline B (exactly two)\n"
          "  --elo0 E0          Elo of H0 (required)\n"
          "  --elo1 E1          Elo of H1 (required, above E0)\n"
          "  --alpha P          false positive rate (default 0.05)\n"
          "  --beta P           false negative rate (default 0.05)\n"
          "  --db FILE|URL      results file (default sprt.sqlite; must not hold a run),\n"
          "                     or postgresql://...#NAME: workers on other hosts play\n"
          "                     (arena worker; see docs/distributed.md)\n"
          "                     `arena report FILE` works on it\n"
          "  --max-pairs N      stop undecided after N pairs (default: no limit)\n"
          "  --concurrency J    matches in flight (default: number of cores); with a\n"
          "                     PostgreSQL --db, 0 plays nothing here (workers do)\n"
          "  --seed S           master seed (default: random, stored in the DB and\n"
          "                     printed); publishing it before the end gives every\n"
          "                     game's seed, hence its hidden cards, away\n"
          "  --pairing P        duplicate (default): both games of a pair on one seed, the\n"
          "                     strongest test between your own versions; independent:\n"
          "                     each game on its own seed, for bots you do not trust (one\n"
          "                     that remembers game 1 knows the deal of game 2)\n"
          "  --logs DIR|none    gzip match logs (default: none)\n"
          "  --tc-scale auto|off\n"
          "                     auto: each worker scales the move, bank and game clocks\n"
          "                     by this host's speed over its own; hosts over 4x slower\n"
          "                     or faster are refused (PostgreSQL --db only; default off)\n"
          "  --quiet            only the final lines\n"
          "  --resume DB        continue the run stored in DB (a killed or interrupted\n"
          "                     one; a decided run prints its verdict again)\n"
          "  --help             this text\n",
          out);
    live_help(out, 21);
    fputs("\nShared match flags (as in arena play):\n", out);
    run_options_help(out);
}

typedef struct sctx {
    store *db;
    sprt_bounds b;
    int64_t max_pairs, groups_made, next_id;
    uint64_t seed;
    tourn_pairing pairing;
    sched_game queued[2];
    int n_queued;
    sprt_count c; /* the test: pairs in schedule order */
    tgame *pend;  /* on --resume: games scheduled but not played, first */
    size_t n_pend, pend_next;
    int64_t cursor; /* PostgreSQL: results read so far (posted order) */
    bool withdrawn; /* PostgreSQL: pending games withdrawn at the decision */
    bool quiet;
    char err[300];
} sctx;

static int make_pair(sctx *s);

static bool s_next(void *ctx, sched_game *g)
{
    sctx *s = ctx;
    if (s->c.decided) return false;
    if (s->pend_next < s->n_pend) {
        *g = s->pend[s->pend_next++].s;
        return true;
    }
    if (s->n_queued == 0 && make_pair(s) != 0) return false;
    *g = s->queued[2 - s->n_queued];
    s->n_queued--;
    return true;
}

/* Schedules the next pair (appended to the store, kept in s->queued);
 * -1 at --max-pairs or on a store error. */
static int make_pair(sctx *s)
{
    {
        if (s->max_pairs > 0 && s->groups_made >= s->max_pairs) return -1;
        int64_t grp = ++s->groups_made;
        uint64_t seed = schedule_group_seed(s->seed, grp);
        for (int k = 0; k < 2; k++) {
            sched_game *q = &s->queued[k];
            memset(q, 0, sizeof *q);
            q->id = ++s->next_id;
            q->group = grp;
            q->seed = s->pairing == PAIRING_DUPLICATE ? seed : schedule_game_seed(s->seed, q->id);
            q->players = 2;
            q->seat[0] = k;
            q->seat[1] = 1 - k;
        }
        if (store_append(s->db, s->queued, 2) != 0) {
            snprintf(s->err, sizeof s->err, "%s", store_error(s->db));
            return -1;
        }
        s->n_queued = 2;
    }
    return 0;
}

/* Counts a finished game toward the test; returns false once decided. */
static bool count_game(sctx *s, const tgame *g)
{
    return !sprt_count_stored(&s->c, g);
}

static bool s_done(void *ctx, const tgame *g, const char *log, bool *fatal)
{
    sctx *s = ctx;
    if (s->err[0] || store_result(s->db, g, log) < 0) {
        snprintf(s->err, sizeof s->err, "%s", store_error(s->db));
        *fatal = true;
        return false;
    }
    if (s->c.decided) return false; /* games in flight at the decision: stored only */
    return count_game(s, g);
}

/* Games scheduled ahead for the workers of a PostgreSQL run: enough to
 * keep them busy, few enough that little is withdrawn at the decision. */
#define SPRT_AHEAD_GAMES 32

/* PostgreSQL: counts the results the workers posted since the last look,
 * keeps SPRT_AHEAD_GAMES unfinished, withdraws the rest once decided. */
static void s_watch(void *ctx)
{
    sctx *s = ctx;
    tgame *g;
    size_t n;
    if (store_pg_results_since(s->db, &s->cursor, &g, &n) == 0) {
        for (size_t i = 0; i < n; i++)
            count_game(s, &g[i]);
        free(g);
    }
    if (s->c.decided) {
        if (!s->withdrawn && store_pg_withdraw(s->db) == 0) s->withdrawn = true;
        return;
    }
    int64_t open = store_pg_unfinished(s->db);
    while (open >= 0 && open < SPRT_AHEAD_GAMES && make_pair(s) == 0) {
        s->n_queued = 0; /* the workers claim them from the store */
        open += 2;
    }
}

/* Commits the results of the last STORE_GROUP_MS (SQLite groups them). */
static void s_tick(void *ctx)
{
    sctx *s = ctx;
    if (store_tick(s->db) != 0 && !s->err[0])
        snprintf(s->err, sizeof s->err, "%s", store_error(s->db));
}

static void s_status(void *ctx, char *buf, size_t len)
{
    sctx *s = ctx;
    const double *p = s->c.penta;
    snprintf(buf, len, "LLR %.2f [%.2f, %.2f]  pairs %.0f/%.0f/%.0f/%.0f/%.0f", s->c.llr,
             s->b.lower, s->b.upper, p[0], p[1], p[2], p[3], p[4]);
}

int cmd_sprt(int argc, char **argv)
{
    const char *gname = NULL, *dbpath = "sprt.sqlite", *logs = NULL, *v;
    bool tc_scale = false;
    const char *names[2] = {0}, *specs[2] = {0};
    char *ownnames[2] = {0};
    int na = 0;
    double elo0 = 0, elo1 = 0, alpha = 0.05, beta = 0.05;
    bool have0 = false, have1 = false;
    sctx s;
    memset(&s, 0, sizeof s);
    bool have_seed = false;
    s.pairing = PAIRING_DUPLICATE;
    int64_t conc = driver_default_concurrency();
    run_options ro;
    run_options_default(&ro);
    live_cfg live = {.spectator_delay = -1};
    int rc = 2;
    store *db = NULL;
    char *logdir = NULL, *resume = NULL;
    char err[512];
    /* The settings are kept in the DB as flags, so --resume parses the very
     * same ones again; only --concurrency and --quiet may change. */
    argvec av = {0}, canon = {0}, run_args = {0};
    char *snap[2] = {NULL, NULL};
    argvec_push(&av, "sprt");
    for (int i = 1; i < argc; i++) {
        const char *rv;
        int r = cli_value(argc, argv, &i, "--resume", &rv);
        if (r < 0) goto out;
        if (r > 0) {
            free(resume);
            resume = xstrdup(rv);
        }
    }
    int n_stored = 1;
    if (resume) {
        for (int i = 1; i < argc; i++)
            if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
                sprt_help(stdout);
                rc = 0;
                goto out;
            }
        db = resume[0] ? store_open(resume, false, err, sizeof err) : NULL;
        if (!store_is_url(resume)) sandbox_hide_db(resume);
        if (!db) {
            rc = cli_usage_error("sprt: %s", resume[0] ? err : "--resume needs a file");
            goto out;
        }
        if (store_lock(db, err, sizeof err) != 0) {
            fprintf(stderr, "arena: sprt: %s\n", err);
            rc = 1;
            goto out;
        }
        char *kind = store_meta(db, "kind"), *js = store_meta(db, "args");
        bool ok = kind && strcmp(kind, "sprt") == 0 && js && argvec_from_json(js, &av) == 0;
        free(kind);
        free(js);
        if (!ok) {
            rc = cli_usage_error("sprt: %s is not a resumable sprt run", resume);
            goto out;
        }
        n_stored = av.n;
    }
    for (int i = 1; i < argc; i++)
        argvec_push(&av, argv[i]);
    argc = av.n;
    argv = av.v;
    for (int i = 1; i < argc; i++) {
        int r, start = i;
        bool keep = true, run = false;
        /* Copies taken before parsing: the shared parser may edit its strings. */
        free(snap[0]);
        free(snap[1]);
        snap[0] = xstrdup(argv[i]);
        snap[1] = i + 1 < argc ? xstrdup(argv[i + 1]) : NULL;
        if (resume && i >= n_stored && strcmp(argv[i], "--quiet") != 0 &&
            strncmp(argv[i], "--concurrency", 13) != 0 && strncmp(argv[i], "--resume", 8) != 0 &&
            strncmp(argv[i], "--http", 6) != 0 && strncmp(argv[i], "--spectator-delay", 17) != 0) {
            rc = cli_usage_error("sprt: '%s' cannot change on --resume (only --concurrency, "
                                 "--quiet, --http, --spectator-delay)",
                                 argv[i]);
            goto out;
        }
        if ((r = cli_value(argc, argv, &i, "--resume", &v)) != 0) {
            keep = false;
        } else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            sprt_help(stdout);
            rc = 0;
            goto out;
        } else if ((r = cli_value(argc, argv, &i, "--game", &v)) != 0) {
            if (r < 0) goto out;
            gname = v;
        } else if ((r = cli_value(argc, argv, &i, "--agent", &v)) != 0) {
            if (r < 0) goto out;
            const char *eq = strchr(v, '=');
            if (na == 2) {
                rc = cli_usage_error("sprt: exactly two --agent (A, then B)");
                goto out;
            }
            if (!eq || eq == v || !eq[1]) {
                rc = cli_usage_error("--agent needs NAME=SPEC, not '%s'", v);
                goto out;
            }
            ownnames[na] = xasprintf("%.*s", (int)(eq - v), v);
            names[na] = ownnames[na];
            specs[na++] = eq + 1;
        } else if ((r = cli_value(argc, argv, &i, "--elo0", &v)) != 0) {
            if (r < 0 || !cli_double(v, -2000, 2000, &elo0)) {
                if (r > 0) rc = cli_usage_error("--elo0 needs a number, not '%s'", v);
                goto out;
            }
            have0 = true;
        } else if ((r = cli_value(argc, argv, &i, "--elo1", &v)) != 0) {
            if (r < 0 || !cli_double(v, -2000, 2000, &elo1)) {
                if (r > 0) rc = cli_usage_error("--elo1 needs a number, not '%s'", v);
                goto out;
            }
            have1 = true;
        } else if ((r = cli_value(argc, argv, &i, "--alpha", &v)) != 0) {
            if (r < 0 || !cli_double(v, 1e-9, 0.5, &alpha)) {
                if (r > 0) rc = cli_usage_error("--alpha needs a probability in (0, 0.5]");
                goto out;
            }
        } else if ((r = cli_value(argc, argv, &i, "--beta", &v)) != 0) {
            if (r < 0 || !cli_double(v, 1e-9, 0.5, &beta)) {
                if (r > 0) rc = cli_usage_error("--beta needs a probability in (0, 0.5]");
                goto out;
            }
        } else if ((r = cli_value(argc, argv, &i, "--db", &v)) != 0) {
            if (r < 0) goto out;
            if (!v[0]) {
                rc = cli_usage_error("--db needs a file name, not ''");
                goto out;
            }
            dbpath = v;
            keep = false;
        } else if ((r = cli_value(argc, argv, &i, "--logs", &v)) != 0) {
            if (r < 0) goto out;
            logs = v;
        } else if ((r = cli_value(argc, argv, &i, "--max-pairs", &v)) != 0) {
            if (r < 0 || !cli_int(v, 1, INT64_MAX / 4, &s.max_pairs)) {
                if (r > 0) rc = cli_usage_error("--max-pairs needs a positive integer");
                goto out;
            }
        } else if ((r = cli_value(argc, argv, &i, "--concurrency", &v)) != 0) {
            if (r < 0 || !cli_int(v, 0, 4096, &conc)) {
                if (r > 0) rc = cli_usage_error("--concurrency needs an integer 0..4096");
                goto out;
            }
            keep = false;
        } else if ((r = cli_value(argc, argv, &i, "--seed", &v)) != 0) {
            if (r < 0 || !cli_u64(v, &s.seed)) {
                if (r > 0) rc = cli_usage_error("--seed needs an unsigned integer");
                goto out;
            }
            have_seed = true;
        } else if ((r = cli_value(argc, argv, &i, "--tc-scale", &v)) != 0) {
            if (r < 0) goto out;
            if (!tc_scale_parse(v, &tc_scale)) {
                rc = cli_usage_error("--tc-scale takes auto or off, not '%s'", v);
                goto out;
            }
        } else if ((r = cli_value(argc, argv, &i, "--pairing", &v)) != 0) {
            if (r < 0) goto out;
            if (!schedule_pairing_parse(v, &s.pairing)) {
                rc = cli_usage_error("--pairing must be duplicate or independent, not '%s'", v);
                goto out;
            }
        } else if (strcmp(argv[i], "--quiet") == 0) {
            s.quiet = true;
            keep = false;
        } else if ((r = live_parse_arg(argc, argv, &i, &live)) != 0) {
            if (r == 2) goto out;
            keep = false; /* this run's, not the stored settings */
        } else {
            int rr = run_options_parse(&ro, argc, argv, &i);
            if (rr < 0) goto out;
            if (rr == 0) {
                rc =
                    cli_usage_error("sprt: unknown argument '%s' (see arena sprt --help)", argv[i]);
                goto out;
            }
            run = true;
        }
        for (int k = start; keep && k <= i && k - start < 2; k++) {
            argvec_push(&canon, snap[k - start]);
            if (run) argvec_push(&run_args, snap[k - start]); /* for workers */
        }
    }
    if ((rc = live_cfg_check(&live)) != 0) goto out;
    rc = 2;
    if (!have_seed && resume) {
        /* The stored seed; a run stored without one (by an arena whose
         * default seed was 1) was played on 1. */
        char *sd = store_meta(db, "seed");
        if (!sd || !cli_u64(sd, &s.seed)) s.seed = 1;
        free(sd);
    } else if (!have_seed) {
        /* A known default seed (such as 1) would give every game's seed,
         * hence its deal, away; tournament does the same. Stored for
         * --resume. */
        char sd[32];
        s.seed = arena_random_u64();
        snprintf(sd, sizeof sd, "%llu", (unsigned long long)s.seed);
        argvec_push(&canon, "--seed");
        argvec_push(&canon, sd);
    }
    if (conc == 0 && !store_is_url(resume ? resume : dbpath)) {
        rc = cli_usage_error("sprt: --concurrency 0 (only coordinate) needs a PostgreSQL --db "
                             "where workers play");
        goto out;
    }
    if (tc_scale && !store_is_url(resume ? resume : dbpath)) {
        rc = cli_usage_error("sprt: --tc-scale auto needs a PostgreSQL --db (it scales the "
                             "clocks of workers on other hosts)");
        goto out;
    }
    if (!gname || na != 2 || !have0 || !have1) {
        rc = cli_usage_error("sprt: --game, two --agent, --elo0 and --elo1 are required (see "
                             "arena sprt --help)");
        goto out;
    }
    if (elo1 <= elo0) {
        rc = cli_usage_error("sprt: --elo1 must be above --elo0");
        goto out;
    }
    if (strcmp(names[0], names[1]) == 0) {
        rc = cli_usage_error("sprt: the two agents need different names");
        goto out;
    }
    const arena_game_vt *game = arena_find_game(gname);
    if (!game) {
        rc = cli_usage_error("sprt: unknown game '%s' (see arena games)", gname);
        goto out;
    }
    if (game->min_players > 2 || game->max_players < 2) {
        rc = cli_usage_error("sprt: %s is not a 2-player game", gname);
        goto out;
    }
    if (!resume) {
        for (int a = 0; a < 2; a++) {
            const char *misfit = run_options_clock_misfit(&ro, specs[a]);
            if (misfit) snprintf(err, sizeof err, "%s", misfit);
            if (misfit || agent_spec_check(game->name, specs[a], err, sizeof err) != 0) {
                rc = cli_usage_error("sprt: agent %s (%s): %s", names[a], specs[a], err);
                goto out;
            }
        }
        db = store_open(dbpath, true, err, sizeof err);
        if (!store_is_url(dbpath)) sandbox_hide_db(dbpath);
        if (!db) {
            rc = cli_usage_error("sprt: %s", err);
            goto out;
        }
        if (store_lock(db, err, sizeof err) != 0) {
            fprintf(stderr, "arena: sprt: %s\n", err);
            rc = 1;
            goto out;
        }
    }
    if (logs && strcmp(logs, "none") != 0) {
        logdir = xstrdup(logs);
        if (mkdir(logdir, 0777) != 0 && errno != EEXIST) {
            rc = cli_usage_error("sprt: cannot create log directory %s", logdir);
            goto out;
        }
    }
    sprt_bounds_compute(alpha, beta, &s.b);
    sprt_count_init(&s.c, elo0, elo1, &s.b);
    if (resume && store_is_pg(db)) {
        /* The results are read by the first s_watch (sprt_count orders them). */
        if (store_pg_last_game(db, &s.next_id, &s.groups_made) != 0) {
            fprintf(stderr, "arena: sprt: %s\n", store_error(db));
            rc = 1;
            goto out;
        }
        dbpath = resume;
    } else if (resume) {
        /* The test again from the stored games: sprt_count takes them in
         * schedule order, as the live run did, so a decided run decides
         * again on the same pair and plays nothing. */
        tgame *all;
        size_t n_all;
        if (store_games(db, false, &all, &n_all) != 0) {
            fprintf(stderr, "arena: sprt: %s\n", store_error(db));
            rc = 1;
            goto out;
        }
        s.pend = xcalloc(n_all + 1, sizeof *s.pend);
        for (size_t i = 0; i < n_all; i++) {
            if (all[i].s.group > s.groups_made) s.groups_made = all[i].s.group;
            if (all[i].s.id > s.next_id) s.next_id = all[i].s.id;
            if (!all[i].done)
                s.pend[s.n_pend++] = all[i];
            else
                count_game(&s, &all[i]);
        }
        free(all);
        dbpath = resume;
    } else {
        char e0[32], e1[32], al[32], be[32], sd[32], mp[32];
        snprintf(e0, sizeof e0, "%g", elo0);
        snprintf(e1, sizeof e1, "%g", elo1);
        snprintf(al, sizeof al, "%g", alpha);
        snprintf(be, sizeof be, "%g", beta);
        snprintf(sd, sizeof sd, "%llu", (unsigned long long)s.seed);
        snprintf(mp, sizeof mp, "%lld", (long long)s.max_pairs);
        char move_ms[32], created[32] = "", ref[32] = "";
        if (tc_scale) snprintf(ref, sizeof ref, "%.0f", hostspeed_measure());
        snprintf(move_ms, sizeof move_ms, "%lld", (long long)ro.clock.move_ms);
        time_t now = time(NULL);
        struct tm tm;
        if (gmtime_r(&now, &tm)) strftime(created, sizeof created, "%Y-%m-%dT%H:%M:%SZ", &tm);
        char *cj = argvec_to_json(&canon), *rj = argvec_to_json(&run_args);
        /* clang-format off */
        const char *meta[] = {
            "kind", "sprt",
            "version", "1",
            "game", game->name,
            "format", "sprt",
            "seed", sd,
            "elo0", e0,
            "elo1", e1,
            "alpha", al,
            "beta", be,
            "max_pairs", mp,
            "players", "2",
            "pairing", schedule_pairing_name(s.pairing),
            "args", cj,
            "run_args", rj,
            "move_ms", move_ms,
            "created", created,
            "tc_scale", tc_scale ? "auto" : "off",
            "tc_ref_speed", ref,
            NULL};
        /* clang-format on */
        schedule none = {0};
        int irc = store_init(db, meta, (char *const *)names, (char *const *)specs, 2, &none, err,
                             sizeof err);
        free(cj);
        free(rj);
        if (irc != 0) {
            fprintf(stderr, "arena: sprt: %s\n", err);
            rc = 1;
            goto out;
        }
    }
    s.db = db;
    if (!s.quiet)
        fprintf(stderr,
                "%s %s: %s vs %s, H0 elo <= %g, H1 elo >= %g, alpha %g, beta %g, "
                "bounds [%.3f, %.3f], seed %llu\n",
                resume ? "resuming sprt" : "sprt", game->name, names[0], names[1], elo0, elo1,
                alpha, beta, s.b.lower, s.b.upper, (unsigned long long)s.seed);
    driver_cfg dc = {.game = game,
                     .ro = &ro,
                     .names = (char *const *)names,
                     .specs = (char *const *)specs,
                     .n_agents = 2,
                     .concurrency = (int)conc,
                     .log_dir = logdir,
                     .progress = s.quiet ? NULL : stderr,
                     .poll_ms = STORE_GROUP_MS,
                     .live = &live};
    live.db = dbpath;
    driver_src src = {
        .next = s_next, .done = s_done, .status = s_status, .tick = s_tick, .ctx = &s};
    int drc;
    if (store_is_pg(db)) {
        /* Workers on other hosts play; this process schedules pairs ahead,
         * counts their results as they are posted and withdraws the
         * pending games once the test decides. */
        dist_cfg dcfg = {.concurrency = (int)conc,
                         .log_root = logdir,
                         .lease_s = DIST_LEASE_DEFAULT,
                         .who = "coordinator",
                         .progress = s.quiet ? NULL : stderr,
                         .quiet = s.quiet,
                         .watch = s_watch,
                         .status = s_status,
                         .live = &live,
                         .ctx = &s};
        store_pg_identity(db, "coordinator", DIST_LEASE_DEFAULT);
        drc = dist_play(db, &dcfg, err, sizeof err);
    } else {
        drc = driver_run(&dc, &src, err, sizeof err);
        /* The last group of results. */
        if (store_flush(db) != 0 && !s.err[0]) snprintf(s.err, sizeof s.err, "%s", store_error(db));
    }
    if (drc != DRIVER_OK || s.err[0]) {
        fprintf(stderr, "arena: sprt: %s\n", s.err[0] ? s.err : err);
        rc = drc == DRIVER_INTERRUPTED ? 130 : 1;
        goto out;
    }
    const double *p = s.c.penta, *wdl = s.c.wdl;
    h2h h;
    h2h_pentanomial(p, &h);
    printf("pairs %lld  pentanomial [%.0f %.0f %.0f %.0f %.0f]  games W-L-D %.0f-%.0f-%.0f\n",
           (long long)s.c.pairs, p[0], p[1], p[2], p[3], p[4], wdl[0], wdl[2], wdl[1]);
    if (h.valid)
        printf("Elo %+.1f +/- %.1f  nElo %+.1f +/- %.1f  LOS %.1f%%\n", ratings_round(h.elo, 1),
               h.error, ratings_round(h.nelo, 1), h.nelo_error, 100 * h.los);
    int dec = s.c.decided;
    printf("LLR %.3f  bounds [%.3f, %.3f]\n", s.c.llr, s.b.lower, s.b.upper);
    printf("%s\n", dec > 0 ? "H1 accepted" : dec < 0 ? "H0 accepted" : "inconclusive");
    char llr[32];
    snprintf(llr, sizeof llr, "%.6f", s.c.llr);
    store_set_meta(db, "llr", llr);
    store_set_meta(db, "result", dec > 0 ? "H1" : dec < 0 ? "H0" : "inconclusive");
    rc = 0;
out:
    store_close(db);
    free(logdir);
    free(resume);
    free(snap[0]);
    free(snap[1]);
    argvec_free(&av);
    argvec_free(&canon);
    argvec_free(&run_args);
    sprt_count_free(&s.c);
    free(s.pend);
    free(ownnames[0]);
    free(ownnames[1]);
    return rc;
}
