/* Dominion (Base + Seaside, first editions): the game state, public so that
 * built-in bots can read it directly (only what their seat may see).
 *
 * Everything lives in fixed-size arrays inside one struct: clone is a
 * memcpy and the hot path never allocates. */
#ifndef DOMINION_STATE_H
#define DOMINION_STATE_H

#include <stdbool.h>
#include <stdint.h>

#include "events.h"
#include "game.h"
#include "game_rng.h"

enum dom_card_id {
    /* basic supply */
    C_COPPER,
    C_SILVER,
    C_GOLD,
    C_ESTATE,
    C_DUCHY,
    C_PROVINCE,
    C_CURSE,
    /* Base */
    C_ADVENTURER,
    C_BUREAUCRAT,
    C_CELLAR,
    C_CHANCELLOR,
    C_CHAPEL,
    C_COUNCIL_ROOM,
    C_FEAST,
    C_FESTIVAL,
    C_GARDENS,
    C_LABORATORY,
    C_LIBRARY,
    C_MARKET,
    C_MILITIA,
    C_MINE,
    C_MOAT,
    C_MONEYLENDER,
    C_REMODEL,
    C_SMITHY,
    C_SPY,
    C_THIEF,
    C_THRONE_ROOM,
    C_VILLAGE,
    C_WITCH,
    C_WOODCUTTER,
    C_WORKSHOP,
    /* Seaside */
    C_AMBASSADOR,
    C_BAZAAR,
    C_CARAVAN,
    C_CUTPURSE,
    C_EMBARGO,
    C_EXPLORER,
    C_FISHING_VILLAGE,
    C_GHOST_SHIP,
    C_HAVEN,
    C_ISLAND,
    C_LIGHTHOUSE,
    C_LOOKOUT,
    C_MERCHANT_SHIP,
    C_NATIVE_VILLAGE,
    C_NAVIGATOR,
    C_OUTPOST,
    C_PEARL_DIVER,
    C_PIRATE_SHIP,
    C_SALVAGER,
    C_SEA_HAG,
    C_SMUGGLERS,
    C_TACTICIAN,
    C_TREASURE_MAP,
    C_TREASURY,
    C_WAREHOUSE,
    C_WHARF,
    DOM_NCARDS
};
#define DOM_FIRST_KINGDOM C_ADVENTURER
#define DOM_N_KINGDOM_CARDS (DOM_NCARDS - DOM_FIRST_KINGDOM)

enum dom_type {
    T_TREASURE = 1,
    T_VICTORY = 2,
    T_CURSE = 4,
    T_ACTION = 8,
    T_ATTACK = 16,
    T_REACTION = 32,
    T_DURATION = 64,
};

/* One row of the card table. Simple effects are data; cards with a special
 * part also have a hook in effects.c. */
typedef struct dom_card_info {
    const char *name;
    uint8_t set; /* 0 basic, 1 Base, 2 Seaside */
    uint8_t cost;
    uint8_t types;
    int8_t cards, actions, buys, coins; /* on play (coins: treasure value too) */
    int8_t vp;                          /* fixed VP (Gardens is computed) */
    /* next-turn part of a Duration, applied once per resolution */
    int8_t d_cards, d_actions, d_buys, d_coins;
    bool d_always; /* the duration part always happens (else the hook decides) */
} dom_card_info;

extern const dom_card_info dom_cards[DOM_NCARDS];
int dom_card_by_name(const char *name); /* case-insensitive; -1 if unknown */

/* Named kingdoms. */
typedef struct dom_kingdom_set {
    const char *id;
    const char *title;
    uint8_t cards[10];
} dom_kingdom_set;
extern const dom_kingdom_set dom_kingdom_sets[];
extern const int dom_n_kingdom_sets;

/* Every card a player owns sits in one of these zones (or the Trash or the
 * Supply when not owned). */
enum dom_zone_id {
    Z_DECK,    /* top = last */
    Z_HAND,    /* unordered */
    Z_DISCARD, /* top = last */
    Z_PLAY,    /* played this turn */
    Z_DUR,     /* Durations (and their Throne Rooms) kept from last turn */
    Z_NVMAT,   /* Native Village mat: owner may look */
    Z_ISLAND,  /* Island mat: public */
    Z_HAVEN,   /* Haven set-aside: face down */
    Z_ASIDE,   /* revealed / looked at / set aside while a card resolves */
    Z_COUNT
};

#define DOM_ZCAP 320 /* more than every card of a game (312 at most) */
#define DOM_OPTCAP 340
#define DOM_STACK 48
#define DOM_MAX_PLAYERS 4

typedef struct dom_zone {
    uint16_t n;
    uint8_t c[DOM_ZCAP];
} dom_zone;

typedef struct dom_player {
    dom_zone z[Z_COUNT];
    int coin_tokens;               /* Pirate Ship */
    int turns;                     /* turns taken, Outpost extra turns not counted */
    uint64_t gained_last;          /* card ids gained during the player's last turn (Smugglers) */
    uint8_t stay[DOM_NCARDS];      /* copies in play to keep through this Clean-up */
    uint16_t dur_next[DOM_NCARDS]; /* Duration resolutions due at the next turn */
    bool any_dur, any_stay;        /* skip the scans above when nothing is due */
    /* Who knows which card lies in a slot, for determinize: deck_seen[i]
     * (SEEN_* bits) for deck slot i, disc_seen[i] (SEEN_ALL or 0) for
     * discard slot i. Set whenever a card is put there; slots at or above
     * the zone's n are stale. The owner always knows its discard pile. */
    uint8_t deck_seen[DOM_ZCAP];
    uint8_t disc_seen[DOM_ZCAP];
    /* copies of each card everyone knows are in the hand (gained to or
     * revealed in it); cleared when the owner moves hand cards unseen */
    uint8_t hand_seen[DOM_NCARDS];
} dom_player;
enum { SEEN_OWNER = 1, SEEN_ALL = 2 };

