/* Core rules and the 25 Base kingdom cards, one named test each. */
#include "harness.h"

static void test_setup_supply_counts_by_player_number(void **st)
{
    (void)st;
    for (int np = 2; np <= 4; np++) {
        mk(np, "Gardens,Island");
        assert_int_equal(G->supply[C_COPPER], 60 - 7 * np);
        assert_int_equal(G->supply[C_SILVER], 40);
        assert_int_equal(G->supply[C_GOLD], 30);
        int v = np == 2 ? 8 : 12;
        assert_int_equal(G->supply[C_ESTATE], v);
        assert_int_equal(G->supply[C_DUCHY], v);
        assert_int_equal(G->supply[C_PROVINCE], v);
        assert_int_equal(G->supply[C_GARDENS], v);
        assert_int_equal(G->supply[C_ISLAND], v);
        assert_int_equal(G->supply[C_CURSE], 10 * (np - 1));
        assert_int_equal(G->supply[C_VILLAGE], 10);
        assert_false(G->in_supply[C_WITCH]);
    }
}

static void test_setup_starting_deck_seven_copper_three_estate(void **st)
{
    (void)st;
    char err[256];
    arena_game *g = dominion_game.create(NULL, 0, 5, 3, 0, err, sizeof err);
    assert_non_null(g);
    dom_game *d = (dom_game *)g;
    for (int s = 0; s < 3; s++) {
        assert_int_equal(dom_owned(d, s), 10);
        assert_int_equal(dom_owned_count(d, s, C_COPPER), 7);
        assert_int_equal(dom_owned_count(d, s, C_ESTATE), 3);
        /* seat 0 is already in its buy phase: its Treasures are in play */
        assert_int_equal(d->p[s].z[Z_HAND].n + d->p[s].z[Z_PLAY].n, 5);
        assert_int_equal(d->p[s].z[Z_DECK].n, 5);
    }
    game_free(g);
}

static void test_rule_buy_phase_plays_treasures_and_buys(void **st)
{
    (void)st;
    mk(2, "");
    set(0, Z_HAND, "Copper,Silver,Gold,Estate");
    begin(0);
    assert_string_equal(kind(), "buy");
    assert_int_equal(G->coins, 6);
    assert_true(has_opt("buy:Gold"));
    assert_true(has_opt("end-turn"));
    assert_false(has_opt("buy:Province"));
    pick("buy:Gold");
    assert_int_equal(dom_owned_count(G, 0, C_GOLD), 2);
    assert_int_equal(G->supply[C_GOLD], 29);
    assert_int_equal(G->cur, 1);
}

static void test_rule_action_phase_offers_each_action_once(void **st)
{
    (void)st;
    mk(2, "");
    set(0, Z_HAND, "Village,Village,Smithy,Copper");
    begin(0);
    assert_string_equal(kind(), "action");
    arena_decision d;
    assert_true(game_decision(&G->base, &d));
    assert_int_equal(d.n_options, 3);
    assert_true(has_opt("play:Village"));
    assert_true(has_opt("play:Smithy"));
    assert_true(has_opt("end-actions"));
}

static void test_rule_shuffle_discard_when_deck_empty(void **st)
{
    (void)st;
    mk(2, "");
    set(0, Z_HAND, "Smithy");
    set(0, Z_DECK, "Province");
    set(0, Z_DISCARD, "Duchy,Duchy");
    begin(0);
    pick("play:Smithy");
    assert_int_equal(n_in(0, Z_HAND, "Province"), 1);
    assert_int_equal(n_in(0, Z_HAND, "Duchy"), 2);
    assert_int_equal(zn(0, Z_DECK), 0);
    assert_int_equal(zn(0, Z_DISCARD), 0);
}

