/* Test harness: the tournament commands as a stand-alone executable, so the
 * end-to-end tests exercise them even where the `arena` CLI is built
 * without them. Usage: tcli tournament|report|sprt|elo|worker ARGS... */
#include <stdio.h>
#include <string.h>

#include "builtins.h"
#include "commands.h"

int main(int argc, char **argv)
{
    arena_builtins_install();
    static const struct {
        const char *name;
        int (*fn)(int, char **);
    } cmds[] = {{"tournament", cmd_tournament},
                {"report", cmd_report},
                {"sprt", cmd_sprt},
                {"elo", cmd_elo},
                {"worker", cmd_worker}};
    for (size_t i = 0; argc > 1 && i < sizeof cmds / sizeof cmds[0]; i++)
        if (strcmp(argv[1], cmds[i].name) == 0) return cmds[i].fn(argc - 1, argv + 1);
    fprintf(stderr, "usage: %s tournament|report|sprt|elo|worker ARGS...\n", argv[0]);
    return 2;
}
