/* Dominion engine: the reaction window, playing a card, the turn flow,
 * scoring, setup and the game interface. Resolution runs on a stack of
 * resumable frames so that any step can stop for a decision. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "engine.h"
#include "util.h"

/* ---- reaction window ---- */

static bool has_lighthouse(const dom_player *pl)
{
    return dom_count(&pl->z[Z_PLAY], C_LIGHTHOUSE) + dom_count(&pl->z[Z_DUR], C_LIGHTHOUSE) > 0;
}

/* Asks each other player in turn order whether to reveal Moat; Lighthouse
 * protects without asking. Writes the immunity mask into the parent. */
static int fr_react(dom_game *g, dom_frame *f)
{
    dom_frame *parent = f - 1;
    for (;;) {
        if (f->step == 1) {
            f->step = 0;
            if (ans_word(g) == SP_REVEAL) {
                int v = (f->player + f->a) % g->np;
                parent->mask |= 1u << v;
                ev_card(g, EVENTS_ALL, "reaction", v, C_MOAT);
                hand_seen_shown(g, v, C_MOAT);
            }
        }
        f->a++;
        if (f->a >= g->np) return R_DONE;
        int v = (f->player + f->a) % g->np;
        if (has_lighthouse(&g->p[v])) {
            if (!(parent->mask >> v & 1)) ev_card(g, EVENTS_ALL, "protected", v, C_LIGHTHOUSE);
            parent->mask |= 1u << v;
        }
        if (dom_count(&g->p[v].z[Z_HAND], C_MOAT) > 0) {
            f->step = 1;
            if (ask_words(g, v, DK_MOAT, SP_REVEAL, SP_PASS, C_MOAT)) return R_WAIT;
            continue;
        }
    }
}

/* ---- playing a card ---- */

static int fr_play(dom_game *g, dom_frame *f)
{
    const dom_card_info *ci = &dom_cards[f->card];
    switch (f->step) {
    case 0:
        ev_card(g, EVENTS_ALL, "play", f->player, f->card);
        f->step = 1;
        if (ci->types & T_ATTACK) {
            push_frame(g, FR_REACT, f->card, f->player, 0);
            return R_PUSH;
        }
        FALLTHROUGH;
    case 1:
        if (ci->cards) draw(g, f->player, ci->cards);
        g->actions += ci->actions;
        g->buys += ci->buys;
        g->coins += ci->coins;
        if (ci->d_always) mark_stay(g, f);
        f->step = 2;
        FALLTHROUGH;
    default: return card_special(g, f);
    }
}

/* ---- the turn ---- */

enum {
    TS_START,
    TS_ACTION,
    TS_ACTION_ANSWER,
    TS_BUY_START,
    TS_BUY,
    TS_BUY_ANSWER,
    TS_CLEANUP,
    TS_CLEANUP_ANSWER
};

/* A pile that was empty during the turn counts as empty even if Ambassador
 * refilled it (Seaside rulebook, SPIELENDE). */
static bool game_should_end(const dom_game *g)
{
    int empty = 0;
    for (int i = 0; i < g->npiles; i++) {
        int c = g->piles[i];
        bool e = g->supply[c] == 0 || (g->emptied >> c & 1);
        if (e && c == C_PROVINCE) return true;
        empty += e;
    }
    if (empty >= 3) return true;
    for (int s = 0; s < g->np; s++)
        if (g->p[s].turns < g->max_turns) return false;
    return true;
}

