/* The decision machinery: kinds, option encoding and labels, prompts, and
 * the helpers card hooks use to ask (with forced answers taken at once). */
#include <stdio.h>

#include "engine.h"
#include "util.h"

static const char *const kind_names[DK_COUNT] = {
    [DK_ACTION] = "action",
    [DK_BUY] = "buy",
    [DK_MOAT] = "moat-reveal",
    [DK_CELLAR] = "cellar-discard",
    [DK_CHAPEL] = "chapel-trash",
    [DK_CHANCELLOR] = "chancellor-deck",
    [DK_WORKSHOP] = "workshop-gain",
    [DK_BUREAUCRAT] = "bureaucrat-topdeck",
    [DK_FEAST] = "feast-gain",
    [DK_MILITIA] = "militia-discard",
    [DK_REMODEL_TRASH] = "remodel-trash",
    [DK_REMODEL_GAIN] = "remodel-gain",
    [DK_SPY] = "spy-discard",
    [DK_THIEF_TRASH] = "thief-trash",
    [DK_THIEF_GAIN] = "thief-gain",
    [DK_THRONE_ROOM] = "throne-room",
    [DK_LIBRARY] = "library-set-aside",
    [DK_MINE_TRASH] = "mine-trash",
    [DK_MINE_GAIN] = "mine-gain",
    [DK_EMBARGO] = "embargo-pile",
    [DK_HAVEN] = "haven-set-aside",
    [DK_NATIVE_VILLAGE] = "native-village",
    [DK_PEARL_DIVER] = "pearl-diver",
    [DK_AMBASSADOR_REVEAL] = "ambassador-reveal",
    [DK_AMBASSADOR_RETURN] = "ambassador-return",
    [DK_LOOKOUT_TRASH] = "lookout-trash",
    [DK_LOOKOUT_DISCARD] = "lookout-discard",
    [DK_SMUGGLERS] = "smugglers-gain",
    [DK_WAREHOUSE] = "warehouse-discard",
    [DK_ISLAND] = "island-set-aside",
    [DK_NAVIGATOR_MODE] = "navigator-mode",
    [DK_NAVIGATOR_ORDER] = "navigator-order",
    [DK_PIRATE_MODE] = "pirate-ship-mode",
    [DK_PIRATE_TRASH] = "pirate-ship-trash",
    [DK_SALVAGER] = "salvager-trash",
    [DK_EXPLORER] = "explorer-reveal",
    [DK_GHOST_SHIP] = "ghost-ship-topdeck",
    [DK_TREASURY] = "treasury-topdeck",
};

