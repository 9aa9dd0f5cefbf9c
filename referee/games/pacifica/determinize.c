/* Pacifica determinize() for search bots: a random world consistent with
 * what one seat knows. Hidden from a seat are the cards of the face-down
 * stacks and of the opponent's hand whose place it does not know (g->seen);
 * card backs show the category, so a hidden card only trades places with
 * another hidden card of its category. Each place keeps what the opponent
 * knows about it, so the opponent's knowledge stays consistent too. */
#include "pacifica.h"

/* A hidden place: a slot in a stack or in the opponent's hand. */
typedef struct place {
    uint8_t *slot;
    bool in_hand;
} place;

void pac_determinize(arena_game *gg, int seat, uint64_t seed)
{
    pacifica *g = (pacifica *)gg;
    game_rng_seed(&g->rng, seed);
    if (seat < 0 || seat > 1) return; /* the omniscient seat knows everything */
    int opp = 1 - seat;
    unsigned me = 1u << seat;
    for (int cat = 0; cat < PC_NCAT; cat++) {
        place pl[PAC_PER_CAT];
        uint8_t cards[PAC_PER_CAT], seen[PAC_PER_CAT];
        int n = 0;
        for (int i = 0; i < g->stack_n[cat]; i++)
            if (!(g->seen[g->stack[cat][i]] & me)) pl[n++] = (place){&g->stack[cat][i], false};
        for (int i = 0; i < g->hand_n[opp]; i++) {
            int c = g->hand[opp][i];
            if (g->set.c[c].cat == cat && !(g->seen[c] & me))
                pl[n++] = (place){&g->hand[opp][i], true};
        }
        for (int i = 0; i < n; i++) {
            cards[i] = *pl[i].slot;
            seen[i] = g->seen[cards[i]];
        }
        for (int i = n - 1; i > 0; i--) {
            int j = (int)game_rng_below(&g->rng, (uint32_t)(i + 1));
            uint8_t t = cards[i];
            cards[i] = cards[j];
            cards[j] = t;
        }
        for (int i = 0; i < n; i++) {
            int c = cards[i];
            *pl[i].slot = (uint8_t)c;
            g->seen[c] = seen[i];
            g->where[c] = pl[i].in_hand ? PL_HAND : PL_STACK;
            if (pl[i].in_hand) g->owner[c] = (uint8_t)opp; /* owner means nothing in a stack */
        }
    }
}
