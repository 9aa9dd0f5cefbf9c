/* Games handed out per second by one PostgreSQL server to many workers:
 * a tournament of GAMES 2-player games is stored, then WORKERS processes
 * (simulated workers: no agents, no game) each claim a game under a lease
 * and post a result for it, as `arena worker` does, until none is left.
 *   bench-distributed URL WORKERS GAMES
 * Prints one line: workers, games, seconds, games/s, round trips/s. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "schedule.h"
#include "store_pg.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* One simulated worker: claim, post, until nothing is claimable. */
static int work(const char *url, int id, int go_fd)
{
    char err[512], name[32];
    store *db = store_pg_connect(url, err, sizeof err);
    if (!db) {
        fprintf(stderr, "worker %d: %s\n", id, err);
        return 1;
    }
    snprintf(name, sizeof name, "sim%d", id);
    store_pg_identity(db, name, 60);
    char c;
    if (read(go_fd, &c, 1) != 1) return 1; /* everyone connected: start together */
    char tname[80];
    if (store_pg_pick(db, "", tname, sizeof tname) != 1) {
        store_close(db);
        return 0;
    }
    sched_game g;
    int r;
    while ((r = store_pg_claim(db, &g)) == 1) {
        tgame t;
        memset(&t, 0, sizeof t);
        t.s = g;
        t.done = true;
        t.rank[0] = 1;
        t.rank[1] = 2;
        t.score[0] = 1;
        t.turns = 10;
        snprintf(t.reason, sizeof t.reason, "normal");
        if (store_result(db, &t, NULL) != 1) {
            fprintf(stderr, "worker %d: post: %s\n", id, store_error(db));
            r = -1;
            break;
        }
    }
    if (r < 0) fprintf(stderr, "worker %d: %s\n", id, store_error(db));
    store_close(db);
    return r < 0;
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: bench-distributed URL WORKERS GAMES\n");
        return 2;
    }
    const char *url = argv[1];
    int workers = atoi(argv[2]);
    long games = atol(argv[3]);
    char err[512];
    store *db = store_open(url, true, err, sizeof err);
    if (!db) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    schedule sch = {0};
    sch.n = (size_t)games;
    sch.games = calloc(sch.n, sizeof *sch.games);
    for (size_t i = 0; i < sch.n; i++) {
        sched_game *g = &sch.games[i];
        g->id = (int64_t)i + 1;
        g->group = (int64_t)i / 2 + 1;
        g->seed = i * 7919u;
        g->players = 2;
        g->seat[0] = (int)(i % 2);
        g->seat[1] = 1 - (int)(i % 2);
    }
    char *names[] = {"a", "b"}, *specs[] = {"builtin:random", "builtin:random"};
    const char *meta[] = {"kind", "tournament", "game", "nim", "seed", "1", "run_args", "[]", NULL};
    if (store_init(db, meta, names, specs, 2, &sch, err, sizeof err) != 0) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    free(sch.games);
    int go[2];
    if (pipe(go) != 0) return 1;
    for (int w = 0; w < workers; w++) {
        pid_t p = fork();
        if (p == 0) {
            close(go[1]);
            _exit(work(url, w, go[0]));
        }
    }
    close(go[0]);
    usleep(200000 + 20000 * (useconds_t)workers); /* let them connect */
    double t0 = now_s();
    char *wake = calloc((size_t)workers, 1);
    if (write(go[1], wake, (size_t)workers) != workers) return 1;
    free(wake);
    int bad = 0, st;
    while (wait(&st) > 0)
        if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) bad++;
    double el = now_s() - t0;
    int64_t total, done;
    store_counts(db, &total, &done);
    store_close(db);
    printf("workers %d  games %lld  seconds %.2f  games/s %.0f  requests/s %.0f%s\n", workers,
           (long long)done, el, (double)done / el, 2.0 * (double)done / el,
           bad || done != games ? "  (INCOMPLETE)" : "");
    return bad || done != games;
}
