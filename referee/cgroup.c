#include "cgroup.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "procfile.h"

#define DIR_MAX 512
#define PATH_LEN (DIR_MAX + 320)

static const char *const ctl_name[CGROUP_NCTL] = {"memory", "pids", "cpu", "freezer", "cpuacct"};
/* cgroup v1: <hierarchy mount><our own group>/arena-<pid>, or "" where
 * unused. */
static char home[CGROUP_NCTL][DIR_MAX];
/* cgroup v2, used where v1 has no memory hierarchy: one group per agent in
 * home2, <a delegated group of ours, or the nearest group above ours that
 * gives its children the memory controller>/arena-<pid> (find_home2).
 * Freezing, killing and CPU time are every v2 group's own; memory, pids
 * and cpu are controllers enabled in home2's cgroup.subtree_control, cpu
 * only once an agent asks for it. */
static char home2[DIR_MAX];
static bool cpu2_on;
/* The delegated group home2 is in ("" if none), and the controllers (bits
 * of v2_give) we had it give: undone at the end, so that it may hold
 * processes again. */
static const char *const v2_give[] = {"memory", "pids", "cpu"};
static char deleg[DIR_MAX];
static unsigned deleg_gave;
static int decided; /* 0: not yet, 1: usable, -1: not */
static char why_not[2 * DIR_MAX + 256];
static unsigned last_id;
/* Agents with a cpu group: the weight of the group that holds them. */
static unsigned n_cpu;
/* Groups whose removal found processes still exiting. */
static unsigned *pending;
static size_t n_pending, cap_pending;

/* Whether `ctl` is one of the comma-separated names in `list`. */
static bool has_name(const char *list, size_t n, const char *ctl)
{
    size_t k = strlen(ctl);
    for (const char *p = list, *end = list + n; p < end;) {
        const char *c = memchr(p, ',', (size_t)(end - p));
        size_t w = c ? (size_t)(c - p) : (size_t)(end - p);
        if (w == k && memcmp(p, ctl, k) == 0) return true;
        p += w + 1;
    }
    return false;
}

static bool copy_field(char *dst, size_t len, const char *s, size_t n)
{
    if (n == 0 || n >= len) return false;
    memcpy(dst, s, n);
    dst[n] = '\0';
    return true;
}

bool cgroup_parse_mount(const char *line, const char *ctl, char *mnt, char *root, size_t len)
{
    /* "ID PARENT MAJ:MIN ROOT MOUNT OPTS [TAGS...] - cgroup SOURCE SUPEROPTS" */
    const char *f[5];
    size_t n[5];
    const char *p = line;
    for (int i = 0; i < 5; i++) {
        while (*p == ' ')
            p++;
        f[i] = p;
        p += strcspn(p, " \n");
        n[i] = (size_t)(p - f[i]);
    }
    const char *sep = strstr(p, " - ");
    if (!ctl)
        return sep && strncmp(sep + 3, "cgroup2 ", 8) == 0 && copy_field(root, len, f[3], n[3]) &&
               copy_field(mnt, len, f[4], n[4]);
    if (!sep || strncmp(sep + 3, "cgroup ", 7) != 0) return false;
    const char *opts = strchr(sep + 10, ' ');
    if (!opts) return false;
    opts++;
    if (!has_name(opts, strcspn(opts, " \n"), ctl)) return false;
    return copy_field(root, len, f[3], n[3]) && copy_field(mnt, len, f[4], n[4]);
}

bool cgroup_parse_self(const char *line, const char *ctl, char *path, size_t len)
{
    /* "ID:CONTROLLERS:PATH" */
    const char *a = strchr(line, ':');
    const char *b = a ? strchr(a + 1, ':') : NULL;
    if (!b) return false;
    if (ctl ? !has_name(a + 1, (size_t)(b - a - 1), ctl) : strncmp(line, "0::", 3) != 0)
        return false;
    return copy_field(path, len, b + 1, strcspn(b + 1, "\n"));
}

/* The directory of our own group in ctl's v1 hierarchy (ctl NULL: in the
 * v2 hierarchy), or false; into top (if given, DIR_MAX bytes) the
 * hierarchy's mount point. */
