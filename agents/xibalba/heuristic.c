/* builtin:heuristic for Xibalba. A greedy plan around the Ark, which pays
 * paragon at the end of every player's turn: get a soldier, take the Ark,
 * keep it alive, raid the richest base from it; build the economy with the
 * resources left. Reads the game state directly but only public fields and
 * its own (everything at the Xibalba table is public except deck order). */
#include <stdlib.h>
#include <string.h>

#include "../../referee/games/xibalba/xb_internal.h"
#include "policy.h"
#include "util.h"

typedef struct hbot {
    int seat;
    arena_rng rng;
} hbot;

static void *h_create(const char *arg, int seat, uint64_t seed, char *err, size_t errlen)
{
    (void)arg, (void)err, (void)errlen;
    hbot *b = xcalloc(1, sizeof *b);
    b->seat = seat;
    arena_rng_seed(&b->rng, seed);
    return b;
}

static bool own_ark(const xb_game *g, int s)
{
    return g->ark_card >= 0 && g->ark_owner == s;
}

static int squad_top(const xb_game *g, int s)
{
    const xb_stack *q = &g->p[s].squad;
    return q->n ? q->c[q->n - 1] : -1;
}

/* Can attack dice do anything this turn? */
static bool attack_useful(const xb_game *g, int s)
{
    if (own_ark(g, s)) return true;
    return squad_top(g, s) >= 0;
}

static int upgrade_worth(const xb_game *g, int owner, int card);

/* The most an opponent's top upgrade card is worth to its owner. */
static int best_sabotage(const xb_game *g, int s)
{
    int best = 0;
    for (int o = 0; o < g->players; o++)
        for (int k = 0; o != s && k < XB_SLOTS; k++) {
            int c = xb_card_at(g, o, XB_LOC_SLOT0 + k);
            int v = c >= 0 ? upgrade_worth(g, o, c) : 0;
            if (v > best) best = v;
        }
    return best;
}

/* Resources the opponents hold, each counted up to cap. */
static int opponents_res(const xb_game *g, int s, int cap)
{
    int sum = 0;
    for (int o = 0; o < g->players; o++)
        if (o != s) sum += g->p[o].res < cap ? g->p[o].res : cap;
    return sum;
}

/* Value of buying a card now (0: do not buy). Weak or situational cards get
 * a small value only when resources would otherwise pile up ("rich"), so
 * every designed card is bought in some games. */
static int buy_value(const xb_game *g, int s, int card)
{
    const xb_card_type *t = xb_type(g, card);
    const xb_player *p = &g->p[s];
    bool rich = p->res >= (g->players == 2 ? 14 : 8); /* more players: shorter games */
    switch (t->family) {
    case XB_SOLDIER: {
        int top = squad_top(g, s);
        int v = t->str * 3 + t->res * 2 + t->par * 4;
        if (top < 0 && !own_ark(g, s)) return 100 + v;
        if (top < 0) return 40 + v; /* a blocker and a successor */
        const xb_card_type *tt = xb_type(g, top);
        int tv = tt->str * 3 + tt->res * 2 + tt->par * 4;
        return v > tv + 6 ? 20 + v - tv : 0;
    }
    case XB_CIVILIAN:
    case XB_BUILDING:
        switch (t->effect) {
        case XE_PROD: return 60;
        case XE_GAIN_RES: return 30 + 15 * t->arg;
        case XE_ROLL_PARAGON: return 55;
        case XE_BASE_RES: return 30 + 10 * t->arg;
        case XE_POOL: return 45;
        case XE_REROLL:
        case XE_REROLL_PERM: return 35;
        case XE_GUARD: return p->par > 4 ? 40 : 20;
        case XE_PARAGON_DIE: return 45;
        case XE_BLANK_RES: return 25;
        case XE_UPGRADE_DISCOUNT: return p->level < 2 ? 30 : 0;
        case XE_SMUGGLE: return p->par == 0 ? 20 : 0; /* costs 1 paragon a turn */
        case XE_TITHE: return xb_productivity(g, s) >= 3 || rich ? 35 : 0;
        case XE_BUY_PARAGON: return rich ? 30 : 0;
        case XE_FIELD_MEDIC: return own_ark(g, s) && (rich || g->ark_life <= 5) ? 20 : 0;
        case XE_FORGE: return attack_useful(g, s) && rich ? 20 : 0;
        default: return 0;
        }
    case XB_EVENT:
        switch (t->effect) {
        case XE_EV_PARAGON: return 50;
        case XE_EV_OMEN: return 45;
        case XE_EV_BARRAGE:
            return g->ark_card >= 0 && g->ark_owner != s && g->ark_life <= t->arg &&
                           squad_top(g, s) < 0
                       ? 0
                       : (g->ark_card >= 0 && g->ark_owner != s ? 35 : 0);
        case XE_EV_REINFORCE: return own_ark(g, s) && g->ark_life <= xb_ark_max(g) - 3 ? 40 : 0;
        case XE_EV_SABOTAGE: return best_sabotage(g, s) >= 5 ? 30 : 0;
        case XE_EV_TRIBUTE: return rich && opponents_res(g, s, t->arg) >= g->players - 1 ? 10 : 0;
        case XE_EV_RAID: return rich && opponents_res(g, s, t->arg) >= t->arg ? 15 : 0;
        case XE_EV_ARMS: return attack_useful(g, s) && rich ? 25 : 0;
        default: return 0;
        }
    default: return 0;
    }
}

