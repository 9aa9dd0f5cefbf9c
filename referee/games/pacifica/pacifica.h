/* Pacifica: internal state and helpers shared by the engine, the card-file
 * parser, the built-in bots and the tests. Everything outside agents/pacifica
 * and tests/pacifica goes through the game vtable only. */
#ifndef ARENA_PACIFICA_H
#define ARENA_PACIFICA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "events.h"
#include "game.h"
#include "game_rng.h"

enum {
    PC_TREASURE,
    PC_POPULATION,
    PC_RESOURCES,
    PC_ARCHITECTURE,
    PC_KNOWLEDGE,
    PC_MACHINES,
    PC_FESTIVAL,
    PC_NCAT
};

/* Symbols printed on cards. Stone and brass are both Resources. */
enum { PS_T, PS_P, PS_S, PS_B, PS_A, PS_K, PS_M, PS_F, PS_NSYM };
/* Requirement letters additionally know R = "stone or brass". */
enum { PR_R = PS_NSYM, PR_NREQ };

enum { PA_GREEN, PA_GREY, PA_RED };

typedef enum {
    PE_NONE,
    /* City Festival, one-time at activation */
    PE_SEARCH,      /* search a stack, put 1 card of it into your city */
    PE_MACHINE_TOP, /* top card of the Machines stack into your city */
    PE_FILL_HAND,   /* draw until your hand limit is reached */
    PE_COPY,        /* carry out another Festival card's effect (either city) */
    PE_DRAW,        /* draw arg cards from any stacks */
    PE_TEMP,        /* temporary symbols (temp[]) for an idol check */
    /* Machines, permanent while active */
    PE_SWAP_RES,       /* stone and brass stand in for each other */
    PE_HAND_LIMIT,     /* hand limit becomes arg */
    PE_START_DRAW,     /* start of turn: may draw 1 card of category arg */
    PE_FESTIVAL_BONUS, /* drawing from the Festival stack: draw 1 more */
} pac_effect;

#define PAC_NCARDS 112
#define PAC_PER_CAT 16
#define PAC_ID_LEN 16
#define PAC_NAME_LEN 12
#define PAC_MAX_SLOTS 4
#define PAC_HAND_CAP 8
#define PAC_TASK_CAP 32
#define PAC_NIDOLS 8 /* 7 categories + diversity (index 7) */
#define PAC_DIVERSITY 7
#define PAC_SECURED 3 /* idol level index meaning "secured" */
#define PAC_TURN_CAP 600
#define PAC_SEEN_ALL 3u

typedef struct pac_card {
    char id[PAC_ID_LEN];
    char name[PAC_NAME_LEN]; /* what people read ("Hoard"); copies share one */
    uint8_t cat, act;
    uint8_t sym[PS_NSYM];         /* symbols shown */
    uint8_t need[PR_NREQ];        /* grey: symbols on other active cards */
    uint8_t slots[PAC_MAX_SLOTS]; /* red: discard letters, PS_* or PR_R, paid per symbol */
    uint8_t n_slots;
    uint8_t effect, arg;
    uint8_t temp[PS_NSYM]; /* PE_TEMP */
} pac_card;

typedef struct pac_cardset {
    char name[64]; /* "designed" or the file's base name */
    pac_card c[PAC_NCARDS];
} pac_cardset;

/* Where a card lies. */
enum { PL_STACK, PL_HAND, PL_CITY };

/* Pending work, a LIFO stack; the top task defines the current decision or
 * resolves itself without one. */
typedef enum {
    PT_SETUP_DRAW, /* n draws left, any stack */
    PT_START_DRAW, /* optional draw of category arg */
    PT_ACT_PICK,   /* arg 0: first pick (mandatory), 1: second (or done) */
    PT_DISCARD,    /* choose discards for card arg until its letters are paid */
    PT_FINISH_ACT, /* discard the chosen cards, activate card arg */
    PT_EFFECT,     /* run effect of card arg (copy target included) */
    PT_DRAW,       /* n mandatory draws, any stack */
    PT_FILL,       /* draw until the hand limit */
    PT_BONUS_DRAW, /* draw 1 from any stack (festival bonus), room permitting */
    PT_SEARCH_STACK,
    PT_SEARCH_TAKE, /* arg: category */
    PT_COPY_PICK,   /* arg: the copying card */
} pac_task_kind;

typedef struct pac_task {
    uint8_t kind, arg, n;
} pac_task;

