/* determinize(g, seat, seed): after every decision of random games and for
 * both seats, a determinized clone shows the seat the very same view (and the
 * deciding seat the same options), accounts for all 112 cards, plays on to
 * the end with random moves, and different seeds give different hidden
 * worlds. PACIFICA_DET_GAMES sets the number of games. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "games/pacifica/pacifica.h"
#include "helpers.h"
#include "policy.h"
#include "util.h"

static char *view_json(const arena_game *g, int seat)
{
    av *v = game_view(g, seat);
    char *j = av_to_json(v);
    av_free(v);
    return j;
}

static char *labels(const arena_game *g)
{
    arena_decision d;
    abuf b = {0};
    if (game_decision(g, &d))
        for (int i = 0; i < d.n_options; i++) {
            char lab[64];
            pacifica_game.label(g, i, lab, sizeof lab);
            abuf_addf(&b, "%s ", lab);
        }
    abuf_addc(&b, '\0');
    return (char *)b.data;
}

/* The places a determinization may change, as one comparable blob. */
static bool same_hidden(const pacifica *a, const pacifica *b)
{
    return memcmp(a->stack, b->stack, sizeof a->stack) == 0 &&
           memcmp(a->hand, b->hand, sizeof a->hand) == 0;
}

/* Most places of one category hidden from seat: stack cards and opponent
 * hand cards whose place the seat does not know. */
static int hidden_max(const pacifica *g, int seat)
{
    int best = 0;
    for (int cat = 0; cat < PC_NCAT; cat++) {
        int n = 0;
        for (int i = 0; i < g->stack_n[cat]; i++)
            n += !(g->seen[g->stack[cat][i]] & (1u << seat));
        for (int i = 0; i < g->hand_n[1 - seat]; i++) {
            int c = g->hand[1 - seat][i];
            n += g->set.c[c].cat == cat && !(g->seen[c] & (1u << seat));
        }
        if (n > best) best = n;
    }
    return best;
}

static void play_out(arena_game *g, arena_rng *r)
{
    arena_decision d;
    int ch[PAC_MAX_OPTS];
    long steps = 0;
    while (game_decision(g, &d)) {
        int n = arena_random_choice(r, &d, ch);
        assert_true(game_apply(g, ch, n));
        assert_true(++steps < 100000);
    }
    char err[256];
    if (!cards_accounted((const pacifica *)g, err, sizeof err)) fail_msg("after play-out: %s", err);
}

static void test_determinize_keeps_view_and_conserves_cards(void **state)
{
    (void)state;
    const char *env = getenv("PACIFICA_DET_GAMES");
    long games = env && *env ? strtol(env, NULL, 10) : 16;
    long checked = 0, could_differ = 0, differed = 0;
    for (long k = 0; k < games; k++) {
        uint64_t seed = 7000 + (uint64_t)k;
        arena_game *g = pacifica_game.create(NULL, 0, seed, 2, ARENA_GAME_NO_EVENTS, NULL, 0);
        assert_non_null(g);
        arena_rng r;
        arena_rng_seed(&r, seed);
        arena_decision d;
        int ch[PAC_MAX_OPTS];
        long decisions = 0;
        while (game_decision(g, &d)) {
            char *lab = labels(g);
            for (int s = 0; s < 2; s++) {
                char *before = view_json(g, s);
                arena_game *a = pacifica_game.clone(g), *b = pacifica_game.clone(g);
                pacifica_game.determinize(a, s, 11 + (uint64_t)decisions);
                pacifica_game.determinize(b, s, 5000 + (uint64_t)decisions);
                char *after = view_json(a, s);
                if (strcmp(before, after) != 0)
                    fail_msg("seed %llu decision %ld seat %d: view changed\n%s\n%s",
                             (unsigned long long)seed, decisions, s, before, after);
                if (s == d.seat) {
                    char *lab2 = labels(a);
                    assert_string_equal(lab, lab2);
                    free(lab2);
                }
                char err[256];
                if (!cards_accounted((const pacifica *)a, err, sizeof err))
                    fail_msg("seed %llu decision %ld seat %d: %s", (unsigned long long)seed,
                             decisions, s, err);
                checked++;
                if (hidden_max((const pacifica *)g, s) >= 3) {
                    could_differ++;
                    differed += !same_hidden((const pacifica *)a, (const pacifica *)b);
                }
                arena_rng pr;
                arena_rng_seed(&pr, seed * 31 + (uint64_t)decisions);
                play_out(a, &pr);
                free(before), free(after);
                game_free(a), game_free(b);
            }
            free(lab);
            int n = arena_random_choice(&r, &d, ch);
            assert_true(game_apply(g, ch, n));
            decisions++;
        }
        game_free(g);
    }
    print_message("%ld determinizations checked; %ld of %ld with 3+ hidden cards in a category "
                  "differed between two seeds\n",
                  checked, differed, could_differ);
    assert_true(checked > 0);
    assert_true(could_differ > 0);
    /* A category with 3+ hidden cards gives the same world for two seeds with
     * probability at most 1/6; nearly all must differ. */
    assert_true(differed * 10 >= could_differ * 8);
}

/* Cards whose place the seat knows stay: a discard under a stack, and the
 * opponent's card drawn from a known place. The hidden rest moves. */
static void test_determinize_keeps_known_places(void **state)
{
    (void)state;
    pacifica *g = fresh();
    to_city(g, 0, "R12", true);  /* brass */
    to_city(g, 0, "A11", false); /* discard=B */
    to_hand(g, 1, "T05");
    g->seen[card(g, "T05")] = 1u << 1;
    pick(g, "activate");
    pick(g, "activate:A11"); /* R12 goes under the Resources stack, seen by both */
    int r12 = card(g, "R12");
    bool moved = false;
    for (uint64_t seed = 1; seed <= 20; seed++) {
        pacifica *a = (pacifica *)pacifica_game.clone(&g->base);
        pacifica_game.determinize(&a->base, 0, seed);
        assert_int_equal(a->stack[PC_RESOURCES][0], r12);
        assert_int_equal(a->seen[r12], PAC_SEEN_ALL);
        /* Seat 1's own hand is hidden from seat 0: a Treasure card, maybe
         * another one. */
        assert_int_equal(a->set.c[a->hand[1][0]].cat, PC_TREASURE);
        moved |= a->hand[1][0] != card(g, "T05");
        /* Seat 1 keeps its own hand: nothing is hidden from it there. */
        pacifica *b = (pacifica *)pacifica_game.clone(&g->base);
        pacifica_game.determinize(&b->base, 1, seed);
        assert_int_equal(b->hand[1][0], card(g, "T05"));
        pacifica_game.free(&a->base);
        pacifica_game.free(&b->base);
    }
    assert_true(moved);
    pacifica_game.free(&g->base);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_determinize_keeps_view_and_conserves_cards),
        cmocka_unit_test(test_determinize_keeps_known_places),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
