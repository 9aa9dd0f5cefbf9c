/* One named test per Xibalba rule, including the rulebook's worked examples.
 * Tests build positions by editing the state struct, then drive the game
 * through the vtable by option label. */
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

static xb_game *mk_set(int players, const arena_setting *set, size_t n, uint64_t seed)
{
    char err[256];
    arena_game *g = VT.create(set, n, seed, players, 0, err, sizeof err);
    if (!g) fail_msg("create: %s", err);
    return (xb_game *)g;
}

static xb_game *mk(int players)
{
    return mk_set(players, NULL, 0, 1);
}

static void ok(xb_game *g)
{
    char err[256];
    if (!xb_check_invariants(&g->base, NULL, err, sizeof err)) fail_msg("invariant: %s", err);
}

static int type_index(const xb_game *g, const char *name)
{
    for (int i = 0; i < g->cs.n_types; i++)
        if (strcmp(g->cs.t[i].name, name) == 0) return i;
    fail_msg("no card type %s", name);
    return -1;
}

static bool remove_from(xb_stack *s, int type, const xb_game *g, int *out)
{
    for (int i = 0; i < s->n; i++)
        if (g->cs.type_of[s->c[i]] == type) {
            *out = s->c[i];
            memmove(&s->c[i], &s->c[i + 1], (size_t)(s->n - i - 1) * sizeof s->c[0]);
            s->n--;
            return true;
        }
    return false;
}

/* Takes a card of the named type out of the decks or discard piles. */
static int take(xb_game *g, const char *name)
{
    int t = type_index(g, name), c;
    for (int f = 0; f < XB_FAMILIES; f++)
        if (remove_from(&g->deck[f], t, g, &c) || remove_from(&g->discard[f], t, g, &c)) return c;
    fail_msg("no free copy of %s", name);
    return -1;
}

static void give_squad(xb_game *g, int s, const char *name)
{
    xb_stack *st = &g->p[s].squad;
    st->c[st->n++] = (int16_t)take(g, name);
}

static void give_slot(xb_game *g, int s, int k, const char *name)
{
    xb_stack *st = &g->p[s].slot[k];
    st->c[st->n++] = (int16_t)take(g, name);
}

static void put_ark(xb_game *g, int owner, const char *name, int life)
{
    g->discard[XB_SOLDIER].c[g->discard[XB_SOLDIER].n++] = (int16_t)g->ark_card;
    g->ark_card = take(g, name);
    g->ark_owner = owner;
    g->ark_life = life;
}

/* Replaces a market card (the old one goes to its discard pile). */
static void set_market(xb_game *g, int f, int k, const char *name)
{
    int old = g->market[f][k];
    if (old >= 0) g->discard[f].c[g->discard[f].n++] = (int16_t)old;
    g->market[f][k] = (int16_t)take(g, name);
}

static int face_of(const char *s)
{
    for (int f = 0; f < XF_FACES; f++)
        if (strcmp(xb_face_names[f], s) == 0) return f;
    fail_msg("bad face %s", s);
    return 0;
}

/* Puts seat into its ACTION phase with the given action-pool faces
 * (comma-separated). */
static void to_action(xb_game *g, int seat, const char *faces)
{
    g->cur = seat;
    g->step = XS_ACTION;
    g->n_roll = 0;
    g->n_act = 0;
    g->n_pending = 0;
    g->turn_actions = 0;
    memset(g->dice_used, 0, sizeof g->dice_used);
    char buf[256];
    snprintf(buf, sizeof buf, "%s", faces);
    for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
        int f = face_of(tok);
        g->act[g->n_act].face = (uint8_t)f;
        g->act[g->n_act].kind = f >= XF_PAR1 ? XB_DIE_PAR : f >= XF_ATK ? XB_DIE_ATK : XB_DIE_RES;
        g->n_act++;
        g->dice_used[g->act[g->n_act - 1].kind]++;
    }
}

static bool has(xb_game *g, const char *prefix)
{
    return xb_find(&g->base, prefix) >= 0;
}

static void act(xb_game *g, const char *prefix)
{
    if (!xb_do(&g->base, prefix)) {
        char buf[4096] = "", l[128];
        arena_decision d;
        VT.decision(&g->base, &d);
        for (int i = 0; i < d.n_options; i++) {
            VT.label(&g->base, i, l, sizeof l);
            strncat(buf, l, sizeof buf - strlen(buf) - 2);
            strcat(buf, " ");
        }
        fail_msg("no option '%s' at %s; have: %s", prefix, d.kind, buf);
    }
}

static const char *kind(xb_game *g)
{
    arena_decision d;
    return VT.decision(&g->base, &d) ? d.kind : "over";
}

static int seat_to_decide(xb_game *g)
{
    arena_decision d;
    return VT.decision(&g->base, &d) ? d.seat : -1;
}

static void done(xb_game *g)
{
    ok(g);
    game_free(&g->base);
}

/* ------------------------------------------------------------------ setup */

static void setup_ark_soldier_life(void **st)
{
    (void)st;
    for (int players = 2; players <= 4; players++) {
        xb_game *g = mk(players);
        assert_true(g->ark_card >= 0);
        assert_int_equal(g->ark_owner, -1);
        int want = xb_type(g, g->ark_card)->res + players;
        if (want > xb_ark_max(g)) want = xb_ark_max(g);
        assert_int_equal(g->ark_life, want);
        assert_int_equal(xb_ark_max(g), players == 2 ? 10 : 20);
        done(g);
    }
}

static void setup_two_face_up_cards_per_deck(void **st)
{
    (void)st;
    xb_game *g = mk(3);
    for (int f = 0; f < XB_FAMILIES; f++) {
        assert_true(g->market[f][0] >= 0);
        assert_true(g->market[f][1] >= 0);
    }
    assert_int_equal(g->deck[XB_SOLDIER].n, 64 - 1 - 2);
    assert_int_equal(g->deck[XB_CIVILIAN].n, 48 - 2);
    done(g);
}

static void setup_factions_resources_paragon(void **st)
{
    (void)st;
    for (uint64_t seed = 1; seed < 20; seed++) {
        xb_game *g = mk_set(4, NULL, 0, seed);
        bool board[4] = {0};
        for (int s = 0; s < 4; s++) {
            assert_int_equal(g->p[s].level, 0);
            assert_int_equal(g->p[s].par, 0);
            int b = g->p[s].faction / 2;
            assert_false(board[b]); /* one faction card per board */
            board[b] = true;
            if (s != g->cur) assert_int_equal(g->p[s].res, 4); /* = players */
        }
        done(g);
    }
}

static void setup_target_option_defaults(void **st)
{
    (void)st;
    static const int want[] = {0, 0, 35, 25, 18}, apocalypse[] = {0, 0, 35, 25, 24};
    arena_setting apo[] = {{"mode", "apocalypse"}};
    for (int p = 2; p <= 4; p++) {
        xb_game *g = mk(p);
        assert_int_equal(g->target, want[p]);
        done(g);
        g = mk_set(p, apo, 1, 1);
        assert_int_equal(g->target, apocalypse[p]);
        done(g);
    }
    arena_setting set[] = {{"target", "12"}};
    xb_game *g = mk_set(2, set, 1, 1);
    assert_int_equal(g->target, 12);
    done(g);
}

static void setup_start_player_paragon_roll(void **st)
{
    (void)st;
    int starts[4] = {0};
    for (uint64_t seed = 1; seed <= 60; seed++) {
        xb_game *g = mk_set(4, NULL, 0, seed);
        /* the last start_roll event names the start player as its unique max */
        const av *last = NULL;
        for (size_t i = 0; i < VT.event_count(&g->base); i++) {
            const av *e = VT.event(&g->base, i, -1);
            if (strcmp(av_get_str(e, "type"), "start_roll") == 0) last = e;
        }
        assert_non_null(last);
        const av *rolls = av_get(last, "rolls");
        int64_t best = -1;
        int nbest = 0, who = -1;
        for (size_t s = 0; s < av_len(rolls); s++) {
            const av *r = rolls->u.list.items[s];
            if (r->type != AV_INT) continue;
            if (r->u.i > best) best = r->u.i, nbest = 0, who = (int)s;
            if (r->u.i == best) nbest++;
        }
        assert_int_equal(nbest, 1);
        assert_int_equal(who, g->start_player);
        assert_int_equal(g->cur, g->start_player);
        starts[who]++;
        done(g);
    }
    for (int s = 0; s < 4; s++)
        assert_true(starts[s] > 0);
}

/* ---------------------------------------------------------------- phases */

/* Starts seat's turn from scratch (EFFECT phase). */
static void begin_turn_of(xb_game *g, int seat)
{
    g->cur = (seat + g->players - 1) % g->players;
    to_action(g, g->cur, "");
    g->ark_owner = -1; /* no Ark income in between */
    act(g, "end");
}

