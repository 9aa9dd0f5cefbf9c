/* The 26 Seaside kingdom cards, one named test each (rulings are in
 * test_rulings.c). */
#include "harness.h"

/* 2 players: ends seat 0's turn and seat 1's; seat 0's next turn begins. */
static void next_own_turn(void)
{
    end_turn();
    end_turn();
}

static void test_card_ambassador(void **st)
{
    (void)st;
    mk(2, "Ambassador");
    set(0, Z_HAND, "Ambassador,Estate,Estate,Copper");
    begin(0);
    pick("play:Ambassador");
    assert_string_equal(kind(), "ambassador-reveal");
    pick("card:Estate");
    assert_string_equal(kind(), "ambassador-return");
    arena_decision d;
    assert_true(game_decision(&G->base, &d));
    assert_int_equal(d.pick_min, 0);
    assert_int_equal(d.pick_max, 2);
    pick("card:Estate,card:Estate#2");
    assert_int_equal(n_in(0, Z_HAND, "Estate"), 0);
    assert_int_equal(n_in(1, Z_DISCARD, "Estate"), 1);
    assert_int_equal(G->supply[C_ESTATE], 8 + 2 - 1);
}

static void test_card_bazaar(void **st)
{
    (void)st;
    mk(2, "Bazaar");
    set(0, Z_HAND, "Bazaar");
    set(0, Z_DECK, "Estate");
    begin(0);
    pick("play:Bazaar");
    assert_int_equal(zn(0, Z_HAND), 1);
    assert_int_equal(G->actions, 2);
    assert_int_equal(G->coins, 1);
}

static void test_card_caravan(void **st)
{
    (void)st;
    mk(2, "Caravan");
    set(0, Z_HAND, "Caravan");
    set(0, Z_DECK, "Copper,Estate,Estate,Estate,Estate,Estate,Gold");
    begin(0);
    pick("play:Caravan");
    assert_int_equal(held(0, "Copper"), 1);
    assert_int_equal(G->actions, 1);
    next_own_turn();
    assert_int_equal(n_in(0, Z_HAND, "Estate"), 5);
    assert_int_equal(held(0, "Gold"), 1);
    assert_int_equal(n_in(0, Z_DUR, "Caravan"), 1);
    end_turn();
    /* discarded in that Clean-up (and maybe shuffled into the new hand) */
    assert_int_equal(n_in(0, Z_DUR, "Caravan"), 0);
    assert_int_equal(
        n_in(0, Z_DISCARD, "Caravan") + n_in(0, Z_HAND, "Caravan") + n_in(0, Z_DECK, "Caravan"), 1);
}

static void test_card_cutpurse(void **st)
{
    (void)st;
    mk(3, "Cutpurse");
    set(0, Z_HAND, "Cutpurse");
    set(1, Z_HAND, "Copper,Copper,Estate");
    set(2, Z_HAND, "Estate,Silver");
    begin(0);
    pick("play:Cutpurse");
    assert_int_equal(n_in(1, Z_HAND, "Copper"), 1);
    assert_int_equal(n_in(1, Z_DISCARD, "Copper"), 1);
    assert_int_equal(zn(2, Z_HAND), 2);
    assert_int_equal(G->coins, 2);
}

static void test_card_embargo(void **st)
{
    (void)st;
    mk(2, "Embargo");
    set(0, Z_HAND, "Embargo");
    begin(0);
    pick("play:Embargo");
    assert_string_equal(kind(), "embargo-pile");
    pick("card:Province");
    assert_int_equal(G->embargo[C_PROVINCE], 1);
    assert_int_equal(G->trash[C_EMBARGO], 1);
    assert_int_equal(G->coins, 2);
}

static void test_card_explorer(void **st)
{
    (void)st;
    mk(2, "Explorer");
    set(0, Z_HAND, "Explorer,Province");
    begin(0);
    pick("play:Explorer");
    assert_string_equal(kind(), "explorer-reveal");
    pick("reveal:Province");
    assert_int_equal(held(0, "Gold"), 1);
    mk(2, "Explorer");
    set(0, Z_HAND, "Explorer,Estate");
    begin(0);
    pick("play:Explorer");
    assert_int_equal(held(0, "Silver"), 1);
}

