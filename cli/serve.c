/* arena serve GAME --listen HOST:PORT --tokens FILE [AGENT…] — a series
 * whose seats are filled by remote agents that connect and present a
 * token. Each line of the tokens file is one remote seat ("TOKEN NAME"),
 * seated in file order, followed by any local AGENTs given. */
#include <errno.h>
#include <event2/event.h>
#include <event2/listener.h>
#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include "cli.h"
#include "clock.h"
#include "netlimit.h"
#include "play.h"
#include "resolve.h"
#include "suggest.h"
#include "runner.h"
#include "util.h"

/* Connections waiting to join. Each expires on its own timer (the agent's
 * startup_ms); one network (NET_V4 bits of an IPv4 address, NET_V6 of an
 * IPv6 one: what one local user or one IPv6 client owns) may hold only a
 * few (its oldest gives way to a new one); when the table is full the
 * oldest is dropped, so idle connections cannot lock a player out. What a
 * connection to be dropped has sent is read first (make_room): a join that
 * came is never lost to the connections that sent nothing, however fast
 * they come. */
#define PENDING_PER_NET 8
#define PENDING_MAX 4096
#define NET_V4 24
#define NET_V6 64
/* Connections accepted in one turn of the loop: then the loop reads what
 * the waiting ones sent before it accepts more. */
#define ACCEPT_BATCH 64
/* Failed joins are limited per network as the author pages limit failed
 * tokens (web/netlimit.h): an empty bucket refuses joins, except with a
 * token of TOKEN_STRONG characters or more (check_join). */
#define TOKEN_STRONG 16
/* A refused connection is read and discarded this long after its `error`,
 * so that closing it with unread input does not reset it first. */
#define DRAIN_MS 1000

typedef struct pending {
    arena_agent *a;
    char host[64], addr[80]; /* "host" and "host:port", for the log */
    char net[64];            /* its network, "a.b.c.0/24" or "h:h:h:h::/64" */
    double since;
} pending;

typedef struct serve {
    play_run run;
    int n_remote;
    char *token[ARENA_MAX_SEATS], *name[ARENA_MAX_SEATS];
    int joined;
    struct evconnlistener *listener;
    struct event *ev_timeout, *ev_reap;
    pending *pending; /* connected, not (yet) seated */
    int n_pending, cap_pending, max_pending;
    netlimit *lim;           /* failed joins per network */
    struct event *ev_accept; /* lets the listener accept again next turn */
    int accepted;            /* connections accepted this turn */
    bool started;
} serve;

static void start_games(serve *sv);

static pending *pending_of(serve *sv, const arena_agent *a)
{
    for (int k = 0; k < sv->n_pending; k++)
        if (sv->pending[k].a == a) return &sv->pending[k];
    return NULL;
}

/* Equal in time that depends only on the length of the secret b. */
static bool same_token(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    unsigned diff = la != lb;
    for (size_t i = 0; i < lb; i++)
        diff |= (unsigned char)((i < la ? a[i] : 0) ^ b[i]);
    return diff == 0;
}

static bool check_join(arena_agent *a, const char *name, const char *token, void *ctx, char *why,
                       size_t whylen)
{
    (void)name;
    serve *sv = ctx;
    pending *p = pending_of(sv, a);
    bool spent = false, limited = p && !netlimit_may_fail(sv->lim, p->net, &spent);
    if (sv->started) {
        snprintf(why, whylen, "the games have started; no seat is free");
        return false;
    }
    /* Every token is compared, all the way, whatever matched. */
    int seat = -1;
    for (int i = 0; i < sv->n_remote; i++)
        if (same_token(token ? token : "", sv->token[i])) seat = i;
    /* The limit slows guessing, which a strong token defeats anyway; were
     * a strong token refused too, an entrant sharing the address (a
     * tunnel, as §1 advises, or a NAT) could lock the others out with
     * wrong guesses. A weak one stays refused, guessed right or not. */
    if (limited && (seat < 0 || strlen(sv->token[seat]) < TOKEN_STRONG)) {
        if (spent)
            snprintf(why, whylen, "too many failed joins from %s; wait a few seconds", p->net);
        else
            snprintf(why, whylen, "too many failed joins; wait a few seconds");
        return false;
    }
    if (seat < 0 || sv->run.agents[seat]) {
        if (p) netlimit_failed(sv->lim, p->net);
        if (seat < 0)
            snprintf(why, whylen, token ? "unknown token" : "a token is required to join");
        else
            snprintf(why, whylen, "token of seat '%s' is already in use", sv->name[seat]);
        return false;
    }
    sv->run.agents[seat] = a;
    sv->run.fixed[seat] = true;
    free(a->display);
    a->display = xstrdup(sv->name[seat]);
    a->on_dead = NULL; /* seated: its matches judge it now */
    if (p) *p = sv->pending[--sv->n_pending];
    if (!sv->run.json) fprintf(stderr, "arena: %s joined\n", sv->name[seat]);
    if (++sv->joined == sv->n_remote) start_games(sv);
    return true;
}