static void effect_phase_productivity(void **st)
{
    (void)st;
    xb_game *g = mk(3);
    g->p[1].res = 5;
    g->p[1].level = 2;
    int prod = xb_factions[g->p[1].faction].productivity[2];
    begin_turn_of(g, 1);
    assert_int_equal(g->cur, 1);
    assert_int_equal(g->p[1].res, 5 + prod);
    assert_string_equal(kind(g), "dice_pool");
    done(g);
}

/* Gives seat the first faction and level whose base value (a per-level
 * array of xb_faction, at offset field) is v, so the rulebook's examples
 * hold whatever the designed faction table says. */
static void with_base(xb_game *g, int seat, size_t field, int v, const char *what)
{
    for (int f = 0; f < XB_FACTIONS; f++)
        for (int lv = 0; lv < XB_LEVELS; lv++)
            if (((const int *)((const char *)&xb_factions[f] + field))[lv] == v) {
                g->p[seat].faction = f;
                g->p[seat].level = lv;
                return;
            }
    fail_msg("no faction has base %s %d", what, v);
}
#define with_resistance(g, seat, v)                                                                \
    with_base(g, seat, offsetof(xb_faction, resistance), v, "resistance")
#define with_productivity(g, seat, v)                                                              \
    with_base(g, seat, offsetof(xb_faction, productivity), v, "productivity")

static void effect_order_decision_all_mandatory(void **st)
{
    (void)st;
    /* Priest (pay 2: +1 paragon) and Eagle Warrior (+1 resource) on a base
     * that yields 1: the order decides whether the Priest can pay. */
    for (int priest_first = 0; priest_first < 2; priest_first++) {
        xb_game *g = mk(3);
        with_productivity(g, 1, 1);
        give_slot(g, 1, 0, "Priest");
        give_squad(g, 1, "Eagle Warrior");
        g->p[1].res = 0;
        begin_turn_of(g, 1);
        assert_string_equal(kind(g), "effect_order");
        assert_int_equal(seat_to_decide(g), 1);
        act(g, priest_first ? "effect:slot1:Priest" : "effect:squad:Eagle Warrior");
        assert_string_equal(kind(g), "dice_pool"); /* the last one resolved itself */
        /* first: 1 + 1 = 2 resources, then Priest pays 2 for 1 paragon;
         * Priest first cannot pay with 1 resource */
        assert_int_equal(g->p[1].res, priest_first ? 2 : 0);
        assert_int_equal(g->p[1].par, priest_first ? 0 : 1);
        done(g);
    }
}

static void dice_pool_choices(void **st)
{
    (void)st;
    xb_game *g = mk(2);
    begin_turn_of(g, 0);
    assert_string_equal(kind(g), "dice_pool");
    arena_decision d;
    VT.decision(&g->base, &d);
    assert_int_equal(d.n_options, 3); /* 6 dice, at most 4 of a type: 2/4, 3/3, 4/2 */
    assert_true(has(g, "pool:res2:atk4") && has(g, "pool:res3:atk3") && has(g, "pool:res4:atk2"));
    done(g);
    /* an Armory raises the pool to 7; still at most 4 per type */
    g = mk(2);
    give_slot(g, 0, 0, "Armory");
    begin_turn_of(g, 0);
    VT.decision(&g->base, &d);
    assert_int_equal(d.n_options, 2);
    assert_true(has(g, "pool:res3:atk4") && has(g, "pool:res4:atk3"));
    act(g, "pool:res4:atk3");
    assert_int_equal(g->n_roll + g->n_act, 7);
    done(g);
}

static void dice_effects_mandatory(void **st)
{
    (void)st;
    xb_game *g = mk(2);
    give_slot(g, 0, 0, "Observatory"); /* DICE: +1 re-roll */
    begin_turn_of(g, 0);
    act(g, "pool:res3:atk3");
    assert_string_equal(kind(g), "keep");
    assert_int_equal(g->rerolls_left, 3);
    done(g);
}

static void roll_keep_and_two_rerolls(void **st)
{
    (void)st;
    xb_game *g = mk(2);
    begin_turn_of(g, 0);
    act(g, "pool:res4:atk2");
    assert_string_equal(kind(g), "keep");
    assert_int_equal(g->n_roll, 6);
    /* keep die 0: its face must not change */
    int face = g->roll[0].face;
    act(g, "keep:0:");
    assert_int_equal(g->n_act, 1);
    assert_int_equal(g->act[0].face, face);
    assert_int_equal(g->n_roll, 5);
    assert_string_equal(kind(g), "keep"); /* after the first re-roll */
    int none = -1;
    (void)none;
    /* keep nothing: the second re-roll puts everything into the action pool */
    int empty[1];
    assert_true(VT.apply(&g->base, empty, 0));
    assert_int_equal(g->n_roll, 0);
    assert_int_equal(g->n_act, 6);
    assert_int_equal(g->act[0].face, face);
    done(g);
}

static void dice_phase_ends_when_all_kept(void **st)
{
    (void)st;
    xb_game *g = mk(2);
    begin_turn_of(g, 0);
    act(g, "pool:res3:atk3");
    int all[6] = {0, 1, 2, 3, 4, 5};
    assert_true(VT.apply(&g->base, all, 6));
    assert_int_equal(g->n_act, 6);
    assert_int_equal(g->rerolls_left, 2); /* remaining re-rolls are forfeited */
    assert_true(strcmp(kind(g), "action") == 0 || g->cur != 0);
    done(g);
}

/* -------------------------------------------------------------- actions */

static void collect_resources_cap_25(void **st)
{
    (void)st;
    xb_game *g = mk(2);
    to_action(g, 0, "res3,res2,blank");
    g->p[0].res = 3;
    act(g, "collect:0:res3");
    assert_int_equal(g->p[0].res, 6);
    g->p[0].res = 24;
    act(g, "collect:0:res2");
    assert_int_equal(g->p[0].res, 25);
    done(g);
}

static void paragon_die_gain_and_cap_40(void **st)
{
    (void)st;
    arena_setting set[] = {{"target", "40"}};
    xb_game *g = mk_set(2, set, 1, 1);
    to_action(g, 0, "par2,par1,res1");
    g->p[0].par = 10;
    act(g, "paragon:0:par2");
    assert_int_equal(g->p[0].par, 12);
    done(g);
    /* the cap: 40 is also the largest target, so reaching it wins */
    g = mk_set(2, set, 1, 1);
    to_action(g, 0, "par2,res1");
    g->p[0].par = 39;
    act(g, "paragon:0:par2");
    assert_int_equal(g->p[0].par, 40);
    assert_string_equal(kind(g), "over");
    done(g);
}

/* Rulebook example: a strength-3 soldier uses two attack symbols: strength 6
 * against the Ark soldier's 8 life leaves 2. */
static void example_attack_strength_6_of_8_life(void **st)
{
    (void)st;
    xb_game *g = mk(4);
    put_ark(g, 0, "Flame Maiden", 8);
    give_squad(g, 1, "Eagle Warrior"); /* strength 3, no attack bonus */
    to_action(g, 1, "atk,atk,atk");
    act(g, "attack:ark");
    assert_string_equal(kind(g), "attack_dice");
    arena_decision d;
    VT.decision(&g->base, &d);
    assert_int_equal(d.pick_min, 1);
    assert_int_equal(d.pick_max, 3);
    int two[2] = {0, 1};
    assert_true(VT.apply(&g->base, two, 2));
    assert_int_equal(g->ark_life, 2);
    assert_int_equal(g->ark_owner, 0);
    assert_int_equal(g->n_act, 1); /* one attack symbol left for another attack */
    assert_true(has(g, "attack:ark"));
    done(g);
}

static void critical_adds_one(void **st)
{
    (void)st;
    xb_game *g = mk(4);
    put_ark(g, 0, "Sentinel", 20);
    give_squad(g, 1, "Eagle Warrior");
    to_action(g, 1, "crit,crit,res1");
    act(g, "attack:ark");
    int two[2] = {0, 1};
    assert_true(VT.apply(&g->base, two, 2));
    assert_int_equal(g->ark_life, 20 - 2 * (3 + 1));
    done(g);
}

/* Rulebook example: the Ark takeover. A strength-4 attack destroys the
 * uncontrolled Ark soldier with 4 life; the attacker must enter with
 * resistance 4 + 4 players = 8 life; then player 2 attacks with two symbols,
 * strength 8, destroys it and enters. */