/* One line per kind for the human-readable prompt. */
static const char *const kind_help[DK_COUNT] = {
    [DK_ACTION] = "play an Action or end the action phase",
    [DK_BUY] = "buy a card or end the turn",
    [DK_MOAT] = "reveal Moat to be unaffected by this Attack?",
    [DK_CELLAR] = "discard any number of cards, then draw as many",
    [DK_CHAPEL] = "trash up to 4 cards",
    [DK_CHANCELLOR] = "put your deck into your discard pile?",
    [DK_WORKSHOP] = "gain a card costing up to 4",
    [DK_BUREAUCRAT] = "put a Victory card from your hand onto your deck",
    [DK_FEAST] = "gain a card costing up to 5",
    [DK_MILITIA] = "discard down to 3 cards",
    [DK_REMODEL_TRASH] = "trash a card from your hand",
    [DK_REMODEL_GAIN] = "gain a card costing up to 2 more than the trashed one",
    [DK_SPY] = "discard the revealed card or put it back",
    [DK_THIEF_TRASH] = "trash one of the revealed Treasures",
    [DK_THIEF_GAIN] = "gain the trashed Treasure?",
    [DK_THRONE_ROOM] = "choose an Action to play twice",
    [DK_LIBRARY] = "set the drawn Action aside?",
    [DK_MINE_TRASH] = "trash a Treasure from your hand",
    [DK_MINE_GAIN] = "gain a Treasure costing up to 3 more, into your hand",
    [DK_EMBARGO] = "put an Embargo token on a Supply pile",
    [DK_HAVEN] = "set a card aside for your next turn",
    [DK_NATIVE_VILLAGE] = "top card to your mat, or take the mat into your hand",
    [DK_PEARL_DIVER] = "put the bottom card of your deck on top?",
    [DK_AMBASSADOR_REVEAL] = "reveal a card to return",
    [DK_AMBASSADOR_RETURN] = "return up to 2 copies to the Supply",
    [DK_LOOKOUT_TRASH] = "trash one of the cards looked at",
    [DK_LOOKOUT_DISCARD] = "discard one; the other goes back on top",
    [DK_SMUGGLERS] = "gain a card the player to your right gained",
    [DK_WAREHOUSE] = "discard 3 cards",
    [DK_ISLAND] = "set a card aside on your Island mat",
    [DK_NAVIGATOR_MODE] = "discard the 5 cards looked at, or keep them",
    [DK_NAVIGATOR_ORDER] = "order the cards; the last listed ends on top",
    [DK_PIRATE_MODE] = "attack, or take $1 per Coin token",
    [DK_PIRATE_TRASH] = "trash one of the revealed Treasures",
    [DK_SALVAGER] = "trash a card for + its cost",
    [DK_EXPLORER] = "reveal a Province to gain a Gold instead of a Silver?",
    [DK_GHOST_SHIP] = "put cards onto your deck until 3 are left; the last listed ends on top",
    [DK_TREASURY] = "put Treasuries back on your deck?",
};

static const char *const special_words[SP_COUNT] = {
    [SP_NONE] = "",
    [SP_END_ACTIONS] = "end-actions",
    [SP_END_TURN] = "end-turn",
    [SP_REVEAL] = "reveal",
    [SP_PASS] = "pass",
    [SP_DISCARD] = "discard",
    [SP_KEEP] = "keep",
    [SP_SET_ASIDE] = "set-aside",
    [SP_TO_MAT] = "to-mat",
    [SP_TAKE_MAT] = "take-mat",
    [SP_ATTACK] = "attack",
    [SP_COINS] = "coins",
    [SP_TOP] = "top",
    [SP_GAIN] = "gain",
    [SP_DISCARD_DECK] = "discard-deck",
};
static const char *const prefixes[] = {"card:", "play:", "buy:"};

const char *dom_kind_name(int kind)
{
    return kind_names[kind];
}

/* ---- decisions ---- */

void dec_begin(dom_game *g, int seat, int kind, int prefix)
{
    g->dec.seat = (int8_t)seat;
    g->dec.kind = (uint8_t)kind;
    g->dec.prefix = (uint8_t)prefix;
    g->dec.n = 0;
}

bool dec_ask(dom_game *g, int pmin, int pmax, bool ordered)
{
    dom_decision *d = &g->dec;
    if (pmax > d->n) pmax = d->n;
    if (pmin > pmax) pmin = pmax;
    d->pmin = (int16_t)pmin;
    d->pmax = (int16_t)pmax;
    d->ordered = ordered;
    g->nans = 0;
    if (pmax == 0) return false;
    /* Only one possible answer: take it without asking. */
    if (pmin == d->n && (!ordered || d->n == 1)) {
        for (int i = 0; i < d->n; i++)
            g->ans[i] = (int16_t)i;
        g->nans = d->n;
        return false;
    }
    g->has_dec = true;
    return true;
}

bool ask_zone(dom_game *g, int seat, int owner, int zone, int kind, int pmin, int pmax,
              bool ordered)
{
    const dom_zone *z = &g->p[owner].z[zone];
    uint8_t cnt[DOM_NCARDS] = {0};
    for (int i = 0; i < z->n; i++)
        cnt[z->c[i]]++;
    dec_begin(g, seat, kind, PFX_CARD);
    for (int c = 0; c < DOM_NCARDS; c++)
        for (int k = 0; k < cnt[c]; k++)
            dec_add(g, 0, c);
    return dec_ask(g, pmin, pmax, ordered);
}