static void test_rule_game_ends_when_provinces_gone(void **st)
{
    (void)st;
    mk(2, "");
    G->supply[C_PROVINCE] = 1;
    set(0, Z_HAND, "Gold,Gold,Silver");
    begin(0);
    pick("buy:Province");
    assert_string_equal(kind(), "none");
    arena_result r;
    dominion_game.result(&G->base, &r);
    assert_true(r.over);
    assert_int_equal(r.scores[0], 6);
    assert_int_equal(r.ranks[0], 1);
    assert_int_equal(r.ranks[1], 2);
}

static void test_rule_game_ends_on_three_empty_piles_curse_counts(void **st)
{
    (void)st;
    mk(2, "");
    G->supply[C_CURSE] = 0;
    G->supply[C_VILLAGE] = 0;
    G->supply[C_SMITHY] = 1;
    begin(0);
    end_turn();
    assert_false(G->over);
    set(1, Z_HAND, "Silver,Silver");
    begin(1);
    pick("buy:Smithy");
    assert_true(G->over);
}

static void test_rule_tie_break_fewer_turns_then_shared(void **st)
{
    (void)st;
    for (int shared = 0; shared < 2; shared++) {
        mk(2, "");
        G->supply[C_PROVINCE] = 1;
        set(1, Z_DISCARD, "Province");
        G->p[0].turns = 4;
        G->p[1].turns = shared ? 5 : 4;
        set(0, Z_HAND, "Gold,Gold,Gold");
        begin(0);
        pick("buy:Province");
        arena_result r;
        dominion_game.result(&G->base, &r);
        assert_true(r.over);
        assert_int_equal(r.scores[0], r.scores[1]);
        assert_int_equal(r.ranks[1], 1);
        assert_int_equal(r.ranks[0], shared ? 1 : 2);
    }
}

static void test_rule_turn_limit_ends_game(void **st)
{
    (void)st;
    arena_setting s[2] = {{"kingdom", "first-game"}, {"max_turns", "2"}};
    char err[256];
    G = (dom_game *)dominion_game.create(s, 2, 3, 2, 0, err, sizeof err);
    assert_non_null(G);
    for (int i = 0; i < 3; i++) {
        end_turn();
        assert_false(G->over);
    }
    end_turn();
    assert_true(G->over);
    arena_result r;
    dominion_game.result(&G->base, &r);
    assert_int_equal(r.turns, 2);
}

/* The turn limit is never off. Players left with no cards and nothing at
 * $0 in the Supply (Chapel, Island, the Copper and Curse piles bought out:
 * two bots of one author can get there) are asked nothing more; with
 * max_turns=0 ("none") apply() turned over empty turns for ever inside the
 * referee's one loop, its memory growing. */
static void test_rule_turn_limit_is_never_off(void **st)
{
    (void)st;
    arena_setting zero[1] = {{"max_turns", "0"}};
    char err[256];
    assert_null(dominion_game.create(zero, 1, 3, 2, 0, err, sizeof err));
    assert_non_null(strstr(err, "from 1 to 1000"));
    mk(2, "Chapel,Island"); /* every zone empty */
    G->max_turns = 5;
    G->supply[C_COPPER] = G->supply[C_CURSE] = 0;
    begin(0);
    assert_true(G->over); /* (seat 0's first turn began at create) */
    assert_true(G->p[0].turns >= 5 && G->p[1].turns == 5);
}