static void example_ark_takeover(void **st)
{
    (void)st;
    xb_game *g = mk(4);
    int bomber = type_index(g, "Bomber");
    g->cs.t[bomber].phase = XB_PH_PERMANENT; /* a plain str-4/res-4 soldier */
    g->cs.t[bomber].effect = XE_GUARD;
    put_ark(g, -1, "Jaguar Warrior", 4);
    give_squad(g, 0, "Bomber");
    give_squad(g, 1, "Bomber");
    g->p[0].par = g->p[1].par = 0;
    to_action(g, 0, "atk,res1");
    act(g, "attack:ark");
    act(g, "die:0:atk");
    assert_int_equal(g->ark_owner, 0);
    assert_int_equal(xb_type(g, g->ark_card)->name[0], 'B');
    assert_int_equal(g->ark_life, 8);
    assert_int_equal(g->p[0].squad.n, 0);
    assert_string_equal(xb_type(g, g->discard[XB_SOLDIER].c[g->discard[XB_SOLDIER].n - 1])->name,
                        "Jaguar Warrior");
    /* paragon dice = attacker's paragon value (2): at most 4 */
    assert_true(g->p[0].par <= 4);
    /* from the Ark, seat 0 may now only attack bases */
    to_action(g, 0, "atk,res1");
    assert_false(has(g, "attack:ark"));
    assert_true(has(g, "attack:base:1") && has(g, "attack:base:2") && has(g, "attack:base:3"));
    /* player 2 (seat 1) destroys it with two symbols (strength 8) */
    to_action(g, 1, "atk,atk,res1");
    act(g, "attack:ark");
    int two[2] = {0, 1};
    assert_true(VT.apply(&g->base, two, 2));
    assert_int_equal(g->ark_owner, 1);
    assert_int_equal(g->ark_life, 8);
    done(g);
}

static void enter_empty_ark(void **st)
{
    (void)st;
    xb_game *g = mk(3);
    g->discard[XB_SOLDIER].c[g->discard[XB_SOLDIER].n++] = (int16_t)g->ark_card;
    g->ark_card = g->ark_owner = -1;
    g->ark_life = 0;
    give_squad(g, 2, "Champion"); /* res 6, +2 armor: 6 + 3 + 2 = 11 */
    to_action(g, 2, "atk,crit,res1");
    assert_false(has(g, "attack:ark"));
    act(g, "enter_ark");
    assert_int_equal(g->ark_owner, 2);
    assert_int_equal(g->ark_life, 11);
    assert_int_equal(g->n_act, 2);
    assert_int_equal(g->act[0].face, XF_CRIT); /* the plain attack symbol was spent */
    done(g);
}

static void attack_needs_a_soldier(void **st)
{
    (void)st;
    xb_game *g = mk(3);
    to_action(g, 1, "atk,atk,res1");
    assert_false(has(g, "attack:"));
    assert_false(has(g, "enter_ark"));
    done(g);
}

/* Rulebook example: strength-4 soldier in the Ark, one attack and one
 * critical symbol; the critical attack (strength 5) on a base with
 * resistance 4 is blocked by a resistance-3 soldier, which dies; the second
 * attack (strength 4) is unblocked and hits: an upgrade card is destroyed and
 * paragon is stolen. */
static void example_critical_vs_base_with_block(void **st)
{
    (void)st;
    xb_game *g = mk(4);
    put_ark(g, 0, "Veteran", 9); /* strength 4 */
    with_resistance(g, 2, 4);    /* a base of resistance 4 */
    assert_int_equal(xb_base_resistance(g, 2), 4);
    give_slot(g, 2, 0, "Farmer");
    give_squad(g, 2, "Jaguar Warrior"); /* resistance 3 */
    g->p[2].par = 5;
    g->p[0].par = 0;
    to_action(g, 0, "atk,crit,res1");
    act(g, "attack:base:2");
    act(g, "die:1:crit");
    assert_string_equal(kind(g), "block");
    assert_int_equal(seat_to_decide(g), 2); /* the defender decides */
    assert_int_equal(g->atk_strength, 5);
    act(g, "block:Jaguar Warrior");
    assert_int_equal(g->p[2].squad.n, 0);
    assert_int_equal(g->p[2].slot[0].n, 1); /* blocked: nothing destroyed */
    assert_int_equal(g->p[2].par, 5);
    int after_block = g->p[0].par; /* paragon roll for the destroyed blocker */
    assert_true(after_block <= 4);
    act(g, "attack:base:2");
    act(g, "die:0:atk");
    /* no soldier left to block: hit at strength 4 vs resistance 4; the
     * attacker "darf" destroy the upgrade card and does */
    act(g, "destroy:2:slot1:Farmer");
    assert_int_equal(g->p[2].slot[0].n, 0);
    assert_int_equal(g->p[0].par - after_block, 5 - g->p[2].par);
    done(g);
}

static void block_survivor_still_blocks(void **st)
{
    (void)st;
    xb_game *g = mk(3);
    put_ark(g, 0, "Veteran", 9);
    give_squad(g, 1, "Shieldbearer"); /* res 6 + 2 when blocking */
    give_slot(g, 1, 0, "Farmer");
    g->p[1].par = 3;
    to_action(g, 0, "atk,atk,res1");
    act(g, "attack:base:1");
    int two[2] = {0, 1};
    assert_true(VT.apply(&g->base, two, 2)); /* strength 8 = 6 + 2: dies */
    act(g, "block:");
    assert_int_equal(g->p[1].squad.n, 0);
    done(g);
    g = mk(3);
    put_ark(g, 0, "Veteran", 9);
    give_squad(g, 1, "Shieldbearer");
    give_slot(g, 1, 0, "Farmer");
    g->p[1].par = 3;
    to_action(g, 0, "atk,res1");
    act(g, "attack:base:1");
    act(g, "die:0");
    act(g, "block:");
    assert_int_equal(g->p[1].squad.n, 1); /* survives */
    assert_int_equal(g->p[1].slot[0].n, 1);
    assert_int_equal(g->p[1].par, 3);
    done(g);
}

static void no_block_lets_the_attack_through(void **st)
{
    (void)st;
    xb_game *g = mk(3);
    put_ark(g, 0, "Avatar", 9); /* strength 5 */
    give_squad(g, 1, "Recruit");
    give_slot(g, 1, 0, "Farmer");
    g->p[1].faction = 2; /* Serpent Cult: resistance 2 */
    to_action(g, 0, "atk,res1");
    act(g, "attack:base:1");
    act(g, "die:0");
    act(g, "no_block");
    act(g, "destroy:1:slot1:Farmer");
    assert_int_equal(g->p[1].squad.n, 1);
    assert_int_equal(g->p[1].slot[0].n, 0);
    done(g);
}

static void base_attack_below_resistance_fails(void **st)
{
    (void)st;
    xb_game *g = mk(3);
    put_ark(g, 0, "Recruit", 5); /* strength 1 */
    with_resistance(g, 1, 4);
    give_slot(g, 1, 0, "Palisade");
    assert_int_equal(xb_base_resistance(g, 1), 5);
    g->p[1].par = 4;
    to_action(g, 0, "atk,atk,atk,crit,res1");
    act(g, "attack:base:1");
    int four[4] = {0, 1, 2, 3};
    assert_true(VT.apply(&g->base, four, 4)); /* 1+1+1+2 = 5: hits */
    act(g, "destroy:1:slot1:Palisade");
    assert_int_equal(g->p[1].slot[0].n, 0);
    done(g);
    g = mk(3);
    put_ark(g, 0, "Recruit", 5);
    with_resistance(g, 1, 4);
    give_slot(g, 1, 0, "Palisade");
    g->p[1].par = 4;
    to_action(g, 0, "atk,atk,atk,atk,res1");
    act(g, "attack:base:1");
    int four2[4] = {0, 1, 2, 3};
    assert_true(VT.apply(&g->base, four2, 4)); /* 4 < 5 */
    assert_int_equal(g->p[1].slot[0].n, 1);
    assert_int_equal(g->p[1].par, 4);
    done(g);
}

static void destroy_choice_and_steal_capped(void **st)
{
    (void)st;
    for (uint64_t seed = 1; seed < 30; seed++) {
        xb_game *g = mk_set(3, NULL, 0, seed);
        put_ark(g, 0, "Warlord", 9); /* strength 5, paragon 3 */
        g->p[1].faction = 2;
        g->p[1].level = 1;
        give_slot(g, 1, 0, "Farmer");
        give_slot(g, 1, 1, "Workshop");
        g->p[1].par = 1;
        g->p[0].par = 0;
        to_action(g, 0, "atk,res1");
        act(g, "attack:base:1");
        act(g, "die:0");
        assert_string_equal(kind(g), "destroy");
        assert_int_equal(seat_to_decide(g), 0);
        act(g, "destroy:1:slot2:Workshop");
        assert_int_equal(g->p[1].slot[1].n, 0);
        assert_int_equal(g->p[1].slot[0].n, 1);
        /* never more than the defender has */
        assert_true(g->p[1].par >= 0 && g->p[0].par + g->p[1].par == 1);
        done(g);
    }
}

/* All option labels of the current decision, space-separated. */
static void labels(xb_game *g, char *buf, size_t len)
{
    arena_decision d;
    buf[0] = '\0';
    if (!VT.decision(&g->base, &d)) return;
    for (int i = 0; i < d.n_options; i++) {
        char l[128];
        VT.label(&g->base, i, l, sizeof l);
        snprintf(buf + strlen(buf), len - strlen(buf), "%s%s", i ? " " : "", l);
    }
}

