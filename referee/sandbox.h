/* The bubblewrap command line of `--sandbox`: what an agent may see and
 * keep. See docs/protocol.md §7 for the promise it implements. */
#ifndef ARENA_SANDBOX_H
#define ARENA_SANDBOX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* First uid of the range a root `arena` runs sandboxed agents as: the uid
 * is this plus the pid of the agent's bwrap process, unique among running
 * agents on the host, so per-uid limits and signals never reach another
 * agent. No passwd entry is needed. */
#define SANDBOX_UID_BASE 2000000000u

/* Environment variables an agent gets (besides --pass-env NAME); all but
 * PATH and HOME only when set. Two lines of help text. */
#define SANDBOX_ENV_DOC                                                                            \
    "  PATH=/usr/local/bin:/usr/bin:/bin, HOME=/tmp,\n  LANG, LC_ALL, TZ, PYTHONPATH, NODE_PATH"

/* Marks a path (a results DB, a log directory, another agent's program) as
 * private to the referee for the rest of the process: an agent whose
 * program directory holds it sees an empty file or directory in its place,
 * and an agent is refused when it would lie there without existing yet. */
void sandbox_hide(const char *path);
/* sandbox_hide() for a SQLite database and its -wal, -shm, -journal. */
void sandbox_hide_db(const char *path);
/* sandbox_hide() for every existing file an agent command line names
 * (cmd:LINE or a path): its program, scripts, data files. */
void sandbox_hide_agent(const char *spec);
/* Forgets every hidden path (tests). */
void sandbox_hide_reset(void);

/* As root, an agent runs as a uid of its own, which may be unable to reach
 * its own program directory (a bot under /root, a 0700 home). The agent's
 * child, still root, then mounts each directory to show at STAGE/N of a
 * mount namespace of its own, and bwrap binds them from there. (bwrap's
 * --ro-bind-fd does not help: it resolves the descriptor back to its path,
 * as the unprivileged uid.) */
#define SANDBOX_STAGE "/tmp"
#define SANDBOX_MAX_STAGED 32
typedef struct sandbox_stage {
    int n;
    char *path[SANDBOX_MAX_STAGED]; /* malloc'ed, absolute */
    bool dir[SANDBOX_MAX_STAGED];
    char at[SANDBOX_MAX_STAGED][32]; /* SANDBOX_STAGE/N */
} sandbox_stage;

/* The bwrap argv (NULL-terminated, every string owned; free with
 * sandbox_argv_free) that runs inner[] for `command` (the words of which
 * name the program files whose directories become visible) with the
 * environment allowlist plus pass_env (NULL-terminated names; may be NULL),
 * and, when nproc > 0, RLIMIT_NPROC set inside the agent's own user
 * namespace. Its /tmp and /dev/shm are tmpfs of tmp_mb MiB each (0: the
 * kernel's default); nothing else is writable. stage: NULL binds the directories by path; else they
 * are listed in *stage and bound from it (sandbox_stage_enter), and one that other users may not
 * read is refused. NULL with err if a hidden path cannot be masked or a directory cannot be staged.
 */
char **sandbox_argv(const char *const *inner, const char *command, const char *const *pass_env,
                    int64_t nproc, int64_t tmp_mb, sandbox_stage *stage, char *err, size_t errlen);
void sandbox_argv_free(char **argv);

/* In the agent's child, still root, between fork and exec (async-signal-
 * safe): a private mount namespace with *stage mounted. -1 on failure. */
int sandbox_stage_enter(const sandbox_stage *stage);
/* Frees the stage's paths (the parent, after fork). */
void sandbox_stage_free(sandbox_stage *stage);

#endif