static void test_option_named_kingdoms_and_errors(void **st)
{
    (void)st;
    char err[2048];
    for (int i = 0; i < dom_n_kingdom_sets; i++) {
        arena_setting s[1] = {{"kingdom", dom_kingdom_sets[i].id}};
        dom_game *g = (dom_game *)dominion_game.create(s, 1, 1, 2, 0, err, sizeof err);
        assert_non_null(g);
        for (int k = 0; k < 10; k++)
            assert_true(g->in_supply[dom_kingdom_sets[i].cards[k]]);
        av *set = dominion_game.settings(&g->base);
        assert_string_equal(av_get_str(set, "kingdom_id"), dom_kingdom_sets[i].id);
        av_free(set);
        game_free(&g->base);
    }
    assert_int_equal(dom_n_kingdom_sets, 7);
    arena_setting bad[1] = {
        {"kingdom", "Smithy,Foo,Village,Market,Witch,Moat,Chapel,Cellar,Mine,Spy"}};
    assert_null(dominion_game.create(bad, 1, 1, 2, 0, err, sizeof err));
    assert_non_null(strstr(err, "Foo"));
    assert_non_null(strstr(err, "Wharf"));
    arena_setting nine[1] = {
        {"kingdom", "Smithy,Village,Market,Witch,Moat,Chapel,Cellar,Mine,Spy"}};
    assert_null(dominion_game.create(nine, 1, 1, 2, 0, err, sizeof err));
    arena_setting ok[1] = {
        {"kingdom", "smithy, Village,Market,Witch,Moat,Chapel,Cellar,Mine,Spy,Wharf"}};
    dom_game *g = (dom_game *)dominion_game.create(ok, 1, 1, 2, 0, err, sizeof err);
    assert_non_null(g);
    assert_true(g->in_supply[C_WHARF] && g->in_supply[C_SMITHY]);
    game_free(&g->base);
    assert_null(dominion_game.create(NULL, 0, 1, 5, 0, err, sizeof err));
    /* random: 10 distinct kingdom cards, the same for the same seed */
    dom_game *a = (dom_game *)dominion_game.create(NULL, 0, 11, 2, 0, err, sizeof err);
    dom_game *b = (dom_game *)dominion_game.create(NULL, 0, 11, 2, 0, err, sizeof err);
    int n = 0;
    for (int c = DOM_FIRST_KINGDOM; c < DOM_NCARDS; c++)
        n += a->in_supply[c];
    assert_int_equal(n, 10);
    assert_memory_equal(a->kingdom, b->kingdom, 10);
    game_free(&a->base);
    game_free(&b->base);
}

static void test_rule_gardens_and_mats_count_at_game_end(void **st)
{
    (void)st;
    mk(2, "Gardens,Island,Native Village,Haven");
    set(0, Z_DISCARD,
        "Gardens,Copper,Copper,Copper,Copper,Copper,Copper,Copper,Copper,Copper,"
        "Copper,Copper,Copper,Copper,Copper,Copper,Copper,Copper,Copper");
    set(0, Z_ISLAND, "Island,Copper");
    set(0, Z_NVMAT, "Estate");
    set(0, Z_HAVEN, "Estate");
    /* 23 cards: Gardens 2 + Island 2 + 2 Estates */
    assert_int_equal(dom_owned(G, 0), 23);
    assert_int_equal(dom_score(G, 0), 6);
}

static void test_view_has_documented_keys_and_hides_hands(void **st)
{
    (void)st;
    mk(2, "Embargo");
    set(0, Z_HAND, "Copper,Estate");
    set(1, Z_HAND, "Gold");
    set(0, Z_DECK, "Silver");
    G->embargo[C_GOLD] = 1;
    begin(0);
    static const char *top_keys[] = {"turn",   "current", "extra_turn", "actions",
                                     "buys",   "coins",   "over",       "seat",
                                     "supply", "embargo", "trash",      "players"};
    static const char *pkeys[] = {
        "seat",      "hand_size",   "deck_size",  "discard_size",        "discard_top",
        "in_play",   "duration",    "island_mat", "native_village_size", "haven_size",
        "vp_tokens", "coin_tokens", "turns"};
    av *v = game_view(&G->base, 0);
    for (size_t i = 0; i < sizeof top_keys / sizeof *top_keys; i++)
        assert_non_null(av_get(v, top_keys[i]));
    int64_t x;
    assert_true(av_get_int(av_get(v, "embargo"), "Gold", &x) && x == 1);
    assert_true(av_get_int(av_get(v, "supply"), "Embargo", &x) && x == 10);
    const av *pl = av_get(v, "players");
    assert_int_equal(av_len(pl), 2);
    for (int s = 0; s < 2; s++)
        for (size_t i = 0; i < sizeof pkeys / sizeof *pkeys; i++)
            assert_non_null(av_get(pl->u.list.items[s], pkeys[i]));
    assert_non_null(av_get(pl->u.list.items[0], "hand"));
    assert_null(av_get(pl->u.list.items[1], "hand"));
    assert_null(av_get(pl->u.list.items[0], "deck"));
    av_free(v);
    v = game_view(&G->base, -1);
    pl = av_get(v, "players");
    assert_non_null(av_get(pl->u.list.items[1], "hand"));
    assert_non_null(av_get(pl->u.list.items[0], "deck"));
    assert_null(av_get(v, "seat"));
    av_free(v);
}