static void cleanup(dom_game *g, int ntreasury)
{
    int p = g->cur;
    dom_player *pl = &g->p[p];
    /* The rulebook puts what was in play and the hand on the discard pile
     * and leaves the order to the player (Seaside rulebook, "Die
     * Dauerkarten": "Normalerweise werden alle ausgespielten Aktionskarten
     * in der Aufräumphase ... auf den Ablagestapel gelegt"). The hand goes
     * first, so the top is a card everyone saw in play. When nothing leaves
     * play the top would be a hand card the referee picked, telling the
     * others what the player never showed: the pile then lies face down
     * (as after Chancellor) until a card is seen going onto it. */
    uint8_t cs[DOM_ZCAP]; /* every card of the game fits */
    int n = 0;
    const dom_zone *h = &pl->z[Z_HAND];
    memcpy(cs, h->c, h->n);
    n += h->n;
    int nhand = n;
    discard_zone(g, p, Z_HAND, false);
    /* last turn's Durations have done their part */
    const dom_zone *dz = &pl->z[Z_DUR];
    memcpy(cs + n, dz->c, dz->n);
    n += dz->n;
    discard_zone(g, p, Z_DUR, true);
    for (int k = 0; k < ntreasury; k++)
        zremove(&pl->z[Z_PLAY], C_TREASURY);
    dom_zone *pz = &pl->z[Z_PLAY];
    for (int i = 0; i < pz->n; i++) {
        int c = pz->c[i];
        if (pl->any_stay && pl->stay[c] > 0) {
            pl->stay[c]--;
            zpush(&pl->z[Z_DUR], c);
        } else {
            discard_put(g, p, c, true);
            cs[n++] = (uint8_t)c;
        }
    }
    pz->n = 0;
    if (pl->any_stay) memset(pl->stay, 0, sizeof pl->stay);
    pl->any_stay = false;
    if (n > nhand) discard_top_seen(g, p);
    ev_discard_many(g, p, cs, n);
    for (int k = 0; k < ntreasury; k++)
        deck_put(g, p, C_TREASURY, SEEN_OWNER | SEEN_ALL);
    if (ntreasury) ev_simple(g, EVENTS_ALL, "treasury_topdeck", p, "count", ntreasury);
    bool extra = g->outpost && !g->extra_turn;
    ev_simple(g, EVENTS_ALL, "cleanup", p, NULL, 0);
    draw(g, p, extra ? 3 : 5);
    g->turn++;
    if (game_should_end(g)) {
        events_turn_moved(&g->base.ev);
        g->over = true;
        if (!g->base.ev.disabled) {
            av *e = ev_new("game_end", -1);
            av *sc = av_list();
            for (int s = 0; s < g->np; s++)
                av_push(sc, av_int(dom_score(g, s)));
            av_add(e, "scores", sc);
            events_push(&g->base.ev, EVENTS_ALL, e);
        }
        return;
    }
    if (extra) {
        g->extra_turn = true;
    } else {
        g->extra_turn = false;
        g->cur = (g->cur + 1) % g->np;
    }
    /* The live board cut here shows the next turn as it starts. */
    g->actions = g->buys = 1;
    g->coins = 0;
    events_turn_moved(&g->base.ev);
}

