/* Xibalba: the options of the current decision, in a stable order. Labels
 * for them are in present.c; the rules that apply them in rules.c. */
#include "xb_internal.h"

#include <stdlib.h>

int xb_destroy_candidates(const xb_game *g, xb_opt *o)
{
    int n = 0;
    for (int s = 0; s < g->players; s++) {
        if (s == g->cur || (g->destroy_only >= 0 && s != g->destroy_only)) continue;
        for (int k = 0; k < XB_SLOTS; k++)
            if (g->p[s].slot[k].n) o[n++] = (xb_opt){OP_DESTROY, (int8_t)s, (int8_t)k, 0};
    }
    return n;
}

int xb_place_slots(const xb_game *g, int card, int *slots)
{
    int n = 0;
    for (int k = 0; k < XB_SLOTS; k++)
        if (xb_slot_accepts(g, g->cur, k, card)) slots[n++] = k;
    return n;
}

/* Whether an upgrade card of family fam would have a slot at seat's base. */
static bool family_has_slot(const xb_game *g, int seat, int fam)
{
    for (int k = 0; k < XB_SLOTS; k++)
        if (xb_slot_takes(g, seat, k, fam)) return true;
    return false;
}

static void add(xb_opt *o, int *n, int op, int a, int b, int c)
{
    o[*n] = (xb_opt){(uint8_t)op, (int8_t)a, (int8_t)b, (int8_t)c};
    (*n)++;
}

/* Whether, after the lifted card `skip` goes onto slot k, every other lifted
 * civilian and building still has a slot: one of its family or an empty
 * open one. Only such placements are offered, so a rebuild always ends. */
static bool reorg_fits(const xb_game *g, int skip, int k)
{
    const xb_player *p = &g->p[g->cur];
    bool need[XB_FAMILIES] = {0}, has[XB_FAMILIES] = {0};
    for (int i = 0; i < g->n_held; i++)
        if (i != skip) need[xb_type(g, g->held[i])->family] = true;
    int empty = 0;
    for (int j = 0; j <= p->level; j++) {
        const xb_stack *st = &p->slot[j];
        int f = st->n    ? xb_type(g, st->c[0])->family
                : j == k ? xb_type(g, g->held[skip])->family
                         : -1;
        if (f < 0)
            empty++;
        else
            has[f] = true;
    }
    int want = (need[XB_CIVILIAN] && !has[XB_CIVILIAN]) + (need[XB_BUILDING] && !has[XB_BUILDING]);
    return want <= empty;
}

/* One option per lifted card type and legal stack (a = the type, c = the
 * stack): copies of a type are interchangeable, and the labels stay
 * distinct. */
static int reorg_places(const xb_game *g, xb_opt *o, int n)
{
    for (int i = 0; i < g->n_held; i++) {
        int card = g->held[i], type = g->cs.type_of[card];
        bool dup = false;
        for (int j = 0; j < i && !dup; j++)
            dup = g->cs.type_of[g->held[j]] == type;
        if (dup) continue;
        if (xb_type(g, card)->family == XB_SOLDIER) {
            add(o, &n, OP_MOVE, type, 0, XB_LOC_SQUAD);
            continue;
        }
        for (int k = 0; k < XB_SLOTS; k++)
            if (xb_slot_accepts(g, g->cur, k, card) && reorg_fits(g, i, k))
                add(o, &n, OP_MOVE, type, 0, XB_LOC_SLOT0 + k);
    }
    return n;
}

/* Whether any reorganize move exists, without listing them. */
bool xb_reorg_possible(const xb_game *g)
{
    const xb_player *p = &g->p[g->cur];
    if (p->squad.n > 1) return true;
    for (int a = 0; a < XB_SLOTS; a++) {
        if (p->slot[a].n > 1) return true;
        if (p->slot[a].n == 0) continue;
        for (int b = 0; b < XB_SLOTS; b++)
            if (b != a && xb_slot_accepts(g, g->cur, b, p->slot[a].c[0])) return true;
    }
    return false;
}

static bool use_ok(const xb_game *g, const xb_card_type *t)
{
    const xb_player *p = &g->p[g->cur];
    switch (t->effect) {
    case XE_BLANK_RES: return xb_find_act_face(g, XF_BLANK) >= 0;
    case XE_BUY_PARAGON: return p->res >= t->arg;
    case XE_FIELD_MEDIC:
        return p->res >= 1 && g->ark_card >= 0 && g->ark_owner == g->cur &&
               g->ark_life < xb_ark_max(g);
    case XE_FORGE: return p->res >= t->arg && xb_can_add_die(g, XB_DIE_ATK);
    default: return false;
    }
}

