/* One named test per Pacifica rule, and the rulebook's worked example
 * (Sarah's turn). Positions are built by hand with helpers.h. */
#include "helpers.h"

/* ---- setup ---- */

static void test_setup_seven_shuffled_stacks(void **state)
{
    (void)state;
    pacifica *a = (pacifica *)pacifica_game.create(NULL, 0, 11, 2, 0, NULL, 0);
    pacifica *b = (pacifica *)pacifica_game.create(NULL, 0, 12, 2, 0, NULL, 0);
    int differ = 0;
    for (int c = 0; c < PC_NCAT; c++) {
        /* The second player's 2 setup cards are not drawn yet. */
        assert_int_equal(a->stack_n[c], PAC_PER_CAT);
        for (int i = 0; i < PAC_PER_CAT; i++) {
            assert_int_equal(a->set.c[a->stack[c][i]].cat, c);
            differ += a->stack[c][i] != b->stack[c][i];
        }
    }
    assert_true(differ > 0);
    pacifica_game.free(&a->base);
    pacifica_game.free(&b->base);
}

static void test_second_player_draws_two(void **state)
{
    (void)state;
    pacifica *g = (pacifica *)pacifica_game.create(NULL, 0, 3, 2, 0, NULL, 0);
    arena_decision d;
    assert_true(pacifica_game.decision(&g->base, &d));
    assert_int_equal(d.seat, 1);
    assert_string_equal(d.kind, "setup-draw");
    assert_int_equal(d.n_options, 7); /* any stack */
    pick(g, "draw:Machines");
    assert_string_equal(kind(g), "setup-draw");
    pick(g, "draw:Machines"); /* the same stack twice is fine */
    assert_int_equal(g->hand_n[1], 2);
    assert_int_equal(g->stack_n[PC_MACHINES], 14);
    assert_true(pacifica_game.decision(&g->base, &d));
    assert_int_equal(d.seat, 0);
    assert_string_equal(d.kind, "action");
    assert_int_equal(g->hand_n[0], 0);
    pacifica_game.free(&g->base);
}

/* ---- the turn ---- */

static void test_three_actions_then_turn_passes(void **state)
{
    (void)state;
    pacifica *g = fresh();
    pick(g, "draw:Treasure");
    pick(g, "draw:Treasure");
    assert_int_equal(g->seat, 0);
    assert_int_equal(g->actions_left, 1);
    pick(g, "draw:Population"); /* repeating an action is allowed */
    assert_int_equal(g->seat, 1);
    assert_int_equal(g->actions_left, 3);
    assert_int_equal(g->hand_n[0], 3);
    pacifica_game.free(&g->base);
}

static void test_hand_limit_three(void **state)
{
    (void)state;
    pacifica *g = fresh();
    to_hand(g, 0, "T01");
    to_hand(g, 0, "T02");
    to_hand(g, 0, "T03");
    assert_false(has(g, "draw:Treasure"));
    assert_true(has(g, "play:T01"));
    pick(g, "play:T01");
    assert_true(has(g, "draw:Treasure")); /* play first, then draw */
    pacifica_game.free(&g->base);
}

static void test_play_green_active_grey_inactive(void **state)
{
    (void)state;
    pacifica *g = fresh();
    to_hand(g, 0, "T01");
    to_hand(g, 0, "T09");
    pick(g, "play:T01");
    pick(g, "play:T09");
    assert_true(g->active[card(g, "T01")]);
    assert_false(g->active[card(g, "T09")]);
    assert_int_equal(count(g, 0, PS_T), 1);
    assert_int_equal(g->where[card(g, "T09")], PL_CITY);
    pacifica_game.free(&g->base);
}

static void test_grey_needs_other_active_symbols(void **state)
{
    (void)state;
    pacifica *g = fresh();
    to_city(g, 0, "T09", false); /* TT need=P */
    to_city(g, 0, "P10", false); /* P symbols, but inactive: do not count */
    assert_false(has(g, "activate"));
    to_city(g, 0, "P01", true);
    assert_true(has(g, "activate"));
    pick(g, "activate");
    assert_string_equal(kind(g), "activate-pick");
    assert_true(has(g, "activate:T09"));
    assert_false(has(g, "activate:P10")); /* P10 needs Architecture */
    pick(g, "activate:T09");
    assert_true(g->active[card(g, "T09")]);
    assert_int_equal(count(g, 0, PS_T), 2);
    pacifica_game.free(&g->base);
}

static void test_activate_two_sequentially(void **state)
{
    (void)state;
    pacifica *g = fresh();
    to_city(g, 0, "A01", true);  /* AA */
    to_city(g, 0, "P10", false); /* PP need=A */
    to_city(g, 0, "T13", false); /* TTT need=PP: only after P10 */
    pick(g, "activate");
    assert_false(has(g, "activate:T13"));
    pick(g, "activate:P10");
    /* The second pick comes at once: the action cannot be split. */
    assert_string_equal(kind(g), "activate-pick");
    assert_true(has(g, "draw:Treasure") == false);
    assert_true(has(g, "done"));
    pick(g, "activate:T13");
    assert_true(g->active[card(g, "T13")]);
    assert_int_equal(g->actions_left, 2); /* one action for both */
    assert_string_equal(kind(g), "action");
    pacifica_game.free(&g->base);
}

