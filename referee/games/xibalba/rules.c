/* Xibalba rules engine: setup, turn flow (EFFECT -> DICE -> ACTION),
 * actions, attacks, the Ark, the market and the win check. Options are
 * listed in options.c, presentation is in present.c, the vtable in
 * xibalba.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "xb_internal.h"

/* ---------------------------------------------------------------- helpers */

static xb_player *P(xb_game *g, int s)
{
    return &g->p[s];
}
static const xb_faction *fac(const xb_game *g, int s)
{
    return &xb_factions[g->p[s].faction];
}

int xb_ark_max(const xb_game *g)
{
    return g->apocalypse || g->players == 2 ? 10 : 20;
}

int xb_default_target(int players, bool apocalypse)
{
    return xb_default_targets[apocalypse][players - 2];
}

/* Sum of a PERMANENT effect over the active (top) upgrade cards of a base. */
int xb_perm(const xb_game *g, int seat, int effect)
{
    int sum = 0;
    for (int k = 0; k < XB_SLOTS; k++) {
        const xb_stack *st = &g->p[seat].slot[k];
        if (st->n == 0) continue;
        const xb_card_type *t = xb_type(g, st->c[st->n - 1]);
        if (t->phase == XB_PH_PERMANENT && t->effect == effect) sum += t->arg;
    }
    return sum;
}

int xb_base_resistance(const xb_game *g, int seat)
{
    return fac(g, seat)->resistance[g->p[seat].level] + xb_perm(g, seat, XE_BASE_RES);
}

int xb_productivity(const xb_game *g, int seat)
{
    return fac(g, seat)->productivity[g->p[seat].level] + xb_perm(g, seat, XE_PROD);
}

int xb_upgrade_cost(const xb_game *g, int seat)
{
    int lv = g->p[seat].level;
    if (lv >= XB_LEVELS - 1) return -1;
    int c = fac(g, seat)->upgrade_cost[lv + 1] - xb_perm(g, seat, XE_UPGRADE_DISCOUNT);
    return c < 1 ? 1 : c;
}

int xb_pool_size(const xb_game *g, int seat)
{
    int n = 6 + xb_perm(g, seat, XE_POOL);
    return n > XB_MAX_POOL ? XB_MAX_POOL : n;
}

/* The card at an active location of seat, or -1. */
int xb_card_at(const xb_game *g, int seat, int loc)
{
    if (loc == XB_LOC_SQUAD) {
        const xb_stack *s = &g->p[seat].squad;
        return s->n ? s->c[s->n - 1] : -1;
    }
    if (loc == XB_LOC_ARK) return g->ark_owner == seat ? g->ark_card : -1;
    const xb_stack *s = &g->p[seat].slot[loc - XB_LOC_SLOT0];
    return s->n ? s->c[s->n - 1] : -1;
}

static void push(xb_stack *s, int card)
{
    s->c[s->n++] = (int16_t)card;
}
static int pop(xb_stack *s)
{
    return s->c[--s->n];
}

/* Resources or paragon a face yields (0 for attack faces and blanks). */
int xb_face_value(int face)
{
    switch (face) {
    case XF_RES1:
    case XF_PAR1: return 1;
    case XF_RES2:
    case XF_PAR2: return 2;
    case XF_RES3: return 3;
    default: return 0;
    }
}

static int roll_face(xb_game *g, int kind)
{
    return xb_die_faces[kind][game_rng_below(&g->rng, 6)];
}

static int roll_paragon(xb_game *g, int n)
{
    int sum = 0;
    for (int i = 0; i < n; i++)
        sum += xb_face_value(roll_face(g, XB_DIE_PAR));
    return sum;
}

static void gain_res(xb_game *g, int s, int n)
{
    int r = P(g, s)->res + n;
    P(g, s)->res = r > XB_RES_CAP ? XB_RES_CAP : r < 0 ? 0 : r;
}