/* Rulebook, attacks from the Ark: after an unblocked hit the attacker "darf"
 * (may) destroy an upgrade card of the base, and additionally steals
 * paragon. The attacker decides between the defender's top upgrade cards
 * and `keep`, even with one candidate; the steal is the same either way.
 * Without upgrade cards nothing is asked. Sabotage (an event that destroys)
 * stays mandatory: no `keep`, one candidate goes at once. */
static void hit_destroy_is_optional_attacker_decides(void **st)
{
    (void)st;
    char buf[512];
    for (uint64_t seed = 1; seed < 20; seed++) {
        int stolen[2];
        for (int destroy = 0; destroy < 2; destroy++) {
            xb_game *g = mk_set(3, NULL, 0, seed);
            put_ark(g, 0, "Warlord", 9); /* strength 5, paragon 3 */
            g->p[1].faction = 2;
            g->p[1].level = 1;
            give_slot(g, 1, 0, "Farmer");
            g->p[1].par = 6;
            g->p[0].par = 0;
            int disc = g->discard[XB_CIVILIAN].n;
            to_action(g, 0, "atk,res1");
            act(g, "attack:base:1");
            act(g, "die:0");
            arena_decision d;
            assert_true(VT.decision(&g->base, &d));
            assert_string_equal(d.kind, "destroy");
            assert_int_equal(d.seat, 0); /* the attacker decides */
            assert_int_equal(d.pick_min, 1);
            assert_int_equal(d.pick_max, 1);
            labels(g, buf, sizeof buf);
            assert_string_equal(buf, "destroy:1:slot1:Farmer keep");
            VT.prompt(&g->base, buf, sizeof buf);
            assert_non_null(strstr(buf, "keep"));
            assert_int_equal(g->p[1].par, 6); /* the steal comes after the choice */
            act(g, destroy ? "destroy:1:slot1:Farmer" : "keep");
            assert_int_equal(g->p[1].slot[0].n, destroy ? 0 : 1);
            assert_int_equal(g->discard[XB_CIVILIAN].n, disc + destroy);
            assert_int_equal(g->p[0].par + g->p[1].par, 6);
            stolen[destroy] = g->p[0].par;
            assert_string_equal(kind(g), "action");
            done(g);
        }
        assert_int_equal(stolen[0], stolen[1]);
    }
    /* two candidates: one option each, plus keep */
    xb_game *g = mk(3);
    put_ark(g, 0, "Warlord", 9);
    g->p[1].faction = 2;
    g->p[1].level = 1;
    give_slot(g, 1, 0, "Farmer");
    give_slot(g, 1, 1, "Workshop");
    to_action(g, 0, "atk,res1");
    act(g, "attack:base:1");
    act(g, "die:0");
    labels(g, buf, sizeof buf);
    assert_string_equal(buf, "destroy:1:slot1:Farmer destroy:1:slot2:Workshop keep");
    act(g, "keep");
    assert_int_equal(g->p[1].slot[0].n + g->p[1].slot[1].n, 2);
    done(g);
    /* no upgrade card: nothing to decide */
    g = mk(3);
    put_ark(g, 0, "Warlord", 9);
    g->p[1].faction = 2;
    to_action(g, 0, "atk,res1");
    act(g, "attack:base:1");
    act(g, "die:0");
    assert_string_equal(kind(g), "action");
    done(g);
    /* Sabotage with one candidate: destroyed at once */
    g = mk(3);
    give_slot(g, 2, 0, "Market");
    set_market(g, XB_EVENT, 0, "Sabotage");
    to_action(g, 0, "res1");
    g->p[0].res = 20;
    act(g, "buy:event:0:Sabotage");
    assert_string_equal(kind(g), "action");
    assert_int_equal(g->p[2].slot[0].n, 0);
    done(g);
}

static void guard_reduces_steal(void **st)
{
    (void)st;
    for (uint64_t seed = 1; seed < 30; seed++) {
        xb_game *g = mk_set(3, NULL, 0, seed);
        put_ark(g, 0, "Recruit", 5); /* paragon value 1: at most 2 */
        g->p[1].level = 1;           /* two slots open */
        give_slot(g, 1, 0, "Guard");
        give_slot(g, 1, 1, "Guard");
        g->p[1].par = 10;
        /* strength 1 + one die a point: exactly the base's resistance */
        int res = xb_factions[g->p[1].faction].resistance[1], dice[XB_POOL_MAX], n = 0;
        assert_in_range(res, 1, XB_POOL_MAX - 1);
        char faces[128] = "";
        for (; n < res - 1; n++) {
            strcat(faces, n % 2 ? "crit," : "atk,");
            dice[n] = n;
        }
        strcat(faces, "res1");
        to_action(g, 0, faces);
        act(g, "attack:base:1");
        assert_true(VT.apply(&g->base, dice, n));
        act(g, "destroy:1:slot1");
        /* one Guard left: a roll of at most 2 minus 1 */
        assert_true(g->p[1].par >= 9);
        done(g);
    }
}

static void ark_income_every_turn_end(void **st)
{
    (void)st;
    long gained = 0;
    for (uint64_t seed = 1; seed < 40; seed++) {
        xb_game *g = mk_set(3, NULL, 0, seed);
        put_ark(g, 2, "Avatar", 9); /* paragon value 3 */
        g->p[2].par = 0;
        to_action(g, 0, "res1");
        act(g, "end"); /* end of an opponent's turn */
        gained += g->p[2].par;
        assert_true(g->p[2].par <= 6 + 2); /* 3 dice, plus a possible Avatar effect */
        done(g);
    }
    assert_true(gained > 0);
}

static void apocalypse_ark_bonus(void **st)
{
    (void)st;
    arena_setting set[] = {{"mode", "apocalypse"}};
    for (uint64_t seed = 1; seed < 20; seed++) {
        xb_game *g = mk_set(3, set, 1, seed);
        assert_int_equal(xb_ark_max(g), 10);
        put_ark(g, 2, "Recruit", 3); /* <= 5 life: +1 */
        g->p[2].par = 0;
        g->p[1].par = 0;
        to_action(g, 0, "res1");
        act(g, "end");
        assert_true(g->p[2].par >= 1 && g->p[2].par <= 3);
        done(g);
        g = mk_set(3, set, 1, seed);
        put_ark(g, 2, "Recruit", 6); /* >= 6 life: +2 */
        g->p[2].par = 0;
        to_action(g, 0, "res1");
        act(g, "end");
        assert_true(g->p[2].par >= 2 && g->p[2].par <= 4);
        done(g);
    }
}

/* Apocalypse: "Jedes Mal, wenn ein Spieler in der ARCHE PARAGON erbeutet"
 * also covers the roll for taking the Ark: +1 at <= 5 life, +2 at >= 6.
 * The attackers here have paragon value 0, so the roll itself gives 0. */
static void apocalypse_bonus_on_taking_the_ark(void **st)
{
    (void)st;
    static const struct {
        const char *mode, *soldier;
        int bonus;
    } cases[] = {{"apocalypse", "Recruit", 1},      /* life 2 + 2 players = 4 */
                 {"apocalypse", "Shieldbearer", 2}, /* life 6 + 2 = 8 */
                 {"normal", "Shieldbearer", 0}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        arena_setting set[] = {{"mode", cases[c].mode}};
        xb_game *g = mk_set(2, set, 1, 5);
        g->cs.t[type_index(g, cases[c].soldier)].par = 0;
        put_ark(g, 1, "Scout", 1);
        give_squad(g, 0, cases[c].soldier);
        g->p[0].par = 0;
        to_action(g, 0, "atk,res1");
        act(g, "attack:ark");
        act(g, "die:0:atk");
        assert_int_equal(g->ark_owner, 0);
        assert_int_equal(g->p[0].par, cases[c].bonus);
        done(g);
    }
}

static void apocalypse_market(void **st)
{
    (void)st;
    arena_setting set[] = {{"mode", "apocalypse"}};
    xb_game *g = mk_set(2, set, 1, 3);
    for (int f = 0; f < XB_FAMILIES; f++) {
        assert_true(g->market[f][0] >= 0);
        assert_int_equal(g->market[f][1], -1);
        int c = g->market[f][0], cost = xb_type(g, c)->cost;
        assert_int_equal(xb_market_cost(g, c), cost > 1 ? cost - 1 : 1);
    }
    to_action(g, 0, "res1");
    g->p[0].res = 20;
    assert_false(has(g, "discard:market"));
    assert_true(has(g, "buy:soldier:0"));
    done(g);
}

/* ---------------------------------------------------------------- buying */

static void buy_soldier_goes_on_top_of_squad(void **st)
{
    (void)st;
    xb_game *g = mk(2);
    give_squad(g, 0, "Recruit");
    to_action(g, 0, "res1");
    g->p[0].res = 20;
    int c = g->market[XB_SOLDIER][1];
    int cost = xb_type(g, c)->cost;
    act(g, "buy:soldier:1:");
    assert_int_equal(g->p[0].squad.n, 2);
    assert_int_equal(g->p[0].squad.c[1], c);
    assert_int_equal(g->p[0].res, 20 - cost);
    assert_true(g->market[XB_SOLDIER][1] >= 0 && g->market[XB_SOLDIER][1] != c); /* refilled */
    done(g);
}