/* ---- Base kingdom cards ---- */

static void test_card_adventurer(void **st)
{
    (void)st;
    mk(2, "Adventurer");
    set(0, Z_HAND, "Adventurer");
    set(0, Z_DECK, "Estate,Copper,Village,Silver,Gold");
    begin(0);
    pick("play:Adventurer");
    assert_int_equal(held(0, "Copper"), 1);
    assert_int_equal(held(0, "Silver"), 1);
    assert_int_equal(n_in(0, Z_DISCARD, "Estate"), 1);
    assert_int_equal(n_in(0, Z_DISCARD, "Village"), 1);
    assert_string_equal(top(0), "Gold");
}

static void test_card_bureaucrat(void **st)
{
    (void)st;
    mk(3, "Bureaucrat");
    set(0, Z_HAND, "Bureaucrat");
    set(1, Z_HAND, "Estate,Duchy,Copper");
    set(2, Z_HAND, "Copper,Copper");
    begin(0);
    pick("play:Bureaucrat");
    assert_string_equal(top(0), "Silver");
    assert_string_equal(kind(), "bureaucrat-topdeck");
    assert_int_equal(dseat(), 1);
    assert_false(has_opt("card:Copper"));
    pick("card:Duchy");
    assert_string_equal(top(1), "Duchy");
    assert_int_equal(zn(1, Z_HAND), 2);
    assert_int_equal(zn(2, Z_HAND), 2); /* no Victory card: reveals, keeps */
    assert_string_equal(kind(), "buy");
}

static void test_card_cellar(void **st)
{
    (void)st;
    mk(2, "Cellar");
    set(0, Z_HAND, "Cellar,Estate,Estate,Copper");
    set(0, Z_DECK, "Gold,Gold,Silver");
    begin(0);
    pick("play:Cellar");
    assert_string_equal(kind(), "cellar-discard");
    pick("card:Estate,card:Estate#2");
    assert_int_equal(held(0, "Gold"), 2);
    assert_int_equal(held(0, "Copper"), 1);
    assert_int_equal(n_in(0, Z_DISCARD, "Estate"), 2);
    assert_int_equal(G->actions, 1);
}

static void test_card_chancellor(void **st)
{
    (void)st;
    mk(2, "Chancellor");
    set(0, Z_HAND, "Chancellor");
    set(0, Z_DECK, "Gold,Gold");
    begin(0);
    pick("play:Chancellor");
    assert_string_equal(kind(), "chancellor-deck");
    pick("discard-deck");
    assert_int_equal(zn(0, Z_DECK), 0);
    assert_int_equal(n_in(0, Z_DISCARD, "Gold"), 2);
    assert_int_equal(G->coins, 2);
}

static void test_card_chapel(void **st)
{
    (void)st;
    mk(2, "Chapel");
    set(0, Z_HAND, "Chapel,Estate,Estate,Estate,Copper,Copper");
    begin(0);
    pick("play:Chapel");
    arena_decision d;
    assert_true(game_decision(&G->base, &d));
    assert_int_equal(d.pick_min, 0);
    assert_int_equal(d.pick_max, 4);
    pick("card:Estate,card:Estate#2,card:Estate#3,card:Copper");
    assert_int_equal(G->trash[C_ESTATE], 3);
    assert_int_equal(G->trash[C_COPPER], 1);
    assert_int_equal(zn(0, Z_HAND), 0); /* the last Copper was played for the buy */
}