int xb_options(const xb_game *g, xb_opt *o)
{
    int n = 0, s = g->cur;
    const xb_player *p = &g->p[s];
    const xb_faction *f = &xb_factions[g->p[s].faction];
    switch (g->step) {
    case XS_EFFECT:
    case XS_DICE_EFFECT:
        for (int i = 0; i < g->n_pending; i++)
            add(o, &n, OP_EFFECT, g->pending[i], 0, 0);
        break;
    case XS_POOL: {
        int size = xb_pool_size(g, s);
        for (int r = size > 4 ? size - 4 : 0; r <= (size < 4 ? size : 4); r++)
            add(o, &n, OP_POOL, r, size - r, 0);
        break;
    }
    case XS_KEEP:
        for (int i = 0; i < g->n_roll; i++)
            add(o, &n, OP_KEEP, i, 0, 0);
        break;
    case XS_ATTACK_DICE:
        for (int i = 0; i < g->n_act; i++)
            if (g->act[i].face == XF_ATK || g->act[i].face == XF_CRIT) add(o, &n, OP_DIE, i, 0, 0);
        break;
    case XS_BLOCK:
        add(o, &n, OP_BLOCK, 0, 0, 0);
        add(o, &n, OP_NOBLOCK, 0, 0, 0);
        break;
    case XS_DESTROY:
        n = xb_destroy_candidates(g, o);
        if (g->destroy_may) add(o, &n, OP_NO_DESTROY, 0, 0, 0);
        break;
    case XS_PLACE:
        for (int k = 0; k < XB_SLOTS; k++)
            if (xb_slot_accepts(g, s, k, g->place_card)) add(o, &n, OP_PLACE, k, 0, 0);
        break;
    case XS_REORG: n = reorg_places(g, o, n); break;
    case XS_ACTION: {
        add(o, &n, OP_END, 0, 0, 0);
        bool atk = false;
        for (int i = 0; i < g->n_act; i++) {
            int fc = g->act[i].face;
            if (fc >= XF_RES1 && fc <= XF_RES3) add(o, &n, OP_COLLECT, i, 0, 0);
            if (fc == XF_PAR1 || fc == XF_PAR2) add(o, &n, OP_PARAGON, i, 0, 0);
            if (fc == XF_ATK || fc == XF_CRIT) atk = true;
        }
        bool own_ark = g->ark_card >= 0 && g->ark_owner == s;
        if (atk && own_ark) {
            for (int d = 0; d < g->players; d++)
                if (d != s) add(o, &n, OP_ATTACK_BASE, d, 0, 0);
        } else if (atk && p->squad.n > 0) {
            if (g->ark_card >= 0)
                add(o, &n, OP_ATTACK_ARK, 0, 0, 0);
            else
                add(o, &n, OP_ENTER, 0, 0, 0);
        }
        for (int fam = 0; fam < XB_FAMILIES; fam++) {
            /* whether a slot takes the family depends on the family alone */
            if (fam != XB_SOLDIER && fam != XB_EVENT && !family_has_slot(g, s, fam)) continue;
            for (int k = 0; k < g->market_slots; k++) {
                int c = g->market[fam][k];
                if (c >= 0 && p->res >= xb_market_cost(g, c)) add(o, &n, OP_BUY, fam, k, 0);
            }
        }
        if (p->res >= f->discard) {
            if (!g->apocalypse)
                for (int fam = 0; fam < XB_FAMILIES; fam++)
                    for (int k = 0; k < g->market_slots; k++)
                        if (g->market[fam][k] >= 0) add(o, &n, OP_DISCARD_MARKET, fam, k, 0);
            if (p->squad.n) add(o, &n, OP_DISCARD_OWN, XB_LOC_SQUAD, 0, 0);
            for (int k = 0; k < XB_SLOTS; k++)
                if (p->slot[k].n) add(o, &n, OP_DISCARD_OWN, XB_LOC_SLOT0 + k, 0, 0);
        }
        if (p->res >= f->reorganize && xb_reorg_possible(g)) add(o, &n, OP_REORG, 0, 0, 0);
        if (p->res >= f->medicine && own_ark && g->ark_life < xb_ark_max(g))
            add(o, &n, OP_MEDICINE, 0, 0, 0);
        if (p->res >= f->weapon_tech && xb_find_act_face(g, XF_ATK) >= 0)
            add(o, &n, OP_WEAPON, 0, 0, 0);
        if (p->res >= f->tactical && xb_can_add_die(g, XB_DIE_ATK))
            add(o, &n, OP_TACTICAL, 0, 0, 0);
        if (p->res >= f->harvest && xb_can_add_die(g, XB_DIE_PAR)) add(o, &n, OP_HARVEST, 0, 0, 0);
        int uc = xb_upgrade_cost(g, s);
        if (uc > 0 && !p->upgraded && p->res >= uc) add(o, &n, OP_UPGRADE, 0, 0, 0);
        for (int k = 0; k < XB_SLOTS; k++) {
            if (!p->slot[k].n) continue;
            const xb_card_type *t = xb_type(g, p->slot[k].c[p->slot[k].n - 1]);
            if (t->phase == XB_PH_ACTION && use_ok(g, t)) add(o, &n, OP_USE, k, 0, 0);
        }
        break;
    }
    default: break;
    }
    return n;
}
