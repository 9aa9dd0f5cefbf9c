#include "runopts.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cgroup.h"
#include "codec.h"
#include "sandbox.h"

void run_options_default(run_options *o)
{
    memset(o, 0, sizeof *o);
    clock_config_default(&o->clock);
    o->on_fault = FAULT_FORFEIT;
    o->max_strikes = 3;
    agent_limits_default(&o->limits);
    o->exit_grace_ms = 2000;
    o->max_frame = (int64_t)PROTO_MAX_FRAME_DEFAULT;
}

static bool parse_i64(const char *s, int64_t lo, int64_t hi, int64_t *out)
{
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (errno || *s == '\0' || *end != '\0' || v < lo || v > hi) return false;
    *out = v;
    return true;
}

typedef enum { F_INT, F_CLOCK, F_FAULT, F_SET, F_BOOL, F_ENV } flag_kind;

typedef struct flag_doc {
    const char *name;
    flag_kind kind;
    int64_t lo, hi;
    const char *arg, *help;
} flag_doc;

static const flag_doc flags[] = {
    {"--set", F_SET, 0, 0, "KEY=VALUE", "game setting (repeatable; see `arena games`)"},
    {"--move-ms", F_INT, 1, 86400000, "N", "time per decision"},
    {"--bank-ms", F_INT, 0, 86400000, "N", "reserve per game for decisions over --move-ms"},
    {"--game-ms", F_INT, 0, 864000000, "N", "total time per seat per game (default: none)"},
    {"--startup-ms", F_INT, 1, 3600000, "N", "exec (or connect)->join and hello->ready limit"},
    {"--clock", F_CLOCK, 0, 0, "fair|wall|cpu", "wall time less CPU waits; wall; or CPU time"},
    {"--on-fault", F_FAULT, 0, 0, "forfeit|fallback", "what a timeout or illegal answer costs"},
    {"--max-strikes", F_INT, 1, 1000000, "N", "fallback mode: the Nth strike forfeits"},
    {"--exit-grace-ms", F_INT, 0, 600000, "N", "after bye, wait this long before killing"},
    {"--max-frame", F_INT, 64, 1 << 30, "BYTES", "largest message an agent may send"},
    {"--limit-as", F_INT, 0, 1 << 24, "MIB", "agent address space (0: unlimited)"},
    {"--limit-cpu", F_INT, 0, 1 << 30, "S", "agent CPU seconds per process (0: unlimited)"},
    {"--limit-mem", F_INT, 0, 1 << 24, "MIB", "agent memory, all its processes (cgroup; 0: none)"},
    {"--limit-procs", F_INT, 0, 1 << 20, "N", "agent processes (0: unlimited)"},
    {"--limit-fsize", F_INT, 0, 1 << 24, "MIB", "largest file an agent may write (0: unlimited)"},
    {"--limit-tmp", F_INT, 0, 1 << 24, "MIB", "--sandbox: size of /tmp, and of /dev/shm"},
    {"--sandbox", F_BOOL, 0, 0, NULL, "isolate spawned agents (bwrap; see Isolation)"},
    {"--freeze-idle", F_BOOL, 0, 0, NULL, "stop spawned agents while not on the move"},
    {"--pass-env", F_ENV, 0, 0, "NAME", "--sandbox: also give agents $NAME (repeatable)"},
};
#define N_FLAGS (sizeof flags / sizeof flags[0])

static int64_t *int_target(run_options *o, const char *name)
{
    if (!strcmp(name, "--move-ms")) return &o->clock.move_ms;
    if (!strcmp(name, "--bank-ms")) return &o->clock.bank_ms;
    if (!strcmp(name, "--game-ms")) return &o->clock.game_ms;
    if (!strcmp(name, "--startup-ms")) return &o->clock.startup_ms;
    if (!strcmp(name, "--exit-grace-ms")) return &o->exit_grace_ms;
    if (!strcmp(name, "--limit-as")) return &o->limits.as_mb;
    if (!strcmp(name, "--limit-cpu")) return &o->limits.cpu_s;
    if (!strcmp(name, "--limit-procs")) return &o->limits.nproc;
    if (!strcmp(name, "--limit-fsize")) return &o->limits.fsize_mb;
    if (!strcmp(name, "--limit-tmp")) return &o->limits.tmp_mb;
    if (!strcmp(name, "--limit-mem")) return &o->limits.mem_mb;
    if (!strcmp(name, "--max-strikes")) return &o->max_strikes;
    if (!strcmp(name, "--max-frame")) return &o->max_frame;
    return NULL;
}

const char *run_options_flag_name(size_t k)
{
    return k < N_FLAGS ? flags[k].name : NULL;
}

