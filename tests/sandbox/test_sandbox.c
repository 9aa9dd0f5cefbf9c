/* The bwrap command line of --sandbox (referee/sandbox.c) and the
 * --pass-env flag: what is bound, masked, kept in the environment. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "runopts.h"
#include "sandbox.h"
#include "util.h"

static char dir[] = "/tmp/arena-test-sandbox-XXXXXX";

static void touch(const char *name)
{
    char *p = xasprintf("%s/%s", dir, name);
    FILE *f = fopen(p, "w");
    assert_non_null(f);
    fclose(f);
    free(p);
}

static int setup(void **st)
{
    (void)st;
    if (!mkdtemp(dir)) return -1;
    touch("bot.py");
    touch("other.py");
    char *logs = xasprintf("%s/logs", dir);
    mkdir(logs, 0755);
    free(logs);
    return 0;
}

static int teardown(void **st)
{
    (void)st;
    char *cmd = xasprintf("rm -rf '%s'", dir);
    int rc = system(cmd);
    free(cmd);
    sandbox_hide_reset();
    return rc == 0 ? 0 : -1;
}

/* Index of the first occurrence of a, b (consecutive) in argv, or -1. */
static int find2(char **argv, const char *a, const char *b)
{
    for (int i = 0; argv[i]; i++)
        if (!strcmp(argv[i], a) && (!b || (argv[i + 1] && !strcmp(argv[i + 1], b)))) return i;
    return -1;
}

static char **build(const char *const *pass_env, int64_t nproc, char *err, size_t errlen)
{
    char *command = xasprintf("python3 %s/bot.py --fast", dir);
    const char *inner[] = {"/bin/sh", "-c", "exec x", NULL};
    char **argv = sandbox_argv(inner, command, pass_env, nproc, 64, NULL, err, errlen);
    free(command);
    return argv;
}

static void test_namespaces_caps_session(void **st)
{
    (void)st;
    char err[256];
    char **a = build(NULL, 0, err, sizeof err);
    assert_non_null(a);
    assert_string_equal(a[0], "bwrap");
    assert_true(find2(a, "--unshare-all", NULL) > 0);
    /* no nested user namespace: its own tmpfs would pass --limit-tmp */
    assert_true(find2(a, "--unshare-user", NULL) > 0);
    assert_true(find2(a, "--disable-userns", NULL) > 0);
    assert_true(find2(a, "--die-with-parent", NULL) > 0);
    assert_true(find2(a, "--new-session", NULL) > 0);
    assert_true(find2(a, "--cap-drop", "ALL") > 0);
    assert_true(find2(a, "--remount-ro", "/") > 0);
    /* The writable places are tmpfs of --limit-tmp (64 MiB here): memory
     * that no rlimit counts. bwrap's /dev is one more, made read-only. */
    int tmp = find2(a, "--tmpfs", "/tmp"), shm = find2(a, "--tmpfs", "/dev/shm");
    assert_true(tmp > 2 && shm > 2);
    for (int k = 0; k < 2; k++) {
        int at = k ? shm : tmp;
        assert_string_equal(a[at - 2], "--size");
        assert_string_equal(a[at - 1], "67108864");
    }
    assert_true(find2(a, "--remount-ro", "/dev") > find2(a, "--dev", "/dev"));
    /* The host root is never bound, nor /etc as a whole, nor /home. */
    assert_int_equal(find2(a, "/", "/"), -1);
    assert_int_equal(find2(a, "/etc", "/etc"), -1);
    assert_int_equal(find2(a, "--ro-bind", "/home"), -1);
    /* No process limit asked: no prlimit. */
    assert_int_equal(find2(a, "prlimit", NULL), -1);
    sandbox_argv_free(a);
}

