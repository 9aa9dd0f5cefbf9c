/* arena play GAME AGENT AGENT… — plays games between agents, one after the
 * other with the same agent processes, rotating seats. */
#include <errno.h>
#include <event2/event.h>
#include <inttypes.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "play.h"
#include "suggest.h"
#include "matchlog.h"
#include "runopts.h"
#include "sandbox.h"
#include "seatnotes.h"
#include "seeds.h"
#include "stats.h"
#include "util.h"

static void play_next(play_run *r);

#define STDERR_SHOWN 10 /* stderr lines under a forfeit */

static void close_all(play_run *r)
{
    for (int i = 0; i < r->n_agents; i++) {
        if (!r->agents[i]) continue;
        agent_close(r->agents[i], NULL, NULL);
        r->agents[i] = NULL;
    }
}

static const char *ordinal(int n)
{
    static char buf[16];
    const char *suf = (n % 100 >= 11 && n % 100 <= 13) ? "th"
                      : n % 10 == 1                    ? "st"
                      : n % 10 == 2                    ? "nd"
                      : n % 10 == 3                    ? "rd"
                                                       : "th";
    snprintf(buf, sizeof buf, "%d%s", n, suf);
    return buf;
}

/* The per-seat notes of --json, as lists parallel to "ranks" ("forfeits"
 * keeps its shape: {seat, cause}). */
static void json_notes(av *m, const match_outcome *o)
{
    av *fm = av_list(), *tail = av_list();
    for (int s = 0; s < o->players; s++) {
        av_push(fm, av_str(o->fault_message[s]));
        av_push(tail, av_str(o->stderr_tail[s]));
    }
    av_set(m, "fault_message", fm);
    av_set(m, "stderr_tail", tail);
    av *fb = av_list(), *fbl = av_list(), *lg = av_list(), *lgl = av_list();
    for (int s = 0; s < o->players; s++) {
        av_push(fb, av_int(o->fallbacks[s]));
        av_push(fbl, av_str(o->fallback_last[s]));
        av_push(lg, av_int(o->bot_logs[s]));
        av_push(lgl, av_str(o->bot_log_last[s]));
    }
    av_set(m, "fallbacks", fb);
    av_set(m, "fallback_last", fbl);
    av_set(m, "bot_logs", lg);
    av_set(m, "bot_log_last", lgl);
    /* The figures of its last timeout (null: none): what the verdict
     * rests on (protocol.md §5). */
    av *tc = av_list();
    for (int s = 0; s < o->players; s++)
        av_push(tc, o->timeout[s].set ? matchlog_clock_av(&o->timeout[s]) : av_nil());
    av_set(m, "timeout_clock", tc);
}

/* Under a seat's line: why it forfeited, then its last stderr lines. */
static void print_notes(const match_outcome *o, int s)
{
    const clock_evidence *t = &o->timeout[s];
    if (o->forfeit[s] == CAUSE_TIMEOUT && t->set) {
        printf("          %s clock: charged %.1f of %.0f ms; wall %.1f", clock_mode_name(t->mode),
               t->charged_ms, t->allowance_ms, t->wall_ms);
        if (t->cpu_ms >= 0) printf(", CPU %.1f", t->cpu_ms);
        if (t->mode == CLOCK_FAIR) printf(", waited for a CPU %.1f", t->wait_ms);
        if (t->lag_ms > 0) printf(", referee's lag %.1f", t->lag_ms);
        if (t->host_psi_ms >= 0) printf("; host CPU pressure %.1f ms", t->host_psi_ms);
        printf("\n");
    }
    if (o->forfeit[s] != CAUSE_NONE && o->stderr_tail[s][0]) {
        printf("          its last stderr lines:\n");
        seat_notes_print_tail(stdout, o->stderr_tail[s], "          | ", STDERR_SHOWN);
    }
    if (o->bot_logs[s])
        printf("          %d `log` line%s from the bot, the last: %s\n", o->bot_logs[s],
               o->bot_logs[s] == 1 ? "" : "s", o->bot_log_last[s]);
}

