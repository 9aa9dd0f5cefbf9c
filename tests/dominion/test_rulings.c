/* Every ruling of the digest's "Rulings to follow", one named test each,
 * plus Throne Room with every card type it can meet. */
#include "harness.h"

static void next_own_turn(void)
{
    end_turn();
    end_turn();
}

static void test_ruling_throne_room_wharf_doubles_next_turn(void **st)
{
    (void)st;
    mk(2, "Throne Room,Wharf");
    set(0, Z_HAND, "Throne Room,Wharf");
    set(0, Z_DECK,
        "Estate,Estate,Estate,Estate,Estate,Estate,Estate,Estate,Estate,"
        "Duchy,Duchy,Duchy,Duchy");
    begin(0);
    pick("play:Throne Room");
    assert_int_equal(zn(0, Z_HAND), 4);
    assert_int_equal(G->buys, 3);
    next_own_turn();
    assert_int_equal(zn(0, Z_HAND), 9);
    assert_int_equal(n_in(0, Z_HAND, "Duchy"), 4);
    assert_int_equal(G->buys, 3);
    assert_int_equal(n_in(0, Z_DUR, "Throne Room"), 1);
    assert_int_equal(n_in(0, Z_DUR, "Wharf"), 1);
}

static void test_ruling_throne_room_duration_stays_in_play(void **st)
{
    (void)st;
    mk(2, "Throne Room,Merchant Ship");
    set(0, Z_HAND, "Throne Room,Merchant Ship");
    begin(0);
    pick("play:Throne Room");
    assert_int_equal(G->coins, 4);
    end_turn();
    assert_int_equal(n_in(0, Z_DUR, "Throne Room"), 1);
    assert_int_equal(n_in(0, Z_DUR, "Merchant Ship"), 1);
    end_turn();
    assert_int_equal(G->coins, 4);
    end_turn();
    assert_int_equal(zn(0, Z_DUR), 0);
}

static void test_ruling_throne_room_haven_sets_aside_two(void **st)
{
    (void)st;
    mk(2, "Throne Room,Haven");
    set(0, Z_HAND, "Throne Room,Haven,Gold,Silver");
    set(0, Z_DECK, "Estate,Estate");
    begin(0);
    pick("play:Throne Room");
    assert_string_equal(kind(), "haven-set-aside");
    pick("card:Gold");
    assert_string_equal(kind(), "haven-set-aside");
    pick("card:Silver");
    assert_int_equal(zn(0, Z_HAVEN), 2);
    next_own_turn();
    assert_int_equal(held(0, "Gold"), 1);
    assert_int_equal(held(0, "Silver"), 1);
}

static void test_ruling_throne_room_tactician_one_bonus(void **st)
{
    (void)st;
    mk(2, "Throne Room,Tactician");
    set(0, Z_HAND, "Throne Room,Tactician,Copper");
    set(0, Z_DECK,
        "Estate,Estate,Estate,Estate,Estate,Duchy,Duchy,Duchy,Duchy,Duchy,"
        "Duchy,Duchy,Duchy,Duchy,Duchy");
    begin(0);
    pick("play:Throne Room");
    next_own_turn();
    assert_int_equal(zn(0, Z_HAND), 10);
    assert_int_equal(G->actions, 2);
    assert_int_equal(G->buys, 2);
    assert_int_equal(n_in(0, Z_DUR, "Throne Room"), 1);
}

static void test_ruling_throne_room_feast_gains_two(void **st)
{
    (void)st;
    mk(2, "Throne Room,Feast");
    set(0, Z_HAND, "Throne Room,Feast");
    begin(0);
    pick("play:Throne Room");
    pick("card:Duchy");
    assert_string_equal(kind(), "feast-gain");
    pick("card:Duchy");
    assert_int_equal(n_in(0, Z_DISCARD, "Duchy"), 2);
    assert_int_equal(G->trash[C_FEAST], 1);
    assert_int_equal(n_in(0, Z_PLAY, "Throne Room"), 1);
}

