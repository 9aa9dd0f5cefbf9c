/* Xibalba: state, designed data and the internal API shared by the engine,
 * the card-file loader, the built-in bots and the tests. The game is reached
 * by everyone else only through xibalba_game (game.h). */
#ifndef ARENA_XIBALBA_H
#define ARENA_XIBALBA_H

#include <stdbool.h>
#include <stdint.h>

#include "events.h"
#include "game.h"
#include "game_rng.h"

#define XB_MAX_PLAYERS 4
#define XB_SLOTS 4
#define XB_LEVELS 4
#define XB_MAX_TYPES 96
#define XB_FAM_MAX 128 /* most cards one family may hold (stack capacity) */
#define XB_POOL_MAX 24 /* most dice one pool may hold */
#define XB_MAX_REROLLS 4
#define XB_MAX_POOL 8  /* 4 resource + 4 attack dice */
#define XB_TYPE_DICE 4 /* "niemals mehr als 4 Würfel desselben Typs" */
#define XB_PAR_DICE 2  /* the box holds 2 paragon dice */
#define XB_RES_CAP 25
#define XB_PAR_CAP 40
#define XB_HELD_MAX (3 * XB_FAM_MAX) /* cards lifted by one reorganize */
#define XB_TURN_ACTION_CAP 200       /* safety: actions per turn before a forced end */
#define XB_EFFECT_MAX 8              /* active cards: squad top, Ark, 4 slots */

enum xb_family { XB_SOLDIER, XB_CIVILIAN, XB_BUILDING, XB_EVENT, XB_FAMILIES };
enum xb_phase { XB_PH_EFFECT, XB_PH_DICE, XB_PH_ACTION, XB_PH_PERMANENT, XB_PHASES };

/* Card effects. Each card has one, with an integer argument. */
enum xb_effect {
    XE_NONE,
    /* EFFECT phase (mandatory, start of the owner's turn) */
    XE_GAIN_RES,     /* +arg resources */
    XE_GAIN_PARAGON, /* +arg paragon */
    XE_ROLL_PARAGON, /* roll arg paragon dice, gain the symbols */
    XE_HEAL_ARK,     /* own Ark soldier +arg life */
    XE_TITHE,        /* pay 2 resources (if possible) for +arg paragon */
    XE_SMUGGLE,      /* +arg resources, -1 paragon */
    /* DICE phase (mandatory, after the pool is chosen) */
    XE_REROLL,      /* +arg re-rolls this turn */
    XE_PARAGON_DIE, /* +arg paragon dice in the pool */
    /* ACTION: upgrade cards are used as an action; soldiers when attacking */
    XE_BLANK_RES,   /* spend a blank die: +arg resources */
    XE_BUY_PARAGON, /* pay arg resources: +1 paragon */
    XE_FIELD_MEDIC, /* pay 1 resource: own Ark soldier +arg life */
    XE_FORGE,       /* pay arg resources: roll an attack die into the action pool */
    XE_ATTACK_STR,  /* this soldier's attacks +arg strength */
    XE_ATTACK_RES,  /* +arg resources whenever this soldier attacks */
    /* PERMANENT */
    XE_BASE_RES,         /* base resistance +arg */
    XE_PROD,             /* productivity +arg */
    XE_POOL,             /* dice pool size +arg */
    XE_REROLL_PERM,      /* +arg re-rolls every turn */
    XE_GUARD,            /* paragon stolen from this base -arg */
    XE_UPGRADE_DISCOUNT, /* base upgrades cost arg less (at least 1) */
    XE_BLOCK_BONUS,      /* soldier: +arg resistance when blocking */
    XE_ARK_ARMOR,        /* soldier: +arg life when entering the Ark */
    /* Events, resolved at once when bought */
    XE_EV_TRIBUTE,   /* take arg resources from every opponent */
    XE_EV_PARAGON,   /* +arg paragon */
    XE_EV_OMEN,      /* roll arg paragon dice */
    XE_EV_SABOTAGE,  /* destroy one upgrade card of an opponent */
    XE_EV_RAID,      /* every opponent loses arg resources */
    XE_EV_BARRAGE,   /* arg damage to an enemy Ark soldier */
    XE_EV_REINFORCE, /* own Ark soldier +arg life */
    XE_EV_ARMS,      /* roll arg attack dice into the action pool */
    XE_EFFECTS
};

enum xb_die_kind { XB_DIE_RES, XB_DIE_ATK, XB_DIE_PAR };
enum xb_face { XF_BLANK, XF_RES1, XF_RES2, XF_RES3, XF_ATK, XF_CRIT, XF_PAR1, XF_PAR2, XF_FACES };

typedef struct xb_card_type {
    char name[32];
    uint8_t family, faction, cost, phase, effect, arg;
    uint8_t str, res, par; /* soldiers only */
    uint8_t copies;
} xb_card_type;

typedef struct xb_cardset {
    int n_types;
    xb_card_type t[XB_MAX_TYPES];
    int n_cards;                               /* card instances */
    int16_t type_of[XB_FAM_MAX * XB_FAMILIES]; /* instance -> type */
    int fam_count[XB_FAMILIES];
} xb_cardset;

typedef struct xb_faction {
    const char *name;
    int upgrade_cost[XB_LEVELS]; /* [1..3]: cost to reach level 2..4 */
    int resistance[XB_LEVELS];
    int productivity[XB_LEVELS];
    /* general actions */
    int discard, reorganize, medicine, weapon_tech, tactical, harvest;
} xb_faction;

#define XB_FACTIONS 8

