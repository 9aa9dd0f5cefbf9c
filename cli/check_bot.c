/* arena check-bot AGENT [--game G] — a compliance run for bot authors.
 *
 * Plays a short series against builtin:random in fallback mode (so one
 * mistake does not end the run and every mistake gets counted), logs every
 * game, then reads the logs and the agent's report back and says in plain
 * words what is wrong. Exit 0 only when nothing is. */
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <event2/event.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cgroup.h"
#include "cli.h"
#include "codec.h"
#include "matchlog.h"
#include "play.h"
#include "seatnotes.h"
#include "suggest.h"
#include "utf8.h"
#include "util.h"

#define STDERR_NOISE_LIMIT (1024 * 1024)

/* The checked seat's choices in one game, for --repeat. */
typedef struct choice_seq {
    char **items; /* "turn T 'kind' [labels] by agent" */
    size_t n, cap;
} choice_seq;

typedef struct findings {
    int problems, warnings;
    long decisions, illegal, timeouts, protocol, crashes, logs, log_failures;
    long decide_failures; /* of log_failures: a decision the SDK answered at random */
    double slowest, total_ms;
    char first_illegal[240], first_protocol[240], first_crash[240], first_timeout[240];
    char exception[240];  /* the first exception its stderr shows */
    char first_log[240];  /* its first `log` line that reports a failure */
    char fatal_tail[600]; /* stderr tail of the game with the first crash/protocol fault */
    choice_seq *seqs;     /* per game, with --repeat */
} findings;

static void seq_push(choice_seq *q, char *item)
{
    if (q->n == q->cap) {
        q->cap = q->cap ? q->cap * 2 : 64;
        q->items = xrealloc(q->items, q->cap * sizeof *q->items);
    }
    q->items[q->n++] = item;
}

static void seq_free(choice_seq *q)
{
    for (size_t i = 0; i < q->n; i++)
        free(q->items[i]);
    free(q->items);
}

/* The exception in a stderr stream: the line after a Python traceback's
 * frames, or the line before a JavaScript stack's "    at" lines. */
typedef struct exc_scan {
    bool in_traceback;
    char prev[240];
} exc_scan;

static void exc_line(exc_scan *x, const char *line, char *out, size_t outlen)
{
    if (!strncmp(line, "Traceback (most recent call last)", 33)) {
        x->in_traceback = true;
    } else if (x->in_traceback && line[0] != ' ') {
        x->in_traceback = false;
        if (!out[0]) snprintf(out, outlen, "%s", line);
    } else if (!strncmp(line, "    at ", 7) && x->prev[0] && strncmp(x->prev, "    at ", 7)) {
        if (!out[0]) snprintf(out, outlen, "%s", x->prev);
    }
    snprintf(x->prev, sizeof x->prev, "%s", line);
}

static void say(findings *f, const char *level, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void say(findings *f, const char *level, const char *fmt, ...)
{
    if (!strcmp(level, "FAIL")) f->problems++;
    if (!strcmp(level, "warn")) f->warnings++;
    va_list ap;
    va_start(ap, fmt);
    char *line = xvasprintf(fmt, ap);
    va_end(ap);
    utf8_mask_controls(line, true); /* findings quote the bot's own text */
    printf("  %-5s %s\n", level, line);
    free(line);
}

/* Reads one match log: the checked agent's choices, faults and notes. */
static void scan_log(const char *path, findings *f, choice_seq *seq)
{
    char err[200];
    matchlog_reader *rd = matchlog_read_open(path, err, sizeof err);
    if (!rd) return;
    const char *line;
    size_t len;
    int seat = -1;
    exc_scan xs = {0};
    seat_notes tail = {0};
    bool fatal_here = false;
    while ((line = matchlog_read_line(rd, &len))) {
        av *e = json_decode(line, len, err, sizeof err);
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
            if (seq) {
                int64_t turn = 0;
                av_get_int(e, "turn", &turn);
                const char *kind = av_get_str(e, "kind");
                char *labels = av_to_json(av_get(e, "labels"));
                seq_push(seq, xasprintf("turn %lld '%s' %s by %s", (long long)turn,
                                        kind ? kind : "", labels, by ? by : ""));
                free(labels);
            }
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
                if (!f->timeouts++) snprintf(f->first_timeout, sizeof f->first_timeout, "%s", msg);
            } else if (!strcmp(cause, "protocol")) {
                if (!f->protocol++ && !f->crashes) fatal_here = true;
                if (f->protocol == 1)
                    snprintf(f->first_protocol, sizeof f->first_protocol, "%s", msg);
            } else if (!strcmp(cause, "crash")) {
                if (!f->crashes++ && !f->protocol) fatal_here = true;
                if (f->crashes == 1) snprintf(f->first_crash, sizeof f->first_crash, "%s", msg);
            }
        } else if (type && s == seat && !strcmp(type, "stderr")) {
            const char *text = av_get_str(e, "text");
            if (text) {
                exc_line(&xs, text, f->exception, sizeof f->exception);
                seat_notes_stderr(&tail, text, strlen(text));
            }
        } else if (type && s == seat && !strcmp(type, "msg")) {
            const char *dir = av_get_str(e, "dir");
            const av *msg = av_get(e, "msg");
            const char *mt = msg ? av_get_str(msg, "type") : NULL;
            const char *text = msg ? av_get_str(msg, "text") : NULL;
            if (dir && !strcmp(dir, "in") && mt && !strcmp(mt, "log")) {
                f->logs++;
                /* The SDKs report the exceptions they catch as "... failed". */
                if (text && strstr(text, "failed") && !f->log_failures++)
                    snprintf(f->first_log, sizeof f->first_log, "%s", text);
                /* "decide failed, answered at random: ..." (Python and JS) */
                if (text && !strncmp(text, "decide failed", 13)) f->decide_failures++;
            }
        }
        av_free(e);
    }
    matchlog_read_close(rd);
    if (fatal_here) memcpy(f->fatal_tail, tail.stderr_tail, sizeof f->fatal_tail);
}