static void test_ruling_throne_room_embargo_four_coins_two_tokens(void **st)
{
    (void)st;
    mk(2, "Throne Room,Embargo");
    set(0, Z_HAND, "Throne Room,Embargo");
    begin(0);
    pick("play:Throne Room");
    pick("card:Province");
    pick("card:Province");
    assert_int_equal(G->embargo[C_PROVINCE], 2);
    assert_int_equal(G->coins, 4);
    assert_int_equal(G->trash[C_EMBARGO], 1);
}

static void test_ruling_throne_room_island_sets_aside_two_cards(void **st)
{
    (void)st;
    mk(2, "Throne Room,Island");
    set(0, Z_HAND, "Throne Room,Island,Estate,Duchy");
    begin(0);
    pick("play:Throne Room");
    pick("card:Estate");
    assert_int_equal(zn(0, Z_ISLAND), 3); /* Island, Estate and (forced) Duchy */
    assert_int_equal(n_in(0, Z_ISLAND, "Duchy"), 1);
    assert_int_equal(n_in(0, Z_PLAY, "Throne Room"), 1);
}

static void test_ruling_throne_room_attack_moat_answers_each_play(void **st)
{
    (void)st;
    mk(2, "Throne Room,Militia,Moat");
    set(0, Z_HAND, "Throne Room,Militia");
    set(1, Z_HAND, "Moat,Copper,Copper,Copper,Estate");
    begin(0);
    pick("play:Throne Room");
    assert_string_equal(kind(), "moat-reveal");
    assert_int_equal(dseat(), 1);
    pick("reveal:Moat");
    assert_int_equal(zn(1, Z_HAND), 5);
    assert_string_equal(kind(), "moat-reveal");
    pick("pass:Moat");
    assert_string_equal(kind(), "militia-discard");
    pick("card:Estate,card:Copper");
    assert_int_equal(zn(1, Z_HAND), 3);
    assert_int_equal(G->coins, 4);
}

static void test_ruling_throne_room_must_choose_an_action(void **st)
{
    (void)st;
    mk(2, "Throne Room,Smithy,Village");
    set(0, Z_HAND, "Throne Room,Smithy,Village");
    begin(0);
    pick("play:Throne Room");
    arena_decision d;
    assert_true(game_decision(&G->base, &d));
    assert_string_equal(d.kind, "throne-room");
    assert_int_equal(d.n_options, 2);
    assert_int_equal(d.pick_min, 1);
}

static void test_ruling_first_edition_mandatory_trash(void **st)
{
    (void)st;
    mk(2, "Remodel,Moneylender");
    set(0, Z_HAND, "Remodel,Estate");
    begin(0);
    pick("play:Remodel");
    assert_string_equal(kind(), "remodel-gain"); /* the Estate had to go */
    assert_int_equal(G->trash[C_ESTATE], 1);
    mk(2, "Remodel,Moneylender");
    set(0, Z_HAND, "Moneylender,Copper");
    begin(0);
    pick("play:Moneylender");
    assert_int_equal(G->trash[C_COPPER], 1);
    assert_int_equal(G->coins, 3);
}

static void test_ruling_outpost_three_cards_extra_turn_not_counted(void **st)
{
    (void)st;
    mk(2, "Outpost,Wharf");
    set(0, Z_HAND, "Outpost,Wharf");
    set(0, Z_DECK, "Estate,Estate,Estate,Estate,Estate,Duchy,Duchy,Duchy,Duchy,Duchy");
    begin(0);
    int turns = G->p[0].turns;
    pick("play:Outpost");
    end_turn();
    /* extra turn with 3 cards (the Wharf was not played) */
    assert_int_equal(G->cur, 0);
    assert_true(G->extra_turn);
    assert_int_equal(zn(0, Z_HAND), 3);
    assert_int_equal(G->buys, 1);
    assert_int_equal(G->p[0].turns, turns);
    end_turn();
    assert_int_equal(G->cur, 1);
    assert_int_equal(zn(0, Z_HAND), 5);
    assert_int_equal(n_in(0, Z_DUR, "Outpost"), 0);
}

