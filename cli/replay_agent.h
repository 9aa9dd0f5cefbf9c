/* arena replay LOG --seat N --agent SPEC: a bot in seat N of a logged game,
 * fed what the log says that seat was sent, checked decision by decision
 * against the log's choices (replay_agent.c). */
#ifndef ARENA_CLI_REPLAY_AGENT_H
#define ARENA_CLI_REPLAY_AGENT_H

/* 0: every decision chose as recorded; 1: a divergence, a failed bot or a
 * log that cannot be replayed (said on stdout/stderr); 2: bad arguments. */
int replay_agent(const char *path, int seat, const char *spec);

#endif