static void test_activate_second_is_optional(void **state)
{
    (void)state;
    pacifica *g = fresh();
    to_city(g, 0, "P01", true);
    to_city(g, 0, "T09", false);
    to_city(g, 0, "T10", false);
    pick(g, "activate");
    pick(g, "activate:T09");
    pick(g, "done");
    assert_false(g->active[card(g, "T10")]);
    assert_int_equal(g->actions_left, 2);
    pacifica_game.free(&g->base);
}

static void test_red_discards_under_stack(void **state)
{
    (void)state;
    pacifica *g = fresh();
    to_city(g, 0, "R12", true);  /* brass */
    to_city(g, 0, "A11", false); /* AAA discard=B */
    pick(g, "activate");
    pick(g, "activate:A11"); /* only one brass card: no choice to make */
    int r12 = card(g, "R12");
    assert_int_equal(g->where[r12], PL_STACK);
    assert_false(g->active[r12]);
    assert_int_equal(g->stack[PC_RESOURCES][0], r12); /* under the stack */
    assert_int_equal(g->stack_n[PC_RESOURCES], 16);
    assert_int_equal(count(g, 0, PS_A), 3);
    assert_int_equal(g->idol_owner[PC_ARCHITECTURE], 0);
    pacifica_game.free(&g->base);
}

static void test_discard_choice_when_several(void **state)
{
    (void)state;
    pacifica *g = fresh();
    to_city(g, 0, "T01", true);
    to_city(g, 0, "T02", true);
    to_city(g, 0, "R05", false); /* SS discard=T */
    pick(g, "activate");
    pick(g, "activate:R05");
    assert_string_equal(kind(g), "discard-pick");
    assert_int_equal(n_options(g), 2);
    pick(g, "discard:T02");
    assert_int_equal(g->where[card(g, "T02")], PL_STACK);
    assert_int_equal(g->where[card(g, "T01")], PL_CITY);
    assert_true(g->active[card(g, "R05")]);
    pacifica_game.free(&g->base);
}

/* "die entsprechende(n) Karte(n) abgeben": the discard is counted per symbol,
 * as a grey condition is, so one card showing two stones pays for two. */
static void test_discard_counted_per_symbol(void **state)
{
    (void)state;
    pacifica *g = fresh();
    to_city(g, 0, "R05", true);  /* SS */
    to_city(g, 0, "A08", false); /* AAA discard=SS */
    assert_true(pac_activatable(g, 0, card(g, "A08")));
    pick(g, "activate");
    pick(g, "activate:A08"); /* R05 is the only card: no decision */
    assert_int_equal(g->where[card(g, "R05")], PL_STACK);
    assert_true(g->active[card(g, "A08")]);
    pacifica_game.free(&g->base);

    /* Stone and brass on one card pay A16's "discard a stone and a brass". */
    g = fresh();
    to_city(g, 0, "R16", true);  /* SB */
    to_city(g, 0, "A16", false); /* discard=SB */
    pick(g, "activate");
    pick(g, "activate:A16");
    assert_int_equal(g->where[card(g, "R16")], PL_STACK);
    assert_true(g->active[card(g, "A16")]);
    pacifica_game.free(&g->base);

    /* Two stone cards pay too; once the symbols are paid nothing more goes. */
    g = fresh();
    to_city(g, 0, "R05", true);  /* SS */
    to_city(g, 0, "R01", true);  /* S */
    to_city(g, 0, "R02", true);  /* S */
    to_city(g, 0, "A08", false); /* discard=SS */
    pick(g, "activate");
    pick(g, "activate:A08");
    assert_string_equal(kind(g), "discard-pick");
    assert_int_equal(n_options(g), 3);
    pick(g, "discard:R01");
    assert_string_equal(kind(g), "discard-pick");
    assert_int_equal(n_options(g), 2); /* R05 or R02 pays the second stone */
    pick(g, "discard:R02");
    assert_true(g->active[card(g, "A08")]);
    assert_int_equal(g->where[card(g, "R05")], PL_CITY);
    pacifica_game.free(&g->base);
}

/* A discard must pay something still unpaid: after the stone of A13's "ST"
 * is paid, a second stone card is no longer offered. */
static void test_discard_pays_only_unpaid_symbols(void **state)
{
    (void)state;
    pacifica *g = fresh();
    to_city(g, 0, "R01", true);  /* S */
    to_city(g, 0, "R02", true);  /* S */
    to_city(g, 0, "T01", true);  /* T */
    to_city(g, 0, "A13", false); /* AAA discard=ST */
    pick(g, "activate");
    pick(g, "activate:A13");
    assert_int_equal(n_options(g), 3);
    pick(g, "discard:R01"); /* then T01 is the only card paying T */
    assert_true(g->active[card(g, "A13")]);
    assert_int_equal(g->where[card(g, "T01")], PL_STACK);
    assert_int_equal(g->where[card(g, "R02")], PL_CITY);
    pacifica_game.free(&g->base);
}

static void test_stone_and_brass_are_resources(void **state)
{
    (void)state;
    pacifica *g = fresh();
    to_city(g, 0, "R01", true); /* S */
    to_city(g, 0, "R12", true); /* B */
    to_hand(g, 0, "R02");       /* S, green */
    pick(g, "play:R02");
    assert_int_equal(g->idol_owner[PC_RESOURCES], 0); /* S+S+B = 3 */
    assert_int_equal(idol_need(g, PC_RESOURCES), 5);
    pacifica_game.free(&g->base);
}

static void test_condition_asks_for_brass(void **state)
{
    (void)state;
    pacifica *g = fresh();
    to_city(g, 0, "R01", true);  /* stone only */
    to_city(g, 0, "A11", false); /* discard=B */
    assert_false(has(g, "activate"));
    pacifica_game.free(&g->base);
}