typedef struct pacifica {
    arena_game base;
    pac_cardset set;
    game_rng rng;
    /* card locations */
    uint8_t where[PAC_NCARDS], owner[PAC_NCARDS];
    bool active[PAC_NCARDS];
    /* Seats that know where a stack or hand card lies (bit per seat): own
     * draws, discards (they go under a stack openly), searched stacks, and
     * an opponent's draw of a card whose position was known. Cities are
     * public. Drives view() and determinize(). */
    uint8_t seen[PAC_NCARDS];
    uint8_t stack[PC_NCAT][PAC_PER_CAT]; /* index 0 = bottom, top = end */
    uint8_t stack_n[PC_NCAT];
    uint8_t hand[2][PAC_HAND_CAP];
    uint8_t hand_n[2];
    uint8_t city[2][PAC_NCARDS]; /* in play order */
    uint8_t city_n[2];
    /* idols: level index 0..2 -> need 3/5/7 (diversity 1/2), 3 = secured */
    int8_t idol_owner[PAC_NIDOLS];
    uint8_t idol_level[PAC_NIDOLS];
    /* turn */
    int seat, turn, actions_left, first;
    int winner; /* -1 running / no winner */
    bool over;
    const char *end_reason; /* "idols", "secured", "exhausted", "turn-cap" */
    /* activation in progress */
    uint8_t chosen[PAC_MAX_SLOTS];
    uint8_t n_chosen;
    pac_task task[PAC_TASK_CAP];
    int n_task;
} pacifica;

extern const arena_game_vt pacifica_game;
/* The vtable's determinize (determinize.c). */
void pac_determinize(arena_game *g, int seat, uint64_t seed);
extern const char *const pac_cat_names[PC_NCAT];
extern const char pac_sym_letters[PR_NREQ + 1]; /* "TPSBAKMFR" */
extern const char *const pac_effect_names[];
extern const char pac_designed_cards[]; /* the designed set, card-file text */

/* Parses a card list (format in docs/games/pacifica.md). On error returns
 * false and writes "FILE:LINE: field 'F': reason" into err. */
bool pac_parse_cards(const char *text, const char *fname, pac_cardset *out, char *err,
                     size_t errlen);
/* Reads and parses a card file. */
bool pac_load_cards(const char *path, pac_cardset *out, char *err, size_t errlen);
/* The card set a match log recorded: json is its header's options (the
 * game's settings(): "cards", the set's name, and "card_list", one card-file
 * line a card), as ARENA_GAME_FROM_LOG passes them. Opens no file. */
bool pac_cards_from_options(const char *json, pac_cardset *out, char *err, size_t errlen);
/* Writes a card as one card-file line (without newline). */
void pac_card_line(const pac_card *c, char *buf, size_t len);

/* Options of the current decision, encoded as (type << 8 | arg). */
enum {
    PO_DRAW = 1,
    PO_PLAY,
    PO_ACTIVATE,
    PO_END,
    PO_PICK,
    PO_DONE,
    PO_DISCARD,
    PO_SKIP,
    PO_SEARCH,
    PO_TAKE,
    PO_COPY
};
#define PO_TYPE(o) ((o) >> 8)
#define PO_ARG(o) ((o)&0xff)
#define PAC_MAX_OPTS 128
int pac_options(const pacifica *g, int *opts);
/* Applies one option (as returned by pac_options) and advances. */
void pac_apply_option(pacifica *g, int opt);

/* Queries used by the engine, bots and tests. */
int pac_hand_limit(const pacifica *g, int seat);
bool pac_has_effect(const pacifica *g, int seat, int effect);
/* Symbol counts (PS_*) on the seat's active cards, skipping card `except`. */
void pac_symbols(const pacifica *g, int seat, int except, int out[PS_NSYM]);
/* Category counts (Resources = stone + brass) from symbol counts. */
void pac_cat_counts(const int sym[PS_NSYM], int out[PC_NCAT]);
int pac_idol_need(int idol, int level);
int pac_idol_next(int idol, int level);
/* Red card x's discard is paid per symbol: the discarded cards together show
 * its discard letters. Unpaid symbols given g->chosen: */
int pac_discard_left(const pacifica *g, int seat, int x);
/* Cards that may be discarded next: each pays at least one unpaid symbol and
 * leaves the rest payable. */
int pac_discard_candidates(const pacifica *g, int seat, int x, int *out);
/* True if card (inactive, in seat's city) could be activated now. */
bool pac_activatable(const pacifica *g, int seat, int card);
/* Runs the idol ladder for seat with extra temporary symbols (may be NULL);
 * sets the winner when a win condition is reached. */
void pac_check_idols(pacifica *g, int seat, const int *temp);
int pac_idols_owned(const pacifica *g, int seat, int *secured);
int pac_find_card(const pacifica *g, const char *id);
/* Resolves tasks that need no decision until a decision exists or the game
 * is over. Tests use it after building a position by hand. */
void pac_advance(pacifica *g);

#endif