static void test_ruling_outpost_with_wharf_next_turn_is_extra_turn(void **st)
{
    (void)st;
    mk(2, "Outpost,Wharf,Village");
    set(0, Z_HAND, "Village,Outpost,Wharf");
    set(0, Z_DECK, "Estate,Estate,Estate,Estate,Estate,Estate,Duchy,Duchy,Duchy,Duchy,Duchy");
    begin(0);
    pick("play:Village");
    pick("play:Wharf");
    pick("play:Outpost");
    end_turn();
    assert_true(G->extra_turn);
    assert_int_equal(zn(0, Z_HAND), 5); /* 3 + 2 from Wharf */
    assert_int_equal(G->buys, 2);
}

static void test_ruling_outpost_second_in_same_turn_no_more_turns(void **st)
{
    (void)st;
    mk(2, "Outpost,Village");
    set(0, Z_HAND, "Village,Outpost,Outpost");
    set(0, Z_DECK, "Estate,Estate,Estate,Estate,Estate,Estate,Estate,Estate,Estate,Estate");
    begin(0);
    pick("play:Village");
    pick("play:Outpost");
    pick("play:Outpost");
    end_turn();
    assert_true(G->extra_turn);
    assert_int_equal(n_in(0, Z_DUR, "Outpost"), 1);
    assert_int_equal(n_in(0, Z_DISCARD, "Outpost"), 1);
    end_turn();
    assert_int_equal(G->cur, 1);
}

static void test_ruling_outpost_in_extra_turn_gives_no_turn(void **st)
{
    (void)st;
    mk(2, "Outpost");
    set(0, Z_HAND, "Outpost");
    set(0, Z_DECK, "Outpost,Estate,Estate,Estate,Estate,Estate,Estate,Estate");
    begin(0);
    pick("play:Outpost");
    end_turn();
    assert_true(G->extra_turn);
    pick("play:Outpost");
    end_turn();
    assert_int_equal(G->cur, 1);
    assert_int_equal(zn(0, Z_HAND), 5);
}

static void test_ruling_lighthouse_protects_automatically_moat_still_offered(void **st)
{
    (void)st;
    mk(2, "Lighthouse,Militia,Moat");
    set(0, Z_HAND, "Militia");
    set(1, Z_DUR, "Lighthouse");
    set(1, Z_HAND, "Moat,Copper,Copper,Copper,Estate");
    begin(0);
    pick("play:Militia");
    assert_string_equal(kind(), "moat-reveal");
    pick("pass:Moat");
    assert_int_equal(zn(1, Z_HAND), 5);
    assert_string_equal(kind(), "buy");
    /* without a Moat nobody is asked */
    mk(2, "Lighthouse,Militia,Moat");
    set(0, Z_HAND, "Militia");
    set(1, Z_PLAY, "Lighthouse");
    set(1, Z_HAND, "Copper,Copper,Copper,Copper,Estate");
    begin(0);
    pick("play:Militia");
    assert_string_equal(kind(), "buy");
    assert_int_equal(zn(1, Z_HAND), 5);
}

static void test_ruling_moat_stays_in_hand_attacker_keeps_benefit(void **st)
{
    (void)st;
    mk(2, "Witch,Moat");
    set(0, Z_HAND, "Witch");
    set(0, Z_DECK, "Estate,Estate");
    set(1, Z_HAND, "Moat");
    begin(0);
    pick("play:Witch");
    pick("reveal:Moat");
    assert_int_equal(n_in(1, Z_HAND, "Moat"), 1);
    assert_int_equal(G->supply[C_CURSE], 10);
    assert_int_equal(zn(0, Z_HAND), 2);
}