/* Removes the log directory and everything in it (it holds only files). */
static void remove_dir(const char *dir)
{
    DIR *d = opendir(dir);
    if (d) {
        struct dirent *e;
        while ((e = readdir(d)) != NULL) {
            if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
            char *p = xasprintf("%s/%s", dir, e->d_name);
            if (unlink(p) != 0)
                fprintf(stderr, "arena: cannot remove %s: %s\n", p, strerror(errno));
            free(p);
        }
        closedir(d);
    }
    if (rmdir(dir) != 0) fprintf(stderr, "arena: cannot remove %s: %s\n", dir, strerror(errno));
}

/* --repeat: the first place where a game's choices differ from game 1's. */
static void compare_repeats(findings *f, const play_run *r)
{
    const choice_seq *a = &f->seqs[0];
    for (int g = 1; g < r->games; g++) {
        const choice_seq *b = &f->seqs[g];
        size_t n = a->n < b->n ? a->n : b->n, i = 0;
        while (i < n && !strcmp(a->items[i], b->items[i]))
            i++;
        if (i == a->n && i == b->n) continue;
        say(f, "warn",
            "not deterministic: with the same seed, game 1 and game %d differ at its decision "
            "%zu: %s vs %s (nondeterministic bots inflate the variance of every measurement)",
            g + 1, i + 1, i < a->n ? a->items[i] : "(game over)",
            i < b->n ? b->items[i] : "(game over)");
        return;
    }
    say(f, "ok", "deterministic: %d games with seed %llu, the same %zu choices each time", r->games,
        (unsigned long long)r->seed, a->n);
}

/* Flags check-bot sets itself: refused, and left out of its help. */
static const char *const own_flags[] = {
    "--json", "--log", "--log-plain", "--on-fault", "--max-strikes", "--score-every", NULL};