/* The opponent worth raiding from the Ark: most paragon, hittable. */
static int raid_target(const xb_game *g, int s, int strength_all)
{
    int best = -1, bestv = -1;
    for (int d = 0; d < g->players; d++) {
        if (d == s) continue;
        int res = xb_base_resistance(g, d);
        if (res > strength_all) continue;
        int v = g->p[d].par * 4 + g->p[d].slot[0].n + g->p[d].slot[1].n;
        if (v > bestv) bestv = v, best = d;
    }
    return best;
}

static int attack_strength_all(const xb_game *g, int soldier)
{
    const xb_card_type *t = xb_type(g, soldier);
    int sum = 0, n = 0;
    for (int i = 0; i < g->n_act; i++) {
        if (g->act[i].face == XF_ATK) sum += t->str, n++;
        if (g->act[i].face == XF_CRIT) sum += t->str + 1, n++;
    }
    if (n && t->phase == XB_PH_ACTION && t->effect == XE_ATTACK_STR) sum += t->arg;
    return sum;
}

/* What an opponent's top upgrade card is worth to its owner, i.e. what
 * destroying it takes away (0: destroying it does not help). Cost is the
 * proxy; cards that shield the base from raids count extra. */
static int upgrade_worth(const xb_game *g, int owner, int card)
{
    const xb_card_type *t = xb_type(g, card);
    const xb_player *p = &g->p[owner];
    switch (t->effect) {
    case XE_UPGRADE_DISCOUNT:
        /* dead at the top level, and it blocks the slot: leave it */
        return p->level >= XB_LEVELS - 1 ? 0 : t->cost;
    case XE_SMUGGLE: return p->par > 0 ? 0 : t->cost; /* it drains the owner's paragon */
    case XE_BASE_RES:
    case XE_GUARD: return t->cost + 3;
    default: return t->cost;
    }
}

static int find_op(const xb_opt *o, int n, int op, int a)
{
    for (int i = 0; i < n; i++)
        if (o[i].op == op && (a < 0 || o[i].a == a)) return i;
    return -1;
}

static int decide_action(const xb_game *g, int s, const xb_opt *o, int n)
{
    const xb_player *p = &g->p[s];
    const xb_faction *f = &xb_factions[p->faction];
    int i;
    /* paragon and resources first: they only help */
    for (i = 0; i < n; i++)
        if (o[i].op == OP_PARAGON || o[i].op == OP_COLLECT) return i;
    if ((i = find_op(o, n, OP_ENTER, -1)) >= 0) return i;
    if ((i = find_op(o, n, OP_ATTACK_ARK, -1)) >= 0) return i;
    if (own_ark(g, s)) {
        int d = raid_target(g, s, attack_strength_all(g, g->ark_card));
        if (d >= 0 && (i = find_op(o, n, OP_ATTACK_BASE, d)) >= 0) return i;
        if (g->ark_life <= xb_ark_max(g) - 2 && (i = find_op(o, n, OP_MEDICINE, -1)) >= 0 &&
            (g->ark_life <= 6 || p->res >= f->medicine + 4))
            return i;
    }
    if ((i = find_op(o, n, OP_UPGRADE, -1)) >= 0 && p->level < 3) return i;
    /* best purchase */
    int best = -1, bestv = 0;
    for (int k = 0; k < n; k++) {
        if (o[k].op != OP_BUY) continue;
        int v = buy_value(g, s, g->market[o[k].a][o[k].b]);
        if (v > bestv) bestv = v, best = k;
    }
    if (best >= 0) return best;
    for (int k = 0; k < n; k++) {
        if (o[k].op != OP_USE) continue;
        const xb_card_type *t = xb_type(g, xb_card_at(g, s, XB_LOC_SLOT0 + o[k].a));
        if (t->effect == XE_BLANK_RES || t->effect == XE_FORGE) return k;
        if (t->effect == XE_BUY_PARAGON && p->res >= 12) return k;
        if (t->effect == XE_FIELD_MEDIC && g->ark_life <= 8) return k;
    }
    if (p->res >= 12 && (i = find_op(o, n, OP_HARVEST, -1)) >= 0) return i;
    return find_op(o, n, OP_END, -1);
}