/* A refused connection: its `error` is out (agent.c sent it); discard what
 * it still sends until it closes or DRAIN_MS pass, then close. */
typedef struct drain {
    int fd;
    struct event *ev;
    double until;
} drain;

static void on_drain(evutil_socket_t fd, short what, void *arg)
{
    drain *d = arg;
    char buf[16384];
    ssize_t r = 0;
    if (what & EV_READ)
        while ((r = read(fd, buf, sizeof buf)) > 0 && clock_now_ms() < d->until) {
        }
    if ((what & EV_TIMEOUT) || r == 0 || (r < 0 && errno != EAGAIN && errno != EINTR) ||
        clock_now_ms() >= d->until) {
        event_free(d->ev);
        close(d->fd);
        free(d);
    }
}

static void drop(serve *sv, int k, const char *reason)
{
    pending p = sv->pending[k];
    sv->pending[k] = sv->pending[--sv->n_pending];
    fprintf(stderr, "arena: connection from %s dropped: %s\n", p.addr, reason);
    int fd = p.a->rfd >= 0 ? dup(p.a->rfd) : -1;
    p.a->on_dead = NULL;
    agent_close(p.a, NULL, NULL);
    if (fd < 0) return;
    shutdown(fd, SHUT_WR);
    drain *d = xcalloc(1, sizeof *d);
    d->fd = fd;
    d->until = clock_now_ms() + DRAIN_MS;
    d->ev = event_new(sv->run.base, fd, EV_READ | EV_PERSIST, on_drain, d);
    struct timeval tv = {DRAIN_MS / 1000, (DRAIN_MS % 1000) * 1000};
    event_add(d->ev, &tv);
}

/* Closes connections that were refused, broke the protocol or timed out. */
static void reap_pending(evutil_socket_t fd, short what, void *arg)
{
    (void)fd, (void)what;
    serve *sv = arg;
    for (int k = sv->n_pending; k-- > 0;) {
        arena_agent *a = sv->pending[k].a;
        if (sv->started)
            drop(sv, k, agent_alive(a) ? "the games have started" : a->dead_reason);
        else if (!agent_alive(a))
            drop(sv, k, a->dead_reason);
    }
}

static void on_pending_dead(arena_agent *a, void *ctx)
{
    (void)a;
    serve *sv = ctx;
    event_active(sv->ev_reap, 0, 0); /* not from inside the agent's own callback */
}

/* The waiting connection to give way (the oldest of those in net, or of
 * all when net is NULL) is first read: a join it sent is taken (seated or
 * refused) and so loses nothing; the first that sent none is dropped. */
static void make_room(serve *sv, const char *net, const char *why)
{
    int oldest = -1;
    for (int k = 0; k < sv->n_pending; k++)
        if ((!net || !strcmp(sv->pending[k].net, net)) &&
            (oldest < 0 || sv->pending[k].since < sv->pending[oldest].since))
            oldest = k;
    if (oldest < 0) return;
    arena_agent *a = sv->pending[oldest].a;
    agent_catch_up(a);
    if (sv->started) return; /* that join took the last seat */
    /* Seated: check_join took it out of the table, so its slot is free. */
    if (oldest >= sv->n_pending || sv->pending[oldest].a != a) return;
    drop(sv, oldest, agent_alive(a) ? why : a->dead_reason);
}

