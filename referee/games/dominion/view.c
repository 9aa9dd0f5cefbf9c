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
    av_add_int(v, "turn", g->turn + 1);
    av_add_int(v, "current", g->cur);
    av_add_bool(v, "extra_turn", g->extra_turn);
    av_add_int(v, "actions", g->actions);
    av_add_int(v, "buys", g->buys);
    av_add_int(v, "coins", g->coins);
    av_add_bool(v, "over", g->over);
    if (seat >= 0) av_add_int(v, "seat", seat);

    av *sup = av_map();
    av *emb = av_map();
    for (int c = 0; c < DOM_NCARDS; c++) {
        if (!g->in_supply[c]) continue;
        av_add_int(sup, dom_cards[c].name, g->supply[c]);
        if (g->embargo[c]) av_add_int(emb, dom_cards[c].name, g->embargo[c]);
    }
    av_add(v, "supply", sup);
    av_add(v, "embargo", emb);
    av *tr = av_map();
    for (int c = 0; c < DOM_NCARDS; c++)
        if (g->trash[c]) av_add_int(tr, dom_cards[c].name, g->trash[c]);
    av_add(v, "trash", tr);

    av *players = av_list();
    for (int s = 0; s < g->np; s++) {
        const dom_player *pl = &g->p[s];
        bool me = seat < 0 || seat == s;
        av *m = av_map();
        av_add_int(m, "seat", s);
        av_add_int(m, "hand_size", pl->z[Z_HAND].n);
        av_add_int(m, "deck_size", pl->z[Z_DECK].n);
        av_add_int(m, "discard_size", pl->z[Z_DISCARD].n);
        const dom_zone *dz = &pl->z[Z_DISCARD];
        /* A pile whose top nobody has seen (a deck put onto an empty pile
         * by Chancellor) lies face down. */
        if (dz->n && (seat < 0 || (pl->disc_seen[dz->n - 1] & SEEN_ALL)))
            av_add_str(m, "discard_top", dom_cards[dz->c[dz->n - 1]].name);
        else
            av_add(m, "discard_top", av_nil());
        av_add(m, "in_play", card_list(&pl->z[Z_PLAY]));
        av_add(m, "duration", card_list(&pl->z[Z_DUR]));
        av_add(m, "island_mat", card_list(&pl->z[Z_ISLAND]));
        av_add_int(m, "native_village_size", pl->z[Z_NVMAT].n);
        av_add_int(m, "haven_size", pl->z[Z_HAVEN].n);
        av_add_int(m, "vp_tokens", 0);
        av_add_int(m, "coin_tokens", pl->coin_tokens);
        av_add_int(m, "turns", pl->turns);
        if (me) {
            av_add(m, "hand", card_list(&pl->z[Z_HAND]));
            av_add(m, "native_village_mat", card_list(&pl->z[Z_NVMAT]));
            av_add(m, "haven", card_list(&pl->z[Z_HAVEN]));
            /* cards being looked at or revealed by the current card */
            av_add(m, "aside", card_list(&pl->z[Z_ASIDE]));
        }
        if (seat < 0) {
            av_add(m, "deck", card_list(&pl->z[Z_DECK]));
            av_add(m, "discard", card_list(&pl->z[Z_DISCARD]));
        }
        if (seat < 0 || g->over) av_add_int(m, "score", dom_score(g, s));
        av_push(players, m);
    }
    av_add(v, "players", players);
    return v;
}
