/* `arena worker`: plays games of the tournaments in a PostgreSQL database,
 * alongside other workers on any host, until stopped. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cliargs.h"
#include "clock.h"
#include "commands.h"
#include "distributed.h"
#include "driver.h"
#include "hostspeed.h"
#include "store_pg.h"
#include "util.h"

static void worker_help(FILE *out)
{
    fputs("usage: arena worker --db URL [--concurrency N] [--name NAME] [--logs DIR|none]\n"
          "                    [--lease SECONDS] [--speed S] [--quiet]\n"
          "\n"
          "Plays games of every unfinished tournament in the PostgreSQL database URL\n"
          "(made by `arena tournament`, `arena sprt` or `arena ladder run` with the URL),\n"
          "with the tournament's own settings and seeds and its agent specs resolved on\n"
          "this host (install the agents at the same paths on every host). A ladder's\n"
          "ranked games and finals are played too (its run schedules them and plays the\n"
          "validation games); a version added later is read when a game seats it, and\n"
          "an entrant that cannot start here forfeits its game. A game is held under a\n"
          "lease that a heartbeat renews; if this worker dies, the game is played again\n"
          "by another once the lease expires. Each result is posted in one transaction;\n"
          "a result that arrives after another worker's for the same game is dropped and\n"
          "logged. A lost database is reconnected with backoff while the games in flight\n"
          "go on. Runs until SIGINT or SIGTERM (games in flight are then left to their\n"
          "leases).\n"
          "\n"
          "The worker measures this host's speed with a fixed benchmark when it starts\n"
          "and again before a tournament once the last figure is 10 minutes old, and\n"
          "records it in each tournament it plays. A tournament made with --tc-scale\n"
          "auto scales its move, bank and game clocks here by the speed it was made on\n"
          "over this host's, and refuses a host more than 4x slower or faster.\n"
          "See docs/distributed.md.\n"
          "\n"
          "  --db URL           postgresql://USER@HOST/DB?... (libpq URL)\n"
          "  --concurrency N    matches in flight (default: number of cores)\n"
          "  --name NAME        this worker's name in progress and reports\n"
          "                     (default HOST:PID)\n"
          "  --logs DIR|none    gzip match logs in DIR/TOURNAMENT/ on this host (default\n"
          "                     arena-logs); the database records host and path\n"
          "  --lease SECONDS    how long a claimed game stays this worker's without a\n"
          "                     heartbeat (default 60; heartbeats every third of it)\n"
          "  --speed S          take S (games/s, as the worker prints it) as this\n"
          "                     host's speed instead of measuring it\n"
          "  --quiet            no line per tournament\n"
          "  --help             this text\n",
          out);
}

/* How old the host's speed may get before the worker measures it again. */
#define WORKER_REMEASURE_MS 600e3

static volatile sig_atomic_t stop_asked;

static void on_stop(int sig)
{
    (void)sig;
    stop_asked = 1;
}

static void nap(double s)
{
    struct timespec ts = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};
    nanosleep(&ts, NULL); /* a signal ends it early */
}

