#include "sandbox.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util.h"

typedef struct strv {
    char **v;
    size_t n, cap;
} strv;

static void strv_add(strv *s, const char *x)
{
    if (s->n + 2 > s->cap) {
        s->cap = s->cap ? s->cap * 2 : 64;
        s->v = xrealloc(s->v, s->cap * sizeof *s->v);
    }
    s->v[s->n++] = xstrdup(x);
    s->v[s->n] = NULL;
}

static void strv_add3(strv *s, const char *a, const char *b, const char *c)
{
    strv_add(s, a);
    strv_add(s, b);
    if (c) strv_add(s, c);
}

static bool strv_has(const strv *s, const char *x)
{
    for (size_t i = 0; i < s->n; i++)
        if (!strcmp(s->v[i], x)) return true;
    return false;
}

static strv hidden;

void sandbox_hide_reset(void)
{
    sandbox_argv_free(hidden.v);
    memset(&hidden, 0, sizeof hidden);
}

/* An absolute path for p, resolved as far as it exists. */
static char *absolute(const char *p)
{
    char real[PATH_MAX];
    if (realpath(p, real)) return xstrdup(real);
    if (p[0] == '/') return xstrdup(p);
    char cwd[PATH_MAX];
    if (!getcwd(cwd, sizeof cwd)) return xstrdup(p);
    return xasprintf("%s/%s", cwd, p);
}

void sandbox_hide(const char *path)
{
    char *a = absolute(path);
    if (!strv_has(&hidden, a)) strv_add(&hidden, a);
    free(a);
}

void sandbox_hide_db(const char *path)
{
    sandbox_hide(path);
    const char *suffix[] = {"-wal", "-shm", "-journal"};
    for (size_t i = 0; i < 3; i++) {
        char *p = xasprintf("%s%s", path, suffix[i]);
        sandbox_hide(p);
        free(p);
    }
}

/* The existing regular files named by the words of a command line. */
static void named_files(const char *command, strv *out)
{
    char *words = xstrdup(command);
    for (char *save, *w = strtok_r(words, " \t'\"", &save); w;
         w = strtok_r(NULL, " \t'\"", &save)) {
        char real[PATH_MAX];
        struct stat st;
        if (!realpath(w, real) || stat(real, &st) != 0 || !S_ISREG(st.st_mode)) continue;
        if (!strv_has(out, real)) strv_add(out, real);
    }
    free(words);
}

void sandbox_hide_agent(const char *spec)
{
    if (!strncmp(spec, "builtin:", 8) || !strncmp(spec, "tcp:", 4)) return;
    strv files = {0};
    named_files(!strncmp(spec, "cmd:", 4) ? spec + 4 : spec, &files);
    for (size_t i = 0; i < files.n; i++)
        sandbox_hide(files.v[i]);
    sandbox_argv_free(files.v);
}

/* under("/a/b", "/a") and under("/a", "/a"), not under("/ab", "/a"). */
static bool under(const char *path, const char *dir)
{
    size_t n = strlen(dir);
    if (n == 1 && dir[0] == '/') return true;
    return !strncmp(path, dir, n) && (path[n] == '/' || path[n] == 0);
}

/* System directories, read-only. /etc is not bound whole (it may hold
 * credentials, host names, service configs): only what the dynamic loader,
 * interpreters and TLS need. */
static const char *const system_dirs[] = {"/usr",   "/bin",   "/sbin",  "/lib",
                                          "/lib32", "/lib64", "/libx32"};
static const char *const etc_paths[] = {
    "/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d",  "/etc/alternatives",
    "/etc/ssl",         "/etc/localtime",  "/etc/nsswitch.conf", "/etc/mime.types",
};
/* Language runtimes' configuration, versioned (/etc/python3.11,
 * /etc/java-17-openjdk: the JVM reads its jvm.cfg there). */
static const char *const etc_prefixes[] = {"python3", "java-"};

