/* The special part of each card, as resumable steps. A play frame arrives
 * here at step 2, after any Reaction window (step 0) and the card's data
 * effects (step 1). A hook returns R_WAIT after asking (and is re-entered at
 * the step it set), R_PUSH after pushing a frame, R_DONE when finished.
 * Attack hooks walk the other players with f->a (1..np-1, turn order from
 * the attacker's left) and skip those in f->mask (Moat, Lighthouse). */
#include <string.h>

#include "engine.h"

static int victim(const dom_game *g, const dom_frame *f)
{
    return (f->player + f->a) % g->np;
}

/* Options: each distinct Treasure in a zone. */
static bool ask_zone_treasure(dom_game *g, int seat, int owner, int zone, int kind)
{
    const dom_zone *z = &g->p[owner].z[zone];
    uint64_t have = 0;
    for (int i = 0; i < z->n; i++)
        if (dom_cards[z->c[i]].types & T_TREASURE) have |= 1ull << z->c[i];
    dec_begin(g, seat, kind, PFX_CARD);
    for (int c = 0; c < DOM_NCARDS; c++)
        if (have >> c & 1) dec_add(g, 0, c);
    return dec_ask(g, 1, 1, false);
}

/* Revealed or set-aside cards (already shown to all) to the discard pile. */
static void aside_to_discard(dom_game *g, int p)
{
    dom_zone *a = &g->p[p].z[Z_ASIDE];
    if (a->n) ev_cards(g, EVENTS_ALL, "discard", p, a->c, a->n);
    discard_zone(g, p, Z_ASIDE, true);
}

/* The hand cards chosen in the answer, discarded at once. */
static void discard_answer(dom_game *g, int p)
{
    uint8_t cs[DOM_OPTCAP];
    for (int i = 0; i < g->nans; i++)
        cs[i] = (uint8_t)ans_card(g, i);
    discard_cards(g, p, Z_HAND, cs, g->nans);
}

static void reveal_hand(dom_game *g, int p)
{
    const dom_zone *h = &g->p[p].z[Z_HAND];
    memset(g->p[p].hand_seen, 0, sizeof g->p[p].hand_seen);
    for (int i = 0; i < h->n; i++)
        hand_seen_add(g, p, h->c[i]);
    ev_cards(g, EVENTS_ALL, "reveal_hand", p, h->c, h->n);
}

static int reveal_n(dom_game *g, int p, int n)
{
    int k = 0;
    while (k < n && reveal_top(g, p) >= 0)
        k++;
    return k;
}

static void move_card(dom_game *g, int p, int from, int to, int card)
{
    if (zremove(&g->p[p].z[from], card)) zpush(&g->p[p].z[to], card);
}

/* Walks victims; returns -1 when done. Skips immune players. */
static int next_victim(dom_game *g, dom_frame *f)
{
    for (;;) {
        f->a++;
        if (f->a >= g->np) return -1;
        int v = victim(g, f);
        if (!immune(f, v)) return v;
    }
}

/* Thief and Pirate Ship: reveal 2, attacker trashes a Treasure, rest is
 * discarded. Steps: 3 next victim, 4 trash answer, 5 (Thief) gain answer. */