static void test_ruling_treasury_stopped_by_buying_victory(void **st)
{
    (void)st;
    const char *buys[] = {"buy:Estate", "buy:Island"};
    for (int i = 0; i < 2; i++) {
        mk(2, "Treasury,Island");
        set(0, Z_HAND, "Treasury,Gold");
        set(0, Z_DECK, "Copper,Copper,Copper,Copper,Copper,Copper");
        begin(0);
        pick("play:Treasury");
        pick(buys[i]);
        assert_int_equal(G->cur, 1); /* no treasury-topdeck decision */
        assert_int_equal(n_in(0, Z_DISCARD, "Treasury"), 1);
    }
}

static void test_ruling_treasury_not_stopped_by_gaining_victory(void **st)
{
    (void)st;
    mk(2, "Treasury,Workshop,Village");
    set(0, Z_HAND, "Village,Treasury,Workshop");
    set(0, Z_DECK, "Copper,Copper,Copper,Copper,Copper,Copper,Copper");
    begin(0);
    pick("play:Village");
    pick("play:Treasury");
    pick("play:Workshop");
    pick("card:Estate");
    pick("end-turn");
    assert_string_equal(kind(), "treasury-topdeck");
}

static void test_ruling_smugglers_any_gain_cost_up_to_six(void **st)
{
    (void)st;
    mk(2, "Smugglers,Workshop");
    set(0, Z_HAND, "Smugglers");
    set(1, Z_HAND, "Workshop,Gold,Gold");
    begin(1);
    pick("play:Workshop");
    pick("card:Smithy");
    pick("buy:Gold");
    /* seat 0's turn: Smithy (gained) and Gold (bought) are offered */
    assert_int_equal(G->cur, 0);
    pick("play:Smugglers");
    assert_string_equal(kind(), "smugglers-gain");
    assert_true(has_opt("card:Smithy"));
    assert_true(has_opt("card:Gold"));
    pick("card:Gold");
    assert_int_equal(n_in(0, Z_DISCARD, "Gold"), 1);
}

static void test_ruling_smugglers_nothing_if_none(void **st)
{
    (void)st;
    mk(2, "Smugglers");
    G->p[1].gained_last = 1ull << C_PROVINCE; /* over $6 */
    set(0, Z_HAND, "Smugglers");
    begin(0);
    pick("play:Smugglers");
    assert_string_equal(kind(), "buy");
    assert_int_equal(dom_owned(G, 0), 1);
}

static void test_ruling_embargo_only_buying_triggers_tokens_stack(void **st)
{
    (void)st;
    mk(2, "Workshop");
    G->embargo[C_SILVER] = 2;
    set(0, Z_HAND, "Workshop,Silver,Copper");
    begin(0);
    pick("play:Workshop");
    pick("card:Silver");
    assert_int_equal(G->supply[C_CURSE], 10);
    pick("buy:Silver");
    assert_int_equal(
        n_in(0, Z_DISCARD, "Curse") + n_in(0, Z_HAND, "Curse") + n_in(0, Z_DECK, "Curse"), 2);
    assert_int_equal(G->supply[C_CURSE], 8);
}

static void test_ruling_embargo_no_curses_left_no_effect(void **st)
{
    (void)st;
    mk(2, "");
    G->embargo[C_SILVER] = 3;
    G->supply[C_CURSE] = 1;
    set(0, Z_HAND, "Silver,Copper");
    begin(0);
    pick("buy:Silver");
    assert_int_equal(G->supply[C_CURSE], 0);
    assert_int_equal(dom_owned_count(G, 0, C_CURSE), 1);
}