static void test_machine_swap_stone_brass(void **state)
{
    (void)state;
    pacifica *g = fresh();
    to_city(g, 0, "R01", true);
    to_city(g, 0, "A11", false); /* discard=B */
    to_city(g, 0, "M07", true);  /* stone and brass stand in for each other */
    assert_true(has(g, "activate"));
    pick(g, "activate");
    pick(g, "activate:A11");
    assert_int_equal(g->where[card(g, "R01")], PL_STACK);
    assert_int_equal(count(g, 0, PS_A), 3);
    pacifica_game.free(&g->base);
}

static void test_machine_hand_limit_while_active(void **state)
{
    (void)state;
    pacifica *g = fresh();
    to_hand(g, 0, "T01");
    to_hand(g, 0, "T02");
    to_hand(g, 0, "T03");
    to_city(g, 0, "M09", false); /* hand limit 5 */
    assert_int_equal(pac_hand_limit(g, 0), 3);
    g->active[card(g, "M09")] = true;
    assert_int_equal(pac_hand_limit(g, 0), 5);
    pick(g, "draw:Treasure");
    pick(g, "draw:Treasure");
    assert_int_equal(g->hand_n[0], 5);
    assert_false(has(g, "draw:Treasure"));
    pacifica_game.free(&g->base);
}

static void test_machine_effect_ends_when_discarded(void **state)
{
    (void)state;
    pacifica *g = fresh();
    to_city(g, 0, "M09", true);  /* hand limit 5, shows M */
    to_city(g, 0, "K16", false); /* KMF discard=M */
    assert_int_equal(pac_hand_limit(g, 0), 5);
    pick(g, "activate");
    pick(g, "activate:K16"); /* the only machine goes */
    assert_int_equal(g->where[card(g, "M09")], PL_STACK);
    assert_int_equal(pac_hand_limit(g, 0), 3);
    pacifica_game.free(&g->base);
}

static void test_machine_start_of_turn_treasure(void **state)
{
    (void)state;
    pacifica *g = fresh();
    to_city(g, 1, "M11", true); /* start of turn: may draw 1 Treasure */
    pick(g, "draw:Population");
    pick(g, "draw:Population");
    pick(g, "draw:Population");
    assert_int_equal(g->seat, 1);
    assert_string_equal(kind(g), "start-draw");
    assert_int_equal(n_options(g), 2);
    assert_true(has(g, "skip"));
    pick(g, "draw:Treasure");
    assert_int_equal(g->hand_n[1], 1);
    assert_int_equal(g->set.c[g->hand[1][0]].cat, PC_TREASURE);
    assert_string_equal(kind(g), "action");
    assert_int_equal(g->actions_left, 3); /* the draw is free */
    pacifica_game.free(&g->base);
}

/* "Wenn du vom STADTFEST-Stapel ziehst: Ziehe 1 Karte." is an order, not an
 * offer: no skip. */
static void test_machine_festival_bonus_draw_is_mandatory(void **state)
{
    (void)state;
    pacifica *g = fresh();
    to_city(g, 0, "M14", true);
    pick(g, "draw:Festival");
    assert_string_equal(kind(g), "bonus-draw");
    assert_false(has(g, "skip"));
    assert_int_equal(n_options(g), PC_NCAT); /* one per stack, nothing else */
    pick(g, "draw:Knowledge");
    assert_int_equal(g->hand_n[0], 2);
    assert_int_equal(g->actions_left, 2);
    /* Without the machine no bonus. */
    g->active[card(g, "M14")] = false;
    pick(g, "draw:Festival");
    assert_string_equal(kind(g), "action");
    pacifica_game.free(&g->base);
}

/* Each draw from the Festival stack brings the bonus, the bonus draw's own
 * too ("Wenn du vom STADTFEST-Stapel ziehst"); the hand limit ends the chain,
 * not the first bonus draw. */
static void test_machine_festival_bonus_draw_from_festival_brings_another(void **state)
{
    (void)state;
    pacifica *g = fresh();
    to_city(g, 0, "M14", true);
    pick(g, "draw:Festival");
    assert_string_equal(kind(g), "bonus-draw");
    pick(g, "draw:Festival");
    assert_string_equal(kind(g), "bonus-draw");
    pick(g, "draw:Festival"); /* the third card: the hand is full */
    assert_int_equal(g->hand_n[0], 3);
    assert_string_equal(kind(g), "action");
    assert_int_equal(g->actions_left, 2);
    pacifica_game.free(&g->base);
}

/* A card file may make every Machines card a festival-bonus machine: their
 * draws are one task, not one each, which with bonus draws from Festival
 * bringing more overflowed the task stack and aborted the referee. */
static void test_many_festival_bonus_machines(void **state)
{
    (void)state;
    pacifica *g = fresh();
    char id[8];
    for (int i = 1; i <= 16; i++) {
        snprintf(id, sizeof id, "M%02d", i);
        g->set.c[card(g, id)].effect = PE_FESTIVAL_BONUS;
        to_city(g, 0, id, true);
    }
    pick(g, "draw:Festival");
    pick(g, "draw:Festival");
    pick(g, "draw:Festival"); /* the hand of 3 is full: the rest lapse */
    assert_int_equal(g->hand_n[0], 3);
    assert_string_equal(kind(g), "action");
    assert_int_equal(g->actions_left, 2);
    pacifica_game.free(&g->base);
}