static void print_outcome(play_run *r, const match_outcome *o, uint64_t seed)
{
    if (r->quiet) return;
    if (r->json) {
        av *m = av_map();
        av_set_str(m, "game", r->game->name);
        av_set_int(m, "seed", (int64_t)seed);
        char err[256];
        arena_game *g = r->game->create(r->opts.settings, r->opts.n_settings, seed, o->players,
                                        ARENA_GAME_NO_EVENTS, err, sizeof err);
        av_set(m, "options", g ? r->game->settings(g) : av_nil());
        game_free(g);
        av *names = av_list();
        for (int s = 0; s < o->players; s++)
            av_push(names, av_str(agent_name(r->agents[r->seat_of[s]])));
        av_set(m, "agents", names);
        av *res = outcome_to_av(o);
        for (size_t i = 0; i < res->u.map.len; i++)
            av_set(m, res->u.map.keys[i], av_copy(res->u.map.vals[i]));
        av_free(res);
        json_notes(m, o);
        av_set(m, "log", r->log_path ? av_str(r->log_path) : av_nil());
        char *s = av_to_json(m);
        printf("%s\n", s);
        free(s);
        av_free(m);
    } else {
        printf("game %d/%d  seed %" PRIu64 "  %s, %d turn%s\n", r->played + 1, r->games, seed,
               o->reason, o->turns, o->turns == 1 ? "" : "s");
        for (int s = 0; s < o->players; s++) {
            printf("  seat %d  %-24s %s  score %" PRId64, s, agent_name(r->agents[r->seat_of[s]]),
                   ordinal(o->ranks[s]), o->scores[s]);
            if (o->forfeit[s] != CAUSE_NONE)
                printf("  FORFEIT (%s): %s", fault_cause_name(o->forfeit[s]), o->fault_message[s]);
            else if (o->strikes[s])
                printf("  %d strike%s", o->strikes[s], o->strikes[s] == 1 ? "" : "s");
            if (o->fallbacks[s])
                printf("\n          the fallback played %d move%s for it; the last after %s",
                       o->fallbacks[s], o->fallbacks[s] == 1 ? "" : "s", o->fallback_last[s]);
            printf("\n");
            print_notes(o, s);
        }
        if (o->error[0]) printf("  error: %s\n", o->error);
        if (r->log_path) printf("  log: %s\n", r->log_path);
    }
    fflush(stdout);
}

/* Agent 1 against agent 2 (whatever their seats), from their ranks. */
static void tally(play_run *r, const match_outcome *o)
{
    if (r->n_agents < 2 || strcmp(o->reason, "aborted") == 0) return;
    int rank[2] = {0, 0};
    for (int s = 0; s < o->players; s++)
        if (r->seat_of[s] < 2) rank[r->seat_of[s]] = o->ranks[s];
    r->wdl[rank[0] < rank[1] ? 0 : rank[0] == rank[1] ? 1 : 2] += 1;
}

/* The running total as cutechess-cli prints it. */
static void print_score(const play_run *r)
{
    h2h h;
    h2h_trinomial(r->wdl, &h);
    if (!h.valid) return;
    printf("Score of %s vs %s: %.0f - %.0f - %.0f  [%.3f] %.0f\n", agent_name(r->agents[0]),
           agent_name(r->agents[1]), r->wdl[0], r->wdl[2], r->wdl[1], h.score, h.n);
    printf("Elo difference: %.1f +/- %.1f, LOS: %.1f %%, DrawRatio: %.1f %%\n", h.elo, h.error,
           h.los * 100.0, h.draw_ratio * 100.0);
}

static void on_done(const match_outcome *o, void *ctx)
{
    play_run *r = ctx;
    print_outcome(r, o, play_game_seed(r, r->played));
    tally(r, o);
    if (!r->json && !r->quiet && r->games > 1 && r->agents[0] && r->agents[1] &&
        (r->played + 1 == r->games || (r->score_every && (r->played + 1) % r->score_every == 0)))
        print_score(r);
    if (strcmp(o->reason, "aborted") == 0) r->aborted++;
    r->played++;
    free(r->log_path);
    r->log_path = NULL;
    if (o->log_error[0]) {
        /* A truncated log is no record: stop the series and fail. */
        fprintf(stderr, "arena: %s\n", o->log_error);
        r->aborted++;
        close_all(r);
        return;
    }
    play_next(r);
}

arena_agent *play_make_agent(play_run *r, int i, char *err, size_t errlen)
{
    agent_config ac;
    run_options_agent(&r->opts, r->game->name, r->specs[i], &ac);
    ac.wait_exec = true; /* a handful of agents: say at once if one cannot run */
    return agent_new(r->base, &ac, err, errlen);
}

