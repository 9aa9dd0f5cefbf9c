/* arena serve GAME --listen HOST:PORT --tokens FILE [AGENT…] — a series
 * whose seats are filled by remote agents that connect and present a
 * token. Each line of the tokens file is one remote seat ("TOKEN NAME"),
 * seated in file order, followed by any local AGENTs given. */
#include <errno.h>
#include <event2/event.h>
#include <event2/listener.h>
#include <netdb.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "cli.h"
#include "play.h"
#include "runner.h"
#include "util.h"

typedef struct serve {
    play_run run;
    int n_remote;
    char *token[ARENA_MAX_SEATS], *name[ARENA_MAX_SEATS];
    int joined;
    struct evconnlistener *listener;
    struct event *ev_timeout, *ev_reap;
    arena_agent *pending[64]; /* connected, not (yet) seated */
    int n_pending;
    bool started;
} serve;

static void start_games(serve *sv);

static bool check_join(arena_agent *a, const char *name, const char *token, void *ctx, char *why,
                       size_t whylen)
{
    (void)name;
    serve *sv = ctx;
    if (sv->started) {
        snprintf(why, whylen, "the games have started; no seat is free");
        event_active(sv->ev_reap, 0, 0);
        return false;
    }
    for (int i = 0; i < sv->n_remote; i++) {
        if (!token || strcmp(token, sv->token[i]) != 0) continue;
        if (sv->run.agents[i]) {
            snprintf(why, whylen, "token of seat '%s' is already in use", sv->name[i]);
            event_active(sv->ev_reap, 0, 0);
            return false;
        }
        sv->run.agents[i] = a;
        sv->run.fixed[i] = true;
        free(a->display);
        a->display = xstrdup(sv->name[i]);
        for (int k = 0; k < sv->n_pending; k++)
            if (sv->pending[k] == a) sv->pending[k] = sv->pending[--sv->n_pending];
        if (!sv->run.json) fprintf(stderr, "arena: %s joined\n", sv->name[i]);
        if (++sv->joined == sv->n_remote) start_games(sv);
        return true;
    }
    snprintf(why, whylen, token ? "unknown token" : "a token is required to join");
    event_active(sv->ev_reap, 0, 0);
    return false;
}

/* Closes connections that were refused or never joined. */
static void reap_pending(evutil_socket_t fd, short what, void *arg)
{
    (void)fd, (void)what;
    serve *sv = arg;
    for (int k = 0; k < sv->n_pending;) {
        arena_agent *a = sv->pending[k];
        if (agent_alive(a) && !sv->started) {
            k++;
            continue;
        }
        sv->pending[k] = sv->pending[--sv->n_pending];
        agent_close(a, NULL, NULL);
    }
}

static void on_accept(struct evconnlistener *l, evutil_socket_t fd, struct sockaddr *addr,
                      int socklen, void *ctx)
{
    (void)l, (void)addr, (void)socklen;
    serve *sv = ctx;
    if (sv->n_pending == (int)(sizeof sv->pending / sizeof sv->pending[0])) {
        close(fd); /* too many half-open connections: refuse outright */
        return;
    }
    agent_config ac;
    run_options_agent(&sv->run.opts, sv->run.game->name, "tcp-listen", &ac);
    sv->pending[sv->n_pending++] = agent_from_socket(sv->run.base, fd, &ac, check_join, sv);
    event_active(sv->ev_reap, 0, 0);
}

static void start_games(serve *sv)
{
    if (sv->started) return;
    sv->started = true;
    if (sv->listener) {
        evconnlistener_free(sv->listener);
        sv->listener = NULL;
    }
    event_del(sv->ev_timeout);
    for (int i = 0; i < sv->n_remote; i++) {
        if (sv->run.agents[i]) continue;
        sv->run.agents[i] = agent_absent(sv->name[i], CAUSE_TIMEOUT,
                                         "did not connect and join within --join-timeout");
        sv->run.fixed[i] = true;
        fprintf(stderr, "arena: %s did not join in time: it forfeits\n", sv->name[i]);
    }
    event_active(sv->ev_reap, 0, 0);
    play_begin(&sv->run);
}

