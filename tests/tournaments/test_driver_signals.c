/* A SIGTERM or SIGINT that reaches a process while the tournament driver
 * runs is never lost: either the driver stops on it (DRIVER_INTERRUPTED) or,
 * when it arrives as the driver finishes, the caller's own handler gets it.
 * `arena worker` relies on this to stop on SIGTERM between tournaments.
 * A signal the process was started with ignored (a background job's SIGINT,
 * nohup's) stays ignored, as main() leaves it. */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "builtins.h"
#include "driver.h"
#include "game.h"
#include "runopts.h"
#include "schedule.h"

static volatile sig_atomic_t caller_saw;

static void caller_handler(int sig)
{
    caller_saw = sig;
}

typedef struct src_ctx {
    int games, handed, finished;
    int raise_on_done; /* raise sig when this game (1-based) ends */
    int raise_on_next; /* raise sig when asked for this game */
    int sig;           /* 0: SIGTERM */
} src_ctx;

static void raise_it(const src_ctx *s)
{
    raise(s->sig ? s->sig : SIGTERM);
}

static bool next_game(void *ctx, sched_game *g)
{
    src_ctx *s = ctx;
    if (s->handed == s->games) return false;
    if (s->raise_on_next == s->handed + 1) raise_it(s);
    memset(g, 0, sizeof *g);
    g->id = ++s->handed;
    g->group = g->id;
    g->seed = (uint64_t)g->id;
    g->players = 2;
    g->seat[0] = 0;
    g->seat[1] = 1;
    return true;
}

static bool game_done(void *ctx, const tgame *g, const char *log_path, bool *fatal)
{
    (void)g;
    (void)log_path;
    (void)fatal;
    src_ctx *s = ctx;
    if (++s->finished == s->raise_on_done) raise_it(s);
    return true;
}

static int run(src_ctx *s)
{
    run_options ro;
    run_options_default(&ro);
    char *names[] = {"a", "b"}, *specs[] = {"builtin:random", "builtin:random"};
    driver_cfg cfg = {.game = arena_find_game("nim"),
                      .ro = &ro,
                      .names = names,
                      .specs = specs,
                      .n_agents = 2,
                      .concurrency = 1,
                      .total = s->games};
    assert_non_null(cfg.game);
    driver_src src = {.next = next_game, .done = game_done, .ctx = s};
    struct sigaction sa = {.sa_handler = caller_handler}, old;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGTERM, &sa, &old);
    caller_saw = 0;
    char err[256];
    int rc = driver_run(&cfg, &src, err, sizeof err);
    sigaction(SIGTERM, &old, NULL);
    return rc;
}

/* The last game's end is the driver's last event: a SIGTERM there must not
 * be caught by the loop's handler and dropped with it. */
static void sigterm_as_the_driver_finishes_reaches_the_caller(void **state)
{
    (void)state;
    src_ctx s = {.games = 1, .raise_on_done = 1};
    int rc = run(&s);
    assert_int_equal(s.finished, 1);
    assert_true(rc == DRIVER_INTERRUPTED || caller_saw == SIGTERM);
}

static void sigterm_mid_run_interrupts_the_driver(void **state)
{
    (void)state;
    src_ctx s = {.games = 50, .raise_on_done = 3};
    int rc = run(&s);
    assert_int_equal(rc, DRIVER_INTERRUPTED);
    assert_true(s.finished < 50);
    assert_int_equal(caller_saw, 0); /* acted on by the driver: not passed on */
}

static void sigterm_while_asking_for_a_game_interrupts_the_driver(void **state)
{
    (void)state;
    src_ctx s = {.games = 50, .raise_on_next = 2};
    int rc = run(&s);
    assert_int_equal(rc, DRIVER_INTERRUPTED);
    assert_true(s.finished < 50);
}

/* `arena tournament ... &` from a script starts with SIGINT ignored; the
 * driver must not catch it anyway, or a SIGINT meant for the shell's
 * foreground job would stop the tournament. */
static void an_ignored_sigint_stays_ignored(void **state)
{
    (void)state;
    struct sigaction ign = {.sa_handler = SIG_IGN}, old;
    sigemptyset(&ign.sa_mask);
    sigaction(SIGINT, &ign, &old);
    src_ctx s = {.games = 50, .raise_on_done = 3, .sig = SIGINT};
    int rc = run(&s);
    struct sigaction after;
    sigaction(SIGINT, &old, &after);
    assert_int_equal(rc, DRIVER_OK);
    assert_int_equal(s.finished, 50);
    assert_true(after.sa_handler == SIG_IGN); /* and it is left ignored */
}

int main(void)
{
    arena_builtins_install();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(sigterm_as_the_driver_finishes_reaches_the_caller),
        cmocka_unit_test(sigterm_mid_run_interrupts_the_driver),
        cmocka_unit_test(sigterm_while_asking_for_a_game_interrupts_the_driver),
        cmocka_unit_test(an_ignored_sigint_stays_ignored),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