static void buy_placement_never_mixes_civilians_and_buildings(void **st)
{
    (void)st;
    xb_game *g = mk(2);
    g->p[0].level = 2; /* slots 1..3 open */
    give_slot(g, 0, 0, "Palisade");
    give_slot(g, 0, 1, "Farmer");
    set_market(g, XB_CIVILIAN, 0, "Trader");
    to_action(g, 0, "res1");
    g->p[0].res = 20;
    act(g, "buy:civilian:0:Trader");
    assert_string_equal(kind(g), "place");
    assert_false(has(g, "place:slot1")); /* building stack */
    assert_false(has(g, "place:slot4")); /* locked */
    assert_true(has(g, "place:slot2") && has(g, "place:slot3"));
    act(g, "place:slot2");
    assert_int_equal(g->p[0].slot[1].n, 2);
    done(g);
    /* no open slot accepts it: the card cannot be bought */
    g = mk(2);
    give_slot(g, 0, 0, "Palisade");
    set_market(g, XB_CIVILIAN, 0, "Trader");
    set_market(g, XB_CIVILIAN, 1, "Farmer");
    to_action(g, 0, "res1");
    g->p[0].res = 20;
    assert_false(has(g, "buy:civilian"));
    assert_true(has(g, "buy:building"));
    done(g);
}

static void buy_event_resolves_at_once(void **st)
{
    (void)st;
    xb_game *g = mk(3);
    set_market(g, XB_EVENT, 0, "Offering");
    to_action(g, 0, "res1");
    g->p[0].res = 10;
    g->p[0].par = 0;
    int disc = g->discard[XB_EVENT].n;
    act(g, "buy:event:0:Offering");
    assert_int_equal(g->p[0].par, 2);
    assert_int_equal(g->p[0].res, 6);
    assert_int_equal(g->discard[XB_EVENT].n, disc + 1);
    done(g);
}

static void event_sabotage_barrage_raid(void **st)
{
    (void)st;
    xb_game *g = mk(3);
    give_slot(g, 1, 0, "Farmer");
    give_slot(g, 2, 0, "Market");
    set_market(g, XB_EVENT, 0, "Sabotage");
    set_market(g, XB_EVENT, 1, "Raid");
    to_action(g, 0, "res1");
    g->p[0].res = 20;
    g->p[1].res = 1;
    g->p[2].res = 5;
    act(g, "buy:event:0:Sabotage");
    assert_string_equal(kind(g), "destroy");
    assert_false(has(g, "keep")); /* a card effect, not the "darf" of a hit */
    act(g, "destroy:2:slot1:Market");
    assert_int_equal(g->p[2].slot[0].n, 0);
    act(g, "buy:event:1:Raid");
    assert_int_equal(g->p[1].res, 0);
    assert_int_equal(g->p[2].res, 3);
    done(g);
    g = mk(3);
    put_ark(g, 1, "Recruit", 3);
    set_market(g, XB_EVENT, 0, "Barrage");
    to_action(g, 0, "res1");
    g->p[0].res = 20;
    act(g, "buy:event:0:Barrage");
    assert_int_equal(g->ark_card, -1);
    assert_int_equal(g->ark_owner, -1);
    done(g);
}

/* ------------------------------------------------------- general actions */

static void discard_market_card(void **st)
{
    (void)st;
    xb_game *g = mk(2);
    to_action(g, 0, "res1");
    g->p[0].res = 5;
    int c = g->market[XB_BUILDING][0];
    int cost = xb_factions[g->p[0].faction].discard;
    assert_int_equal(cost, 1);
    act(g, "discard:market:building:0:");
    assert_int_equal(g->p[0].res, 5 - cost);
    assert_int_equal(g->discard[XB_BUILDING].c[g->discard[XB_BUILDING].n - 1], c);
    assert_true(g->market[XB_BUILDING][0] >= 0);
    done(g);
}

static void discard_own_top_card(void **st)
{
    (void)st;
    xb_game *g = mk(2);
    give_squad(g, 0, "Recruit");
    give_squad(g, 0, "Scout");
    give_slot(g, 0, 0, "Farmer");
    to_action(g, 0, "res1");
    g->p[0].res = 5;
    act(g, "discard:squad:Scout");
    assert_int_equal(g->p[0].squad.n, 1);
    act(g, "discard:slot1:Farmer");
    assert_int_equal(g->p[0].slot[0].n, 0);
    assert_int_equal(g->p[0].res, 3);
    done(g);
}

/* The market always shows two cards of each family ("Enthält immer 2 offene
 * Karten jedes Typs"), from the reshuffled discard pile when the deck is out.
 * A slot left empty because the family's deck and discard pile were both
 * empty fills as soon as a card of that family is discarded, not at the next
 * buy. (Only a card file with a small family gets there.) */
static void market_refills_from_a_new_discard(void **st)
{
    (void)st;
    xb_game *g = mk(2);
    xb_stack *pile = &g->p[0].slot[0], *deck = &g->deck[XB_CIVILIAN],
             *dis = &g->discard[XB_CIVILIAN];
    for (int i = 0; i < deck->n; i++)
        pile->c[pile->n++] = deck->c[i];
    for (int i = 0; i < dis->n; i++)
        pile->c[pile->n++] = dis->c[i];
    deck->n = dis->n = 0;
    for (int k = 0; k < g->market_slots; k++) {
        pile->c[pile->n++] = g->market[XB_CIVILIAN][k];
        g->market[XB_CIVILIAN][k] = -1;
    }
    ok(g);
    to_action(g, 0, "res1");
    g->p[0].res = 5;
    int top = pile->c[pile->n - 1];
    act(g, "discard:slot1:");
    assert_int_equal(g->market[XB_CIVILIAN][0], top);
    assert_int_equal(g->market[XB_CIVILIAN][1], -1);
    assert_int_equal(dis->n, 0);
    done(g);
}

/* Reorganize lifts the own stacks and the player rebuilds them bottom up,
 * one `place:NAME:STACK` decision per card. */
static void reorganize_stacks(void **st)
{
    (void)st;
    xb_game *g = mk(2);
    g->p[0].level = 1;
    give_squad(g, 0, "Recruit");
    give_squad(g, 0, "Scout");
    give_slot(g, 0, 0, "Farmer");
    give_slot(g, 0, 0, "Trader");
    to_action(g, 0, "res1");
    g->p[0].res = 5;
    int cost = xb_factions[g->p[0].faction].reorganize;
    act(g, "reorganize");
    assert_int_equal(g->p[0].res, 5 - cost);
    assert_string_equal(kind(g), "reorganize");
    assert_int_equal(g->n_held, 4);
    assert_false(has(g, "place:Farmer:slot3")); /* locked slot */
    assert_false(has(g, "place:Scout:slot1"));  /* soldiers stay in the squad */
    act(g, "place:Scout:squad");
    act(g, "place:Recruit:squad"); /* Recruit is now on top */
    act(g, "place:Trader:slot1");
    act(g, "place:Farmer:slot2"); /* to an empty open slot */
    assert_string_equal(kind(g), "action");
    assert_string_equal(xb_type(g, g->p[0].squad.c[1])->name, "Recruit");
    assert_int_equal(g->p[0].slot[0].n, 1);
    assert_int_equal(g->p[0].slot[1].n, 1);
    done(g);
}

/* The rulebook allows any order: reversing a squad of 10 soldiers (more
 * moves than a cap of 8 would allow) and moving a lower civilian to a free slot in
 * one action. */
static void reorganize_reaches_any_order(void **st)
{
    (void)st;
    static const char *const names[] = {
        "Recruit",       "Slinger",    "Spearman",     "Scout",        "Jaguar Warrior",
        "Eagle Warrior", "Gunslinger", "Flame Maiden", "Shieldbearer", "Bomber"};
    xb_game *g = mk(2);
    g->p[0].level = 2;
    for (int i = 0; i < 10; i++)
        give_squad(g, 0, names[i]);
    give_slot(g, 0, 0, "Farmer");
    give_slot(g, 0, 0, "Trader");
    give_slot(g, 0, 1, "Palisade");
    to_action(g, 0, "res1");
    g->p[0].res = 10;
    act(g, "reorganize");
    char buf[64];
    for (int i = 0; i < 10; i++) { /* bottom up: the old top first */
        snprintf(buf, sizeof buf, "place:%s:squad", names[9 - i]);
        act(g, buf);
    }
    act(g, "place:Palisade:slot2");
    act(g, "place:Trader:slot1");
    act(g, "place:Farmer:slot3");
    assert_string_equal(kind(g), "action");
    for (int i = 0; i < 10; i++)
        assert_string_equal(xb_type(g, g->p[0].squad.c[i])->name, names[9 - i]);
    assert_string_equal(xb_type(g, g->p[0].slot[2].c[0])->name, "Farmer");
    done(g);
}

