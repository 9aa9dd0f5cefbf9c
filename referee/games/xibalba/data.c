/* Xibalba's designed data: every value the rulebook leaves OPEN lives in this
 * one table (faction boards, dice faces, the 176 cards). Designed for this
 * referee, not taken from the printed game; docs/games/xibalba.md explains
 * each choice. */
#include "xibalba.h"

const char *const xb_family_names[XB_FAMILIES] = {"soldier", "civilian", "building", "event"};
const char *const xb_phase_names[XB_PHASES] = {"effect", "dice", "action", "permanent"};
const char *const xb_effect_names[XE_EFFECTS] = {
    "none",        "gain_res",   "gain_paragon",     "roll_paragon", "heal_ark",    "tithe",
    "smuggle",     "reroll",     "paragon_die",      "blank_res",    "buy_paragon", "field_medic",
    "forge",       "attack_str", "attack_res",       "base_res",     "prod",        "pool",
    "reroll_perm", "guard",      "upgrade_discount", "block_bonus",  "ark_armor",   "ev_tribute",
    "ev_paragon",  "ev_omen",    "ev_sabotage",      "ev_raid",      "ev_barrage",  "ev_reinforce",
    "ev_arms",
};
const char *const xb_face_names[XF_FACES] = {"blank", "res1", "res2", "res3",
                                             "atk",   "crit", "par1", "par2"};

/* Resource die: 9/6 symbols on average; attack die: 3 attacks, 1 critical;
 * paragon die: 2/3 paragon on average, so Ark income stays a trickle. */
const uint8_t xb_die_faces[3][6] = {
    {XF_BLANK, XF_RES1, XF_RES1, XF_RES2, XF_RES2, XF_RES3},
    {XF_BLANK, XF_BLANK, XF_ATK, XF_ATK, XF_ATK, XF_CRIT},
    {XF_BLANK, XF_BLANK, XF_BLANK, XF_PAR1, XF_PAR1, XF_PAR2},
};

/* Paragon targets (the rulebook recommends 30-40, 20-30, 10-20 and lets
 * players agree on any): the middle of each range, except where a game could
 * end before every seat had a turn. 4 players: 18 (at 15, 5 of 20000
 * heuristic games did); Apocalypse 4 players: 24 (at 15, 3 % did; at 20,
 * 0.1 %). docs/games/xibalba.md has the measurements. */
const uint8_t xb_default_targets[2][3] = {{35, 25, 18}, {35, 25, 24}};

/* Two factions share one board (its two sides): factions 2k and 2k+1. Level
 * costs stay within the rulebook's ranges (3-4, 5-6, 7-8). Resistance,
 * productivity and medicine are the same on every board: the heuristic and
 * the search bot value them differently, so no trade between them was fair
 * to both; boards differ in upgrade path and general-action prices. Tuned
 * with bench/xibalba/balance to 50 +- 3 % in 2-player games and within 3
 * points of fair at 3-4 players, both modes, in heuristic self-play
 * (docs/games/xibalba.md has the search bot's figures). upgrade_cost[0] is
 * unused. */
const xb_faction xb_factions[XB_FACTIONS] = {
    {"Jaguar Clan", {0, 3, 6, 8}, {4, 5, 6, 7}, {1, 2, 2, 3}, 1, 1, 3, 2, 3, 4},
    {"Eagle Order", {0, 3, 6, 8}, {4, 5, 6, 7}, {1, 2, 2, 3}, 1, 1, 3, 3, 4, 3},
    {"Serpent Cult", {0, 3, 6, 8}, {4, 5, 6, 7}, {1, 2, 2, 3}, 1, 2, 3, 2, 4, 4},
    {"Obsidian Guard", {0, 3, 6, 8}, {4, 5, 6, 7}, {1, 2, 2, 3}, 1, 2, 3, 3, 3, 4},
    {"Sun Priests", {0, 3, 6, 8}, {4, 5, 6, 7}, {1, 2, 2, 3}, 1, 1, 3, 3, 4, 3},
    {"River Traders", {0, 4, 5, 8}, {4, 5, 6, 7}, {1, 2, 2, 3}, 1, 1, 3, 3, 4, 4},
    {"Bone Legion", {0, 4, 6, 7}, {4, 5, 6, 7}, {1, 2, 2, 3}, 1, 2, 3, 3, 3, 5},
    {"Storm Riders", {0, 3, 6, 8}, {4, 5, 6, 7}, {1, 2, 2, 3}, 1, 1, 3, 3, 2, 3},
};

#define S(n, f, c, ph, e, a, st, r, p)                                                             \
    {                                                                                              \
        n, XB_SOLDIER, f, c, ph, e, a, st, r, p, 4                                                 \
    }
#define C(n, f, c, ph, e, a)                                                                       \
    {                                                                                              \
        n, XB_CIVILIAN, f, c, ph, e, a, 0, 0, 0, 4                                                 \
    }
#define B(n, f, c, ph, e, a)                                                                       \
    {                                                                                              \
        n, XB_BUILDING, f, c, ph, e, a, 0, 0, 0, 4                                                 \
    }
