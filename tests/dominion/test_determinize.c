/* determinize(g, seat, seed): everything hidden from seat is dealt again at
 * random, everything it knows stays. Checked after every decision of fuzzed
 * games (2-4 players, kingdoms with the Seaside mats and the cards that
 * show deck tops), for every seat, plus hand-made cases. */
#include "harness.h"
#include "rng.h"
#include "selfplay.h"

/* Everything a player owns, by card. */
static void owned(const dom_game *g, int p, int *n)
{
    memset(n, 0, sizeof(int) * DOM_NCARDS);
    for (int z = 0; z < Z_COUNT; z++)
        for (int i = 0; i < g->p[p].z[z].n; i++)
            n[g->p[p].z[z].c[i]]++;
}

static char *view_json(const arena_game *g, int seat)
{
    av *v = game_view(g, seat);
    char *s = av_to_json(v);
    av_free(v);
    return s;
}

/* The checks on one determinized clone c of g for seat. */
static void check_one(const dom_game *g, const dom_game *c, int seat, const char *before)
{
    char *after = view_json(&c->base, seat);
    if (strcmp(before, after) != 0)
        fail_msg("seat %d's view changed:\n%s\n%s", seat, before, after);
    free(after);
    assert_memory_equal(g->supply, c->supply, sizeof g->supply);
    assert_memory_equal(g->trash, c->trash, sizeof g->trash);
    for (int p = 0; p < g->np; p++) {
        int a[DOM_NCARDS], b[DOM_NCARDS];
        owned(g, p, a);
        owned(c, p, b);
        assert_memory_equal(a, b, sizeof a); /* cards stay with their owner */
        const dom_player *x = &g->p[p], *y = &c->p[p];
        for (int z = 0; z < Z_COUNT; z++)
            assert_int_equal(x->z[z].n, y->z[z].n);
        /* what everyone sees, and for the seat its own discard pile */
        static const int open[] = {Z_PLAY, Z_DUR, Z_ISLAND, Z_ASIDE};
        for (int k = 0; k < 4; k++)
            assert_memory_equal(x->z[open[k]].c, y->z[open[k]].c, x->z[open[k]].n);
        const dom_zone *dx = &x->z[Z_DISCARD], *dy = &y->z[Z_DISCARD];
        for (int i = 0; i < dx->n; i++)
            if (p == seat || (x->disc_seen[i] & SEEN_ALL)) assert_int_equal(dx->c[i], dy->c[i]);
        /* deck slots the seat saw filled */
        unsigned known = p == seat ? SEEN_OWNER : SEEN_ALL;
        for (int i = 0; i < x->z[Z_DECK].n; i++)
            if (x->deck_seen[i] & known) assert_int_equal(x->z[Z_DECK].c[i], y->z[Z_DECK].c[i]);
        /* the hand cards everyone saw there (never more than are there) */
        for (int k = 0; k < DOM_NCARDS; k++) {
            int before = dom_count(&x->z[Z_HAND], k);
            assert_true(x->hand_seen[k] <= before);
            assert_true(dom_count(&y->z[Z_HAND], k) >= x->hand_seen[k]);
        }
        if (p == seat) {
            assert_memory_equal(x->z[Z_HAND].c, y->z[Z_HAND].c, x->z[Z_HAND].n);
            assert_memory_equal(x->z[Z_HAVEN].c, y->z[Z_HAVEN].c, x->z[Z_HAVEN].n);
            assert_memory_equal(x->z[Z_NVMAT].c, y->z[Z_NVMAT].c, x->z[Z_NVMAT].n);
        }
    }
}

/* Plays c to the end at random; every choice is accepted and no card is
 * lost or made. */
static void play_out(arena_game *c, arena_rng *r)
{
    arena_decision d;
    int ch[DOM_OPTCAP];
    while (game_decision(c, &d))
        assert_true(game_apply(c, ch, arena_random_choice(r, &d, ch)));
    const dom_game *g = (const dom_game *)c;
    int total = 0;
    for (int k = 0; k < DOM_NCARDS; k++)
        total += g->supply[k] + g->trash[k];
    for (int s = 0; s < g->np; s++)
        total += dom_owned(g, s);
    assert_int_equal(total, g->total_cards);
    assert_true(g->over);
}