static int decide_attack_dice(const xb_game *g, const xb_opt *o, int n, int *choice)
{
    if (g->atk_target < 0) {
        for (int i = 0; i < n; i++)
            choice[i] = i; /* damage persists: all in */
        return n;
    }
    const xb_card_type *t = xb_type(g, g->ark_card); /* a base is raided from the Ark */
    /* smallest set (criticals first) reaching the base's resistance */
    int need = xb_base_resistance(g, g->atk_target);
    int bonus = t->phase == XB_PH_ACTION && t->effect == XE_ATTACK_STR ? t->arg : 0;
    int k = 0, sum = bonus;
    for (int pass = 0; pass < 2 && sum < need; pass++)
        for (int i = 0; i < n && sum < need; i++) {
            bool crit = g->act[o[i].a].face == XF_CRIT;
            if (crit != (pass == 0)) continue;
            choice[k++] = i;
            sum += t->str + crit;
        }
    if (k == 0) choice[k++] = 0;
    return k;
}

static int h_decide(void *self, const arena_game *gg, const arena_decision *d, int *choice)
{
    hbot *b = self;
    const xb_game *g = (const xb_game *)gg;
    int s = d->seat;
    /* never reorganizes; option 0 puts the squad back in its old order */
    if (g->step == XS_REORG) return choice[0] = 0, 1;
    xb_opt o[XB_OPT_SMALL];
    int n = xb_options(g, o);
    switch (g->step) {
    case XS_EFFECT:
    case XS_DICE_EFFECT:
        /* resource gains before paying effects */
        for (int i = 0; i < n; i++) {
            int e = xb_type(g, xb_card_at(g, s, o[i].a))->effect;
            if (e == XE_GAIN_RES || e == XE_SMUGGLE) return choice[0] = i, 1;
        }
        return choice[0] = 0, 1;
    case XS_POOL: {
        bool atk = attack_useful(g, s);
        int want = !atk ? 4 : own_ark(g, s) ? 3 : 2; /* resource dice */
        int bestd = 99;
        choice[0] = 0;
        for (int i = 0; i < n; i++) {
            int dd = abs(o[i].a - want);
            if (dd < bestd) bestd = dd, choice[0] = i;
        }
        return 1;
    }
    case XS_KEEP: {
        bool atk = attack_useful(g, s);
        int k = 0;
        for (int i = 0; i < n; i++) {
            int f = g->roll[o[i].a].face;
            bool keep =
                xb_face_value(f) >= 2 || f == XF_PAR1 || f == XF_CRIT || (f == XF_ATK && atk);
            if (keep) choice[k++] = i;
        }
        return k;
    }
    case XS_ACTION: return choice[0] = decide_action(g, s, o, n), 1;
    case XS_ATTACK_DICE: return decide_attack_dice(g, o, n, choice);
    case XS_BLOCK: {
        int blocker = squad_top(g, s);
        const xb_card_type *t = xb_type(g, blocker);
        int res =
            t->res + (t->phase == XB_PH_PERMANENT && t->effect == XE_BLOCK_BONUS ? t->arg : 0);
        bool block = res > g->atk_strength || g->p[s].par >= 4 || g->p[s].squad.n > 1;
        return choice[0] = find_op(o, n, block ? OP_BLOCK : OP_NOBLOCK, -1), 1;
    }
    case XS_DESTROY: {
        /* the most valuable card; after a hit, "keep" unless one is worth it */
        int best = find_op(o, n, OP_NO_DESTROY, -1), bestv = best >= 0 ? 0 : -1;
        if (best < 0) best = 0;
        for (int i = 0; i < n; i++) {
            if (o[i].op != OP_DESTROY) continue;
            int v = upgrade_worth(g, o[i].a, xb_card_at(g, o[i].a, XB_LOC_SLOT0 + o[i].b));
            if (v > bestv) bestv = v, best = i;
        }
        return choice[0] = best, 1;
    }
    case XS_PLACE:
        for (int i = 0; i < n; i++)
            if (g->p[s].slot[o[i].a].n == 0) return choice[0] = i, 1;
        return choice[0] = 0, 1;
    default: return arena_random_choice(&b->rng, d, choice);
    }
}

const arena_policy_vt xibalba_policy_heuristic = {
    .name = "heuristic",
    .game = "xibalba",
    .summary = "Ark-first greedy bot: take and hold the Ark, raid the richest base, build economy",
    .create = h_create,
    .decide = h_decide,
    .free = free,
};