/* Paragon changes go through here: the cap and the immediate win. */
static void gain_par(xb_game *g, int s, int n, const char *why)
{
    xb_player *p = P(g, s);
    int before = p->par;
    int v = p->par + n;
    p->par = v > XB_PAR_CAP ? XB_PAR_CAP : v < 0 ? 0 : v;
    xb_ev_paragon(g, s, p->par - before, why);
    if (g->winner < 0 && p->par >= g->target) {
        g->winner = s;
        g->step = XS_OVER;
        xb_ev_over(g, "target");
    }
}

static bool over(const xb_game *g)
{
    return g->step == XS_OVER;
}

/* Shuffles a stack with the game's rng (Fisher-Yates). */
void xb_shuffle(xb_game *g, xb_stack *d)
{
    for (int i = d->n - 1; i > 0; i--) {
        int j = (int)game_rng_below(&g->rng, (uint32_t)i + 1);
        int16_t t = d->c[i];
        d->c[i] = d->c[j];
        d->c[j] = t;
    }
}

/* Draws the top card of a deck, reshuffling its discard pile when empty. */
static int draw(xb_game *g, int fam)
{
    xb_stack *d = &g->deck[fam], *x = &g->discard[fam];
    if (d->n == 0) {
        if (x->n == 0) return -1;
        *d = *x;
        x->n = 0;
        xb_shuffle(g, d);
        xb_ev_reshuffle(g, fam);
    }
    return pop(d);
}

static void refill(xb_game *g)
{
    for (int f = 0; f < XB_FAMILIES; f++)
        for (int k = 0; k < g->market_slots; k++)
            if (g->market[f][k] < 0) {
                g->market[f][k] = (int16_t)draw(g, f);
                if (g->market[f][k] >= 0) xb_ev_reveal(g, f, k);
            }
}

static void to_discard(xb_game *g, int card)
{
    push(&g->discard[xb_type(g, card)->family], card);
}

static int enter_life(const xb_game *g, int card)
{
    const xb_card_type *t = xb_type(g, card);
    int life = t->res + g->players;
    if (t->phase == XB_PH_PERMANENT && t->effect == XE_ARK_ARMOR) life += t->arg;
    int max = xb_ark_max(g);
    return life > max ? max : life;
}

static void heal_ark(xb_game *g, int s, int n)
{
    if (g->ark_card < 0 || g->ark_owner != s) return;
    int v = g->ark_life + n, max = xb_ark_max(g);
    g->ark_life = v > max ? max : v;
}

/* The active squad soldier of seat moves into the (empty) Ark. */
static void enter_ark(xb_game *g, int s)
{
    g->ark_card = pop(&P(g, s)->squad);
    g->ark_owner = s;
    g->ark_life = enter_life(g, g->ark_card);
    xb_ev_enter(g, s);
}

/* Whether one more die of kind may be taken from the box this turn: never
 * more than 4 of a type, and the box holds only 2 paragon dice. Spent dice
 * are set aside for the rest of the turn ("zur Seite gelegt"), so they
 * count until the turn ends. */
bool xb_can_add_die(const xb_game *g, int kind)
{
    int cap = kind == XB_DIE_PAR ? XB_PAR_DICE : XB_TYPE_DICE;
    return g->n_act < XB_POOL_MAX && g->dice_used[kind] < cap;
}

static void add_act_die(xb_game *g, int kind)
{
    if (!xb_can_add_die(g, kind)) return;
    g->dice_used[kind]++;
    g->act[g->n_act].kind = (uint8_t)kind;
    g->act[g->n_act].face = (uint8_t)roll_face(g, kind);
    xb_ev_extra_die(g, g->act[g->n_act]);
    g->n_act++;
}

static void remove_act_die(xb_game *g, int i)
{
    memmove(&g->act[i], &g->act[i + 1], (size_t)(g->n_act - i - 1) * sizeof g->act[0]);
    g->n_act--;
}

int xb_find_act_face(const xb_game *g, int face)
{
    for (int i = 0; i < g->n_act; i++)
        if (g->act[i].face == face) return i;
    return -1;
}

/* ----------------------------------------------------------- turn flow */

static void start_turn(xb_game *g);
static void back_to_action(xb_game *g);