static void on_accept_again(evutil_socket_t fd, short what, void *arg)
{
    (void)fd, (void)what;
    serve *sv = arg;
    sv->accepted = 0;
    if (sv->listener) evconnlistener_enable(sv->listener);
}

static void on_accept(struct evconnlistener *l, evutil_socket_t fd, struct sockaddr *addr,
                      int socklen, void *ctx)
{
    serve *sv = ctx;
    pending p = {.since = clock_now_ms()};
    char port[16] = "?";
    if (getnameinfo(addr, (socklen_t)socklen, p.host, sizeof p.host, port, sizeof port,
                    NI_NUMERICHOST | NI_NUMERICSERV) != 0)
        snprintf(p.host, sizeof p.host, "?");
    snprintf(p.addr, sizeof p.addr, strchr(p.host, ':') ? "[%s]:%s" : "%s:%s", p.host, port);
    netlimit_net(addr, p.net, sizeof p.net);
    /* The loop reads the waiting connections between batches of accepts:
     * a flood of connections does not keep it from the joins. */
    if (++sv->accepted >= ACCEPT_BATCH) {
        evconnlistener_disable(l);
        event_active(sv->ev_accept, 0, 0);
    }
    /* At the network's cap its oldest waiting connection gives way, not the
     * new one: an entrant holding idle connections from an address it
     * shares with others (a tunnel, a NAT) would otherwise shut them out. */
    int same = 0;
    for (int k = 0; k < sv->n_pending; k++)
        same += !strcmp(sv->pending[k].net, p.net);
    if (same >= PENDING_PER_NET) {
        char why[160];
        snprintf(why, sizeof why, "%d connections from %s wait to join; this was the oldest", same,
                 p.net);
        make_room(sv, p.net, why);
    }
    if (sv->n_pending >= sv->max_pending) /* full: the oldest gives way */
        make_room(sv, NULL, "too many connections waiting to join; this was the oldest");
    if (sv->started) { /* a join read to make room took the last seat */
        evutil_closesocket(fd);
        return;
    }
    agent_config ac;
    run_options_agent(&sv->run.opts, sv->run.game->name, "tcp-listen", &ac);
    p.a = agent_from_socket(sv->run.base, fd, &ac, check_join, sv);
    p.a->on_dead = on_pending_dead;
    if (sv->n_pending == sv->cap_pending) {
        sv->cap_pending = sv->cap_pending ? 2 * sv->cap_pending : 64;
        sv->pending = xrealloc(sv->pending, (size_t)sv->cap_pending * sizeof *sv->pending);
    }
    sv->pending[sv->n_pending++] = p;
}

/* accept() failed: out of file descriptors most likely. Dropping the oldest
 * waiting connection frees one, so the listener does not spin. */
static void on_accept_error(struct evconnlistener *l, void *ctx)
{
    (void)l;
    serve *sv = ctx;
    int e = EVUTIL_SOCKET_ERROR();
    fprintf(stderr, "arena: accept failed: %s\n", strerror(e));
    if (sv->n_pending > 0) {
        int old = 0;
        for (int k = 1; k < sv->n_pending; k++)
            if (sv->pending[k].since < sv->pending[old].since) old = k;
        drop(sv, old, "out of file descriptors; this was the oldest");
    }
}

