/* Built-in bots see only their seat (agents/policy.h). Game-specific
 * policies read their game's state struct directly, so nothing but this
 * test stops one from peeking at a hidden hand or a deck's order, which
 * would make it a cheat in every tournament it plays.
 *
 * Over fuzzed games of every registered game, at each decision: the real
 * game and a clone determinized for the deciding seat (the same seat view,
 * the hidden part dealt again) are handed to a fresh instance of every
 * policy of that game, created with the same seed. A policy that uses only
 * what its seat sees picks the same options in both.
 *
 * builtin:ismcts is left out: it reads the game only through determinize
 * and the game interface, and its sampled worlds depend on the real
 * arrangement it starts from (determinize deals the hidden cards again
 * from where they lie), so its picks may differ without any peeking. Its
 * rollout bots are the policies checked here.
 *
 * A control policy that peeks at the omniscient view must be caught.
 * BLIND_GAMES sets the games per player count (default 4). */
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "builtins.h"
#include "policy.h"
#include "util.h"

#define DECISION_LIMIT 200000 /* every game ends long before */

/* Arguments for the policies that take one. */
static const struct {
    const char *policy, *arg;
} args[] = {
    {"bm-with", "Smithy"},
    {"greedy-favour", "Machines+Festival"},
};

typedef struct ctx {
    const arena_game_vt *vt;
    const arena_policy_vt *only; /* NULL: the game's built-in policies; else this one */
    long compared, differed;     /* decisions compared; those that differed */
    char err[1024];
} ctx;

static bool failf(ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool failf(ctx *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->err, sizeof c->err, fmt, ap);
    va_end(ap);
    return false;
}

static const char *arg_of(const arena_policy_vt *p)
{
    if (!p->takes_arg) return NULL;
    for (size_t i = 0; i < sizeof args / sizeof args[0]; i++)
        if (!strcmp(args[i].policy, p->name)) return args[i].arg;
    return "";
}

static bool applies(const ctx *c, const arena_policy_vt *p)
{
    if (c->only) return true;
    if (!strcmp(p->name, "ismcts")) return false;
    return !p->game || !strcmp(p->game, c->vt->name);
}

/* A fresh policy's picks on g; n is their count (-1 if it cannot be made). */
static int picks(const arena_policy_vt *p, const arena_game *g, const arena_decision *d,
                 uint64_t seed, int *choice)
{
    char err[200];
    void *self = p->create(arg_of(p), d->seat, seed, err, sizeof err);
    if (!self) return -1;
    int n = p->decide(self, g, d, choice);
    p->free(self);
    return n;
}

/* Every applicable policy at this decision of g, against a determinized
 * clone of it. */
static bool compare_at(ctx *c, const arena_game *g, const arena_decision *d, uint64_t seed,
                       const char *what, long calls)
{
    arena_game *twin = c->vt->clone(g);
    c->vt->determinize(twin, d->seat, seed);
    arena_decision dt;
    bool ok = c->vt->decision(twin, &dt);
    if (!ok || dt.seat != d->seat || strcmp(dt.kind, d->kind) || dt.n_options != d->n_options)
        ok = failf(c, "%s: after %ld decisions the determinized twin asks another question", what,
                   calls);
    int *a = xmalloc((size_t)d->n_options * sizeof *a),
        *b = xmalloc((size_t)d->n_options * sizeof *b);
    const arena_policy_vt *const only[] = {c->only, NULL};
    const arena_policy_vt *const *all = c->only ? only : arena_policies();
    for (size_t i = 0; ok && all[i]; i++) {
        const arena_policy_vt *p = all[i];
        if (!applies(c, p)) continue;
        int na = picks(p, g, d, seed ^ 0xb1d, a), nb = picks(p, twin, &dt, seed ^ 0xb1d, b);
        if (na < 0) {
            ok = failf(c, "builtin:%s cannot be created", p->name);
            break;
        }
        c->compared++;
        if (na != nb || memcmp(a, b, (size_t)na * sizeof *a) != 0) {
            c->differed++;
            ok = failf(c,
                       "%s: builtin:%s picked differently at '%s' (seat %d, after %ld decisions) "
                       "in a world that differs only in what its seat cannot see",
                       what, p->name, d->kind, d->seat, calls);
        }
    }
    free(a);
    free(b);
    game_free(twin);
    return ok;
}

