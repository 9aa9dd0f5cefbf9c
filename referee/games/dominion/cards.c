/* The card table: every card of Base and Seaside (first editions) with its
 * simple effects as data. Special parts live in effects.c. */
#include <strings.h>

#include "state.h"

#define TR T_TREASURE
#define VI T_VICTORY
#define AC T_ACTION
#define AT T_ATTACK
#define DU T_DURATION

/* name, set, cost, types, +cards, +actions, +buys, +coins, vp,
 * next turn: +cards, +actions, +buys, +coins, always */
const dom_card_info dom_cards[DOM_NCARDS] = {
    [C_COPPER] = {"Copper", 0, 0, TR, 0, 0, 0, 1, 0, 0, 0, 0, 0, false},
    [C_SILVER] = {"Silver", 0, 3, TR, 0, 0, 0, 2, 0, 0, 0, 0, 0, false},
    [C_GOLD] = {"Gold", 0, 6, TR, 0, 0, 0, 3, 0, 0, 0, 0, 0, false},
    [C_ESTATE] = {"Estate", 0, 2, VI, 0, 0, 0, 0, 1, 0, 0, 0, 0, false},
    [C_DUCHY] = {"Duchy", 0, 5, VI, 0, 0, 0, 0, 3, 0, 0, 0, 0, false},
    [C_PROVINCE] = {"Province", 0, 8, VI, 0, 0, 0, 0, 6, 0, 0, 0, 0, false},
    [C_CURSE] = {"Curse", 0, 0, T_CURSE, 0, 0, 0, 0, -1, 0, 0, 0, 0, false},

    [C_ADVENTURER] = {"Adventurer", 1, 6, AC, 0, 0, 0, 0, 0, 0, 0, 0, 0, false},
    [C_BUREAUCRAT] = {"Bureaucrat", 1, 4, AC | AT, 0, 0, 0, 0, 0, 0, 0, 0, 0, false},
    [C_CELLAR] = {"Cellar", 1, 2, AC, 0, 1, 0, 0, 0, 0, 0, 0, 0, false},
    [C_CHANCELLOR] = {"Chancellor", 1, 3, AC, 0, 0, 0, 2, 0, 0, 0, 0, 0, false},
    [C_CHAPEL] = {"Chapel", 1, 2, AC, 0, 0, 0, 0, 0, 0, 0, 0, 0, false},
    [C_COUNCIL_ROOM] = {"Council Room", 1, 5, AC, 4, 0, 1, 0, 0, 0, 0, 0, 0, false},
    [C_FEAST] = {"Feast", 1, 4, AC, 0, 0, 0, 0, 0, 0, 0, 0, 0, false},
    [C_FESTIVAL] = {"Festival", 1, 5, AC, 0, 2, 1, 2, 0, 0, 0, 0, 0, false},
    [C_GARDENS] = {"Gardens", 1, 4, VI, 0, 0, 0, 0, 0, 0, 0, 0, 0, false},
    [C_LABORATORY] = {"Laboratory", 1, 5, AC, 2, 1, 0, 0, 0, 0, 0, 0, 0, false},
    [C_LIBRARY] = {"Library", 1, 5, AC, 0, 0, 0, 0, 0, 0, 0, 0, 0, false},
    [C_MARKET] = {"Market", 1, 5, AC, 1, 1, 1, 1, 0, 0, 0, 0, 0, false},
    [C_MILITIA] = {"Militia", 1, 4, AC | AT, 0, 0, 0, 2, 0, 0, 0, 0, 0, false},
    [C_MINE] = {"Mine", 1, 5, AC, 0, 0, 0, 0, 0, 0, 0, 0, 0, false},
    [C_MOAT] = {"Moat", 1, 2, AC | T_REACTION, 2, 0, 0, 0, 0, 0, 0, 0, 0, false},
    [C_MONEYLENDER] = {"Moneylender", 1, 4, AC, 0, 0, 0, 0, 0, 0, 0, 0, 0, false},
    [C_REMODEL] = {"Remodel", 1, 4, AC, 0, 0, 0, 0, 0, 0, 0, 0, 0, false},
    [C_SMITHY] = {"Smithy", 1, 4, AC, 3, 0, 0, 0, 0, 0, 0, 0, 0, false},
    [C_SPY] = {"Spy", 1, 4, AC | AT, 1, 1, 0, 0, 0, 0, 0, 0, 0, false},
    [C_THIEF] = {"Thief", 1, 4, AC | AT, 0, 0, 0, 0, 0, 0, 0, 0, 0, false},
    [C_THRONE_ROOM] = {"Throne Room", 1, 4, AC, 0, 0, 0, 0, 0, 0, 0, 0, 0, false},
    [C_VILLAGE] = {"Village", 1, 3, AC, 1, 2, 0, 0, 0, 0, 0, 0, 0, false},
    [C_WITCH] = {"Witch", 1, 5, AC | AT, 2, 0, 0, 0, 0, 0, 0, 0, 0, false},
    [C_WOODCUTTER] = {"Woodcutter", 1, 3, AC, 0, 0, 1, 2, 0, 0, 0, 0, 0, false},
    [C_WORKSHOP] = {"Workshop", 1, 3, AC, 0, 0, 0, 0, 0, 0, 0, 0, 0, false},

    [C_AMBASSADOR] = {"Ambassador", 2, 3, AC | AT, 0, 0, 0, 0, 0, 0, 0, 0, 0, false},
    [C_BAZAAR] = {"Bazaar", 2, 5, AC, 1, 2, 0, 1, 0, 0, 0, 0, 0, false},
    [C_CARAVAN] = {"Caravan", 2, 4, AC | DU, 1, 1, 0, 0, 0, 1, 0, 0, 0, true},
    [C_CUTPURSE] = {"Cutpurse", 2, 4, AC | AT, 0, 0, 0, 2, 0, 0, 0, 0, 0, false},
    [C_EMBARGO] = {"Embargo", 2, 2, AC, 0, 0, 0, 2, 0, 0, 0, 0, 0, false},
    [C_EXPLORER] = {"Explorer", 2, 5, AC, 0, 0, 0, 0, 0, 0, 0, 0, 0, false},
    [C_FISHING_VILLAGE] = {"Fishing Village", 2, 3, AC | DU, 0, 2, 0, 1, 0, 0, 1, 0, 1, true},
    [C_GHOST_SHIP] = {"Ghost Ship", 2, 5, AC | AT, 2, 0, 0, 0, 0, 0, 0, 0, 0, false},
    [C_HAVEN] = {"Haven", 2, 2, AC | DU, 1, 1, 0, 0, 0, 0, 0, 0, 0, false},
    [C_ISLAND] = {"Island", 2, 4, AC | VI, 0, 0, 0, 0, 2, 0, 0, 0, 0, false},
    [C_LIGHTHOUSE] = {"Lighthouse", 2, 2, AC | DU, 0, 1, 0, 1, 0, 0, 0, 0, 1, true},
    [C_LOOKOUT] = {"Lookout", 2, 3, AC, 0, 1, 0, 0, 0, 0, 0, 0, 0, false},
    [C_MERCHANT_SHIP] = {"Merchant Ship", 2, 5, AC | DU, 0, 0, 0, 2, 0, 0, 0, 0, 2, true},
    [C_NATIVE_VILLAGE] = {"Native Village", 2, 2, AC, 0, 2, 0, 0, 0, 0, 0, 0, 0, false},
    [C_NAVIGATOR] = {"Navigator", 2, 4, AC, 0, 0, 0, 2, 0, 0, 0, 0, 0, false},
    [C_OUTPOST] = {"Outpost", 2, 5, AC | DU, 0, 0, 0, 0, 0, 0, 0, 0, 0, false},
    [C_PEARL_DIVER] = {"Pearl Diver", 2, 2, AC, 1, 1, 0, 0, 0, 0, 0, 0, 0, false},
    [C_PIRATE_SHIP] = {"Pirate Ship", 2, 4, AC | AT, 0, 0, 0, 0, 0, 0, 0, 0, 0, false},
    [C_SALVAGER] = {"Salvager", 2, 4, AC, 0, 0, 1, 0, 0, 0, 0, 0, 0, false},
    [C_SEA_HAG] = {"Sea Hag", 2, 4, AC | AT, 0, 0, 0, 0, 0, 0, 0, 0, 0, false},
    [C_SMUGGLERS] = {"Smugglers", 2, 3, AC, 0, 0, 0, 0, 0, 0, 0, 0, 0, false},
    [C_TACTICIAN] = {"Tactician", 2, 5, AC | DU, 0, 0, 0, 0, 0, 5, 1, 1, 0, false},
    [C_TREASURE_MAP] = {"Treasure Map", 2, 4, AC, 0, 0, 0, 0, 0, 0, 0, 0, 0, false},
    [C_TREASURY] = {"Treasury", 2, 5, AC, 1, 1, 0, 1, 0, 0, 0, 0, 0, false},
    [C_WAREHOUSE] = {"Warehouse", 2, 3, AC, 3, 1, 0, 0, 0, 0, 0, 0, 0, false},
    [C_WHARF] = {"Wharf", 2, 5, AC | DU, 2, 0, 1, 0, 0, 2, 0, 1, 0, true},
};

int dom_card_by_name(const char *name)
{
    for (int c = 0; c < DOM_NCARDS; c++)
        if (strcasecmp(dom_cards[c].name, name) == 0) return c;
    return -1;
}