/* Each waiting connection holds a descriptor: take all the kernel allows. */
static void raise_fd_limit(serve *sv)
{
    struct rlimit rl;
    sv->max_pending = PENDING_MAX;
    if (getrlimit(RLIMIT_NOFILE, &rl) != 0) return;
    if (rl.rlim_cur < rl.rlim_max) {
        rl.rlim_cur = rl.rlim_max;
        setrlimit(RLIMIT_NOFILE, &rl);
        getrlimit(RLIMIT_NOFILE, &rl);
    }
    /* room for the agents, logs and the connections being drained */
    long room = rl.rlim_cur == RLIM_INFINITY ? PENDING_MAX : ((long)rl.rlim_cur - 64) / 2;
    if (room < PENDING_MAX) {
        sv->max_pending = room > 8 ? (int)room : 8;
        fprintf(stderr,
                "arena: the open-file limit is %ld: at most %d connections can wait to join\n",
                (long)rl.rlim_cur, sv->max_pending);
    }
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
           "Before its join a connection may send frames of at most 64 KiB; one that\n"
           "sends garbage or another message first gets an `error` and is closed; one\n"
           "that has not joined within --startup-ms is closed. Limits hold per\n"
           "network (an IPv4 /24, an IPv6 /64): at most 8 connections per network\n"
           "wait to join (the network's oldest makes room for a new one, and the\n"
           "oldest of all when the table of 4096 is full; a join it sent is read\n"
           "first); a network with 5 refused joins, or every network once 20 were\n"
           "refused from all together, is refused for a while, but for a token of 16\n"
           "characters or more: give each seat such a token, random, so that nobody\n"
           "sharing a network with it (a tunnel, a NAT) can lock it out. Each\n"
           "refused or dropped connection is one line on stderr with its address.\n"
           "The connection is plain TCP: whoever can read it sees each seat's view and\n"
           "token. Across a network you do not control, tunnel it (SSH, WireGuard).\n"
           "\n"
           "  --listen HOST:PORT           where to listen (e.g. 127.0.0.1:7700)\n"
           "  --tokens FILE                the seats' tokens and names\n"
           "  --join-timeout MS            wait this long for all seats [60000]\n");
    play_flags_help(stdout);
}

static int listen_on(serve *sv, const char *hostport)
{
    struct addrinfo *res;
    char err[300];
    if (resolve_listen(hostport, &res, err, sizeof err) != 0) {
        fprintf(stderr, "arena: %s\n", err);
        return 2;
    }
    sv->listener = evconnlistener_new_bind(sv->run.base, on_accept, sv,
                                           LEV_OPT_CLOSE_ON_FREE | LEV_OPT_REUSEABLE, 511,
                                           res->ai_addr, (int)res->ai_addrlen);
    freeaddrinfo(res);
    if (!sv->listener) {
        fprintf(stderr, "arena: cannot listen on %s: %s\n", hostport, strerror(errno));
        return 1;
    }
    evconnlistener_set_error_cb(sv->listener, on_accept_error);
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
            static const char *const own[] = {"--listen", "--tokens", "--join-timeout", "--help",
                                              NULL};
            suggest_unknown_option("serve", a, own, play_flag_names);
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
    const char *misfit = run_options_clock_misfit(&sv.run.opts, "tcp-listen");
    if (misfit) {
        fprintf(stderr, "arena: serve: %s\n", misfit);
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
    sv.run.base = match_loop_new();
    char err[2048];
    for (int i = sv.n_remote; i < sv.run.n_agents; i++) {
        sv.run.agents[i] = play_make_agent(&sv.run, i, err, sizeof err);
        if (!sv.run.agents[i]) {
            fprintf(stderr, "arena: agent %s: %s\n", sv.run.specs[i], err);
            return 1;
        }
    }
    raise_fd_limit(&sv);
    rc = listen_on(&sv, listen_arg);
    if (rc) return rc;
    sv.ev_timeout = evtimer_new(sv.run.base, on_join_timeout, &sv);
    sv.ev_reap = event_new(sv.run.base, -1, 0, reap_pending, &sv);
    sv.ev_accept = event_new(sv.run.base, -1, 0, on_accept_again, &sv);
    sv.lim = netlimit_new();
    struct timeval tv = {join_timeout / 1000, (join_timeout % 1000) * 1000};
    event_add(sv.ev_timeout, &tv);
    if (!sv.run.json)
        fprintf(stderr, "arena: listening on %s for %d remote seat%s\n", listen_arg, sv.n_remote,
                sv.n_remote == 1 ? "" : "s");
    event_base_dispatch(sv.run.base);
    if (sv.listener) evconnlistener_free(sv.listener);
    event_free(sv.ev_timeout);
    event_free(sv.ev_reap);
    event_free(sv.ev_accept);
    free(sv.pending);
    netlimit_free(sv.lim);
    event_base_free(sv.run.base);
    for (int i = 0; i < sv.n_remote; i++) {
        free(sv.token[i]);
        free(sv.name[i]);
    }
    return sv.run.aborted ? 1 : 0;
}
