/* Built-in Dominion bots: big-money, bmu, bm-with:<Card> and engine.
 * Rules of each bot are in docs/games/dominion.md. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtins.h"
#include "heuristics.h"
#include "util.h"

typedef struct dom_bot {
    int kind; /* BOT_* */
    int card; /* bm-with */
    int seat;
} dom_bot;

enum { BOT_BIG_MONEY, BOT_BMU, BOT_BM_WITH, BOT_ENGINE };

static void *mk_bot(int kind, int card, int seat)
{
    dom_bot *b = xcalloc(1, sizeof *b);
    b->kind = kind;
    b->card = card;
    b->seat = seat;
    return b;
}

static void *bm_create(const char *arg, int seat, uint64_t seed, char *err, size_t errlen)
{
    (void)arg, (void)seed, (void)err, (void)errlen;
    return mk_bot(BOT_BIG_MONEY, -1, seat);
}
static void *bmu_create(const char *arg, int seat, uint64_t seed, char *err, size_t errlen)
{
    (void)arg, (void)seed, (void)err, (void)errlen;
    return mk_bot(BOT_BMU, -1, seat);
}
static void *engine_create(const char *arg, int seat, uint64_t seed, char *err, size_t errlen)
{
    (void)arg, (void)seed, (void)err, (void)errlen;
    return mk_bot(BOT_ENGINE, -1, seat);
}
static void *bmwith_create(const char *arg, int seat, uint64_t seed, char *err, size_t errlen)
{
    (void)seed;
    int c = arg ? dom_card_by_name(arg) : -1;
    if (c < DOM_FIRST_KINGDOM) {
        snprintf(err, errlen, "bm-with needs a kingdom card name, not '%s'", arg ? arg : "");
        return NULL;
    }
    return mk_bot(BOT_BM_WITH, c, seat);
}

/* Terminal draw: bm-with buys a second copy of these once the deck has 16
 * cards or more. */
static bool terminal_draw(int c)
{
    return c == C_SMITHY || c == C_MOAT || c == C_COUNCIL_ROOM || c == C_WITCH || c == C_WHARF ||
           c == C_GHOST_SHIP || c == C_LIBRARY;
}

static int want_bm_with(const dom_game *g, const dom_bot *b)
{
    int c = b->card;
    if (!g->in_supply[c] || !g->supply[c] || dom_cards[c].cost > g->coins) return -1;
    int have = domh_owned(g, b->seat, c);
    int limit = terminal_draw(c) && dom_owned(g, b->seat) >= 16 ? 2 : 1;
    return have < limit ? c : -1;
}

/* The engine bot's buy rule (see the doc): cursers first, then villages
 * and draw kept in balance, then BMU money. */
static int engine_buy(const dom_game *g, const dom_bot *b)
{
    int s = b->seat, coins = g->coins;
    int money = domh_money(g, s), prov = g->supply[C_PROVINCE];
    int owned = dom_owned(g, s);
    if (coins >= 8 && (money > 15 || prov <= 6)) return C_PROVINCE;
    if (coins >= 5 && prov <= 4 && g->supply[C_DUCHY]) return C_DUCHY;
    if (coins >= 2 && prov <= 2 && g->supply[C_ESTATE]) return C_ESTATE;
    int terminals = 0, villages = 0;
    for (int c = DOM_FIRST_KINGDOM; c < DOM_NCARDS; c++) {
        int k = domh_owned(g, s, c);
        if (!k || !(dom_cards[c].types & T_ACTION)) continue;
        if (dom_cards[c].actions >= 2)
            villages += k;
        else if (dom_cards[c].actions == 0)
            terminals += k;
    }
    /* ranked kingdom wishes: card, max copies, needs a village beyond one */
    static const uint8_t ranked[][3] = {
        {C_WITCH, 2, 0},           {C_SEA_HAG, 1, 0},      {C_LABORATORY, 8, 0},
        {C_MARKET, 1, 0},          {C_WHARF, 2, 1},        {C_MILITIA, 1, 1},
        {C_GHOST_SHIP, 1, 1},      {C_COUNCIL_ROOM, 1, 1}, {C_SMITHY, 2, 1},
        {C_FESTIVAL, 3, 0},        {C_BAZAAR, 3, 0},       {C_CARAVAN, 3, 0},
        {C_FISHING_VILLAGE, 3, 0}, {C_LIBRARY, 1, 1},      {C_MERCHANT_SHIP, 1, 1},
        {C_CUTPURSE, 1, 1},        {C_MONEYLENDER, 1, 1},  {C_MOAT, 1, 1},
    };
    if (coins >= 6 && money < 7 && g->supply[C_GOLD]) return C_GOLD;
    for (size_t i = 0; i < sizeof ranked / sizeof ranked[0]; i++) {
        int c = ranked[i][0];
        if (!g->in_supply[c] || !g->supply[c] || dom_cards[c].cost > coins) continue;
        if (domh_owned(g, s, c) >= ranked[i][1]) continue;
        /* a terminal needs a village once we hold 1 + villages + cards/12 */
        if (ranked[i][2] && terminals >= 1 + villages + owned / 12) continue;
        if (coins >= 6 && dom_cards[c].cost < 5 && domh_owned(g, s, C_GOLD) < 1) continue;
        return c;
    }
    if (coins >= 6 && g->supply[C_GOLD]) return C_GOLD;
    if (coins >= 5 && prov <= 6 && g->supply[C_DUCHY]) return C_DUCHY;
    if (coins >= 3 && g->supply[C_SILVER]) return C_SILVER;
    return -1;
}

