/* Pacifica behind the game vtable: setup, decisions, labels, views, events,
 * settings and results. The rules themselves live in rules.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pacifica.h"
#include "util.h"

static const arena_option_doc pac_option_docs[] = {
    {"cards", "designed|<card file>", "designed",
     "card set: the designed 112 cards, or a card file (format in docs/games/pacifica.md)"},
    {0},
};

static arena_game *pac_create(const arena_setting *set, size_t nset, uint64_t seed, int players,
                              unsigned flags, char *err, size_t errlen)
{
    const char *cards = "designed";
    for (size_t i = 0; i < nset; i++) {
        if (strcmp(set[i].key, "cards") == 0)
            cards = set[i].value;
        else {
            snprintf(err, errlen, "pacifica has no setting '%s' (known: cards)", set[i].key);
            return NULL;
        }
    }
    if (players != 2) {
        snprintf(err, errlen, "pacifica is for 2 players, not %d", players);
        return NULL;
    }
    pacifica *g = xcalloc(1, sizeof *g);
    g->base.vt = &pacifica_game;
    g->base.size = sizeof *g;
    /* From a log, a `cards` setting holds the logged options (game.h). */
    bool ok = strcmp(cards, "designed") == 0
                  ? pac_parse_cards(pac_designed_cards, "designed", &g->set, err, errlen)
              : flags & ARENA_GAME_FROM_LOG ? pac_cards_from_options(cards, &g->set, err, errlen)
                                            : pac_load_cards(cards, &g->set, err, errlen);
    if (!ok) {
        free(g);
        return NULL;
    }
    g->base.ev.disabled = (flags & ARENA_GAME_NO_EVENTS) != 0;
    game_rng_seed(&g->rng, seed);
    for (int c = 0; c < PAC_NCARDS; c++) {
        int cat = g->set.c[c].cat;
        g->where[c] = PL_STACK;
        g->stack[cat][g->stack_n[cat]++] = (uint8_t)c;
    }
    for (int cat = 0; cat < PC_NCAT; cat++)
        for (int i = PAC_PER_CAT - 1; i > 0; i--) {
            int j = (int)game_rng_below(&g->rng, (uint32_t)(i + 1));
            uint8_t t = g->stack[cat][i];
            g->stack[cat][i] = g->stack[cat][j];
            g->stack[cat][j] = t;
        }
    for (int i = 0; i < PAC_NIDOLS; i++)
        g->idol_owner[i] = -1;
    g->winner = -1;
    /* Seat 0 moves first (the referee alternates seats across games); the
     * second player draws 2 cards before play. */
    g->first = 0;
    g->seat = 1;
    g->task[g->n_task++] = (pac_task){PT_SETUP_DRAW, 0, 2};
    if (!g->base.ev.disabled) {
        av *e = av_map();
        av_add_str(e, "type", "setup");
        av_add_int(e, "first", g->first);
        av_add_str(e, "cards", g->set.name);
        events_push(&g->base.ev, EVENTS_ALL, e);
    }
    pac_advance(g);
    return &g->base;
}

static const char *kind_of(const pacifica *g)
{
    if (g->n_task == 0) return "action";
    switch (g->task[g->n_task - 1].kind) {
    case PT_SETUP_DRAW: return "setup-draw";
    case PT_START_DRAW: return "start-draw";
    case PT_ACT_PICK: return "activate-pick";
    case PT_DISCARD: return "discard-pick";
    case PT_DRAW:
    case PT_FILL: return "effect-draw";
    case PT_BONUS_DRAW: return "bonus-draw";
    case PT_SEARCH_STACK: return "search-stack";
    case PT_SEARCH_TAKE: return "search-take";
    case PT_COPY_PICK: return "copy-pick";
    default: return "?";
    }
}

static bool pac_decision(const arena_game *gg, arena_decision *d)
{
    const pacifica *g = (const pacifica *)gg;
    if (g->over) return false;
    int opts[PAC_MAX_OPTS];
    d->seat = g->seat;
    d->kind = kind_of(g);
    d->n_options = pac_options(g, opts);
    d->pick_min = d->pick_max = 1;
    d->pick_ordered = false;
    d->turn = g->turn;
    return true;
}