static void test_card_council_room(void **st)
{
    (void)st;
    mk(2, "Council Room");
    set(0, Z_HAND, "Council Room");
    set(0, Z_DECK, "Estate,Estate,Estate,Estate");
    set(1, Z_DECK, "Gold");
    begin(0);
    pick("play:Council Room");
    assert_int_equal(zn(0, Z_HAND), 4);
    assert_int_equal(G->buys, 2);
    assert_int_equal(n_in(1, Z_HAND, "Gold"), 1);
}

static void test_card_feast(void **st)
{
    (void)st;
    mk(2, "Feast");
    set(0, Z_HAND, "Feast");
    begin(0);
    pick("play:Feast");
    assert_string_equal(kind(), "feast-gain");
    assert_false(has_opt("card:Gold"));
    pick("card:Duchy");
    assert_int_equal(G->trash[C_FEAST], 1);
    assert_int_equal(zn(0, Z_PLAY), 0);
    assert_int_equal(n_in(0, Z_DISCARD, "Duchy"), 1);
}

static void test_card_festival(void **st)
{
    (void)st;
    mk(2, "Festival");
    set(0, Z_HAND, "Festival");
    begin(0);
    pick("play:Festival");
    assert_int_equal(G->actions, 2);
    assert_int_equal(G->buys, 2);
    assert_int_equal(G->coins, 2);
}

static void test_card_gardens(void **st)
{
    (void)st;
    mk(2, "Gardens");
    set(0, Z_DISCARD,
        "Gardens,Gardens,Copper,Copper,Copper,Copper,Copper,Copper,Copper,Copper,"
        "Copper,Copper,Copper,Copper,Copper,Copper,Copper,Copper,Copper,Copper,Copper");
    assert_int_equal(dom_owned(G, 0), 21);
    assert_int_equal(dom_score(G, 0), 4);
}

static void test_card_laboratory(void **st)
{
    (void)st;
    mk(2, "Laboratory");
    set(0, Z_HAND, "Laboratory");
    set(0, Z_DECK, "Estate,Estate,Estate");
    begin(0);
    pick("play:Laboratory");
    assert_int_equal(zn(0, Z_HAND), 2);
    assert_int_equal(G->actions, 1);
}

static void test_card_library(void **st)
{
    (void)st;
    mk(2, "Library");
    set(0, Z_HAND, "Library,Copper,Copper,Copper");
    set(0, Z_DECK, "Village,Silver,Smithy,Gold,Gold,Estate");
    begin(0);
    pick("play:Library");
    assert_string_equal(kind(), "library-set-aside");
    pick("set-aside:Village");
    assert_string_equal(kind(), "library-set-aside");
    pick("keep:Smithy");
    assert_int_equal(zn(0, Z_HAND) + zn(0, Z_PLAY), 8); /* 7 + Library in play */
    assert_int_equal(n_in(0, Z_HAND, "Smithy"), 1);
    assert_int_equal(n_in(0, Z_DISCARD, "Village"), 1);
    assert_string_equal(top(0), "Estate");
}

static void test_card_market(void **st)
{
    (void)st;
    mk(2, "Market");
    set(0, Z_HAND, "Market");
    set(0, Z_DECK, "Estate");
    begin(0);
    pick("play:Market");
    assert_int_equal(zn(0, Z_HAND), 1);
    assert_int_equal(G->actions, 1);
    assert_int_equal(G->buys, 2);
    assert_int_equal(G->coins, 1);
}

static void test_card_militia(void **st)
{
    (void)st;
    mk(2, "Militia");
    set(0, Z_HAND, "Militia");
    set(1, Z_HAND, "Copper,Copper,Estate,Estate,Silver");
    begin(0);
    pick("play:Militia");
    arena_decision d;
    assert_true(game_decision(&G->base, &d));
    assert_string_equal(d.kind, "militia-discard");
    assert_int_equal(d.seat, 1);
    assert_int_equal(d.pick_min, 2);
    assert_int_equal(d.pick_max, 2);
    pick("card:Estate,card:Estate#2");
    assert_int_equal(zn(1, Z_HAND), 3);
    assert_int_equal(n_in(1, Z_DISCARD, "Estate"), 2);
    assert_int_equal(G->coins, 2);
}

