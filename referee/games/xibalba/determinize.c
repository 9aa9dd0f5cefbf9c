/* Xibalba determinize (game.h): for search bots, a clone whose hidden part
 * is redrawn at random. At the Xibalba table everything is face up (every
 * stack, the discard piles, the market, the dice) except the order of the
 * four decks, and that order is hidden from every seat alike. Each deck's
 * contents follow from what is in view (a family's cards minus those
 * visible elsewhere), so shuffling every deck is an assignment consistent
 * with what any seat has seen, and it keeps every view byte-identical. The
 * rng is reseeded too, so future dice and reshuffles are not the real
 * ones. */
#include "xb_internal.h"

void xb_determinize(arena_game *gg, int seat, uint64_t seed)
{
    (void)seat; /* no seat knows more of the decks than another */
    xb_game *g = (xb_game *)gg;
    game_rng_seed(&g->rng, seed);
    for (int f = 0; f < XB_FAMILIES; f++)
        xb_shuffle(g, &g->deck[f]);
}
