/* The tournament commands as a stand-alone executable for the benchmark,
 * so it measures them even where the `arena` CLI is built without them. */
#include <stdio.h>
#include <string.h>

#include "builtins.h"
#include "commands.h"

int main(int argc, char **argv)
{
    arena_builtins_install();
    if (argc > 1 && strcmp(argv[1], "tournament") == 0) return cmd_tournament(argc - 1, argv + 1);
    if (argc > 1 && strcmp(argv[1], "report") == 0) return cmd_report(argc - 1, argv + 1);
    fprintf(stderr, "usage: %s tournament|report ARGS...\n", argv[0]);
    return 2;
}
