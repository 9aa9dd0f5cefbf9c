/* Zones and the primitive moves of the game (draw, reveal, gain, trash,
 * discard, put on the deck), each recording its event when events are on. */
#include <stdlib.h>
#include <string.h>

#include "engine.h"

/* ---- zones ---- */

bool zremove(dom_zone *z, int c)
{
    for (int i = z->n - 1; i >= 0; i--)
        if (z->c[i] == c) {
            memmove(&z->c[i], &z->c[i + 1], (size_t)(z->n - i - 1));
            z->n--;
            return true;
        }
    return false;
}

void zmove_all(dom_zone *from, dom_zone *to)
{
    memcpy(&to->c[to->n], from->c, from->n);
    to->n += from->n;
    from->n = 0;
}

/* Puts a card on top of p's deck; `seen` says who knows it is there. */
void deck_put(dom_game *g, int p, int c, unsigned seen)
{
    dom_player *pl = &g->p[p];
    pl->deck_seen[pl->z[Z_DECK].n] = (uint8_t)seen;
    zpush(&pl->z[Z_DECK], c);
}

/* Puts a card on p's discard pile, seen by everyone or by p only. */
void discard_put(dom_game *g, int p, int c, bool public_)
{
    dom_player *pl = &g->p[p];
    pl->disc_seen[pl->z[Z_DISCARD].n] = public_ ? SEEN_ALL : 0;
    zpush(&pl->z[Z_DISCARD], c);
}

void discard_top_seen(dom_game *g, int p)
{
    dom_player *pl = &g->p[p];
    if (pl->z[Z_DISCARD].n) pl->disc_seen[pl->z[Z_DISCARD].n - 1] = SEEN_ALL;
}

void hand_seen_add(dom_game *g, int p, int c)
{
    uint8_t *k = &g->p[p].hand_seen[c];
    if (*k < 255) (*k)++;
}

void hand_seen_shown(dom_game *g, int p, int c)
{
    if (g->p[p].hand_seen[c] == 0) g->p[p].hand_seen[c] = 1;
}

/* A card seen leaving may have been a known one: one known copy fewer. An
 * unseen one may have been any: nothing is known any more. */
void hand_left(dom_game *g, int p, int c, bool public_)
{
    dom_player *pl = &g->p[p];
    if (!public_)
        memset(pl->hand_seen, 0, sizeof pl->hand_seen);
    else if (pl->hand_seen[c])
        pl->hand_seen[c]--;
}

void discard_zone(dom_game *g, int p, int zone, bool public_)
{
    dom_player *pl = &g->p[p];
    if (zone == Z_HAND) hand_left(g, p, 0, false); /* the hand is empty now */
    memset(&pl->disc_seen[pl->z[Z_DISCARD].n], public_ ? SEEN_ALL : 0, pl->z[zone].n);
    zmove_all(&pl->z[zone], &pl->z[Z_DISCARD]);
}

/* Puts a whole zone under p's discard pile, unseen by anyone (Chancellor:
 * the deck goes in without being looked at), so the visible top stays. */
void discard_zone_under(dom_game *g, int p, int zone)
{
    dom_player *pl = &g->p[p];
    dom_zone *z = &pl->z[zone], *d = &pl->z[Z_DISCARD];
    int k = z->n;
    memmove(&d->c[k], d->c, (size_t)d->n);
    memmove(&pl->disc_seen[k], pl->disc_seen, (size_t)d->n);
    memcpy(d->c, z->c, (size_t)k);
    memset(pl->disc_seen, 0, (size_t)k);
    d->n += k;
    z->n = 0;
}

/* ---- events ---- */

av *ev_new(const char *type, int p)
{
    av *e = av_map();
    av_add_str(e, "type", type);
    if (p >= 0) av_add_int(e, "seat", p);
    return e;
}

void ev_card(dom_game *g, uint32_t vis, const char *type, int p, int card)
{
    if (g->base.ev.disabled) return;
    av *e = ev_new(type, p);
    av_add_str(e, "card", dom_cards[card].name);
    events_push(&g->base.ev, vis, e);
}

