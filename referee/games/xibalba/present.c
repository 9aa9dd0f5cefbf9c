/* Xibalba presentation: option labels, prompts, views, events, settings.
 * Everything at the table is face up except deck order, so every event is
 * public and a view shows every seat's full stacks; views hide only the
 * order of the decks. */
#include <stdio.h>
#include <string.h>

#include <stdlib.h>

#include "util.h"
#include "xb_internal.h"

static const char *loc_name(int loc)
{
    static const char *const names[] = {"squad", "ark", "slot1", "slot2", "slot3", "slot4"};
    return names[loc];
}

static const char *cname(const xb_game *g, int card)
{
    return card < 0 ? "-" : xb_type(g, card)->name;
}

/* ":" then v, the pieces most labels are made of. */
static void colon_int(textbuf *t, int64_t v)
{
    TEXT_LIT(t, ":");
    text_int(t, v);
}
static void colon_str(textbuf *t, const char *s)
{
    TEXT_LIT(t, ":");
    text_adds(t, s);
}

/* Labels go out with every decision: written without snprintf
 * (protocol/util.h's textbuf). */
void xb_label_opt(const xb_game *g, const xb_opt *o, char *buf, size_t len)
{
    textbuf t = text_start(buf, len);
    switch (o->op) {
    case OP_END: TEXT_LIT(&t, "end"); break;
    case OP_COLLECT:
    case OP_PARAGON:
    case OP_DIE:
        text_adds(&t, o->op == OP_COLLECT ? "collect" : o->op == OP_PARAGON ? "paragon" : "die");
        colon_int(&t, o->a);
        colon_str(&t, xb_face_names[g->act[o->a].face]);
        break;
    case OP_ATTACK_ARK: TEXT_LIT(&t, "attack:ark"); break;
    case OP_ATTACK_BASE:
        TEXT_LIT(&t, "attack:base");
        colon_int(&t, o->a);
        break;
    case OP_ENTER: TEXT_LIT(&t, "enter_ark"); break;
    case OP_BUY:
    case OP_DISCARD_MARKET:
        text_adds(&t, o->op == OP_BUY ? "buy" : "discard:market");
        colon_str(&t, xb_family_names[o->a]);
        colon_int(&t, o->b);
        colon_str(&t, cname(g, g->market[o->a][o->b]));
        break;
    case OP_DISCARD_OWN:
    case OP_EFFECT:
        text_adds(&t, o->op == OP_DISCARD_OWN ? "discard" : "effect");
        colon_str(&t, loc_name(o->a));
        colon_str(&t, cname(g, xb_card_at(g, g->cur, o->a)));
        break;
    case OP_REORG: TEXT_LIT(&t, "reorganize"); break;
    case OP_MEDICINE: TEXT_LIT(&t, "medicine"); break;
    case OP_WEAPON: TEXT_LIT(&t, "weapon_tech"); break;
    case OP_TACTICAL: TEXT_LIT(&t, "tactical_attack"); break;
    case OP_HARVEST: TEXT_LIT(&t, "harvest"); break;
    case OP_UPGRADE:
        TEXT_LIT(&t, "upgrade");
        colon_int(&t, g->p[g->cur].level + 2);
        break;
    case OP_USE:
        TEXT_LIT(&t, "use:slot");
        text_int(&t, o->a + 1);
        colon_str(&t, cname(g, xb_card_at(g, g->cur, XB_LOC_SLOT0 + o->a)));
        break;
    case OP_POOL:
        TEXT_LIT(&t, "pool:res");
        text_int(&t, o->a);
        TEXT_LIT(&t, ":atk");
        text_int(&t, o->b);
        break;
    case OP_KEEP:
        TEXT_LIT(&t, "keep");
        colon_int(&t, o->a);
        colon_str(&t, xb_face_names[g->roll[o->a].face]);
        break;
    case OP_BLOCK:
        TEXT_LIT(&t, "block");
        colon_str(&t, cname(g, xb_card_at(g, g->atk_target, XB_LOC_SQUAD)));
        break;
    case OP_NOBLOCK: TEXT_LIT(&t, "no_block"); break;
    case OP_DESTROY:
        TEXT_LIT(&t, "destroy");
        colon_int(&t, o->a);
        TEXT_LIT(&t, ":slot");
        text_int(&t, o->b + 1);
        colon_str(&t, cname(g, xb_card_at(g, o->a, XB_LOC_SLOT0 + o->b)));
        break;
    case OP_NO_DESTROY: TEXT_LIT(&t, "keep"); break;
    case OP_PLACE:
        TEXT_LIT(&t, "place:slot");
        text_int(&t, o->a + 1);
        break;
    case OP_MOVE:
        TEXT_LIT(&t, "place");
        colon_str(&t, g->cs.t[o->a].name);
        colon_str(&t, loc_name(o->c));
        break;
    default: TEXT_LIT(&t, "?"); break;
    }
}