/* Labels go out with every decision: written without snprintf
 * (protocol/util.h's textbuf). */
static void option_label(const pacifica *g, int o, char *buf, size_t len)
{
    int a = PO_ARG(o);
    textbuf t = text_start(buf, len);
    const char *arg = NULL; /* after a ':' */
    switch (PO_TYPE(o)) {
    case PO_DRAW: TEXT_LIT(&t, "draw"), arg = pac_cat_names[a]; break;
    case PO_PLAY: TEXT_LIT(&t, "play"), arg = g->set.c[a].id; break;
    case PO_ACTIVATE: TEXT_LIT(&t, "activate"); break;
    case PO_END: TEXT_LIT(&t, "end"); break;
    case PO_PICK: TEXT_LIT(&t, "activate"), arg = g->set.c[a].id; break;
    case PO_DONE: TEXT_LIT(&t, "done"); break;
    case PO_DISCARD: TEXT_LIT(&t, "discard"), arg = g->set.c[a].id; break;
    case PO_SKIP: TEXT_LIT(&t, "skip"); break;
    case PO_SEARCH: TEXT_LIT(&t, "search"), arg = pac_cat_names[a]; break;
    case PO_TAKE: TEXT_LIT(&t, "take"), arg = g->set.c[a].id; break;
    case PO_COPY: TEXT_LIT(&t, "copy"), arg = g->set.c[a].id; break;
    default: TEXT_LIT(&t, "?");
    }
    if (arg) {
        TEXT_LIT(&t, ":");
        text_adds(&t, arg);
    }
}

static void pac_label(const arena_game *gg, int i, char *buf, size_t len)
{
    const pacifica *g = (const pacifica *)gg;
    int opts[PAC_MAX_OPTS];
    int n = pac_options(g, opts);
    if (i < 0 || i >= n) {
        snprintf(buf, len, "?");
        return;
    }
    option_label(g, opts[i], buf, len);
}

static void pac_labels(const arena_game *gg, char *buf, size_t len, arena_label_fn put, void *ctx)
{
    const pacifica *g = (const pacifica *)gg;
    int opts[PAC_MAX_OPTS];
    int n = pac_options(g, opts);
    for (int i = 0; i < n; i++) {
        option_label(g, opts[i], buf, len);
        put(ctx, i, buf);
    }
}

static void pac_prompt(const arena_game *gg, char *buf, size_t len)
{
    const pacifica *g = (const pacifica *)gg;
    if (g->over) {
        snprintf(buf, len, "game over");
        return;
    }
    const char *k = kind_of(g);
    if (g->n_task == 0) {
        snprintf(buf, len, "turn %d: action %d of 3 (draw, play, activate up to 2)", g->turn,
                 4 - g->actions_left);
        return;
    }
    const pac_task *t = &g->task[g->n_task - 1];
    const char *what = k;
    switch (t->kind) {
    case PT_SETUP_DRAW: what = "second player: draw a starting card from any stack"; break;
    case PT_START_DRAW: what = "start of turn: you may draw 1 card of this category"; break;
    case PT_ACT_PICK:
        what = t->arg ? "activate a second card, or done" : "choose the first card to activate";
        break;
    case PT_DRAW:
    case PT_FILL: what = "effect: draw a card from any stack"; break;
    case PT_BONUS_DRAW: what = "festival bonus: draw 1 more card"; break;
    case PT_SEARCH_STACK: what = "search: choose a stack to search"; break;
    case PT_SEARCH_TAKE: what = "search: put one of these cards into your city"; break;
    case PT_COPY_PICK: what = "copy: carry out the effect of a City Festival card"; break;
    case PT_DISCARD: {
        const pac_card *x = &g->set.c[t->arg];
        char letters[PAC_MAX_SLOTS + 1];
        for (int i = 0; i < x->n_slots; i++)
            letters[i] = pac_sym_letters[x->slots[i]];
        letters[x->n_slots] = '\0';
        snprintf(buf, len, "activate %s %s: discard active cards showing %s (%d symbol(s) unpaid)",
                 x->id, x->name, letters, pac_discard_left(g, g->seat, t->arg));
        return;
    }
    }
    snprintf(buf, len, "%s", what);
}