/* Which kinds of knowledge a state holds, for the coverage of the fuzz. */
enum { K_NVMAT, K_HAVEN, K_DECK_OWN, K_DECK_ALL, K_HAND, K_DISC_HIDDEN, K_N };
static void knowledge(const dom_game *g, long *k)
{
    for (int p = 0; p < g->np; p++) {
        const dom_player *x = &g->p[p];
        k[K_NVMAT] += x->z[Z_NVMAT].n > 0;
        k[K_HAVEN] += x->z[Z_HAVEN].n > 0;
        bool own = false, all = false, hand = false, hidden = false;
        for (int i = 0; i < x->z[Z_DECK].n; i++) {
            own |= x->deck_seen[i] == SEEN_OWNER;
            all |= (x->deck_seen[i] & SEEN_ALL) != 0;
        }
        for (int c = 0; c < DOM_NCARDS; c++)
            hand |= x->hand_seen[c] > 0;
        for (int i = 0; i + 1 < x->z[Z_DISCARD].n; i++)
            hidden |= x->disc_seen[i] == 0;
        k[K_DECK_OWN] += own;
        k[K_DECK_ALL] += all;
        k[K_HAND] += hand;
        k[K_DISC_HIDDEN] += hidden;
    }
}

static void test_determinize_keeps_views_and_cards_and_plays_on(void **st)
{
    (void)st;
    static const char *const kingdoms[] = {
        "Haven,Native Village,Island,Lookout,Navigator,Pearl Diver,Ghost Ship,Bureaucrat,Spy,"
        "Village",
        "Cellar,Warehouse,Tactician,Chancellor,Treasure Map,Treasury,Sea Hag,Thief,Pirate Ship,"
        "Library",
        "Militia,Outpost,Ambassador,Throne Room,Haven,Native Village,Island,Explorer,Mine,Moat",
        "shipwrecks",
        "random",
        "buried-treasure",
    };
    long decisions = 0, pairs = 0, changed = 0, played = 0, cover[K_N] = {0};
    for (int i = 0; i < 24; i++) {
        arena_setting set[2] = {{"kingdom", kingdoms[i % 6]}, {"max_turns", "30"}};
        char err[256];
        int np = 2 + i % 3;
        arena_game *g = dominion_game.create(set, 2, 1000 + (uint64_t)i, np, ARENA_GAME_NO_EVENTS,
                                             err, sizeof err);
        assert_non_null(g);
        arena_rng r;
        arena_rng_seed(&r, 77 + (uint64_t)i);
        arena_decision d;
        int ch[DOM_OPTCAP];
        while (game_decision(g, &d)) {
            knowledge((const dom_game *)g, cover);
            for (int s = 0; s < np; s++) {
                char *before = view_json(g, s);
                arena_game *c1 = g->vt->clone(g), *c2 = g->vt->clone(g);
                c1->vt->determinize(c1, s, arena_rng_next(&r));
                c2->vt->determinize(c2, s, arena_rng_next(&r));
                check_one((dom_game *)g, (dom_game *)c1, s, before);
                check_one((dom_game *)g, (dom_game *)c2, s, before);
                char *o1 = view_json(c1, -1), *o2 = view_json(c2, -1);
                changed += strcmp(o1, o2) != 0;
                pairs++;
                if (decisions % 23 == 0) {
                    play_out(c1, &r);
                    played++;
                }
                free(o1);
                free(o2);
                free(before);
                game_free(c1);
                game_free(c2);
            }
            decisions++;
            assert_true(game_apply(g, ch, arena_random_choice(&r, &d, ch)));
        }
        game_free(g);
    }
    print_message("%ld decisions, %ld of %ld determinized pairs differ, %ld played out\n",
                  decisions, changed, pairs, played);
    /* not a no-op: two seeds give different hidden cards almost always
     * (identical only when nothing is hidden or all hidden cards match) */
    assert_true(changed * 10 > pairs * 9);
    /* the games reached every kind of knowledge determinize keeps */
    print_message("states with: Native Village mat %ld, Haven %ld, deck slots seen by the owner "
                  "%ld / by all %ld, hand cards seen %ld, unseen discards %ld\n",
                  cover[K_NVMAT], cover[K_HAVEN], cover[K_DECK_OWN], cover[K_DECK_ALL],
                  cover[K_HAND], cover[K_DISC_HIDDEN]);
    for (int k = 0; k < K_N; k++)
        assert_true(cover[k] > 0);
    assert_true(played > 50);
}