void xb_label(const arena_game *gg, int i, char *buf, size_t len)
{
    const xb_game *g = (const xb_game *)gg;
    xb_opt small[XB_OPT_SMALL];
    xb_opt *o = xb_opts_room(g, small);
    int n = xb_options(g, o);
    if (i < 0 || i >= n)
        snprintf(buf, len, "?");
    else
        xb_label_opt(g, &o[i], buf, len);
    xb_opts_done(o, small);
}

void xb_labels(const arena_game *gg, char *buf, size_t len, arena_label_fn put, void *ctx)
{
    const xb_game *g = (const xb_game *)gg;
    xb_opt small[XB_OPT_SMALL];
    xb_opt *o = xb_opts_room(g, small);
    int n = xb_options(g, o);
    for (int i = 0; i < n; i++) {
        xb_label_opt(g, &o[i], buf, len);
        put(ctx, i, buf);
    }
    xb_opts_done(o, small);
}

void xb_prompt(const arena_game *gg, char *buf, size_t len)
{
    const xb_game *g = (const xb_game *)gg;
    const xb_player *p = &g->p[g->cur];
    switch (g->step) {
    case XS_EFFECT:
        snprintf(buf, len, "choose the next EFFECT card to resolve (all are mandatory)");
        break;
    case XS_POOL:
        snprintf(buf, len, "choose your dice pool (%d dice, at most 4 of a type)",
                 xb_pool_size(g, g->cur));
        break;
    case XS_DICE_EFFECT:
        snprintf(buf, len, "choose the next DICE card to resolve (all are mandatory)");
        break;
    case XS_KEEP:
        snprintf(
            buf, len,
            "choose dice to keep in the action pool; the rest are re-rolled (%d re-rolls left)",
            g->rerolls_left);
        break;
    case XS_ACTION:
        snprintf(buf, len, "choose an action (resources %d, paragon %d)", p->res, p->par);
        break;
    case XS_ATTACK_DICE: snprintf(buf, len, "choose the attack dice for this attack"); break;
    case XS_BLOCK:
        snprintf(buf, len,
                 "seat %d attacks your base with strength %d: block with your active soldier?",
                 g->cur, g->atk_strength);
        break;
    case XS_DESTROY:
        if (g->destroy_may)
            snprintf(buf, len,
                     "your attack hit seat %d's base: destroy the top card of one of its slots, "
                     "or keep them all (paragon is stolen either way)",
                     g->destroy_only);
        else
            snprintf(buf, len, "choose an upgrade card to destroy");
        break;
    case XS_PLACE: snprintf(buf, len, "choose a slot for %s", cname(g, g->place_card)); break;
    case XS_REORG:
        snprintf(buf, len,
                 "reorganize: put the next lifted card on top of one of your stacks (%d left)",
                 g->n_held);
        break;
    default: snprintf(buf, len, "game over"); break;
    }
}

/* ------------------------------------------------------------- views */

static void card_list(vout *o, const xb_game *g, const xb_stack *s)
{
    vo_list(o);
    for (int i = s->n - 1; i >= 0; i--)
        vo_str(o, cname(g, s->c[i]));
    vo_end(o);
}

static void dice_out(vout *o, const xb_die *d, int n)
{
    vo_list(o);
    for (int i = 0; i < n; i++)
        vo_str(o, xb_face_names[d[i].face]);
    vo_end(o);
}

static av *dice_list(const xb_die *d, int n)
{
    vout o;
    vout_tree(&o);
    dice_out(&o, d, n);
    return vout_tree_take(&o);
}

/* A stack's count and cards; a slot's also whether it is open (open >= 0). */
static void stack_view(vout *o, const xb_game *g, const xb_stack *s, int open)
{
    vo_map(o);
    vo_kint(o, "count", s->n);
    vo_key(o, "cards");
    card_list(o, g, s);
    if (open >= 0) vo_kbool(o, "open", open);
    vo_end(o);
}

