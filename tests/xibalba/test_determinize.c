/* Xibalba determinize (game.h): after every decision of random games (2-4
 * players, both modes), for every seat, a determinized clone keeps that
 * seat's view byte-identical, changes nothing but deck order and the rng
 * (so every card stays where it was counted), plays on to the end, and two
 * seeds give two different deck orders. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <unistd.h>

#include <cmocka.h>

#include "policy.h"
#include "util.h"
#include "xb_test.h"

#define VT xibalba_game

static char *view_json(const arena_game *g, int seat)
{
    av *v = game_view(g, seat);
    char *j = av_to_json(v);
    av_free(v);
    return j;
}

static int cmp16(const void *a, const void *b)
{
    return *(const int16_t *)a - *(const int16_t *)b;
}

/* Each deck holds the same cards before and after (order aside). */
static bool same_deck_contents(const xb_game *a, const xb_game *b)
{
    for (int f = 0; f < XB_FAMILIES; f++) {
        xb_stack x = a->deck[f], y = b->deck[f];
        if (x.n != y.n) return false;
        qsort(x.c, (size_t)x.n, sizeof x.c[0], cmp16);
        qsort(y.c, (size_t)y.n, sizeof y.c[0], cmp16);
        if (memcmp(x.c, y.c, (size_t)x.n * sizeof x.c[0]) != 0) return false;
    }
    return true;
}

static int deck_cards(const xb_game *g)
{
    int n = 0;
    for (int f = 0; f < XB_FAMILIES; f++)
        n += g->deck[f].n;
    return n;
}

static bool same_deck_order(const xb_game *a, const xb_game *b)
{
    return memcmp(a->deck, b->deck, sizeof a->deck) == 0;
}

typedef struct stats {
    long checks, playouts, playout_decisions, eligible, seeds_differ, differ_from_real;
} stats;

typedef void (*determinize_fn)(arena_game *g, int seat, uint64_t seed);

static char why[4096]; /* the first failure */
#define FAIL(...) return snprintf(why, sizeof why, __VA_ARGS__), false

/* Plays g to the end with random choices; false on a rejected choice or a
 * broken invariant. */
static bool play_out(arena_game *g, arena_rng *r, stats *st)
{
    int choice[XB_OPT_MAX];
    arena_decision d;
    long n = 0;
    while (VT.decision(g, &d)) {
        int k = arena_random_choice(r, &d, choice);
        if (!VT.apply(g, choice, k)) FAIL("a determinized clone rejected a legal choice");
        if (++n > 1000000) FAIL("a determinized clone does not end");
    }
    char err[256];
    if (!xb_check_full((const xb_game *)g, err, sizeof err)) FAIL("after play-out: %s", err);
    st->playouts++;
    st->playout_decisions += n;
    return true;
}

static bool check_clone(const arena_game *g, arena_game *a, const arena_game *b, int seat,
                        arena_rng *r, stats *st)
{
    const xb_game *real = (const xb_game *)g, *xa = (const xb_game *)a, *xb = (const xb_game *)b;
    char *before = view_json(g, seat), *after = view_json(a, seat);
    bool same = strcmp(before, after) == 0;
    if (!same)
        snprintf(why, sizeof why, "seat %d's view changed by determinize:\n%.1000s\n%.1000s", seat,
                 before, after);
    free(before);
    free(after);
    if (!same) return false;
    /* conserved: nothing but deck order and the rng differs */
    char err[256];
    if (!xb_check_full(xa, err, sizeof err)) FAIL("determinized: %s", err);
    if (!same_deck_contents(real, xa)) FAIL("determinize changed a deck's contents");
    arena_game *plain = VT.clone(g); /* clones record no events: compare clones */
    xb_game *t = xmalloc(real->base.size);
    memcpy(t, xa, real->base.size);
    memcpy(t->deck, real->deck, sizeof t->deck);
    t->rng = real->rng;
    same = memcmp(t, plain, real->base.size) == 0;
    free(t);
    VT.free(plain);
    if (!same) FAIL("determinize changed more than deck order and the rng");
    /* different seeds: different hidden decks (whenever decks are big enough
     * that equal orders cannot happen by chance) */
    if (deck_cards(real) >= 10) {
        st->eligible++;
        st->seeds_differ += !same_deck_order(xa, xb);
        st->differ_from_real += !same_deck_order(xa, real);
    }
    st->checks++;
    return play_out(a, r, st);
}

static bool check_seat(const arena_game *g, determinize_fn det, int seat, uint64_t seed,
                       arena_rng *r, stats *st)
{
    arena_game *a = VT.clone(g), *b = VT.clone(g);
    det(a, seat, seed);
    det(b, seat, seed ^ 0x9e3779b97f4a7c15ull);
    bool ok = check_clone(g, a, b, seat, r, st);
    VT.free(a);
    VT.free(b);
    return ok;
}

