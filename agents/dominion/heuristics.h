/* Shared Dominion bot heuristics: card values and sensible answers to every
 * card decision. Bots read the state directly but use only what their seat
 * may see (own cards, public zones, the Supply). */
#ifndef DOMINION_HEURISTICS_H
#define DOMINION_HEURISTICS_H

#include "games/dominion/state.h"
#include "policy.h"

int domh_money(const dom_game *g, int seat); /* total treasure value owned */
int domh_owned(const dom_game *g, int seat, int card);
int domh_find(const dom_game *g, int card); /* option index of a card, -1 */
int domh_find_word(const dom_game *g, int special);
/* Answers any decision other than action/buy with a sensible default. */
int domh_decide_card(const dom_game *g, int seat, const arena_decision *d, int *choice);
/* Plays the best Action (+actions first), or ends the action phase. */
int domh_play_best(const dom_game *g, int *choice);
/* The BMU buy rule; -1 if it buys nothing. */
int domh_bmu_buy(const dom_game *g, int seat);

#endif