static int thief_like(dom_game *g, dom_frame *f, bool thief)
{
    int p = f->player;
    for (;;) {
        switch (f->step) {
        case 3: {
            int v = next_victim(g, f);
            if (v < 0) {
                if (!thief && f->b) {
                    g->p[p].coin_tokens++;
                    ev_simple(g, EVENTS_ALL, "coin_token", p, "total", g->p[p].coin_tokens);
                }
                return R_DONE;
            }
            int n = reveal_n(g, v, 2);
            dom_zone *a = &g->p[v].z[Z_ASIDE];
            if (n) ev_cards(g, EVENTS_ALL, "reveal", v, a->c, a->n);
            f->step = 4;
            if (ask_zone_treasure(g, p, v, Z_ASIDE, thief ? DK_THIEF_TRASH : DK_PIRATE_TRASH))
                return R_WAIT;
            break;
        }
        case 4: {
            int v = victim(g, f);
            f->step = 3;
            if (g->nans == 0) {
                aside_to_discard(g, v);
                break;
            }
            int c = ans_card(g, 0);
            trash_from(g, v, Z_ASIDE, c);
            aside_to_discard(g, v);
            f->b = 1;
            if (thief) {
                f->step = 5;
                if (ask_words(g, p, DK_THIEF_GAIN, SP_GAIN, SP_PASS, c)) return R_WAIT;
            }
            break;
        }
        case 5:
            f->step = 3;
            if (ans_word(g) == SP_GAIN) gain_from_trash(g, p, ans_card(g, 0));
            break;
        }
    }
}