static void test_card_mine(void **st)
{
    (void)st;
    mk(2, "Mine");
    set(0, Z_HAND, "Mine,Copper,Estate");
    begin(0);
    pick("play:Mine");
    assert_string_equal(kind(), "mine-gain"); /* the only Treasure is trashed */
    assert_true(has_opt("card:Silver"));
    assert_false(has_opt("card:Gold"));
    assert_false(has_opt("card:Estate"));
    pick("card:Silver");
    assert_int_equal(G->trash[C_COPPER], 1);
    assert_int_equal(G->coins, 2); /* the Silver went to hand and was played */
}

static void test_card_moat(void **st)
{
    (void)st;
    mk(2, "Moat");
    set(0, Z_HAND, "Moat");
    set(0, Z_DECK, "Estate,Estate");
    begin(0);
    pick("play:Moat");
    assert_int_equal(zn(0, Z_HAND), 2);
    assert_int_equal(G->actions, 0);
}

static void test_card_moneylender(void **st)
{
    (void)st;
    mk(2, "Moneylender");
    set(0, Z_HAND, "Moneylender,Copper,Copper");
    begin(0);
    pick("play:Moneylender");
    assert_int_equal(G->trash[C_COPPER], 1);
    assert_int_equal(G->coins, 4);
}

static void test_card_remodel(void **st)
{
    (void)st;
    mk(2, "Remodel");
    set(0, Z_HAND, "Remodel,Estate,Gold");
    begin(0);
    pick("play:Remodel");
    assert_string_equal(kind(), "remodel-trash");
    pick("card:Gold");
    assert_string_equal(kind(), "remodel-gain");
    assert_true(has_opt("card:Province"));
    pick("card:Province");
    assert_int_equal(G->trash[C_GOLD], 1);
    assert_int_equal(n_in(0, Z_DISCARD, "Province"), 1);
}

static void test_card_smithy(void **st)
{
    (void)st;
    mk(2, "Smithy");
    set(0, Z_HAND, "Smithy");
    set(0, Z_DECK, "Estate,Estate,Estate,Gold");
    begin(0);
    pick("play:Smithy");
    assert_int_equal(zn(0, Z_HAND), 3);
    assert_string_equal(top(0), "Gold");
}

static void test_card_spy(void **st)
{
    (void)st;
    mk(2, "Spy");
    set(0, Z_HAND, "Spy");
    set(0, Z_DECK, "Copper,Estate");
    set(1, Z_DECK, "Gold");
    begin(0);
    pick("play:Spy");
    assert_int_equal(n_in(0, Z_HAND, "Copper"), 1);
    assert_string_equal(kind(), "spy-discard");
    assert_int_equal(dseat(), 0);
    pick("discard:Estate");
    assert_string_equal(kind(), "spy-discard");
    pick("keep:Gold");
    assert_string_equal(top(1), "Gold");
    assert_int_equal(n_in(0, Z_DISCARD, "Estate"), 1);
    assert_int_equal(G->actions, 1);
}

static void test_card_thief(void **st)
{
    (void)st;
    mk(3, "Thief");
    set(0, Z_HAND, "Thief");
    set(1, Z_DECK, "Gold,Estate");
    set(2, Z_DECK, "Silver,Copper");
    begin(0);
    pick("play:Thief");
    assert_string_equal(kind(), "thief-gain"); /* Gold was the only Treasure */
    pick("gain:Gold");
    assert_int_equal(n_in(0, Z_DISCARD, "Gold"), 1);
    assert_int_equal(n_in(1, Z_DISCARD, "Estate"), 1);
    assert_string_equal(kind(), "thief-trash");
    pick("card:Silver");
    pick("pass:Silver");
    assert_int_equal(G->trash[C_SILVER], 1);
    assert_int_equal(G->trash[C_GOLD], 0);
    assert_int_equal(n_in(2, Z_DISCARD, "Copper"), 1);
}