static void on_join_timeout(evutil_socket_t fd, short what, void *arg)
{
    (void)fd, (void)what;
    start_games(arg);
}

static int read_tokens(serve *sv, const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "arena: cannot read tokens file '%s': %s\n", path, strerror(errno));
        return 2;
    }
    char line[512];
    int lineno = 0;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        char tok[256], name[256], extra[2];
        char *p = line + strspn(line, " \t");
        if (*p == '#' || *p == '\n' || *p == '\0') continue;
        int n = sscanf(p, "%255s %255s %1s", tok, name, extra);
        if (n != 2) {
            fprintf(stderr, "arena: %s:%d: expected 'TOKEN NAME'\n", path, lineno);
            fclose(f);
            return 2;
        }
        for (int i = 0; i < sv->n_remote; i++)
            if (!strcmp(sv->token[i], tok)) {
                fprintf(stderr, "arena: %s:%d: token repeated\n", path, lineno);
                fclose(f);
                return 2;
            }
        if (sv->n_remote == ARENA_MAX_SEATS) {
            fprintf(stderr, "arena: %s:%d: at most %d seats\n", path, lineno, ARENA_MAX_SEATS);
            fclose(f);
            return 2;
        }
        sv->token[sv->n_remote] = xstrdup(tok);
        sv->name[sv->n_remote] = xstrdup(name);
        sv->n_remote++;
    }
    fclose(f);
    if (sv->n_remote == 0) {
        fprintf(stderr, "arena: %s: no 'TOKEN NAME' lines\n", path);
        return 2;
    }
    return 0;
}

static void serve_help(void)
{
    printf("usage: arena serve GAME --listen HOST:PORT --tokens FILE [AGENT...] [options]\n"
           "\n"
           "Plays a series like `arena play`, with seats filled by remote agents that\n"
           "connect over TCP and send a `join` with a token. The tokens file has one\n"
           "line per remote seat, 'TOKEN NAME' ('#' starts a comment); seats are taken in\n"
           "file order, then the local AGENTs given. A wrong or reused token gets an\n"
           "`error` and the connection is closed. A seat nobody filled when\n"
           "--join-timeout expires forfeits its games.\n"
           "\n"
           "  --listen HOST:PORT           where to listen (e.g. 127.0.0.1:7700)\n"
           "  --tokens FILE                the seats' tokens and names\n"
           "  --join-timeout MS            wait this long for all seats [60000]\n");
    play_flags_help(stdout);
}

static int listen_on(serve *sv, const char *hostport)
{
    char *host = xstrdup(hostport);
    char *colon = strrchr(host, ':');
    if (!colon || colon == host) {
        fprintf(stderr, "arena: --listen wants HOST:PORT, not '%s'\n", hostport);
        free(host);
        return 2;
    }
    *colon = 0;
    struct addrinfo hints = {.ai_family = AF_UNSPEC,
                             .ai_socktype = SOCK_STREAM,
                             .ai_flags = AI_PASSIVE},
                    *res;
    int rc = getaddrinfo(host, colon + 1, &hints, &res);
    if (rc) {
        fprintf(stderr, "arena: --listen %s: %s\n", hostport, gai_strerror(rc));
        free(host);
        return 2;
    }
    sv->listener = evconnlistener_new_bind(sv->run.base, on_accept, sv,
                                           LEV_OPT_CLOSE_ON_FREE | LEV_OPT_REUSEABLE, 16,
                                           res->ai_addr, (int)res->ai_addrlen);
    freeaddrinfo(res);
    free(host);
    if (!sv->listener) {
        fprintf(stderr, "arena: cannot listen on %s: %s\n", hostport, strerror(errno));
        return 1;
    }
    return 0;
}