static void collect_pending(xb_game *g, int phase)
{
    g->n_pending = 0;
    for (int loc = 0; loc < XB_LOC_SLOT0 + XB_SLOTS; loc++) {
        int c = xb_card_at(g, g->cur, loc);
        if (c >= 0 && xb_type(g, c)->phase == phase) g->pending[g->n_pending++] = loc;
    }
}

static void resolve_card_effect(xb_game *g, int loc)
{
    int s = g->cur, c = xb_card_at(g, s, loc);
    const xb_card_type *t = xb_type(g, c);
    xb_ev_card_effect(g, s, loc, c);
    switch (t->effect) {
    case XE_GAIN_RES: gain_res(g, s, t->arg); break;
    case XE_GAIN_PARAGON: gain_par(g, s, t->arg, "card"); break;
    case XE_ROLL_PARAGON: gain_par(g, s, roll_paragon(g, t->arg), "card"); break;
    case XE_HEAL_ARK: heal_ark(g, s, t->arg); break;
    case XE_TITHE:
        if (P(g, s)->res >= 2) {
            gain_res(g, s, -2);
            gain_par(g, s, t->arg, "card");
        }
        break;
    case XE_SMUGGLE:
        gain_res(g, s, t->arg);
        if (P(g, s)->par > 0) gain_par(g, s, -1, "card");
        break;
    case XE_REROLL: g->rerolls_left += t->arg; break;
    case XE_PARAGON_DIE:
        for (int i = 0; i < t->arg && g->dice_used[XB_DIE_PAR] < XB_PAR_DICE; i++) {
            g->roll[g->n_roll++].kind = XB_DIE_PAR;
            g->dice_used[XB_DIE_PAR]++;
        }
        break;
    default: break;
    }
}

static void pending_remove(xb_game *g, int idx)
{
    g->pending[idx] = g->pending[--g->n_pending];
    /* keep locations sorted so options stay in a stable order */
    for (int i = 1; i < g->n_pending; i++)
        for (int j = i; j > 0 && g->pending[j - 1] > g->pending[j]; j--) {
            int t = g->pending[j];
            g->pending[j] = g->pending[j - 1];
            g->pending[j - 1] = t;
        }
}

static void move_all_to_action(xb_game *g)
{
    for (int i = 0; i < g->n_roll; i++)
        g->act[g->n_act++] = g->roll[i];
    g->n_roll = 0;
}

static void roll_pool(xb_game *g)
{
    for (int i = 0; i < g->n_roll; i++)
        g->roll[i].face = (uint8_t)roll_face(g, g->roll[i].kind);
    xb_ev_roll(g);
}

static void first_roll(xb_game *g)
{
    if (g->rerolls_left > XB_MAX_REROLLS) g->rerolls_left = XB_MAX_REROLLS;
    if (g->rerolls_left < 0) g->rerolls_left = 0;
    roll_pool(g);
    if (g->rerolls_left == 0) {
        move_all_to_action(g);
        back_to_action(g);
    } else {
        g->step = XS_KEEP;
    }
}

/* Resolves pending EFFECT/DICE cards while no choice is left, then moves on. */
static void continue_effects(xb_game *g)
{
    while (!over(g) && g->n_pending == 1) {
        int loc = g->pending[0];
        g->n_pending = 0;
        resolve_card_effect(g, loc);
    }
    if (over(g) || g->n_pending > 1) return;
    if (g->step == XS_EFFECT)
        g->step = XS_POOL;
    else
        first_roll(g);
}

/* Apocalypse: every paragon roll of the Ark's controller gains +1 while its
 * soldier has at most 5 life, else +2 (the red Ark side). */
static int ark_bonus(const xb_game *g)
{
    return g->apocalypse ? (g->ark_life <= 5 ? 1 : 2) : 0;
}

