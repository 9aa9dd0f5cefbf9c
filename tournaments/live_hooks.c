/* The registry of the live web front's hooks and its flags. */
#include "live_hooks.h"

#include <errno.h>
#include <netdb.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "cliargs.h"
#include "resolve.h"

static const live_hooks *installed;

void live_hooks_install(const live_hooks *h)
{
    installed = h;
}

const live_hooks *live_hooks_installed(void)
{
    return installed;
}

int live_parse_arg(int argc, char **argv, int *i, live_cfg *c)
{
    const char *v;
    int r;
    if ((r = cli_value(argc, argv, i, "--http", &v)) != 0) {
        if (r < 0) return 2;
        if (!v[0]) return cli_usage_error("--http needs HOST:PORT");
        c->listen = v;
        return 1;
    }
    if ((r = cli_value(argc, argv, i, "--spectator-delay", &v)) != 0) {
        if (r < 0) return 2;
        if (!cli_double(v, 0, 86400, &c->spectator_delay))
            return cli_usage_error("--spectator-delay takes seconds 0..86400, not '%s'", v);
        return 1;
    }
    return 0;
}

int live_cfg_check(const live_cfg *c)
{
    if (c->spectator_delay >= 0 && !c->listen)
        return cli_usage_error("--spectator-delay is a delay of the web front: it needs --http");
    if (!c->listen) return 0;
    /* Bound once and let go, before the run creates its store: an address
     * it cannot listen on must leave nothing behind. */
    struct addrinfo *res;
    char err[256];
    if (resolve_listen(c->listen, &res, err, sizeof err) != 0)
        return cli_usage_error("--http %s: %s", c->listen, err);
    int fd = socket(res->ai_family, res->ai_socktype | SOCK_CLOEXEC, res->ai_protocol), one = 1;
    bool ok = fd >= 0 && setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) == 0 &&
              bind(fd, res->ai_addr, res->ai_addrlen) == 0;
    int e = errno;
    if (fd >= 0) close(fd);
    freeaddrinfo(res);
    if (ok) return 0;
    fprintf(stderr, "arena: --http %s: cannot listen: %s\n", c->listen, strerror(e));
    return 1;
}

void live_help(FILE *out, int col)
{
    /* Each command's help has its own description column: the lines follow it. */
    static const char *const lines[] = {
        "--http HOST:PORT",
        "serve the web front of `arena web` from this run, with",
        "the live boards of the games in progress (what every",
        "seat sees) at /live (port 0: any free port, printed",
        "on stderr); it closes when the run ends",
        NULL,
        "--spectator-delay SEC",
        "with --http: also show a game in progress",
        "omnisciently (every hidden card), SEC seconds behind",
        "play (not under duplicate pairing, whose games share",
        "a deal); without it, only the replay once it ended",
        NULL,
    };
    for (size_t i = 0; i < sizeof lines / sizeof *lines; i++) {
        const char *flag = lines[i++];
        /* A flag as wide as the column takes a line of its own. */
        if ((int)strlen(flag) + 4 > col) fprintf(out, "  %s\n", flag), flag = "";
        fprintf(out, "  %-*s%s\n", col - 2, flag, lines[i++]);
        for (; lines[i]; i++)
            fprintf(out, "%*s%s\n", col, "", lines[i]);
    }
}