int card_special(dom_game *g, dom_frame *f)
{
    int p = f->player;
    dom_player *pl = &g->p[p];
    dom_zone *hand = &pl->z[Z_HAND];

    switch (f->card) {
    case C_CELLAR:
        if (f->step == 2) {
            f->step = 3;
            if (ask_hand_all(g, p, DK_CELLAR, 0, hand->n, false)) return R_WAIT;
        }
        discard_answer(g, p);
        draw(g, p, g->nans);
        return R_DONE;

    case C_CHAPEL:
        if (f->step == 2) {
            f->step = 3;
            if (ask_hand_all(g, p, DK_CHAPEL, 0, 4, false)) return R_WAIT;
        }
        for (int i = 0; i < g->nans; i++)
            trash_from(g, p, Z_HAND, ans_card(g, i));
        return R_DONE;

    case C_CHANCELLOR:
        if (f->step == 2) {
            if (pl->z[Z_DECK].n == 0) return R_DONE;
            f->step = 3;
            if (ask_words(g, p, DK_CHANCELLOR, SP_DISCARD_DECK, SP_KEEP, DOM_NOCARD)) return R_WAIT;
        }
        if (ans_word(g) == SP_DISCARD_DECK) {
            ev_simple(g, EVENTS_ALL, "discard_deck", p, "count", pl->z[Z_DECK].n);
            discard_zone_under(g, p, Z_DECK);
        }
        return R_DONE;

    case C_WORKSHOP:
    case C_FEAST:
        if (f->step == 2) {
            if (f->card == C_FEAST && !(f->flags & F_REPLAY)) trash_from(g, p, Z_PLAY, C_FEAST);
            f->step = 3;
            if (ask_supply(g, p, f->card == C_FEAST ? DK_FEAST : DK_WORKSHOP,
                           f->card == C_FEAST ? 5 : 4, 0))
                return R_WAIT;
        }
        if (g->nans) gain(g, p, ans_card(g, 0), TO_DISCARD);
        return R_DONE;

    case C_BUREAUCRAT:
        if (f->step == 2) {
            gain(g, p, C_SILVER, TO_DECK);
            f->step = 3;
        }
        for (;;) {
            if (f->step == 4) topdeck_from(g, victim(g, f), Z_HAND, ans_card(g, 0), true);
            f->step = 3;
            int v = next_victim(g, f);
            if (v < 0) return R_DONE;
            bool any = false;
            for (int i = 0; i < g->p[v].z[Z_HAND].n; i++)
                any |= (dom_cards[g->p[v].z[Z_HAND].c[i]].types & T_VICTORY) != 0;
            if (!any) {
                reveal_hand(g, v);
                continue;
            }
            f->step = 4;
            if (ask_hand_distinct(g, v, DK_BUREAUCRAT, T_VICTORY)) return R_WAIT;
        }

    case C_MILITIA:
        if (f->step == 2) f->step = 3;
        for (;;) {
            if (f->step == 4) {
                discard_answer(g, victim(g, f));
            }
            f->step = 3;
            int v = next_victim(g, f);
            if (v < 0) return R_DONE;
            int n = g->p[v].z[Z_HAND].n;
            if (n <= 3) continue;
            f->step = 4;
            if (ask_hand_all(g, v, DK_MILITIA, n - 3, n - 3, false)) return R_WAIT;
        }

    case C_MONEYLENDER:
        if (dom_count(hand, C_COPPER)) {
            trash_from(g, p, Z_HAND, C_COPPER);
            g->coins += 3;
        }
        return R_DONE;

    case C_REMODEL:
    case C_MINE:
    case C_SALVAGER: {
        bool mine = f->card == C_MINE;
        switch (f->step) {
        case 2:
            f->step = 3;
            if (ask_hand_distinct(g, p,
                                  mine                   ? DK_MINE_TRASH
                                  : f->card == C_REMODEL ? DK_REMODEL_TRASH
                                                         : DK_SALVAGER,
                                  mine ? T_TREASURE : 0))
                return R_WAIT;
            FALLTHROUGH;
        case 3: {
            if (g->nans == 0) return R_DONE;
            int c = ans_card(g, 0);
            trash_from(g, p, Z_HAND, c);
            if (f->card == C_SALVAGER) {
                g->coins += dom_cards[c].cost;
                return R_DONE;
            }
            f->step = 4;
            if (ask_supply(g, p, mine ? DK_MINE_GAIN : DK_REMODEL_GAIN,
                           dom_cards[c].cost + (mine ? 3 : 2), mine ? T_TREASURE : 0))
                return R_WAIT;
        }
            FALLTHROUGH;
        default:
            if (g->nans) gain(g, p, ans_card(g, 0), mine ? TO_HAND : TO_DISCARD);
            return R_DONE;
        }
    }

    case C_SPY:
        /* f->a walks every player from the attacker (k = 0) on */
        if (f->step == 2) {
            f->a = -1;
            f->step = 3;
        }
        for (;;) {
            if (f->step == 4) {
                int v = (p + f->a) % g->np;
                int c = ans_card(g, 0);
                if (ans_word(g) == SP_DISCARD)
                    discard_from(g, v, Z_ASIDE, c);
                else
                    topdeck_from(g, v, Z_ASIDE, c, true);
            }
            f->step = 3;
            f->a++;
            if (f->a >= g->np) return R_DONE;
            int v = (p + f->a) % g->np;
            if (f->a > 0 && immune(f, v)) continue;
            int c = reveal_top(g, v);
            if (c < 0) continue;
            ev_card(g, EVENTS_ALL, "reveal", v, c);
            f->step = 4;
            if (ask_words(g, p, DK_SPY, SP_DISCARD, SP_KEEP, c)) return R_WAIT;
        }

    case C_THIEF:
    case C_PIRATE_SHIP:
        if (f->step == 2) {
            if (f->card == C_PIRATE_SHIP) {
                f->step = 6;
                if (ask_words(g, p, DK_PIRATE_MODE, SP_ATTACK, SP_COINS, DOM_NOCARD)) return R_WAIT;
            } else {
                f->step = 3;
            }
        }
        if (f->step == 6) {
            if (ans_word(g) == SP_COINS) {
                g->coins += pl->coin_tokens;
                return R_DONE;
            }
            f->step = 3;
        }
        return thief_like(g, f, f->card == C_THIEF);

    case C_THRONE_ROOM:
        switch (f->step) {
        case 2:
            f->step = 3;
            if (ask_hand_distinct(g, p, DK_THRONE_ROOM, T_ACTION)) return R_WAIT;
            FALLTHROUGH;
        case 3: {
            if (g->nans == 0) return R_DONE;
            int c = ans_card(g, 0);
            f->c = (int16_t)c;
            zremove(hand, c);
            hand_left(g, p, c, true);
            zpush(&pl->z[Z_PLAY], c);
            f->step = 4;
            push_frame(g, FR_PLAY, c, p, F_NOSTAY);
            return R_PUSH;
        }
        case 4:
            f->step = 5;
            push_frame(g, FR_PLAY, f->c, p, F_NOSTAY | F_REPLAY);
            return R_PUSH;
        default:
            /* a Throne Room stays in play as long as a card it played does */
            if (f->flags & F_CHILD_STAYED) {
                pl->stay[f->c]++;
                pl->any_stay = true;
                f->flags |= F_STAYED;
            }
            return R_DONE;
        }

    case C_COUNCIL_ROOM:
        for (int k = 1; k < g->np; k++)
            draw(g, (p + k) % g->np, 1);
        return R_DONE;

    case C_LIBRARY:
        for (;;) {
            if (f->step == 3) {
                if (ans_word(g) == SP_SET_ASIDE) {
                    int c = ans_card(g, 0);
                    move_card(g, p, Z_HAND, Z_ASIDE, c);
                    hand_left(g, p, c, true);
                    ev_card(g, EVENTS_ALL, "set_aside", p, c);
                }
            }
            f->step = 2;
            if (hand->n >= 7 || draw(g, p, 1) == 0) {
                aside_to_discard(g, p);
                return R_DONE;
            }
            int c = hand->c[hand->n - 1];
            if (!(dom_cards[c].types & T_ACTION)) continue;
            f->step = 3;
            if (ask_words(g, p, DK_LIBRARY, SP_SET_ASIDE, SP_KEEP, c)) return R_WAIT;
        }

    case C_WITCH:
    case C_SEA_HAG:
        for (;;) {
            int v = next_victim(g, f);
            if (v < 0) return R_DONE;
            if (f->card == C_SEA_HAG) {
                int c = reveal_top(g, v);
                if (c >= 0) discard_from(g, v, Z_ASIDE, c);
                gain(g, v, C_CURSE, TO_DECK);
            } else {
                gain(g, v, C_CURSE, TO_DISCARD);
            }
        }

    case C_ADVENTURER: {
        int found = 0;
        dom_zone *a = &pl->z[Z_ASIDE];
        while (found < 2) {
            int c = reveal_top(g, p);
            if (c < 0) break;
            ev_card(g, EVENTS_ALL, "reveal", p, c);
            if (dom_cards[c].types & T_TREASURE) {
                a->n--;
                zpush(hand, c);
                hand_seen_add(g, p, c);
                found++;
            }
        }
        aside_to_discard(g, p);
        return R_DONE;
    }

    case C_EMBARGO:
        if (f->step == 2) {
            if (!(f->flags & F_REPLAY)) trash_from(g, p, Z_PLAY, C_EMBARGO);
            dec_begin(g, p, DK_EMBARGO, PFX_CARD);
            for (int c = 0; c < DOM_NCARDS; c++)
                if (g->in_supply[c]) dec_add(g, 0, c);
            f->step = 3;
            if (dec_ask(g, 1, 1, false)) return R_WAIT;
        }
        g->embargo[ans_card(g, 0)]++;
        ev_card(g, EVENTS_ALL, "embargo", p, ans_card(g, 0));
        return R_DONE;

    case C_HAVEN:
    case C_ISLAND:
        if (f->step == 2) {
            if (f->card == C_ISLAND && !(f->flags & F_REPLAY) &&
                zremove(&pl->z[Z_PLAY], C_ISLAND)) {
                zpush(&pl->z[Z_ISLAND], C_ISLAND);
                ev_card(g, EVENTS_ALL, "island", p, C_ISLAND);
            }
            f->step = 3;
            if (ask_hand_distinct(g, p, f->card == C_HAVEN ? DK_HAVEN : DK_ISLAND, 0))
                return R_WAIT;
        }
        if (g->nans) {
            int c = ans_card(g, 0);
            if (f->card == C_ISLAND) {
                move_card(g, p, Z_HAND, Z_ISLAND, c);
                hand_left(g, p, c, true);
                ev_card(g, EVENTS_ALL, "island", p, c);
            } else {
                move_card(g, p, Z_HAND, Z_HAVEN, c);
                hand_left(g, p, c, false);
                ev_card(g, EVENTS_SEAT(p), "haven", p, c);
                ev_simple(g, EVENTS_ALL & ~EVENTS_SEAT(p), "haven", p, NULL, 0);
                mark_stay(g, f);
            }
        }
        return R_DONE;

    case C_NATIVE_VILLAGE:
        if (f->step == 2) {
            f->step = 3;
            if (ask_words(g, p, DK_NATIVE_VILLAGE, SP_TO_MAT, SP_TAKE_MAT, DOM_NOCARD))
                return R_WAIT;
        }
        if (ans_word(g) == SP_TO_MAT) {
            int c = reveal_top(g, p);
            if (c >= 0) {
                move_card(g, p, Z_ASIDE, Z_NVMAT, c);
                ev_card(g, EVENTS_SEAT(p), "native_village", p, c);
                ev_simple(g, EVENTS_ALL & ~EVENTS_SEAT(p), "native_village", p, NULL, 0);
            }
        } else {
            ev_cards(g, EVENTS_SEAT(p), "native_village_take", p, pl->z[Z_NVMAT].c,
                     pl->z[Z_NVMAT].n);
            ev_simple(g, EVENTS_ALL & ~EVENTS_SEAT(p), "native_village_take", p, "count",
                      pl->z[Z_NVMAT].n);
            zmove_all(&pl->z[Z_NVMAT], hand);
        }
        return R_DONE;

    case C_PEARL_DIVER: {
        dom_zone *d = &pl->z[Z_DECK];
        if (f->step == 2) {
            if (d->n == 0) {
                /* look at the bottom of a fresh deck */
                int c = reveal_top(g, p);
                if (c < 0) return R_DONE;
                zremove(&pl->z[Z_ASIDE], c);
                deck_put(g, p, c, 0);
            }
            pl->deck_seen[0] |= SEEN_OWNER;
            f->step = 3;
            if (ask_words(g, p, DK_PEARL_DIVER, SP_TOP, SP_KEEP, d->c[0])) return R_WAIT;
        }
        /* the others do not see whether the bottom card went on top, so no
         * longer where the cards they saw put onto the deck lie */
        for (int i = 0; d->n > 1 && i < d->n; i++)
            pl->deck_seen[i] &= (uint8_t)~SEEN_ALL;
        if (ans_word(g) == SP_TOP && d->n > 1) {
            uint8_t c = d->c[0], seen = pl->deck_seen[0];
            memmove(&d->c[0], &d->c[1], (size_t)(d->n - 1));
            memmove(&pl->deck_seen[0], &pl->deck_seen[1], (size_t)(d->n - 1));
            d->c[d->n - 1] = c;
            pl->deck_seen[d->n - 1] = seen;
        }
        return R_DONE;
    }

    case C_AMBASSADOR:
        switch (f->step) {
        case 2:
            f->step = 3;
            if (ask_hand_distinct(g, p, DK_AMBASSADOR_REVEAL, 0)) return R_WAIT;
            FALLTHROUGH;
        case 3: {
            if (g->nans == 0) return R_DONE;
            int c = ans_card(g, 0);
            f->c = (int16_t)c;
            ev_card(g, EVENTS_ALL, "reveal", p, c);
            hand_seen_shown(g, p, c);
            int k = dom_count(hand, c);
            dec_begin(g, p, DK_AMBASSADOR_RETURN, PFX_CARD);
            for (int i = 0; i < k && i < 2; i++)
                dec_add(g, 0, c);
            f->step = 4;
            if (dec_ask(g, 0, 2, false)) return R_WAIT;
        }
            FALLTHROUGH;
        case 4:
            for (int i = 0; i < g->nans; i++)
                if (zremove(hand, f->c)) {
                    hand_left(g, p, f->c, true);
                    g->supply[f->c]++;
                }
            if (!g->base.ev.disabled) {
                av *e = av_map();
                av_add_str(e, "type", "return");
                av_add_int(e, "seat", p);
                av_add_str(e, "card", dom_cards[f->c].name);
                av_add_int(e, "count", g->nans);
                events_push(&g->base.ev, EVENTS_ALL, e);
            }
            for (int v; (v = next_victim(g, f)) >= 0;)
                gain(g, v, f->c, TO_DISCARD);
            return R_DONE;
        }
        return R_DONE;

    case C_LOOKOUT: {
        dom_zone *a = &pl->z[Z_ASIDE];
        switch (f->step) {
        case 2:
            if (reveal_n(g, p, 3) == 0) return R_DONE;
            ev_cards(g, EVENTS_SEAT(p), "look", p, a->c, a->n);
            f->step = 3;
            if (ask_zone(g, p, p, Z_ASIDE, DK_LOOKOUT_TRASH, 1, 1, false)) return R_WAIT;
            FALLTHROUGH;
        case 3:
            trash_from(g, p, Z_ASIDE, ans_card(g, 0));
            if (a->n == 0) return R_DONE;
            f->step = 4;
            if (ask_zone(g, p, p, Z_ASIDE, DK_LOOKOUT_DISCARD, 1, 1, false)) return R_WAIT;
            FALLTHROUGH;
        default:
            discard_from(g, p, Z_ASIDE, ans_card(g, 0));
            if (a->n) topdeck_from(g, p, Z_ASIDE, a->c[0], false);
            return R_DONE;
        }
    }

    case C_SMUGGLERS:
        if (f->step == 2) {
            uint64_t got = g->p[(p + g->np - 1) % g->np].gained_last;
            dec_begin(g, p, DK_SMUGGLERS, PFX_CARD);
            for (int c = 0; c < DOM_NCARDS; c++)
                if ((got >> c & 1) && g->in_supply[c] && g->supply[c] > 0 && dom_cards[c].cost <= 6)
                    dec_add(g, 0, c);
            f->step = 3;
            if (dec_ask(g, 1, 1, false)) return R_WAIT;
        }
        if (g->nans) gain(g, p, ans_card(g, 0), TO_DISCARD);
        return R_DONE;

    case C_WAREHOUSE:
        if (f->step == 2) {
            int k = hand->n < 3 ? hand->n : 3;
            f->step = 3;
            if (ask_hand_all(g, p, DK_WAREHOUSE, k, k, false)) return R_WAIT;
        }
        discard_answer(g, p);
        return R_DONE;

    case C_NAVIGATOR: {
        dom_zone *a = &pl->z[Z_ASIDE];
        switch (f->step) {
        case 2:
            if (reveal_n(g, p, 5) == 0) return R_DONE;
            ev_cards(g, EVENTS_SEAT(p), "look", p, a->c, a->n);
            f->step = 3;
            if (ask_words(g, p, DK_NAVIGATOR_MODE, SP_DISCARD, SP_KEEP, DOM_NOCARD)) return R_WAIT;
            FALLTHROUGH;
        case 3:
            if (ans_word(g) == SP_DISCARD) {
                /* only looked at: the others see how many and the top */
                discard_all_hidden(g, p, Z_ASIDE);
                return R_DONE;
            }
            f->step = 4;
            if (ask_zone(g, p, p, Z_ASIDE, DK_NAVIGATOR_ORDER, a->n, a->n, true)) return R_WAIT;
            FALLTHROUGH;
        default: {
            /* listed order; the last one listed ends on top */
            uint8_t cs[8];
            int n = g->nans;
            for (int i = 0; i < n; i++)
                cs[i] = (uint8_t)ans_card(g, i);
            for (int i = 0; i < n; i++)
                if (zremove(&pl->z[Z_ASIDE], cs[i])) deck_put(g, p, cs[i], SEEN_OWNER);
            return R_DONE;
        }
        }
    }

    case C_EXPLORER:
        if (f->step == 2) {
            g->nans = 0;
            f->step = 3;
            if (dom_count(hand, C_PROVINCE) &&
                ask_words(g, p, DK_EXPLORER, SP_REVEAL, SP_PASS, C_PROVINCE))
                return R_WAIT;
        }
        if (g->nans && ans_word(g) == SP_REVEAL) {
            ev_card(g, EVENTS_ALL, "reveal", p, C_PROVINCE);
            hand_seen_shown(g, p, C_PROVINCE);
            gain(g, p, C_GOLD, TO_HAND);
        } else {
            gain(g, p, C_SILVER, TO_HAND);
        }
        return R_DONE;

    case C_GHOST_SHIP:
    case C_CUTPURSE:
        if (f->step == 2) f->step = 3;
        for (;;) {
            if (f->step == 4) {
                int v = victim(g, f);
                for (int i = 0; i < g->nans; i++)
                    topdeck_from(g, v, Z_HAND, ans_card(g, i), false);
            }
            f->step = 3;
            int v = next_victim(g, f);
            if (v < 0) return R_DONE;
            dom_zone *vh = &g->p[v].z[Z_HAND];
            if (f->card == C_CUTPURSE) {
                if (dom_count(vh, C_COPPER))
                    discard_from(g, v, Z_HAND, C_COPPER);
                else
                    reveal_hand(g, v);
                continue;
            }
            if (vh->n < 4) continue;
            f->step = 4;
            if (ask_hand_all(g, v, DK_GHOST_SHIP, vh->n - 3, vh->n - 3, true)) return R_WAIT;
        }

    case C_OUTPOST:
        if (!g->extra_turn && !g->outpost) {
            g->outpost = true;
            mark_stay(g, f);
        }
        return R_DONE;

    case C_TACTICIAN:
        if (hand->n > 0) {
            discard_all_hidden(g, p, Z_HAND);
            mark_stay(g, f);
        }
        return R_DONE;

    case C_TREASURE_MAP: {
        int n = 0;
        if (!(f->flags & F_REPLAY) && dom_count(&pl->z[Z_PLAY], C_TREASURE_MAP)) {
            trash_from(g, p, Z_PLAY, C_TREASURE_MAP);
            n++;
        }
        if (dom_count(hand, C_TREASURE_MAP)) {
            trash_from(g, p, Z_HAND, C_TREASURE_MAP);
            n++;
        }
        if (n == 2)
            for (int k = 0; k < 4; k++)
                gain(g, p, C_GOLD, TO_DECK);
        return R_DONE;
    }

    default:
        /* the card is pure data */
        return R_DONE;
    }
}