static bool own_group(const char *ctl, char *dir, size_t len, char *top)
{
    char line[1024], mnt[DIR_MAX], root[DIR_MAX], path[DIR_MAX] = "";
    bool found = false;
    FILE *f = fopen("/proc/self/mountinfo", "r");
    if (!f) return false;
    while (!found && fgets(line, sizeof line, f))
        found = cgroup_parse_mount(line, ctl, mnt, root, sizeof mnt);
    fclose(f);
    if (!found || !(f = fopen("/proc/self/cgroup", "r"))) return false;
    found = false;
    while (!found && fgets(line, sizeof line, f))
        found = cgroup_parse_self(line, ctl, path, sizeof path);
    fclose(f);
    if (!found) return false;
    /* A mount of a subtree shows the group's path less that subtree. */
    const char *rel = path;
    size_t rl = strlen(root);
    if (strcmp(root, "/") != 0) {
        if (strncmp(path, root, rl) != 0 || (path[rl] != '/' && path[rl] != '\0')) return false;
        rel += rl;
    }
    int w = snprintf(dir, len, "%s%s", mnt, strcmp(rel, "/") == 0 ? "" : rel);
    if (top) strcpy(top, mnt);
    return w > 0 && (size_t)w < len;
}

/* dir/name into out (PATH_LEN bytes); false if it does not fit. */
static bool path_in(char *out, const char *dir, const char *name)
{
    int w = snprintf(out, PATH_LEN, "%s/%s", dir, name);
    return w > 0 && w < PATH_LEN;
}

/* A signal (SIGCHLD, say) may interrupt a write to a cgroup file: it is
 * tried again, never taken for a failure (one EINTR stopped a whole
 * tournament). */
static int write_file(const char *dir, const char *name, const char *text)
{
    char p[PATH_LEN];
    if (!path_in(p, dir, name)) return errno = ENAMETOOLONG, -1;
    int fd;
    while ((fd = open(p, O_WRONLY | O_CLOEXEC)) < 0 && errno == EINTR) {
    }
    if (fd < 0) return -1;
    ssize_t w;
    while ((w = write(fd, text, strlen(text))) < 0 && errno == EINTR) {
    }
    int e = errno;
    close(fd);
    errno = e;
    return w == (ssize_t)strlen(text) ? 0 : -1;
}

/* The start of dir/name into buf (len bytes), NUL-terminated: its length,
 * or 0 if it could not be read or is empty. */
static size_t read_file(const char *dir, const char *name, char *buf, size_t len)
{
    char p[PATH_LEN];
    int fd = -1;
    if (path_in(p, dir, name))
        while ((fd = open(p, O_RDONLY | O_CLOEXEC)) < 0 && errno == EINTR) {
        }
    if (fd < 0) return 0;
    ssize_t n;
    while ((n = read(fd, buf, len - 1)) < 0 && errno == EINTR) {
    }
    close(fd);
    buf[n > 0 ? n : 0] = '\0';
    return n > 0 ? (size_t)n : 0;
}

/* SIGKILLs each process listed in dir/cgroup.procs; how many were. Only
 * open/read/kill/close: the watchdog calls it too. */