static void test_environment_is_an_allowlist(void **st)
{
    (void)st;
    setenv("ARENA_T_SECRET", "hunter2", 1);
    setenv("ARENA_T_PASSED", "yes", 1);
    char err[256];
    char **a = build(NULL, 0, err, sizeof err);
    assert_true(find2(a, "--clearenv", NULL) > 0);
    assert_true(find2(a, "HOME", "/tmp") > 0);
    assert_int_equal(find2(a, "ARENA_T_SECRET", NULL), -1);
    assert_int_equal(find2(a, "ARENA_T_PASSED", NULL), -1);
    sandbox_argv_free(a);
    const char *pass[] = {"ARENA_T_PASSED", "ARENA_T_UNSET", NULL};
    a = build(pass, 0, err, sizeof err);
    int i = find2(a, "ARENA_T_PASSED", "yes");
    assert_true(i > 0 && !strcmp(a[i - 1], "--setenv"));
    assert_int_equal(find2(a, "ARENA_T_UNSET", NULL), -1);
    assert_int_equal(find2(a, "ARENA_T_SECRET", NULL), -1);
    sandbox_argv_free(a);
}

static void test_program_dir_bound_private_paths_masked(void **st)
{
    (void)st;
    char err[256];
    char *logs = xasprintf("%s/logs", dir), *bot = xasprintf("%s/bot.py", dir),
         *other = xasprintf("%s/other.py", dir);
    sandbox_hide(logs);
    sandbox_hide_agent(bot); /* its own file: stays visible to itself */
    char *spec = xasprintf("cmd:python3 %s", other);
    sandbox_hide_agent(spec);
    char **a = build(NULL, 0, err, sizeof err);
    assert_non_null(a);
    int b = find2(a, "--ro-bind", dir);
    assert_true(b > 0);
    assert_string_equal(a[b + 2], dir);
    int t = find2(a, "--tmpfs", logs);
    int o = find2(a, "/dev/null", other);
    assert_true(t > b && o > b);                     /* masks come after the bind they cover */
    assert_true(find2(a, "--remount-ro", logs) > t); /* and hold nothing */
    assert_string_equal(a[o - 1], "--ro-bind");
    assert_int_equal(find2(a, "/dev/null", bot), -1);
    sandbox_argv_free(a);
    /* A private path that does not exist yet cannot be masked: refused. */
    char *db = xasprintf("%s/results.sqlite", dir);
    sandbox_hide_db(db);
    err[0] = 0;
    a = build(NULL, 0, err, sizeof err);
    assert_null(a);
    assert_non_null(strstr(err, "results.sqlite"));
    free(db);
    free(spec);
    free(logs);
    free(bot);
    free(other);
    sandbox_hide_reset();
}

/* A bot reached through a symlinked directory: its real directory and the
 * directory as the command names it are both bound, the masks at both; a
 * "./" names no second directory. */
static void test_symlinked_dir_bound_as_named(void **st)
{
    (void)st;
    char err[256];
    char *real = xasprintf("%s/real", dir), *lnk = xasprintf("%s/lnk", dir),
         *rlogs = xasprintf("%s/real/logs", dir), *llogs = xasprintf("%s/lnk/logs", dir),
         *rbot = xasprintf("%s/real/bot.py", dir);
    assert_int_equal(mkdir(real, 0755), 0);
    assert_int_equal(mkdir(rlogs, 0755), 0);
    FILE *f = fopen(rbot, "w");
    assert_non_null(f);
    fclose(f);
    assert_int_equal(symlink("real", lnk), 0);
    sandbox_hide(rlogs);
    char *command = xasprintf("python3 %s/bot.py", lnk);
    const char *inner[] = {"/bin/sh", "-c", "exec x", NULL};
    char **a = sandbox_argv(inner, command, NULL, 0, 64, NULL, err, sizeof err);
    assert_non_null(a);
    int r = find2(a, real, real), l = find2(a, real, lnk);
    assert_true(r > 0 && l > 0);
    assert_string_equal(a[r - 1], "--ro-bind");
    assert_string_equal(a[l - 1], "--ro-bind");
    assert_true(find2(a, "--tmpfs", rlogs) > r);
    assert_true(find2(a, "--tmpfs", llogs) > l);
    sandbox_argv_free(a);
    free(command);
    char cwd[4096];
    assert_non_null(getcwd(cwd, sizeof cwd));
    assert_int_equal(chdir(real), 0);
    a = sandbox_argv(inner, "python3 ./bot.py", NULL, 0, 64, NULL, err, sizeof err);
    assert_int_equal(chdir(cwd), 0);
    assert_non_null(a);
    int binds = 0;
    for (int i = 0; a[i]; i++) {
        binds += !strcmp(a[i], "--ro-bind") && a[i + 2] && !strncmp(a[i + 2], real, strlen(real));
        assert_null(strstr(a[i], "/."));
    }
    assert_int_equal(binds, 1);
    sandbox_argv_free(a);
    sandbox_hide_reset();
    free(real);
    free(lnk);
    free(rlogs);
    free(llogs);
    free(rbot);
}