static void end_turn(xb_game *g)
{
    xb_ev_simple(g, "end_turn");
    g->n_roll = g->n_act = 0;
    if (g->ark_card >= 0 && g->ark_owner >= 0) {
        int s = g->ark_owner, n = roll_paragon(g, xb_type(g, g->ark_card)->par) + ark_bonus(g);
        gain_par(g, s, n, "ark_income");
        if (over(g)) return;
    }
    g->turns++;
    if (g->turns >= g->max_rounds * g->players) {
        events_turn_moved(&g->base.ev);
        g->limit_reached = true;
        g->step = XS_OVER;
        xb_ev_over(g, "turn_limit");
        return;
    }
    g->cur = (g->cur + 1) % g->players;
    events_turn_moved(&g->base.ev); /* the seat to move set, nothing done */
    start_turn(g);
}

static void start_turn(xb_game *g)
{
    int s = g->cur;
    P(g, s)->upgraded = false;
    g->turn_actions = 0;
    g->n_roll = g->n_act = 0;
    memset(g->dice_used, 0, sizeof g->dice_used);
    xb_ev_turn(g);
    gain_res(g, s, xb_productivity(g, s));
    g->step = XS_EFFECT;
    collect_pending(g, XB_PH_EFFECT);
    continue_effects(g);
}

/* Returns to the action choice, ending the turn when only "end" remains or
 * the per-turn safety cap is hit. */
static void back_to_action(xb_game *g)
{
    if (over(g)) return;
    g->step = XS_ACTION;
    xb_opt o[XB_OPT_SMALL];
    if (g->turn_actions >= XB_TURN_ACTION_CAP || xb_options(g, o) == 1) end_turn(g);
}

/* ----------------------------------------------------------- attacks */

static void steal(xb_game *g, int d)
{
    int n = roll_paragon(g, xb_type(g, g->ark_card)->par) - xb_perm(g, d, XE_GUARD);
    if (n < 0) n = 0;
    if (n > P(g, d)->par) n = P(g, d)->par;
    xb_ev_steal(g, d, n);
    if (n == 0) return;
    P(g, d)->par -= n;
    gain_par(g, g->cur, n, "steal");
}

static void destroy_upgrade(xb_game *g, int s, int k)
{
    int c = pop(&P(g, s)->slot[k]);
    to_discard(g, c);
    xb_ev_destroy(g, s, k, c);
}

/* After a hit or a sabotage: choose the card, then steal. After a hit the
 * attacker "darf" (may) destroy one, so the choice is asked even for a single
 * candidate, with "keep" as an option; Sabotage must destroy, so a single
 * candidate goes at once. */
static void start_destroy(xb_game *g, int only, int steal_from, bool may)
{
    g->destroy_only = only;
    g->destroy_steal = steal_from;
    g->destroy_may = may;
    xb_opt o[XB_MAX_PLAYERS * XB_SLOTS];
    int n = xb_destroy_candidates(g, o);
    if (n > 1 || (n == 1 && may)) {
        g->step = XS_DESTROY;
        return;
    }
    if (n == 1) destroy_upgrade(g, o[0].a, o[0].b);
    if (steal_from >= 0) steal(g, steal_from);
    back_to_action(g);
}

static void resolve_unblocked(xb_game *g, int d, int strength)
{
    int res = xb_base_resistance(g, d);
    bool hit = res <= strength;
    xb_ev_base_attack(g, d, strength, res, hit);
    if (hit)
        start_destroy(g, d, d, true);
    else
        back_to_action(g);
}

static int soldier_blocking_res(const xb_game *g, int card)
{
    const xb_card_type *t = xb_type(g, card);
    return t->res + (t->phase == XB_PH_PERMANENT && t->effect == XE_BLOCK_BONUS ? t->arg : 0);
}