char *play_log_path(const play_run *r, int g)
{
    /* Log files are the operator's: named by seed. */
    size_t len = strlen(r->log_arg);
    const char *sep = len && r->log_arg[len - 1] == '/' ? "" : "/";
    if (r->repeat)
        return xasprintf("%s%s%s-%" PRIu64 "-r%d.jsonl%s", r->log_arg, sep, r->game->name, r->seed,
                         g + 1, r->log_plain ? "" : ".gz");
    return xasprintf("%s%s%s-%" PRIu64 ".jsonl%s", r->log_arg, sep, r->game->name,
                     play_game_seed(r, g), r->log_plain ? "" : ".gz");
}

static void play_next(play_run *r)
{
    if (r->played >= r->games) {
        close_all(r);
        return;
    }
    char err[2048];
    int g = r->played;
    uint64_t seed = play_game_seed(r, g);
    arena_agent *seats[ARENA_MAX_SEATS];
    for (int s = 0; s < r->n_agents; s++) {
        int i = r->repeat ? s : (s + g) % r->n_agents;
        r->seat_of[s] = i;
        /* A crashed agent gets a fresh process for the next game. */
        if (r->agents[i] && !agent_alive(r->agents[i]) && g > 0 && !r->fixed[i]) {
            agent_close(r->agents[i], NULL, NULL);
            r->agents[i] = play_make_agent(r, i, err, sizeof err);
            if (!r->agents[i]) {
                fprintf(stderr, "arena: %s\n", err);
                r->aborted++;
                close_all(r);
                return;
            }
        }
        seats[s] = r->agents[i];
    }
    match_config mc;
    run_options_match(&r->opts, r->game, &mc);
    mc.send_events = r->events;
    mc.trace = !r->trace ? NULL : r->json ? stderr : stdout; /* JSON lines stay clean */
    mc.match_id = NULL; /* opaque: the seed must not reach the agents */
    if (r->log_arg) {
        r->log_path = r->log_is_dir ? play_log_path(r, g) : xstrdup(r->log_arg);
        mc.log_path = r->log_path;
        mc.log_plain = r->log_plain;
    }
    if (match_start(r->base, &mc, seats, r->n_agents, seed, on_done, r, err, sizeof err) != 0) {
        fprintf(stderr, "arena: %s\n", err);
        free(r->log_path);
        r->log_path = NULL;
        r->aborted++;
        close_all(r);
    }
}

void play_flags_help(FILE *out)
{
    fprintf(out,
            "  --seed N                     seed of game 1; game i uses N+i-1 [each game\n"
            "                               a random seed of its own]\n"
            "  --games N                    games to play [1]\n"
            "  --log FILE|DIR               write match logs, gzip-compressed: a DIR gets one\n"
            "                               file per game, GAME-SEED.jsonl.gz (with --games\n"
            "                               over 1 the path is always a DIR); a FILE keeps\n"
            "                               its name\n"
            "  --log-plain                  write the logs as plain JSON lines (.jsonl)\n"
            "  --json                       one JSON object per game on stdout\n"
            "  --events                     also send `event` messages at turn ends\n"
            "  --trace                      print every message both ways, time-stamped, with\n"
            "                               the time charged, as the games run\n"
            "  --score-every K              with --games N: the score line also every K games\n"
            "                               (it always ends the series) [0: only at the end]\n");
    run_options_help(out);
}

static void play_help(FILE *out)
{
    fprintf(out,
            "usage: arena play GAME AGENT AGENT... [options]\n"
            "\n"
            "Plays games between agents and prints each result. With --games N the same\n"
            "agent processes play N games in a row, seats rotating one place per game.\n"
            "Seats count from 0, as in the protocol: game 1 seats the first AGENT at\n"
            "seat 0, which moves first (in xibalba a roll picks the start player).\n"
            "\n"
            "AGENT is one of:\n"
            "  builtin:NAME[:ARG]   a built-in bot (see `arena bots GAME`)\n"
            "  cmd:COMMAND LINE     a program started with /bin/sh -c (stdin/stdout protocol)\n"
            "  tcp:HOST:PORT        an agent server the referee connects to\n"
            "  PATH                 an executable file\n"
            "\n"
            "options:\n");
    play_flags_help(out);
    fprintf(out, "\nExit status: 0 when every game was played (forfeits included), 1 when a\n"
                 "game could not be played, 2 on bad arguments (a missing agent program\n"
                 "included).\n");
}