/* The hand limit is a maximum held ("maximal 3 Karten auf der Hand"): a
 * bonus draw that would pass it does not happen. */
static void test_machine_festival_bonus_draw_respects_hand_limit(void **state)
{
    (void)state;
    pacifica *g = fresh();
    to_city(g, 0, "M14", true);
    to_hand(g, 0, "T01");
    to_hand(g, 0, "T02");
    pick(g, "draw:Festival"); /* the third card: the hand is full */
    assert_int_equal(g->hand_n[0], 3);
    assert_string_equal(kind(g), "action");
    assert_int_equal(g->actions_left, 2);
    pacifica_game.free(&g->base);
}

/* ---- City Festival one-time effects ---- */

static void test_festival_search_stack(void **state)
{
    (void)state;
    pacifica *g = fresh();
    to_city(g, 0, "K02", true);  /* KT */
    to_city(g, 0, "F07", false); /* need=KT, search */
    pick(g, "activate");
    pick(g, "activate:F07");
    assert_string_equal(kind(g), "search-stack");
    pick(g, "search:Architecture");
    assert_string_equal(kind(g), "search-take");
    assert_int_equal(n_options(g), 16);
    pick(g, "take:A15");
    int a15 = card(g, "A15");
    assert_int_equal(g->where[a15], PL_CITY);
    assert_false(g->active[a15]); /* red: arrives inactive */
    assert_int_equal(g->stack_n[PC_ARCHITECTURE], 15);
    assert_string_equal(kind(g), "action"); /* nothing left to activate second */
    assert_int_equal(g->actions_left, 2);
    pacifica_game.free(&g->base);
}

/* The rulebook has no reshuffle after a search: the stack keeps its order,
 * discards known to lie under it stay there, and the searcher now knows
 * where each card lies (its view shows them; the opponent's does not). */
static void test_search_does_not_reshuffle(void **state)
{
    (void)state;
    pacifica *g = fresh();
    to_city(g, 0, "R12", true);  /* brass */
    to_city(g, 0, "A11", false); /* discard=B */
    to_city(g, 0, "K02", true);  /* KT */
    to_city(g, 0, "F07", false); /* need=KT, search */
    pick(g, "activate");
    pick(g, "activate:A11"); /* R12 goes under the Resources stack */
    pick(g, "activate:F07");
    pick(g, "search:Resources");
    uint8_t before[PAC_PER_CAT];
    memcpy(before, g->stack[PC_RESOURCES], sizeof before);
    pick(g, "take:R03"); /* R03 lies at index 3 (card order, R12 below) */
    int r12 = card(g, "R12");
    assert_int_equal(g->stack[PC_RESOURCES][0], r12);
    assert_int_equal(g->stack_n[PC_RESOURCES], 15);
    assert_memory_equal(g->stack[PC_RESOURCES], before, 3);
    assert_memory_equal(&g->stack[PC_RESOURCES][3], &before[4], 12);
    av *v0 = game_view(&g->base, 0), *v1 = game_view(&g->base, 1);
    const av *k0 = av_get(av_get(v0, "stack_cards"), "Resources");
    const av *k1 = av_get(av_get(v1, "stack_cards"), "Resources");
    assert_non_null(k0);
    assert_non_null(k1);
    assert_int_equal(av_len(k0), 15);
    assert_int_equal(k0->u.list.items[0]->type, AV_STR); /* the top card too */
    assert_int_equal(k1->u.list.items[0]->type, AV_NIL);
    assert_string_equal(k1->u.list.items[14]->u.str.s, "R12"); /* both saw the discard */
    av_free(v0), av_free(v1);
    pacifica_game.free(&g->base);
}

static void test_festival_machine_top(void **state)
{
    (void)state;
    pacifica *g = fresh();
    to_city(g, 0, "P01", true);
    to_city(g, 0, "T01", true);
    to_city(g, 0, "F02", false);
    to_top(g, "M01"); /* green machine */
    pick(g, "activate");
    pick(g, "activate:F02");
    assert_int_equal(g->where[card(g, "M01")], PL_CITY);
    assert_true(g->active[card(g, "M01")]);
    assert_int_equal(count(g, 0, PS_M), 1);
    pacifica_game.free(&g->base);
}

static void test_festival_fill_hand(void **state)
{
    (void)state;
    pacifica *g = fresh();
    to_hand(g, 0, "T05");
    to_city(g, 0, "P01", true);
    to_city(g, 0, "A01", true);
    to_city(g, 0, "F05", false); /* need=PA, fill-hand */
    pick(g, "activate");
    pick(g, "activate:F05");
    assert_string_equal(kind(g), "effect-draw");
    pick(g, "draw:Treasure");
    assert_string_equal(kind(g), "effect-draw");
    pick(g, "draw:Knowledge");
    assert_int_equal(g->hand_n[0], 3);
    assert_false(has(g, "draw:Treasure")); /* the limit is reached */
    pacifica_game.free(&g->base);
}

static void test_festival_copy_other_city(void **state)
{
    (void)state;
    pacifica *g = fresh();
    to_city(g, 1, "F02", false); /* machine-top, in the opponent's city */
    to_city(g, 0, "M01", true);
    to_city(g, 0, "T01", true);
    to_city(g, 0, "F09", false); /* need=MT, copy */
    to_top(g, "M06");
    pick(g, "activate");
    pick(g, "activate:F09");
    assert_string_equal(kind(g), "copy-pick");
    assert_false(has(g, "copy:F09")); /* not itself */
    pick(g, "copy:F02");
    assert_int_equal(g->where[card(g, "M06")], PL_CITY);
    assert_int_equal(g->owner[card(g, "M06")], 0);
    pacifica_game.free(&g->base);
}