/* A placement that would leave a lifted card nowhere to go is not offered:
 * with two open slots, a civilian and a building, neither may share... and
 * the civilian may not take the second slot while the building waits. */
static void reorganize_never_strands_a_card(void **st)
{
    (void)st;
    xb_game *g = mk(2);
    g->p[0].level = 1;
    give_squad(g, 0, "Recruit");
    give_squad(g, 0, "Scout");
    give_slot(g, 0, 0, "Farmer");
    give_slot(g, 0, 0, "Trader");
    give_slot(g, 0, 1, "Palisade");
    to_action(g, 0, "res1");
    g->p[0].res = 10;
    act(g, "reorganize");
    act(g, "place:Farmer:slot2");
    assert_false(has(g, "place:Trader:slot1")); /* Palisade would have no slot */
    assert_false(has(g, "place:Palisade:slot2"));
    act(g, "place:Trader:slot2");
    act(g, "place:Palisade:slot1");
    act(g, "place:Recruit:squad");
    act(g, "place:Scout:squad");
    assert_string_equal(kind(g), "action");
    done(g);
}

static void medicine_heals_two_capped(void **st)
{
    (void)st;
    xb_game *g = mk(2);
    put_ark(g, 0, "Recruit", 9);
    to_action(g, 0, "res1");
    g->p[0].res = 10;
    act(g, "medicine");
    assert_int_equal(g->ark_life, 10);
    assert_false(has(g, "medicine"));
    done(g);
}

static void weapon_technology(void **st)
{
    (void)st;
    xb_game *g = mk(2);
    to_action(g, 0, "atk,res1");
    g->p[0].res = 10;
    int cost = xb_factions[g->p[0].faction].weapon_tech;
    act(g, "weapon_tech");
    assert_int_equal(g->act[0].face, XF_CRIT);
    assert_int_equal(g->p[0].res, 10 - cost);
    assert_false(has(g, "weapon_tech"));
    done(g);
}

static void tactical_attack_and_harvest(void **st)
{
    (void)st;
    xb_game *g = mk(2);
    to_action(g, 0, "res1");
    g->p[0].res = 20;
    const xb_faction *f = &xb_factions[g->p[0].faction];
    act(g, "tactical_attack");
    assert_int_equal(g->n_act, 2);
    assert_int_equal(g->act[1].kind, XB_DIE_ATK);
    act(g, "harvest");
    assert_int_equal(g->n_act, 3);
    assert_int_equal(g->act[2].kind, XB_DIE_PAR);
    assert_int_equal(g->p[0].res, 20 - f->tactical - f->harvest);
    done(g);
}

/* "niemals mehr als 4 ... Würfel desselben Typs": tactical attacks, a Forge
 * and Call to Arms stop at 4 attack dice taken this turn; spent dice are set
 * aside for the rest of the turn, so they still count. */
static void never_more_than_4_dice_of_a_type(void **st)
{
    (void)st;
    xb_game *g = mk(2);
    to_action(g, 0, "atk,atk,res1");
    g->p[0].res = 25;
    act(g, "tactical_attack");
    act(g, "tactical_attack");
    assert_int_equal(g->dice_used[XB_DIE_ATK], 4);
    assert_false(has(g, "tactical_attack"));
    give_slot(g, 0, 0, "Forge"); /* a Forge is not usable at the cap either */
    assert_false(has(g, "use:slot1:Forge"));
    /* spending a die does not return it this turn */
    give_squad(g, 0, "Recruit");
    g->ark_life = 10;
    act(g, "attack:ark");
    int first = 0;
    assert_true(VT.apply(&g->base, &first, 1));
    assert_int_equal(g->n_act, 4);
    assert_false(has(g, "tactical_attack"));
    /* Call to Arms rolls only up to the cap */
    to_action(g, 0, "atk,atk,atk,res1");
    g->p[0].res = 25;
    set_market(g, XB_EVENT, 0, "Call to Arms");
    act(g, "buy:event:0:Call to Arms");
    assert_int_equal(g->dice_used[XB_DIE_ATK], 4);
    assert_int_equal(g->n_act, 5);
    /* a new turn starts with the full box */
    act(g, "end");
    assert_int_equal(g->dice_used[XB_DIE_ATK], 0);
    done(g);
}

/* The box holds 2 paragon dice: Harvest and the paragon-die DICE effect
 * never take a third in one turn. */
static void harvest_limited_to_box_paragon_dice(void **st)
{
    (void)st;
    xb_game *g = mk(2);
    to_action(g, 0, "par1,res1");
    g->p[0].res = 25;
    act(g, "harvest");
    assert_int_equal(g->dice_used[XB_DIE_PAR], 2);
    assert_false(has(g, "harvest"));
    act(g, "paragon:0:par1"); /* spent: still out of the box */
    assert_false(has(g, "harvest"));
    done(g);
    /* a Shaman (one paragon die in the pool) plus a Warlord (one more): the
     * box's two; then Harvest is gone for the turn */
    g = mk(2);
    give_slot(g, 0, 0, "Shaman");
    give_squad(g, 0, "Warlord");
    g->cur = 0;
    g->step = XS_POOL;
    g->n_roll = g->n_act = 0;
    memset(g->dice_used, 0, sizeof g->dice_used);
    act(g, "pool:res4:atk2");
    while (strcmp(kind(g), "dice_effect_order") == 0)
        act(g, "effect:");
    assert_int_equal(g->dice_used[XB_DIE_PAR], 2);
    int pars = 0;
    for (int i = 0; i < g->n_roll; i++)
        pars += g->roll[i].kind == XB_DIE_PAR;
    for (int i = 0; i < g->n_act; i++)
        pars += g->act[i].kind == XB_DIE_PAR;
    assert_int_equal(pars, 2);
    done(g);
}

static void base_upgrade_once_per_round(void **st)
{
    (void)st;
    xb_game *g = mk(2);
    to_action(g, 0, "res1");
    g->p[0].res = 25;
    int cost = xb_upgrade_cost(g, 0);
    assert_true(cost >= 3 && cost <= 4);
    act(g, "upgrade:2");
    assert_int_equal(g->p[0].level, 1);
    assert_int_equal(g->p[0].res, 25 - cost);
    assert_false(has(g, "upgrade")); /* at most one level per round */
    assert_true(xb_slot_accepts(g, 0, 1, g->market[XB_CIVILIAN][0])); /* slot 2 unlocked */
    g->p[0].upgraded = false;
    int c3 = xb_upgrade_cost(g, 0);
    assert_true(c3 >= 5 && c3 <= 6);
    done(g);
}

static void faction_costs_within_rulebook_ranges(void **st)
{
    (void)st;
    for (int i = 0; i < XB_FACTIONS; i++) {
        const xb_faction *f = &xb_factions[i];
        assert_in_range(f->upgrade_cost[1], 3, 4);
        assert_in_range(f->upgrade_cost[2], 5, 6);
        assert_in_range(f->upgrade_cost[3], 7, 8);
        assert_int_equal(f->discard, 1);
        for (int l = 1; l < XB_LEVELS; l++) {
            assert_true(f->resistance[l] >= f->resistance[l - 1]);
            assert_true(f->productivity[l] >= f->productivity[l - 1]);
        }
    }
}

static void deck_reshuffle_when_empty(void **st)
{
    (void)st;
    xb_game *g = mk(2);
    xb_stack *d = &g->deck[XB_EVENT], *x = &g->discard[XB_EVENT];
    while (d->n > 0)
        x->c[x->n++] = d->c[--d->n];
    int before = x->n;
    to_action(g, 0, "res1");
    g->p[0].res = 5;
    act(g, "discard:market:event:0");
    assert_int_equal(g->deck[XB_EVENT].n, before + 1 - 1); /* reshuffled, then one drawn */
    assert_int_equal(g->discard[XB_EVENT].n, 0);
    done(g);
}

static void immediate_win_at_target(void **st)
{
    (void)st;
    xb_game *g = mk(4);
    to_action(g, 2, "par1,res1,res1");
    g->p[2].par = g->target - 1;
    act(g, "paragon:0");
    assert_string_equal(kind(g), "over");
    arena_result r;
    VT.result(&g->base, &r);
    assert_true(r.over);
    assert_int_equal(r.ranks[2], 1);
    for (int s = 0; s < 4; s++)
        if (s != 2) assert_true(r.ranks[s] > 1);
    done(g);
}

static void turn_limit_ranks_by_paragon_with_ties(void **st)
{
    (void)st;
    arena_setting set[] = {{"max_rounds", "1"}};
    xb_game *g = mk_set(3, set, 1, 1);
    /* give nobody a way to gain paragon; end every turn */
    while (strcmp(kind(g), "over") != 0) {
        g->ark_owner = -1;
        to_action(g, g->cur, "res1");
        act(g, "end");
    }
    assert_true(g->limit_reached);
    assert_int_equal(g->turns, 3);
    g->p[0].par = 3;
    g->p[1].par = 3;
    g->p[2].par = 1;
    arena_result r;
    VT.result(&g->base, &r);
    assert_int_equal(r.ranks[0], 1);
    assert_int_equal(r.ranks[1], 1);
    assert_int_equal(r.ranks[2], 3);
    done(g);
}