static void test_ruling_ambassador_zero_returned_others_still_gain(void **st)
{
    (void)st;
    mk(3, "Ambassador");
    set(0, Z_HAND, "Ambassador,Duchy");
    begin(0);
    pick("play:Ambassador");
    assert_string_equal(kind(), "ambassador-return");
    pick("");
    assert_int_equal(n_in(1, Z_DISCARD, "Duchy"), 1);
    assert_int_equal(n_in(2, Z_DISCARD, "Duchy"), 1);
    assert_int_equal(G->supply[C_DUCHY], 10);
    assert_int_equal(n_in(0, Z_HAND, "Duchy"), 1);
}

/* Seaside rulebook (SPIELENDE): a pile refilled by Ambassador in the same
 * turn still counts as empty at the end of that turn. */
static void test_ruling_ambassador_refilled_pile_still_ends_game(void **st)
{
    (void)st;
    mk(2, "Ambassador,Village,Smithy");
    G->supply[C_ESTATE] = 0;
    G->supply[C_VILLAGE] = 0;
    G->supply[C_SMITHY] = 0;
    set(0, Z_HAND, "Ambassador,Estate,Estate");
    begin(0);
    pick("play:Ambassador");
    pick("card:Estate,card:Estate#2");
    assert_int_equal(G->supply[C_ESTATE], 1);
    end_turn();
    assert_true(G->over);
}

/* The same when the pile is emptied during the turn (Workshop takes the
 * last Estate) and then refilled; two empty piles alone do not end it. */
static void test_ruling_pile_emptied_and_refilled_same_turn_ends_game(void **st)
{
    (void)st;
    for (int empty_it = 0; empty_it < 2; empty_it++) {
        mk(2, "Ambassador,Village,Workshop,Smithy,Market");
        G->supply[C_ESTATE] = 1;
        G->supply[C_SMITHY] = 0;
        G->supply[C_MARKET] = 0;
        set(0, Z_HAND, "Village,Workshop,Ambassador,Estate,Estate");
        set(0, Z_DECK, "Copper,Copper,Copper,Copper,Copper,Copper");
        set(1, Z_DECK, "Copper,Copper,Copper,Copper,Copper");
        begin(0);
        pick("play:Village");
        pick("play:Workshop");
        pick(empty_it ? "card:Estate" : "card:Silver");
        assert_int_equal(G->supply[C_ESTATE], empty_it ? 0 : 1);
        pick("play:Ambassador");
        pick("card:Estate");
        pick("card:Estate,card:Estate#2");
        assert_int_equal(G->supply[C_ESTATE], empty_it ? 1 : 2); /* seat 1 gained one */
        end_turn();
        assert_int_equal(G->over, empty_it);
    }
}

static void test_ruling_pirate_ship_one_token_mode_after_reactions(void **st)
{
    (void)st;
    mk(3, "Pirate Ship,Moat");
    set(0, Z_HAND, "Pirate Ship");
    set(1, Z_DECK, "Gold,Silver");
    set(2, Z_DECK, "Silver");
    set(2, Z_HAND, "Moat");
    begin(0);
    pick("play:Pirate Ship");
    assert_string_equal(kind(), "moat-reveal"); /* before the mode */
    pick("pass:Moat");
    assert_string_equal(kind(), "pirate-ship-mode");
    pick("attack");
    pick("card:Gold");
    assert_int_equal(G->trash[C_GOLD], 1);
    assert_int_equal(G->trash[C_SILVER], 1); /* seat 2's only Treasure */
    assert_int_equal(G->p[0].coin_tokens, 1);
    assert_int_equal(dom_owned_count(G, 0, C_GOLD), 0);
}

static void test_ruling_island_alone_with_empty_hand(void **st)
{
    (void)st;
    mk(2, "Island");
    set(0, Z_HAND, "Island");
    begin(0);
    pick("play:Island");
    assert_int_equal(zn(0, Z_ISLAND), 1);
    assert_string_equal(kind(), "buy");
}