/* The order a seat put on its own deck stays; the other seat never saw it,
 * so for it the order is dealt again. */
static void test_determinize_keeps_deck_tops_the_seat_saw(void **st)
{
    (void)st;
    mk(2, "Navigator");
    set(0, Z_HAND, "Navigator");
    set(0, Z_DECK, "Gold,Estate,Silver,Duchy,Copper,Province,Curse,Copper,Estate,Silver");
    set(1, Z_HAND, "Copper,Copper,Estate,Estate,Silver");
    set(1, Z_DECK, "Gold,Duchy,Province,Curse,Copper");
    begin(0);
    pick("play:Navigator");
    pick("keep");
    pick("card:Copper,card:Silver,card:Duchy,card:Estate,card:Gold");
    assert_string_equal(top(0), "Gold");
    uint8_t deck[DOM_ZCAP];
    memcpy(deck, G->p[0].z[Z_DECK].c, G->p[0].z[Z_DECK].n);
    int n = G->p[0].z[Z_DECK].n, other_changed = 0, own_rest_changed = 0;
    for (uint64_t seed = 1; seed <= 40; seed++) {
        dom_game *c = (dom_game *)G->base.vt->clone(&G->base);
        c->base.vt->determinize(&c->base, 0, seed);
        assert_memory_equal(c->p[0].z[Z_DECK].c + n - 5, deck + n - 5, 5);
        own_rest_changed += memcmp(c->p[0].z[Z_DECK].c, deck, (size_t)n - 5) != 0;
        /* seat 1's hand and deck are one pool for seat 0 */
        other_changed += memcmp(c->p[1].z[Z_HAND].c, G->p[1].z[Z_HAND].c, 5) != 0;
        game_free(&c->base);
        c = (dom_game *)G->base.vt->clone(&G->base);
        c->base.vt->determinize(&c->base, 1, seed);
        other_changed += memcmp(c->p[0].z[Z_DECK].c, deck, (size_t)n) != 0;
        assert_memory_equal(c->p[1].z[Z_HAND].c, G->p[1].z[Z_HAND].c, 5);
        game_free(&c->base);
    }
    assert_true(own_rest_changed > 20);
    assert_true(other_changed > 60);
}

/* The cards a player discarded face up (here: played, then cleaned up) stay
 * in the discard pile for everyone; hand cards discarded under them are
 * dealt again with that player's hidden cards. */