void ev_cards(dom_game *g, uint32_t vis, const char *type, int p, const uint8_t *cs, int n)
{
    if (g->base.ev.disabled) return;
    av *e = ev_new(type, p);
    av *l = av_list();
    for (int i = 0; i < n; i++)
        av_push(l, av_str(dom_cards[cs[i]].name));
    av_add(e, "cards", l);
    events_push(&g->base.ev, vis, e);
}

void ev_simple(dom_game *g, uint32_t vis, const char *type, int p, const char *key, int64_t v)
{
    if (g->base.ev.disabled) return;
    av *e = ev_new(type, p);
    if (key) av_add_int(e, key, v);
    events_push(&g->base.ev, vis, e);
}

void ev_discard_many(dom_game *g, int p, const uint8_t *cs, int n)
{
    if (g->base.ev.disabled || n == 0) return;
    ev_cards(g, EVENTS_SEAT(p), "discard_many", p, cs, n);
    const dom_zone *d = &g->p[p].z[Z_DISCARD];
    av *e = ev_new("discard_many", p);
    av_add_int(e, "count", n);
    /* a top nobody saw go there (a clean-up of the hand alone) stays unseen */
    if (g->p[p].disc_seen[d->n - 1] & SEEN_ALL)
        av_add_str(e, "top", dom_cards[d->c[d->n - 1]].name);
    events_push(&g->base.ev, EVENTS_ALL & ~EVENTS_SEAT(p), e);
}

void discard_cards(dom_game *g, int p, int zone, const uint8_t *cs, int n)
{
    uint8_t done[DOM_ZCAP];
    int k = 0;
    for (int i = 0; i < n; i++)
        if (zremove(&g->p[p].z[zone], cs[i])) {
            discard_put(g, p, cs[i], false);
            done[k++] = cs[i];
        }
    if (zone == Z_HAND) hand_left(g, p, 0, false);
    /* no card discarded: a face-down top (Chancellor) stays face down */
    if (k) discard_top_seen(g, p);
    ev_discard_many(g, p, done, k);
}

void discard_all_hidden(dom_game *g, int p, int zone)
{
    dom_zone *z = &g->p[p].z[zone];
    uint8_t cs[DOM_ZCAP];
    int n = z->n;
    memcpy(cs, z->c, (size_t)n);
    discard_zone(g, p, zone, false);
    if (n) discard_top_seen(g, p);
    ev_discard_many(g, p, cs, n);
}

/* ---- primitives ---- */

static void shuffle_discard(dom_game *g, int p)
{
    dom_player *pl = &g->p[p];
    /* nobody knows the order of a new deck */
    memset(&pl->deck_seen[pl->z[Z_DECK].n], 0, pl->z[Z_DISCARD].n);
    zmove_all(&pl->z[Z_DISCARD], &pl->z[Z_DECK]);
    dom_zone *d = &pl->z[Z_DECK];
    for (int i = d->n - 1; i > 0; i--) {
        int j = (int)game_rng_below(&g->rng, (uint32_t)i + 1);
        uint8_t t = d->c[i];
        d->c[i] = d->c[j];
        d->c[j] = t;
    }
    ev_simple(g, EVENTS_ALL, "shuffle", p, "deck", d->n);
}

/* Top card of the deck, shuffling first if needed; -1 if there is none. */
static int pop_top(dom_game *g, int p)
{
    dom_player *pl = &g->p[p];
    if (pl->z[Z_DECK].n == 0) {
        if (pl->z[Z_DISCARD].n == 0) return -1;
        shuffle_discard(g, p);
    }
    return pl->z[Z_DECK].c[--pl->z[Z_DECK].n];
}

int draw(dom_game *g, int p, int n)
{
    dom_player *pl = &g->p[p];
    int got = 0;
    uint8_t drawn[DOM_ZCAP];
    for (; got < n; got++) {
        int c = pop_top(g, p);
        if (c < 0) break;
        zpush(&pl->z[Z_HAND], c);
        drawn[got] = (uint8_t)c;
    }
    if (!g->base.ev.disabled && got > 0) {
        ev_cards(g, EVENTS_SEAT(p), "draw", p, drawn, got);
        ev_simple(g, EVENTS_ALL & ~EVENTS_SEAT(p), "draw", p, "count", got);
    }
    return got;
}