static int kill_listed(const char *dir)
{
    char p[PATH_LEN], buf[4096];
    if (!path_in(p, dir, "cgroup.procs")) return 0;
    int fd = open(p, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return 0;
    int n = 0;
    long pid = 0;
    bool digits = false;
    ssize_t r;
    while ((r = read(fd, buf, sizeof buf)) > 0) {
        for (ssize_t i = 0; i < r; i++) {
            if (buf[i] >= '0' && buf[i] <= '9') {
                pid = pid * 10 + (buf[i] - '0');
                digits = true;
            } else if (digits) {
                if (pid > 0) kill((pid_t)pid, SIGKILL), n++;
                pid = 0;
                digits = false;
            }
        }
    }
    if (digits && pid > 0) kill((pid_t)pid, SIGKILL), n++;
    close(fd);
    return n;
}

/* kill_listed until a pass finds no one, at most three passes: processes
 * forked meanwhile are caught by the next, a fork bomb by pids.max. */
static void kill_all(const char *dir)
{
    for (int pass = 0; pass < 3 && kill_listed(dir) > 0; pass++) {
    }
}

/* Agent id's group in controller c's hierarchy (any c under v2). */
static void group_dir(int c, unsigned id, char *out)
{
    char name[16];
    snprintf(name, sizeof name, "%u", id);
    if (!path_in(out, home2[0] ? home2 : home[c], name)) out[0] = '\0'; /* cannot happen */
}

/* Kills every process in group dir, of either version. v2's cgroup.kill
 * does it in one write, forks under way included (5.14 on); v2's frozen
 * processes die of SIGKILL, v1's only once thawed. */
static void kill_group(const char *dir, bool all)
{
    if (write_file(dir, "cgroup.kill", "1") == 0) return;
    if (all)
        kill_all(dir);
    else
        kill_listed(dir);
    if (!home2[0]) write_file(dir, "freezer.state", "THAWED");
}

/* Kills what is in group id and removes it: true once it is gone. */
static bool remove_group(unsigned id)
{
    char d[PATH_LEN];
    if (home2[0]) {
        group_dir(0, id, d);
        kill_group(d, true);
        return rmdir(d) == 0 || errno == ENOENT;
    }
    for (int c = 0; c < CGROUP_NCTL; c++) {
        if (!home[c][0]) continue;
        group_dir(c, id, d);
        kill_group(d, true);
    }
    bool gone = true;
    for (int c = 0; c < CGROUP_NCTL; c++) {
        if (!home[c][0]) continue;
        group_dir(c, id, d);
        if (rmdir(d) != 0 && errno != ENOENT) gone = false;
    }
    return gone;
}

static void retry_pending(void)
{
    size_t k = 0;
    for (size_t i = 0; i < n_pending; i++)
        if (!remove_group(pending[i])) pending[k++] = pending[i];
    n_pending = k;
}

/* Removes the groups in dir, then dir: with kill, after killing what is in
 * them, retrying for up to wait_ms while processes exit; without, only
 * groups already empty. */
static void sweep_dir(const char *dir, bool kill, int wait_ms)
{
    for (int t = 0;; t++) {
        DIR *d = opendir(dir);
        if (!d) return;
        bool left = false;
        struct dirent *e;
        while ((e = readdir(d))) {
            if (e->d_name[0] < '0' || e->d_name[0] > '9') continue;
            char g[PATH_LEN];
            if (!path_in(g, dir, e->d_name)) continue;
            if (kill) kill_group(g, false);
            if (rmdir(g) != 0 && errno != ENOENT) left = true;
        }
        closedir(d);
        if (!left || t * 10 >= wait_ms) break;
        nanosleep(&(struct timespec){0, 10 * 1000 * 1000}, NULL);
    }
    char leaf[PATH_LEN];
    if (path_in(leaf, dir, "referee")) rmdir(leaf); /* (a delegated group's, emptied) */
    rmdir(dir);
}

/* The end of a delegated group's use, by the referee at exit and by its
 * watchdog after it: takes back the controllers that home2 and deleg gave,
 * moves this process back to deleg, removes the referee's leaf and home2
 * if no one else is in them, and forgets both. */
static void undeleg(void)
{
    if (!deleg[0]) return;
    char v[16], pid[24];
    for (size_t i = 0; i < sizeof v2_give / sizeof *v2_give; i++) {
        if (!(deleg_gave & 1u << i)) continue;
        snprintf(v, sizeof v, "-%s", v2_give[i]);
        write_file(home2, "cgroup.subtree_control", v);
        write_file(deleg, "cgroup.subtree_control", v);
    }
    snprintf(pid, sizeof pid, "%ld", (long)getpid());
    write_file(deleg, "cgroup.procs", pid);
    sweep_dir(home2, false, 0);
    deleg[0] = home2[0] = '\0';
}

void cgroup_sweep(void)
{
    /* v2 has one hierarchy. v1's freezer goes first: its processes, killed
     * and thawed, die there, or each other hierarchy would wait for them in
     * turn. */
    if (home2[0]) sweep_dir(home2, true, 2000);
    undeleg();
    if (home[CGROUP_FREEZER][0]) sweep_dir(home[CGROUP_FREEZER], true, 2000);
    for (int c = 0; c < CGROUP_NCTL; c++)
        if (c != CGROUP_FREEZER && home[c][0]) sweep_dir(home[c], true, 2000);
}

static void at_exit(void)
{
    for (int t = 0; n_pending > 0 && t < 100; t++) {
        retry_pending();
        if (n_pending) nanosleep(&(struct timespec){0, 10 * 1000 * 1000}, NULL);
    }
    for (int c = 0; c < CGROUP_NCTL; c++)
        if (home[c][0]) rmdir(home[c]);
    if (deleg[0])
        undeleg();
    else if (home2[0])
        rmdir(home2);
}

/* Directories arena-<pid> of referees no longer running, beside ours. Their
 * watchdogs killed what was in them; nothing is killed here, since a pid
 * that looks dead may be a live referee of another PID namespace. */
static void sweep_stale(const char *parent)
{
    DIR *d = opendir(parent);
    if (!d) return;
    struct dirent *e;
    while ((e = readdir(d))) {
        char *end;
        if (strncmp(e->d_name, "arena-", 6) != 0) continue;
        long pid = strtol(e->d_name + 6, &end, 10);
        if (*end || pid <= 0) continue;
        /* Our own pid: a dead referee's, since the pid is ours now. */
        if (pid != (long)getpid() && (kill((pid_t)pid, 0) == 0 || errno != ESRCH)) continue;
        char dir[PATH_LEN];
        if (path_in(dir, parent, e->d_name)) sweep_dir(dir, false, 0);
    }
    closedir(d);
}

/* Whether the controller list in dir/file names ctl. */
static bool lists(const char *dir, const char *file, const char *ctl)
{
    char buf[512];
    size_t n = read_file(dir, file, buf, sizeof buf);
    for (size_t i = 0; i < n; i++)
        if (buf[i] == ' ' || buf[i] == '\n') buf[i] = ',';
    return n > 0 && has_name(buf, n, ctl);
}

/* Whether this process is the only one in group dir. */
static bool alone_in(const char *dir)
{
    char buf[256];
    if (!read_file(dir, "cgroup.procs", buf, sizeof buf)) return false;
    char *end;
    return strtol(buf, &end, 10) == (long)getpid() && strcmp(end, "\n") == 0;
}

/* A group of our own that we alone are in, and may write (a systemd unit
 * with Delegate=yes, root's or another user's): home2 goes inside it. It
 * may give controllers only once it holds no process, so the referee moves
 * to a leaf of home2, "referee", first. */
static bool use_deleg(const char *own)
{
    if (!alone_in(own) || !lists(own, "cgroup.controllers", "memory")) return false;
    sweep_stale(own);
    char leaf[PATH_LEN], pid[24];
    snprintf(home2, sizeof home2, "%s/arena-%ld", own, (long)getpid());
    snprintf(pid, sizeof pid, "%ld", (long)getpid());
    snprintf(deleg, sizeof deleg, "%s", own);
    deleg_gave = 0;
    if (mkdir(home2, 0755) != 0 || !path_in(leaf, home2, "referee") || mkdir(leaf, 0755) != 0 ||
        write_file(leaf, "cgroup.procs", pid) != 0)
        goto undo;
    for (size_t i = 0; i < sizeof v2_give / sizeof *v2_give; i++) {
        char v[16];
        snprintf(v, sizeof v, "+%s", v2_give[i]);
        if (!lists(own, "cgroup.controllers", v2_give[i])) continue;
        if (write_file(own, "cgroup.subtree_control", v) == 0)
            deleg_gave |= 1u << i;
        else if (i == 0) /* memory */
            goto undo;
    }
    return true;
undo:
    undeleg();
    return false;
}

/* Has home2 give its agents' groups memory, and pids where it may. */
static bool home2_gives(void)
{
    return write_file(home2, "cgroup.subtree_control", "+memory") == 0 &&
           (!lists(home2, "cgroup.controllers", "pids") ||
            write_file(home2, "cgroup.subtree_control", "+pids") == 0);
}

/* cgroup v2: a group with processes cannot give its children controllers
 * (only the root may), so home2 goes below the nearest group above ours
 * that already gives its children memory, as systemd's slices do; or in
 * our own group, if we are alone in it (use_deleg). */
static bool find_home2(void)
{
    char own[DIR_MAX - 32], top[DIR_MAX], parent[DIR_MAX - 32];
    if (!own_group(NULL, own, sizeof own, top)) {
        snprintf(why_not, sizeof why_not,
                 "no cgroup hierarchy with a memory controller is mounted");
        return false;
    }
    if (strcmp(own, top) != 0 && use_deleg(own)) {
        if (home2_gives()) return true;
        undeleg();
    }
    strcpy(parent, own);
    for (;;) {
        bool is_top = strcmp(parent, top) == 0;
        if ((is_top || strcmp(parent, own) != 0) &&
            lists(parent, "cgroup.subtree_control", "memory"))
            break;
        if (is_top) {
            snprintf(why_not, sizeof why_not,
                     "cgroup v2: no group above ours (%s) gives its children the memory "
                     "controller (systemd's DefaultMemoryAccounting=yes does; by hand: "
                     "+memory +pids into %s/cgroup.subtree_control)",
                     own, top);
            return false;
        }
        char *slash = strrchr(parent, '/');
        if (!slash) return false; /* (own is below top: cannot happen) */
        *slash = '\0';
    }
    sweep_stale(parent);
    snprintf(home2, sizeof home2, "%s/arena-%ld", parent, (long)getpid());
    const char *step = "mkdir";
    if (mkdir(home2, 0755) != 0 && errno != EEXIST) goto fail;
    step = "cgroup.subtree_control";
    if (!home2_gives()) goto fail;
    return true;
fail:
    snprintf(why_not, sizeof why_not, "cannot make a group in %s (%s): %s", parent, step,
             strerror(errno));
    rmdir(home2);
    home2[0] = '\0';
    return false;
}

static void find_homes(void)
{
    const char *off = getenv("ARENA_NO_CGROUPS");
    if (off && *off) { /* the tests' way to the fallbacks of hosts without */
        snprintf(why_not, sizeof why_not, "ARENA_NO_CGROUPS is set");
        decided = -1;
        return;
    }
    for (int c = 0; c < CGROUP_NCTL; c++) {
        char own[DIR_MAX - 32];
        if (!own_group(ctl_name[c], own, sizeof own, NULL)) continue;
        sweep_stale(own);
        snprintf(home[c], sizeof home[c], "%s/arena-%ld", own, (long)getpid());
        if (mkdir(home[c], 0755) != 0 && errno != EEXIST) {
            if (c == CGROUP_MEMORY)
                snprintf(why_not, sizeof why_not, "cannot make a group in %s: %s", own,
                         strerror(errno));
            home[c][0] = '\0';
        }
    }
    if (!home[CGROUP_MEMORY][0]) {
        /* why_not is set if v1's memory hierarchy is there but not ours. */
        bool v1_memory = why_not[0];
        for (int c = 0; c < CGROUP_NCTL; c++) {
            if (home[c][0]) rmdir(home[c]);
            home[c][0] = '\0';
        }
        if (v1_memory || !find_home2()) {
            decided = -1;
            return;
        }
    }
    atexit(at_exit);
    decided = 1;
}

bool cgroup_usable(const char **why)
{
    if (!decided) find_homes();
    if (why) *why = decided > 0 ? NULL : why_not;
    return decided > 0;
}

/* The group that holds the agents' cpu groups weighs as many agents as it
 * holds, each as much as a process of the default weight beside it:
 * of the default weight, it weighed as one process against the rest of
 * the host, and 200 starting interpreters shared one CPU's worth (all of
 * 100 Python bots missed a 5 s startup_ms beside 4 spinning processes). */
static void weigh_cpu(int delta)
{
    n_cpu = delta < 0 && n_cpu == 0 ? 0 : n_cpu + (unsigned)delta;
    char v[32];
    unsigned n = n_cpu ? n_cpu : 1;
    if (home2[0]) {
        if (!cpu2_on) return;
        /* cpu.weight: 100 a default process, at most 10000. */
        snprintf(v, sizeof v, "%u", n > 100 ? 10000 : n * 100);
        write_file(home2, "cpu.weight", v);
    } else if (home[CGROUP_CPU][0]) {
        /* cpu.shares: 1024 a default process, at most 262144. */
        snprintf(v, sizeof v, "%u", n > 256 ? 262144 : n * 1024);
        write_file(home[CGROUP_CPU], "cpu.shares", v);
    }
}

unsigned cgroup_cpu_weight(void)
{
    char buf[32];
    if (home2[0] && cpu2_on && read_file(home2, "cpu.weight", buf, sizeof buf))
        return (unsigned)strtoul(buf, NULL, 10) / 100;
    if (!home2[0] && home[CGROUP_CPU][0] &&
        read_file(home[CGROUP_CPU], "cpu.shares", buf, sizeof buf))
        return (unsigned)strtoul(buf, NULL, 10) / 1024;
    return 0;
}

/* cgroup_open's v2 half: one group, in home2. */
static int open_v2(agent_cgroup *cg, int64_t mem_mb, int64_t procs, unsigned want, char *err,
                   size_t errlen)
{
    char d[PATH_LEN], v[32];
    const char *step = "cgroup.subtree_control";
    /* Once on, for every later agent too: a group's controllers are its
     * parent's to give. */
    if ((want & 1u << CGROUP_CPU) && !cpu2_on && lists(home2, "cgroup.controllers", "cpu"))
        cpu2_on = write_file(home2, step, "+cpu") == 0;
    group_dir(0, cg->id, d);
    step = "mkdir";
    if (mkdir(d, 0755) != 0) goto fail;
    if ((want & 1u << CGROUP_CPU) && cpu2_on) {
        cg->cpu = true;
        weigh_cpu(1);
    }
    if (mem_mb > 0) {
        snprintf(v, sizeof v, "%lld", (long long)mem_mb << 20);
        step = "memory.max";
        if (write_file(d, step, v) != 0) goto fail;
        /* With swap accounting: none, so that the cap holds for memory plus
         * swap, as v1's memsw does. */
        step = "memory.swap.max";
        if (write_file(d, step, "0") != 0 && errno != ENOENT) goto fail;
    }
    if (procs > 0) {
        snprintf(v, sizeof v, "%lld", (long long)procs);
        step = "pids.max";
        if (write_file(d, step, v) != 0 && errno != ENOENT) goto fail;
    }
    char p[PATH_LEN];
    step = "cgroup.procs";
    cg->procs_fd[0] = path_in(p, d, step) ? open(p, O_WRONLY | O_CLOEXEC) : -1;
    if (cg->procs_fd[0] >= 0) return 0;
fail:
    snprintf(err, errlen, "cannot set up the agent's cgroup (%s, %s): %s", d, step,
             strerror(errno));
    cgroup_close(cg);
    return -1;
}

int cgroup_open(agent_cgroup *cg, int64_t mem_mb, int64_t procs, unsigned want, char *err,
                size_t errlen)
{
    cg->id = 0;
    cg->cpu = false;
    cg->usage_fd = -2;
    for (int c = 0; c < CGROUP_NCTL; c++)
        cg->procs_fd[c] = -1;
    if (!cgroup_usable(NULL)) {
        snprintf(err, errlen, "no cgroup for the agent: %s", why_not);
        return -1;
    }
    if (n_pending) retry_pending();
    cg->id = ++last_id;
    if (home2[0]) return open_v2(cg, mem_mb, procs, want, err, errlen);
    for (int c = 0; c < CGROUP_NCTL; c++) {
        bool optional = c != CGROUP_MEMORY && c != CGROUP_PIDS;
        if (!home[c][0] || (optional && !(want & (1u << c)))) continue;
        char d[PATH_LEN], v[32];
        group_dir(c, cg->id, d);
        const char *step = "mkdir";
        if (mkdir(d, 0755) != 0) goto fail;
        if (c == CGROUP_CPU) {
            cg->cpu = true;
            weigh_cpu(1);
        }
        if (c == CGROUP_MEMORY && mem_mb > 0) {
            snprintf(v, sizeof v, "%lld", (long long)mem_mb << 20);
            step = "memory.limit_in_bytes";
            if (write_file(d, step, v) != 0) goto fail;
            /* With swap accounting: the cap holds for memory plus swap. */
            step = "memory.memsw.limit_in_bytes";
            if (write_file(d, step, v) != 0 && errno != ENOENT) goto fail;
        }
        if (c == CGROUP_PIDS) {
            if (procs > 0)
                snprintf(v, sizeof v, "%lld", (long long)procs);
            else
                snprintf(v, sizeof v, "max");
            step = "pids.max";
            if (write_file(d, step, v) != 0) goto fail;
        }
        char p[PATH_LEN];
        step = "cgroup.procs";
        cg->procs_fd[c] = path_in(p, d, step) ? open(p, O_WRONLY | O_CLOEXEC) : -1;
        if (cg->procs_fd[c] < 0) goto fail;
        continue;
    fail:
        snprintf(err, errlen, "cannot set up the agent's cgroup (%s, %s): %s", d, step,
                 strerror(errno));
        cgroup_close(cg);
        return -1;
    }
    return 0;
}

int cgroup_enter(const agent_cgroup *cg)
{
    if (!cg->id) return 0;
    for (int c = 0; c < CGROUP_NCTL; c++) {
        if (cg->procs_fd[c] < 0) continue;
        ssize_t w;
        while ((w = write(cg->procs_fd[c], "0", 1)) < 0 && errno == EINTR) {
        }
        if (w != 1) return -1;
    }
    return 0;
}

void cgroup_entered(agent_cgroup *cg)
{
    for (int c = 0; c < CGROUP_NCTL; c++) {
        if (cg->id && cg->procs_fd[c] >= 0) close(cg->procs_fd[c]);
        cg->procs_fd[c] = -1;
    }
}

long cgroup_oom_kills(const agent_cgroup *cg)
{
    if (!cg->id) return 0;
    char d[PATH_LEN], p[PATH_LEN], line[128];
    group_dir(CGROUP_MEMORY, cg->id, d);
    FILE *f =
        path_in(p, d, home2[0] ? "memory.events" : "memory.oom_control") ? fopen(p, "re") : NULL;
    if (!f) return 0;
    long n = 0;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "oom_kill %ld", &n) == 1) break;
    fclose(f);
    return n;
}