static int check_help(void)
{
    printf("usage: arena check-bot AGENT [--game G] [--games N | --repeat N] [options]\n"
           "\n"
           "Plays a short series (default 3 games) of AGENT against builtin:random and\n"
           "reports in plain words what is wrong: a late `join`, wrong decision ids,\n"
           "illegal choices, slow answers (with the measured times), the exception its\n"
           "stderr shows, stderr noise, whether it exits by itself after `bye`, and the\n"
           "peak memory of all its processes (where it gets a cgroup: see --limit-mem;\n"
           "over 3/4 of the cap warns). More than 1 MiB of stderr fails. Faults are\n"
           "played through with the fallback policy (unlimited strikes) so that every one\n"
           "of them is counted. A bot whose every decision raised an exception (answered\n"
           "at random by its SDK) fails. Logs go to a temporary directory in $TMPDIR (or\n"
           "/tmp): removed, with the directory, when the bot is compliant; kept and named\n"
           "when it is not (or with --keep-logs).\n"
           "\n"
           "  --game G        the game to check on [nim: a tiny test game any bot that\n"
           "                  follows the protocol generically can play; a bot for one\n"
           "                  game may fail on nim]\n"
           "  --games N       games to play, seats and seeds changing [3]\n"
           "  --repeat N      instead: play the same seeded game N times (N >= 2) in the\n"
           "                  same seat against the same built-in and say whether the bot's\n"
           "                  choices differ (a warning, not a failure)\n"
           "  --seed N        seed of game 1 [1]\n"
           "  --keep-logs     keep the logs and say where they are\n"
           "  --events        also send `event` messages at turn ends\n"
           "  --trace         print every message both ways as the games run\n"
           "\n"
           "Match flags (as in arena play):\n");
    run_options_help_skip(stdout, own_flags);
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
    bool keep = false, games_set = false, game_given = false;
    int repeat = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) return check_help();
        if (!strcmp(a, "--keep-logs")) {
            keep = true;
            continue;
        }
        if (!strcmp(a, "--game") || !strcmp(a, "--repeat")) {
            if (i + 1 >= argc) {
                fprintf(stderr, "arena: %s needs a value\n", a);
                return 2;
            }
            const char *v = argv[++i];
            if (!strcmp(a, "--game")) {
                game = v;
                game_given = true;
                continue;
            }
            char *end;
            long n = strtol(v, &end, 10);
            if (*end || end == v || n < 2 || n > 1000) {
                fprintf(stderr, "arena: --repeat wants an integer from 2 to 1000, not '%s'\n", v);
                return 2;
            }
            repeat = (int)n;
            continue;
        }
        bool own = false;
        for (size_t k = 0; own_flags[k]; k++)
            own |= !strncmp(a, own_flags[k], strlen(own_flags[k])) &&
                   (a[strlen(own_flags[k])] == '\0' || a[strlen(own_flags[k])] == '=');
        if (own) {
            fprintf(stderr, "arena: check-bot sets %s itself\n", a);
            return 2;
        }
        games_set |= !strncmp(a, "--games", 7);
        int rc = play_parse_flag(&r, argc, argv, &i);
        if (rc < 0) return 2;
        if (rc > 0) continue;
        if (a[0] == '-' && a[1] == '-') {
            /* the play flags it refuses are left out (own_flags) */
            static const char *const own[] = {"--game",  "--games",     "--repeat",
                                              "--seed",  "--keep-logs", "--events",
                                              "--trace", "--help",      NULL};
            suggest_unknown_option("check-bot", a, own, NULL);
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
    if (repeat && games_set) {
        fprintf(stderr, "arena: --repeat N plays N games: give it or --games, not both\n");
        return 2;
    }
    if (repeat) {
        r.games = repeat;
        r.repeat = 1;
    }
    r.game = arena_find_game(game);
    if (!r.game) {
        fprintf(stderr, "arena: unknown game '%s' (games: nim, %s)\n", game, cli_game_list());
        return 2;
    }
    r.specs[0] = (char *)spec;
    r.n_agents = 1;
    if (play_check_programs(&r)) return 2;
    const char *tmp = getenv("TMPDIR");
    char *dir = xasprintf("%s/arena-check-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir)) {
        fprintf(stderr, "arena: cannot make a log directory: %s\n", strerror(errno));
        free(dir);
        return 1;
    }
    r.log_arg = dir;
    r.specs[0] = (char *)spec;
    r.specs[1] = "builtin:random";
    r.n_agents = 2;
    r.json = true;
    int rc = play_prepare(&r);
    if (rc) {
        remove_dir(dir);
        free(dir);
        return rc;
    }

    signal(SIGPIPE, SIG_IGN);
    r.base = match_loop_new();
    char err[2048];
    agent_report rep;
    memset(&rep, 0, sizeof rep);
    for (int i = 0; i < 2; i++) {
        r.agents[i] = play_make_agent(&r, i, err, sizeof err);
        if (!r.agents[i]) {
            printf("check-bot: %s cannot be started: %s\nverdict: NOT COMPLIANT\n", spec, err);
            if (r.agents[0]) agent_close(r.agents[0], NULL, NULL);
            event_base_dispatch(r.base);
            event_base_free(r.base);
            remove_dir(dir);
            free(dir);
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
    if (repeat) f.seqs = xcalloc((size_t)r.games, sizeof *f.seqs);
    printf("check-bot: %s on %s, %d game%s against builtin:random (move %lld ms, %s clock)\n", spec,
           r.game->name, r.games, r.games == 1 ? "" : "s", (long long)r.opts.clock.move_ms,
           clock_mode_name(r.opts.clock.mode));
    /* A bot written for one game may play nim only by its SDK's fallback. */
    if (!game_given)
        printf("  (nim is the default game: check your bot on the game it plays with --game G;"
               " games: nim, %s)\n",
               cli_game_list());
    for (int g = 0; g < r.games; g++) {
        char *path = play_log_path(&r, g);
        scan_log(path, &f, repeat ? &f.seqs[g] : NULL);
        free(path);
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
    if (f.exception[0]) say(&f, "note", "its stderr shows an exception: %s", f.exception);
    if (f.fatal_tail[0]) {
        printf("        its last stderr lines in that game:\n");
        seat_notes_print_tail(stdout, f.fatal_tail, "        | ", 10);
    }
    bool cut_off = f.protocol || f.crashes;
    /* Legal only because its SDK answered at random every time. */
    bool all_raised = f.decisions && f.decide_failures >= f.decisions;
    if (all_raised)
        say(&f, "FAIL",
            "every decision raised an exception (%ld of %ld): its SDK answered each at random%s",
            f.decide_failures, f.decisions,
            game_given ? "" : "; is it a bot for another game? (--game G)");
    if (f.illegal)
        say(&f, "FAIL", "%ld illegal choice%s, first: %s", f.illegal, f.illegal == 1 ? "" : "s",
            f.first_illegal);
    else if (f.decisions && cut_off)
        say(&f, "note", "%ld decision%s answered legally before it was cut off", f.decisions,
            f.decisions == 1 ? "" : "s");
    else if (f.decisions && !all_raised)
        say(&f, "ok", "%ld decisions answered, all legal", f.decisions);
    if (f.timeouts)
        say(&f, "FAIL", "%ld answer%s too slow or missing (move %lld ms + bank %lld ms), first: %s",
            f.timeouts, f.timeouts == 1 ? "" : "s", (long long)r.opts.clock.move_ms,
            (long long)r.opts.clock.bank_ms, f.first_timeout);
    /* The times are those of the answers that came in time: next to a
     * timeout they are only a note, never an "ok". */
    if (f.decisions)
        say(&f,
            f.timeouts                                 ? "note"
            : f.slowest > (double)r.opts.clock.move_ms ? "warn"
                                                       : "ok",
            "%s: mean %.1f ms, slowest %.1f ms (move limit %lld ms)",
            f.timeouts ? "times of the answers that came in time" : "answer times",
            f.total_ms / (double)f.decisions, f.slowest, (long long)r.opts.clock.move_ms);
    else if (!f.protocol && !f.crashes && !f.illegal && !f.timeouts && rep.join_ms >= 0)
        say(&f, "FAIL", "answered no decision");
    if (f.log_failures > (all_raised ? f.decide_failures : 0))
        say(&f, "warn",
            "reported %ld caught failure%s in `log` lines (its SDK played at random "
            "or went on), first: %s",
            f.log_failures, f.log_failures == 1 ? "" : "s", f.first_log);
    else if (f.logs)
        say(&f, "note", "sent %ld `log` line%s", f.logs, f.logs == 1 ? "" : "s");
    /* stderr is the bot's debugging channel and goes to the match log; a
     * flood of it is a fault of its own: it costs the host disk and time. */
    if (rep.stderr_bytes > STDERR_NOISE_LIMIT)
        say(&f, "FAIL", "flooded stderr with %.1f MB (keep it under %d KiB per series); first: %s",
            (double)rep.stderr_bytes / 1e6, STDERR_NOISE_LIMIT / 1024, rep.stderr_first);
    else if (rep.stderr_lines)
        say(&f, "note", "wrote %zu line%s (%zu bytes) to stderr; %s%s", rep.stderr_lines,
            rep.stderr_lines == 1 ? "" : "s", rep.stderr_bytes,
            f.exception[0] ? "the exception is quoted above" : "first: ",
            f.exception[0] ? "" : rep.stderr_first);
    if (!f.crashes && !f.protocol && rep.join_ms >= 0) {
        if (rep.exited_itself)
            say(&f, "ok", "exited %.0f ms after `bye`", rep.exit_ms);
        else
            say(&f, "FAIL", "did not exit within %lld ms after `bye` (it was killed)",
                (long long)r.opts.exit_grace_ms);
    }
    /* Its headroom under the memory cap, which counts all its processes. */
    const char *why;
    int64_t cap = r.opts.limits.mem_mb;
    if (rep.mem_peak >= 0) {
        double mib = (double)rep.mem_peak / 1048576.0;
        if (cap > 0)
            say(&f, mib > 0.75 * (double)cap ? "warn" : "ok",
                "memory: peak %.1f MiB, all its processes together (--limit-mem %lld MiB)", mib,
                (long long)cap);
        else
            say(&f, "note", "memory: peak %.1f MiB, all its processes together (no --limit-mem)",
                mib);
    } else if (!cgroup_usable(&why)) {
        say(&f, "note", "memory not measured: %s", why);
    }
    if (repeat) {
        compare_repeats(&f, &r);
        for (int g = 0; g < r.games; g++)
            seq_free(&f.seqs[g]);
        free(f.seqs);
    }
    bool compliant = f.problems == 0 && !r.aborted;
    if (compliant && !keep)
        remove_dir(dir);
    else
        printf("  logs: %s\n", dir);
    printf("verdict: %s", compliant ? "COMPLIANT" : "NOT COMPLIANT");
    if (!compliant) printf(" (%d problem%s)", f.problems, f.problems == 1 ? "" : "s");
    printf("\n");
    free(dir);
    return compliant ? 0 : 1;
}
