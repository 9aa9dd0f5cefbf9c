/* arena check-bot AGENT [--game G] — a compliance run for bot authors.
 *
 * Plays a short series against builtin:random in fallback mode (so one
 * mistake does not end the run and every mistake gets counted), logs every
 * game, then reads the logs and the agent's report back and says in plain
 * words what is wrong. Exit 0 only when nothing is. */
#include <errno.h>
#include <stdarg.h>
#include <event2/event.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "codec.h"
#include "play.h"
#include "util.h"

#define STDERR_NOISE_LIMIT (1024 * 1024)

typedef struct findings {
    int problems, warnings;
    long decisions, illegal, timeouts, protocol, crashes;
    double slowest, total_ms;
    char first_illegal[240], first_protocol[240], first_crash[240];
} findings;

static void say(findings *f, const char *level, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void say(findings *f, const char *level, const char *fmt, ...)
{
    if (!strcmp(level, "FAIL")) f->problems++;
    if (!strcmp(level, "warn")) f->warnings++;
    printf("  %-5s ", level);
    va_list ap;
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
}

/* Reads one match log: the checked agent's choices, faults and notes. */
static void scan_log(const char *path, findings *f)
{
    FILE *fp = fopen(path, "r");
    if (!fp) return;
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    int seat = -1;
    char err[200];
    while ((len = getline(&line, &cap, fp)) > 0) {
        av *e = json_decode(line, (size_t)len, err, sizeof err);
        if (!e) continue;
        const char *type = av_get_str(e, "type");
        int64_t s = -1;
        av_get_int(e, "seat", &s);
        if (type && !strcmp(type, "match")) {
            /* The checked agent is the one that is not builtin:random. */
            const av *names = av_get(e, "agents");
            for (size_t k = 0; names && k < av_len(names); k++) {
                const av *n = names->u.list.items[k];
                if (n->type == AV_STR && strcmp(n->u.str.s, "builtin:random") != 0) seat = (int)k;
            }
        } else if (type && s == seat && !strcmp(type, "choice")) {
            const char *by = av_get_str(e, "by");
            const av *ms = av_get(e, "ms");
            if (by && !strcmp(by, "agent")) {
                f->decisions++;
                double v = ms && ms->type == AV_FLOAT ? ms->u.f : 0;
                f->total_ms += v;
                if (v > f->slowest) f->slowest = v;
            }
        } else if (type && s == seat && !strcmp(type, "fault")) {
            const char *cause = av_get_str(e, "cause"), *msg = av_get_str(e, "message");
            if (!cause) cause = "";
            if (!msg) msg = "";
            if (!strcmp(cause, "illegal")) {
                if (!f->illegal++) snprintf(f->first_illegal, sizeof f->first_illegal, "%s", msg);
            } else if (!strcmp(cause, "timeout")) {
                f->timeouts++;
            } else if (!strcmp(cause, "protocol")) {
                if (!f->protocol++)
                    snprintf(f->first_protocol, sizeof f->first_protocol, "%s", msg);
            } else if (!strcmp(cause, "crash")) {
                if (!f->crashes++) snprintf(f->first_crash, sizeof f->first_crash, "%s", msg);
            }
        }
        av_free(e);
    }
    free(line);
    fclose(fp);
}

static int check_help(void)
{
    printf(
        "usage: arena check-bot AGENT [--game G] [--games N] [options]\n"
        "\n"
        "Plays a short series (default 3 games) of AGENT against builtin:random and\n"
        "reports in plain words what is wrong: a late `join`, wrong decision ids,\n"
        "illegal choices, slow answers (with the measured times), stderr noise, and\n"
        "whether it exits by itself after `bye`. More than 1 MiB of stderr fails.\n"
        "Faults are played through with the fallback policy so that every one of\n"
        "them is counted. Logs go to a temporary directory, named at the end.\n"
        "\n"
        "  --game G      the game to check on [nim: a tiny test game any bot that follows\n"
        "                the protocol generically can play]\n"
        "  --games N     games to play [3]\n"
        "  --keep-logs   say where the logs are and keep them (default: removed if compliant)\n");
    run_options_help(stdout);
    printf("\nExit status: 0 when the bot is compliant, 1 when it is not, 2 on bad arguments.\n");
    return 0;
}

int cmd_check_bot(int argc, char **argv)
{
    play_run r;
    play_init(&r);
    r.games = 3;
    r.have_seed = true;
    r.seed = 1;
    r.opts.on_fault = FAULT_FALLBACK;
    r.opts.max_strikes = 1000000;
    r.opts.exit_grace_ms = 2000;
    const char *game = "nim", *spec = NULL;
    bool keep = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) return check_help();
        if (!strcmp(a, "--keep-logs")) {
            keep = true;
            continue;
        }
        if (!strcmp(a, "--game")) {
            if (i + 1 >= argc) {
                fprintf(stderr, "arena: --game needs a value\n");
                return 2;
            }
            game = argv[++i];
            continue;
        }
        if (!strcmp(a, "--json") || !strcmp(a, "--log") || !strcmp(a, "--on-fault") ||
            !strcmp(a, "--max-strikes")) {
            fprintf(stderr, "arena: check-bot sets %s itself\n", a);
            return 2;
        }
        int rc = play_parse_flag(&r, argc, argv, &i);
        if (rc < 0) return 2;
        if (rc > 0) continue;
        if (a[0] == '-' && a[1] == '-') {
            fprintf(stderr, "arena: unknown option '%s' (see `arena check-bot --help`)\n", a);
            return 2;
        }
        if (spec) {
            fprintf(stderr, "arena: check-bot checks one AGENT\n");
            return 2;
        }
        spec = a;
    }
    if (!spec) {
        fprintf(stderr, "arena: check-bot needs an AGENT (see `arena check-bot --help`)\n");
        return 2;
    }
    if (!strncmp(spec, "builtin:", 8)) {
        fprintf(stderr, "arena: check-bot checks external bots, not built-in ones\n");
        return 2;
    }
    r.game = arena_find_game(game);
    if (!r.game) {
        fprintf(stderr, "arena: unknown game '%s' (games: nim, %s)\n", game, cli_game_list());
        return 2;
    }
    char tmpl[] = "/tmp/arena-check-XXXXXX";
    char *dir = mkdtemp(tmpl);
    if (!dir) {
        fprintf(stderr, "arena: cannot make a log directory: %s\n", strerror(errno));
        return 1;
    }
    r.log_arg = dir;
    r.specs[0] = (char *)spec;
    r.specs[1] = "builtin:random";
    r.n_agents = 2;
    r.json = true;
    int rc = play_prepare(&r);
    if (rc) return rc;

    signal(SIGPIPE, SIG_IGN);
    r.base = event_base_new();
    char err[2048];
    agent_report rep;
    memset(&rep, 0, sizeof rep);
    for (int i = 0; i < 2; i++) {
        r.agents[i] = play_make_agent(&r, i, err, sizeof err);
        if (!r.agents[i]) {
            printf("check-bot: %s cannot be started: %s\nverdict: NOT COMPLIANT\n", spec, err);
            return 1;
        }
    }
    agent_set_report(r.agents[0], &rep);
    r.quiet = true; /* the series' own result lines are not for the user here */
    play_begin(&r);
    event_base_dispatch(r.base);
    event_base_free(r.base);

    findings f;
    memset(&f, 0, sizeof f);
    printf("check-bot: %s on %s, %d game%s against builtin:random (move %lld ms, %s clock)\n", spec,
           r.game->name, r.games, r.games == 1 ? "" : "s", (long long)r.opts.clock.move_ms,
           r.opts.clock.mode == CLOCK_CPU ? "cpu" : "wall");
    for (int g = 0; g < r.games; g++) {
        char path[600];
        snprintf(path, sizeof path, "%s/%s-%llu.jsonl", dir, r.game->name,
                 (unsigned long long)(r.seed + (uint64_t)g));
        scan_log(path, &f);
    }
    if (rep.join_ms < 0)
        say(&f, "FAIL", "never sent a valid `join` (limit %lld ms after start)",
            (long long)r.opts.clock.startup_ms);
    else if (rep.join_ms > (double)r.opts.clock.startup_ms / 2)
        say(&f, "warn", "`join` came late: %.0f ms after start (limit %lld ms)", rep.join_ms,
            (long long)r.opts.clock.startup_ms);
    else
        say(&f, "ok", "`join` %.0f ms after start (limit %lld ms)", rep.join_ms,
            (long long)r.opts.clock.startup_ms);
    if (f.protocol)
        say(&f, "FAIL", "broke the protocol %ld time%s: %s", f.protocol, f.protocol == 1 ? "" : "s",
            f.first_protocol);
    if (f.crashes) say(&f, "FAIL", "died or closed its output: %s", f.first_crash);
    if (f.illegal)
        say(&f, "FAIL", "%ld illegal choice%s, first: %s", f.illegal, f.illegal == 1 ? "" : "s",
            f.first_illegal);
    else if (f.decisions)
        say(&f, "ok", "%ld decisions answered, all legal", f.decisions);
    if (f.timeouts)
        say(&f, "FAIL", "%ld answer%s too slow or missing (move %lld ms + bank %lld ms)",
            f.timeouts, f.timeouts == 1 ? "" : "s", (long long)r.opts.clock.move_ms,
            (long long)r.opts.clock.bank_ms);
    if (f.decisions)
        say(&f, f.slowest > (double)r.opts.clock.move_ms ? "warn" : "ok",
            "answer times: mean %.1f ms, slowest %.1f ms (move limit %lld ms)",
            f.total_ms / (double)f.decisions, f.slowest, (long long)r.opts.clock.move_ms);
    else if (!f.protocol && !f.crashes && !f.illegal && !f.timeouts && rep.join_ms >= 0)
        say(&f, "FAIL", "answered no decision");
    /* stderr is the bot's debugging channel and goes to the match log; a
     * flood of it is a fault of its own: it costs the host disk and time. */
    if (rep.stderr_bytes > STDERR_NOISE_LIMIT)
        say(&f, "FAIL", "flooded stderr with %.1f MB (keep it under %d KiB per series); first: %s",
            (double)rep.stderr_bytes / 1e6, STDERR_NOISE_LIMIT / 1024, rep.stderr_first);
    else if (rep.stderr_lines)
        say(&f, "note", "wrote %zu line%s (%zu bytes) to stderr; first: %s", rep.stderr_lines,
            rep.stderr_lines == 1 ? "" : "s", rep.stderr_bytes, rep.stderr_first);
    if (!f.crashes && !f.protocol && rep.join_ms >= 0) {
        if (rep.exited_itself)
            say(&f, "ok", "exited %.0f ms after `bye`", rep.exit_ms);
        else
            say(&f, "FAIL", "did not exit within %lld ms after `bye` (it was killed)",
                (long long)r.opts.exit_grace_ms);
    }
    bool compliant = f.problems == 0 && !r.aborted;
    if (compliant && !keep) {
        for (int g = 0; g < r.games; g++) {
            char path[600];
            snprintf(path, sizeof path, "%s/%s-%llu.jsonl", dir, r.game->name,
                     (unsigned long long)(r.seed + (uint64_t)g));
            unlink(path);
        }
        rmdir(dir);
    } else {
        printf("  logs: %s\n", dir);
    }
    printf("verdict: %s", compliant ? "COMPLIANT" : "NOT COMPLIANT");
    if (!compliant) printf(" (%d problem%s)", f.problems, f.problems == 1 ? "" : "s");
    printf("\n");
    return compliant ? 0 : 1;
}