int cmd_serve(int argc, char **argv)
{
    static serve sv;
    memset(&sv, 0, sizeof sv);
    play_init(&sv.run);
    const char *game_name = NULL, *listen_arg = NULL, *tokens = NULL;
    long join_timeout = 60000;
    char *local[ARENA_MAX_SEATS];
    int n_local = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            serve_help();
            return 0;
        }
        int rc = play_parse_flag(&sv.run, argc, argv, &i);
        if (rc < 0) return 2;
        if (rc > 0) continue;
        if (!strcmp(a, "--listen") || !strcmp(a, "--tokens") || !strcmp(a, "--join-timeout")) {
            if (i + 1 >= argc) {
                fprintf(stderr, "arena: %s needs a value\n", a);
                return 2;
            }
            const char *v = argv[++i];
            if (!strcmp(a, "--listen")) {
                listen_arg = v;
            } else if (!strcmp(a, "--tokens")) {
                tokens = v;
            } else {
                char *end;
                join_timeout = strtol(v, &end, 10);
                if (*end || join_timeout < 1 || join_timeout > 86400000) {
                    fprintf(stderr, "arena: --join-timeout wants milliseconds, not '%s'\n", v);
                    return 2;
                }
            }
        } else if (a[0] == '-' && a[1] == '-') {
            fprintf(stderr, "arena: unknown option '%s' (see `arena serve --help`)\n", a);
            return 2;
        } else if (!game_name) {
            game_name = a;
        } else if (n_local < ARENA_MAX_SEATS) {
            local[n_local++] = argv[i];
        }
    }
    if (!game_name || !listen_arg || !tokens) {
        fprintf(stderr,
                "arena: serve needs GAME, --listen and --tokens (see `arena serve --help`)\n");
        return 2;
    }
    sv.run.game = arena_find_game(game_name);
    if (!sv.run.game) {
        fprintf(stderr, "arena: unknown game '%s' (games: %s)\n", game_name, cli_game_list());
        return 2;
    }
    int rc = read_tokens(&sv, tokens);
    if (rc) return rc;
    if (sv.n_remote + n_local > ARENA_MAX_SEATS) {
        fprintf(stderr, "arena: too many seats\n");
        return 2;
    }
    for (int i = 0; i < sv.n_remote; i++)
        sv.run.specs[i] = sv.name[i];
    for (int i = 0; i < n_local; i++)
        sv.run.specs[sv.n_remote + i] = local[i];
    sv.run.n_agents = sv.n_remote + n_local;
    rc = play_prepare(&sv.run);
    if (rc) return rc;

    signal(SIGPIPE, SIG_IGN);
    sv.run.base = event_base_new();
    char err[2048];
    for (int i = sv.n_remote; i < sv.run.n_agents; i++) {
        sv.run.agents[i] = play_make_agent(&sv.run, i, err, sizeof err);
        if (!sv.run.agents[i]) {
            fprintf(stderr, "arena: agent %s: %s\n", sv.run.specs[i], err);
            return 1;
        }
    }
    rc = listen_on(&sv, listen_arg);
    if (rc) return rc;
    sv.ev_timeout = evtimer_new(sv.run.base, on_join_timeout, &sv);
    sv.ev_reap = event_new(sv.run.base, -1, 0, reap_pending, &sv);
    struct timeval tv = {join_timeout / 1000, (join_timeout % 1000) * 1000};
    event_add(sv.ev_timeout, &tv);
    if (!sv.run.json)
        fprintf(stderr, "arena: listening on %s for %d remote seat%s\n", listen_arg, sv.n_remote,
                sv.n_remote == 1 ? "" : "s");
    event_base_dispatch(sv.run.base);
    if (sv.listener) evconnlistener_free(sv.listener);
    event_free(sv.ev_timeout);
    event_free(sv.ev_reap);
    event_base_free(sv.run.base);
    for (int i = 0; i < sv.n_remote; i++) {
        free(sv.token[i]);
        free(sv.name[i]);
    }
    return sv.run.aborted ? 1 : 0;
}
