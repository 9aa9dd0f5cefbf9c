/* Xibalba: the game vtable, settings parsing, clone/free, decisions and
 * results. The rules are in rules.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "xb_internal.h"

static const arena_option_doc xb_options_doc[] = {
    {"mode", "normal|apocalypse", "normal",
     "apocalypse: 1 market card per deck at -1 cost, "
     "no market discards, Ark life max 10, Ark bonus"},
    {"target", "integer 1..40", "35 (2p), 25 (3p), 18 (4p); Apocalypse 4p: 24",
     "paragon needed to win"},
    {"max_rounds", "integer 1..10000", "100", "rounds before the game ends by the turn limit"},
    {"cards", "FILE|builtin", "builtin", "card file replacing the built-in 176 cards"},
    {0},
};

static bool parse_int(const char *s, int lo, int hi, int *out)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (*s == '\0' || *end != '\0' || v < lo || v > hi) return false;
    *out = (int)v;
    return true;
}

static arena_game *xb_create(const arena_setting *set, size_t nset, uint64_t seed, int players,
                             unsigned flags, char *err, size_t errlen)
{
    int apocalypse = 0, target = 0, max_rounds = 100;
    const char *cards = NULL;
    for (size_t i = 0; i < nset; i++) {
        const char *k = set[i].key, *v = set[i].value;
        if (strcmp(k, "mode") == 0) {
            if (strcmp(v, "normal") == 0)
                apocalypse = 0;
            else if (strcmp(v, "apocalypse") == 0)
                apocalypse = 1;
            else {
                snprintf(err, errlen, "mode must be normal or apocalypse, not '%s'", v);
                return NULL;
            }
        } else if (strcmp(k, "target") == 0) {
            if (!parse_int(v, 1, XB_PAR_CAP, &target)) {
                snprintf(err, errlen, "target must be an integer from 1 to 40, not '%s'", v);
                return NULL;
            }
        } else if (strcmp(k, "max_rounds") == 0) {
            if (!parse_int(v, 1, 10000, &max_rounds)) {
                snprintf(err, errlen, "max_rounds must be an integer from 1 to 10000, not '%s'", v);
                return NULL;
            }
        } else if (strcmp(k, "cards") == 0) {
            cards = strcmp(v, "builtin") == 0 ? NULL : v;
        } else {
            snprintf(err, errlen,
                     "xibalba has no setting '%s' (known: mode, target, max_rounds, cards)", k);
            return NULL;
        }
    }
    if (players < 2 || players > XB_MAX_PLAYERS) {
        snprintf(err, errlen, "xibalba is for 2 to 4 players, not %d", players);
        return NULL;
    }
    xb_game *g = xcalloc(1, sizeof *g);
    bool from_log = cards && (flags & ARENA_GAME_FROM_LOG);
    bool ok = from_log ? xb_cardset_from_options(&g->cs, cards, g->cards_name, sizeof g->cards_name,
                                                 err, errlen)
              : cards
                  ? xb_cardset_load(&g->cs, cards, err, errlen)
                  : xb_cardset_build(&g->cs, xb_default_cards, xb_default_card_types, err, errlen);
    if (!ok) {
        free(g);
        return NULL;
    }
    g->base.vt = &xibalba_game;
    g->base.size = sizeof *g;
    /* Its base name only: the options go to every bot, and the organiser's
     * directories are none of their business (the cards themselves follow). */
    if (!from_log) {
        const char *name = "builtin";
        if (cards) {
            const char *slash = strrchr(cards, '/');
            name = slash ? slash + 1 : cards;
        }
        snprintf(g->cards_name, sizeof g->cards_name, "%s", name);
    }
    g->players = players;
    g->apocalypse = apocalypse;
    g->target = target ? target : xb_default_target(players, apocalypse);
    g->max_rounds = max_rounds;
    g->market_slots = apocalypse ? 1 : 2;
    g->winner = -1;
    g->place_card = -1;
    g->destroy_only = g->destroy_steal = -1;
    g->base.ev.disabled = (flags & ARENA_GAME_NO_EVENTS) != 0;
    game_rng_seed(&g->rng, seed);

    xb_setup(g);
    return &g->base;
}

static const char *const step_kinds[] = {
    "effect_order", "dice_pool", "dice_effect_order", "keep",  "action",
    "attack_dice",  "block",     "destroy",           "place", "reorganize",
};

static bool xb_decision(const arena_game *gg, arena_decision *d)
{
    const xb_game *g = (const xb_game *)gg;
    if (g->step == XS_OVER) return false;
    xb_opt small[XB_OPT_SMALL];
    xb_opt *o = xb_opts_room(g, small);
    d->seat = g->step == XS_BLOCK ? g->atk_target : g->cur;
    d->kind = step_kinds[g->step];
    d->n_options = xb_options(g, o);
    d->pick_min = g->step == XS_KEEP ? 0 : 1;
    d->pick_max = g->step == XS_KEEP || g->step == XS_ATTACK_DICE ? d->n_options : 1;
    d->pick_ordered = false;
    d->turn = g->turns + 1;
    xb_opts_done(o, small);
    return true;
}

static bool xb_apply_vt(arena_game *gg, const int *choice, int n)
{
    return xb_apply((xb_game *)gg, choice, n);
}

static void xb_result(const arena_game *gg, arena_result *r)
{
    const xb_game *g = (const xb_game *)gg;
    memset(r, 0, sizeof *r);
    r->over = g->step == XS_OVER;
    /* g->turns counts finished turns; a win ends the game inside a turn
     * (the turn limit ends it between turns), and that turn was played. */
    r->turns = g->turns + (r->over && !g->limit_reached);
    int64_t tie[ARENA_MAX_SEATS] = {0};
    for (int s = 0; s < g->players; s++)
        r->scores[s] = g->p[s].par;
    if (r->over) arena_rank_by_score(g->players, r->scores, tie, r->ranks);
}

const arena_game_vt xibalba_game = {
    .name = "xibalba",
    .title = "Xibalba (2-4 players, designed cards)",
    .min_players = 2,
    .max_players = 4,
    .options = xb_options_doc,
    .create = xb_create,
    .clone = arena_game_clone_flat,
    .free = arena_game_free_flat,
    .decision = xb_decision,
    .label = xb_label,
    .labels = xb_labels,
    .prompt = xb_prompt,
    .apply = xb_apply_vt,
    .view = xb_view,
    .public_view = xb_public_view,
    .event_count = arena_game_event_count,
    .event = arena_game_event,
    .turn_from = arena_game_turn_from,
    .on_turn = arena_game_on_turn,
    .settings = xb_settings,
    .result = xb_result,
    .determinize = xb_determinize,
};