static bool parse_u64(const char *s, uint64_t max, uint64_t *out)
{
    char *end;
    errno = 0;
    if (*s == '-' || *s == '\0') return false;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || *end || v > max) return false;
    *out = v;
    return true;
}

uint64_t play_game_seed(const play_run *r, int g)
{
    if (r->repeat) return r->seed;
    if (r->have_seed) return r->seed + (uint64_t)g;
    /* One-way from a secret never shown: one game's seed, in its log,
     * must not give the next game's away, as consecutive seeds did. */
    return arena_game_seed_derive(r->secret, SEED_PLAY_GAME, (uint64_t)g);
}

void play_init(play_run *r)
{
    memset(r, 0, sizeof *r);
    run_options_default(&r->opts);
    r->games = 1;
}

const char *const play_flag_names[] = {"--seed",      "--games",       "--log",
                                       "--log-plain", "--json",        "--events",
                                       "--trace",     "--score-every", NULL};

int play_parse_flag(play_run *r, int argc, char **argv, int *i)
{
    const char *a = argv[*i];
    int rc = run_options_parse(&r->opts, argc, argv, i);
    if (rc != 0) return rc;
    if (!strcmp(a, "--json")) {
        r->json = true;
        return 1;
    }
    if (!strcmp(a, "--events")) {
        r->events = true;
        return 1;
    }
    if (!strcmp(a, "--trace")) {
        r->trace = true;
        return 1;
    }
    if (!strcmp(a, "--log-plain")) {
        r->log_plain = true;
        return 1;
    }
    if (strcmp(a, "--seed") && strcmp(a, "--games") && strcmp(a, "--log") &&
        strcmp(a, "--score-every"))
        return 0;
    if (*i + 1 >= argc) {
        fprintf(stderr, "arena: %s needs a value\n", a);
        return -1;
    }
    const char *v = argv[++*i];
    uint64_t n;
    if (!strcmp(a, "--seed")) {
        if (!parse_u64(v, (uint64_t)INT64_MAX - 1000000, &n)) {
            fprintf(stderr, "arena: --seed wants an integer from 0 to 2^63-1e6, not '%s'\n", v);
            return -1;
        }
        r->seed = n;
        r->have_seed = true;
    } else if (!strcmp(a, "--games")) {
        if (!parse_u64(v, 1000000, &n) || n == 0) {
            fprintf(stderr, "arena: --games wants an integer from 1 to 1000000, not '%s'\n", v);
            return -1;
        }
        r->games = (int)n;
    } else if (!strcmp(a, "--score-every")) {
        if (!parse_u64(v, 1000000, &n)) {
            fprintf(stderr, "arena: --score-every wants an integer from 0 to 1000000, not '%s'\n",
                    v);
            return -1;
        }
        r->score_every = (int)n;
    } else {
        r->log_arg = v;
    }
    return 1;
}

/* A missing program is a bad argument (exit 2, as for any missing file),
 * found before anything starts. Only what is surely a file is checked: a
 * bare PATH, or the first word of cmd:LINE when it holds a '/'. */
static bool agent_program_missing(const char *spec, char *why, size_t whylen)
{
    if (!strncmp(spec, "builtin:", 8) || !strncmp(spec, "tcp:", 4)) return false;
    char prog[512];
    if (!strncmp(spec, "cmd:", 4)) {
        const char *p = spec + 4;
        while (*p == ' ')
            p++;
        size_t n = strcspn(p, " \t");
        if (n >= sizeof prog || !memchr(p, '/', n)) return false;
        memcpy(prog, p, n);
        prog[n] = '\0';
    } else {
        snprintf(prog, sizeof prog, "%s", spec);
    }
    if (access(prog, X_OK) == 0) return false;
    snprintf(why, whylen, "cannot run '%s': %s", prog, strerror(errno));
    return true;
}

int play_check_programs(const play_run *r)
{
    for (int i = 0; i < r->n_agents; i++) {
        char why[600];
        if (agent_program_missing(r->specs[i], why, sizeof why)) {
            fprintf(stderr, "arena: seat %d: %s\n", i, why); /* seats count from 0 */
            return 2;
        }
    }
    return 0;
}