static void bind_etc_runtimes(strv *s)
{
    DIR *d = opendir("/etc");
    if (!d) return;
    struct dirent *e;
    while ((e = readdir(d))) {
        for (size_t i = 0; i < sizeof etc_prefixes / sizeof etc_prefixes[0]; i++) {
            if (strncmp(e->d_name, etc_prefixes[i], strlen(etc_prefixes[i])) != 0) continue;
            char *p = xasprintf("/etc/%s", e->d_name);
            strv_add3(s, "--ro-bind", p, p);
            free(p);
            break;
        }
    }
    closedir(d);
}

static void bind_system(strv *s)
{
    for (size_t i = 0; i < sizeof system_dirs / sizeof system_dirs[0]; i++) {
        const char *d = system_dirs[i];
        char target[PATH_MAX];
        ssize_t n = readlink(d, target, sizeof target - 1);
        if (n > 0) { /* merged /usr: /bin -> usr/bin */
            target[n] = 0;
            strv_add3(s, "--symlink", target, d);
        } else {
            strv_add3(s, "--ro-bind-try", d, d);
        }
    }
    for (size_t i = 0; i < sizeof etc_paths / sizeof etc_paths[0]; i++)
        strv_add3(s, "--ro-bind-try", etc_paths[i], etc_paths[i]);
    bind_etc_runtimes(s);
}

/* The directories of the files the command names (the file alone when it
 * sits in "/"): the program and its sibling modules, read-only. Files under
 * the system directories are there already. */
static void program_dirs(const char *command, strv *dirs)
{
    strv files = {0};
    named_files(command, &files);
    for (size_t i = 0; i < files.n; i++) {
        char *d = xstrdup(files.v[i]);
        char *slash = strrchr(d, '/');
        if (slash && slash != d) *slash = 0;
        if (slash == d) { /* keep the file itself */
            free(d);
            d = xstrdup(files.v[i]);
        }
        bool system = false;
        for (size_t k = 0; k < sizeof system_dirs / sizeof system_dirs[0]; k++)
            system |= under(d, system_dirs[k]);
        if (!system && !strv_has(dirs, d)) strv_add(dirs, d);
        free(d);
    }
    sandbox_argv_free(files.v);
}

/* A command's word as an absolute path, symlinks left as named; NULL when
 * ".." would make the kernel's reading (through a link) differ from the
 * text's. */
static char *as_named(const char *w)
{
    if (strstr(w, "..")) return NULL;
    char cwd[PATH_MAX];
    if (w[0] != '/' && !getcwd(cwd, sizeof cwd)) return NULL;
    char *raw = w[0] == '/' ? xstrdup(w) : xasprintf("%s/%s", cwd, w);
    /* "." and empty components dropped: "./bot.py" names the cwd itself */
    char *out = xmalloc(strlen(raw) + 2), *o = out;
    for (char *save, *c = strtok_r(raw, "/", &save); c; c = strtok_r(NULL, "/", &save))
        if (strcmp(c, ".") != 0) o += sprintf(o, "/%s", c);
    if (o == out) strcpy(out, "/");
    free(raw);
    return out;
}

/* Directories the command reaches through a symlink (cmd:python3
 * link/bot.py with link -> real): the real directory is bound by
 * program_dirs, but the command opens the path as it names it, so the
 * directory is bound there too. src[i] is the real directory, dst[i] the
 * named one. */
static void linked_dirs(const char *command, strv *src, strv *dst)
{
    char *words = xstrdup(command);
    for (char *save, *w = strtok_r(words, " \t'\"", &save); w;
         w = strtok_r(NULL, " \t'\"", &save)) {
        char real[PATH_MAX], rdir[PATH_MAX];
        struct stat st;
        if (!realpath(w, real) || stat(real, &st) != 0 || !S_ISREG(st.st_mode)) continue;
        char *named = as_named(w);
        if (!named) continue;
        char *slash = strrchr(named, '/');
        if (slash && slash != named) *slash = 0;
        bool system = false;
        for (size_t k = 0; k < sizeof system_dirs / sizeof system_dirs[0]; k++)
            system |= under(named, system_dirs[k]);
        if (slash && slash != named && !system && realpath(named, rdir) &&
            strcmp(rdir, named) != 0 && !strv_has(dst, named)) {
            strv_add(src, rdir);
            strv_add(dst, named);
        }
        free(named);
    }
    free(words);
}