/* Random games with checks after every decision for every seat; false with
 * the reason in `why` at the first failure, or when seeds did not change the
 * hidden decks. */
static bool run_games(determinize_fn det, int games, stats *st)
{
    arena_rng r;
    arena_rng_seed(&r, 77);
    int choice[XB_OPT_MAX];
    for (int i = 0; i < games; i++) {
        int players = 2 + i % 3;
        arena_setting set[2] = {{"mode", (i / 3) % 2 ? "apocalypse" : "normal"},
                                {"max_rounds", "8"}};
        char err[256];
        arena_game *g = VT.create(set, 2, 0xde7e0000u + (uint64_t)i, players, 0, err, sizeof err);
        if (!g) FAIL("create: %s", err);
        arena_decision d;
        uint64_t seed = (uint64_t)i << 32;
        bool ok = true;
        while (ok && VT.decision(g, &d)) {
            for (int s = 0; ok && s < players; s++)
                ok = check_seat(g, det, s, ++seed, &r, st);
            int k = arena_random_choice(&r, &d, choice);
            if (ok && !VT.apply(g, choice, k)) FAIL("the game rejected a legal choice");
        }
        VT.free(g);
        if (!ok) return false;
    }
    if (st->seeds_differ != st->eligible)
        FAIL("two seeds gave the same deck order in %ld of %ld checks",
             st->eligible - st->seeds_differ, st->eligible);
    if (st->differ_from_real != st->eligible)
        FAIL("the real deck order survived in %ld of %ld checks",
             st->eligible - st->differ_from_real, st->eligible);
    return true;
}

static void determinize_keeps_views_and_conserves_cards(void **state)
{
    (void)state;
    stats st = {0};
    if (!run_games(VT.determinize, 12, &st)) fail_msg("%s", why);
    print_message("determinize: %ld checks, %ld play-outs (%ld decisions), deck orders differ "
                  "between seeds in %ld/%ld, from the real game in %ld/%ld\n",
                  st.checks, st.playouts, st.playout_decisions, st.seeds_differ, st.eligible,
                  st.differ_from_real, st.eligible);
    assert_true(st.eligible > 1000);
}

/* Broken determinizes the checks must catch. */
static void leaky(arena_game *gg, int seat, uint64_t seed)
{
    VT.determinize(gg, seat, seed);
    xb_game *g = (xb_game *)gg;
    xb_stack *d = &g->deck[XB_SOLDIER], *q = &g->p[(seat + 1) % g->players].squad;
    /* swaps another seat's visible soldier with a deck card of another type,
     * so the view shows it */
    for (int i = 0; q->n && i < d->n; i++)
        if (g->cs.type_of[d->c[i]] != g->cs.type_of[q->c[0]]) {
            int16_t t = d->c[i];
            d->c[i] = q->c[0];
            q->c[0] = t;
            break;
        }
}

static void lazy(arena_game *gg, int seat, uint64_t seed)
{
    (void)seat;
    game_rng_seed(&((xb_game *)gg)->rng, seed); /* reseeds, never shuffles */
}

static void determinize_checks_have_teeth(void **state)
{
    (void)state;
    stats st = {0};
    assert_false(run_games(leaky, 3, &st));
    print_message("caught: %.120s\n", why);
    assert_non_null(strstr(why, "view changed"));
    memset(&st, 0, sizeof st);
    assert_false(run_games(lazy, 3, &st));
    print_message("caught: %.120s\n", why);
    assert_non_null(strstr(why, "same deck order"));
}

/* The same seed gives the same clone: determinize is deterministic. */
static void determinize_is_deterministic(void **state)
{
    (void)state;
    char err[256];
    arena_game *g = VT.create(NULL, 0, 5, 3, 0, err, sizeof err);
    assert_non_null(g);
    arena_game *a = VT.clone(g), *b = VT.clone(g);
    VT.determinize(a, 1, 42);
    VT.determinize(b, 1, 42);
    assert_memory_equal(((xb_game *)a)->deck, ((xb_game *)b)->deck, sizeof((xb_game *)a)->deck);
    assert_memory_equal(&((xb_game *)a)->rng, &((xb_game *)b)->rng, sizeof(arena_rng));
    VT.free(a);
    VT.free(b);
    VT.free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(determinize_keeps_views_and_conserves_cards),
        cmocka_unit_test(determinize_is_deterministic),
        cmocka_unit_test(determinize_checks_have_teeth),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