static void test_festival_green_effect_on_play(void **state)
{
    (void)state;
    pacifica *g = fresh();
    to_hand(g, 0, "F01"); /* green, draw:1 */
    pick(g, "play:F01");
    assert_string_equal(kind(g), "effect-draw");
    pick(g, "draw:Machines");
    assert_int_equal(g->hand_n[0], 1);
    assert_int_equal(g->actions_left, 2);
    pacifica_game.free(&g->base);
}

/* "erobert ... ein Idol oder ... eine Stufe höher drehen": temporary symbols
 * take an idol or turn it one step, never several. */
static void test_temporary_symbols_turn_an_idol_one_step(void **state)
{
    (void)state;
    pacifica *g = fresh();
    to_city(g, 0, "T01", true);
    to_city(g, 0, "T02", true);
    to_city(g, 0, "F11", false); /* need=TT, temporary TTT */
    pick(g, "activate");
    pick(g, "activate:F11");
    /* 2 + 3 temporary = 5: the idol is taken and shows 5, not 7. */
    assert_int_equal(g->idol_owner[PC_TREASURE], 0);
    assert_int_equal(idol_need(g, PC_TREASURE), 5);
    assert_int_equal(count(g, 0, PS_T), 2); /* the temporary symbols are gone */
    pacifica_game.free(&g->base);

    /* The owner at 5 with 4 + 3 = 7 turns it to 7, not to secured. */
    g = fresh();
    g->idol_owner[PC_TREASURE] = 0, g->idol_level[PC_TREASURE] = 1;
    to_city(g, 0, "T13", true); /* TTT */
    to_city(g, 0, "T01", true);
    to_city(g, 0, "F11", false);
    pick(g, "activate");
    pick(g, "activate:F11");
    assert_int_equal(idol_need(g, PC_TREASURE), 7);
    assert_int_not_equal(g->idol_level[PC_TREASURE], PAC_SECURED);
    pacifica_game.free(&g->base);
}

/* "erobert ... ein Idol oder dürft ein Idol ... eine Stufe höher drehen":
 * one temporary boost moves one idol, one step. Copying the Wedding (temp PP)
 * with Population 1 and every other category at 2 would take Population
 * (1 + 2 = 3) and secure Diversity (smallest count 1 -> 2); only the idol of
 * the card's own symbols moves, Population, and Diversity stays at 2. */
static void test_temporary_symbols_move_one_idol(void **state)
{
    (void)state;
    pacifica *g = fresh();
    g->idol_owner[PAC_DIVERSITY] = 0, g->idol_level[PAC_DIVERSITY] = 1;
    to_city(g, 1, "F12", false); /* Wedding, temp:PP, in the opponent's city */
    const char *mine[] = {"P01", "T01", "K02", "R01", "R02", "A01", "K11", "M01", "M02"};
    for (size_t i = 0; i < sizeof mine / sizeof *mine; i++)
        to_city(g, 0, mine[i], true);
    to_city(g, 0, "F09", false); /* Masquerade: need=MT, copy */
    pick(g, "activate");
    pick(g, "activate:F09");
    pick(g, "copy:F12");
    assert_int_equal(g->idol_owner[PC_POPULATION], 0);
    assert_int_equal(idol_need(g, PC_POPULATION), 5);
    assert_int_equal(g->idol_owner[PAC_DIVERSITY], 0);
    assert_int_equal(g->idol_level[PAC_DIVERSITY], 1); /* not secured */
    assert_int_equal(count(g, 0, PS_P), 1);
    pacifica_game.free(&g->base);
}

/* ---- idols ---- */

static void test_idol_ladder_and_steal(void **state)
{
    (void)state;
    pacifica *g = fresh();
    to_city(g, 0, "P01", true);
    to_city(g, 0, "P02", true);
    to_hand(g, 0, "P03");
    pick(g, "play:P03");
    assert_int_equal(g->idol_owner[PC_POPULATION], 0);
    assert_int_equal(idol_need(g, PC_POPULATION), 5);
    /* The opponent reaches 5 and steals it; the dial goes to 7. */
    g->seat = 1;
    for (int i = 4; i <= 7; i++) {
        char id[8];
        snprintf(id, sizeof id, "P0%d", i);
        to_city(g, 1, id, true);
    }
    pac_check_idols(g, 1, NULL);
    assert_int_equal(g->idol_owner[PC_POPULATION], 0); /* 4 < 5 */
    to_hand(g, 1, "P08");
    g->actions_left = 3;
    pick(g, "play:P08");
    assert_int_equal(g->idol_owner[PC_POPULATION], 1);
    assert_int_equal(idol_need(g, PC_POPULATION), 7);
    pacifica_game.free(&g->base);
}

