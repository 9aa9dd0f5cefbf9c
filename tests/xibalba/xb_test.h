/* Shared helpers for the Xibalba tests: invariants and label-driven play. */
#ifndef XB_TEST_H
#define XB_TEST_H

#include <stdio.h>
#include <string.h>

#include "xb_internal.h"

/* Cheap invariants, checked after every decision: caps, the Ark (at most one
 * occupant, with life in range), open slots, and card counts per deck family
 * (deck + discard + market + squads/slots/Ark + a card being placed + cards
 * lifted by a reorganize). */
static inline bool xb_check_cheap(const xb_game *g, char *err, size_t errlen)
{
    int count[XB_FAMILIES] = {0};
    for (int f = 0; f < XB_FAMILIES; f++) {
        count[f] += g->deck[f].n + g->discard[f].n;
        for (int k = 0; k < 2; k++)
            if (g->market[f][k] >= 0) {
                if (k >= g->market_slots)
                    return snprintf(err, errlen, "market slot %d used", k), false;
                count[f]++;
            }
    }
    if (g->ark_card >= 0) {
        count[XB_SOLDIER]++;
        if (g->ark_life < 1 || g->ark_life > xb_ark_max(g))
            return snprintf(err, errlen, "Ark life %d out of 1..%d", g->ark_life, xb_ark_max(g)),
                   false;
        if (g->ark_owner < -1 || g->ark_owner >= g->players)
            return snprintf(err, errlen, "bad Ark owner %d", g->ark_owner), false;
    } else if (g->ark_owner != -1) {
        return snprintf(err, errlen, "empty Ark has an owner"), false;
    }
    if (g->place_card >= 0) count[xb_type(g, g->place_card)->family]++;
    for (int i = 0; i < g->n_held; i++)
        count[xb_type(g, g->held[i])->family]++;
    for (int s = 0; s < g->players; s++) {
        const xb_player *p = &g->p[s];
        if (p->res < 0 || p->res > XB_RES_CAP)
            return snprintf(err, errlen, "seat %d resources %d", s, p->res), false;
        if (p->par < 0 || p->par > XB_PAR_CAP)
            return snprintf(err, errlen, "seat %d paragon %d", s, p->par), false;
        if (p->level < 0 || p->level >= XB_LEVELS)
            return snprintf(err, errlen, "seat %d level %d", s, p->level), false;
        count[XB_SOLDIER] += p->squad.n;
        for (int k = 0; k < XB_SLOTS; k++) {
            const xb_stack *st = &p->slot[k];
            if (!st->n) continue;
            if (k > p->level)
                return snprintf(err, errlen, "seat %d uses locked slot %d", s, k + 1), false;
            count[xb_type(g, st->c[0])->family] += st->n;
        }
    }
    for (int f = 0; f < XB_FAMILIES; f++)
        if (count[f] != g->cs.fam_count[f])
            return snprintf(err, errlen, "%s cards: %d, expected %d", xb_family_names[f], count[f],
                            g->cs.fam_count[f]),
                   false;
    if (g->n_act > XB_POOL_MAX || g->n_roll > XB_POOL_MAX)
        return snprintf(err, errlen, "dice pool overflow"), false;
    if (g->winner >= 0 && g->p[g->winner].par < g->target)
        return snprintf(err, errlen, "winner below target"), false;
    return true;
}

/* Full check: the cheap one plus every card instance in exactly one place
 * and every stack of the right families (no civilian on a building). */
static inline bool xb_check_full(const xb_game *g, char *err, size_t errlen)
{
    if (!xb_check_cheap(g, err, errlen)) return false;
    unsigned char seen[XB_FAM_MAX * XB_FAMILIES] = {0};
#define SEE(c)                                                                                     \
    do {                                                                                           \
        int c_ = (c);                                                                              \
        if (c_ < 0 || c_ >= g->cs.n_cards || seen[c_]++)                                           \
            return snprintf(err, errlen, "card %d seen twice or out of range", c_), false;         \
    } while (0)
    for (int f = 0; f < XB_FAMILIES; f++) {
        for (int i = 0; i < g->deck[f].n; i++)
            SEE(g->deck[f].c[i]);
        for (int i = 0; i < g->discard[f].n; i++)
            SEE(g->discard[f].c[i]);
        for (int k = 0; k < g->market_slots; k++)
            if (g->market[f][k] >= 0) SEE(g->market[f][k]);
    }
    if (g->ark_card >= 0) {
        SEE(g->ark_card);
        if (xb_type(g, g->ark_card)->family != XB_SOLDIER)
            return snprintf(err, errlen, "non-soldier in the Ark"), false;
    }
    if (g->place_card >= 0) SEE(g->place_card);
    for (int i = 0; i < g->n_held; i++)
        SEE(g->held[i]);
    for (int s = 0; s < g->players; s++) {
        const xb_player *p = &g->p[s];
        for (int i = 0; i < p->squad.n; i++) {
            SEE(p->squad.c[i]);
            if (xb_type(g, p->squad.c[i])->family != XB_SOLDIER)
                return snprintf(err, errlen, "non-soldier in a squad"), false;
        }
        for (int k = 0; k < XB_SLOTS; k++) {
            const xb_stack *st = &p->slot[k];
            for (int i = 0; i < st->n; i++) {
                SEE(st->c[i]);
                int fam = xb_type(g, st->c[i])->family;
                if (fam != XB_CIVILIAN && fam != XB_BUILDING)
                    return snprintf(err, errlen, "bad card family in a slot"), false;
                if (fam != xb_type(g, st->c[0])->family)
                    return snprintf(err, errlen, "mixed civilian/building stack"), false;
            }
        }
    }
    return true;
#undef SEE
}

/* Self-play check hook: cheap checks after every decision, the full check
 * every 8th call (ctx: a long counter) and whenever ctx is NULL. */
static inline bool xb_check_invariants(const arena_game *gg, void *ctx, char *err, size_t errlen)
{
    const xb_game *g = (const xb_game *)gg;
    long *calls = ctx;
    if (!calls || (*calls)++ % 8 == 0 || g->step == XS_OVER) return xb_check_full(g, err, errlen);
    return xb_check_cheap(g, err, errlen);
}

/* Index of the option whose label starts with prefix, or -1. */
static inline int xb_find(const arena_game *g, const char *prefix)
{
    arena_decision d;
    if (!g->vt->decision(g, &d)) return -1;
    char buf[128];
    for (int i = 0; i < d.n_options; i++) {
        g->vt->label(g, i, buf, sizeof buf);
        if (strncmp(buf, prefix, strlen(prefix)) == 0) return i;
    }
    return -1;
}

/* Applies the option labelled with prefix; false if absent or rejected. */
static inline bool xb_do(arena_game *g, const char *prefix)
{
    int i = xb_find(g, prefix);
    return i >= 0 && g->vt->apply(g, &i, 1);
}

#endif