/* As root the agent's uid may not reach its directory by path: it is
 * bound from the stage; one other users cannot read is
 * refused with the reason, not left to fail inside bwrap. */
static void test_staged_dirs_bound_from_stage(void **st)
{
    (void)st;
    char err[512] = "";
    char *command = xasprintf("python3 %s/bot.py", dir);
    const char *inner[] = {"/bin/sh", "-c", "exec x", NULL};
    sandbox_stage stage;
    assert_int_equal(chmod(dir, 0755), 0);
    char **argv = sandbox_argv(inner, command, NULL, 0, 0, &stage, err, sizeof err);
    assert_non_null(argv);
    assert_int_equal(find2(argv, "--size", NULL), -1); /* --limit-tmp 0: no --size */
    assert_int_equal(stage.n, 1);
    assert_string_equal(stage.at[0], SANDBOX_STAGE "/0");
    assert_true(stage.dir[0]);
    int i = find2(argv, "--ro-bind", stage.at[0]);
    assert_true(i >= 0);
    assert_string_equal(argv[i + 2], dir);
    assert_int_equal(find2(argv, "--ro-bind", dir), -1);
    assert_string_equal(stage.path[0], dir);
    sandbox_stage_free(&stage);
    sandbox_argv_free(argv);

    assert_int_equal(chmod(dir, 0700), 0);
    argv = sandbox_argv(inner, command, NULL, 0, 0, &stage, err, sizeof err);
    assert_null(argv);
    assert_int_equal(stage.n, 0);
    assert_non_null(strstr(err, "not readable by other users"));
    assert_non_null(strstr(err, dir));
    assert_int_equal(chmod(dir, 0755), 0);
    free(command);
}

static void test_nproc_set_inside(void **st)
{
    (void)st;
    char err[256];
    char **a = build(NULL, 7, err, sizeof err);
    int d = find2(a, "--", NULL), p = find2(a, "prlimit", "--nproc=7:7");
    assert_true(d > 0 && p == d + 1);
    assert_string_equal(a[p + 2], "--");
    assert_string_equal(a[p + 3], "/bin/sh");
    sandbox_argv_free(a);
}

static void test_pass_env_flag(void **st)
{
    (void)st;
    run_options o;
    run_options_default(&o);
    char a0[] = "--pass-env", a1[] = "TOKEN", a2[] = "--pass-env=OTHER", a3[] = "--pass-env",
         a4[] = "A=B";
    char *argv[] = {a0, a1, a2, a3, a4};
    int i = 0;
    assert_int_equal(run_options_parse(&o, 5, argv, &i), 1);
    assert_int_equal(i, 1);
    i = 2;
    assert_int_equal(run_options_parse(&o, 5, argv, &i), 1);
    assert_int_equal(o.n_pass_env, 2);
    assert_string_equal(o.pass_env[0], "TOKEN");
    assert_string_equal(o.pass_env[1], "OTHER");
    assert_null(o.pass_env[2]);
    i = 3;
    assert_int_equal(run_options_parse(&o, 5, argv, &i), -1); /* a NAME, not NAME=VALUE */
    agent_config ac;
    run_options_agent(&o, "nim", "cmd:x", &ac);
    assert_string_equal(ac.pass_env[1], "OTHER");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_namespaces_caps_session),
        cmocka_unit_test(test_environment_is_an_allowlist),
        cmocka_unit_test(test_program_dir_bound_private_paths_masked),
        cmocka_unit_test(test_staged_dirs_bound_from_stage),
        cmocka_unit_test(test_symlinked_dir_bound_as_named),
        cmocka_unit_test(test_nproc_set_inside),
        cmocka_unit_test(test_pass_env_flag),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