static void do_attack(xb_game *g, const int *dice, int n)
{
    int s = g->cur;
    int soldier = g->atk_target < 0 ? xb_card_at(g, s, XB_LOC_SQUAD) : g->ark_card;
    const xb_card_type *t = xb_type(g, soldier);
    int strength = 0, crits = 0;
    for (int i = 0; i < n; i++) {
        bool crit = g->act[dice[i]].face == XF_CRIT;
        strength += t->str + (crit ? 1 : 0);
        crits += crit;
    }
    if (t->phase == XB_PH_ACTION && t->effect == XE_ATTACK_STR) strength += t->arg;
    /* remove the dice, highest index first */
    int idx[XB_POOL_MAX];
    memcpy(idx, dice, (size_t)n * sizeof *idx);
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && idx[j - 1] < idx[j]; j--) {
            int x = idx[j];
            idx[j] = idx[j - 1];
            idx[j - 1] = x;
        }
    for (int i = 0; i < n; i++)
        remove_act_die(g, idx[i]);
    xb_ev_attack(g, soldier, n, crits, strength);
    if (t->phase == XB_PH_ACTION && t->effect == XE_ATTACK_RES) gain_res(g, s, t->arg);

    if (g->atk_target < 0) {
        g->ark_life -= strength;
        xb_ev_ark_damage(g, strength);
        if (g->ark_life <= 0) {
            int dead = g->ark_card;
            to_discard(g, dead);
            xb_ev_soldier_destroyed(g, dead, g->ark_owner, "ark");
            g->ark_card = -1;
            g->ark_owner = -1;
            g->ark_life = 0;
            enter_ark(g, s);
            /* the roll for taking the Ark is a roll in the Ark: Apocalypse bonus */
            gain_par(g, s, roll_paragon(g, t->par) + ark_bonus(g), "destroy_soldier");
        }
        back_to_action(g);
        return;
    }
    int d = g->atk_target;
    if (P(g, d)->squad.n > 0) {
        g->atk_strength = strength;
        g->step = XS_BLOCK;
        return;
    }
    resolve_unblocked(g, d, strength);
}

static void do_block(xb_game *g, bool block)
{
    int d = g->atk_target, strength = g->atk_strength;
    if (!block) {
        xb_ev_block(g, d, -1, false);
        resolve_unblocked(g, d, strength);
        return;
    }
    int blocker = xb_card_at(g, d, XB_LOC_SQUAD);
    bool dies = soldier_blocking_res(g, blocker) <= strength;
    xb_ev_block(g, d, blocker, dies);
    if (dies) {
        pop(&P(g, d)->squad);
        to_discard(g, blocker);
        xb_ev_soldier_destroyed(g, blocker, d, "block");
        gain_par(g, g->cur, roll_paragon(g, xb_type(g, g->ark_card)->par), "destroy_soldier");
    }
    back_to_action(g);
}

/* ----------------------------------------------------------- buying */

static void place(xb_game *g, int k)
{
    push(&P(g, g->cur)->slot[k], g->place_card);
    xb_ev_place(g, g->place_card, k);
    g->place_card = -1;
    back_to_action(g);
}

static void resolve_event(xb_game *g, int card)
{
    const xb_card_type *t = xb_type(g, card);
    int s = g->cur;
    switch (t->effect) {
    case XE_EV_TRIBUTE:
        for (int o = 0; o < g->players; o++) {
            if (o == s) continue;
            int n = P(g, o)->res < t->arg ? P(g, o)->res : t->arg;
            P(g, o)->res -= n;
            gain_res(g, s, n);
        }
        break;
    case XE_EV_PARAGON: gain_par(g, s, t->arg, "event"); break;
    case XE_EV_OMEN: gain_par(g, s, roll_paragon(g, t->arg), "event"); break;
    case XE_EV_SABOTAGE: start_destroy(g, -1, -1, false); return;
    case XE_EV_RAID:
        for (int o = 0; o < g->players; o++)
            if (o != s) gain_res(g, o, -t->arg);
        break;
    case XE_EV_BARRAGE:
        if (g->ark_card >= 0 && g->ark_owner != s) {
            g->ark_life -= t->arg;
            xb_ev_ark_damage(g, t->arg);
            if (g->ark_life <= 0) {
                to_discard(g, g->ark_card);
                xb_ev_soldier_destroyed(g, g->ark_card, g->ark_owner, "event");
                g->ark_card = g->ark_owner = -1;
                g->ark_life = 0;
            }
        }
        break;
    case XE_EV_REINFORCE: heal_ark(g, s, t->arg); break;
    case XE_EV_ARMS:
        for (int i = 0; i < t->arg; i++)
            add_act_die(g, XB_DIE_ATK);
        break;
    default: break;
    }
    back_to_action(g);
}