int play_prepare(play_run *r)
{
    if (r->n_agents < r->game->min_players || r->n_agents > r->game->max_players) {
        char range[32];
        if (r->game->min_players == r->game->max_players)
            snprintf(range, sizeof range, "%d", r->game->min_players);
        else
            snprintf(range, sizeof range, "%d to %d", r->game->min_players, r->game->max_players);
        fprintf(stderr, "arena: %s is for %s players; %d agent%s given\n", r->game->name, range,
                r->n_agents, r->n_agents == 1 ? "" : "s");
        return 2;
    }
    for (int i = 0; i < r->n_agents; i++) {
        const char *why = run_options_clock_misfit(&r->opts, r->specs[i]);
        if (why) {
            fprintf(stderr, "arena: seat %d (%s): %s\n", i, r->specs[i], why);
            return 2;
        }
    }
    if (!r->have_seed) {
        r->secret = arena_random_u64();
        r->seed = play_game_seed(r, 0);
    }
    /* Settings are checked before any agent is started. */
    char err[2048];
    arena_game *probe = r->game->create(r->opts.settings, r->opts.n_settings, r->seed, r->n_agents,
                                        ARENA_GAME_NO_EVENTS, err, sizeof err);
    if (!probe) {
        fprintf(stderr, "arena: %s\n", err);
        return 2;
    }
    game_free(probe);
    if (r->log_arg) {
        struct stat st;
        size_t len = strlen(r->log_arg);
        r->log_is_dir = r->games > 1 || (stat(r->log_arg, &st) == 0 && S_ISDIR(st.st_mode)) ||
                        (len && r->log_arg[len - 1] == '/');
        if (r->log_is_dir && cli_mkdirs(r->log_arg) != 0) {
            fprintf(stderr, "arena: cannot create log directory '%s': %s\n", r->log_arg,
                    strerror(errno));
            return 1;
        }
    }
    /* Under --sandbox no agent sees the logs or another agent's files. */
    if (r->log_arg) sandbox_hide(r->log_arg);
    for (int i = 0; i < r->n_agents; i++)
        sandbox_hide_agent(r->specs[i]);
    return 0;
}

void play_begin(play_run *r)
{
    if (!r->json && !r->quiet && (r->have_seed || r->games == 1))
        printf("%s: %d game%s, seed %" PRIu64 "\n", r->game->name, r->games,
               r->games == 1 ? "" : "s", r->seed);
    else if (!r->json && !r->quiet)
        printf("%s: %d games, each on a random seed\n", r->game->name, r->games);
    play_next(r);
}

int cmd_play(int argc, char **argv)
{
    play_run r;
    play_init(&r);
    const char *game_name = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            play_help(stdout);
            return 0;
        }
        int rc = play_parse_flag(&r, argc, argv, &i);
        if (rc < 0) return 2;
        if (rc > 0) continue;
        if (a[0] == '-' && a[1] == '-') {
            static const char *const own[] = {"--help", NULL};
            suggest_unknown_option("play", a, own, play_flag_names);
            return 2;
        } else if (!game_name) {
            game_name = a;
        } else {
            if (r.n_agents == ARENA_MAX_SEATS) {
                fprintf(stderr, "arena: at most %d agents\n", ARENA_MAX_SEATS);
                return 2;
            }
            r.specs[r.n_agents++] = argv[i];
        }
    }
    if (!game_name) {
        fprintf(stderr, "arena: play needs a GAME and its AGENTs (see `arena play --help`)\n");
        return 2;
    }
    r.game = arena_find_game(game_name);
    if (!r.game) {
        fprintf(stderr, "arena: unknown game '%s' (games: %s)\n", game_name, cli_game_list());
        return 2;
    }
    int rc = play_check_programs(&r);
    if (!rc) rc = play_prepare(&r);
    if (rc) return rc;

    signal(SIGPIPE, SIG_IGN);
    r.base = match_loop_new();
    char err[2048];
    for (int i = 0; i < r.n_agents; i++) {
        r.agents[i] = play_make_agent(&r, i, err, sizeof err);
        if (!r.agents[i]) {
            fprintf(stderr, "arena: seat %d (%s): %s\n", i, r.specs[i], err);
            close_all(&r);
            event_base_dispatch(r.base);
            event_base_free(r.base);
            return strstr(err, "no built-in bot") ? 2 : 1;
        }
    }
    play_begin(&r);
    event_base_dispatch(r.base);
    event_base_free(r.base);
    return r.aborted ? 1 : 0;
}