/* A resumable step of resolution: a turn, the play of a card, a reaction
 * window. Card hooks keep their locals here. */
typedef struct dom_frame {
    uint8_t kind; /* FR_* */
    uint8_t card;
    uint8_t step;
    uint8_t flags;
    int8_t player;
    int16_t a, b, c;
    uint32_t mask;
} dom_frame;

/* The pending decision. An option is (special << 6) | card: special 0 is a
 * card labelled with the decision's prefix ("card:", "play:", "buy:"), other
 * specials are fixed words optionally followed by ":<Card>" (card 63 = none). */
#define DOM_NOCARD 63
typedef struct dom_decision {
    int8_t seat;
    uint8_t kind;   /* DK_* */
    uint8_t prefix; /* PFX_* */
    bool ordered;
    int16_t n, pmin, pmax;
    int16_t opt[DOM_OPTCAP];
} dom_decision;

typedef struct dom_game {
    arena_game base;
    int np;
    dom_player p[DOM_MAX_PLAYERS];
    uint8_t supply[DOM_NCARDS];
    bool in_supply[DOM_NCARDS];
    uint8_t embargo[DOM_NCARDS];
    uint16_t trash[DOM_NCARDS];
    uint8_t kingdom[10];
    uint8_t piles[DOM_FIRST_KINGDOM + 10]; /* Supply piles in card order */
    int npiles;
    char kingdom_id[24];
    int total_cards; /* conservation invariant */
    int max_turns;   /* per player, 1..1000 */

    int cur;         /* active seat */
    int turn;        /* turns played so far, all seats, extra turns included */
    bool extra_turn; /* the current turn is an Outpost turn */
    bool outpost;    /* an Outpost this turn grants the extra turn */
    bool bought_victory;
    uint64_t emptied; /* piles (bit = card id) empty at some moment this turn */
    int actions, buys, coins;
    bool over;

    dom_frame st[DOM_STACK];
    int sp;
    dom_decision dec;
    bool has_dec;
    int16_t ans[DOM_OPTCAP];
    int nans;

    game_rng rng;
} dom_game;

extern const arena_game_vt dominion_game;

/* Helpers shared by engine, view and bots. */
static inline int dom_count(const dom_zone *z, int card)
{
    int k = 0;
    for (int i = 0; i < z->n; i++)
        k += z->c[i] == card;
    return k;
}
int dom_owned(const dom_game *g, int seat); /* cards owned */
int dom_score(const dom_game *g, int seat); /* VP now */
int dom_owned_count(const dom_game *g, int seat, int card);
const char *dom_kind_name(int kind);
/* Tests only: starts a fresh turn of seat (after setting zones by hand). */
void dom_test_begin_turn(dom_game *g, int seat);
int dom_empty_piles(const dom_game *g);

/* Decision kinds (the "kind" strings are in engine.c). */
enum dom_kind {
    DK_ACTION,
    DK_BUY,
    DK_MOAT,
    DK_CELLAR,
    DK_CHAPEL,
    DK_CHANCELLOR,
    DK_WORKSHOP,
    DK_BUREAUCRAT,
    DK_FEAST,
    DK_MILITIA,
    DK_REMODEL_TRASH,
    DK_REMODEL_GAIN,
    DK_SPY,
    DK_THIEF_TRASH,
    DK_THIEF_GAIN,
    DK_THRONE_ROOM,
    DK_LIBRARY,
    DK_MINE_TRASH,
    DK_MINE_GAIN,
    DK_EMBARGO,
    DK_HAVEN,
    DK_NATIVE_VILLAGE,
    DK_PEARL_DIVER,
    DK_AMBASSADOR_REVEAL,
    DK_AMBASSADOR_RETURN,
    DK_LOOKOUT_TRASH,
    DK_LOOKOUT_DISCARD,
    DK_SMUGGLERS,
    DK_WAREHOUSE,
    DK_ISLAND,
    DK_NAVIGATOR_MODE,
    DK_NAVIGATOR_ORDER,
    DK_PIRATE_MODE,
    DK_PIRATE_TRASH,
    DK_SALVAGER,
    DK_EXPLORER,
    DK_GHOST_SHIP,
    DK_TREASURY,
    DK_COUNT
};

/* Special option words. */
enum dom_special {
    SP_NONE,
    SP_END_ACTIONS,
    SP_END_TURN,
    SP_REVEAL,
    SP_PASS,
    SP_DISCARD,
    SP_KEEP,
    SP_SET_ASIDE,
    SP_TO_MAT,
    SP_TAKE_MAT,
    SP_ATTACK,
    SP_COINS,
    SP_TOP,
    SP_GAIN,
    SP_DISCARD_DECK,
    SP_COUNT
};
enum { PFX_CARD, PFX_PLAY, PFX_BUY };

static inline int dom_opt_card(int opt)
{
    return opt & 63;
}
static inline int dom_opt_special(int opt)
{
    return opt >> 6;
}

#endif