int run_options_parse(run_options *o, int argc, char **argv, int *i)
{
    const char *arg = argv[*i];
    const char *eq = strchr(arg, '=');
    size_t nlen = eq && strncmp(arg, "--set", 5) != 0 ? (size_t)(eq - arg) : strlen(arg);
    if (!strncmp(arg, "--set=", 6)) nlen = 5;
    const flag_doc *f = NULL;
    for (size_t k = 0; k < N_FLAGS; k++)
        if (strlen(flags[k].name) == nlen && !strncmp(flags[k].name, arg, nlen)) f = &flags[k];
    if (!f) return 0;
    if (f->kind == F_BOOL) {
        if (arg[nlen] == '=') {
            fprintf(stderr, "arena: %s takes no value\n", f->name);
            return -1;
        }
        *(!strcmp(f->name, "--sandbox") ? &o->sandbox : &o->freeze_idle) = true;
        return 1;
    }
    const char *val;
    if (arg[nlen] == '=') {
        val = arg + nlen + 1;
    } else {
        if (*i + 1 >= argc) {
            fprintf(stderr, "arena: %s needs a value (%s)\n", f->name, f->arg);
            return -1;
        }
        val = argv[++*i];
    }
    switch (f->kind) {
    case F_INT: {
        int64_t v;
        if (!parse_i64(val, f->lo, f->hi, &v)) {
            fprintf(stderr, "arena: %s wants an integer from %lld to %lld, not '%s'\n", f->name,
                    (long long)f->lo, (long long)f->hi, val);
            return -1;
        }
        /* Asked for, a cap that cannot hold is an error; by default, a note
         * (spawn.c). */
        const char *why;
        if (!strcmp(f->name, "--limit-mem") && v > 0 && !cgroup_usable(&why)) {
            fprintf(stderr,
                    "arena: --limit-mem cannot be enforced here: %s (--limit-mem 0 runs without)\n",
                    why);
            return -1;
        }
        *int_target(o, f->name) = v;
        return 1;
    }
    case F_CLOCK:
        if (!strcmp(val, "wall"))
            o->clock.mode = CLOCK_WALL;
        else if (!strcmp(val, "cpu"))
            o->clock.mode = CLOCK_CPU;
        else if (!strcmp(val, "fair"))
            o->clock.mode = CLOCK_FAIR;
        else {
            fprintf(stderr, "arena: --clock is 'fair', 'wall' or 'cpu', not '%s'\n", val);
            return -1;
        }
        return 1;
    case F_FAULT:
        if (!strcmp(val, "forfeit"))
            o->on_fault = FAULT_FORFEIT;
        else if (!strcmp(val, "fallback"))
            o->on_fault = FAULT_FALLBACK;
        else {
            fprintf(stderr, "arena: --on-fault is 'forfeit' or 'fallback', not '%s'\n", val);
            return -1;
        }
        return 1;
    case F_SET: {
        const char *e = strchr(val, '=');
        if (!e || e == val) {
            fprintf(stderr, "arena: --set wants KEY=VALUE, not '%s'\n", val);
            return -1;
        }
        if (o->n_settings == RUNOPTS_MAX_SETTINGS) {
            fprintf(stderr, "arena: at most %d --set options\n", RUNOPTS_MAX_SETTINGS);
            return -1;
        }
        /* Key and value are split in place: argv strings are ours to edit. */
        char *kv = (char *)val;
        kv[e - val] = '\0';
        o->settings[o->n_settings].key = kv;
        o->settings[o->n_settings].value = kv + (e - val) + 1;
        o->n_settings++;
        return 1;
    }
    case F_ENV:
        if (!*val || strchr(val, '=')) {
            fprintf(stderr, "arena: --pass-env wants a variable NAME, not '%s'\n", val);
            return -1;
        }
        if (o->n_pass_env == RUNOPTS_MAX_PASS_ENV) {
            fprintf(stderr, "arena: at most %d --pass-env options\n", RUNOPTS_MAX_PASS_ENV);
            return -1;
        }
        o->pass_env[o->n_pass_env++] = val;
        return 1;
    case F_BOOL: break;
    }
    return 0;
}

void run_options_help(FILE *out)
{
    run_options_help_skip(out, NULL);
}

static bool skipped(const char *name, const char *const *skip)
{
    for (size_t i = 0; skip && skip[i]; i++)
        if (!strcmp(skip[i], name)) return true;
    return false;
}