int cmd_worker(int argc, char **argv)
{
    const char *url = NULL, *name = NULL, *logs = DIST_LOGS_DEFAULT;
    int64_t conc = driver_default_concurrency();
    double lease = DIST_LEASE_DEFAULT, speed = 0;
    bool quiet = false;
    for (int i = 1; i < argc; i++) {
        const char *val;
        int r;
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            worker_help(stdout);
            return 0;
        } else if ((r = cli_value(argc, argv, &i, "--db", &val)) != 0) {
            if (r < 0) return 2;
            url = val;
        } else if ((r = cli_value(argc, argv, &i, "--name", &val)) != 0) {
            if (r < 0) return 2;
            if (!val[0] || strlen(val) > 64)
                return cli_usage_error("worker: --name needs 1 to 64 characters");
            name = val;
        } else if ((r = cli_value(argc, argv, &i, "--logs", &val)) != 0) {
            if (r < 0) return 2;
            logs = strcmp(val, "none") == 0 ? NULL : val;
        } else if ((r = cli_value(argc, argv, &i, "--concurrency", &val)) != 0) {
            if (r < 0) return 2;
            if (!cli_int(val, 1, 4096, &conc))
                return cli_usage_error("--concurrency needs an integer 1..4096, not '%s'", val);
        } else if ((r = cli_value(argc, argv, &i, "--lease", &val)) != 0) {
            if (r < 0) return 2;
            if (!cli_double(val, 0.5, 86400, &lease))
                return cli_usage_error("--lease needs seconds 0.5..86400, not '%s'", val);
        } else if ((r = cli_value(argc, argv, &i, "--speed", &val)) != 0) {
            if (r < 0) return 2;
            if (!cli_double(val, 1, 1e12, &speed))
                return cli_usage_error("--speed needs a number of games/s >= 1, not '%s'", val);
        } else if (strcmp(argv[i], "--quiet") == 0) {
            quiet = true;
        } else {
            return cli_usage_error("worker: unexpected '%s' (see arena worker --help)", argv[i]);
        }
    }
    if (!url || !store_is_url(url))
        return cli_usage_error("worker: --db needs a postgresql:// URL");
    char err[512], host[256] = "";
    store *db = store_pg_connect(url, err, sizeof err);
    if (!db) {
        fprintf(stderr, "arena: worker: %s\n", err);
        return 1;
    }
    if (gethostname(host, sizeof host - 1) != 0) snprintf(host, sizeof host, "unknown");
    char *me = name ? xstrdup(name) : xasprintf("%s:%ld", host, (long)getpid());
    char *who = xasprintf("worker %s", me);
    store_pg_identity(db, me, lease);
    struct sigaction sa = {.sa_handler = on_stop}, old_int, old_term;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &old_int);
    sigaction(SIGTERM, &sa, &old_term);
    bool fixed_speed = speed > 0;
    double measured_at = clock_now_ms();
    if (!fixed_speed) speed = hostspeed_measure();
    if (!quiet)
        fprintf(stderr, "arena: %s on %s: speed %.0f games/s%s; waiting for games\n", who, host,
                speed, fixed_speed ? " (--speed)" : "");
    int rc = 0;
    bool down = false;
    abuf refused = {0}; /* tournaments that refused this host, by name, one a line */
    abuf_addc(&refused, '\0');
    while (!stop_asked) {
        char tname[80];
        int got = store_pg_pick(db, (const char *)refused.data, tname, sizeof tname);
        if (got < 0) {
            if (!down) fprintf(stderr, "arena: %s: %s; retrying\n", who, store_error(db));
            down = true;
            nap(1.0);
            continue;
        }
        if (down) fprintf(stderr, "arena: %s: the database is back\n", who);
        down = false;
        if (got == 0) {
            nap(0.5);
            continue;
        }
        if (!fixed_speed && clock_now_ms() - measured_at >= WORKER_REMEASURE_MS) {
            speed = hostspeed_measure();
            measured_at = clock_now_ms();
            if (!quiet) fprintf(stderr, "arena: %s: speed %.0f games/s\n", who, speed);
        }
        if (!quiet) fprintf(stderr, "arena: %s: playing tournament %s\n", who, tname);
        dist_cfg c = {.concurrency = (int)conc,
                      .speed = speed,
                      .log_root = logs,
                      .lease_s = lease,
                      .who = who,
                      .progress = NULL,
                      .quiet = quiet,
                      .linger = true};
        int drc = dist_play(db, &c, err, sizeof err);
        if (drc == DRIVER_INTERRUPTED) break;
        if (drc == DIST_REFUSED) {
            fprintf(stderr, "arena: %s: tournament %s: %s\n", who, tname, err);
            refused.len--; /* over the NUL */
            if (refused.len) abuf_addc(&refused, '\n');
            abuf_add(&refused, tname, strlen(tname));
            abuf_addc(&refused, '\0');
            continue;
        }
        if (drc == DIST_DB_DOWN) { /* lost just after the pick: wait for it as above */
            if (!down) fprintf(stderr, "arena: %s: %s; retrying\n", who, err);
            down = true;
            nap(1.0);
            continue;
        }
        if (drc != DRIVER_OK) {
            fprintf(stderr, "arena: %s: tournament %s: %s\n", who, tname, err);
            rc = 1;
            break;
        }
    }
    if (!quiet && rc == 0) fprintf(stderr, "arena: %s: stopped\n", who);
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    store_close(db);
    abuf_free(&refused);
    free(me);
    free(who);
    return rc;
}
