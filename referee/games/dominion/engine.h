/* Internal interface between the Dominion engine, the card hooks and the
 * view. Not for bots. */
#ifndef DOMINION_ENGINE_H
#define DOMINION_ENGINE_H

#include "state.h"

#define FALLTHROUGH __attribute__((fallthrough))

enum { FR_TURN, FR_PLAY, FR_REACT };
/* dom_frame.flags */
enum {
    F_STAYED = 1,       /* this play left a Duration effect for next turn */
    F_NOSTAY = 2,       /* played by Throne Room: it handles what stays */
    F_REPLAY = 4,       /* the second play of the same physical card */
    F_CHILD_STAYED = 8, /* a card this Throne Room played stayed */
};
/* Step results. */
enum { R_DONE, R_WAIT, R_PUSH };

/* zones */
static inline void zpush(dom_zone *z, int c)
{
    z->c[z->n++] = (uint8_t)c;
}
bool zremove(dom_zone *z, int c); /* one copy, anywhere */
void zmove_all(dom_zone *from, dom_zone *to);
/* onto the deck or the discard pile, recording who knows the card is there */
void deck_put(dom_game *g, int p, int c, unsigned seen);
void discard_put(dom_game *g, int p, int c, bool public_);
void discard_zone(dom_game *g, int p, int zone, bool public_); /* all of it, no event */
void discard_top_seen(dom_game *g, int p);                     /* the new top is in every view */
void discard_zone_under(dom_game *g, int p, int zone);         /* unseen, top unchanged */
/* what everyone knows about p's hand: card c entered it openly, was shown
 * in it, or left it (openly or unseen) */
void hand_seen_add(dom_game *g, int p, int c);
void hand_seen_shown(dom_game *g, int p, int c);
void hand_left(dom_game *g, int p, int c, bool public_);

/* primitives; all emit events when they are on */
int draw(dom_game *g, int p, int n); /* returns cards drawn */
int reveal_top(dom_game *g, int p);  /* top of deck -> Z_ASIDE; -1 if none */
enum { TO_DISCARD, TO_HAND, TO_DECK };
bool gain(dom_game *g, int p, int card, int dest); /* from the Supply */
void gain_from_trash(dom_game *g, int p, int card);
void trash_from(dom_game *g, int p, int zone, int card);
void discard_from(dom_game *g, int p, int zone, int card); /* one card, shown to all */
/* several cards: only the owner sees which (one `discard_many` event each way) */
void discard_cards(dom_game *g, int p, int zone, const uint8_t *cs, int n);
void discard_all_hidden(dom_game *g, int p, int zone);
void topdeck_from(dom_game *g, int p, int zone, int card, bool public_);
void mark_stay(dom_game *g, dom_frame *f);
bool immune(const dom_frame *f, int seat);
void push_frame(dom_game *g, int kind, int card, int player, int flags);

/* decisions: each returns true when the seat must decide (R_WAIT), false
 * when the answer is forced and already in g->ans */
void dec_begin(dom_game *g, int seat, int kind, int prefix);
static inline void dec_add(dom_game *g, int special, int card)
{
    g->dec.opt[g->dec.n++] = (int16_t)((special << 6) | card);
}
bool dec_ask(dom_game *g, int pmin, int pmax, bool ordered);
/* every card of a zone, one option per copy, in card order */
bool ask_zone(dom_game *g, int seat, int owner, int zone, int kind, int pmin, int pmax,
              bool ordered);
bool ask_hand_all(dom_game *g, int seat, int kind, int pmin, int pmax, bool ordered);
bool ask_hand_distinct(dom_game *g, int seat, int kind, unsigned types);
bool ask_supply(dom_game *g, int seat, int kind, int maxcost, unsigned types);
bool ask_words(dom_game *g, int seat, int kind, int w1, int w2, int card);
static inline int ans_opt(const dom_game *g, int i)
{
    return g->dec.opt[g->ans[i]];
}
static inline int ans_card(const dom_game *g, int i)
{
    return dom_opt_card(ans_opt(g, i));
}
static inline int ans_word(const dom_game *g)
{
    return dom_opt_special(ans_opt(g, 0));
}

/* events (a new map with type and seat, or no seat when p < 0) */
av *ev_new(const char *type, int p);
void ev_card(dom_game *g, uint32_t vis, const char *type, int p, int card);
void ev_cards(dom_game *g, uint32_t vis, const char *type, int p, const uint8_t *cs, int n);
void ev_simple(dom_game *g, uint32_t vis, const char *type, int p, const char *key, int64_t v);
/* n cards just put on p's discard pile: the owner sees them all, the others
 * how many and the new top card (the table shows no more) */
void ev_discard_many(dom_game *g, int p, const uint8_t *cs, int n);

/* decisions.c: the vt's label and prompt */
void dom_label(const arena_game *g, int i, char *buf, size_t len);
void dom_prompt(const arena_game *g, char *buf, size_t len);
/* kingdoms.c: the `kingdom` setting; random draws from g->rng */
bool dom_parse_kingdom(const char *v, dom_game *g, char *err, size_t errlen);

/* determinize.c: the vt's determinize */
void dom_determinize(arena_game *g, int seat, uint64_t seed);

/* card hooks (effects.c): run steps >= 2 of a play frame */
int card_special(dom_game *g, dom_frame *f);
void start_of_turn_durations(dom_game *g);

#endif