static int fr_turn(dom_game *g, dom_frame *f)
{
    int p = g->cur;
    dom_player *pl = &g->p[p];
    for (;;)
        switch (f->step) {
        case TS_START:
            g->actions = 1;
            g->buys = 1;
            g->coins = 0;
            g->outpost = false;
            g->bought_victory = false;
            pl->gained_last = 0;
            g->emptied = 0;
            for (int i = 0; i < g->npiles; i++)
                if (g->supply[g->piles[i]] == 0) g->emptied |= 1ull << g->piles[i];
            if (!g->extra_turn) pl->turns++;
            if (!g->base.ev.disabled) {
                av *e = ev_new("turn", p);
                av_add_int(e, "turn", pl->turns);
                av_add_bool(e, "extra", g->extra_turn);
                events_push(&g->base.ev, EVENTS_ALL, e);
            }
            start_of_turn_durations(g);
            f->step = TS_ACTION;
            break;
        case TS_ACTION: {
            f->step = TS_BUY_START;
            if (g->actions <= 0) break;
            uint64_t have = 0;
            const dom_zone *h = &pl->z[Z_HAND];
            for (int i = 0; i < h->n; i++)
                if (dom_cards[h->c[i]].types & T_ACTION) have |= 1ull << h->c[i];
            if (!have) break;
            dec_begin(g, p, DK_ACTION, PFX_PLAY);
            for (int c = 0; c < DOM_NCARDS; c++)
                if (have >> c & 1) dec_add(g, 0, c);
            dec_add(g, SP_END_ACTIONS, DOM_NOCARD);
            f->step = TS_ACTION_ANSWER;
            dec_ask(g, 1, 1, false);
            return R_WAIT;
        }
        case TS_ACTION_ANSWER: {
            int o = ans_opt(g, 0);
            if (dom_opt_special(o) == SP_END_ACTIONS) {
                f->step = TS_BUY_START;
                break;
            }
            int c = dom_opt_card(o);
            g->actions--;
            zremove(&pl->z[Z_HAND], c);
            hand_left(g, p, c, true);
            zpush(&pl->z[Z_PLAY], c);
            f->step = TS_ACTION;
            push_frame(g, FR_PLAY, c, p, 0);
            return R_PUSH;
        }
        case TS_BUY_START: {
            /* Treasures are played automatically. */
            dom_zone *h = &pl->z[Z_HAND];
            int j = 0;
            uint8_t played[DOM_ZCAP];
            int np = 0;
            for (int i = 0; i < h->n; i++) {
                int c = h->c[i];
                if (dom_cards[c].types & T_TREASURE) {
                    g->coins += dom_cards[c].coins;
                    hand_left(g, p, c, true);
                    zpush(&pl->z[Z_PLAY], c);
                    played[np++] = (uint8_t)c;
                } else {
                    h->c[j++] = (uint8_t)c;
                }
            }
            h->n = (uint16_t)j;
            if (np) ev_cards(g, EVENTS_ALL, "play_treasures", p, played, np);
            f->step = TS_BUY;
            break;
        }
        case TS_BUY:
            f->step = TS_CLEANUP;
            if (g->buys <= 0) break;
            dec_begin(g, p, DK_BUY, PFX_BUY);
            for (int i = 0; i < g->npiles; i++) {
                int c = g->piles[i];
                if (g->supply[c] > 0 && dom_cards[c].cost <= g->coins) dec_add(g, 0, c);
            }
            dec_add(g, SP_END_TURN, DOM_NOCARD);
            f->step = TS_BUY_ANSWER;
            if (dec_ask(g, 1, 1, false)) return R_WAIT;
            break;
        case TS_BUY_ANSWER: {
            int o = ans_opt(g, 0);
            if (dom_opt_special(o) == SP_END_TURN) {
                f->step = TS_CLEANUP;
                break;
            }
            int c = dom_opt_card(o);
            g->coins -= dom_cards[c].cost;
            g->buys--;
            ev_card(g, EVENTS_ALL, "buy", p, c);
            gain(g, p, c, TO_DISCARD);
            if (dom_cards[c].types & T_VICTORY) g->bought_victory = true;
            for (int k = 0; k < g->embargo[c]; k++)
                gain(g, p, C_CURSE, TO_DISCARD);
            f->step = TS_BUY;
            break;
        }
        case TS_CLEANUP: {
            int nt = g->bought_victory ? 0 : dom_count(&pl->z[Z_PLAY], C_TREASURY);
            if (nt > 0) {
                dec_begin(g, p, DK_TREASURY, PFX_CARD);
                for (int k = 0; k < nt; k++)
                    dec_add(g, 0, C_TREASURY);
                f->step = TS_CLEANUP_ANSWER;
                dec_ask(g, 0, nt, false);
                return R_WAIT;
            }
            g->nans = 0;
            f->step = TS_CLEANUP_ANSWER;
            break;
        }
        case TS_CLEANUP_ANSWER: cleanup(g, g->nans); return R_DONE;
        default: abort();
        }
}

/* Runs frames until a decision is needed or the game ends. */
static void run(dom_game *g)
{
    g->has_dec = false;
    while (!g->over) {
        if (g->sp == 0) push_frame(g, FR_TURN, 0, g->cur, 0);
        dom_frame *f = &g->st[g->sp - 1];
        int r = f->kind == FR_TURN   ? fr_turn(g, f)
                : f->kind == FR_PLAY ? fr_play(g, f)
                                     : fr_react(g, f);
        if (r == R_WAIT) return;
        if (r == R_DONE) {
            if (f->kind == FR_PLAY && (f->flags & F_STAYED)) {
                if (!(f->flags & F_NOSTAY)) {
                    g->p[f->player].stay[f->card]++;
                    g->p[f->player].any_stay = true;
                }
                if (g->sp >= 2 && g->st[g->sp - 2].kind == FR_PLAY)
                    g->st[g->sp - 2].flags |= F_CHILD_STAYED;
            }
            g->sp--;
        }
    }
    g->has_dec = false;
}

