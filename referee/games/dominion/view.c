/* What a seat may see (seat -1: everything). Keys are documented in
 * docs/games/dominion.md. */
#include "engine.h"

static void card_list(vout *o, const char *key, const dom_zone *z)
{
    vo_klist(o, key);
    for (int i = 0; i < z->n; i++)
        vo_str(o, dom_cards[z->c[i]].name);
    vo_end(o);
}

void dom_view(const arena_game *gg, int seat, vout *o);
void dom_public_view(const arena_game *gg, vout *o);

/* Who looks: a seat, everyone's cards (seat -1), or the spectator, who sees
 * what every seat sees. One writer for all three, so that the public part is
 * written once and a seat's view is the spectator's plus its own cards. */
enum { ALL = -1, SPECTATOR = -2 };

static void view_as(const dom_game *g, int seat, vout *o)
{
    vo_map(o);
    vo_kint(o, "turn", g->turn + 1);
    vo_kint(o, "current", g->cur);
    vo_kbool(o, "extra_turn", g->extra_turn);
    vo_kint(o, "actions", g->actions);
    vo_kint(o, "buys", g->buys);
    vo_kint(o, "coins", g->coins);
    vo_kbool(o, "over", g->over);
    if (seat >= 0) vo_kint(o, "seat", seat);

    vo_kmap(o, "supply");
    for (int c = 0; c < DOM_NCARDS; c++)
        if (g->in_supply[c]) vo_kint(o, dom_cards[c].name, g->supply[c]);
    vo_end(o);
    vo_kmap(o, "embargo");
    for (int c = 0; c < DOM_NCARDS; c++)
        if (g->in_supply[c] && g->embargo[c]) vo_kint(o, dom_cards[c].name, g->embargo[c]);
    vo_end(o);
    vo_kmap(o, "trash");
    for (int c = 0; c < DOM_NCARDS; c++)
        if (g->trash[c]) vo_kint(o, dom_cards[c].name, g->trash[c]);
    vo_end(o);

    vo_klist(o, "players");
    for (int s = 0; s < g->np; s++) {
        const dom_player *pl = &g->p[s];
        bool me = seat == ALL || seat == s;
        vo_map(o);
        vo_kint(o, "seat", s);
        vo_kint(o, "hand_size", pl->z[Z_HAND].n);
        vo_kint(o, "deck_size", pl->z[Z_DECK].n);
        vo_kint(o, "discard_size", pl->z[Z_DISCARD].n);
        const dom_zone *dz = &pl->z[Z_DISCARD];
        /* A pile whose top nobody has seen (a deck put onto an empty pile
         * by Chancellor) lies face down. */
        if (dz->n && (seat == ALL || (pl->disc_seen[dz->n - 1] & SEEN_ALL)))
            vo_kstr(o, "discard_top", dom_cards[dz->c[dz->n - 1]].name);
        else
            vo_knil(o, "discard_top");
        card_list(o, "in_play", &pl->z[Z_PLAY]);
        card_list(o, "duration", &pl->z[Z_DUR]);
        card_list(o, "island_mat", &pl->z[Z_ISLAND]);
        vo_kint(o, "native_village_size", pl->z[Z_NVMAT].n);
        vo_kint(o, "haven_size", pl->z[Z_HAVEN].n);
        vo_kint(o, "vp_tokens", 0);
        vo_kint(o, "coin_tokens", pl->coin_tokens);
        vo_kint(o, "turns", pl->turns);
        if (me) {
            card_list(o, "hand", &pl->z[Z_HAND]);
            card_list(o, "native_village_mat", &pl->z[Z_NVMAT]);
            card_list(o, "haven", &pl->z[Z_HAVEN]);
            /* cards being looked at or revealed by the current card */
            card_list(o, "aside", &pl->z[Z_ASIDE]);
        }
        if (seat == ALL) {
            card_list(o, "deck", &pl->z[Z_DECK]);
            card_list(o, "discard", &pl->z[Z_DISCARD]);
        }
        if (seat == ALL || g->over) vo_kint(o, "score", dom_score(g, s));
        vo_end(o);
    }
    vo_end(o);
    vo_end(o);
}

void dom_view(const arena_game *gg, int seat, vout *o)
{
    view_as((const dom_game *)gg, seat < 0 ? ALL : seat, o);
}

void dom_public_view(const arena_game *gg, vout *o)
{
    view_as((const dom_game *)gg, SPECTATOR, o);
}