static void test_determinize_keeps_public_discards(void **st)
{
    (void)st;
    mk(2, "Village");
    set(0, Z_HAND, "Village,Estate,Duchy");
    set(0, Z_DECK, "Copper,Silver,Silver,Silver,Silver,Silver");
    set(1, Z_HAND, "Gold,Gold,Gold,Gold,Gold");
    set(1, Z_DECK, "Curse,Curse,Curse,Curse,Curse");
    begin(0);
    pick("play:Village");
    end_turn(); /* discard: Estate, Duchy (hidden), Village, Copper (public) */
    assert_int_equal(G->p[0].z[Z_DISCARD].n, 4);
    int moved = 0;
    for (uint64_t seed = 1; seed <= 40; seed++) {
        dom_game *c = (dom_game *)G->base.vt->clone(&G->base);
        c->base.vt->determinize(&c->base, 1, seed);
        const dom_zone *d = &c->p[0].z[Z_DISCARD];
        assert_int_equal(d->c[2], C_VILLAGE);
        assert_int_equal(d->c[3], C_COPPER);
        moved += d->c[0] != C_ESTATE || d->c[1] != C_DUCHY;
        game_free(&c->base);
    }
    assert_true(moved > 20);

    /* a card once on top was in every view, even when covered since */
    mk(2, "Cellar");
    set(0, Z_HAND, "Cellar,Estate,Duchy,Copper,Copper");
    set(0, Z_DECK, "Silver,Silver,Silver,Silver,Silver,Silver,Silver,Silver");
    begin(0);
    pick("play:Cellar");
    pick("card:Estate,card:Duchy"); /* Duchy on top */
    pick("buy:Silver");             /* covered by a Silver, then clean-up */
    const dom_zone *d0 = &G->p[0].z[Z_DISCARD];
    assert_int_equal(d0->n, 8);
    moved = 0;
    for (uint64_t seed = 1; seed <= 40; seed++) {
        dom_game *c = (dom_game *)G->base.vt->clone(&G->base);
        c->base.vt->determinize(&c->base, 1, seed);
        const dom_zone *d = &c->p[0].z[Z_DISCARD];
        assert_memory_equal(d->c + 1, d0->c + 1, 7);
        assert_int_equal(d->c[1], C_DUCHY);
        moved += d->c[0] != C_ESTATE;
        game_free(&c->base);
    }
    assert_true(moved > 20);
}

/* A hand revealed to all (Bureaucrat finds no Victory card) stays; its
 * cards leaving openly are forgotten one by one, and an unseen discard
 * (Militia) makes the whole hand unknown again. */
static void test_determinize_keeps_hand_cards_everyone_saw(void **st)
{
    (void)st;
    mk(2, "Bureaucrat");
    set(0, Z_HAND, "Bureaucrat");
    set(1, Z_HAND, "Copper,Silver,Gold,Copper,Smithy");
    set(1, Z_DECK, "Estate,Estate,Duchy,Province,Curse");
    begin(0);
    pick("play:Bureaucrat");
    assert_int_equal(dseat(), 0);
    int hand_moved = 0, deck_moved = 0;
    for (uint64_t seed = 1; seed <= 30; seed++) {
        dom_game *c = (dom_game *)G->base.vt->clone(&G->base);
        c->base.vt->determinize(&c->base, 0, seed);
        hand_moved += memcmp(c->p[1].z[Z_HAND].c, G->p[1].z[Z_HAND].c, 5) != 0;
        deck_moved += memcmp(c->p[1].z[Z_DECK].c, G->p[1].z[Z_DECK].c, 5) != 0;
        game_free(&c->base);
    }
    assert_int_equal(hand_moved, 0);
    assert_true(deck_moved > 15);

    /* seat 0 now discards seat 1's hand down to 3, unseen */
    mk(2, "Bureaucrat,Militia");
    set(0, Z_HAND, "Bureaucrat,Militia,Village");
    set(0, Z_DECK, "Copper,Copper,Copper,Copper,Copper");
    set(1, Z_HAND, "Copper,Silver,Gold,Copper,Smithy");
    set(1, Z_DECK, "Estate,Estate,Duchy,Province,Curse");
    begin(0);
    pick("play:Village");
    pick("play:Bureaucrat");
    assert_int_equal(G->p[1].hand_seen[C_COPPER], 2);
    pick("play:Militia");
    assert_int_equal(dseat(), 1);
    pick("card:Copper,card:Copper#2");
    assert_int_equal(G->p[1].hand_seen[C_GOLD], 0);
    hand_moved = 0;
    for (uint64_t seed = 1; seed <= 30; seed++) {
        dom_game *c = (dom_game *)G->base.vt->clone(&G->base);
        c->base.vt->determinize(&c->base, 0, seed);
        hand_moved += memcmp(c->p[1].z[Z_HAND].c, G->p[1].z[Z_HAND].c, 3) != 0;
        game_free(&c->base);
    }
    assert_true(hand_moved > 15);
}

/* The deck Chancellor put onto an empty discard pile lies face down: no
 * seat saw its top card, so for the others it is dealt again with the
 * owner's hidden cards, like the cards under it. */
