/* Position-building helpers for the Pacifica rule tests: start from an empty
 * table (all cards in their stacks in card order), place cards by id, and
 * drive decisions by label. */
#ifndef PACIFICA_TEST_HELPERS_H
#define PACIFICA_TEST_HELPERS_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "games/pacifica/pacifica.h"

static inline pacifica *fresh(void)
{
    char err[256];
    pacifica *g = (pacifica *)pacifica_game.create(NULL, 0, 1, 2, 0, err, sizeof err);
    assert_non_null(g);
    memset(g->stack_n, 0, sizeof g->stack_n);
    for (int c = 0; c < PAC_NCARDS; c++) {
        int cat = g->set.c[c].cat;
        g->where[c] = PL_STACK;
        g->active[c] = false;
        g->stack[cat][g->stack_n[cat]++] = (uint8_t)c;
    }
    g->hand_n[0] = g->hand_n[1] = 0;
    g->city_n[0] = g->city_n[1] = 0;
    for (int i = 0; i < PAC_NIDOLS; i++)
        g->idol_owner[i] = -1, g->idol_level[i] = 0;
    g->n_task = 0;
    g->n_chosen = 0;
    g->seat = 0;
    g->turn = 1;
    g->actions_left = 3;
    g->over = false;
    g->winner = -1;
    return g;
}

static inline int card(const pacifica *g, const char *id)
{
    int c = pac_find_card(g, id);
    if (c < 0) fail_msg("no card %s", id);
    return c;
}

/* Removes a card from its stack (it must be in one). */
static inline int lift(pacifica *g, const char *id)
{
    int c = card(g, id), cat = g->set.c[c].cat;
    assert_int_equal(g->where[c], PL_STACK);
    for (int i = 0; i < g->stack_n[cat]; i++)
        if (g->stack[cat][i] == c) {
            memmove(&g->stack[cat][i], &g->stack[cat][i + 1], (size_t)(g->stack_n[cat] - i - 1));
            g->stack_n[cat]--;
            return c;
        }
    fail_msg("%s not in its stack", id);
    return -1;
}

static inline void to_city(pacifica *g, int seat, const char *id, bool active)
{
    int c = lift(g, id);
    g->where[c] = PL_CITY;
    g->owner[c] = (uint8_t)seat;
    g->active[c] = active;
    g->city[seat][g->city_n[seat]++] = (uint8_t)c;
}

static inline void to_hand(pacifica *g, int seat, const char *id)
{
    int c = lift(g, id);
    g->where[c] = PL_HAND;
    g->owner[c] = (uint8_t)seat;
    g->hand[seat][g->hand_n[seat]++] = (uint8_t)c;
}

static inline void to_top(pacifica *g, const char *id)
{
    int c = lift(g, id), cat = g->set.c[c].cat;
    g->stack[cat][g->stack_n[cat]++] = (uint8_t)c;
}

static inline int find_label(const pacifica *g, const char *label)
{
    arena_decision d;
    if (!pacifica_game.decision(&g->base, &d)) return -1;
    char buf[64];
    for (int i = 0; i < d.n_options; i++) {
        pacifica_game.label(&g->base, i, buf, sizeof buf);
        if (strcmp(buf, label) == 0) return i;
    }
    return -1;
}

static inline bool has(const pacifica *g, const char *label)
{
    return find_label(g, label) >= 0;
}

static inline const char *kind(const pacifica *g)
{
    arena_decision d;
    return pacifica_game.decision(&g->base, &d) ? d.kind : "over";
}

static inline int n_options(const pacifica *g)
{
    arena_decision d;
    return pacifica_game.decision(&g->base, &d) ? d.n_options : 0;
}

static inline void pick(pacifica *g, const char *label)
{
    int i = find_label(g, label);
    if (i < 0) fail_msg("no option '%s' at %s", label, kind(g));
    assert_true(pacifica_game.apply(&g->base, &i, 1));
}

static inline int count(const pacifica *g, int seat, int sym)
{
    int s[PS_NSYM];
    pac_symbols(g, seat, -1, s);
    return s[sym];
}

static inline int idol_need(const pacifica *g, int idol)
{
    return pac_idol_need(idol, g->idol_level[idol]);
}

/* Every one of the 112 cards lies in exactly one place, and where, owner,
 * active and seen agree with it (a holder knows its hand cards). */
static inline bool cards_accounted(const pacifica *g, char *err, size_t errlen)
{
    int seen[PAC_NCARDS] = {0};
    for (int c = 0; c < PC_NCAT; c++)
        for (int i = 0; i < g->stack_n[c]; i++) {
            int k = g->stack[c][i];
            seen[k]++;
            if (g->where[k] != PL_STACK || g->set.c[k].cat != c || g->active[k]) {
                snprintf(err, errlen, "card %d misplaced in stack %d", k, c);
                return false;
            }
        }
    for (int s = 0; s < 2; s++) {
        if (g->hand_n[s] > PAC_HAND_CAP - 1) {
            snprintf(err, errlen, "hand of %d holds %d", s, g->hand_n[s]);
            return false;
        }
        for (int i = 0; i < g->hand_n[s]; i++) {
            int k = g->hand[s][i];
            seen[k]++;
            if (g->where[k] != PL_HAND || g->owner[k] != s || g->active[k] ||
                !(g->seen[k] & (1u << s))) {
                snprintf(err, errlen, "card %d misplaced in hand %d", k, s);
                return false;
            }
        }
        for (int i = 0; i < g->city_n[s]; i++) {
            int k = g->city[s][i];
            seen[k]++;
            if (g->where[k] != PL_CITY || g->owner[k] != s) {
                snprintf(err, errlen, "card %d misplaced in city %d", k, s);
                return false;
            }
        }
    }
    for (int k = 0; k < PAC_NCARDS; k++)
        if (seen[k] != 1) {
            snprintf(err, errlen, "card %s seen %d times (112 must be accounted for)",
                     g->set.c[k].id, seen[k]);
            return false;
        }
    return true;
}

#endif