static void buy(xb_game *g, int fam, int k)
{
    int s = g->cur, card = g->market[fam][k];
    gain_res(g, s, -xb_market_cost(g, card));
    g->market[fam][k] = -1;
    xb_ev_buy(g, card, fam, k);
    refill(g);
    if (fam == XB_SOLDIER) {
        push(&P(g, s)->squad, card);
        back_to_action(g);
    } else if (fam == XB_EVENT) {
        to_discard(g, card);
        resolve_event(g, card);
    } else {
        g->place_card = card;
        int slots[XB_SLOTS];
        if (xb_place_slots(g, card, slots) == 1)
            place(g, slots[0]);
        else
            g->step = XS_PLACE;
    }
}

static xb_stack *loc_stack(xb_game *g, int s, int loc)
{
    return loc == XB_LOC_SQUAD ? &P(g, s)->squad : &P(g, s)->slot[loc - XB_LOC_SLOT0];
}

/* ----------------------------------------------------------- applying */

static void do_action(xb_game *g, const xb_opt *op)
{
    int s = g->cur;
    xb_player *p = P(g, s);
    const xb_faction *f = fac(g, s);
    g->turn_actions++;
    switch (op->op) {
    case OP_END: end_turn(g); return;
    case OP_COLLECT: {
        int v = xb_face_value(g->act[op->a].face);
        remove_act_die(g, op->a);
        gain_res(g, s, v);
        xb_ev_amount(g, "collect", v);
        break;
    }
    case OP_PARAGON: {
        int v = xb_face_value(g->act[op->a].face);
        remove_act_die(g, op->a);
        gain_par(g, s, v, "dice");
        break;
    }
    case OP_ATTACK_ARK: g->atk_target = -1, g->step = XS_ATTACK_DICE; return;
    case OP_ATTACK_BASE: g->atk_target = op->a, g->step = XS_ATTACK_DICE; return;
    case OP_ENTER: {
        int i = xb_find_act_face(g, XF_ATK);
        remove_act_die(g, i >= 0 ? i : xb_find_act_face(g, XF_CRIT));
        enter_ark(g, s);
        break;
    }
    case OP_BUY: buy(g, op->a, op->b); return;
    case OP_DISCARD_MARKET: {
        int c = g->market[op->a][op->b];
        p->res -= f->discard;
        g->market[op->a][op->b] = -1;
        to_discard(g, c);
        xb_ev_discard(g, "market", c);
        refill(g);
        break;
    }
    case OP_DISCARD_OWN: {
        p->res -= f->discard;
        int c = pop(loc_stack(g, s, op->a));
        to_discard(g, c);
        xb_ev_discard(g, op->a == XB_LOC_SQUAD ? "squad" : "slot", c);
        break;
    }
    case OP_REORG:
        /* lift every own stack; the player rebuilds them card by card, which
         * reaches any order and any legal distribution */
        p->res -= f->reorganize;
        g->n_held = 0;
        for (int loc = XB_LOC_SQUAD; loc < XB_LOC_SLOT0 + XB_SLOTS; loc++) {
            if (loc == XB_LOC_ARK) continue;
            xb_stack *st = loc_stack(g, s, loc);
            for (int i = 0; i < st->n; i++)
                g->held[g->n_held++] = st->c[i];
            st->n = 0;
        }
        g->step = XS_REORG;
        xb_ev_simple(g, "reorganize");
        return;
    case OP_MEDICINE:
        p->res -= f->medicine;
        heal_ark(g, s, 2);
        xb_ev_amount(g, "medicine", 2);
        break;
    case OP_WEAPON:
        p->res -= f->weapon_tech;
        g->act[xb_find_act_face(g, XF_ATK)].face = XF_CRIT;
        xb_ev_simple(g, "weapon_tech");
        break;
    case OP_TACTICAL:
        p->res -= f->tactical;
        add_act_die(g, XB_DIE_ATK);
        break;
    case OP_HARVEST:
        p->res -= f->harvest;
        add_act_die(g, XB_DIE_PAR);
        break;
    case OP_UPGRADE:
        p->res -= xb_upgrade_cost(g, s);
        p->level++;
        p->upgraded = true;
        xb_ev_amount(g, "upgrade", p->level + 1);
        break;
    case OP_USE: {
        int c = p->slot[op->a].c[p->slot[op->a].n - 1];
        const xb_card_type *t = xb_type(g, c);
        xb_ev_card_effect(g, s, XB_LOC_SLOT0 + op->a, c);
        switch (t->effect) {
        case XE_BLANK_RES:
            remove_act_die(g, xb_find_act_face(g, XF_BLANK));
            gain_res(g, s, t->arg);
            break;
        case XE_BUY_PARAGON:
            p->res -= t->arg;
            gain_par(g, s, 1, "card");
            break;
        case XE_FIELD_MEDIC:
            p->res -= 1;
            heal_ark(g, s, t->arg);
            break;
        case XE_FORGE:
            p->res -= t->arg;
            add_act_die(g, XB_DIE_ATK);
            break;
        default: break;
        }
        break;
    }
    default: break;
    }
    back_to_action(g);
}