static bool fuzz_one(ctx *c, int players, uint64_t seed)
{
    char what[96], err[256];
    snprintf(what, sizeof what, "%s %dp seed %" PRIu64, c->vt->name, players, seed);
    arena_game *g = c->vt->create(NULL, 0, seed, players, ARENA_GAME_NO_EVENTS, err, sizeof err);
    if (!g) return failf(c, "%s: %s", what, err);
    arena_rng r;
    arena_rng_seed(&r, seed ^ 0xb11d);
    int *choice = NULL;
    size_t cap = 0;
    long calls = 0;
    arena_decision d;
    bool ok = true;
    while (ok && c->vt->decision(g, &d)) {
        ok = compare_at(c, g, &d, arena_rng_next(&r), what, calls);
        if ((size_t)d.n_options > cap) {
            cap = (size_t)d.n_options;
            choice = xrealloc(choice, cap * sizeof *choice);
        }
        int k = arena_random_choice(&r, &d, choice);
        if (ok && !c->vt->apply(g, choice, k)) ok = failf(c, "%s: a random choice refused", what);
        if (ok && ++calls > DECISION_LIMIT) ok = failf(c, "%s: no end", what);
    }
    free(choice);
    game_free(g);
    return ok;
}

static bool check_game(ctx *c)
{
    const char *e = getenv("BLIND_GAMES");
    int n = e && atoi(e) > 0 ? atoi(e) : 4;
    int top = c->vt->max_players < 4 ? c->vt->max_players : 4;
    for (int p = c->vt->min_players; p <= top; p++)
        for (int i = 0; i < n; i++)
            if (!fuzz_one(c, p, 7000003u * (uint64_t)(i + 1) + (uint64_t)p)) return false;
    printf("%s: %ld decisions compared\n", c->vt->name, c->compared);
    return c->compared > 0 || failf(c, "%s: no policy compared", c->vt->name);
}

static void test_game(void **state)
{
    ctx c = {.vt = arena_find_game(*state)};
    assert_non_null(c.vt);
    if (!check_game(&c)) fail_msg("%s", c.err);
}

/* ---- control: a policy that peeks must be caught ----------------------- */

static void *peek_create(const char *arg, int seat, uint64_t seed, char *err, size_t errlen)
{
    (void)arg, (void)seat, (void)seed, (void)err, (void)errlen;
    return xmalloc(1);
}

/* Picks by a hash of the omniscient view: what a cheat would look at. */
static int peek_decide(void *self, const arena_game *g, const arena_decision *d, int *choice)
{
    (void)self;
    av *v = arena_view_tree(g->vt, g, -1);
    char *omni = av_to_json(v);
    av_free(v);
    uint64_t h = 1469598103934665603u;
    for (const char *p = omni; *p; p++)
        h = (h ^ (uint8_t)*p) * 1099511628211u;
    free(omni);
    int n = d->pick_min > 0 ? d->pick_min : 1, at = (int)(h % (uint64_t)d->n_options);
    for (int k = 0; k < n; k++) /* distinct: consecutive from the hashed one */
        choice[k] = (at + k) % d->n_options;
    return n;
}

static void peek_free(void *self)
{
    free(self);
}

static const arena_policy_vt peeker = {"peeker",    NULL,        "peeks",   false,
                                       peek_create, peek_decide, peek_free, NULL};

static void test_catches_a_policy_that_peeks(void **state)
{
    (void)state;
    ctx c = {.vt = arena_find_game("dominion"), .only = &peeker};
    assert_non_null(c.vt);
    assert_false(check_game(&c));
    assert_true(c.differed > 0);
    assert_non_null(strstr(c.err, "builtin:peeker picked differently"));
}

int main(void)
{
    arena_builtins_install();
    const arena_game_vt *const *games = arena_games(true);
    size_t n = 0;
    while (games[n])
        n++;
    struct CMUnitTest *tests = xcalloc(n + 1, sizeof *tests);
    char **names = xcalloc(n, sizeof *names);
    for (size_t i = 0; i < n; i++) {
        names[i] = xasprintf("builtin_bots_see_only_their_seat_%s", games[i]->name);
        tests[i] = (struct CMUnitTest){
            .name = names[i], .test_func = test_game, .initial_state = (void *)games[i]->name};
    }
    tests[n] = (struct CMUnitTest)cmocka_unit_test(test_catches_a_policy_that_peeks);
    int rc = _cmocka_run_group_tests("policies_blind", tests, n + 1, NULL, NULL);
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
    free(tests);
    return rc;
}
