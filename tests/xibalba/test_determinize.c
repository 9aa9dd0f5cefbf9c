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
    av *v = VT.view(g, seat);
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

/* Plays g to the end with random choices; fails on a rejected choice or a
 * broken invariant. */
static void play_out(arena_game *g, arena_rng *r, stats *st)
{
    int choice[XB_OPT_MAX];
    arena_decision d;
    long n = 0;
    while (VT.decision(g, &d)) {
        int k = arena_random_choice(r, &d, choice);
        if (!VT.apply(g, choice, k)) fail_msg("a determinized clone rejected a legal choice");
        if (++n > 1000000) fail_msg("a determinized clone does not end");
    }
    char err[256];
    if (!xb_check_full((const xb_game *)g, err, sizeof err)) fail_msg("after play-out: %s", err);
    st->playouts++;
    st->playout_decisions += n;
}

static void check_seat(const arena_game *g, int seat, uint64_t seed, arena_rng *r, stats *st)
{
    const xb_game *real = (const xb_game *)g;
    arena_game *a = VT.clone(g), *b = VT.clone(g);
    char *before = view_json(g, seat);
    VT.determinize(a, seat, seed);
    VT.determinize(b, seat, seed ^ 0x9e3779b97f4a7c15ull);
    const xb_game *xa = (const xb_game *)a, *xb = (const xb_game *)b;
    char *after = view_json(a, seat);
    if (strcmp(before, after) != 0)
        fail_msg("seat %d's view changed by determinize:\n%s\n%s", seat, before, after);
    free(before);
    free(after);
    /* conserved: nothing but deck order and the rng differs */
    char err[256];
    if (!xb_check_full(xa, err, sizeof err)) fail_msg("determinized: %s", err);
    if (!same_deck_contents(real, xa)) fail_msg("determinize changed a deck's contents");
    arena_game *plain = VT.clone(g); /* clones record no events: compare clones */
    xb_game *t = xmalloc(real->base.size);
    memcpy(t, xa, real->base.size);
    memcpy(t->deck, real->deck, sizeof t->deck);
    t->rng = real->rng;
    if (memcmp(t, plain, real->base.size) != 0)
        fail_msg("determinize changed more than deck order and the rng");
    free(t);
    VT.free(plain);
    /* different seeds: different hidden decks (whenever decks are big enough
     * that equal orders cannot happen by chance) */
    if (deck_cards(real) >= 10) {
        st->eligible++;
        st->seeds_differ += !same_deck_order(xa, xb);
        st->differ_from_real += !same_deck_order(xa, real);
    }
    st->checks++;
    play_out(a, r, st);
    VT.free(a);
    VT.free(b);
}

static void determinize_keeps_views_and_conserves_cards(void **state)
{
    (void)state;
    stats st = {0};
    arena_rng r;
    arena_rng_seed(&r, 77);
    int choice[XB_OPT_MAX];
    for (int i = 0; i < 12; i++) {
        int players = 2 + i % 3;
        arena_setting set[2] = {{"mode", (i / 3) % 2 ? "apocalypse" : "normal"},
                                {"max_rounds", "8"}};
        char err[256];
        arena_game *g = VT.create(set, 2, 0xde7e0000u + (uint64_t)i, players, 0, err, sizeof err);
        if (!g) fail_msg("create: %s", err);
        arena_decision d;
        uint64_t seed = (uint64_t)i << 32;
        while (VT.decision(g, &d)) {
            for (int s = 0; s < players; s++)
                check_seat(g, s, ++seed, &r, &st);
            int k = arena_random_choice(&r, &d, choice);
            assert_true(VT.apply(g, choice, k));
        }
        VT.free(g);
    }
    print_message("determinize: %ld checks, %ld play-outs (%ld decisions), deck orders differ "
                  "between seeds in %ld/%ld, from the real game in %ld/%ld\n",
                  st.checks, st.playouts, st.playout_decisions, st.seeds_differ, st.eligible,
                  st.differ_from_real, st.eligible);
    assert_true(st.eligible > 1000);
    assert_int_equal(st.seeds_differ, st.eligible);
    assert_int_equal(st.differ_from_real, st.eligible);
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
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