/* Who looks: a seat, everything (seat -1), or the spectator. Every seat
 * sees the same table (only the deck order is hidden, from everyone), so
 * the spectator's view is a seat's without the seat's number; one writer
 * for all three keeps it so. */
enum { ALL = -1, SPECTATOR = -2 };

static void view_as(const xb_game *g, int seat, vout *o)
{
    static const char *const kinds[] = {
        "effect_order", "dice_pool", "dice_effect_order", "keep", "action", "attack_dice", "block",
        "destroy",      "place",     "reorganize",        "over"};
    vo_map(o);
    vo_kstr(o, "mode", g->apocalypse ? "apocalypse" : "normal");
    vo_kint(o, "target", g->target);
    vo_kint(o, "turn", g->turns + 1);
    vo_kint(o, "round", g->turns / g->players + 1);
    vo_kint(o, "max_rounds", g->max_rounds);
    vo_kint(o, "current", g->cur);
    vo_kint(o, "start_player", g->start_player);
    vo_kstr(o, "step", kinds[g->step]);
    if (seat >= 0) vo_kint(o, "seat", seat);
    vo_kmap(o, "ark");
    vo_key(o, "card");
    vo_str_or_nil(o, g->ark_card >= 0 ? cname(g, g->ark_card) : NULL);
    vo_kint(o, "owner", g->ark_owner);
    vo_kint(o, "life", g->ark_life);
    vo_kint(o, "max_life", xb_ark_max(g));
    vo_end(o);
    vo_kmap(o, "market");
    for (int f = 0; f < XB_FAMILIES; f++) {
        vo_klist(o, xb_family_names[f]);
        for (int k = 0; k < g->market_slots; k++) {
            int c = g->market[f][k];
            vo_str_or_nil(o, c >= 0 ? cname(g, c) : NULL);
        }
        vo_end(o);
    }
    vo_end(o);
    vo_kmap(o, "decks");
    for (int f = 0; f < XB_FAMILIES; f++) {
        vo_kmap(o, xb_family_names[f]);
        vo_kint(o, "deck", g->deck[f].n);
        vo_key(o, "discard");
        card_list(o, g, &g->discard[f]); /* face-up pile */
        if (seat == ALL) {
            vo_key(o, "deck_order");
            card_list(o, g, &g->deck[f]);
        }
        vo_end(o);
    }
    vo_end(o);
    vo_klist(o, "players");
    for (int s = 0; s < g->players; s++) {
        const xb_player *p = &g->p[s];
        vo_map(o);
        vo_kstr(o, "faction", xb_factions[p->faction].name);
        vo_kint(o, "faction_id", p->faction);
        vo_kint(o, "level", p->level + 1);
        vo_kint(o, "resources", p->res);
        vo_kint(o, "paragon", p->par);
        vo_kint(o, "resistance", xb_base_resistance(g, s));
        vo_kint(o, "productivity", xb_productivity(g, s));
        vo_kbool(o, "upgraded", p->upgraded);
        vo_key(o, "squad");
        stack_view(o, g, &p->squad, -1);
        vo_klist(o, "slots");
        for (int k = 0; k < XB_SLOTS; k++)
            stack_view(o, g, &p->slot[k], k <= p->level);
        vo_end(o);
        vo_end(o);
    }
    vo_end(o);
    vo_kmap(o, "dice");
    vo_key(o, "pool");
    dice_out(o, g->roll, g->n_roll);
    vo_key(o, "action_pool");
    dice_out(o, g->act, g->n_act);
    vo_kint(o, "rerolls_left", g->rerolls_left);
    vo_end(o);
    if (g->step == XS_EFFECT || g->step == XS_DICE_EFFECT) {
        vo_klist(o, "pending_effects");
        for (int i = 0; i < g->n_pending; i++)
            vo_str(o, loc_name(g->pending[i]));
        vo_end(o);
    }
    if (g->step == XS_ATTACK_DICE || g->step == XS_BLOCK) {
        vo_kmap(o, "attack");
        if (g->atk_target < 0)
            vo_kstr(o, "target", "ark");
        else
            vo_kint(o, "target", g->atk_target);
        if (g->step == XS_BLOCK) vo_kint(o, "strength", g->atk_strength);
        vo_end(o);
    }
    if (g->place_card >= 0) vo_kstr(o, "placing", cname(g, g->place_card));
    if (g->step == XS_REORG) { /* lifted cards not yet placed, in lifting order */
        vo_klist(o, "reorganizing");
        for (int i = 0; i < g->n_held; i++)
            vo_str(o, cname(g, g->held[i]));
        vo_end(o);
    }
    if (g->step == XS_OVER) {
        vo_kint(o, "winner", g->winner);
        vo_kbool(o, "turn_limit", g->limit_reached);
    }
    vo_end(o);
}