static int dom_bot_decide(void *self, const arena_game *gg, const arena_decision *d, int *choice)
{
    dom_bot *b = self;
    const dom_game *g = (const dom_game *)gg;
    if (g->dec.kind == DK_ACTION) {
        if (b->kind == BOT_BIG_MONEY || b->kind == BOT_BMU) {
            choice[0] = domh_find_word(g, SP_END_ACTIONS);
            return 1;
        }
        return domh_play_best(g, choice);
    }
    if (g->dec.kind == DK_BUY) {
        int c = -1;
        switch (b->kind) {
        case BOT_BIG_MONEY:
            c = g->coins >= 8 ? C_PROVINCE : g->coins >= 6 ? C_GOLD : g->coins >= 3 ? C_SILVER : -1;
            break;
        case BOT_BMU: c = domh_bmu_buy(g, b->seat); break;
        case BOT_BM_WITH: {
            c = domh_bmu_buy(g, b->seat);
            /* the card comes before Gold and Silver, not before greening */
            if (c == -1 || c == C_GOLD || c == C_SILVER) {
                int w = want_bm_with(g, b);
                if (w >= 0) c = w;
            }
            break;
        }
        default: c = engine_buy(g, b);
        }
        int i = c >= 0 ? domh_find(g, c) : -1;
        choice[0] = i >= 0 ? i : domh_find_word(g, SP_END_TURN);
        return 1;
    }
    return domh_decide_card(g, b->seat, d, choice);
}

const arena_policy_vt dominion_policy_big_money = {
    .name = "big-money",
    .game = "dominion",
    .summary = "Big Money: Province at $8, Gold at $6-7, Silver at $3-5; never plays Actions",
    .create = bm_create,
    .decide = dom_bot_decide,
    .free = free,
};

const arena_policy_vt dominion_policy_bmu = {
    .name = "bmu",
    .game = "dominion",
    .summary = "Big Money Ultimate: money only, greening by Provinces left",
    .create = bmu_create,
    .decide = dom_bot_decide,
    .free = free,
};

const arena_policy_vt dominion_policy_bm_with = {
    .name = "bm-with",
    .game = "dominion",
    .summary = "BMU that also buys one copy of CARD (two for terminal draw) and plays it",
    .takes_arg = true,
    .create = bmwith_create,
    .decide = dom_bot_decide,
    .free = free,
};

const arena_policy_vt dominion_policy_engine = {
    .name = "engine",
    .game = "dominion",
    .summary = "engine builder: cursers, labs and villages balanced with draw, then money",
    .create = engine_create,
    .decide = dom_bot_decide,
    .free = free,
};

const arena_policy_vt *const dominion_policies[] = {&dominion_policy_big_money,
                                                    &dominion_policy_bmu, &dominion_policy_bm_with,
                                                    &dominion_policy_engine, NULL};