/* The directories listed in $name (PYTHONPATH, NODE_PATH: where the SDKs
 * are found, as docs/writing-a-bot.md sets them up). */
static void module_dirs(const char *name, strv *dirs)
{
    const char *v = getenv(name);
    if (!v) return;
    char *list = xstrdup(v);
    for (char *save, *e = strtok_r(list, ":", &save); e; e = strtok_r(NULL, ":", &save)) {
        char real[PATH_MAX];
        struct stat st;
        if (!realpath(e, real) || stat(real, &st) != 0 || !S_ISDIR(st.st_mode) ||
            !strcmp(real, "/"))
            continue;
        bool system = false;
        for (size_t k = 0; k < sizeof system_dirs / sizeof system_dirs[0]; k++)
            system |= under(real, system_dirs[k]);
        if (!system && !strv_has(dirs, real)) strv_add(dirs, real);
    }
    free(list);
}

void sandbox_stage_free(sandbox_stage *stage)
{
    for (int i = 0; i < stage->n; i++)
        free(stage->path[i]);
    stage->n = 0;
}

/* Lists path in the stage and returns where bwrap finds it, or NULL with
 * err. The agent's uid is not the owner: "other" must be able to read. */
static const char *stage_add(sandbox_stage *stage, const char *path, char *err, size_t errlen)
{
    if (stage->n == SANDBOX_MAX_STAGED) {
        snprintf(err, errlen, "--sandbox: more than %d directories to show the agent",
                 SANDBOX_MAX_STAGED);
        return NULL;
    }
    struct stat st;
    if (stat(path, &st) != 0) {
        snprintf(err, errlen, "--sandbox: cannot show the agent '%s': %s", path, strerror(errno));
        return NULL;
    }
    bool dir = S_ISDIR(st.st_mode);
    mode_t need = dir ? S_IROTH | S_IXOTH : S_IROTH;
    if ((st.st_mode & need) != need) {
        snprintf(err, errlen,
                 "--sandbox: '%s' (mode %04o) is not readable by other users, and the sandboxed "
                 "agent runs as a uid of its own: chmod o+r%s it",
                 path, (unsigned)(st.st_mode & 07777), dir ? "x" : "");
        return NULL;
    }
    int i = stage->n++;
    stage->path[i] = xstrdup(path);
    stage->dir[i] = dir;
    snprintf(stage->at[i], sizeof stage->at[i], "%s/%d", SANDBOX_STAGE, i);
    return stage->at[i];
}

/* "/proc/self/fd/FD" into out[32], without stdio (async-signal-safe). */
static void fd_path(char *out, int fd)
{
    static const char prefix[] = "/proc/self/fd/";
    memcpy(out, prefix, sizeof prefix - 1);
    char digits[12];
    int n = 0;
    do {
        digits[n++] = (char)('0' + fd % 10);
        fd /= 10;
    } while (fd > 0);
    char *p = out + sizeof prefix - 1;
    while (n > 0)
        *p++ = digits[--n];
    *p = 0;
}

