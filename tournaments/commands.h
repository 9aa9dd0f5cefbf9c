/* Entry points of `arena tournament|report|audit|sprt|elo|worker`. argv[0] is the
 * subcommand name. Each returns the exit code: 0 ok, 1 failure, 2 bad
 * arguments (after one "arena: ..." line on stderr). */
#ifndef ARENA_TOURNAMENT_COMMANDS_H
#define ARENA_TOURNAMENT_COMMANDS_H

int cmd_tournament(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_sprt(int argc, char **argv);
int cmd_elo(int argc, char **argv);
int cmd_worker(int argc, char **argv);
int cmd_audit(int argc, char **argv);
int cmd_ladder(int argc, char **argv);

#endif