static void upgrade_card_action_effects(void **st)
{
    (void)st;
    xb_game *g = mk(2);
    g->p[0].level = 1;
    give_slot(g, 0, 0, "Market");
    give_slot(g, 0, 1, "Relic Dealer");
    to_action(g, 0, "blank,res1");
    g->p[0].res = 3;
    act(g, "use:slot1:Market"); /* spend the blank die: +2 */
    assert_int_equal(g->p[0].res, 5);
    assert_false(has(g, "use:slot1"));
    act(g, "use:slot2:Relic Dealer"); /* pay 3: +1 paragon */
    assert_int_equal(g->p[0].res, 2);
    assert_int_equal(g->p[0].par, 1);
    done(g);
}

static void only_top_cards_are_active(void **st)
{
    (void)st;
    xb_game *g = mk(2);
    give_slot(g, 0, 0, "Palisade");
    int base = xb_base_resistance(g, 0);
    give_slot(g, 0, 0, "Workshop"); /* covers the Palisade */
    assert_int_equal(xb_base_resistance(g, 0), base - 1);
    done(g);
}

static void soldier_action_effects_on_attack(void **st)
{
    (void)st;
    xb_game *g = mk(4);
    put_ark(g, 1, "Sentinel", 20);
    give_squad(g, 0, "Jaguar Warrior"); /* strength 3, attacks +1 */
    to_action(g, 0, "atk,atk,res1");
    act(g, "attack:ark");
    int two[2] = {0, 1};
    assert_true(VT.apply(&g->base, two, 2));
    assert_int_equal(g->ark_life, 20 - (3 + 3 + 1));
    done(g);
    g = mk(4);
    put_ark(g, 1, "Sentinel", 20);
    give_squad(g, 0, "Slinger"); /* +1 resource per attack */
    g->p[0].res = 0;
    to_action(g, 0, "atk,atk,res1");
    act(g, "attack:ark");
    act(g, "die:0");
    act(g, "attack:ark");
    act(g, "die:0");
    assert_int_equal(g->p[0].res, 2);
    assert_int_equal(g->ark_life, 20 - 4);
    done(g);
}

static void events_tribute_reinforce_arms_omen(void **st)
{
    (void)st;
    xb_game *g = mk(4);
    put_ark(g, 0, "Recruit", 5);
    set_market(g, XB_EVENT, 0, "Tribute");
    set_market(g, XB_EVENT, 1, "Reinforcements");
    to_action(g, 0, "res1");
    g->p[0].res = 10;
    g->p[1].res = 0;
    g->p[2].res = 3;
    g->p[3].res = 1;
    act(g, "buy:event:0:Tribute"); /* -3, +1 from seats 2 and 3 */
    assert_int_equal(g->p[0].res, 9);
    assert_int_equal(g->p[2].res, 2);
    assert_int_equal(g->p[3].res, 0);
    act(g, "buy:event:1:Reinforcements");
    assert_int_equal(g->ark_life, 8);
    set_market(g, XB_EVENT, 0, "Call to Arms");
    int before = g->n_act;
    act(g, "buy:event:0:Call to Arms");
    assert_int_equal(g->n_act, before + 2);
    assert_int_equal(g->act[g->n_act - 1].kind, XB_DIE_ATK);
    done(g);
    long total = 0;
    for (uint64_t seed = 1; seed < 30; seed++) {
        g = mk_set(4, NULL, 0, seed);
        set_market(g, XB_EVENT, 0, "Omen");
        to_action(g, 0, "res1");
        g->p[0].res = 10;
        g->p[0].par = 0;
        act(g, "buy:event:0:Omen");
        assert_in_range(g->p[0].par, 0, 4); /* two paragon dice */
        total += g->p[0].par;
        done(g);
    }
    assert_true(total > 0);
}

static void effect_cards_smuggle_heal_paragon_die(void **st)
{
    (void)st;
    xb_game *g = mk(3);
    g->p[1].level = 1;
    give_slot(g, 1, 0, "Smuggler");
    give_squad(g, 1, "Veteran"); /* EFFECT: own Ark soldier +1 life */
    put_ark(g, 1, "Recruit", 3);
    g->p[1].res = 0;
    g->p[1].par = 2;
    int prod = xb_factions[g->p[1].faction].productivity[1];
    /* begin seat 1's turn without the Ark owner changing */
    g->cur = 0;
    to_action(g, 0, "");
    act(g, "end"); /* seat 1 collects Ark income here: roll of 1 die */
    int par_after_income = g->p[1].par;
    assert_string_equal(kind(g), "effect_order");
    act(g, "effect:squad:Veteran");
    assert_int_equal(g->ark_life, 4);
    assert_int_equal(g->p[1].res, prod + 3);
    assert_int_equal(g->p[1].par, par_after_income - 1);
    done(g);
    g = mk(2);
    give_slot(g, 0, 0, "Shaman"); /* DICE: +1 paragon die in the pool */
    begin_turn_of(g, 0);
    act(g, "pool:res3:atk3");
    assert_int_equal(g->n_roll + g->n_act, 7);
    int par = 0;
    for (int i = 0; i < g->n_roll; i++)
        par += g->roll[i].kind == XB_DIE_PAR;
    for (int i = 0; i < g->n_act; i++)
        par += g->act[i].kind == XB_DIE_PAR;
    assert_int_equal(par, 1);
    done(g);
}

static void permanent_prod_discount_rerolls(void **st)
{
    (void)st;
    xb_game *g = mk(2);
    g->p[0].level = 2;
    int prod = xb_productivity(g, 0);
    int cost = xb_upgrade_cost(g, 0);
    give_slot(g, 0, 0, "Workshop");
    give_slot(g, 0, 1, "Engineer");
    give_slot(g, 0, 2, "Tactician");
    assert_int_equal(xb_productivity(g, 0), prod + 1);
    assert_int_equal(xb_upgrade_cost(g, 0), cost - 1);
    begin_turn_of(g, 0);
    act(g, "pool:res3:atk3");
    assert_int_equal(g->rerolls_left, 3);
    done(g);
}

static void rerolls_capped_at_four(void **st)
{
    (void)st;
    xb_game *g = mk(2);
    g->p[0].level = 3;
    give_slot(g, 0, 0, "Observatory");
    give_slot(g, 0, 1, "Seer");
    give_slot(g, 0, 2, "Tactician");
    give_slot(g, 0, 3, "Observatory");
    begin_turn_of(g, 0);
    act(g, "pool:res3:atk3");
    while (strcmp(kind(g), "dice_effect_order") == 0)
        act(g, "effect:");
    assert_int_equal(g->rerolls_left, XB_MAX_REROLLS);
    done(g);
}

static void events_are_public(void **st)
{
    (void)st;
    xb_game *g = mk(3);
    arena_rng r;
    arena_rng_seed(&r, 5);
    int choice[XB_OPT_MAX];
    for (int k = 0; k < 400; k++) {
        arena_decision d;
        if (!VT.decision(&g->base, &d)) break;
        int n = arena_random_choice(&r, &d, choice);
        assert_true(VT.apply(&g->base, choice, n));
    }
    assert_true(VT.event_count(&g->base) > 10);
    for (size_t i = 0; i < VT.event_count(&g->base); i++) {
        const av *e = VT.event(&g->base, i, -1);
        assert_non_null(av_get_str(e, "type"));
        for (int s = 0; s < 3; s++)
            assert_true(av_equal(VT.event(&g->base, i, s), e));
        char *j = av_to_json(e);
        assert_null(strstr(j, "deck_order"));
        free(j);
    }
    done(g);
}

static void turn_action_safety_cap(void **st)
{
    (void)st;
    xb_game *g = mk(2);
    to_action(g, 0, "res1,res1,res1");
    g->turn_actions = XB_TURN_ACTION_CAP - 1;
    act(g, "collect:0");
    assert_int_equal(g->cur, 1); /* the turn ended although dice were left */
    done(g);
}

/* ------------------------------------------------- settings, files, views */