static void test_card_fishing_village(void **st)
{
    (void)st;
    mk(2, "Fishing Village");
    set(0, Z_HAND, "Fishing Village");
    begin(0);
    pick("play:Fishing Village");
    assert_int_equal(G->actions, 2);
    assert_int_equal(G->coins, 1);
    next_own_turn();
    assert_int_equal(G->actions, 2);
    assert_int_equal(G->coins, 1);
    assert_int_equal(n_in(0, Z_DUR, "Fishing Village"), 1);
}

static void test_card_ghost_ship(void **st)
{
    (void)st;
    mk(2, "Ghost Ship");
    set(0, Z_HAND, "Ghost Ship");
    set(1, Z_HAND, "Copper,Silver,Gold,Estate,Duchy");
    begin(0);
    pick("play:Ghost Ship");
    arena_decision d;
    assert_true(game_decision(&G->base, &d));
    assert_string_equal(d.kind, "ghost-ship-topdeck");
    assert_int_equal(d.seat, 1);
    assert_true(d.pick_ordered);
    assert_int_equal(d.pick_min, 2);
    pick("card:Estate,card:Duchy");
    assert_string_equal(top(1), "Duchy");
    assert_int_equal(zn(1, Z_HAND), 3);
}

static void test_card_haven(void **st)
{
    (void)st;
    mk(2, "Haven");
    set(0, Z_HAND, "Haven,Gold");
    set(0, Z_DECK, "Copper");
    begin(0);
    pick("play:Haven");
    assert_string_equal(kind(), "haven-set-aside");
    pick("card:Gold");
    assert_int_equal(n_in(0, Z_HAVEN, "Gold"), 1);
    assert_int_equal(G->coins, 1);
    next_own_turn();
    assert_int_equal(held(0, "Gold"), 1);
    assert_int_equal(zn(0, Z_HAVEN), 0);
    assert_int_equal(n_in(0, Z_DUR, "Haven"), 1);
}

static void test_card_island(void **st)
{
    (void)st;
    mk(2, "Island");
    set(0, Z_HAND, "Island,Estate,Copper");
    begin(0);
    pick("play:Island");
    pick("card:Estate");
    assert_int_equal(n_in(0, Z_ISLAND, "Island"), 1);
    assert_int_equal(n_in(0, Z_ISLAND, "Estate"), 1);
    assert_int_equal(zn(0, Z_PLAY), 1); /* the Copper */
    assert_int_equal(dom_score(G, 0), 3);
}

static void test_card_lighthouse(void **st)
{
    (void)st;
    mk(2, "Lighthouse");
    set(0, Z_HAND, "Lighthouse");
    begin(0);
    pick("play:Lighthouse");
    assert_int_equal(G->actions, 1);
    assert_int_equal(G->coins, 1);
    next_own_turn();
    assert_int_equal(G->coins, 1);
}

static void test_card_lookout(void **st)
{
    (void)st;
    mk(2, "Lookout");
    set(0, Z_HAND, "Lookout");
    set(0, Z_DECK, "Gold,Estate,Copper,Silver");
    begin(0);
    pick("play:Lookout");
    assert_string_equal(kind(), "lookout-trash");
    pick("card:Estate");
    assert_string_equal(kind(), "lookout-discard");
    assert_false(has_opt("card:Estate"));
    pick("card:Copper");
    assert_int_equal(G->trash[C_ESTATE], 1);
    assert_int_equal(n_in(0, Z_DISCARD, "Copper"), 1);
    assert_string_equal(top(0), "Gold");
    assert_int_equal(zn(0, Z_DECK), 2);
}

static void test_card_merchant_ship(void **st)
{
    (void)st;
    mk(2, "Merchant Ship");
    set(0, Z_HAND, "Merchant Ship");
    begin(0);
    pick("play:Merchant Ship");
    assert_int_equal(G->coins, 2);
    next_own_turn();
    assert_int_equal(G->coins, 2);
}

static void test_card_native_village(void **st)
{
    (void)st;
    mk(2, "Native Village");
    set(0, Z_HAND, "Native Village,Native Village");
    set(0, Z_DECK, "Gold,Estate");
    begin(0);
    pick("play:Native Village");
    pick("to-mat");
    assert_int_equal(n_in(0, Z_NVMAT, "Gold"), 1);
    assert_int_equal(G->actions, 2);
    pick("play:Native Village");
    pick("take-mat");
    assert_int_equal(zn(0, Z_NVMAT), 0);
    assert_int_equal(held(0, "Gold"), 1);
    /* the seat sees its mat, others only its size */
    av *v0 = game_view(&G->base, 0);
    av *v1 = game_view(&G->base, 1);
    const av *p0 = av_get(v0, "players")->u.list.items[0];
    const av *p0b = av_get(v1, "players")->u.list.items[0];
    assert_non_null(av_get(p0, "native_village_mat"));
    assert_null(av_get(p0b, "native_village_mat"));
    assert_null(av_get(p0b, "hand"));
    av_free(v0);
    av_free(v1);
}