/* ---- scoring ---- */

int dom_owned(const dom_game *g, int seat)
{
    int n = 0;
    for (int z = 0; z < Z_COUNT; z++)
        n += g->p[seat].z[z].n;
    return n;
}

int dom_owned_count(const dom_game *g, int seat, int card)
{
    int n = 0;
    for (int z = 0; z < Z_COUNT; z++)
        n += dom_count(&g->p[seat].z[z], card);
    return n;
}

int dom_score(const dom_game *g, int seat)
{
    int vp = 0, total = 0;
    for (int z = 0; z < Z_COUNT; z++) {
        const dom_zone *zz = &g->p[seat].z[z];
        total += zz->n;
        for (int i = 0; i < zz->n; i++)
            vp += dom_cards[zz->c[i]].vp;
    }
    vp += dom_owned_count(g, seat, C_GARDENS) * (total / 10);
    return vp;
}

int dom_empty_piles(const dom_game *g)
{
    int n = 0;
    for (int i = 0; i < g->npiles; i++)
        n += g->supply[g->piles[i]] == 0;
    return n;
}

/* ---- setup ---- */

static const arena_option_doc dom_options[] = {
    {"kingdom",
     "random|first-game|high-seas|buried-treasure|shipwrecks|reach-for-tomorrow|"
     "repetition|give-and-take|<10 comma-separated card names>",
     "random", "the 10 kingdom cards"},
    {"max_turns", "integer 1..1000", "100",
     "game ends after every player took this many turns (Outpost turns not counted)"},
    {0},
};

/* The message names the sets first: a short error buffer still shows them. */
static arena_game *dom_create(const arena_setting *set, size_t nset, uint64_t seed, int players,
                              unsigned flags, char *err, size_t errlen)
{
    if (players < 2 || players > 4) {
        snprintf(err, errlen, "dominion is for 2 to 4 players, not %d", players);
        return NULL;
    }
    const char *kingdom = "random";
    long max_turns = 100;
    for (size_t i = 0; i < nset; i++) {
        if (strcmp(set[i].key, "kingdom") == 0) {
            kingdom = set[i].value;
        } else if (strcmp(set[i].key, "max_turns") == 0) {
            char *end;
            max_turns = strtol(set[i].value, &end, 10);
            /* Never unlimited: players left with no cards and nothing at
             * $0 in the Supply are asked nothing more, and only the limit
             * stops run() from turning over empty turns for ever. */
            if (!*set[i].value || *end || max_turns < 1 || max_turns > 1000) {
                snprintf(err, errlen, "max_turns must be an integer from 1 to 1000");
                return NULL;
            }
        } else {
            snprintf(err, errlen, "dominion has no setting '%s' (known: kingdom, max_turns)",
                     set[i].key);
            return NULL;
        }
    }
    dom_game *g = xcalloc(1, sizeof *g);
    g->base.vt = &dominion_game;
    g->base.size = sizeof *g;
    g->np = players;
    g->max_turns = (int)max_turns;
    game_rng_seed(&g->rng, seed);
    g->base.ev.disabled = (flags & ARENA_GAME_NO_EVENTS) != 0;
    if (!dom_parse_kingdom(kingdom, g, err, errlen)) {
        free(g);
        return NULL;
    }
    int big = players > 2;
    g->supply[C_COPPER] = (uint8_t)(60 - 7 * players);
    g->supply[C_SILVER] = 40;
    g->supply[C_GOLD] = 30;
    g->supply[C_ESTATE] = big ? 12 : 8;
    g->supply[C_DUCHY] = big ? 12 : 8;
    g->supply[C_PROVINCE] = big ? 12 : 8;
    g->supply[C_CURSE] = (uint8_t)(10 * (players - 1));
    for (int c = 0; c < DOM_FIRST_KINGDOM; c++)
        g->in_supply[c] = true;
    for (int i = 0; i < 10; i++) {
        int c = g->kingdom[i];
        g->in_supply[c] = true;
        g->supply[c] = (dom_cards[c].types & T_VICTORY) ? (big ? 12 : 8) : 10;
    }
    for (int s = 0; s < players; s++) {
        for (int k = 0; k < 7; k++)
            discard_put(g, s, C_COPPER, true);
        for (int k = 0; k < 3; k++)
            discard_put(g, s, C_ESTATE, true);
        draw(g, s, 5);
    }
    for (int c = 0; c < DOM_NCARDS; c++) {
        g->total_cards += g->supply[c];
        if (g->in_supply[c]) g->piles[g->npiles++] = (uint8_t)c;
    }
    g->total_cards += 10 * players;
    run(g);
    return &g->base;
}

