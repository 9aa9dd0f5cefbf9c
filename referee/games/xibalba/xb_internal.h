/* Xibalba internals shared by the engine (xibalba.c) and its presentation
 * (present.c: labels, prompts, views, events, settings). */
#ifndef ARENA_XB_INTERNAL_H
#define ARENA_XB_INTERNAL_H

#include <stdlib.h>

#include "util.h"
#include "xibalba.h"

#define XB_OPT_MAX 1200
/* Options outside a reorganize step never exceed this (see xb_options). */
#define XB_OPT_SMALL 96

/* One option of the current decision. */
enum xb_op {
    OP_END,
    OP_COLLECT,
    OP_PARAGON,
    OP_ATTACK_ARK,
    OP_ATTACK_BASE,
    OP_ENTER,
    OP_BUY,
    OP_DISCARD_MARKET,
    OP_DISCARD_OWN,
    OP_REORG,
    OP_MEDICINE,
    OP_WEAPON,
    OP_TACTICAL,
    OP_HARVEST,
    OP_UPGRADE,
    OP_USE,
    OP_EFFECT,
    OP_POOL,
    OP_KEEP,
    OP_DIE,
    OP_BLOCK,
    OP_NOBLOCK,
    OP_DESTROY,
    OP_NO_DESTROY,
    OP_PLACE,
    OP_MOVE
};

typedef struct xb_opt {
    uint8_t op;
    int8_t a, b, c;
} xb_opt;

/* Fills o (XB_OPT_MAX entries, or XB_OPT_SMALL outside XS_REORG). */
int xb_options(const xb_game *g, xb_opt *o);
/* Room for the current decision's options: small, or in XS_REORG (the one
 * step with more than XB_OPT_SMALL) a heap block; xb_opts_done frees it.
 * Inline: out of sight, gcc 12 at -O3 takes the caller's other stack
 * arrays for dangling (-Wdangling-pointer). */
static inline xb_opt *xb_opts_room(const xb_game *g, xb_opt small[XB_OPT_SMALL])
{
    return g->step == XS_REORG ? xmalloc(XB_OPT_MAX * sizeof *small) : small;
}

static inline void xb_opts_done(xb_opt *o, const xb_opt *small)
{
    if (o != small) free(o);
}
bool xb_apply(xb_game *g, const int *choice, int n);
int xb_perm(const xb_game *g, int seat, int effect);
int xb_card_at(const xb_game *g, int seat, int loc);
/* A slot takes a family when open and empty or holding that family. */
static inline bool xb_slot_takes(const xb_game *g, int seat, int k, int family)
{
    const xb_player *p = &g->p[seat];
    if (k > p->level) return false;
    const xb_stack *s = &p->slot[k];
    return s->n == 0 || xb_type(g, s->c[0])->family == family;
}
static inline bool xb_slot_accepts(const xb_game *g, int seat, int k, int card)
{
    return xb_slot_takes(g, seat, k, xb_type(g, card)->family);
}
int xb_pool_size(const xb_game *g, int seat);
int xb_face_value(int face);
int xb_find_act_face(const xb_game *g, int face);
bool xb_can_add_die(const xb_game *g, int kind);
void xb_setup(xb_game *g);
void xb_shuffle(xb_game *g, xb_stack *d);

/* determinize.c */
void xb_determinize(arena_game *gg, int seat, uint64_t seed);

/* options.c */
int xb_destroy_candidates(const xb_game *g, xb_opt *o);
int xb_place_slots(const xb_game *g, int card, int *slots);
bool xb_reorg_possible(const xb_game *g);

/* present.c */
void xb_label(const arena_game *gg, int i, char *buf, size_t len);
void xb_labels(const arena_game *gg, char *buf, size_t len, arena_label_fn put, void *ctx);
void xb_label_opt(const xb_game *g, const xb_opt *o, char *buf, size_t len);
void xb_prompt(const arena_game *gg, char *buf, size_t len);
void xb_view(const arena_game *gg, int seat, vout *o);
void xb_public_view(const arena_game *gg, vout *o);
av *xb_settings(const arena_game *gg);

void xb_ev_setup(xb_game *g);
void xb_ev_start_roll(xb_game *g, const bool *in, const int *roll);
void xb_ev_turn(xb_game *g);
void xb_ev_paragon(xb_game *g, int s, int delta, const char *why);
void xb_ev_over(xb_game *g, const char *reason);
void xb_ev_reshuffle(xb_game *g, int fam);
void xb_ev_reveal(xb_game *g, int fam, int k);
void xb_ev_enter(xb_game *g, int s);
void xb_ev_extra_die(xb_game *g, xb_die d);
void xb_ev_card_effect(xb_game *g, int s, int loc, int card);
void xb_ev_pool(xb_game *g, int r, int a);
void xb_ev_roll(xb_game *g);
void xb_ev_keep(xb_game *g, const bool *keep);
void xb_ev_steal(xb_game *g, int d, int n);
void xb_ev_destroy(xb_game *g, int s, int k, int card);
void xb_ev_base_attack(xb_game *g, int d, int strength, int res, bool hit);
void xb_ev_attack(xb_game *g, int soldier, int dice, int crits, int strength);
void xb_ev_ark_damage(xb_game *g, int dmg);
void xb_ev_soldier_destroyed(xb_game *g, int card, int owner, const char *where);
void xb_ev_block(xb_game *g, int d, int blocker, bool dies);
void xb_ev_place(xb_game *g, int card, int k);
void xb_ev_buy(xb_game *g, int card, int fam, int k);
void xb_ev_simple(xb_game *g, const char *type);
void xb_ev_amount(xb_game *g, const char *type, int n);
void xb_ev_discard(xb_game *g, const char *from, int card);
void xb_ev_move(xb_game *g, int to, int card);

#endif