int sandbox_stage_enter(const sandbox_stage *stage)
{
    /* Private, so nothing mounted here reaches the host's namespace. The
     * sources are opened in this namespace (a bind from another one is
     * refused) before the stage covers any of them. */
    if (unshare(CLONE_NEWNS) != 0 || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0)
        return -1;
    int fd[SANDBOX_MAX_STAGED];
    for (int i = 0; i < stage->n; i++)
        if ((fd[i] = open(stage->path[i], O_PATH | O_CLOEXEC)) < 0) return -1;
    if (mount("arena-stage", SANDBOX_STAGE, "tmpfs", MS_NOSUID | MS_NODEV, "mode=0755") != 0)
        return -1;
    for (int i = 0; i < stage->n; i++) {
        if (stage->dir[i]) {
            if (mkdir(stage->at[i], 0755) != 0) return -1;
        } else {
            int f = open(stage->at[i], O_CREAT | O_WRONLY | O_CLOEXEC, 0644);
            if (f < 0) return -1;
            close(f);
        }
        char from[32];
        fd_path(from, fd[i]);
        if (mount(from, stage->at[i], NULL, MS_BIND | MS_REC, NULL) != 0) return -1;
        close(fd[i]);
    }
    return 0;
}

/* A tmpfs at `at` of tmp_mb MiB (0: the kernel's default, half the RAM).
 * Its pages are memory no rlimit counts, and the OOM killer cannot free them
 * by killing any one process: unbounded, one agent could fill the RAM. */
static void add_tmpfs(strv *s, const char *at, int64_t tmp_mb)
{
    if (tmp_mb > 0) {
        char bytes[32];
        snprintf(bytes, sizeof bytes, "%lld", (long long)tmp_mb << 20);
        strv_add3(s, "--size", bytes, NULL);
    }
    strv_add3(s, "--tmpfs", at, NULL);
}

