/* determinize(g, seat, seed), the search bots' entry (referee/game.h), for
 * every game in the registry, the hidden test game included. Over fuzzed
 * games (random legal choices, every allowed player count up to 4), after
 * every decision and for every seat, on a clone:
 *
 *  - view(seat) is byte-identical before and after determinize: the sampled
 *    world differs from the real one only in what the seat cannot see. This
 *    is also a second proof that views hide exactly the hidden part.
 *  - the same seed gives the same world (omniscient view), so search bots
 *    stay reproducible;
 *  - something hidden does change in some of the samples (omniscient view),
 *    so a determinize that only reseeds cannot pass for one that samples;
 *  - a sample of determinized clones plays on to the end with random moves,
 *    every choice accepted.
 *
 * A game without determinize fails its test: every game must implement it.
 * DET_GAMES sets the games per player count (default 3). */
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "policy.h"
#include "util.h"

#define PLAYOUT_LIMIT 200000 /* decisions; every game ends long before */
#define PLAYOUT_EVERY 23     /* play every 23rd determinized clone to the end */

/* Extra settings that reach rules the defaults do not. */
typedef struct variant {
    const char *game;
    arena_setting set;
} variant;

static const variant variants[] = {
    {"xibalba", {"mode", "apocalypse"}},
    {"dominion", {"kingdom", "high-seas"}},
};

typedef struct ctx {
    const arena_game_vt *vt; /* may wrap the game's own (control tests) */
    const char *what;
    long checks, changed, playouts;
    char err[2600];
} ctx;

