/* Default answers for Dominion card decisions, shared by the built-in
 * bots. "Value" ranks how much a card is worth keeping in a deck: Curses
 * lowest, then pure Victory cards, Copper, and the rest by cost. */
#include <string.h>

#include "heuristics.h"

int domh_money(const dom_game *g, int seat)
{
    int m = 0;
    for (int z = 0; z < Z_COUNT; z++) {
        const dom_zone *zz = &g->p[seat].z[z];
        for (int i = 0; i < zz->n; i++)
            if (dom_cards[zz->c[i]].types & T_TREASURE) m += dom_cards[zz->c[i]].coins;
    }
    return m;
}

int domh_owned(const dom_game *g, int seat, int card)
{
    return dom_owned_count(g, seat, card);
}

int domh_find(const dom_game *g, int card)
{
    for (int i = 0; i < g->dec.n; i++)
        if (dom_opt_special(g->dec.opt[i]) == 0 && dom_opt_card(g->dec.opt[i]) == card) return i;
    return -1;
}

int domh_find_word(const dom_game *g, int special)
{
    for (int i = 0; i < g->dec.n; i++)
        if (dom_opt_special(g->dec.opt[i]) == special) return i;
    return 0;
}

static int keep_value(int c)
{
    const dom_card_info *ci = &dom_cards[c];
    if (c == C_CURSE) return -20;
    if ((ci->types & T_VICTORY) && !(ci->types & T_ACTION)) return -10 + ci->vp;
    if (c == C_COPPER) return 0;
    return ci->cost * 2 + ((ci->types & T_TREASURE) ? 1 : 0);
}

/* Indices of the k lowest-valued card options, worst first. */
static int pick_worst(const dom_game *g, int k, int *choice, bool (*ok)(int card))
{
    int n = g->dec.n, used[DOM_OPTCAP] = {0}, got = 0;
    while (got < k) {
        int best = -1, bv = 1 << 30;
        for (int i = 0; i < n; i++) {
            if (used[i]) continue;
            int c = dom_opt_card(g->dec.opt[i]);
            if (ok && !ok(c)) continue;
            int v = keep_value(c);
            if (v < bv) bv = v, best = i;
        }
        if (best < 0) break;
        used[best] = 1;
        choice[got++] = best;
    }
    return got;
}

static int pick_best_cost(const dom_game *g, int *choice)
{
    int best = 0, bv = -1;
    for (int i = 0; i < g->dec.n; i++) {
        int c = dom_opt_card(g->dec.opt[i]);
        int v = keep_value(c);
        if (c == C_GOLD) v += 3; /* money beats an unknown Action */
        if (c == C_PROVINCE) v += 50;
        if (v > bv) bv = v, best = i;
    }
    choice[0] = best;
    return 1;
}

static bool junk(int c)
{
    return c == C_CURSE || c == C_ESTATE;
}
/* dead in hand: Curses and pure Victory cards */
static bool dead(int c)
{
    return c == C_CURSE || ((dom_cards[c].types & T_VICTORY) && !(dom_cards[c].types & T_ACTION));
}

int domh_play_best(const dom_game *g, int *choice)
{
    int best = -1, bv = -1;
    for (int i = 0; i < g->dec.n; i++) {
        int o = g->dec.opt[i];
        if (dom_opt_special(o)) continue;
        const dom_card_info *ci = &dom_cards[dom_opt_card(o)];
        int v = (ci->actions > 0 ? 100 : 0) + ci->cards * 3 + ci->cost;
        if (dom_opt_card(o) == C_THRONE_ROOM) v += 50;
        if (dom_opt_card(o) == C_TREASURE_MAP &&
            dom_count(&g->p[g->cur].z[Z_HAND], C_TREASURE_MAP) < 2)
            v = -1; /* a lone map would be wasted */
        if (v > bv) bv = v, best = i;
    }
    if (best < 0 || bv < 0) best = domh_find_word(g, SP_END_ACTIONS);
    choice[0] = best;
    return 1;
}

int domh_bmu_buy(const dom_game *g, int seat)
{
    int coins = g->coins, prov = g->supply[C_PROVINCE];
    bool can_duchy = g->supply[C_DUCHY] > 0, can_estate = g->supply[C_ESTATE] > 0;
    if (coins >= 8 && domh_money(g, seat) > 18) return C_PROVINCE;
    if (coins >= 5 && prov <= 4 && can_duchy) return C_DUCHY;
    if (coins >= 2 && prov <= 2 && can_estate) return C_ESTATE;
    if (coins >= 6 && g->supply[C_GOLD]) return C_GOLD;
    if (coins >= 5 && prov <= 6 && can_duchy) return C_DUCHY;
    if (coins >= 3 && g->supply[C_SILVER]) return C_SILVER;
    return -1;
}

