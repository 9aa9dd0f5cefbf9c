/* `arena audit DB [--logs DIR]`: does every verdict a tournament (or SPRT
 * run) stored hold up? For each game: its group, seats and seed are the
 * ones its schedule gives from the stored settings and master seed
 * (schedule.c), so nobody chose the deal or the opponents; and,
 * for each finished game whose match log is at hand, the log replays move
 * for move from that seed (replay.c), it seats the stored agents, and its
 * result is the stored one. No scheduled game is missing, and an SPRT
 * run's stored verdict is the one its games give (sprt_count.h). A results
 * row edited or deleted afterwards, a game played on another seed, a log
 * that does not match its game, a verdict rewritten: each is named. */
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "clock.h"
#include "cliargs.h"
#include "commands.h"
#include "replay.h"
#include "schedule.h"
#include "spec.h"
#include "sprt_count.h"
#include "store.h"
#include "utf8.h"
#include "util.h"

static void audit_help(FILE *out)
{
    fputs("usage: arena audit DB [--logs DIR] [--quiet]\n"
          "\n"
          "Checks the verdicts stored in a tournament or SPRT results file DB (or\n"
          "postgresql://...#NAME) against the schedule and the match logs:\n"
          "  - every game's group, seats and seed are the ones its schedule gives\n"
          "    from the stored settings, master seed and pairing (nobody picked a\n"
          "    deal or an opponent);\n"
          "  - every game the schedule has is stored (none deleted);\n"
          "  - every finished game whose log is found replays move for move from\n"
          "    that seed (as `arena replay` checks), seats the stored agents, and\n"
          "    ends with the stored ranks, scores, reason and forfeits, each one\n"
          "    re-derived from the replayed game and the log's fault records: a\n"
          "    forfeit only on its fault record, a timeout only once the time the\n"
          "    decide gave was up by the log's clock (wall clock);\n"
          "  - an SPRT run's stored verdict and LLR are the ones its games give;\n"
          "  - every timeout's figures in a log (wall, CPU, waits, lag) give its\n"
          "    verdict under the clock it was timed by (protocol.md §5);\n"
          "  - every timeout forfeit's figures stored in DB give its verdict too,\n"
          "    and, where its log is found, are the ones of the seat's last timeout\n"
          "    fault record in it.\n"
          "Each problem is one line naming the game; the last line sums up.\n"
          "\n"
          "  --logs DIR  where the logs are, as DIR/game-NNNNNN.jsonl.gz (default:\n"
          "              the logs directory stored in DB; with workers on several\n"
          "              hosts, gather their logs into one directory first)\n"
          "  --quiet     only the problems and the last line\n"
          "  --help      this text\n"
          "\n"
          "What the logs cannot prove is said on lines starting 'not proven:':\n"
          "games without a log (named), games the referee aborted, and timeout\n"
          "forfeits whose time the log cannot show (start-up, CPU clock).\n"
          "\n"
          "Exit status: 0 when nothing is wrong (what is not proven is counted and\n"
          "named, not failed), 1 when a verdict does not hold, 2 on bad arguments.\n",
          out);
}

typedef struct audit {
    char *const *names; /* the agents, by index */
    int n_agents;
    long problems, off_schedule, replayed, unlogged;
    /* What the logs cannot prove, counted and named (verdict.h). */
    int64_t *unlogged_ids;
    long aborted, clock_unchecked;
    long clocks_unstored; /* timeout forfeits stored without their figures' column */
} audit;

/* A line on stdout. It quotes the results file and its logs (names,
 * paths, causes), which may come from anyone: masked as bot text is. */
static void say(const char *fmt, va_list ap)
{
    char *line = NULL;
    if (vasprintf(&line, fmt, ap) < 0) return;
    utf8_mask_lines(line);
    puts(line);
    free(line);
}

static void sayf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void sayf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    say(fmt, ap);
    va_end(ap);
}