static bool failf(ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool failf(ctx *c, const char *fmt, ...)
{
    int k = snprintf(c->err, sizeof c->err, "%s: ", c->what);
    va_list ap;
    va_start(ap, fmt);
    if (k > 0 && (size_t)k < sizeof c->err)
        vsnprintf(c->err + k, sizeof c->err - (size_t)k, fmt, ap);
    va_end(ap);
    return false;
}

static char *view_json(const ctx *c, const arena_game *g, int seat)
{
    av *v = arena_view_tree(c->vt, g, seat);
    char *s = av_to_json(v);
    av_free(v);
    return s;
}

static int games_per_count(void)
{
    const char *e = getenv("DET_GAMES");
    int n = e ? atoi(e) : 3;
    return n > 0 ? n : 3;
}

/* Random moves to the end: every choice accepted, and the game ends. */
static bool play_out(ctx *c, arena_game *g, arena_rng *r)
{
    arena_decision d;
    int *choice = NULL;
    size_t cap = 0;
    long n = 0;
    bool ok = true;
    while (ok && c->vt->decision(g, &d)) {
        if ((size_t)d.n_options > cap) {
            cap = (size_t)d.n_options;
            choice = xrealloc(choice, cap * sizeof *choice);
        }
        int k = arena_random_choice(r, &d, choice);
        if (!c->vt->apply(g, choice, k))
            ok = failf(c, "a determinized clone refused a choice at %s", d.kind);
        else if (++n > PLAYOUT_LIMIT)
            ok = failf(c, "a determinized clone does not end");
    }
    free(choice);
    arena_result res;
    c->vt->result(g, &res);
    if (ok && !res.over) ok = failf(c, "no decision left but the result is not over");
    return ok;
}

/* All checks at one point of a game, for every seat. */
static bool check_point(ctx *c, const arena_game *g, int players, arena_rng *r, long calls)
{
    char *omni = view_json(c, g, -1);
    bool ok = true;
    for (int s = 0; s < players && ok; s++) {
        uint64_t seed = arena_rng_next(r);
        arena_game *a = c->vt->clone(g), *b = c->vt->clone(g);
        char *before = view_json(c, a, s);
        c->vt->determinize(a, s, seed);
        c->vt->determinize(b, s, seed);
        char *after = view_json(c, a, s);
        char *oa = view_json(c, a, -1), *ob = view_json(c, b, -1);
        if (strcmp(before, after) != 0)
            ok = failf(c,
                       "after %ld decisions: seat %d's view changed by determinize:\n"
                       "before %.1200s\nafter  %.1200s",
                       calls, s, before, after);
        else if (strcmp(oa, ob) != 0)
            ok = failf(c, "after %ld decisions, seat %d: the same seed gave two worlds", calls, s);
        c->checks++;
        c->changed += strcmp(oa, omni) != 0;
        if (ok && (calls * players + s) % PLAYOUT_EVERY == 0) {
            ok = play_out(c, a, r);
            c->playouts++;
        }
        free(before);
        free(after);
        free(oa);
        free(ob);
        game_free(a);
        game_free(b);
    }
    free(omni);
    return ok;
}

static bool fuzz_one(ctx *c, const arena_setting *set, size_t nset, int players, uint64_t seed)
{
    char what[160], err[256];
    snprintf(what, sizeof what, "%s%s%s%s%s %dp seed %" PRIu64, c->vt->name, nset ? " " : "",
             nset ? set->key : "", nset ? "=" : "", nset ? set->value : "", players, seed);
    c->what = what;
    arena_game *g = c->vt->create(set, nset, seed, players, ARENA_GAME_NO_EVENTS, err, sizeof err);
    if (!g) return failf(c, "%s", err);
    arena_rng r;
    arena_rng_seed(&r, seed ^ 0x5eed);
    int *choice = NULL;
    size_t cap = 0;
    long calls = 0;
    arena_decision d;
    bool ok = check_point(c, g, players, &r, calls);
    while (ok && c->vt->decision(g, &d)) {
        if ((size_t)d.n_options > cap) {
            cap = (size_t)d.n_options;
            choice = xrealloc(choice, cap * sizeof *choice);
        }
        int k = arena_random_choice(&r, &d, choice);
        if (!c->vt->apply(g, choice, k)) ok = failf(c, "the real game refused a random choice");
        calls++;
        ok = ok && check_point(c, g, players, &r, calls);
        if (ok && calls > PLAYOUT_LIMIT) ok = failf(c, "no end");
    }
    free(choice);
    game_free(g);
    c->what = c->vt->name;
    return ok;
}

/* Every check over fuzzed games of c->vt; false with c->err on a failure. */
static bool check_game(ctx *c)
{
    const arena_game_vt *vt = c->vt;
    c->what = vt->name;
    if (!vt->determinize)
        return failf(c, "no determinize: every game must implement it (referee/game.h)");
    int n = games_per_count();
    int top = vt->max_players < 4 ? vt->max_players : 4;
    for (int p = vt->min_players; p <= top; p++)
        for (int i = 0; i < n; i++) {
            uint64_t seed = 1000003u * (uint64_t)(i + 1) + (uint64_t)p;
            if (!fuzz_one(c, NULL, 0, p, seed)) return false;
            for (size_t v = 0; v < sizeof variants / sizeof variants[0]; v++)
                if (strcmp(variants[v].game, vt->name) == 0 &&
                    !fuzz_one(c, &variants[v].set, 1, p, seed + 7))
                    return false;
        }
    printf("%s: %ld checks, %ld changed the hidden part, %ld played out\n", vt->name, c->checks,
           c->changed, c->playouts);
    if (c->checks == 0 || c->playouts == 0) return failf(c, "nothing checked");
    /* Most points of a game hide something (other hands, deck orders): at
     * least a quarter of the samples must differ from the real world. */
    if (c->changed * 4 < c->checks)
        return failf(c, "determinize changed the hidden part in only %ld of %ld samples",
                     c->changed, c->checks);
    return true;
}

/* One cmocka test per registered game, named after it. */
static void test_game(void **state)
{
    ctx c = {.vt = arena_find_game(*state)};
    assert_non_null(c.vt);
    if (!check_game(&c)) fail_msg("%s", c.err);
}

/* ---- controls: broken determinizes (wrapped around nim's) must be caught */

static arena_game_vt nim_vt;

/* Samples the world of the wrong seat, so seat's own secret changes. */
static void wrong_seat(arena_game *g, int seat, uint64_t seed)
{
    arena_find_game("nim")->determinize(g, seat == 0 ? 1 : 0, seed);
}

static void nothing(arena_game *g, int seat, uint64_t seed)
{
    (void)g, (void)seat, (void)seed;
}

static uint64_t drift;
static void ignores_seed(arena_game *g, int seat, uint64_t seed)
{
    arena_find_game("nim")->determinize(g, seat, seed + drift++);
}

static void expect_caught(void (*det)(arena_game *, int, uint64_t), const char *reason)
{
    nim_vt = *arena_find_game("nim");
    nim_vt.determinize = det;
    ctx c = {.vt = &nim_vt};
    if (check_game(&c)) fail_msg("a determinize that %s passed", reason);
    printf("caught: %s\n", c.err);
}

static void test_catches_a_determinize_that_changes_the_seats_view(void **state)
{
    (void)state;
    expect_caught(wrong_seat, "changes the seat's own secret");
}

static void test_catches_a_determinize_that_samples_nothing(void **state)
{
    (void)state;
    expect_caught(nothing, "changes nothing");
}

static void test_catches_a_determinize_that_ignores_its_seed(void **state)
{
    (void)state;
    expect_caught(ignores_seed, "ignores its seed");
}

static void test_catches_a_game_without_determinize(void **state)
{
    (void)state;
    expect_caught(NULL, "is missing");
}

int main(void)
{
    const arena_game_vt *const *games = arena_games(true);
    size_t n = 0;
    while (games[n])
        n++;
    const struct CMUnitTest controls[] = {
        cmocka_unit_test(test_catches_a_determinize_that_changes_the_seats_view),
        cmocka_unit_test(test_catches_a_determinize_that_samples_nothing),
        cmocka_unit_test(test_catches_a_determinize_that_ignores_its_seed),
        cmocka_unit_test(test_catches_a_game_without_determinize),
    };
    size_t nc = sizeof controls / sizeof controls[0];
    struct CMUnitTest *tests = xcalloc(n + nc, sizeof *tests);
    memcpy(tests + n, controls, sizeof controls);
    char **names = xcalloc(n, sizeof *names);
    for (size_t i = 0; i < n; i++) {
        names[i] = xasprintf("determinize_keeps_the_view_of_every_seat_%s", games[i]->name);
        tests[i] = (struct CMUnitTest){
            .name = names[i], .test_func = test_game, .initial_state = (void *)games[i]->name};
    }
    int rc = _cmocka_run_group_tests("determinize", tests, n + nc, NULL, NULL);
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
    free(tests);
    return rc;
}
