/* determinize: deals again, at random, every card whose place a seat does
 * not know, for search bots that play on a clone.
 *
 * What a seat knows of player o's cards:
 *  - o == seat: everything but the order of its deck, except the deck slots
 *    it has seen (SEEN_OWNER: Navigator, Lookout, Pearl Diver, Ghost Ship,
 *    cards gained or put onto the deck).
 *  - o != seat: the cards in play, Duration zone, Island mat and set-aside
 *    zone; the deck slots everyone saw filled (SEEN_ALL: Bureaucrat, Spy,
 *    Sea Hag, Treasure Map, Treasury); the discard slots everyone saw filled
 *    (the top, unless a deck lies face down there); the hand cards everyone
 *    saw (hand_seen: gained to the hand, revealed in it). The rest of the
 *    hand, Haven, Native Village mat and the rest of the deck and discard
 *    pile are one pool.
 * Each pool is shuffled and dealt back into the same slots, so every zone
 * keeps its size and every known card stays where it is: view(seat) does
 * not change and no card is created or lost.
 *
 * Most pending decisions name cards of the seat that decides (its hand);
 * when that is another seat, that seat's cards are left as they are, unless
 * the options come only from the Supply, the trash or face-up cards (below).
 * Search bots call this at their own decisions, where it never matters. */
#include <string.h>

#include "engine.h"

/* Visits the slots of o's cards hidden from `seat` in a fixed order: copies
 * them into pool (put = false) or fills them from it (put = true). Returns
 * the number of slots. */
static int hidden_slots(dom_player *pl, bool own, uint8_t *pool, bool put)
{
    int k = 0;
#define SLOT(x)                                                                                    \
    do {                                                                                           \
        if (put)                                                                                   \
            (x) = pool[k++];                                                                       \
        else                                                                                       \
            pool[k++] = (x);                                                                       \
    } while (0)
    dom_zone *d = &pl->z[Z_DECK];
    uint8_t known = own ? SEEN_OWNER : SEEN_ALL;
    for (int i = 0; i < d->n; i++)
        if (!(pl->deck_seen[i] & known)) SLOT(d->c[i]);
    if (own) return k;
    /* the hand cards everyone knows stay: the first copies met */
    uint8_t shown[DOM_NCARDS];
    memcpy(shown, pl->hand_seen, sizeof shown);
    dom_zone *h = &pl->z[Z_HAND];
    for (int i = 0; i < h->n; i++) {
        if (shown[h->c[i]]) {
            shown[h->c[i]]--;
            continue;
        }
        SLOT(h->c[i]);
    }
    static const int facedown[] = {Z_HAVEN, Z_NVMAT};
    for (int j = 0; j < 2; j++) {
        dom_zone *z = &pl->z[facedown[j]];
        for (int i = 0; i < z->n; i++)
            SLOT(z->c[i]);
    }
    /* the top too when nobody saw it (a deck Chancellor put face down) */
    dom_zone *dz = &pl->z[Z_DISCARD];
    for (int i = 0; i < dz->n; i++)
        if (!(pl->disc_seen[i] & SEEN_ALL)) SLOT(dz->c[i]);
#undef SLOT
    return k;
}

/* Decisions whose options and resolution do not depend on the decider's
 * hidden cards. */
static bool decider_may_change(int kind)
{
    switch (kind) {
    case DK_BUY:
    case DK_TREASURY:
    case DK_EMBARGO:
    case DK_WORKSHOP:
    case DK_FEAST:
    case DK_REMODEL_GAIN:
    case DK_MINE_GAIN:
    case DK_SMUGGLERS:
    case DK_PIRATE_MODE:
    case DK_PIRATE_TRASH:
    case DK_THIEF_TRASH:
    case DK_THIEF_GAIN:
    case DK_SPY: return true;
    default: return false;
    }
}

void dom_determinize(arena_game *gg, int seat, uint64_t seed)
{
    dom_game *g = (dom_game *)gg;
    arena_rng r;
    arena_rng_seed(&r, seed);
    int decider = g->has_dec && !g->over && !decider_may_change(g->dec.kind) ? g->dec.seat : -1;
    for (int o = 0; seat >= 0 && o < g->np; o++) {
        if (o != seat && o == decider) continue;
        dom_player *pl = &g->p[o];
        uint8_t pool[DOM_ZCAP];
        int n = hidden_slots(pl, o == seat, pool, false);
        for (int i = n - 1; i > 0; i--) {
            int j = (int)arena_rng_below(&r, (uint32_t)i + 1);
            uint8_t t = pool[i];
            pool[i] = pool[j];
            pool[j] = t;
        }
        hidden_slots(pl, o == seat, pool, true);
    }
    /* future shuffles must not be the real ones either */
    game_rng_seed(&g->rng, arena_rng_next(&r));
}