static void test_idol_secured_for_good(void **state)
{
    (void)state;
    pacifica *g = fresh();
    g->idol_owner[PC_TREASURE] = 1;
    g->idol_level[PC_TREASURE] = 2; /* needs 7 */
    for (int i = 1; i <= 6; i++) {
        char id[8];
        snprintf(id, sizeof id, "T0%d", i);
        to_city(g, 0, id, true);
    }
    pac_check_idols(g, 0, NULL);
    assert_int_equal(g->idol_owner[PC_TREASURE], 1); /* 6 < 7 */
    to_hand(g, 0, "T07");
    pick(g, "play:T07");
    assert_int_equal(g->idol_owner[PC_TREASURE], 0);
    assert_int_equal(g->idol_level[PC_TREASURE], PAC_SECURED);
    assert_int_equal(idol_need(g, PC_TREASURE), 0);
    /* Nobody takes a secured idol, whatever they show. */
    to_city(g, 1, "T08", true);
    to_city(g, 1, "T09", true);
    to_city(g, 1, "T13", true);
    to_city(g, 1, "T14", true);
    pac_check_idols(g, 1, NULL);
    assert_int_equal(g->idol_owner[PC_TREASURE], 0);
    pacifica_game.free(&g->base);
}

static void test_idol_owner_raises_own(void **state)
{
    (void)state;
    pacifica *g = fresh();
    g->idol_owner[PC_TREASURE] = 0;
    g->idol_level[PC_TREASURE] = 1; /* shows 5 */
    for (int i = 1; i <= 4; i++) {
        char id[8];
        snprintf(id, sizeof id, "T0%d", i);
        to_city(g, 0, id, true);
    }
    to_hand(g, 0, "T05");
    pick(g, "play:T05");
    assert_int_equal(g->idol_owner[PC_TREASURE], 0);
    assert_int_equal(idol_need(g, PC_TREASURE), 7);
    pacifica_game.free(&g->base);
}

static void test_idol_several_steps_at_once(void **state)
{
    (void)state;
    pacifica *g = fresh();
    /* From the middle straight to secured: 3 -> 5 -> 7 -> secured. */
    to_city(g, 0, "A15", true);  /* AAAA */
    to_city(g, 0, "A08", true);  /* AAA */
    pac_check_idols(g, 0, NULL); /* 7 at once */
    assert_int_equal(g->idol_owner[PC_ARCHITECTURE], 0);
    assert_int_equal(g->idol_level[PC_ARCHITECTURE], PAC_SECURED);
    pacifica_game.free(&g->base);
}

static void test_diversity_idol(void **state)
{
    (void)state;
    pacifica *g = fresh();
    const char *one_each[] = {"T01", "P01", "R01", "A01", "K01", "M01", "F01"};
    for (int i = 0; i < 7; i++)
        to_city(g, 0, one_each[i], true);
    pac_check_idols(g, 0, NULL);
    assert_int_equal(g->idol_owner[PAC_DIVERSITY], 0);
    assert_int_equal(idol_need(g, PAC_DIVERSITY), 2);
    /* Two of each secures it (A01 shows AA already). */
    const char *two_each[] = {"T02", "P02", "R12", "K13", "M03", "F14"};
    for (int i = 0; i < 6; i++)
        to_city(g, 0, two_each[i], true);
    pac_check_idols(g, 0, NULL);
    assert_int_equal(g->idol_level[PAC_DIVERSITY], PAC_SECURED);
    pacifica_game.free(&g->base);
}

static void test_you_own_what_you_own(void **state)
{
    (void)state;
    pacifica *g = fresh();
    to_city(g, 0, "T01", true);
    to_city(g, 0, "T02", true);
    to_city(g, 0, "T03", true);
    pac_check_idols(g, 0, NULL);
    assert_int_equal(g->idol_owner[PC_TREASURE], 0);
    to_city(g, 0, "R06", false); /* SS discard=T */
    pick(g, "activate");
    pick(g, "activate:R06");
    pick(g, "discard:T01");
    assert_int_equal(count(g, 0, PS_T), 2);
    assert_int_equal(g->idol_owner[PC_TREASURE], 0); /* kept */
    pacifica_game.free(&g->base);
}

/* ---- the end ---- */

static void test_win_with_five_idols(void **state)
{
    (void)state;
    pacifica *g = fresh();
    for (int i = 0; i < 4; i++)
        g->idol_owner[i] = 0, g->idol_level[i] = 1;
    to_city(g, 0, "M03", true); /* MM */
    to_city(g, 0, "K10", false);
    to_city(g, 0, "A01", true); /* K10 needs A */
    pick(g, "activate");
    pick(g, "activate:K10"); /* KM: 3 machines -> fifth idol */
    arena_decision d;
    assert_false(pacifica_game.decision(&g->base, &d)); /* over at once */
    assert_int_equal(g->winner, 0);
    assert_string_equal(g->end_reason, "idols");
    arena_result r;
    pacifica_game.result(&g->base, &r);
    assert_int_equal(r.ranks[0], 1);
    assert_int_equal(r.ranks[1], 2);
    assert_int_equal(r.scores[0], 5);
    pacifica_game.free(&g->base);
}

static void test_win_with_three_secured(void **state)
{
    (void)state;
    pacifica *g = fresh();
    for (int i = 0; i < 2; i++)
        g->idol_owner[i] = 0, g->idol_level[i] = PAC_SECURED;
    to_city(g, 0, "A15", true);
    to_city(g, 0, "A09", false); /* AAA discard=SS */
    to_city(g, 0, "R05", true);
    to_city(g, 0, "K06", true); /* KS */
    pick(g, "activate");
    pick(g, "activate:A09");
    pick(g, "discard:R05"); /* its two stones pay for both */
    assert_true(g->over);
    assert_int_equal(g->winner, 0);
    assert_string_equal(g->end_reason, "secured");
    pacifica_game.free(&g->base);
}