static void test_ruling_haven_tactician_empty_hand_discarded_this_turn(void **st)
{
    (void)st;
    const char *cards[] = {"Haven", "Tactician"};
    for (int i = 0; i < 2; i++) {
        mk(2, "Haven,Tactician");
        set(0, Z_HAND, cards[i]);
        begin(0);
        char lab[40];
        snprintf(lab, sizeof lab, "play:%s", cards[i]);
        pick(lab);
        end_turn();
        assert_int_equal(zn(0, Z_DUR), 0);
        assert_int_equal(G->p[0].dur_next[dom_card_by_name(cards[i])], 0);
    }
}

static void test_ruling_library_set_aside_not_shuffled(void **st)
{
    (void)st;
    mk(2, "Library,Village");
    set(0, Z_HAND, "Library");
    set(0, Z_DECK, "Village");
    set(0, Z_DISCARD, "Estate,Estate,Estate,Estate,Estate,Estate");
    begin(0);
    pick("play:Library");
    pick("set-aside:Village");
    assert_int_equal(zn(0, Z_HAND), 6); /* nothing left to draw a 7th */
    assert_int_equal(n_in(0, Z_DISCARD, "Village"), 1);
}

static void test_ruling_adventurer_revealed_not_shuffled(void **st)
{
    (void)st;
    mk(2, "Adventurer");
    set(0, Z_HAND, "Adventurer");
    set(0, Z_DECK, "Estate,Copper");
    set(0, Z_DISCARD, "Silver");
    begin(0);
    pick("play:Adventurer");
    assert_int_equal(held(0, "Copper"), 1);
    assert_int_equal(held(0, "Silver"), 1);
    assert_int_equal(n_in(0, Z_DISCARD, "Estate"), 1);
    assert_int_equal(zn(0, Z_DECK), 0);
}

static void test_ruling_cellar_cannot_discard_itself(void **st)
{
    (void)st;
    mk(2, "Cellar");
    set(0, Z_HAND, "Cellar,Cellar,Estate");
    begin(0);
    pick("play:Cellar");
    arena_decision d;
    assert_true(game_decision(&G->base, &d));
    assert_int_equal(d.n_options, 2); /* the other Cellar and the Estate */
}

static void test_ruling_mine_treasure_to_hand(void **st)
{
    (void)st;
    mk(2, "Mine,Village");
    set(0, Z_HAND, "Village,Mine,Silver");
    set(0, Z_DECK, "Estate");
    begin(0);
    pick("play:Village");
    pick("play:Mine");
    pick("card:Gold");
    assert_int_equal(held(0, "Gold"), 1);
    assert_int_equal(n_in(0, Z_DISCARD, "Gold"), 0);
}

static void test_ruling_witch_curses_in_turn_order_until_none(void **st)
{
    (void)st;
    mk(4, "Witch,Sea Hag,Village");
    G->supply[C_CURSE] = 2;
    set(0, Z_HAND, "Village,Witch,Sea Hag");
    set(0, Z_DECK, "Estate,Estate,Estate");
    begin(0);
    pick("play:Village");
    pick("play:Witch");
    assert_int_equal(dom_owned_count(G, 1, C_CURSE), 1);
    assert_int_equal(dom_owned_count(G, 2, C_CURSE), 1);
    assert_int_equal(dom_owned_count(G, 3, C_CURSE), 0);
    G->supply[C_CURSE] = 1;
    pick("play:Sea Hag");
    assert_string_equal(top(1), "Curse");
    assert_int_equal(dom_owned_count(G, 2, C_CURSE), 1);
    assert_int_equal(dom_owned_count(G, 3, C_CURSE), 0);
}

static void test_ruling_spy_includes_yourself(void **st)
{
    (void)st;
    mk(2, "Spy,Moat");
    set(0, Z_HAND, "Spy");
    set(0, Z_DECK, "Copper,Estate");
    set(1, Z_DECK, "Gold");
    set(1, Z_HAND, "Moat");
    begin(0);
    pick("play:Spy");
    pick("reveal:Moat");
    assert_string_equal(kind(), "spy-discard");
    pick("keep:Estate");
    assert_string_equal(kind(), "buy"); /* the Moat spared seat 1 */
    assert_string_equal(top(0), "Estate");
}

