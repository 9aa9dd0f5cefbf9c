/* What a seat may see (seat -1: everything). Keys are documented in
 * docs/games/dominion.md. */
#include "engine.h"

static av *card_list(const dom_zone *z)
{
    av *l = av_list();
    for (int i = 0; i < z->n; i++)
        av_push(l, av_str(dom_cards[z->c[i]].name));
    return l;
}

av *dom_view(const arena_game *gg, int seat);

av *dom_view(const arena_game *gg, int seat)
{
    const dom_game *g = (const dom_game *)gg;
    av *v = av_map();
    av_set_int(v, "turn", g->turn + 1);
    av_set_int(v, "current", g->cur);
    av_set_bool(v, "extra_turn", g->extra_turn);
    av_set_int(v, "actions", g->actions);
    av_set_int(v, "buys", g->buys);
    av_set_int(v, "coins", g->coins);
    av_set_bool(v, "over", g->over);
    if (seat >= 0) av_set_int(v, "seat", seat);

    av *sup = av_map();
    av *emb = av_map();
    for (int c = 0; c < DOM_NCARDS; c++) {
        if (!g->in_supply[c]) continue;
        av_set_int(sup, dom_cards[c].name, g->supply[c]);
        if (g->embargo[c]) av_set_int(emb, dom_cards[c].name, g->embargo[c]);
    }
    av_set(v, "supply", sup);
    av_set(v, "embargo", emb);
    av *tr = av_map();
    for (int c = 0; c < DOM_NCARDS; c++)
        if (g->trash[c]) av_set_int(tr, dom_cards[c].name, g->trash[c]);
    av_set(v, "trash", tr);

    av *players = av_list();
    for (int s = 0; s < g->np; s++) {
        const dom_player *pl = &g->p[s];
        bool me = seat < 0 || seat == s;
        av *m = av_map();
        av_set_int(m, "seat", s);
        av_set_int(m, "hand_size", pl->z[Z_HAND].n);
        av_set_int(m, "deck_size", pl->z[Z_DECK].n);
        av_set_int(m, "discard_size", pl->z[Z_DISCARD].n);
        const dom_zone *dz = &pl->z[Z_DISCARD];
        /* A pile whose top nobody has seen (a deck put onto an empty pile
         * by Chancellor) lies face down. */
        if (dz->n && (seat < 0 || (pl->disc_seen[dz->n - 1] & SEEN_ALL)))
            av_set_str(m, "discard_top", dom_cards[dz->c[dz->n - 1]].name);
        else
            av_set(m, "discard_top", av_nil());
        av_set(m, "in_play", card_list(&pl->z[Z_PLAY]));
        av_set(m, "duration", card_list(&pl->z[Z_DUR]));
        av_set(m, "island_mat", card_list(&pl->z[Z_ISLAND]));
        av_set_int(m, "native_village_size", pl->z[Z_NVMAT].n);
        av_set_int(m, "haven_size", pl->z[Z_HAVEN].n);
        av_set_int(m, "vp_tokens", 0);
        av_set_int(m, "coin_tokens", pl->coin_tokens);
        av_set_int(m, "turns", pl->turns);
        if (me) {
            av_set(m, "hand", card_list(&pl->z[Z_HAND]));
            av_set(m, "native_village_mat", card_list(&pl->z[Z_NVMAT]));
            av_set(m, "haven", card_list(&pl->z[Z_HAVEN]));
            /* cards being looked at or revealed by the current card */
            av_set(m, "aside", card_list(&pl->z[Z_ASIDE]));
        }
        if (seat < 0) {
            av_set(m, "deck", card_list(&pl->z[Z_DECK]));
            av_set(m, "discard", card_list(&pl->z[Z_DISCARD]));
        }
        if (seat < 0 || g->over) av_set_int(m, "score", dom_score(g, s));
        av_push(players, m);
    }
    av_set(v, "players", players);
    return v;
}
