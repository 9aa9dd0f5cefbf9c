/* The `arena` command line: one function per subcommand. */
#ifndef ARENA_CLI_H
#define ARENA_CLI_H

int cmd_play(int argc, char **argv);
int cmd_replay(int argc, char **argv);
int cmd_serve(int argc, char **argv);
int cmd_check_bot(int argc, char **argv);
int cmd_games(int argc, char **argv);
int cmd_bots(int argc, char **argv);

/* "dominion, pacifica, xibalba" for error messages. */
const char *cli_game_list(void);
/* mkdir -p */
int cli_mkdirs(const char *path);

#endif