static bool pac_apply(arena_game *gg, const int *choice, int n)
{
    pacifica *g = (pacifica *)gg;
    int opts[PAC_MAX_OPTS];
    if (g->over || n != 1) return false;
    int k = pac_options(g, opts);
    if (choice[0] < 0 || choice[0] >= k) return false;
    pac_apply_option(g, opts[choice[0]]);
    return true;
}

static void card_list(vout *o, const pacifica *g, const uint8_t *cards, int n, bool with_active)
{
    vo_list(o);
    for (int i = 0; i < n; i++) {
        if (!with_active) {
            vo_str(o, g->set.c[cards[i]].id);
            continue;
        }
        vo_map(o);
        vo_kstr(o, "id", g->set.c[cards[i]].id);
        vo_kbool(o, "active", g->active[cards[i]]);
        vo_end(o);
    }
    vo_end(o);
}

/* Who looks: a seat, everyone's cards (seat -1), or the spectator, who sees
 * what both seats see. One writer for all three, so that the public part is
 * written once. */
enum { ALL = -1, SPECTATOR = -2 };

/* Does the looker know where card x lies? The spectator knows what both
 * seats know. */
static bool knows(const pacifica *g, int seat, int x)
{
    if (seat == ALL) return true;
    if (seat == SPECTATOR) return (g->seen[x] & PAC_SEEN_ALL) == PAC_SEEN_ALL;
    return g->seen[x] & (1u << seat);
}

/* A hand as its card backs: the category, and the id where seat knows it. */
static void hand_backs(vout *o, const pacifica *g, int seat, int owner)
{
    vo_list(o);
    for (int i = 0; i < g->hand_n[owner]; i++) {
        int c = g->hand[owner][i];
        vo_map(o);
        vo_kstr(o, "category", pac_cat_names[g->set.c[c].cat]);
        if (knows(g, seat, c)) vo_kstr(o, "id", g->set.c[c].id);
        vo_end(o);
    }
    vo_end(o);
}