static void test_ruling_council_room_other_draw_mandatory(void **st)
{
    (void)st;
    mk(3, "Council Room");
    set(0, Z_HAND, "Council Room");
    set(1, Z_DECK, "Estate");
    set(2, Z_DECK, "Estate");
    begin(0);
    pick("play:Council Room");
    assert_int_equal(zn(1, Z_HAND), 1);
    assert_int_equal(zn(2, Z_HAND), 1);
    assert_string_equal(kind(), "buy");
}

static void test_ruling_events_hide_private_cards(void **st)
{
    (void)st;
    mk(2, "Haven");
    set(0, Z_HAND, "Haven,Gold");
    set(0, Z_DECK, "Copper");
    begin(0);
    size_t from = dominion_game.event_count(&G->base);
    pick("play:Haven");
    pick("card:Gold");
    int seen_by_owner = 0, seen_by_other = 0;
    for (size_t i = from; i < dominion_game.event_count(&G->base); i++) {
        const av *e0 = dominion_game.event(&G->base, i, 0);
        const av *e1 = dominion_game.event(&G->base, i, 1);
        if (e0 && av_get_str(e0, "card") && strcmp(av_get_str(e0, "card"), "Gold") == 0)
            seen_by_owner++;
        if (e1 && av_get_str(e1, "card") && strcmp(av_get_str(e1, "card"), "Gold") == 0)
            seen_by_other++;
    }
    assert_true(seen_by_owner > 0);
    assert_int_equal(seen_by_other, 0);
}

static void test_ruling_throne_room_throne_room_plays_two_actions_twice(void **st)
{
    (void)st;
    mk(2, "Throne Room,Woodcutter,Village");
    set(0, Z_HAND, "Throne Room,Throne Room,Woodcutter,Village");
    set(0, Z_DECK, "Estate,Estate");
    begin(0);
    pick("play:Throne Room");
    pick("card:Throne Room");
    pick("card:Woodcutter"); /* played twice */
    /* the second play of the inner Throne Room takes the Village */
    assert_int_equal(G->buys, 3);
    assert_int_equal(G->actions, 4);
    assert_int_equal(zn(0, Z_HAND), 2);
    assert_int_equal(G->coins, 4);
}

static void test_ruling_throne_room_treasure_map_needs_two_in_one_play(void **st)
{
    (void)st;
    mk(2, "Throne Room,Treasure Map");
    set(0, Z_HAND, "Throne Room,Treasure Map,Treasure Map,Treasure Map");
    begin(0);
    pick("play:Throne Room"); /* the map is the only Action: no question */
    /* first play: this one and one from hand -> 4 Golds; second play: the
     * last map alone -> nothing */
    assert_int_equal(G->trash[C_TREASURE_MAP], 3);
    assert_int_equal(zn(0, Z_DECK), 4);
}

static void test_ruling_throne_room_outpost_one_extra_turn(void **st)
{
    (void)st;
    mk(2, "Throne Room,Outpost");
    set(0, Z_HAND, "Throne Room,Outpost");
    set(0, Z_DECK, "Estate,Estate,Estate,Estate,Estate,Estate,Estate,Estate,Estate,Estate");
    begin(0);
    pick("play:Throne Room");
    end_turn();
    assert_true(G->extra_turn);
    assert_int_equal(zn(0, Z_HAND), 3);
    assert_int_equal(n_in(0, Z_DUR, "Throne Room"), 1);
    assert_int_equal(n_in(0, Z_DUR, "Outpost"), 1);
    end_turn();
    assert_int_equal(G->cur, 1);
}