static void test_determinize_deals_face_down_discard_top_again(void **st)
{
    (void)st;
    chancellor_deck_face_down();
    assert_string_equal(kind(), "buy");
    const dom_zone *d0 = &G->p[0].z[Z_DISCARD];
    assert_int_equal(d0->n, 3);
    assert_int_equal(d0->c[2], C_GOLD);
    char *before = view_json(&G->base, 1);
    int moved = 0;
    for (uint64_t seed = 1; seed <= 40; seed++) {
        dom_game *c = (dom_game *)G->base.vt->clone(&G->base);
        c->base.vt->determinize(&c->base, 1, seed);
        check_one(G, c, 1, before);
        moved += c->p[0].z[Z_DISCARD].c[2] != C_GOLD;
        game_free(&c->base);
    }
    free(before);
    assert_true(moved > 10);
}

/* Pearl Diver may put the bottom card on top, unseen: the others no longer
 * know where the Golds Treasure Map put onto the deck lie (one slot lower,
 * or not), whatever was chosen. */
static void test_determinize_forgets_deck_slots_after_pearl_diver(void **st)
{
    (void)st;
    for (int moved_up = 0; moved_up < 2; moved_up++) {
        mk(2, "Treasure Map,Pearl Diver");
        set(0, Z_HAND, "Village,Treasure Map,Treasure Map,Pearl Diver");
        set(0, Z_DECK, "Copper,Silver,Silver,Duchy,Curse,Estate");
        begin(0);
        pick("play:Village");
        pick("play:Treasure Map");
        assert_string_equal(top(0), "Gold");
        pick("play:Pearl Diver");
        pick(moved_up ? "top:Estate" : "keep:Estate");
        assert_string_equal(top(0), moved_up ? "Estate" : "Gold");
        assert_string_equal(kind(), "buy");
        const dom_zone *d = &G->p[0].z[Z_DECK];
        int n = d->n, slot = n - 2, other = 0;
        assert_int_equal(d->c[slot], C_GOLD);
        char *before = view_json(&G->base, 1);
        for (uint64_t seed = 1; seed <= 40; seed++) {
            dom_game *c = (dom_game *)G->base.vt->clone(&G->base);
            c->base.vt->determinize(&c->base, 1, seed);
            check_one(G, c, 1, before);
            other += c->p[0].z[Z_DECK].c[slot] != C_GOLD;
            game_free(&c->base);
        }
        free(before);
        assert_true(other > 10);
    }
}

/* A different seed reseeds the game's own generator: the next shuffle of
 * the clones differs. */
static void test_determinize_reseeds_future_shuffles(void **st)
{
    (void)st;
    char err[256];
    arena_game *g = dominion_game.create(NULL, 0, 5, 2, ARENA_GAME_NO_EVENTS, err, sizeof err);
    assert_non_null(g);
    int differ = 0;
    for (uint64_t seed = 1; seed <= 10; seed++) {
        dom_game *a = (dom_game *)g->vt->clone(g), *b = (dom_game *)g->vt->clone(g);
        a->base.vt->determinize(&a->base, 0, seed);
        b->base.vt->determinize(&b->base, 0, seed + 100);
        differ += memcmp(&a->rng, &b->rng, sizeof a->rng) != 0;
        assert_true(memcmp(&a->rng, &((dom_game *)g)->rng, sizeof a->rng) != 0);
        game_free(&a->base);
        game_free(&b->base);
    }
    assert_int_equal(differ, 10);
    game_free(g);
}

#define T(f) cmocka_unit_test_teardown(f, teardown)
int main(void)
{
    const struct CMUnitTest tests[] = {
        T(test_determinize_keeps_views_and_cards_and_plays_on),
        T(test_determinize_keeps_deck_tops_the_seat_saw),
        T(test_determinize_keeps_public_discards),
        T(test_determinize_keeps_hand_cards_everyone_saw),
        T(test_determinize_deals_face_down_discard_top_again),
        T(test_determinize_forgets_deck_slots_after_pearl_diver),
        T(test_determinize_reseeds_future_shuffles),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