static bool apply_opts(xb_game *g, xb_opt *o, const int *choice, int n);

/* Reorganize: the first lifted card of type op->a goes on top of own stack
 * op->c. */
static void place_held(xb_game *g, const xb_opt *op)
{
    int i = 0;
    while (g->cs.type_of[g->held[i]] != op->a)
        i++;
    int card = g->held[i];
    memmove(&g->held[i], &g->held[i + 1], (size_t)(g->n_held - i - 1) * sizeof g->held[0]);
    g->n_held--;
    push(loc_stack(g, g->cur, op->c), card);
    xb_ev_move(g, op->c, card);
    if (g->n_held == 0) back_to_action(g);
}

bool xb_apply(xb_game *g, const int *choice, int n)
{
    xb_opt small[XB_OPT_SMALL];
    xb_opt *o = xb_opts_room(g, small);
    bool r = apply_opts(g, o, choice, n);
    xb_opts_done(o, small);
    /* The market always shows two of each family: a card discarded to an
     * empty family's pile fills its empty slot now, not at the next buy. */
    if (r && !over(g)) refill(g);
    return r;
}

static bool apply_opts(xb_game *g, xb_opt *o, const int *choice, int n)
{
    int no = xb_options(g, o);
    if (g->step == XS_OVER) return false;
    for (int i = 0; i < n; i++)
        if (choice[i] < 0 || choice[i] >= no) return false;
    switch (g->step) {
    case XS_EFFECT:
    case XS_DICE_EFFECT: {
        if (n != 1) return false;
        int loc = o[choice[0]].a;
        for (int i = 0; i < g->n_pending; i++)
            if (g->pending[i] == loc) pending_remove(g, i);
        resolve_card_effect(g, loc);
        continue_effects(g);
        return true;
    }
    case XS_POOL: {
        if (n != 1) return false;
        int r = o[choice[0]].a, a = o[choice[0]].b;
        g->n_roll = 0;
        for (int i = 0; i < r; i++)
            g->roll[g->n_roll++].kind = XB_DIE_RES;
        for (int i = 0; i < a; i++)
            g->roll[g->n_roll++].kind = XB_DIE_ATK;
        g->dice_used[XB_DIE_RES] = (uint8_t)r;
        g->dice_used[XB_DIE_ATK] = (uint8_t)a;
        xb_ev_pool(g, r, a);
        g->rerolls_left = 2 + xb_perm(g, g->cur, XE_REROLL_PERM);
        g->step = XS_DICE_EFFECT;
        collect_pending(g, XB_PH_DICE);
        continue_effects(g);
        return true;
    }
    case XS_KEEP: {
        bool keep[XB_POOL_MAX] = {0};
        for (int i = 0; i < n; i++)
            keep[o[choice[i]].a] = true;
        xb_ev_keep(g, keep);
        int m = 0;
        for (int i = 0; i < g->n_roll; i++) {
            if (keep[i])
                g->act[g->n_act++] = g->roll[i];
            else
                g->roll[m++] = g->roll[i];
        }
        g->n_roll = m;
        if (m == 0) {
            back_to_action(g);
            return true;
        }
        g->rerolls_left--;
        roll_pool(g);
        if (g->rerolls_left == 0) {
            move_all_to_action(g);
            back_to_action(g);
        }
        return true;
    }
    case XS_ATTACK_DICE: {
        if (n < 1) return false;
        int dice[XB_POOL_MAX];
        for (int i = 0; i < n; i++)
            dice[i] = o[choice[i]].a;
        do_attack(g, dice, n);
        return true;
    }
    case XS_BLOCK:
        if (n != 1) return false;
        do_block(g, o[choice[0]].op == OP_BLOCK);
        return true;
    case XS_DESTROY:
        if (n != 1) return false;
        if (o[choice[0]].op == OP_DESTROY) destroy_upgrade(g, o[choice[0]].a, o[choice[0]].b);
        if (g->destroy_steal >= 0) steal(g, g->destroy_steal);
        back_to_action(g);
        return true;
    case XS_PLACE:
        if (n != 1) return false;
        place(g, o[choice[0]].a);
        return true;
    case XS_REORG:
        if (n != 1) return false;
        place_held(g, &o[choice[0]]);
        return true;
    case XS_ACTION:
        if (n != 1) return false;
        do_action(g, &o[choice[0]]);
        return true;
    default: return false;
    }
}