static void problem(audit *a, const sched_game *g, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void problem(audit *a, const sched_game *g, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *what = NULL;
    if (vasprintf(&what, fmt, ap) >= 0) sayf("game %" PRId64 ": %s", g->id, what);
    free(what);
    va_end(ap);
    a->problems++;
}

static const char *agent_of(const audit *a, int i)
{
    return i >= 0 && i < a->n_agents ? a->names[i] : "?";
}

/* The stored run's schedule, rebuilt: a tournament's from its stored
 * settings, an SPRT run's seat-swapped pairs (cmd_sprt.c) up to n games. */
/* A ladder chooses its tables as it goes, so no schedule can be rebuilt.
 * Its games must still be numbered 1, 2, ... as they were handed out, and
 * each seed must be the one the master seed gives its id (its group under
 * duplicate pairing, and in the finals). The "schedule" is therefore the
 * stored games' own seats with the seeds they must have. */
static void rebuild_ladder(store *s, const tgame *games, size_t n, uint64_t master,
                           tourn_pairing pair, schedule *out)
{
    int64_t top = 0, finals = (int64_t)store_meta_number(s, "finals_from", 0);
    for (size_t i = 0; i < n; i++)
        if (games[i].s.id > top) top = games[i].s.id; /* at most 2n: store_games checks */
    out->games = xcalloc((size_t)top + 1, sizeof *out->games);
    out->n = (size_t)top;
    for (int64_t id = 1; id <= top; id++)
        out->games[id - 1].id = id;
    for (size_t i = 0; i < n; i++) {
        sched_game *q = &out->games[games[i].s.id - 1];
        *q = games[i].s;
        bool dup = pair == PAIRING_DUPLICATE || (finals > 0 && q->id >= finals);
        q->seed = dup ? schedule_group_seed(master, q->group) : schedule_game_seed(master, q->id);
    }
}

static int rebuild(store *s, const char *kind, uint64_t master, tourn_pairing pair, int n_agents,
                   size_t n, size_t stored, schedule *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    if (strcmp(kind, "sprt") == 0) {
        out->games = xcalloc(n + 1, sizeof *out->games);
        for (size_t i = 0; i < n; i++) {
            sched_game *q = &out->games[i];
            q->id = (int64_t)i + 1;
            q->group = (int64_t)i / 2 + 1;
            q->seed = pair == PAIRING_DUPLICATE ? schedule_group_seed(master, q->group)
                                                : schedule_game_seed(master, q->id);
            q->players = 2;
            q->seat[0] = (int)(i % 2);
            q->seat[1] = 1 - q->seat[0];
        }
        out->n = n;
        return 0;
    }
    schedule_params p = {.n_agents = n_agents, .per_pairing = 10, .seed = master, .pairing = pair};
    char *format = store_meta(s, "format"), *players = store_meta(s, "players");
    char *args = store_meta(s, "args");
    argvec av = {0};
    int rc = -1;
    int64_t k = 0;
    if (!format || !players || !args || !cli_int(players, 1, RANKED_MAX, &k) ||
        argvec_from_json(args, &av) != 0) {
        snprintf(err, errlen, "no schedule settings stored (format, players, args)");
        goto out;
    }
    p.players = (int)k;
    p.format = strcmp(format, "gauntlet") == 0 ? FORMAT_GAUNTLET : FORMAT_ROUND_ROBIN;
    for (int i = 1; i < av.n; i++) { /* the stored flags are `--flag value` pairs */
        if (strcmp(av.v[i - 1], "--games-per-pairing") == 0 && cli_int(av.v[i], 1, 1000000000, &k))
            p.per_pairing = k;
        else if (strcmp(av.v[i - 1], "--max-games") == 0 && cli_int(av.v[i], 1, INT64_MAX / 2, &k))
            p.max_games = k;
    }
    /* Its settings are stored numbers too: a schedule far larger than the
     * games stored is refused before it is built. */
    int64_t full = schedule_full_size(&p);
    if (full < 0 || (p.max_games > 0 && full > p.max_games)) full = p.max_games;
    if (full > store_schedule_cap((int64_t)stored)) {
        snprintf(err, errlen,
                 "the results file is corrupt: its settings name a schedule of %lld games, but "
                 "it stores %zu",
                 (long long)full, stored);
        goto out;
    }
    rc = schedule_build(&p, out, err, errlen);
out:
    argvec_free(&av);
    free(format);
    free(players);
    free(args);
    return rc;
}

/* Where a stored game is not its schedule's, one problem naming what. */
/* Appends to buf (a text of `size` bytes), cutting what does not fit. */
static void append(char *buf, size_t size, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void append(char *buf, size_t size, const char *fmt, ...)
{
    size_t used = strlen(buf);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf + used, size - used, fmt, ap);
    va_end(ap);
}

/* " NAME NAME ...": the agents a game seats, by seat. */
static void seats_text(const audit *a, const sched_game *g, char *buf, size_t size)
{
    buf[0] = '\0';
    for (int k = 0; k < g->players && k < RANKED_MAX; k++)
        append(buf, size, " %s", agent_of(a, g->seat[k]));
}

/* "RANK:SCORE[:FORFEIT] ..." by seat. */
static void result_text(const int *rank, const int64_t *score, const char (*forfeit)[16],
                        int players, char *buf, size_t size)
{
    buf[0] = '\0';
    for (int k = 0; k < players; k++)
        append(buf, size, "%s%d:%" PRId64 "%s%s", k ? " " : "", rank[k], score[k],
               *forfeit[k] ? ":" : "", forfeit[k]);
}

static bool as_scheduled(audit *a, const sched_game *g, const schedule *sch)
{
    const sched_game *w = g->id >= 1 && (size_t)g->id <= sch->n ? &sch->games[g->id - 1] : NULL;
    if (!w) {
        problem(a, g, "is not in its schedule of %zu games", sch->n);
        return false;
    }
    if (g->seed != w->seed) {
        problem(a, g, "seed %" PRIu64 " is not its schedule's (%" PRIu64 ")", g->seed, w->seed);
        return false;
    }
    bool same = g->group == w->group && g->players == w->players;
    for (int k = 0; same && k < g->players; k++)
        same = g->seat[k] == w->seat[k];
    if (!same) {
        char got[256], want[256];
        seats_text(a, g, got, sizeof got);
        seats_text(a, w, want, sizeof want);
        problem(a, g,
                "group %" PRId64 ", seats%s are not its schedule's (group %" PRId64 ", seats%s)",
                g->group, got, w->group, want);
        return false;
    }
    return true;
}

/* What a walked log said about its game. */
typedef struct seen {
    int64_t seed;
    bool have_seed, have_result;
    int ranks[RANKED_MAX];
    int64_t scores[RANKED_MAX];
    char reason[16];
    char forfeit[RANKED_MAX][16]; /* cause by seat, "" none */
    /* Timeouts whose recorded figures do not give the verdict (the first
     * one said), and those with figures at all. */
    long clock_wrong, clock_checked;
    char clock_first[200];
    clock_evidence last[RANKED_MAX]; /* by seat: its last timeout's figures */
} seen;

/* A figure of a timeout's record; -1 if null or absent. */
static double figure(const av *c, const char *key)
{
    const av *v = av_get(c, key);
    if (v && v->type == AV_FLOAT) return v->u.f;
    if (v && v->type == AV_INT) return (double)v->u.i;
    return -1;
}

/* A timeout's fault record: its figures must give its verdict under its
 * clock (protocol.md §5), charged >= allowance (clock_evidence_holds). */
static void on_aside(void *ctx, replay *r, const av *line)
{
    (void)r;
    seen *s = ctx;
    const char *type = av_get_str(line, "type"), *cause = av_get_str(line, "cause");
    const av *c = av_get(line, "clock");
    if (!type || strcmp(type, "fault") || !cause || strcmp(cause, "timeout") || !c ||
        c->type != AV_MAP)
        return;
    const char *mode = av_get_str(c, "mode");
    clock_evidence e = {.set = true,
                        .mode = mode && !strcmp(mode, "cpu")    ? CLOCK_CPU
                                : mode && !strcmp(mode, "fair") ? CLOCK_FAIR
                                                                : CLOCK_WALL,
                        .allowance_ms = figure(c, "allowance_ms"),
                        .charged_ms = figure(c, "charged_ms"),
                        .wall_ms = figure(c, "wall_ms"),
                        .cpu_ms = figure(c, "cpu_ms"),
                        .wait_ms = figure(c, "wait_ms"),
                        .wait_sum_ms = figure(c, "wait_sum_ms"),
                        .lag_ms = figure(c, "lag_ms"),
                        .host_psi_ms = figure(c, "host_psi_ms")};
    s->clock_checked++;
    int64_t at = -1;
    if (av_get_int(line, "seat", &at) && at >= 0 && at < RANKED_MAX) s->last[at] = e;
    /* The log keeps each figure to the microsecond, cut: 0.01 ms of slack. */
    if (clock_evidence_holds(&e, 0.01)) return;
    int64_t seat = -1;
    av_get_int(line, "seat", &seat);
    if (!s->clock_wrong++)
        snprintf(s->clock_first, sizeof s->clock_first,
                 "seat %lld timed out under the %s clock, charged %.3f of %.3f ms, but its "
                 "figures give %.3f",
                 (long long)seat, mode ? mode : "?", e.charged_ms, e.allowance_ms,
                 clock_recharge(&e));
}

static int on_header(void *ctx, replay *r, const av *line)
{
    (void)r;
    seen *s = ctx;
    s->have_seed = av_get_int(line, "seed", &s->seed);
    return 0;
}

static void on_result(void *ctx, replay *r, const av *line)
{
    seen *s = ctx;
    const av *ranks = av_get(line, "ranks"), *scores = av_get(line, "scores");
    const char *reason = av_get_str(line, "reason");
    if (!ranks || !scores || !reason || (int)av_len(ranks) != r->players ||
        (int)av_len(scores) != r->players)
        return;
    for (int k = 0; k < r->players; k++) {
        const av *rank = ranks->u.list.items[k], *score = scores->u.list.items[k];
        if (rank->type != AV_INT || score->type != AV_INT) return;
        s->ranks[k] = (int)rank->u.i;
        s->scores[k] = score->u.i;
    }
    snprintf(s->reason, sizeof s->reason, "%s", reason);
    const av *ff = av_get(line, "forfeits");
    for (size_t i = 0; ff && ff->type == AV_LIST && i < av_len(ff); i++) {
        int64_t seat;
        const char *cause = av_get_str(ff->u.list.items[i], "cause");
        if (av_get_int(ff->u.list.items[i], "seat", &seat) && cause && seat >= 0 &&
            seat < r->players)
            snprintf(s->forfeit[seat], sizeof s->forfeit[seat], "%s", cause);
    }
    s->have_result = true;
}

static char *find_log(const char *dir, int64_t id)
{
    static const char *const ext[] = {".jsonl.gz", ".jsonl"};
    for (size_t i = 0; i < 2; i++) {
        char *p = xasprintf("%s/game-%06" PRId64 "%s", dir, id, ext[i]);
        struct stat st;
        if (stat(p, &st) == 0) return p;
        free(p);
    }
    return NULL;
}

/* Its timeouts against the figures they were recorded with: true if they
 * hold (or it has none). */
static bool check_timeouts(audit *a, const sched_game *g, const seen *s, const char *path)
{
    if (!s->clock_wrong) return true;
    problem(a, g, "its log %s has %ld timeout%s its figures do not bear out: %s", path,
            s->clock_wrong, s->clock_wrong == 1 ? "" : "s", s->clock_first);
    return false;
}

/* A game's timeout forfeits as stored (ff: its n forfeited seats). */
typedef struct stored_ff {
    const store_forfeit *v;
    size_t n;
} stored_ff;

/* Two figures the same to the microsecond both are cut to (or both unread). */
static bool same_figure(double a, double b)
{
    return (a < 0 && b < 0) || fabs(a - b) < 0.0015;
}

static bool same_clock(const clock_evidence *x, const clock_evidence *y)
{
    return x->set == y->set &&
           (!x->set ||
            (x->mode == y->mode && same_figure(x->allowance_ms, y->allowance_ms) &&
             same_figure(x->charged_ms, y->charged_ms) && same_figure(x->wall_ms, y->wall_ms) &&
             same_figure(x->cpu_ms, y->cpu_ms) && same_figure(x->wait_ms, y->wait_ms) &&
             same_figure(x->wait_sum_ms, y->wait_sum_ms) && same_figure(x->lag_ms, y->lag_ms) &&
             same_figure(x->host_psi_ms, y->host_psi_ms)));
}

/* "fair clock, allowance 20.000, charged 22.576, ..." or "none". */
static void clock_text(const clock_evidence *e, char *buf, size_t size)
{
    if (!e->set) {
        snprintf(buf, size, "none");
        return;
    }
    snprintf(buf, size,
             "%s clock, allowance %.3f, charged %.3f, wall %.3f, cpu %.3f, wait %.3f, wait sum "
             "%.3f, lag %.3f, host pressure %.3f",
             clock_mode_name(e->mode), e->allowance_ms, e->charged_ms, e->wall_ms, e->cpu_ms,
             e->wait_ms, e->wait_sum_ms, e->lag_ms, e->host_psi_ms);
}

/* The stored figures of a game's timeout forfeits: they give each verdict
 * (as a log's must), and (log: s, else NULL) are its log's. */
static void check_stored_clocks(audit *a, const sched_game *g, stored_ff ff, const seen *s,
                                const char *path)
{
    for (size_t i = 0; i < ff.n; i++) {
        const store_forfeit *f = &ff.v[i];
        if (strcmp(f->cause, "timeout") != 0) {
            if (f->clock.set)
                problem(a, g, "stores timeout figures for seat %d, which forfeited by %s", f->seat,
                        f->cause);
            continue;
        }
        if (!f->clock_column) {
            a->clocks_unstored++;
            continue;
        }
        const clock_evidence *e = &f->clock;
        if (e->set && !clock_evidence_holds(e, 0.01)) {
            problem(a, g,
                    "its stored figures of seat %d's timeout do not bear out its verdict: "
                    "charged %.3f of %.3f ms under the %s clock, but they give %.3f",
                    f->seat, e->charged_ms, e->allowance_ms, clock_mode_name(e->mode),
                    clock_recharge(e));
            continue;
        }
        if (!s || f->seat < 0 || f->seat >= RANKED_MAX || same_clock(e, &s->last[f->seat]))
            continue;
        char stored[400], logged[400];
        clock_text(e, stored, sizeof stored);
        clock_text(&s->last[f->seat], logged, sizeof logged);
        problem(a, g, "its stored figures of seat %d's timeout (%s) are not its log's (%s has %s)",
                f->seat, stored, path, logged);
    }
}

/* A finished game against its log: replayed, or a problem said. */
static void check_log(audit *a, const tgame *t, const char *path, stored_ff ff)
{
    const sched_game *g = &t->s;
    replay r = {.path = path};
    seen s = {0};
    replay_sink sink = {.header = on_header, .result = on_result, .aside = on_aside};
    fflush(stdout); /* replay's own complaint goes to stderr, in order */
    int rc = replay_walk(&r, &sink, &s);
    int players = r.players;
    verdict v = r.v;
    char names[ARENA_MAX_SEATS][128];
    memcpy(names, r.names, sizeof names);
    replay_free(&r);
    if (rc != 0) {
        problem(a, g, "its log %s does not replay (the line above says why)", path);
        return;
    }
    if (!s.have_seed || (uint64_t)s.seed != g->seed) {
        problem(a, g, "its log %s was dealt from seed %" PRIu64 ", the game's is %" PRIu64, path,
                (uint64_t)s.seed, g->seed);
        return;
    }
    if (players != g->players) {
        problem(a, g, "its log %s has %d seats, the game %d", path, players, g->players);
        return;
    }
    for (int k = 0; k < players; k++) {
        const char *want = agent_of(a, g->seat[k]);
        if (strcmp(names[k], want) != 0) {
            problem(a, g, "its log %s seats %s in seat %d, the game %s", path, names[k], k, want);
            return;
        }
    }
    if (!s.have_result) {
        problem(a, g, "its log %s has no result (cut short?)", path);
        return;
    }
    if (!check_timeouts(a, g, &s, path)) return;
    bool same = strcmp(s.reason, t->reason) == 0;
    for (int k = 0; same && k < players; k++)
        same = s.ranks[k] == t->rank[k] && s.scores[k] == t->score[k] &&
               strcmp(s.forfeit[k], t->forfeit[k]) == 0;
    if (!same) {
        char logged[256], stored[256];
        result_text(s.ranks, s.scores, s.forfeit, players, logged, sizeof logged);
        result_text(t->rank, t->score, t->forfeit, players, stored, sizeof stored);
        problem(a, g,
                "stored result (rank:score[:forfeit] by seat) %s, %s; its log %s ends %s, %s: "
                "the stored verdict is not the game's",
                stored, t->reason, path, logged, s.reason);
        return;
    }
    long before = a->problems;
    check_stored_clocks(a, g, ff, &s, path);
    if (a->problems > before) return;
    a->replayed++;
    a->clock_unchecked += v.clock_unchecked;
    if (v.aborted) {
        printf("game %" PRId64 ": not proven: aborted by the referee with seats left (the log "
               "cannot show why)\n",
               g->id);
        a->aborted++;
    }
}

/* "1-3, 7": the ids (ascending) as ranges, cut past a screenful. */
static void print_ranges(const int64_t *ids, long n)
{
    int shown = 0;
    for (long i = 0; i < n; shown++) {
        long j = i;
        while (j + 1 < n && ids[j + 1] == ids[j] + 1)
            j++;
        if (shown == 20) {
            printf(", ...");
            break;
        }
        printf(j > i ? "%s%" PRId64 "-%" PRId64 : "%s%" PRId64, shown ? ", " : "", ids[i], ids[j]);
        i = j + 1;
    }
}

/* Scheduled games with no row: deleted, as a game someone wanted gone. */
static long missing_games(audit *a, const tgame *games, size_t n, const schedule *sch)
{
    bool *stored = xcalloc(sch->n + 1, sizeof *stored);
    for (size_t i = 0; i < n; i++)
        if (games[i].s.id >= 1 && (size_t)games[i].s.id <= sch->n) stored[games[i].s.id] = true;
    long missing = 0;
    for (size_t id = 1; id <= sch->n; id++)
        if (!stored[id]) {
            problem(a, &sch->games[id - 1], "is in its schedule but not stored");
            missing++;
        }
    free(stored);
    return missing;
}

/* An SPRT run's stored verdict and LLR against its games, counted as the
 * run counts them. */
static void check_verdict(audit *a, store *s, const tgame *games, size_t n)
{
    char *result = store_meta(s, "result");
    if (!result) return; /* running or stopped: no verdict yet */
    sprt_bounds b;
    sprt_bounds_compute(store_meta_number(s, "alpha", 0.05), store_meta_number(s, "beta", 0.05),
                        &b);
    sprt_count c;
    sprt_count_init(&c, store_meta_number(s, "elo0", 0), store_meta_number(s, "elo1", 0), &b);
    for (size_t i = 0; i < n && !c.decided; i++)
        if (games[i].done) sprt_count_stored(&c, &games[i]);
    const char *got = c.decided > 0 ? "H1" : c.decided < 0 ? "H0" : "inconclusive";
    double llr = store_meta_number(s, "llr", NAN);
    if (strcmp(result, got) != 0 || !(fabs(llr - c.llr) < 5e-4)) {
        sayf("verdict: stored %s (LLR %.3f), but its games give %s (LLR %.3f after %lld "
             "pairs)",
             result, llr, got, c.llr, (long long)c.pairs);
        a->problems++;
    }
    sprt_count_free(&c);
    free(result);
}

int cmd_audit(int argc, char **argv)
{
    const char *db = NULL, *logs = NULL, *v;
    bool quiet = false;
    for (int i = 1; i < argc; i++) {
        int r;
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            audit_help(stdout);
            return 0;
        } else if ((r = cli_value(argc, argv, &i, "--logs", &v)) != 0) {
            if (r < 0) return 2;
            logs = v;
        } else if (strcmp(argv[i], "--quiet") == 0) {
            quiet = true;
        } else if (argv[i][0] == '-') {
            return cli_usage_error("audit: unknown option '%s' (see arena audit --help)", argv[i]);
        } else if (db) {
            return cli_usage_error("audit: only one results file, got '%s' and '%s'", db, argv[i]);
        } else {
            db = argv[i];
        }
    }
    if (!db) return cli_usage_error("audit: missing results DB (see arena audit --help)");
    struct stat st;
    if (logs && (stat(logs, &st) != 0 || !S_ISDIR(st.st_mode)))
        return cli_usage_error("audit: --logs '%s' is not a directory", logs);
    if (!store_is_url(db) && stat(db, &st) != 0)
        return cli_usage_error("audit: cannot open '%s'", db);
    char err[512];
    store *s = store_open(db, false, err, sizeof err);
    if (!s) return cli_usage_error("audit: %s", err);
    int rc = 1;
    char *kind = store_meta(s, "kind"), *seed = store_meta(s, "seed");
    char *pairing = store_meta(s, "pairing"), *stored_logs = store_meta(s, "logs");
    char **names = NULL, **specs = NULL;
    int n_agents = 0;
    tgame *games = NULL;
    size_t n = 0;
    uint64_t master;
    tourn_pairing pair;
    schedule sch = {0};
    if (!kind || (strcmp(kind, "tournament") && strcmp(kind, "sprt") && strcmp(kind, "ladder"))) {
        rc = cli_usage_error("audit: %s holds no tournament, SPRT run or ladder", db);
        goto out;
    }
    if (!seed || !cli_u64(seed, &master)) {
        rc = cli_usage_error("audit: %s has no master seed stored", db);
        goto out;
    }
    if (!pairing || !schedule_pairing_parse(pairing, &pair)) {
        rc = cli_usage_error("audit: %s has no pairing stored", db);
        goto out;
    }
    if (store_agents(s, &names, &specs, &n_agents) != 0 || store_games(s, false, &games, &n) != 0) {
        fprintf(stderr, "arena: audit: %s\n", store_error(s));
        goto out;
    }
    if (!logs && stored_logs && strcmp(stored_logs, "none") && stat(stored_logs, &st) == 0 &&
        S_ISDIR(st.st_mode))
        logs = stored_logs;
    /* An SPRT run stores its pairs as it schedules them: its schedule is
     * every pair up to the last game stored. */
    size_t upto = 0;
    for (size_t i = 0; i < n; i++)
        if (games[i].s.id > 0 && (size_t)games[i].s.id > upto) upto = (size_t)games[i].s.id;
    upto += upto % 2;
    bool ladder = strcmp(kind, "ladder") == 0;
    if (ladder)
        rebuild_ladder(s, games, n, master, pair, &sch);
    else if (rebuild(s, kind, master, pair, n_agents, upto, n, &sch, err, sizeof err) != 0) {
        fprintf(stderr, "arena: audit: %s: %s\n", db, err);
        goto out;
    }
    audit a = {
        .names = names, .n_agents = n_agents, .unlogged_ids = xcalloc(n + 1, sizeof(int64_t))};
    long finished = 0, missing = 0;
    store_forfeit *ffs = NULL;
    size_t n_ffs = 0, at_ff = 0;
    if (store_forfeits(s, &ffs, &n_ffs) != 0) {
        fprintf(stderr, "arena: audit: %s\n", store_error(s));
        free(a.unlogged_ids);
        goto out;
    }
    if (!quiet)
        sayf("audit: %s %s, %zu games, master seed %" PRIu64 ", %s pairing, logs %s", kind, db, n,
             master, schedule_pairing_name(pair), logs ? logs : "(none found)");
    for (size_t i = 0; i < n; i++) {
        const sched_game *g = &games[i].s;
        finished += games[i].done;
        if (!as_scheduled(&a, g, &sch)) {
            a.off_schedule++;
            continue;
        }
        if (!games[i].done) continue;
        /* Both lists are in game order. */
        while (at_ff < n_ffs && ffs[at_ff].game < g->id)
            at_ff++;
        stored_ff ff = {ffs + at_ff, 0};
        while (at_ff + ff.n < n_ffs && ffs[at_ff + ff.n].game == g->id)
            ff.n++;
        char *path = logs ? find_log(logs, g->id) : NULL;
        if (path) {
            check_log(&a, &games[i], path, ff);
        } else {
            a.unlogged_ids[a.unlogged++] = g->id;
            check_stored_clocks(&a, g, ff, NULL, NULL);
        }
        free(path);
        if (!quiet && (i + 1) % 1000 == 0)
            fprintf(stderr, "audit: %zu of %zu games checked\n", i + 1, n);
    }
    missing = missing_games(&a, games, n, &sch);
    if (strcmp(kind, "sprt") == 0) check_verdict(&a, s, games, n);
    if (a.unlogged) {
        printf("not proven: %ld finished game%s without a log, whose stored results nothing "
               "checks: game%s ",
               a.unlogged, a.unlogged == 1 ? "" : "s", a.unlogged == 1 ? "" : "s");
        print_ranges(a.unlogged_ids, a.unlogged);
        putchar('\n');
    }
    if (ladder)
        printf("not proven: who met whom: a ladder chooses its tables as it goes, so only each "
               "game's number, seed, log and verdict are checked, not its seats\n");
    if (a.clocks_unstored)
        printf("not proven: %ld timeout forfeit%s stored without %s figures (stored before "
               "the results file kept them); only %s log%s figures are checked\n",
               a.clocks_unstored, a.clocks_unstored == 1 ? "" : "s",
               a.clocks_unstored == 1 ? "its" : "their", a.clocks_unstored == 1 ? "its" : "their",
               a.clocks_unstored == 1 ? "'s" : "s'");
    if (a.clock_unchecked)
        printf("not proven: %ld timeout forfeit%s whose time the log cannot show (a start-up "
               "that began before the log, or a CPU clock); each has its fault record\n",
               a.clock_unchecked, a.clock_unchecked == 1 ? "" : "s");
    printf("%zu games: %zu as their schedule has them (seats, seed), %ld scheduled but not "
           "stored; %ld finished, %ld of them replayed from their logs to their stored results, "
           "%ld without a log (not proven); %ld problem%s\n",
           n, n - (size_t)a.off_schedule, missing, finished, a.replayed, a.unlogged, a.problems,
           a.problems == 1 ? "" : "s");
    free(a.unlogged_ids);
    store_forfeits_free(ffs, n_ffs);
    rc = a.problems ? 1 : 0;
out:
    store_agents_free(names, specs, n_agents);
    free(games);
    schedule_free(&sch);
    free(kind);
    free(seed);
    free(pairing);
    free(stored_logs);
    store_close(s);
    return rc;
}
