/* Named kingdoms: Base "First Game" and the six sets of the Seaside
 * rulebook (German names in the titles). */
#include "state.h"

const dom_kingdom_set dom_kingdom_sets[] = {
    {"first-game",
     "First Game",
     {C_CELLAR, C_MARKET, C_MILITIA, C_MINE, C_MOAT, C_REMODEL, C_SMITHY, C_VILLAGE, C_WOODCUTTER,
      C_WORKSHOP}},
    {"high-seas",
     "High Seas (Auf hoher See)",
     {C_LOOKOUT, C_BAZAAR, C_EMBARGO, C_EXPLORER, C_HAVEN, C_ISLAND, C_CARAVAN, C_PIRATE_SHIP,
      C_SMUGGLERS, C_WHARF}},
    {"buried-treasure",
     "Buried Treasure (Vergrabene Schaetze)",
     {C_OUTPOST, C_CUTPURSE, C_AMBASSADOR, C_FISHING_VILLAGE, C_WAREHOUSE, C_LIGHTHOUSE,
      C_PEARL_DIVER, C_TREASURE_MAP, C_TACTICIAN, C_WHARF}},
    {"shipwrecks",
     "Shipwrecks (Schiffswracks)",
     {C_NATIVE_VILLAGE, C_GHOST_SHIP, C_MERCHANT_SHIP, C_WAREHOUSE, C_SALVAGER, C_NAVIGATOR,
      C_PEARL_DIVER, C_TREASURY, C_SMUGGLERS, C_SEA_HAG}},
    {"reach-for-tomorrow",
     "Reach for Tomorrow (Griff nach den Sternen)",
     {C_LOOKOUT, C_CUTPURSE, C_GHOST_SHIP, C_TREASURE_MAP, C_SEA_HAG, C_ADVENTURER, C_VILLAGE,
      C_CELLAR, C_COUNCIL_ROOM, C_SPY}},
    {"repetition",
     "Repetition (Wiederholungen)",
     {C_OUTPOST, C_EXPLORER, C_CARAVAN, C_PEARL_DIVER, C_PIRATE_SHIP, C_TREASURY, C_FESTIVAL,
      C_CHANCELLOR, C_MILITIA, C_WORKSHOP}},
    {"give-and-take",
     "Give and Take (Geben und Nehmen)",
     {C_AMBASSADOR, C_FISHING_VILLAGE, C_HAVEN, C_ISLAND, C_SALVAGER, C_SMUGGLERS, C_LIBRARY,
      C_MONEYLENDER, C_WITCH, C_MARKET}},
};
const int dom_n_kingdom_sets = sizeof dom_kingdom_sets / sizeof dom_kingdom_sets[0];
