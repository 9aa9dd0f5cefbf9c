/* Named kingdoms: Base "First Game" and the six sets of the Seaside
 * rulebook (German names in the titles). */
#include <stdio.h>
#include <string.h>

#include "engine.h"

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

static void list_valid(char *err, size_t errlen, const char *prefix)
{
    size_t off = (size_t)snprintf(err, errlen, "%s; named sets: random", prefix);
    for (int i = 0; i < dom_n_kingdom_sets && off < errlen; i++)
        off += (size_t)snprintf(err + off, errlen - off, ", %s", dom_kingdom_sets[i].id);
    if (off < errlen) off += (size_t)snprintf(err + off, errlen - off, "; cards:");
    for (int c = DOM_FIRST_KINGDOM; c < DOM_NCARDS && off < errlen; c++)
        off += (size_t)snprintf(err + off, errlen - off, "%s%s", c == DOM_FIRST_KINGDOM ? " " : ",",
                                dom_cards[c].name);
}

/* Parses the kingdom setting into k[10]; random uses the game rng. */
bool dom_parse_kingdom(const char *v, dom_game *g, char *err, size_t errlen)
{
    if (strcmp(v, "random") == 0) {
        int pool[DOM_N_KINGDOM_CARDS];
        for (int i = 0; i < DOM_N_KINGDOM_CARDS; i++)
            pool[i] = DOM_FIRST_KINGDOM + i;
        for (int i = 0; i < 10; i++) {
            int j = i + (int)game_rng_below(&g->rng, (uint32_t)(DOM_N_KINGDOM_CARDS - i));
            int t = pool[i];
            pool[i] = pool[j];
            pool[j] = t;
            g->kingdom[i] = (uint8_t)pool[i];
        }
        snprintf(g->kingdom_id, sizeof g->kingdom_id, "random");
        return true;
    }
    for (int i = 0; i < dom_n_kingdom_sets; i++)
        if (strcmp(v, dom_kingdom_sets[i].id) == 0) {
            memcpy(g->kingdom, dom_kingdom_sets[i].cards, 10);
            snprintf(g->kingdom_id, sizeof g->kingdom_id, "%s", v);
            return true;
        }
    if (!strchr(v, ',')) {
        char msg[128];
        snprintf(msg, sizeof msg, "unknown kingdom '%.60s' (give a named set or 10 cards)", v);
        list_valid(err, errlen, msg);
        return false;
    }
    int n = 0;
    const char *s = v;
    uint64_t seen = 0;
    while (*s) {
        const char *e = strchr(s, ',');
        size_t len = e ? (size_t)(e - s) : strlen(s);
        while (len && (*s == ' '))
            s++, len--;
        while (len && s[len - 1] == ' ')
            len--;
        char name[40];
        if (len >= sizeof name) len = sizeof name - 1;
        memcpy(name, s, len);
        name[len] = 0;
        int c = dom_card_by_name(name);
        if (c < DOM_FIRST_KINGDOM) {
            char msg[128];
            snprintf(msg, sizeof msg, "unknown kingdom card '%s'", name);
            list_valid(err, errlen, msg);
            return false;
        }
        if (seen >> c & 1) {
            snprintf(err, errlen, "kingdom card '%s' given twice", name);
            return false;
        }
        seen |= 1ull << c;
        if (n >= 10) {
            snprintf(err, errlen, "kingdom needs exactly 10 cards, got more");
            return false;
        }
        g->kingdom[n++] = (uint8_t)c;
        if (!e) break;
        s = e + 1;
    }
    if (n != 10) {
        snprintf(err, errlen, "kingdom needs exactly 10 cards, got %d", n);
        return false;
    }
    snprintf(g->kingdom_id, sizeof g->kingdom_id, "custom");
    return true;
}