void run_options_help_skip(FILE *out, const char *const *skip)
{
    run_options d;
    run_options_default(&d);
    for (size_t k = 0; k < N_FLAGS; k++) {
        const flag_doc *f = &flags[k];
        if (skipped(f->name, skip)) continue;
        char left[64];
        snprintf(left, sizeof left, "%s%s%s", f->name, f->arg ? " " : "", f->arg ? f->arg : "");
        char dflt[48] = "";
        if (f->kind == F_INT && strcmp(f->name, "--game-ms") != 0) {
            snprintf(dflt, sizeof dflt, " [%lld]", (long long)*int_target(&d, f->name));
        } else if (f->kind == F_CLOCK) {
            snprintf(dflt, sizeof dflt, " [fair]");
        } else if (f->kind == F_FAULT) {
            snprintf(dflt, sizeof dflt, " [forfeit]");
        }
        /* 80 columns: a default that does not fit goes on a line of its own. */
        if (dflt[0] && 31 + strlen(f->help) + strlen(dflt) > 80)
            fprintf(out, "  %-28s %s\n%31s%s\n", left, f->help, "", dflt + 1);
        else
            fprintf(out, "  %-28s %s%s\n", left, f->help, dflt);
    }
    fputs(
        "\nLimits. Where arena may make cgroups (usually as root, in cgroup v1's memory\n"
        "hierarchy, or in v2 below a group that gives its children memory, as systemd's\n"
        "slices do, or in a group delegated to it, as systemd's Delegate=yes makes for\n"
        "any user), each spawned agent gets one: --limit-mem caps the memory of all its\n"
        "processes together, tmpfs and shared memory included, --limit-procs their\n"
        "number, and every process it started dies with it, setsid or not. Under the fair\n"
        "or wall clock without --freeze-idle it also gets one agent's share of the CPU,\n"
        "however many processes it runs; under --freeze-idle it is stopped through its\n"
        "group, at once, and a CPU-timed clock reads the group's CPU time. Elsewhere\n"
        "--limit-mem given is an error, and its default is not enforced (a note says so\n"
        "under --sandbox). Without --sandbox an agent run as root may leave its groups.\n"
        "The other limits are per process, and without a cgroup --limit-procs is\n"
        "RLIMIT_NPROC: every agent of the uid shares it, and root is exempt.\n"
        "ARENA_NO_CGROUPS=1 in the environment: no cgroups, as where none can be made.\n"
        "\nIsolation. Without --sandbox an agent runs as your user with your environment\n"
        "and files: no isolation is promised, only the limits above.\n"
        "With --sandbox (bwrap) each agent gets its own user, PID, network, IPC and UTS\n"
        "namespaces, no capabilities, a new session, and an empty environment but\n" SANDBOX_ENV_DOC
        "\n"
        "and the --pass-env variables. It sees, read-only: /usr, /bin, /lib*, a few /etc\n"
        "files (loader, TLS, time zone, python3*, java-*), the directories of the files\n"
        "its command names and those in PYTHONPATH and NODE_PATH (match logs, results\n"
        "DBs and other agents' programs there are masked). It can write only to a\n"
        "private /tmp and /dev/shm, each a tmpfs (memory) of --limit-tmp MiB.\n"
        "Run by root, arena starts each sandboxed agent as a uid of its own (2000000000 +\n"
        "pid): its own directory and files must be readable by others, their parents\n"
        "need not be. Under --sandbox --limit-procs holds per agent (also set in its own\n"
        "user namespace). With or without --sandbox, agents are the kernel's first pick\n"
        "when memory runs out (oom_score_adj 1000).\n"
        "Stopping arena (Ctrl-C, SIGTERM, SIGHUP, even SIGKILL) kills every agent's\n"
        "process group and cgroup; under --sandbox its whole PID namespace. Without\n"
        "--sandbox or cgroups, a process an agent moves out of its group (setsid)\n"
        "survives arena (while the agent runs it stays in the agent's tree: the fair and\n"
        "cpu clocks charge its CPU).\n",
        out);
}

void run_options_match(const run_options *o, const arena_game_vt *game, match_config *m)
{
    memset(m, 0, sizeof *m);
    m->game = game;
    m->settings = o->settings;
    m->n_settings = o->n_settings;
    m->clock = o->clock;
    m->on_fault = o->on_fault;
    m->max_strikes = (int)o->max_strikes; /* bounded by the flag's range */
}

void run_options_agent(const run_options *o, const char *game, const char *spec, agent_config *a)
{
    memset(a, 0, sizeof *a);
    a->spec = spec;
    a->game = game;
    a->limits = o->limits;
    a->startup_ms = o->clock.startup_ms;
    a->exit_grace_ms = o->exit_grace_ms;
    a->max_frame = (size_t)o->max_frame;
    a->sandbox = o->sandbox;
    a->freeze_idle = o->freeze_idle;
    /* The fair clock counts a start-up's CPU time too: its waits for a CPU
     * are not in schedstat until the task runs, and a hundred interpreters
     * starting at once wait long. */
    a->startup_cpu = o->clock.mode != CLOCK_WALL || o->freeze_idle;
    a->pass_env = o->pass_env;
}

const char *run_options_clock_misfit(const run_options *o, const char *spec)
{
    if (o->clock.mode == CLOCK_CPU && (!strncmp(spec, "tcp:", 4) || !strcmp(spec, "tcp-listen")))
        return "--clock cpu cannot time an agent over TCP: its CPU is on the other end of the "
               "connection (use --clock wall)";
    return NULL;
}