static void test_card_navigator(void **st)
{
    (void)st;
    mk(2, "Navigator");
    set(0, Z_HAND, "Navigator");
    set(0, Z_DECK, "Copper,Estate,Silver,Gold,Duchy,Province");
    begin(0);
    pick("play:Navigator");
    assert_string_equal(kind(), "navigator-mode");
    pick("keep");
    arena_decision d;
    assert_true(game_decision(&G->base, &d));
    assert_string_equal(d.kind, "navigator-order");
    assert_true(d.pick_ordered);
    assert_int_equal(d.pick_min, 5);
    pick("card:Duchy,card:Estate,card:Copper,card:Silver,card:Gold");
    assert_string_equal(top(0), "Gold");
    assert_int_equal(zn(0, Z_DECK), 6);
    assert_int_equal(G->coins, 2);

    mk(2, "Navigator");
    set(0, Z_HAND, "Navigator");
    set(0, Z_DECK, "Copper,Estate,Silver,Gold,Duchy,Province");
    begin(0);
    pick("play:Navigator");
    pick("discard");
    assert_int_equal(zn(0, Z_DISCARD), 5);
    assert_string_equal(top(0), "Province");
}

static void test_card_outpost(void **st)
{
    (void)st;
    mk(2, "Outpost");
    set(0, Z_HAND, "Outpost");
    set(0, Z_DECK, "Estate,Estate,Estate,Estate,Estate,Estate");
    begin(0);
    pick("play:Outpost");
    end_turn();
    assert_int_equal(G->cur, 0);
    assert_true(G->extra_turn);
    assert_int_equal(zn(0, Z_HAND), 3);
    assert_int_equal(n_in(0, Z_DUR, "Outpost"), 1);
}

static void test_card_pearl_diver(void **st)
{
    (void)st;
    mk(2, "Pearl Diver");
    set(0, Z_HAND, "Pearl Diver");
    set(0, Z_DECK, "Copper,Estate,Gold");
    begin(0);
    pick("play:Pearl Diver");
    assert_string_equal(kind(), "pearl-diver");
    pick("top:Gold");
    assert_string_equal(top(0), "Gold");
    assert_int_equal(zn(0, Z_DECK), 2);
    assert_int_equal(G->actions, 1);
}

static void test_card_pirate_ship(void **st)
{
    (void)st;
    mk(2, "Pirate Ship");
    set(0, Z_HAND, "Pirate Ship");
    set(1, Z_DECK, "Gold,Silver");
    begin(0);
    pick("play:Pirate Ship");
    pick("attack");
    assert_string_equal(kind(), "pirate-ship-trash");
    pick("card:Gold");
    assert_int_equal(G->trash[C_GOLD], 1);
    assert_int_equal(n_in(1, Z_DISCARD, "Silver"), 1);
    assert_int_equal(G->p[0].coin_tokens, 1);
    assert_int_equal(n_in(0, Z_DISCARD, "Gold"), 0);
    end_turn();
    end_turn();
    set(0, Z_HAND, "Pirate Ship");
    begin(0);
    pick("play:Pirate Ship");
    pick("coins");
    assert_int_equal(G->coins, 1);
}

static void test_card_salvager(void **st)
{
    (void)st;
    mk(2, "Salvager");
    set(0, Z_HAND, "Salvager,Gold");
    begin(0);
    pick("play:Salvager");
    assert_int_equal(G->trash[C_GOLD], 1);
    assert_int_equal(G->coins, 6);
    assert_int_equal(G->buys, 2);
}

static void test_card_sea_hag(void **st)
{
    (void)st;
    mk(2, "Sea Hag");
    set(0, Z_HAND, "Sea Hag");
    set(1, Z_DECK, "Gold,Estate");
    begin(0);
    pick("play:Sea Hag");
    assert_int_equal(n_in(1, Z_DISCARD, "Gold"), 1);
    assert_string_equal(top(1), "Curse");
    assert_int_equal(zn(1, Z_DECK), 2);
}