static void test_end_only_when_nothing_possible(void **state)
{
    (void)state;
    pacifica *g = fresh();
    assert_false(has(g, "end"));
    /* Every card active in seat 1's city: no draw, no hand, nothing to
     * activate, for either seat. */
    for (int k = 0; k < PAC_NCARDS; k++)
        to_city(g, 1, g->set.c[k].id, true);
    assert_int_equal(n_options(g), 1);
    assert_true(has(g, "end"));
    pick(g, "end");
    /* Exhaustion rule: all stacks empty at the start of a turn, and neither
     * seat able to play or activate a card, ends the game; with equal idols
     * it is a draw. */
    assert_true(g->over);
    assert_string_equal(g->end_reason, "exhausted");
    arena_result r;
    pacifica_game.result(&g->base, &r);
    assert_int_equal(r.ranks[0], r.ranks[1]);
    pacifica_game.free(&g->base);
}

static void test_exhaustion_more_idols_wins(void **state)
{
    (void)state;
    pacifica *g = fresh();
    g->idol_owner[PC_KNOWLEDGE] = 1;
    g->idol_level[PC_KNOWLEDGE] = 1;
    for (int k = 0; k < PAC_NCARDS; k++)
        to_city(g, 1, g->set.c[k].id, true);
    pick(g, "end");
    arena_result r;
    pacifica_game.result(&g->base, &r);
    assert_true(r.over);
    assert_int_equal(r.ranks[1], 1);
    assert_int_equal(r.ranks[0], 2);
    pacifica_game.free(&g->base);
}

/* The exhaustion rule waits while a seat can still act. Seat 0 draws the
 * last stack card with its last action; seat 1 still holds a Population
 * card whose symbol takes its fifth idol. The game must not end as seat 1's
 * turn begins, won by seat 0's one secured idol. */
static void test_exhaustion_waits_for_a_seat_that_can_act(void **state)
{
    (void)state;
    pacifica *g = fresh();
    to_city(g, 1, "P02", true);
    to_city(g, 1, "P03", true);
    to_hand(g, 1, "P01");
    g->seen[card(g, "P01")] |= 2;
    const int four[] = {PC_TREASURE, PC_RESOURCES, PC_ARCHITECTURE, PC_KNOWLEDGE};
    for (int i = 0; i < 4; i++) {
        g->idol_owner[four[i]] = 1;
        g->idol_level[four[i]] = 1;
    }
    g->idol_owner[PC_MACHINES] = 0;
    g->idol_level[PC_MACHINES] = PAC_SECURED;
    /* Every other card but T01 active in seat 0's city: nothing to
     * activate there, and no idol check runs for seat 0. */
    int last = card(g, "T01");
    for (int k = 0; k < PAC_NCARDS; k++)
        if (k != last && g->where[k] == PL_STACK) to_city(g, 0, g->set.c[k].id, true);
    char err[200];
    assert_true(cards_accounted(g, err, sizeof err));
    g->actions_left = 1;
    pick(g, "draw:Treasure");
    assert_false(g->over);
    assert_int_equal(g->seat, 1);
    pick(g, "play:P01");
    assert_true(g->over);
    assert_int_equal(g->winner, 1);
    assert_string_equal(g->end_reason, "idols");
    pacifica_game.free(&g->base);
}

static void test_turn_cap_ends_game(void **state)
{
    (void)state;
    pacifica *g = fresh();
    g->turn = PAC_TURN_CAP;
    g->idol_owner[PC_TREASURE] = 0;
    g->idol_level[PC_TREASURE] = 1;
    pick(g, "draw:Treasure");
    pick(g, "draw:Treasure");
    assert_false(g->over);
    pick(g, "draw:Treasure");
    assert_true(g->over);
    assert_string_equal(g->end_reason, "turn-cap");
    assert_int_equal(g->winner, 0); /* more idols */
    pacifica_game.free(&g->base);
}

/* ---- the rulebook's worked example ---- */

static void test_sarahs_turn(void **state)
{
    (void)state;
    pacifica *g = fresh();
    /* Sarah (seat 0) has two Architecture symbols, one Population and one
     * Treasure symbol active, and a City Festival card played on an earlier
     * turn: 1 Population + 1 Treasure -> put the top Machines card into her
     * city. */
    to_city(g, 0, "A01", true);
    to_city(g, 0, "P01", true);
    to_city(g, 0, "T01", true);
    to_city(g, 0, "F02", false);
    to_top(g, "P12"); /* PP, needs AA */
    to_top(g, "M03");
    /* Action 1: draw a Population card. */
    pick(g, "draw:Population");
    assert_int_equal(g->hand[0][0], card(g, "P12"));
    /* Action 2: play it. */
    pick(g, "play:P12");
    assert_false(g->active[card(g, "P12")]);
    /* Action 3a: activate it with her two Architecture symbols: 3 Population,
     * she takes the Population idol and turns it to 5. */
    pick(g, "activate");
    pick(g, "activate:P12");
    assert_int_equal(count(g, 0, PS_P), 3);
    assert_int_equal(g->idol_owner[PC_POPULATION], 0);
    assert_int_equal(idol_need(g, PC_POPULATION), 5);
    /* Action 3b: activate the festival: the top Machines card joins her city. */
    pick(g, "activate:F02");
    int m = card(g, "M03");
    assert_int_equal(g->where[m], PL_CITY);
    assert_int_equal(g->owner[m], 0);
    assert_false(g->active[m]); /* a grey machine arrives inactive */
    /* That was her third action: Max's turn. */
    assert_int_equal(g->seat, 1);
    assert_string_equal(kind(g), "action");
    pacifica_game.free(&g->base);
}