void xb_view(const arena_game *gg, int seat, vout *o)
{
    view_as((const xb_game *)gg, seat < 0 ? ALL : seat, o);
}

void xb_public_view(const arena_game *gg, vout *o)
{
    view_as((const xb_game *)gg, SPECTATOR, o);
}

av *xb_settings(const arena_game *gg)
{
    const xb_game *g = (const xb_game *)gg;
    av *m = av_map();
    av_add_str(m, "mode", g->apocalypse ? "apocalypse" : "normal");
    av_add_int(m, "target", g->target);
    av_add_int(m, "max_rounds", g->max_rounds);
    av_add_str(m, "cards", g->cards_name);
    av *types = av_list();
    for (int i = 0; i < g->cs.n_types; i++) {
        const xb_card_type *t = &g->cs.t[i];
        av *c = av_map();
        av_add_str(c, "name", t->name);
        av_add_str(c, "family", xb_family_names[t->family]);
        av_add_int(c, "faction", t->faction);
        av_add_int(c, "cost", t->cost);
        av_add_str(c, "phase", xb_phase_names[t->phase]);
        av_add_str(c, "effect", xb_effect_names[t->effect]);
        av_add_int(c, "arg", t->arg);
        if (t->family == XB_SOLDIER) {
            av_add_int(c, "str", t->str);
            av_add_int(c, "res", t->res);
            av_add_int(c, "par", t->par);
        }
        av_add_int(c, "copies", t->copies);
        av_push(types, c);
    }
    av_add(m, "card_types", types);
    av *facs = av_list();
    for (int i = 0; i < XB_FACTIONS; i++) {
        const xb_faction *f = &xb_factions[i];
        av *c = av_map();
        av_add_str(c, "name", f->name);
        av *uc = av_list(), *rs = av_list(), *pr = av_list();
        for (int l = 0; l < XB_LEVELS; l++) {
            if (l) av_push(uc, av_int(f->upgrade_cost[l]));
            av_push(rs, av_int(f->resistance[l]));
            av_push(pr, av_int(f->productivity[l]));
        }
        av_add(c, "upgrade_cost", uc);
        av_add(c, "resistance", rs);
        av_add(c, "productivity", pr);
        av_add_int(c, "discard", f->discard);
        av_add_int(c, "reorganize", f->reorganize);
        av_add_int(c, "medicine", f->medicine);
        av_add_int(c, "weapon_tech", f->weapon_tech);
        av_add_int(c, "tactical_attack", f->tactical);
        av_add_int(c, "harvest", f->harvest);
        av_push(facs, c);
    }
    av_add(m, "factions", facs);
    av *dice = av_map();
    static const char *const dn[] = {"resource", "attack", "paragon"};
    for (int k = 0; k < 3; k++) {
        av *l = av_list();
        for (int i = 0; i < 6; i++)
            av_push(l, av_str(xb_face_names[xb_die_faces[k][i]]));
        av_add(dice, dn[k], l);
    }
    av_add(m, "dice", dice);
    return m;
}

/* ------------------------------------------------------------- events */

static av *ev(xb_game *g, const char *type)
{
    if (g->base.ev.disabled) return NULL;
    av *e = av_map();
    av_add_str(e, "type", type);
    return e;
}

static void push_ev(xb_game *g, av *e)
{
    events_push(&g->base.ev, EVENTS_ALL, e);
}

void xb_ev_setup(xb_game *g)
{
    av *e = ev(g, "setup");
    if (!e) return;
    av_add_str(e, "ark_card", cname(g, g->ark_card));
    av_add_int(e, "ark_life", g->ark_life);
    av *f = av_list();
    for (int s = 0; s < g->players; s++)
        av_push(f, av_str(xb_factions[g->p[s].faction].name));
    av_add(e, "factions", f);
    av_add_int(e, "target", g->target);
    push_ev(g, e);
}

