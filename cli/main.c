/* arena — a referee for bot competitions. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "builtins.h"
#include "cli.h"
#include "game.h"
#include "policy.h"
#include "spawn.h"
#include "suggest.h"
#include "util.h"
#include "commands.h"
#include "live.h"
#include "live_hooks.h"
#include "web.h"

#ifndef ARENA_VERSION
#define ARENA_VERSION "dev"
#endif

typedef struct command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *synopsis, *summary;
} command;

static const command commands[] = {
    {"play", cmd_play, "play GAME AGENT AGENT... [options]", "play games between agents"},
    {"replay", cmd_replay, "replay LOG [--seat N [--agent SPEC]]", "check a log; re-run a bot"},
    {"serve", cmd_serve, "serve GAME --listen H:P --tokens FILE", "play with remote TCP agents"},
    {"check-bot", cmd_check_bot, "check-bot AGENT [--game G]", "is a bot compliant?"},
    {"games", cmd_games, "games [--all]", "games and their settings"},
    {"bots", cmd_bots, "bots [GAME]", "list built-in bots"},
    {"tournament", cmd_tournament, "tournament FILE | --resume DB | flags", "run a tournament"},
    {"report", cmd_report, "report DB [--format text|json|html]", "report on a tournament"},
    {"audit", cmd_audit, "audit DB [--logs DIR]", "do stored verdicts hold up?"},
    {"sprt", cmd_sprt, "sprt --game G --agent A=SPEC --agent B=SPEC", "SPRT between two agents"},
    {"ladder", cmd_ladder, "ladder run|add|retire|status|finals DB ...", "a continuous ladder"},
    {"web", cmd_web, "web DB|URL [--listen HOST:PORT]", "a live web front"},
    {"elo", cmd_elo, "elo FILE [--prior N] [--anchor NAME]", "ratings from a results file"},
    {"worker", cmd_worker, "worker --db URL [--concurrency N] [--name N]",
     "play games from PostgreSQL"},
};
#define N_COMMANDS (sizeof commands / sizeof commands[0])

static void usage(FILE *out)
{
    fprintf(out, "arena %s: a referee for bot competitions\n\nusage: arena COMMAND [ARGS]\n\n",
            ARENA_VERSION);
    for (size_t i = 0; i < N_COMMANDS; i++)
        fprintf(out, "  arena %-44s %s\n", commands[i].synopsis, commands[i].summary);
    fprintf(out,
            "\n`arena COMMAND --help` (or `arena help COMMAND`) describes a command. Protocol\n"
            "and games: docs/.\n");
}

const char *cli_game_list(void)
{
    static char buf[256];
    buf[0] = 0;
    for (const arena_game_vt *const *g = arena_games(false); *g; g++) {
        if (buf[0]) strncat(buf, ", ", sizeof buf - strlen(buf) - 1);
        strncat(buf, (*g)->name, sizeof buf - strlen(buf) - 1);
    }
    return buf;
}

int cli_mkdirs(const char *path)
{
    char *p = xstrdup(path);
    for (char *s = p + 1; *s; s++) {
        if (*s != '/') continue;
        *s = 0;
        if (mkdir(p, 0777) != 0 && errno != EEXIST) {
            free(p);
            return -1;
        }
        *s = '/';
    }
    int rc = mkdir(p, 0777) != 0 && errno != EEXIST ? -1 : 0;
    free(p);
    return rc;
}

int cmd_games(int argc, char **argv)
{
    bool all = false;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--all"))
            all = true;
        else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            printf("usage: arena games [--all]\n\nLists the games with their player counts and "
                   "settings (--set KEY=VALUE).\n--all also lists the test-only games.\n");
            return 0;
        } else {
            fprintf(stderr, "arena: games takes no argument '%s'\n", argv[i]);
            return 2;
        }
    }
    for (const arena_game_vt *const *g = arena_games(all); *g; g++) {
        char range[32];
        if ((*g)->min_players == (*g)->max_players)
            snprintf(range, sizeof range, "%d players", (*g)->min_players);
        else
            snprintf(range, sizeof range, "%d-%d players", (*g)->min_players, (*g)->max_players);
        printf("%-10s %-11s  %s\n", (*g)->name, range, (*g)->title);
        for (const arena_option_doc *o = (*g)->options; o && o->key; o++)
            printf("    --set %s=%s  (default %s)\n        %s\n", o->key, o->values,
                   o->dflt ? o->dflt : "-", o->help);
    }
    return 0;
}

int cmd_bots(int argc, char **argv)
{
    const char *game = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            printf("usage: arena bots [GAME]\n\nLists the built-in bots (agents `builtin:NAME`), "
                   "for one game or all.\n");
            return 0;
        }
        if (game) {
            fprintf(stderr, "arena: bots takes at most one GAME\n");
            return 2;
        }
        game = argv[i];
        if (!arena_find_game(game)) {
            fprintf(stderr, "arena: unknown game '%s' (games: %s)\n", game, cli_game_list());
            return 2;
        }
    }
    for (const arena_policy_vt *const *p = arena_policies(); *p; p++) {
        const arena_policy_vt *v = *p;
        if (game && v->game && strcmp(v->game, game) != 0) continue;
        char name[64];
        snprintf(name, sizeof name, "builtin:%s%s", v->name, v->takes_arg ? ":ARG" : "");
        printf("%-24s %-9s %s\n", name, v->game ? v->game : "any game", v->summary);
    }
    return 0;
}

static int unknown_command(const char *c)
{
    const char *names[N_COMMANDS + 3];
    for (size_t i = 0; i < N_COMMANDS; i++)
        names[i] = commands[i].name;
    names[N_COMMANDS] = "help";
    names[N_COMMANDS + 1] = "version";
    names[N_COMMANDS + 2] = NULL;
    const char *near = suggest_closest(c, names);
    if (near)
        fprintf(stderr,
                "arena: unknown command '%s' (did you mean `arena %s`? see `arena --help`)\n", c,
                near);
    else
        fprintf(stderr, "arena: unknown command '%s' (see `arena --help`)\n", c);
    return 2;
}

/* Ctrl-C, SIGTERM, SIGHUP: no agent may outlive us (SIGKILL is the
 * watchdog's business, spawn.c). Commands that stop gracefully install
 * their own handlers over this one. */