static void test_ruling_throne_room_lighthouse_doubles_coins(void **st)
{
    (void)st;
    mk(2, "Throne Room,Lighthouse");
    set(0, Z_HAND, "Throne Room,Lighthouse");
    begin(0);
    pick("play:Throne Room");
    assert_int_equal(G->coins, 2);
    assert_int_equal(G->actions, 2);
    next_own_turn();
    assert_int_equal(G->coins, 2);
}

static void test_contract_unordered_pick_order_does_not_matter(void **st)
{
    (void)st;
    char *views[2];
    for (int k = 0; k < 2; k++) {
        mk(2, "Cellar");
        set(0, Z_HAND, "Cellar,Estate,Duchy,Copper");
        set(0, Z_DECK, "Silver,Silver");
        begin(0);
        pick("play:Cellar");
        pick(k ? "card:Duchy,card:Estate" : "card:Estate,card:Duchy");
        av *v = game_view(&G->base, -1);
        views[k] = av_to_json(v);
        av_free(v);
    }
    assert_string_equal(views[0], views[1]);
    free(views[0]);
    free(views[1]);
}

int main(void)
{
#define T(f) cmocka_unit_test_teardown(f, teardown)
    const struct CMUnitTest tests[] = {
        T(test_ruling_throne_room_wharf_doubles_next_turn),
        T(test_ruling_throne_room_duration_stays_in_play),
        T(test_ruling_throne_room_haven_sets_aside_two),
        T(test_ruling_throne_room_tactician_one_bonus),
        T(test_ruling_throne_room_feast_gains_two),
        T(test_ruling_throne_room_embargo_four_coins_two_tokens),
        T(test_ruling_throne_room_island_sets_aside_two_cards),
        T(test_ruling_throne_room_attack_moat_answers_each_play),
        T(test_ruling_throne_room_must_choose_an_action),
        T(test_ruling_first_edition_mandatory_trash),
        T(test_ruling_outpost_three_cards_extra_turn_not_counted),
        T(test_ruling_outpost_with_wharf_next_turn_is_extra_turn),
        T(test_ruling_outpost_second_in_same_turn_no_more_turns),
        T(test_ruling_outpost_in_extra_turn_gives_no_turn),
        T(test_ruling_lighthouse_protects_automatically_moat_still_offered),
        T(test_ruling_moat_stays_in_hand_attacker_keeps_benefit),
        T(test_ruling_treasury_stopped_by_buying_victory),
        T(test_ruling_treasury_not_stopped_by_gaining_victory),
        T(test_ruling_smugglers_any_gain_cost_up_to_six),
        T(test_ruling_smugglers_nothing_if_none),
        T(test_ruling_embargo_only_buying_triggers_tokens_stack),
        T(test_ruling_embargo_no_curses_left_no_effect),
        T(test_ruling_ambassador_zero_returned_others_still_gain),
        T(test_ruling_ambassador_refilled_pile_still_ends_game),
        T(test_ruling_pile_emptied_and_refilled_same_turn_ends_game),
        T(test_ruling_pirate_ship_one_token_mode_after_reactions),
        T(test_ruling_island_alone_with_empty_hand),
        T(test_ruling_haven_tactician_empty_hand_discarded_this_turn),
        T(test_ruling_library_set_aside_not_shuffled),
        T(test_ruling_adventurer_revealed_not_shuffled),
        T(test_ruling_cellar_cannot_discard_itself),
        T(test_ruling_mine_treasure_to_hand),
        T(test_ruling_witch_curses_in_turn_order_until_none),
        T(test_ruling_spy_includes_yourself),
        T(test_ruling_council_room_other_draw_mandatory),
        T(test_ruling_events_hide_private_cards),
        T(test_ruling_throne_room_throne_room_plays_two_actions_twice),
        T(test_ruling_throne_room_treasure_map_needs_two_in_one_play),
        T(test_ruling_throne_room_outpost_one_extra_turn),
        T(test_ruling_throne_room_lighthouse_doubles_coins),
        T(test_contract_unordered_pick_order_does_not_matter),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