void xb_ev_start_roll(xb_game *g, const bool *in, const int *roll)
{
    av *e = ev(g, "start_roll");
    if (!e) return;
    av *l = av_list();
    for (int s = 0; s < g->players; s++)
        av_push(l, in[s] ? av_int(roll[s]) : av_nil());
    av_add(e, "rolls", l);
    push_ev(g, e);
}

void xb_ev_turn(xb_game *g)
{
    av *e = ev(g, "turn_start");
    if (!e) return;
    av_add_int(e, "seat", g->cur);
    av_add_int(e, "turn", g->turns + 1);
    av_add_int(e, "productivity", xb_productivity(g, g->cur));
    push_ev(g, e);
}

void xb_ev_paragon(xb_game *g, int s, int delta, const char *why)
{
    av *e = ev(g, "paragon");
    if (!e) return;
    av_add_int(e, "seat", s);
    av_add_int(e, "delta", delta);
    av_add_int(e, "total", g->p[s].par);
    av_add_str(e, "source", why);
    push_ev(g, e);
}

void xb_ev_over(xb_game *g, const char *reason)
{
    av *e = ev(g, "game_over");
    if (!e) return;
    av_add_str(e, "reason", reason);
    av_add_int(e, "winner", g->winner);
    push_ev(g, e);
}

void xb_ev_reshuffle(xb_game *g, int fam)
{
    av *e = ev(g, "reshuffle");
    if (!e) return;
    av_add_str(e, "deck", xb_family_names[fam]);
    av_add_int(e, "cards", g->deck[fam].n);
    push_ev(g, e);
}

void xb_ev_reveal(xb_game *g, int fam, int k)
{
    av *e = ev(g, "reveal");
    if (!e) return;
    av_add_str(e, "deck", xb_family_names[fam]);
    av_add_int(e, "slot", k);
    av_add_str(e, "card", cname(g, g->market[fam][k]));
    push_ev(g, e);
}

void xb_ev_enter(xb_game *g, int s)
{
    av *e = ev(g, "enter_ark");
    if (!e) return;
    av_add_int(e, "seat", s);
    av_add_str(e, "card", cname(g, g->ark_card));
    av_add_int(e, "life", g->ark_life);
    push_ev(g, e);
}

void xb_ev_extra_die(xb_game *g, xb_die d)
{
    av *e = ev(g, "extra_die");
    if (!e) return;
    av_add_int(e, "seat", g->cur);
    av_add_str(e, "face", xb_face_names[d.face]);
    push_ev(g, e);
}

void xb_ev_card_effect(xb_game *g, int s, int loc, int card)
{
    av *e = ev(g, "card_effect");
    if (!e) return;
    av_add_int(e, "seat", s);
    av_add_str(e, "where", loc_name(loc));
    av_add_str(e, "card", cname(g, card));
    av_add_str(e, "effect", xb_effect_names[xb_type(g, card)->effect]);
    push_ev(g, e);
}

void xb_ev_pool(xb_game *g, int r, int a)
{
    av *e = ev(g, "dice_pool");
    if (!e) return;
    av_add_int(e, "seat", g->cur);
    av_add_int(e, "resource", r);
    av_add_int(e, "attack", a);
    push_ev(g, e);
}

void xb_ev_roll(xb_game *g)
{
    av *e = ev(g, "roll");
    if (!e) return;
    av_add_int(e, "seat", g->cur);
    av_add(e, "faces", dice_list(g->roll, g->n_roll));
    av_add_int(e, "rerolls_left", g->rerolls_left);
    push_ev(g, e);
}

void xb_ev_keep(xb_game *g, const bool *keep)
{
    av *e = ev(g, "keep");
    if (!e) return;
    av *l = av_list();
    for (int i = 0; i < g->n_roll; i++)
        if (keep[i]) av_push(l, av_str(xb_face_names[g->roll[i].face]));
    av_add_int(e, "seat", g->cur);
    av_add(e, "faces", l);
    push_ev(g, e);
}

void xb_ev_steal(xb_game *g, int d, int n)
{
    av *e = ev(g, "steal");
    if (!e) return;
    av_add_int(e, "seat", g->cur);
    av_add_int(e, "from", d);
    av_add_int(e, "amount", n);
    push_ev(g, e);
}

