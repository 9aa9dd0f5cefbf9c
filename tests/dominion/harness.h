/* Test harness for Dominion rules tests: build a game with a chosen
 * kingdom, set zones card by card, start a turn, answer by label. */
#ifndef DOMINION_TEST_HARNESS_H
#define DOMINION_TEST_HARNESS_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "state.h"

static dom_game *G;

static inline int card_id(const char *name)
{
    int c = dom_card_by_name(name);
    if (c < 0) fail_msg("unknown card %s", name);
    return c;
}

/* A 10-card kingdom holding `cards` (comma list), filled up with fillers. */
static inline dom_game *mk(int np, const char *cards)
{
    static const char *fill[] = {"Village",    "Smithy",     "Market",  "Festival",
                                 "Laboratory", "Woodcutter", "Cellar",  "Chapel",
                                 "Bazaar",     "Warehouse",  "Lookout", "Workshop"};
    char buf[600] = "";
    int n = 0;
    uint64_t seen = 0;
    char tmp[300];
    snprintf(tmp, sizeof tmp, "%s", cards);
    for (char *t = strtok(tmp, ","); t; t = strtok(NULL, ",")) {
        seen |= 1ull << card_id(t);
        strcat(buf, n ? "," : "");
        strcat(buf, t);
        n++;
    }
    for (int i = 0; n < 10; i++) {
        if (seen >> card_id(fill[i]) & 1) continue;
        strcat(buf, n ? "," : "");
        strcat(buf, fill[i]);
        n++;
    }
    arena_setting s[1] = {{"kingdom", buf}};
    char err[2048];
    if (G) game_free(&G->base);
    G = (dom_game *)dominion_game.create(s, 1, 7, np, 0, err, sizeof err);
    if (!G) fail_msg("create: %s", err);
    for (int p = 0; p < np; p++)
        for (int z = 0; z < Z_COUNT; z++)
            G->p[p].z[z].n = 0;
    return G;
}

/* Sets a zone; for the deck the first listed card is the top. */
static inline void set(int seat, int zone, const char *cards)
{
    dom_zone *z = &G->p[seat].z[zone];
    z->n = 0;
    char tmp[600];
    snprintf(tmp, sizeof tmp, "%s", cards);
    for (char *t = strtok(tmp, ","); t; t = strtok(NULL, ","))
        z->c[z->n++] = (uint8_t)card_id(t);
    if (zone == Z_DECK)
        for (int i = 0; i < z->n / 2; i++) {
            uint8_t x = z->c[i];
            z->c[i] = z->c[z->n - 1 - i];
            z->c[z->n - 1 - i] = x;
        }
}

static inline int n_in(int seat, int zone, const char *card)
{
    return dom_count(&G->p[seat].z[zone], card_id(card));
}
static inline int zn(int seat, int zone)
{
    return G->p[seat].z[zone].n;
}
static inline const char *top(int seat)
{
    const dom_zone *d = &G->p[seat].z[Z_DECK];
    return d->n ? dom_cards[d->c[d->n - 1]].name : "-";
}

/* in hand or already played (Treasures are played by the buy phase) */
static inline int held(int seat, const char *card)
{
    return n_in(seat, Z_HAND, card) + n_in(seat, Z_PLAY, card);
}

static inline void begin(int seat)
{
    dom_test_begin_turn(G, seat);
}

static inline const char *kind(void)
{
    arena_decision d;
    if (!game_decision(&G->base, &d)) return "none";
    return d.kind;
}
static inline int dseat(void)
{
    arena_decision d;
    return game_decision(&G->base, &d) ? d.seat : -1;
}

static inline int opt_index(const char *label)
{
    arena_decision d;
    if (!game_decision(&G->base, &d)) return -1;
    char b[80];
    for (int i = 0; i < d.n_options; i++) {
        G->base.vt->label(&G->base, i, b, sizeof b);
        if (strcmp(b, label) == 0) return i;
    }
    return -1;
}
static inline bool has_opt(const char *label)
{
    return opt_index(label) >= 0;
}

/* Answers the current decision with the options named (comma list; "" for
 * none); fails the test if one is missing. */
static inline void pick(const char *labels)
{
    int ch[DOM_OPTCAP], n = 0;
    char tmp[600];
    snprintf(tmp, sizeof tmp, "%s", labels);
    for (char *t = strtok(tmp, ","); t; t = strtok(NULL, ",")) {
        int i = opt_index(t);
        if (i < 0) fail_msg("no option '%s' in decision %s", t, kind());
        ch[n++] = i;
    }
    arena_decision d;
    assert_true(game_decision(&G->base, &d));
    assert_null(arena_check_choice(&d, ch, n));
    assert_true(game_apply(&G->base, ch, n));
}

/* Seat 0 plays Chancellor and puts its deck (Gold on top of two Coppers)
 * onto its empty discard pile, face down; then it is to buy. */
static inline void chancellor_deck_face_down(void)
{
    mk(2, "Chancellor");
    set(0, Z_HAND, "Chancellor,Estate");
    set(0, Z_DECK, "Gold,Copper,Copper");
    begin(0);
    pick("play:Chancellor");
    pick("discard-deck");
}

/* Ends the current turn: no more actions, no buys, no Treasury. */
static inline void end_turn(void)
{
    int t = G->turn;
    while (G->turn == t && !G->over) {
        const char *k = kind();
        if (strcmp(k, "action") == 0)
            pick("end-actions");
        else if (strcmp(k, "buy") == 0)
            pick("end-turn");
        else if (strcmp(k, "treasury-topdeck") == 0)
            pick("");
        else if (strcmp(k, "moat-reveal") == 0)
            pick("pass:Moat");
        else
            fail_msg("end_turn: unexpected decision %s", k);
    }
}

static inline int teardown(void **state)
{
    (void)state;
    if (G) game_free(&G->base);
    G = NULL;
    return 0;
}

#endif