/* The designed data table (data.c). */
extern const xb_faction xb_factions[XB_FACTIONS];
extern const uint8_t xb_die_faces[3][6];
/* Default paragon target by mode (0 normal, 1 Apocalypse) and players - 2. */
extern const uint8_t xb_default_targets[2][3];
extern const xb_card_type xb_default_cards[];
extern const int xb_default_card_types;
extern const char *const xb_family_names[XB_FAMILIES];
extern const char *const xb_phase_names[XB_PHASES];
extern const char *const xb_effect_names[XE_EFFECTS];
extern const char *const xb_face_names[XF_FACES];

/* Fills cs from a type list (copies expanded). Returns false with a message
 * when a family exceeds its capacity or lacks cards. */
bool xb_cardset_build(xb_cardset *cs, const xb_card_type *types, int n, char *err, size_t errlen);
/* Loads a card file (format in docs/games/xibalba.md), at most
 * XB_CARDFILE_MAX bytes. */
#define XB_CARDFILE_MAX (1 << 20)
bool xb_cardset_load(xb_cardset *cs, const char *path, char *err, size_t errlen);
/* Parses a card file's text; errors name `path` and the line. */
bool xb_cardset_parse(xb_cardset *cs, const char *text, const char *path, char *err, size_t errlen);
/* The card set a match log recorded: json is its header's options (the
 * game's settings(): "cards", the set's name, copied into name, and
 * "card_types"), as ARENA_GAME_FROM_LOG passes them. Opens no file. */
bool xb_cardset_from_options(xb_cardset *cs, const char *json, char *name, size_t namelen,
                             char *err, size_t errlen);

typedef struct xb_stack {
    int16_t n;
    int16_t c[XB_FAM_MAX]; /* bottom .. top */
} xb_stack;

typedef struct xb_die {
    uint8_t kind, face;
} xb_die;

typedef struct xb_player {
    int faction, level; /* level 0..3 (printed 1..4) */
    int res, par;
    bool upgraded; /* base upgraded this round */
    xb_stack squad;
    xb_stack slot[XB_SLOTS];
} xb_player;

/* Active card locations (for pending effects). */
enum { XB_LOC_SQUAD = 0, XB_LOC_ARK = 1, XB_LOC_SLOT0 = 2 };

enum xb_step {
    XS_EFFECT,      /* choose which EFFECT card resolves next */
    XS_POOL,        /* choose the dice pool */
    XS_DICE_EFFECT, /* choose which DICE card resolves next */
    XS_KEEP,        /* choose dice to move into the action pool */
    XS_ACTION,      /* choose an action */
    XS_ATTACK_DICE, /* choose attack dice for the attack */
    XS_BLOCK,       /* defender: block or not */
    XS_DESTROY,     /* choose an upgrade card to destroy (after a hit: or keep) */
    XS_PLACE,       /* choose a slot for a bought card */
    XS_REORG,       /* reorganize: place the next lifted card */
    XS_OVER
};

typedef struct xb_game {
    arena_game base;
    xb_cardset cs;
    char cards_name[256];
    int players, apocalypse, target, max_rounds;
    game_rng rng;
    xb_stack deck[XB_FAMILIES], discard[XB_FAMILIES];
    int16_t market[XB_FAMILIES][2]; /* -1: empty */
    int market_slots;
    int ark_card, ark_owner, ark_life; /* card -1: empty; owner -1: uncontrolled */
    xb_player p[XB_MAX_PLAYERS];
    int cur, start_player, turns, winner;
    bool limit_reached;
    int step;
    /* turn state */
    int rerolls_left, turn_actions;
    xb_die roll[XB_POOL_MAX];
    int n_roll;
    xb_die act[XB_POOL_MAX];
    int n_act;
    int pending[XB_EFFECT_MAX];
    int n_pending;
    uint8_t dice_used[3]; /* by kind: taken from the box this turn (max 4, paragon 2) */
    /* attack / destroy / place / reorganize in progress */
    int atk_target;    /* -1: Ark, else defender seat */
    int atk_strength;  /* of the attack awaiting a block */
    int destroy_steal; /* seat to steal paragon from after XS_DESTROY, or -1 */
    int destroy_only;  /* destroy candidates limited to this seat, or -1 (all opponents) */
    bool destroy_may;  /* XS_DESTROY after a hit: the rulebook's "darf", so "keep" is offered */
    int place_card;    /* card awaiting a slot, or -1 */
    /* reorganize: the player's stacks are lifted and rebuilt card by card,
     * bottom up; these are the cards not yet placed again */
    int16_t held[XB_HELD_MAX];
    int n_held;
} xb_game;

extern const arena_game_vt xibalba_game;

/* Helpers for bots and tests. The two lookups are inline: the search bots
 * call them millions of times a game. */
static inline const xb_card_type *xb_type(const xb_game *g, int card)
{
    return &g->cs.t[g->cs.type_of[card]];
}
int xb_base_resistance(const xb_game *g, int seat);
int xb_productivity(const xb_game *g, int seat);
int xb_ark_max(const xb_game *g);
int xb_upgrade_cost(const xb_game *g, int seat);
/* A market card's price: Apocalypse makes every card 1 cheaper, never below 1. */
static inline int xb_market_cost(const xb_game *g, int card)
{
    int c = xb_type(g, card)->cost - (g->apocalypse ? 1 : 0);
    return c < 1 ? 1 : c;
}
/* Paragon target default by player count and mode (xb_default_targets). */
int xb_default_target(int players, bool apocalypse);

#endif