int64_t cgroup_mem_peak(const agent_cgroup *cg)
{
    if (!cg->id) return -1;
    char d[PATH_LEN], p[PATH_LEN];
    group_dir(CGROUP_MEMORY, cg->id, d);
    FILE *f = path_in(p, d, home2[0] ? "memory.peak" : "memory.max_usage_in_bytes") ? fopen(p, "re")
                                                                                    : NULL;
    if (!f) return -1;
    long long v = -1;
    if (fscanf(f, "%lld", &v) != 1) v = -1;
    fclose(f);
    return v;
}

bool cgroup_freeze(const agent_cgroup *cg, bool frozen)
{
    if (!cg->id || !(home2[0] || home[CGROUP_FREEZER][0])) return false;
    char d[PATH_LEN];
    group_dir(CGROUP_FREEZER, cg->id, d);
    if (home2[0]) return write_file(d, "cgroup.freeze", frozen ? "1" : "0") == 0;
    return write_file(d, "freezer.state", frozen ? "FROZEN" : "THAWED") == 0;
}

double cgroup_cpu_ms(agent_cgroup *cg)
{
    if (!cg->id || !(home2[0] || home[CGROUP_CPUACCT][0])) return -1;
    /* Read twice a decision by the cpu and fair clocks: kept open, read
     * again from the top (opening it cost as much as reading it). */
    if (cg->usage_fd == -2) {
        char d[PATH_LEN], p[PATH_LEN];
        group_dir(CGROUP_CPUACCT, cg->id, d);
        if (path_in(p, d, home2[0] ? "cpu.stat" : "cpuacct.usage"))
            procfile_keep(&cg->usage_fd, p);
        else
            cg->usage_fd = -1;
    }
    char buf[256];
    if (!procfile_read(cg->usage_fd, buf, sizeof buf)) return -1;
    /* v1: nanoseconds; v2: "usage_usec N" first of cpu.stat's lines. */
    const char *num = buf;
    if (home2[0]) {
        if (strncmp(buf, "usage_usec ", 11) != 0) return -1;
        num += 11;
    }
    char *end;
    unsigned long long v = strtoull(num, &end, 10);
    if (end == num) return -1;
    return home2[0] ? (double)v / 1e3 : (double)v / 1e6;
}

void cgroup_kill(const agent_cgroup *cg)
{
    if (!cg->id) return;
    char d[PATH_LEN];
    group_dir(home[CGROUP_PIDS][0] ? CGROUP_PIDS : CGROUP_MEMORY, cg->id, d);
    kill_group(d, true);
    cgroup_freeze(cg, false); /* v1: the freezer's own group */
}

void cgroup_close(agent_cgroup *cg)
{
    if (!cg->id) return;
    cgroup_entered(cg);
    if (cg->usage_fd >= 0) close(cg->usage_fd);
    cg->usage_fd = -2;
    if (cg->cpu) weigh_cpu(-1);
    cg->cpu = false;
    if (!remove_group(cg->id)) {
        if (n_pending == cap_pending) {
            size_t cap = cap_pending ? 2 * cap_pending : 16;
            unsigned *more = realloc(pending, cap * sizeof *more);
            if (more) pending = more, cap_pending = cap;
        }
        if (n_pending < cap_pending) pending[n_pending++] = cg->id;
    }
    cg->id = 0;
}