static void test_card_smugglers(void **st)
{
    (void)st;
    mk(2, "Smugglers");
    G->p[1].gained_last = (1ull << C_GOLD) | (1ull << C_PROVINCE);
    set(0, Z_HAND, "Smugglers");
    begin(0);
    pick("play:Smugglers"); /* Gold is the only choice: Province costs 8 */
    assert_int_equal(n_in(0, Z_DISCARD, "Gold"), 1);
}

static void test_card_tactician(void **st)
{
    (void)st;
    mk(2, "Tactician");
    set(0, Z_HAND, "Tactician,Copper,Estate");
    set(0, Z_DECK, "Estate,Estate,Estate,Estate,Estate,Duchy,Duchy,Duchy,Duchy,Duchy");
    begin(0);
    pick("play:Tactician");
    assert_int_equal(zn(0, Z_HAND), 0);
    assert_int_equal(G->coins, 0);
    next_own_turn();
    assert_int_equal(zn(0, Z_HAND), 10);
    assert_int_equal(G->actions, 2);
    assert_int_equal(G->buys, 2);
}

static void test_card_treasure_map(void **st)
{
    (void)st;
    mk(2, "Treasure Map");
    set(0, Z_HAND, "Treasure Map,Treasure Map");
    begin(0);
    pick("play:Treasure Map");
    assert_int_equal(G->trash[C_TREASURE_MAP], 2);
    assert_int_equal(zn(0, Z_DECK), 4);
    assert_string_equal(top(0), "Gold");
    mk(2, "Treasure Map");
    set(0, Z_HAND, "Treasure Map");
    begin(0);
    pick("play:Treasure Map");
    assert_int_equal(G->trash[C_TREASURE_MAP], 1);
    assert_int_equal(zn(0, Z_DECK), 0);
}

static void test_card_treasury(void **st)
{
    (void)st;
    mk(2, "Treasury");
    set(0, Z_HAND, "Treasury");
    set(0, Z_DECK, "Copper");
    begin(0);
    pick("play:Treasury");
    assert_int_equal(G->coins, 2);
    pick("end-turn");
    assert_string_equal(kind(), "treasury-topdeck");
    pick("card:Treasury");
    /* on top of the deck before the new hand is drawn */
    assert_int_equal(n_in(0, Z_HAND, "Treasury"), 1);
}

static void test_card_warehouse(void **st)
{
    (void)st;
    mk(2, "Warehouse");
    set(0, Z_HAND, "Warehouse,Estate,Estate");
    set(0, Z_DECK, "Copper,Duchy,Silver");
    begin(0);
    pick("play:Warehouse");
    arena_decision d;
    assert_true(game_decision(&G->base, &d));
    assert_int_equal(d.pick_min, 3);
    pick("card:Estate,card:Estate#2,card:Duchy");
    assert_int_equal(zn(0, Z_DISCARD), 3);
    assert_int_equal(G->coins, 3);
}

static void test_card_wharf(void **st)
{
    (void)st;
    mk(2, "Wharf");
    set(0, Z_HAND, "Wharf");
    set(0, Z_DECK, "Estate,Estate,Estate,Estate,Estate,Estate,Estate,Duchy,Duchy");
    begin(0);
    pick("play:Wharf");
    assert_int_equal(zn(0, Z_HAND), 2);
    assert_int_equal(G->buys, 2);
    next_own_turn();
    assert_int_equal(zn(0, Z_HAND), 7);
    assert_int_equal(n_in(0, Z_HAND, "Duchy"), 2);
    assert_int_equal(G->buys, 2);
}

int main(void)
{
#define T(f) cmocka_unit_test_teardown(f, teardown)
    const struct CMUnitTest tests[] = {
        T(test_card_ambassador),      T(test_card_bazaar),         T(test_card_caravan),
        T(test_card_cutpurse),        T(test_card_embargo),        T(test_card_explorer),
        T(test_card_fishing_village), T(test_card_ghost_ship),     T(test_card_haven),
        T(test_card_island),          T(test_card_lighthouse),     T(test_card_lookout),
        T(test_card_merchant_ship),   T(test_card_native_village), T(test_card_navigator),
        T(test_card_outpost),         T(test_card_pearl_diver),    T(test_card_pirate_ship),
        T(test_card_salvager),        T(test_card_sea_hag),        T(test_card_smugglers),
        T(test_card_tactician),       T(test_card_treasure_map),   T(test_card_treasury),
        T(test_card_warehouse),       T(test_card_wharf),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