static void settings_errors_are_one_line(void **st)
{
    (void)st;
    char err[256];
    arena_setting bad_mode[] = {{"mode", "doom"}};
    assert_null(VT.create(bad_mode, 1, 1, 2, 0, err, sizeof err));
    assert_non_null(strstr(err, "mode"));
    arena_setting bad_key[] = {{"colour", "red"}};
    assert_null(VT.create(bad_key, 1, 1, 2, 0, err, sizeof err));
    assert_null(VT.create(NULL, 0, 1, 5, 0, err, sizeof err));
    arena_setting bad_target[] = {{"target", "41"}};
    assert_null(VT.create(bad_target, 1, 1, 2, 0, err, sizeof err));

    char path[] = "/tmp/xb-cards-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fprintf(
        f, "# test\nsoldier name=A cost=2 phase=permanent effect=guard str=1 res=2 par=1 copies=4\n"
           "civilian name=\"B b\" cost=x phase=effect effect=gain_res arg=1\n");
    fclose(f);
    arena_setting cards[] = {{"cards", path}};
    assert_null(VT.create(cards, 1, 1, 2, 0, err, sizeof err));
    char want[300];
    snprintf(want, sizeof want, "%s:3: field 'cost'", path);
    assert_non_null(strstr(err, want));
    assert_null(strchr(err, '\n'));
    f = fopen(path, "w");
    fprintf(f, "soldier name=A cost=2 phase=permanent effect=guard str=1 res=2 par=1 copies=4\n"
               "building name=C cost=2 phase=dice effect=reroll arg=1 speed=3\n");
    fclose(f);
    assert_null(VT.create(cards, 1, 1, 2, 0, err, sizeof err));
    snprintf(want, sizeof want, "%s:2: field 'speed'", path);
    assert_non_null(strstr(err, want));
    unlink(path);
    arena_setting missing[] = {{"cards", "/nonexistent/cards.txt"}};
    assert_null(VT.create(missing, 1, 1, 2, 0, err, sizeof err));
    assert_non_null(strstr(err, "/nonexistent/cards.txt"));
}

static void card_file_default_matches_builtin(void **st)
{
    (void)st;
    xb_cardset a, b;
    char err[256];
    assert_true(xb_cardset_build(&a, xb_default_cards, xb_default_card_types, err, sizeof err));
    if (!xb_cardset_load(&b, XB_SOURCE_DIR "/cards-default.txt", err, sizeof err))
        fail_msg("%s", err);
    assert_int_equal(a.n_cards, 176);
    assert_int_equal(a.fam_count[XB_SOLDIER], 64);
    assert_int_equal(a.fam_count[XB_CIVILIAN], 48);
    assert_int_equal(a.fam_count[XB_BUILDING], 32);
    assert_int_equal(a.fam_count[XB_EVENT], 32);
    assert_int_equal(a.n_types, b.n_types);
    assert_memory_equal(&a, &b, sizeof a);
    /* and a game runs with it */
    arena_setting set[] = {{"cards", XB_SOURCE_DIR "/cards-default.txt"}};
    xb_game *g = mk_set(2, set, 1, 9);
    av *s = VT.settings(&g->base);
    /* Sent to the bots: the file's name, not where the organiser keeps it. */
    assert_string_equal(av_get_str(s, "cards"), "cards-default.txt");
    assert_int_equal(av_len(av_get(s, "card_types")), 44);
    av_free(s);
    done(g);
}

/* Everything at the table is face up ("offen"); only deck order is hidden:
 * every seat sees every seat's full stacks, top first. */
static void view_shows_every_seats_full_stacks(void **st)
{
    (void)st;
    xb_game *g = mk(3);
    give_squad(g, 1, "Recruit");
    give_squad(g, 1, "Scout");
    give_slot(g, 2, 0, "Farmer");
    give_slot(g, 2, 0, "Trader");
    av *v0 = game_view(&g->base, 0), *vo = game_view(&g->base, -1);
    const av *d0 = av_get(av_get(av_get(v0, "decks"), "soldier"), "deck_order");
    assert_null(d0);
    assert_non_null(av_get(av_get(av_get(vo, "decks"), "soldier"), "deck_order"));
    const av *pl = av_get(v0, "players");
    const av *squad = av_get(av_get(pl->u.list.items[1], "squad"), "cards");
    assert_int_equal(av_len(squad), 2);
    assert_string_equal(squad->u.list.items[0]->u.str.s, "Scout");
    assert_string_equal(squad->u.list.items[1]->u.str.s, "Recruit");
    const av *slot = av_get(av_get(pl->u.list.items[2], "slots")->u.list.items[0], "cards");
    assert_int_equal(av_len(slot), 2);
    assert_string_equal(slot->u.list.items[1]->u.str.s, "Farmer");
    /* the view of another seat's stacks is the omniscient one */
    char *a = av_to_json(av_get(v0, "players")), *b = av_to_json(av_get(vo, "players"));
    assert_string_equal(a, b);
    free(a), free(b);
    char *j = av_to_json(v0);
    assert_null(strstr(j, "\"deck_order\""));
    free(j);
    av_free(v0), av_free(vo);
    done(g);
}

static void labels_distinct_every_decision(void **st)
{
    (void)st;
    xb_game *g = mk(4);
    arena_rng r;
    arena_rng_seed(&r, 11);
    int choice[XB_OPT_MAX];
    for (int k = 0; k < 3000; k++) {
        arena_decision d;
        if (!VT.decision(&g->base, &d)) break;
        char a[128], b[128];
        for (int i = 0; i < d.n_options; i++) {
            VT.label(&g->base, i, a, sizeof a);
            for (int j = i + 1; j < d.n_options; j++) {
                VT.label(&g->base, j, b, sizeof b);
                if (strcmp(a, b) == 0) fail_msg("duplicate label %s at %s", a, d.kind);
            }
        }
        int n = arena_random_choice(&r, &d, choice);
        assert_true(VT.apply(&g->base, choice, n));
    }
    done(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(setup_ark_soldier_life),
        cmocka_unit_test(setup_two_face_up_cards_per_deck),
        cmocka_unit_test(setup_factions_resources_paragon),
        cmocka_unit_test(setup_target_option_defaults),
        cmocka_unit_test(setup_start_player_paragon_roll),
        cmocka_unit_test(effect_phase_productivity),
        cmocka_unit_test(effect_order_decision_all_mandatory),
        cmocka_unit_test(dice_pool_choices),
        cmocka_unit_test(dice_effects_mandatory),
        cmocka_unit_test(roll_keep_and_two_rerolls),
        cmocka_unit_test(dice_phase_ends_when_all_kept),
        cmocka_unit_test(collect_resources_cap_25),
        cmocka_unit_test(paragon_die_gain_and_cap_40),
        cmocka_unit_test(example_attack_strength_6_of_8_life),
        cmocka_unit_test(critical_adds_one),
        cmocka_unit_test(example_ark_takeover),
        cmocka_unit_test(enter_empty_ark),
        cmocka_unit_test(attack_needs_a_soldier),
        cmocka_unit_test(example_critical_vs_base_with_block),
        cmocka_unit_test(block_survivor_still_blocks),
        cmocka_unit_test(no_block_lets_the_attack_through),
        cmocka_unit_test(base_attack_below_resistance_fails),
        cmocka_unit_test(destroy_choice_and_steal_capped),
        cmocka_unit_test(hit_destroy_is_optional_attacker_decides),
        cmocka_unit_test(guard_reduces_steal),
        cmocka_unit_test(ark_income_every_turn_end),
        cmocka_unit_test(apocalypse_ark_bonus),
        cmocka_unit_test(apocalypse_bonus_on_taking_the_ark),
        cmocka_unit_test(apocalypse_market),
        cmocka_unit_test(buy_soldier_goes_on_top_of_squad),
        cmocka_unit_test(buy_placement_never_mixes_civilians_and_buildings),
        cmocka_unit_test(buy_event_resolves_at_once),
        cmocka_unit_test(event_sabotage_barrage_raid),
        cmocka_unit_test(discard_market_card),
        cmocka_unit_test(discard_own_top_card),
        cmocka_unit_test(market_refills_from_a_new_discard),
        cmocka_unit_test(reorganize_stacks),
        cmocka_unit_test(reorganize_reaches_any_order),
        cmocka_unit_test(reorganize_never_strands_a_card),
        cmocka_unit_test(medicine_heals_two_capped),
        cmocka_unit_test(weapon_technology),
        cmocka_unit_test(tactical_attack_and_harvest),
        cmocka_unit_test(never_more_than_4_dice_of_a_type),
        cmocka_unit_test(harvest_limited_to_box_paragon_dice),
        cmocka_unit_test(base_upgrade_once_per_round),
        cmocka_unit_test(faction_costs_within_rulebook_ranges),
        cmocka_unit_test(deck_reshuffle_when_empty),
        cmocka_unit_test(immediate_win_at_target),
        cmocka_unit_test(turn_limit_ranks_by_paragon_with_ties),
        cmocka_unit_test(upgrade_card_action_effects),
        cmocka_unit_test(only_top_cards_are_active),
        cmocka_unit_test(soldier_action_effects_on_attack),
        cmocka_unit_test(events_tribute_reinforce_arms_omen),
        cmocka_unit_test(effect_cards_smuggle_heal_paragon_die),
        cmocka_unit_test(permanent_prod_discount_rerolls),
        cmocka_unit_test(rerolls_capped_at_four),
        cmocka_unit_test(events_are_public),
        cmocka_unit_test(turn_action_safety_cap),
        cmocka_unit_test(settings_errors_are_one_line),
        cmocka_unit_test(card_file_default_matches_builtin),
        cmocka_unit_test(view_shows_every_seats_full_stacks),
        cmocka_unit_test(labels_distinct_every_decision),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