/* ---- views and events ---- */

static void test_view_shows_opponent_hand_by_category(void **state)
{
    (void)state;
    pacifica *g = (pacifica *)pacifica_game.create(NULL, 0, 5, 2, 0, NULL, 0);
    pick(g, "draw:Treasure");
    pick(g, "draw:Knowledge");
    const char *mine = g->set.c[g->hand[1][0]].id;
    av *v0 = game_view(&g->base, 0), *v1 = game_view(&g->base, 1);
    char *j0 = av_to_json(v0), *j1 = av_to_json(v1);
    assert_null(strstr(j0, mine));
    assert_non_null(strstr(j1, mine));
    const av *hs = av_get(v0, "hand_sizes");
    assert_non_null(hs);
    assert_int_equal(hs->u.list.items[1]->u.i, 2);
    assert_int_equal(av_len(av_get(v0, "hand")), 0);
    /* Card backs show the category: seat 0 sees what its opponent holds by
     * category, without ids. */
    const av *oh = av_get(v0, "opponent_hand");
    assert_non_null(oh);
    assert_int_equal(av_len(oh), 2);
    assert_string_equal(av_get_str(oh->u.list.items[0], "category"), "Treasure");
    assert_string_equal(av_get_str(oh->u.list.items[1], "category"), "Knowledge");
    assert_null(av_get(oh->u.list.items[0], "id"));
    for (const char *k = "cities\0stacks\0idols\0hand_limits\0symbols\0"; *k; k += strlen(k) + 1)
        assert_non_null(av_get(v0, k));
    /* Events: seat 0 learns the category drawn, not the card. */
    for (size_t i = 0; i < pacifica_game.event_count(&g->base); i++) {
        const av *e = pacifica_game.event(&g->base, i, 0);
        if (!e) continue;
        char *s = av_to_json(e);
        assert_null(strstr(s, mine));
        free(s);
    }
    free(j0), free(j1);
    av_free(v0), av_free(v1);
    pacifica_game.free(&g->base);
}

static void test_search_take_hides_stack_order(void **state)
{
    (void)state;
    pacifica *g = fresh();
    to_city(g, 0, "K02", true);
    to_city(g, 0, "F07", false);
    to_top(g, "T16");
    pick(g, "activate");
    pick(g, "activate:F07");
    pick(g, "search:Treasure");
    char first[64];
    pacifica_game.label(&g->base, 0, first, sizeof first);
    assert_string_equal(first, "take:T01"); /* by card number, not position */
    pacifica_game.free(&g->base);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_setup_seven_shuffled_stacks),
        cmocka_unit_test(test_second_player_draws_two),
        cmocka_unit_test(test_three_actions_then_turn_passes),
        cmocka_unit_test(test_hand_limit_three),
        cmocka_unit_test(test_play_green_active_grey_inactive),
        cmocka_unit_test(test_grey_needs_other_active_symbols),
        cmocka_unit_test(test_activate_two_sequentially),
        cmocka_unit_test(test_activate_second_is_optional),
        cmocka_unit_test(test_red_discards_under_stack),
        cmocka_unit_test(test_discard_choice_when_several),
        cmocka_unit_test(test_discard_counted_per_symbol),
        cmocka_unit_test(test_discard_pays_only_unpaid_symbols),
        cmocka_unit_test(test_stone_and_brass_are_resources),
        cmocka_unit_test(test_condition_asks_for_brass),
        cmocka_unit_test(test_machine_swap_stone_brass),
        cmocka_unit_test(test_machine_hand_limit_while_active),
        cmocka_unit_test(test_machine_effect_ends_when_discarded),
        cmocka_unit_test(test_machine_start_of_turn_treasure),
        cmocka_unit_test(test_machine_festival_bonus_draw_is_mandatory),
        cmocka_unit_test(test_machine_festival_bonus_draw_respects_hand_limit),
        cmocka_unit_test(test_machine_festival_bonus_draw_from_festival_brings_another),
        cmocka_unit_test(test_many_festival_bonus_machines),
        cmocka_unit_test(test_festival_search_stack),
        cmocka_unit_test(test_search_does_not_reshuffle),
        cmocka_unit_test(test_festival_machine_top),
        cmocka_unit_test(test_festival_fill_hand),
        cmocka_unit_test(test_festival_copy_other_city),
        cmocka_unit_test(test_festival_green_effect_on_play),
        cmocka_unit_test(test_temporary_symbols_turn_an_idol_one_step),
        cmocka_unit_test(test_temporary_symbols_move_one_idol),
        cmocka_unit_test(test_idol_ladder_and_steal),
        cmocka_unit_test(test_idol_secured_for_good),
        cmocka_unit_test(test_idol_owner_raises_own),
        cmocka_unit_test(test_idol_several_steps_at_once),
        cmocka_unit_test(test_diversity_idol),
        cmocka_unit_test(test_you_own_what_you_own),
        cmocka_unit_test(test_win_with_five_idols),
        cmocka_unit_test(test_win_with_three_secured),
        cmocka_unit_test(test_end_only_when_nothing_possible),
        cmocka_unit_test(test_exhaustion_more_idols_wins),
        cmocka_unit_test(test_exhaustion_waits_for_a_seat_that_can_act),
        cmocka_unit_test(test_turn_cap_ends_game),
        cmocka_unit_test(test_sarahs_turn),
        cmocka_unit_test(test_view_shows_opponent_hand_by_category),
        cmocka_unit_test(test_search_take_hides_stack_order),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