static void test_card_throne_room(void **st)
{
    (void)st;
    mk(2, "Throne Room");
    set(0, Z_HAND, "Throne Room,Smithy,Estate");
    set(0, Z_DECK, "Copper,Copper,Copper,Copper,Copper,Copper,Gold");
    begin(0);
    pick("play:Throne Room");
    assert_string_equal(kind(), "buy"); /* Smithy was the only choice */
    assert_int_equal(G->coins, 6);
    assert_string_equal(top(0), "Gold");
}

static void test_card_village(void **st)
{
    (void)st;
    mk(2, "Village");
    set(0, Z_HAND, "Village");
    set(0, Z_DECK, "Estate");
    begin(0);
    pick("play:Village");
    assert_int_equal(G->actions, 2);
    assert_int_equal(zn(0, Z_HAND), 1);
}

static void test_card_witch(void **st)
{
    (void)st;
    mk(2, "Witch");
    set(0, Z_HAND, "Witch");
    set(0, Z_DECK, "Estate,Estate");
    begin(0);
    pick("play:Witch");
    assert_int_equal(zn(0, Z_HAND), 2);
    assert_int_equal(n_in(1, Z_DISCARD, "Curse"), 1);
    assert_int_equal(G->supply[C_CURSE], 9);
}

static void test_card_woodcutter(void **st)
{
    (void)st;
    mk(2, "Woodcutter");
    set(0, Z_HAND, "Woodcutter");
    begin(0);
    pick("play:Woodcutter");
    assert_int_equal(G->buys, 2);
    assert_int_equal(G->coins, 2);
}

static void test_card_workshop(void **st)
{
    (void)st;
    mk(2, "Workshop,Smithy,Market");
    set(0, Z_HAND, "Workshop");
    begin(0);
    pick("play:Workshop");
    assert_true(has_opt("card:Smithy"));
    assert_false(has_opt("card:Market"));
    pick("card:Smithy");
    assert_int_equal(n_in(0, Z_DISCARD, "Smithy"), 1);
}

int main(void)
{
#define T(f) cmocka_unit_test_teardown(f, teardown)
    const struct CMUnitTest tests[] = {
        T(test_setup_supply_counts_by_player_number),
        T(test_setup_starting_deck_seven_copper_three_estate),
        T(test_rule_buy_phase_plays_treasures_and_buys),
        T(test_rule_action_phase_offers_each_action_once),
        T(test_rule_shuffle_discard_when_deck_empty),
        T(test_rule_game_ends_when_provinces_gone),
        T(test_rule_game_ends_on_three_empty_piles_curse_counts),
        T(test_rule_tie_break_fewer_turns_then_shared),
        T(test_rule_turn_limit_ends_game),
        T(test_rule_turn_limit_is_never_off),
        T(test_option_named_kingdoms_and_errors),
        T(test_rule_gardens_and_mats_count_at_game_end),
        T(test_view_has_documented_keys_and_hides_hands),
        T(test_card_adventurer),
        T(test_card_bureaucrat),
        T(test_card_cellar),
        T(test_card_chancellor),
        T(test_card_chapel),
        T(test_card_council_room),
        T(test_card_feast),
        T(test_card_festival),
        T(test_card_gardens),
        T(test_card_laboratory),
        T(test_card_library),
        T(test_card_market),
        T(test_card_militia),
        T(test_card_mine),
        T(test_card_moat),
        T(test_card_moneylender),
        T(test_card_remodel),
        T(test_card_smithy),
        T(test_card_spy),
        T(test_card_thief),
        T(test_card_throne_room),
        T(test_card_village),
        T(test_card_witch),
        T(test_card_woodcutter),
        T(test_card_workshop),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