char **sandbox_argv(const char *const *inner, const char *command, const char *const *pass_env,
                    int64_t nproc, int64_t tmp_mb, sandbox_stage *stage, char *err, size_t errlen)
{
    strv s = {0};
    strv_add(&s, "bwrap");
    /* Own user, PID, network, IPC, UTS and cgroup namespaces; no
     * capabilities even inside them; a new session (no terminal to inject
     * into); killed with its parent, which is the referee. */
    /* No user namespace of its own inside: in one, the agent could mount a
     * tmpfs no --limit-tmp bounds (`unshare -Urm`), or rearrange its mounts.
     * --disable-userns (bwrap 0.8) needs the user namespace made, not tried. */
    const char *ns[] = {"--unshare-all",
                        "--unshare-user",
                        "--disable-userns",
                        "--die-with-parent",
                        "--new-session",
                        "--cap-drop",
                        "ALL",
                        "--clearenv"};
    for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++)
        strv_add(&s, ns[i]);
    strv_add3(&s, "--setenv", "PATH", "/usr/local/bin:/usr/bin:/bin");
    strv_add3(&s, "--setenv", "HOME", "/tmp");
    const char *keep[] = {"LANG", "LC_ALL", "TZ", "PYTHONPATH", "NODE_PATH"};
    for (size_t i = 0; i < sizeof keep / sizeof keep[0]; i++)
        if (getenv(keep[i])) strv_add3(&s, "--setenv", keep[i], getenv(keep[i]));
    for (size_t i = 0; pass_env && pass_env[i]; i++)
        if (getenv(pass_env[i])) strv_add3(&s, "--setenv", pass_env[i], getenv(pass_env[i]));
    bind_system(&s);
    strv_add3(&s, "--proc", "/proc", NULL);
    /* bwrap's /dev is a tmpfs of its own: read-only but for a bounded
     * /dev/shm (POSIX shared memory and semaphores live there). */
    strv_add3(&s, "--dev", "/dev", NULL);
    add_tmpfs(&s, "/dev/shm", tmp_mb);
    strv_add3(&s, "--remount-ro", "/dev", NULL);
    add_tmpfs(&s, "/tmp", tmp_mb);

    /* The working directory exists (empty unless a program lives there), so
     * relative program paths resolve as they do outside. */
    char cwd[PATH_MAX];
    bool have_cwd = getcwd(cwd, sizeof cwd) != NULL;
    if (have_cwd) strv_add3(&s, "--dir", cwd, NULL);
    strv dirs = {0}, own = {0}, lsrc = {0}, ldst = {0};
    program_dirs(command, &dirs);
    linked_dirs(command, &lsrc, &ldst);
    module_dirs("PYTHONPATH", &dirs);
    module_dirs("NODE_PATH", &dirs);
    named_files(command, &own);
    int rc = 0;
    if (stage) stage->n = 0;
    for (size_t i = 0; i < dirs.n && rc == 0; i++) {
        const char *from = stage ? stage_add(stage, dirs.v[i], err, errlen) : dirs.v[i];
        if (from)
            strv_add3(&s, "--ro-bind", from, dirs.v[i]);
        else
            rc = -1;
    }
    for (size_t i = 0; i < lsrc.n && rc == 0; i++) {
        const char *from = stage ? stage_add(stage, lsrc.v[i], err, errlen) : lsrc.v[i];
        if (from)
            strv_add3(&s, "--ro-bind", from, ldst.v[i]);
        else
            rc = -1;
    }
    /* Private paths inside those directories: masked, except the agent's
     * own files, where the real directory is bound and where a link's is.
     * A path that does not exist yet cannot be masked. */
    for (size_t h = 0; h < hidden.n && rc == 0; h++) {
        const char *p = hidden.v[h];
        bool inside = false;
        for (size_t i = 0; i < dirs.n; i++)
            inside |= under(p, dirs.v[i]);
        for (size_t i = 0; i < lsrc.n && !strv_has(&own, p); i++)
            if (under(p, lsrc.v[i])) {
                char *at = xasprintf("%s%s", ldst.v[i], p + strlen(lsrc.v[i]));
                struct stat st;
                if (stat(p, &st) == 0 && S_ISDIR(st.st_mode)) {
                    strv_add3(&s, "--tmpfs", at, NULL);
                    strv_add3(&s, "--remount-ro", at, NULL);
                } else if (stat(p, &st) == 0) {
                    strv_add3(&s, "--ro-bind", "/dev/null", at);
                }
                free(at);
                inside = true; /* a path not there yet is refused below */
            }
        if (!inside || strv_has(&own, p)) continue;
        struct stat st;
        if (stat(p, &st) != 0) {
            snprintf(err, errlen,
                     "--sandbox: the agent's directory would show '%s' (private to the referee); "
                     "keep bots in directories of their own",
                     p);
            rc = -1;
        } else if (S_ISDIR(st.st_mode)) {
            strv_add3(&s, "--tmpfs", p, NULL);
            strv_add3(&s, "--remount-ro", p, NULL);
        } else {
            strv_add3(&s, "--ro-bind", "/dev/null", p);
        }
    }
    /* The rest of the tree (the working directory, mount points) is bwrap's
     * scratch root: read-only, so nothing written there looks saved. */
    strv_add3(&s, "--remount-ro", "/", NULL);
    if (have_cwd) strv_add3(&s, "--chdir", cwd, NULL);
    sandbox_argv_free(dirs.v);
    sandbox_argv_free(own.v);
    sandbox_argv_free(lsrc.v);
    sandbox_argv_free(ldst.v);
    if (rc) {
        if (stage) sandbox_stage_free(stage);
        sandbox_argv_free(s.v);
        return NULL;
    }
    strv_add(&s, "--");
    /* RLIMIT_NPROC counts the processes of a uid in a user namespace: set
     * inside the agent's own namespace, it bounds this agent alone even when
     * every agent runs as the same uid outside. */
    if (nproc > 0) {
        char v[64];
        snprintf(v, sizeof v, "--nproc=%lld:%lld", (long long)nproc, (long long)nproc);
        strv_add3(&s, "prlimit", v, "--");
    }
    for (size_t i = 0; inner[i]; i++)
        strv_add(&s, inner[i]);
    return s.v;
}

void sandbox_argv_free(char **argv)
{
    for (size_t i = 0; argv && argv[i]; i++)
        free(argv[i]);
    free(argv);
}
