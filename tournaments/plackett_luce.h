/* Plackett-Luce over full finishing orders: the likelihood of one game is
 * the product, place by place, of "this player beats everyone still in the
 * race", each player weighted by its strength 10^(elo/400).
 *
 * Ties are split: a game with tied ranks contributes the average of the
 * log-likelihoods of every order that breaks its ties. For two players this
 * is exactly Bradley-Terry with draws as half points, so the two models agree
 * on 2-player games. */
#ifndef ARENA_PLACKETT_LUCE_H
#define ARENA_PLACKETT_LUCE_H

#include "elo.h"
#include "ranked.h"

/* Adds the terms of one game, scaled by weight. */
void pl_add_game(elo_terms *m, const ranked_game *g, double weight);

#endif