static void view_as(const pacifica *g, int seat, vout *o)
{
    vo_map(o);
    if (seat != SPECTATOR) vo_kint(o, "seat", seat);
    vo_kint(o, "to_move", g->over ? -1 : g->seat);
    vo_kint(o, "turn", g->turn);
    vo_kint(o, "actions_left", g->actions_left);
    if (seat >= 0) {
        vo_key(o, "hand");
        card_list(o, g, g->hand[seat], g->hand_n[seat], false);
        /* Card backs show the category; the id only where this seat knows it. */
        vo_key(o, "opponent_hand");
        hand_backs(o, g, seat, 1 - seat);
    } else if (seat == SPECTATOR) {
        vo_klist(o, "hand_backs");
        for (int s = 0; s < 2; s++)
            hand_backs(o, g, seat, s);
        vo_end(o);
    } else {
        vo_klist(o, "hands");
        for (int s = 0; s < 2; s++)
            card_list(o, g, g->hand[s], g->hand_n[s], false);
        vo_end(o);
    }
    vo_klist(o, "hand_sizes");
    for (int s = 0; s < 2; s++)
        vo_int(o, g->hand_n[s]);
    vo_end(o);
    vo_klist(o, "hand_limits");
    for (int s = 0; s < 2; s++)
        vo_int(o, pac_hand_limit(g, s));
    vo_end(o);
    vo_klist(o, "cities");
    for (int s = 0; s < 2; s++)
        card_list(o, g, g->city[s], g->city_n[s], true);
    vo_end(o);
    vo_klist(o, "symbols");
    for (int s = 0; s < 2; s++) {
        int sym[PS_NSYM];
        pac_symbols(g, s, -1, sym);
        vo_map(o);
        for (int k = 0; k < PS_NSYM; k++) { /* keys are the symbols' letters */
            vo_keyn(o, &pac_sym_letters[k], 1);
            vo_int(o, sym[k]);
        }
        vo_end(o);
    }
    vo_end(o);
    vo_kmap(o, "stacks");
    for (int c = 0; c < PC_NCAT; c++)
        vo_kint(o, pac_cat_names[c], g->stack_n[c]);
    vo_end(o);
    /* Stack cards whose place this seat knows (discards, searched stacks),
     * top first, null where unknown; only stacks with a known card. */
    vo_kmap(o, "stack_cards");
    for (int c = 0; c < PC_NCAT; c++) {
        bool any = false;
        for (int i = 0; i < g->stack_n[c]; i++)
            any |= knows(g, seat, g->stack[c][i]);
        if (!any) continue;
        vo_klist(o, pac_cat_names[c]);
        for (int i = g->stack_n[c] - 1; i >= 0; i--) {
            int x = g->stack[c][i];
            vo_str_or_nil(o, knows(g, seat, x) ? g->set.c[x].id : NULL);
        }
        vo_end(o);
    }
    vo_end(o);
    vo_klist(o, "idols");
    for (int i = 0; i < PAC_NIDOLS; i++) {
        vo_map(o);
        vo_kstr(o, "name", i == PAC_DIVERSITY ? "Diversity" : pac_cat_names[i]);
        vo_kint(o, "owner", g->idol_owner[i]);
        vo_kint(o, "level", g->idol_level[i]);
        vo_kint(o, "need", pac_idol_need(i, g->idol_level[i]));
        vo_kbool(o, "secured", g->idol_level[i] == PAC_SECURED);
        vo_end(o);
    }
    vo_end(o);
    if (g->n_task && g->task[g->n_task - 1].kind == PT_DISCARD)
        vo_kstr(o, "activating", g->set.c[g->task[g->n_task - 1].arg].id);
    vo_kint(o, "winner", g->winner);
    if (g->over) vo_kstr(o, "end_reason", g->end_reason);
    vo_end(o);
}

static void pac_view(const arena_game *gg, int seat, vout *o)
{
    view_as((const pacifica *)gg, seat < 0 ? ALL : seat, o);
}

static void pac_public_view(const arena_game *gg, vout *o)
{
    view_as((const pacifica *)gg, SPECTATOR, o);
}

static av *pac_settings(const arena_game *gg)
{
    const pacifica *g = (const pacifica *)gg;
    av *m = av_map();
    av_add_str(m, "cards", g->set.name);
    av *l = av_list();
    for (int c = 0; c < PAC_NCARDS; c++) {
        char line[160];
        pac_card_line(&g->set.c[c], line, sizeof line);
        av_push(l, av_str(line));
    }
    av_add(m, "card_list", l);
    return m;
}

static void pac_result(const arena_game *gg, arena_result *r)
{
    const pacifica *g = (const pacifica *)gg;
    memset(r, 0, sizeof *r);
    r->over = g->over;
    r->turns = g->turn;
    for (int s = 0; s < 2; s++) {
        r->scores[s] = pac_idols_owned(g, s, NULL);
        r->ranks[s] = !g->over ? 0 : g->winner < 0 ? 1 : g->winner == s ? 1 : 2;
    }
}

const arena_game_vt pacifica_game = {
    .name = "pacifica",
    .title = "Pacifica (2 players, designed card set)",
    .min_players = 2,
    .max_players = 2,
    .options = pac_option_docs,
    .create = pac_create,
    .clone = arena_game_clone_flat,
    .free = arena_game_free_flat,
    .decision = pac_decision,
    .label = pac_label,
    .labels = pac_labels,
    .prompt = pac_prompt,
    .apply = pac_apply,
    .view = pac_view,
    .public_view = pac_public_view,
    .event_count = arena_game_event_count,
    .event = arena_game_event,
    .turn_from = arena_game_turn_from,
    .on_turn = arena_game_on_turn,
    .settings = pac_settings,
    .result = pac_result,
    .determinize = pac_determinize,
};