int reveal_top(dom_game *g, int p)
{
    int c = pop_top(g, p);
    if (c >= 0) zpush(&g->p[p].z[Z_ASIDE], c);
    return c;
}

static void place(dom_game *g, int p, int card, int dest)
{
    dom_player *pl = &g->p[p];
    if (dest == TO_HAND) {
        zpush(&pl->z[Z_HAND], card);
        hand_seen_add(g, p, card);
    } else if (dest == TO_DECK)
        deck_put(g, p, card, SEEN_OWNER | SEEN_ALL);
    else
        discard_put(g, p, card, true);
    if (p == g->cur) pl->gained_last |= 1ull << card;
}

static const char *dest_name(int dest)
{
    return dest == TO_HAND ? "hand" : dest == TO_DECK ? "deck" : "discard";
}

bool gain(dom_game *g, int p, int card, int dest)
{
    if (!g->in_supply[card] || g->supply[card] == 0) return false;
    if (--g->supply[card] == 0) g->emptied |= 1ull << card;
    place(g, p, card, dest);
    if (!g->base.ev.disabled) {
        av *e = ev_new("gain", p);
        av_add_str(e, "card", dom_cards[card].name);
        av_add_str(e, "to", dest_name(dest));
        events_push(&g->base.ev, EVENTS_ALL, e);
    }
    return true;
}

void gain_from_trash(dom_game *g, int p, int card)
{
    g->trash[card]--;
    place(g, p, card, TO_DISCARD);
    if (!g->base.ev.disabled) {
        av *e = ev_new("gain", p);
        av_add_str(e, "card", dom_cards[card].name);
        av_add_str(e, "to", "discard");
        av_add_str(e, "from", "trash");
        events_push(&g->base.ev, EVENTS_ALL, e);
    }
}

void trash_from(dom_game *g, int p, int zone, int card)
{
    if (zremove(&g->p[p].z[zone], card)) {
        if (zone == Z_HAND) hand_left(g, p, card, true);
        g->trash[card]++;
        ev_card(g, EVENTS_ALL, "trash", p, card);
    }
}

void discard_from(dom_game *g, int p, int zone, int card)
{
    if (zremove(&g->p[p].z[zone], card)) {
        if (zone == Z_HAND) hand_left(g, p, card, true);
        discard_put(g, p, card, true);
        ev_card(g, EVENTS_ALL, "discard", p, card);
    }
}

void topdeck_from(dom_game *g, int p, int zone, int card, bool public_)
{
    if (zremove(&g->p[p].z[zone], card)) {
        if (zone == Z_HAND) hand_left(g, p, card, public_);
        deck_put(g, p, card, public_ ? SEEN_OWNER | SEEN_ALL : SEEN_OWNER);
        if (public_)
            ev_card(g, EVENTS_ALL, "topdeck", p, card);
        else if (!g->base.ev.disabled) {
            ev_card(g, EVENTS_SEAT(p), "topdeck", p, card);
            ev_simple(g, EVENTS_ALL & ~EVENTS_SEAT(p), "topdeck", p, "count", 1);
        }
    }
}

void mark_stay(dom_game *g, dom_frame *f)
{
    g->p[f->player].dur_next[f->card]++;
    g->p[f->player].any_dur = true;
    f->flags |= F_STAYED;
}

bool immune(const dom_frame *f, int seat)
{
    return (f->mask >> seat) & 1u;
}

void push_frame(dom_game *g, int kind, int card, int player, int flags)
{
    if (g->sp >= DOM_STACK) abort(); /* cannot happen: Throne Room chains are short */
    dom_frame *f = &g->st[g->sp++];
    memset(f, 0, sizeof *f);
    f->kind = (uint8_t)kind;
    f->card = (uint8_t)card;
    f->player = (int8_t)player;
    f->flags = (uint8_t)flags;
}