void start_of_turn_durations(dom_game *g)
{
    int p = g->cur;
    dom_player *pl = &g->p[p];
    for (int c = 0; pl->any_dur && c < DOM_NCARDS; c++) {
        int k = pl->dur_next[c];
        if (!k) continue;
        pl->dur_next[c] = 0;
        const dom_card_info *ci = &dom_cards[c];
        ev_simple(g, EVENTS_ALL, "duration", p, "times", k);
        if (!g->base.ev.disabled) {
            /* name the card in the last event */
            av_set_str(events_last(&g->base.ev), "card", ci->name);
        }
        g->actions += ci->d_actions * k;
        g->buys += ci->d_buys * k;
        g->coins += ci->d_coins * k;
        if (ci->d_cards) draw(g, p, ci->d_cards * k);
    }
    pl->any_dur = false;
    if (pl->z[Z_HAVEN].n) {
        ev_cards(g, EVENTS_SEAT(p), "haven_return", p, pl->z[Z_HAVEN].c, pl->z[Z_HAVEN].n);
        ev_simple(g, EVENTS_ALL & ~EVENTS_SEAT(p), "haven_return", p, "count", pl->z[Z_HAVEN].n);
        zmove_all(&pl->z[Z_HAVEN], &pl->z[Z_HAND]);
    }
}