/* ----------------------------------------------------------- setup */

/* Setup after the settings: decks, the Ark, factions, market, start player;
 * then the first turn begins. */
void xb_setup(xb_game *g)
{
    int players = g->players;
    for (int c = 0; c < g->cs.n_cards; c++)
        push(&g->deck[xb_type(g, c)->family], c);
    for (int f = 0; f < XB_FAMILIES; f++)
        xb_shuffle(g, &g->deck[f]);
    for (int f = 0; f < XB_FAMILIES; f++)
        for (int k = 0; k < 2; k++)
            g->market[f][k] = -1;
    /* the Ark: top soldier, uncontrolled */
    g->ark_card = pop(&g->deck[XB_SOLDIER]);
    g->ark_owner = -1;
    {
        int life = xb_type(g, g->ark_card)->res + players, max = xb_ark_max(g);
        g->ark_life = life > max ? max : life;
    }
    /* factions: one side of a distinct board per player */
    int boards[XB_FACTIONS / 2] = {0, 1, 2, 3};
    for (int i = XB_FACTIONS / 2 - 1; i > 0; i--) {
        int j = (int)game_rng_below(&g->rng, (uint32_t)i + 1);
        int t = boards[i];
        boards[i] = boards[j];
        boards[j] = t;
    }
    for (int s = 0; s < players; s++) {
        g->p[s].faction = 2 * boards[s] + (int)game_rng_below(&g->rng, 2);
        g->p[s].res = players;
    }
    xb_ev_setup(g);
    refill(g);
    /* start player: paragon roll of 2 dice, ties re-roll */
    bool in[XB_MAX_PLAYERS];
    for (int s = 0; s < players; s++)
        in[s] = true;
    for (;;) {
        int best = -1, nbest = 0, roll[XB_MAX_PLAYERS] = {0};
        for (int s = 0; s < players; s++) {
            if (!in[s]) continue;
            roll[s] = roll_paragon(g, 2);
            if (roll[s] > best) best = roll[s], nbest = 0;
            if (roll[s] == best) nbest++;
        }
        xb_ev_start_roll(g, in, roll);
        for (int s = 0; s < players; s++)
            in[s] = in[s] && roll[s] == best;
        if (nbest == 1) break;
    }
    for (int s = 0; s < players; s++)
        if (in[s]) g->start_player = s;
    g->cur = g->start_player;
    start_turn(g);
}