bool ask_hand_all(dom_game *g, int seat, int kind, int pmin, int pmax, bool ordered)
{
    return ask_zone(g, seat, seat, Z_HAND, kind, pmin, pmax, ordered);
}

bool ask_hand_distinct(dom_game *g, int seat, int kind, unsigned types)
{
    const dom_zone *h = &g->p[seat].z[Z_HAND];
    uint64_t have = 0;
    for (int i = 0; i < h->n; i++)
        if (!types || (dom_cards[h->c[i]].types & types)) have |= 1ull << h->c[i];
    dec_begin(g, seat, kind, PFX_CARD);
    for (int c = 0; c < DOM_NCARDS; c++)
        if (have >> c & 1) dec_add(g, 0, c);
    return dec_ask(g, 1, 1, false);
}

bool ask_supply(dom_game *g, int seat, int kind, int maxcost, unsigned types)
{
    dec_begin(g, seat, kind, PFX_CARD);
    for (int i = 0; i < g->npiles; i++) {
        int c = g->piles[i];
        if (g->supply[c] > 0 && dom_cards[c].cost <= maxcost &&
            (!types || (dom_cards[c].types & types)))
            dec_add(g, 0, c);
    }
    return dec_ask(g, 1, 1, false);
}

bool ask_words(dom_game *g, int seat, int kind, int w1, int w2, int card)
{
    dec_begin(g, seat, kind, PFX_CARD);
    dec_add(g, w1, card);
    dec_add(g, w2, card);
    return dec_ask(g, 1, 1, false);
}

/* Labels and prompts go out with every decision: written without snprintf
 * (protocol/util.h's textbuf), the same text. */
void dom_label(const arena_game *gg, int i, char *buf, size_t len)
{
    const dom_game *g = (const dom_game *)gg;
    textbuf t = text_start(buf, len);
    if (i < 0 || i >= g->dec.n) {
        TEXT_LIT(&t, "?");
        return;
    }
    int o = g->dec.opt[i], sp = dom_opt_special(o), c = dom_opt_card(o);
    if (sp) {
        text_adds(&t, special_words[sp]);
        if (c != DOM_NOCARD) {
            TEXT_LIT(&t, ":");
            text_adds(&t, dom_cards[c].name);
        }
        return;
    }
    int copy = 1; /* several copies of one card: "card:Copper", "card:Copper#2", ... */
    for (int j = 0; j < i; j++)
        copy += g->dec.opt[j] == o;
    text_adds(&t, prefixes[g->dec.prefix]);
    text_adds(&t, dom_cards[c].name);
    if (copy > 1) {
        TEXT_LIT(&t, "#");
        text_int(&t, copy);
    }
}

void dom_prompt(const arena_game *gg, char *buf, size_t len)
{
    const dom_game *g = (const dom_game *)gg;
    textbuf t = text_start(buf, len);
    if (!g->has_dec) {
        TEXT_LIT(&t, "game over");
        return;
    }
    const dom_decision *d = &g->dec;
    text_adds(&t, kind_names[d->kind]);
    TEXT_LIT(&t, ": ");
    text_adds(&t, kind_help[d->kind]);
    TEXT_LIT(&t, "; pick ");
    text_int(&t, d->pmin);
    TEXT_LIT(&t, " to ");
    text_int(&t, d->pmax);
    if (d->ordered) TEXT_LIT(&t, " in order");
    TEXT_LIT(&t, " (actions ");
    text_int(&t, g->actions);
    TEXT_LIT(&t, ", buys ");
    text_int(&t, g->buys);
    TEXT_LIT(&t, ", coins ");
    text_int(&t, g->coins);
    TEXT_LIT(&t, ")");
}