static bool dom_get_decision(const arena_game *gg, arena_decision *d)
{
    const dom_game *g = (const dom_game *)gg;
    if (g->over || !g->has_dec) return false;
    d->seat = g->dec.seat;
    d->kind = dom_kind_name(g->dec.kind);
    d->n_options = g->dec.n;
    d->pick_min = g->dec.pmin;
    d->pick_max = g->dec.pmax;
    d->pick_ordered = g->dec.ordered;
    d->turn = g->turn + 1;
    return true;
}

static bool dom_apply(arena_game *gg, const int *choice, int n)
{
    dom_game *g = (dom_game *)gg;
    if (g->over || !g->has_dec) return false;
    const dom_decision *d = &g->dec;
    if (n < d->pmin || n > d->pmax) return false;
    uint64_t used[(DOM_OPTCAP + 63) / 64] = {0};
    for (int i = 0; i < n; i++) {
        int c = choice[i];
        if (c < 0 || c >= d->n || (used[c >> 6] >> (c & 63) & 1)) return false;
        used[c >> 6] |= 1ull << (c & 63);
        g->ans[i] = (int16_t)choice[i];
    }
    g->nans = n;
    if (!d->ordered) {
        /* canonical order, so that the order of an unordered pick cannot
         * change the game (e.g. which discarded card ends on top) */
        for (int i = 1; i < n; i++)
            for (int j = i; j > 0 && g->ans[j - 1] > g->ans[j]; j--) {
                int16_t t = g->ans[j];
                g->ans[j] = g->ans[j - 1];
                g->ans[j - 1] = t;
            }
    }
    run(g);
    return true;
}

static av *dom_settings(const arena_game *gg)
{
    const dom_game *g = (const dom_game *)gg;
    av *m = av_map();
    av_set_str(m, "kingdom_id", g->kingdom_id);
    av *k = av_list();
    for (int i = 0; i < 10; i++)
        av_push(k, av_str(dom_cards[g->kingdom[i]].name));
    av_set(m, "kingdom", k);
    av_set_int(m, "max_turns", g->max_turns);
    return m;
}

static void dom_result(const arena_game *gg, arena_result *r)
{
    const dom_game *g = (const dom_game *)gg;
    memset(r, 0, sizeof *r);
    r->over = g->over;
    int64_t tb[ARENA_MAX_SEATS] = {0};
    int maxt = 0;
    for (int s = 0; s < g->np; s++) {
        r->scores[s] = dom_score(g, s);
        tb[s] = g->p[s].turns;
        if (g->p[s].turns > maxt) maxt = g->p[s].turns;
    }
    r->turns = maxt;
    if (g->over) arena_rank_by_score(g->np, r->scores, tb, r->ranks);
}

void dom_view(const arena_game *gg, int seat, vout *o);
void dom_public_view(const arena_game *gg, vout *o);

const arena_game_vt dominion_game = {
    .name = "dominion",
    .title = "Dominion (Base + Seaside, 1st editions)",
    .min_players = 2,
    .max_players = 4,
    .options = dom_options,
    .create = dom_create,
    .clone = arena_game_clone_flat,
    .free = arena_game_free_flat,
    .decision = dom_get_decision,
    .label = dom_label,
    .prompt = dom_prompt,
    .apply = dom_apply,
    .view = dom_view,
    .public_view = dom_public_view,
    .event_count = arena_game_event_count,
    .event = arena_game_event,
    .turn_from = arena_game_turn_from,
    .on_turn = arena_game_on_turn,
    .settings = dom_settings,
    .result = dom_result,
    .determinize = dom_determinize,
};

void dom_test_begin_turn(dom_game *g, int seat)
{
    g->cur = seat;
    g->sp = 0;
    g->extra_turn = false;
    run(g);
}