void xb_ev_destroy(xb_game *g, int s, int k, int card)
{
    av *e = ev(g, "destroy_upgrade");
    if (!e) return;
    av_add_int(e, "seat", g->cur);
    av_add_int(e, "owner", s);
    av_add_int(e, "slot", k + 1);
    av_add_str(e, "card", cname(g, card));
    push_ev(g, e);
}

void xb_ev_base_attack(xb_game *g, int d, int strength, int res, bool hit)
{
    av *e = ev(g, "base_attack");
    if (!e) return;
    av_add_int(e, "seat", g->cur);
    av_add_int(e, "target", d);
    av_add_int(e, "strength", strength);
    av_add_int(e, "resistance", res);
    av_add_bool(e, "hit", hit);
    push_ev(g, e);
}

void xb_ev_attack(xb_game *g, int soldier, int dice, int crits, int strength)
{
    av *e = ev(g, "attack");
    if (!e) return;
    av_add_int(e, "seat", g->cur);
    av_add_str(e, "soldier", cname(g, soldier));
    av_add(e, "target", g->atk_target < 0 ? av_str("ark") : av_int(g->atk_target));
    av_add_int(e, "dice", dice);
    av_add_int(e, "crits", crits);
    av_add_int(e, "strength", strength);
    push_ev(g, e);
}

void xb_ev_ark_damage(xb_game *g, int dmg)
{
    av *e = ev(g, "ark_damage");
    if (!e) return;
    av_add_int(e, "seat", g->cur);
    av_add_int(e, "damage", dmg);
    av_add_int(e, "life", g->ark_life < 0 ? 0 : g->ark_life);
    push_ev(g, e);
}

void xb_ev_soldier_destroyed(xb_game *g, int card, int owner, const char *where)
{
    av *e = ev(g, "soldier_destroyed");
    if (!e) return;
    av_add_int(e, "seat", g->cur);
    av_add_int(e, "owner", owner);
    av_add_str(e, "card", cname(g, card));
    av_add_str(e, "where", where);
    push_ev(g, e);
}

void xb_ev_block(xb_game *g, int d, int blocker, bool dies)
{
    av *e = ev(g, blocker >= 0 ? "block" : "no_block");
    if (!e) return;
    av_add_int(e, "seat", d);
    if (blocker >= 0) {
        av_add_str(e, "card", cname(g, blocker));
        av_add_bool(e, "destroyed", dies);
    }
    push_ev(g, e);
}

void xb_ev_place(xb_game *g, int card, int k)
{
    av *e = ev(g, "place");
    if (!e) return;
    av_add_int(e, "seat", g->cur);
    av_add_str(e, "card", cname(g, card));
    av_add_int(e, "slot", k + 1);
    push_ev(g, e);
}

void xb_ev_buy(xb_game *g, int card, int fam, int k)
{
    av *e = ev(g, "buy");
    if (!e) return;
    av_add_int(e, "seat", g->cur);
    av_add_str(e, "card", cname(g, card));
    av_add_str(e, "deck", xb_family_names[fam]);
    av_add_int(e, "slot", k);
    av_add_int(e, "cost", xb_market_cost(g, card));
    push_ev(g, e);
}

void xb_ev_simple(xb_game *g, const char *type)
{
    av *e = ev(g, type);
    if (!e) return;
    av_add_int(e, "seat", g->cur);
    push_ev(g, e);
}

void xb_ev_amount(xb_game *g, const char *type, int n)
{
    av *e = ev(g, type);
    if (!e) return;
    av_add_int(e, "seat", g->cur);
    av_add_int(e, "amount", n);
    push_ev(g, e);
}

void xb_ev_discard(xb_game *g, const char *from, int card)
{
    av *e = ev(g, "discard");
    if (!e) return;
    av_add_int(e, "seat", g->cur);
    av_add_str(e, "from", from);
    av_add_str(e, "card", cname(g, card));
    push_ev(g, e);
}

void xb_ev_move(xb_game *g, int to, int card)
{
    av *e = ev(g, "move");
    if (!e) return;
    av_add_int(e, "seat", g->cur);
    av_add_str(e, "to", loc_name(to));
    av_add_str(e, "card", cname(g, card));
    push_ev(g, e);
}