/* Whose revealed card the Spy shows: the one player with a card aside. */
static int aside_owner(const dom_game *g)
{
    for (int s = 0; s < g->np; s++)
        if (g->p[s].z[Z_ASIDE].n) return s;
    return -1;
}

static bool good_for_owner(int c)
{
    return !(c == C_COPPER || c == C_CURSE ||
             ((dom_cards[c].types & T_VICTORY) && !(dom_cards[c].types & T_ACTION)));
}

int domh_decide_card(const dom_game *g, int seat, const arena_decision *d, int *choice)
{
    const dom_player *me = &g->p[seat];
    int n = d->n_options;
    switch (g->dec.kind) {
    case DK_MOAT:
    case DK_EXPLORER: choice[0] = domh_find_word(g, SP_REVEAL); return 1;
    case DK_CHANCELLOR: choice[0] = domh_find_word(g, SP_DISCARD_DECK); return 1;
    case DK_CELLAR: return pick_worst(g, d->pick_max, choice, dead);
    case DK_CHAPEL: {
        /* trash junk, and Coppers while enough money stays */
        int k = pick_worst(g, d->pick_max, choice, junk);
        int money = domh_money(g, seat);
        for (int i = 0; i < n && k < d->pick_max && money > 7; i++)
            if (dom_opt_card(g->dec.opt[i]) == C_COPPER) choice[k++] = i, money--;
        return k;
    }
    case DK_MILITIA:
    case DK_WAREHOUSE:
    case DK_GHOST_SHIP:
    case DK_BUREAUCRAT:
    case DK_AMBASSADOR_REVEAL:
    case DK_LOOKOUT_TRASH:
    case DK_LOOKOUT_DISCARD:
    case DK_REMODEL_TRASH:
    case DK_SALVAGER:
    case DK_ISLAND:
    case DK_HAVEN: return pick_worst(g, d->pick_min > 0 ? d->pick_min : 1, choice, NULL);
    case DK_AMBASSADOR_RETURN:
        for (int i = 0; i < d->pick_max; i++)
            choice[i] = i;
        return d->pick_max;
    case DK_TREASURY:
        for (int i = 0; i < n; i++)
            choice[i] = i;
        return n;
    case DK_MINE_TRASH: {
        int i = domh_find(g, C_SILVER);
        choice[0] = i >= 0 && g->supply[C_GOLD] ? i : 0;
        return 1;
    }
    case DK_WORKSHOP:
    case DK_FEAST:
    case DK_REMODEL_GAIN:
    case DK_MINE_GAIN:
    case DK_SMUGGLERS:
    case DK_THIEF_TRASH:
    case DK_PIRATE_TRASH:
    case DK_THRONE_ROOM: return pick_best_cost(g, choice);
    case DK_THIEF_GAIN: {
        int c = dom_opt_card(g->dec.opt[0]);
        choice[0] = domh_find_word(g, c == C_COPPER ? SP_PASS : SP_GAIN);
        return 1;
    }
    case DK_SPY: {
        int owner = aside_owner(g);
        int c = dom_opt_card(g->dec.opt[0]);
        bool keep = good_for_owner(c) == (owner == seat);
        choice[0] = domh_find_word(g, keep ? SP_KEEP : SP_DISCARD);
        return 1;
    }
    case DK_LIBRARY:
        choice[0] = domh_find_word(g, g->actions > 0 ? SP_KEEP : SP_SET_ASIDE);
        return 1;
    case DK_EMBARGO: {
        int i = domh_find(g, C_PROVINCE);
        choice[0] = i >= 0 ? i : 0;
        return 1;
    }
    case DK_NATIVE_VILLAGE:
        choice[0] = domh_find_word(g, me->z[Z_NVMAT].n >= 3 ? SP_TAKE_MAT : SP_TO_MAT);
        return 1;
    case DK_PEARL_DIVER: {
        int c = dom_opt_card(g->dec.opt[0]);
        choice[0] = domh_find_word(g, good_for_owner(c) ? SP_TOP : SP_KEEP);
        return 1;
    }
    case DK_NAVIGATOR_MODE: {
        int money = 0;
        const dom_zone *a = &me->z[Z_ASIDE];
        for (int i = 0; i < a->n; i++)
            if (dom_cards[a->c[i]].types & T_TREASURE) money += dom_cards[a->c[i]].coins;
        choice[0] = domh_find_word(g, money >= 5 ? SP_KEEP : SP_DISCARD);
        return 1;
    }
    case DK_NAVIGATOR_ORDER:
        for (int i = 0; i < n; i++)
            choice[i] = i;
        return n;
    case DK_PIRATE_MODE:
        choice[0] = domh_find_word(g, me->coin_tokens >= 3 ? SP_COINS : SP_ATTACK);
        return 1;
    case DK_ACTION: return domh_play_best(g, choice);
    default: {
        /* anything else: the minimum number of the first options */
        int k = d->pick_min;
        for (int i = 0; i < k; i++)
            choice[i] = i;
        return k;
    }
    }
}