static void on_stop_signal(int sig)
{
    spawn_kill_all();
    signal(sig, SIG_DFL);
    raise(sig);
}

int main(int argc, char **argv)
{
    arena_builtins_install();
    live_hooks_install(web_live_hooks()); /* --http of the runs: web/ sits above them */
    /* Descriptors 0-2 exist, so that agent pipes never take their numbers. */
    for (int fd = 0; fd < 3; fd++)
        if (fcntl(fd, F_GETFD) < 0) open("/dev/null", O_RDWR);
    int stops[] = {SIGINT, SIGTERM, SIGHUP};
    for (size_t i = 0; i < sizeof stops / sizeof stops[0]; i++) {
        struct sigaction old, sa = {.sa_handler = on_stop_signal};
        sigemptyset(&sa.sa_mask);
        /* nohup's ignored SIGHUP stays ignored. */
        if (sigaction(stops[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN) continue;
        sigaction(stops[i], &sa, NULL);
    }
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    const char *c = argv[1];
    /* `arena help CMD` is `arena CMD --help` */
    if (!strcmp(c, "help") && argc > 2 && strcmp(argv[2], "help") != 0) {
        c = argv[2];
        for (size_t i = 0; i < N_COMMANDS; i++)
            if (!strcmp(c, commands[i].name))
                return commands[i].run(2, (char *[]){argv[2], "--help", NULL});
        return unknown_command(c);
    }
    if (!strcmp(c, "--help") || !strcmp(c, "-h") || !strcmp(c, "help")) {
        usage(stdout);
        return 0;
    }
    if (!strcmp(c, "--version") || !strcmp(c, "version")) {
        printf("arena %s (protocol 1)\n", ARENA_VERSION);
        return 0;
    }
    for (size_t i = 0; i < N_COMMANDS; i++)
        if (!strcmp(c, commands[i].name)) return commands[i].run(argc - 1, argv + 1);
    return unknown_command(c);
}