#define E(n, f, c, e, a)                                                                           \
    {                                                                                              \
        n, XB_EVENT, f, c, XB_PH_ACTION, e, a, 0, 0, 0, 4                                          \
    }

/* 16 soldiers, 12 civilians, 8 buildings, 8 events; 4 copies each:
 * 64 + 48 + 32 + 32 = 176 cards. */
const xb_card_type xb_default_cards[] = {
    S("Recruit", 0, 2, XB_PH_PERMANENT, XE_BLOCK_BONUS, 1, 1, 2, 1),
    S("Slinger", 1, 3, XB_PH_ACTION, XE_ATTACK_RES, 1, 2, 2, 1),
    S("Spearman", 2, 3, XB_PH_PERMANENT, XE_BLOCK_BONUS, 1, 2, 3, 1),
    S("Scout", 3, 3, XB_PH_DICE, XE_REROLL, 1, 1, 3, 1),
    S("Jaguar Warrior", 0, 5, XB_PH_ACTION, XE_ATTACK_STR, 1, 3, 3, 1),
    S("Eagle Warrior", 1, 5, XB_PH_EFFECT, XE_GAIN_RES, 1, 3, 4, 1),
    S("Gunslinger", 7, 5, XB_PH_ACTION, XE_ATTACK_RES, 1, 3, 3, 2),
    S("Flame Maiden", 4, 6, XB_PH_PERMANENT, XE_ARK_ARMOR, 2, 3, 4, 2),
    S("Shieldbearer", 3, 6, XB_PH_PERMANENT, XE_BLOCK_BONUS, 2, 2, 6, 1),
    S("Bomber", 6, 7, XB_PH_ACTION, XE_ATTACK_STR, 1, 4, 4, 2),
    S("Veteran", 5, 7, XB_PH_EFFECT, XE_HEAL_ARK, 1, 4, 5, 2),
    S("Berserker", 6, 7, XB_PH_ACTION, XE_ATTACK_STR, 1, 5, 3, 2),
    S("Champion", 2, 8, XB_PH_PERMANENT, XE_ARK_ARMOR, 2, 4, 6, 2),
    S("Sentinel", 3, 8, XB_PH_EFFECT, XE_HEAL_ARK, 2, 3, 7, 2),
    S("Warlord", 7, 9, XB_PH_DICE, XE_PARAGON_DIE, 1, 5, 5, 3),
    S("Avatar", 4, 9, XB_PH_EFFECT, XE_ROLL_PARAGON, 1, 5, 6, 3),

    C("Farmer", 5, 2, XB_PH_EFFECT, XE_GAIN_RES, 1),
    C("Trader", 5, 4, XB_PH_EFFECT, XE_GAIN_RES, 2),
    C("Smuggler", 2, 3, XB_PH_EFFECT, XE_SMUGGLE, 3),
    C("Priest", 4, 4, XB_PH_EFFECT, XE_TITHE, 1),
    C("Seer", 4, 3, XB_PH_DICE, XE_REROLL, 1),
    C("Shaman", 2, 5, XB_PH_DICE, XE_PARAGON_DIE, 1),
    C("Scavenger", 6, 2, XB_PH_ACTION, XE_BLANK_RES, 1),
    C("Relic Dealer", 5, 4, XB_PH_ACTION, XE_BUY_PARAGON, 3),
    C("Healer", 1, 3, XB_PH_ACTION, XE_FIELD_MEDIC, 2),
    C("Engineer", 3, 3, XB_PH_PERMANENT, XE_UPGRADE_DISCOUNT, 1),
    C("Tactician", 0, 5, XB_PH_PERMANENT, XE_REROLL_PERM, 1),
    C("Guard", 3, 4, XB_PH_PERMANENT, XE_GUARD, 1),

    B("Palisade", 6, 3, XB_PH_PERMANENT, XE_BASE_RES, 1),
    B("Fortress", 3, 6, XB_PH_PERMANENT, XE_BASE_RES, 2),
    B("Workshop", 5, 4, XB_PH_PERMANENT, XE_PROD, 1),
    B("Armory", 0, 5, XB_PH_PERMANENT, XE_POOL, 1),
    B("Temple", 4, 5, XB_PH_EFFECT, XE_ROLL_PARAGON, 1),
    B("Observatory", 1, 4, XB_PH_DICE, XE_REROLL, 1),
    B("Market", 5, 3, XB_PH_ACTION, XE_BLANK_RES, 2),
    B("Forge", 7, 4, XB_PH_ACTION, XE_FORGE, 2),

    E("Tribute", 5, 3, XE_EV_TRIBUTE, 1),
    E("Offering", 4, 4, XE_EV_PARAGON, 2),
    E("Omen", 2, 3, XE_EV_OMEN, 2),
    E("Sabotage", 6, 3, XE_EV_SABOTAGE, 1),
    E("Raid", 7, 2, XE_EV_RAID, 2),
    E("Barrage", 0, 4, XE_EV_BARRAGE, 3),
    E("Reinforcements", 3, 3, XE_EV_REINFORCE, 3),
    E("Call to Arms", 1, 3, XE_EV_ARMS, 2),
};

const int xb_default_card_types = (int)(sizeof xb_default_cards / sizeof xb_default_cards[0]);
