/* Pacifica rules engine: symbols, activation conditions, the idol ladder,
 * the task stack that turns one rule step into one decision, and options. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pacifica.h"
#include "util.h"

static const uint8_t cat_need[3] = {3, 5, 7};
static const uint8_t div_need[2] = {1, 2};

int pac_idol_need(int idol, int level)
{
    if (level >= PAC_SECURED) return 0;
    return idol == PAC_DIVERSITY ? div_need[level] : cat_need[level];
}

int pac_idol_next(int idol, int level)
{
    /* Diversity has two steps only: 1 -> 2 -> secured. */
    if (idol == PAC_DIVERSITY && level == 1) return PAC_SECURED;
    return level + 1;
}

bool pac_has_effect(const pacifica *g, int seat, int effect)
{
    for (int i = 0; i < g->city_n[seat]; i++) {
        int c = g->city[seat][i];
        if (g->active[c] && g->set.c[c].effect == effect && g->set.c[c].cat == PC_MACHINES)
            return true;
    }
    return false;
}

int pac_hand_limit(const pacifica *g, int seat)
{
    int lim = 3;
    for (int i = 0; i < g->city_n[seat]; i++) {
        const pac_card *c = &g->set.c[g->city[seat][i]];
        if (g->active[g->city[seat][i]] && c->effect == PE_HAND_LIMIT && c->arg > lim) lim = c->arg;
    }
    return lim;
}

void pac_symbols(const pacifica *g, int seat, int except, int out[PS_NSYM])
{
    memset(out, 0, sizeof(int) * PS_NSYM);
    for (int i = 0; i < g->city_n[seat]; i++) {
        int c = g->city[seat][i];
        if (c == except || !g->active[c]) continue;
        for (int s = 0; s < PS_NSYM; s++)
            out[s] += g->set.c[c].sym[s];
    }
}

void pac_cat_counts(const int sym[PS_NSYM], int out[PC_NCAT])
{
    out[PC_TREASURE] = sym[PS_T];
    out[PC_POPULATION] = sym[PS_P];
    out[PC_RESOURCES] = sym[PS_S] + sym[PS_B];
    out[PC_ARCHITECTURE] = sym[PS_A];
    out[PC_KNOWLEDGE] = sym[PS_K];
    out[PC_MACHINES] = sym[PS_M];
    out[PC_FESTIVAL] = sym[PS_F];
}

static bool need_met(const pac_card *x, const int have[PS_NSYM], bool swap)
{
    for (int s = 0; s < PS_NSYM; s++) {
        if (s == PS_S || s == PS_B) continue;
        if (have[s] < x->need[s]) return false;
    }
    int res = have[PS_S] + have[PS_B];
    int want = x->need[PS_S] + x->need[PS_B] + x->need[PR_R];
    if (res < want) return false;
    if (swap) return true;
    return have[PS_S] >= x->need[PS_S] && have[PS_B] >= x->need[PS_B];
}

/* A red card's discard is counted per symbol, like a grey condition: the
 * discarded cards together must show the symbols of its discard letters, so a
 * card showing two of them pays for two. */
static void discard_req(const pac_card *x, int req[PR_NREQ])
{
    memset(req, 0, sizeof(int) * PR_NREQ);
    for (int i = 0; i < x->n_slots; i++)
        req[x->slots[i]]++;
}

/* What is still unpaid of req once cards showing got[] are discarded; returns
 * the number of unpaid symbols. Surplus stone or brass pays an R; with the
 * swap machine every resource symbol pays any resource letter. */
static int unpaid(const int req[PR_NREQ], const int got[PS_NSYM], bool swap, int rem[PR_NREQ])
{
    int total = 0;
    for (int s = 0; s < PS_NSYM; s++) {
        rem[s] = s == PS_S || s == PS_B ? 0 : req[s] > got[s] ? req[s] - got[s] : 0;
        total += rem[s];
    }
    if (swap) {
        int r = req[PS_S] + req[PS_B] + req[PR_R] - got[PS_S] - got[PS_B];
        rem[PR_R] = r > 0 ? r : 0;
    } else {
        int sur = 0;
        for (int s = PS_S; s <= PS_B; s++) {
            rem[s] = req[s] > got[s] ? req[s] - got[s] : 0;
            sur += got[s] > req[s] ? got[s] - req[s] : 0;
        }
        rem[PR_R] = req[PR_R] > sur ? req[PR_R] - sur : 0;
    }
    return total + rem[PS_S] + rem[PS_B] + rem[PR_R];
}

/* Can symbols avail[] pay rem? Discarding more cards never hurts coverage,
 * so this decides whether any choice of the remaining cards can finish. */
static bool can_pay(const int rem[PR_NREQ], const int avail[PS_NSYM])
{
    for (int s = 0; s < PS_NSYM; s++)
        if (avail[s] < rem[s]) return false;
    return avail[PS_S] + avail[PS_B] >= rem[PS_S] + rem[PS_B] + rem[PR_R];
}

static bool is_chosen(const pacifica *g, int c)
{
    for (int i = 0; i < g->n_chosen; i++)
        if (g->chosen[i] == c) return true;
    return false;
}

static void add_syms(int *acc, const pac_card *c, int sign)
{
    for (int s = 0; s < PS_NSYM; s++)
        acc[s] += sign * c->sym[s];
}

/* got: symbols on the chosen cards; avail: on the other active cards of the
 * city that are neither x nor chosen. */
static void discard_pool(const pacifica *g, int seat, int x, int got[PS_NSYM], int avail[PS_NSYM])
{
    memset(got, 0, sizeof(int) * PS_NSYM);
    memset(avail, 0, sizeof(int) * PS_NSYM);
    for (int i = 0; i < g->city_n[seat]; i++) {
        int c = g->city[seat][i];
        if (c == x || !g->active[c]) continue;
        add_syms(is_chosen(g, c) ? got : avail, &g->set.c[c], 1);
    }
}

int pac_discard_left(const pacifica *g, int seat, int x)
{
    int req[PR_NREQ], rem[PR_NREQ], got[PS_NSYM], avail[PS_NSYM];
    discard_req(&g->set.c[x], req);
    discard_pool(g, seat, x, got, avail);
    return unpaid(req, got, pac_has_effect(g, seat, PE_SWAP_RES), rem);
}

/* Cards that may be discarded next for card x given g->chosen: each must pay
 * at least one unpaid symbol and leave the rest payable. */
int pac_discard_candidates(const pacifica *g, int seat, int x, int *out)
{
    bool swap = pac_has_effect(g, seat, PE_SWAP_RES);
    int req[PR_NREQ], rem[PR_NREQ], got[PS_NSYM], avail[PS_NSYM];
    discard_req(&g->set.c[x], req);
    discard_pool(g, seat, x, got, avail);
    int left = unpaid(req, got, swap, rem), n = 0;
    for (int i = 0; i < g->city_n[seat]; i++) {
        int c = g->city[seat][i];
        if (c == x || !g->active[c] || is_chosen(g, c)) continue;
        const pac_card *pc = &g->set.c[c];
        add_syms(got, pc, 1);
        add_syms(avail, pc, -1);
        if (unpaid(req, got, swap, rem) < left && can_pay(rem, avail)) out[n++] = c;
        add_syms(got, pc, -1);
        add_syms(avail, pc, 1);
    }
    return n;
}

/* have: symbols on the seat's active cards (x is inactive, so they are all
 * "other" cards); computed once by callers that test many cards. */
static bool activatable_with(const pacifica *g, int seat, int x, const int have[PS_NSYM], bool swap)
{
    if (g->where[x] != PL_CITY || g->owner[x] != seat || g->active[x]) return false;
    const pac_card *c = &g->set.c[x];
    if (c->act == PA_GREY) return need_met(c, have, swap);
    if (c->act == PA_RED) {
        /* x is inactive, so have[] is exactly the pool it may discard from. */
        int req[PR_NREQ], rem[PR_NREQ], none[PS_NSYM] = {0};
        discard_req(c, req);
        unpaid(req, none, swap, rem);
        return can_pay(rem, have);
    }
    return true; /* a green card out of play order (cannot happen) */
}

bool pac_activatable(const pacifica *g, int seat, int x)
{
    int have[PS_NSYM];
    pac_symbols(g, seat, x, have);
    return activatable_with(g, seat, x, have, pac_has_effect(g, seat, PE_SWAP_RES));
}

/* Marks activatable cards of the seat's city in out (by city position);
 * returns how many. */
static int activatable_list(const pacifica *g, int seat, int *out)
{
    int have[PS_NSYM], n = 0;
    pac_symbols(g, seat, -1, have);
    bool swap = pac_has_effect(g, seat, PE_SWAP_RES);
    for (int i = 0; i < g->city_n[seat]; i++) {
        int c = g->city[seat][i];
        if (!g->active[c] && activatable_with(g, seat, c, have, swap)) {
            if (!out) return 1;
            out[n++] = c;
        }
    }
    return n;
}

int pac_idols_owned(const pacifica *g, int seat, int *secured)
{
    int n = 0, s = 0;
    for (int i = 0; i < PAC_NIDOLS; i++)
        if (g->idol_owner[i] == seat) {
            n++;
            if (g->idol_level[i] == PAC_SECURED) s++;
        }
    if (secured) *secured = s;
    return n;
}

static void push_event(pacifica *g, uint32_t vis, av *e)
{
    events_push(&g->base.ev, vis, e);
}

static void end_game(pacifica *g, int winner, const char *reason)
{
    g->over = true;
    g->winner = winner;
    g->end_reason = reason;
    g->n_task = 0;
    if (g->base.ev.disabled) return;
    av *e = av_map();
    av_add_str(e, "type", "end");
    av_add_int(e, "winner", winner);
    av_add_str(e, "reason", reason);
    push_event(g, EVENTS_ALL, e);
}

void pac_check_idols(pacifica *g, int seat, const int *temp)
{
    if (g->over) return;
    int sym[PS_NSYM], cnt[PC_NCAT];
    pac_symbols(g, seat, -1, sym);
    if (temp)
        for (int s = 0; s < PS_NSYM; s++)
            sym[s] += temp[s];
    pac_cat_counts(sym, cnt);
    int div = cnt[0];
    for (int c = 1; c < PC_NCAT; c++)
        if (cnt[c] < div) div = cnt[c];
    /* Temporary symbols take one idol or turn one up by one step ("erobert
     * ... ein Idol oder dürft ein Idol ... eine Stufe höher drehen"). Only
     * idols whose count they raised can move (the ladder already ran on the
     * lasting symbols), so in index order the idol of the card's own symbols
     * comes first and Diversity, the last index, only when none of those
     * moves (docs/games/pacifica.md). */
    bool moved = false;
    for (int i = 0; i < PAC_NIDOLS && !(temp && moved); i++) {
        int have = i == PAC_DIVERSITY ? div : cnt[i];
        /* Whoever shows the number takes the idol and turns it up; an owner
         * raising its own idol is the same step, so loop. */
        for (; g->idol_level[i] < PAC_SECURED && have >= pac_idol_need(i, g->idol_level[i]) &&
               !(temp && moved);
             moved = true) {
            int from = g->idol_owner[i];
            g->idol_owner[i] = (int8_t)seat;
            g->idol_level[i] = (uint8_t)pac_idol_next(i, g->idol_level[i]);
            if (!g->base.ev.disabled) {
                av *e = av_map();
                av_add_str(e, "type", "idol");
                av_add_str(e, "idol", i == PAC_DIVERSITY ? "Diversity" : pac_cat_names[i]);
                av_add_int(e, "seat", seat);
                av_add_int(e, "from", from);
                av_add_int(e, "need", pac_idol_need(i, g->idol_level[i]));
                av_add_bool(e, "secured", g->idol_level[i] == PAC_SECURED);
                push_event(g, EVENTS_ALL, e);
            }
        }
    }
    int secured, owned = pac_idols_owned(g, seat, &secured);
    if (secured >= 3)
        end_game(g, seat, "secured");
    else if (owned >= 5)
        end_game(g, seat, "idols");
}

int pac_find_card(const pacifica *g, const char *id)
{
    for (int c = 0; c < PAC_NCARDS; c++)
        if (strcmp(g->set.c[c].id, id) == 0) return c;
    return -1;
}

/* ---- moving cards ---- */

static void push_task(pacifica *g, int kind, int arg, int n)
{
    if (g->n_task == PAC_TASK_CAP) abort(); /* bounded by design; never reached */
    g->task[g->n_task++] = (pac_task){(uint8_t)kind, (uint8_t)arg, (uint8_t)n};
}

static void remove_from_city(pacifica *g, int seat, int c)
{
    for (int i = 0; i < g->city_n[seat]; i++)
        if (g->city[seat][i] == c) {
            memmove(&g->city[seat][i], &g->city[seat][i + 1], (size_t)(g->city_n[seat] - i - 1));
            g->city_n[seat]--;
            return;
        }
}

static void remove_from_hand(pacifica *g, int seat, int c)
{
    for (int i = 0; i < g->hand_n[seat]; i++)
        if (g->hand[seat][i] == c) {
            memmove(&g->hand[seat][i], &g->hand[seat][i + 1], (size_t)(g->hand_n[seat] - i - 1));
            g->hand_n[seat]--;
            return;
        }
}

static void put_in_city(pacifica *g, int seat, int c)
{
    g->where[c] = PL_CITY;
    g->seen[c] = PAC_SEEN_ALL;
    g->owner[c] = (uint8_t)seat;
    g->city[seat][g->city_n[seat]++] = (uint8_t)c;
    g->active[c] = g->set.c[c].act == PA_GREEN;
}

/* Discarded cards go under their category stack. */
static void discard_card(pacifica *g, int seat, int c)
{
    int cat = g->set.c[c].cat;
    remove_from_city(g, seat, c);
    g->active[c] = false;
    g->where[c] = PL_STACK;
    g->seen[c] = PAC_SEEN_ALL; /* both saw it go under the stack */
    memmove(&g->stack[cat][1], &g->stack[cat][0], g->stack_n[cat]);
    g->stack[cat][0] = (uint8_t)c;
    g->stack_n[cat]++;
    if (g->base.ev.disabled) return;
    av *e = av_map();
    av_add_str(e, "type", "discard");
    av_add_int(e, "seat", seat);
    av_add_str(e, "card", g->set.c[c].id);
    av_add_str(e, "name", g->set.c[c].name);
    push_event(g, EVENTS_ALL, e);
}

static void draw_card(pacifica *g, int seat, int cat, const char *source, bool bonus_ok)
{
    int c = g->stack[cat][--g->stack_n[cat]];
    g->where[c] = PL_HAND;
    g->owner[c] = (uint8_t)seat;
    /* The opponent keeps knowing it only if it knew the top card. */
    g->seen[c] |= (uint8_t)(1u << seat);
    g->hand[seat][g->hand_n[seat]++] = (uint8_t)c;
    if (!g->base.ev.disabled) {
        for (int k = 0; k < 2; k++) {
            av *e = av_map();
            av_add_str(e, "type", "draw");
            av_add_int(e, "seat", seat);
            av_add_str(e, "category", pac_cat_names[cat]);
            av_add_str(e, "source", source);
            if (k == 0) {
                av_add_str(e, "card", g->set.c[c].id);
                av_add_str(e, "name", g->set.c[c].name);
            }
            /* The others' copy names no card: the spectator gets it too. */
            push_event(g, k == 0 ? EVENTS_SEAT(seat) : EVENTS_ALL & ~EVENTS_SEAT(seat), e);
        }
    }
    if (cat != PC_FESTIVAL || !bonus_ok) return;
    int n = 0;
    for (int i = 0; i < g->city_n[seat]; i++) {
        int m = g->city[seat][i];
        n += g->active[m] && g->set.c[m].effect == PE_FESTIVAL_BONUS;
    }
    /* One task for all the machines' draws: a task each overflowed the
     * task stack (an abort of the referee) with a card file of many such
     * machines, once bonus draws from Festival brought more. */
    if (n) push_task(g, PT_BONUS_DRAW, 0, n);
}

static void card_event(pacifica *g, const char *type, int seat, int c, const char *k2,
                       const char *v2)
{
    if (g->base.ev.disabled) return;
    av *e = av_map();
    av_add_str(e, "type", type);
    av_add_int(e, "seat", seat);
    av_add_str(e, "card", g->set.c[c].id);
    av_add_str(e, "name", g->set.c[c].name);
    if (k2) av_add_str(e, k2, v2);
    push_event(g, EVENTS_ALL, e);
}

static bool any_stack(const pacifica *g)
{
    for (int c = 0; c < PC_NCAT; c++)
        if (g->stack_n[c]) return true;
    return false;
}

static bool can_draw(const pacifica *g, int seat)
{
    return g->hand_n[seat] < pac_hand_limit(g, seat) && g->hand_n[seat] < PAC_HAND_CAP &&
           any_stack(g);
}

static bool any_activatable(const pacifica *g, int seat)
{
    return activatable_list(g, seat, NULL) > 0;
}

static int copy_targets(const pacifica *g, int self, int *out)
{
    int n = 0;
    for (int k = 0; k < 2; k++) {
        int s = (g->seat + k) % 2;
        for (int i = 0; i < g->city_n[s]; i++) {
            int c = g->city[s][i];
            const pac_card *pc = &g->set.c[c];
            /* Copying a copy could loop forever, so copies are not targets. */
            if (c != self && pc->cat == PC_FESTIVAL && pc->effect && pc->effect != PE_COPY &&
                pc->effect <= PE_TEMP)
                out[n++] = c;
        }
    }
    return n;
}

static void run_effect(pacifica *g, int src)
{
    const pac_card *c = &g->set.c[src];
    int seat = g->seat;
    if (!g->base.ev.disabled)
        card_event(g, "effect", seat, src, "effect", pac_effect_names[c->effect]);
    switch (c->effect) {
    case PE_SEARCH: push_task(g, PT_SEARCH_STACK, 0, 0); break;
    case PE_MACHINE_TOP:
        if (g->stack_n[PC_MACHINES]) {
            int m = g->stack[PC_MACHINES][--g->stack_n[PC_MACHINES]];
            put_in_city(g, seat, m);
            card_event(g, "to_city", seat, m, "from", "machine-top");
            pac_check_idols(g, seat, NULL);
        }
        break;
    case PE_FILL_HAND: push_task(g, PT_FILL, 0, 0); break;
    case PE_COPY: push_task(g, PT_COPY_PICK, src, 0); break;
    case PE_DRAW: push_task(g, PT_DRAW, 0, c->arg); break;
    case PE_TEMP: {
        int temp[PS_NSYM];
        for (int s = 0; s < PS_NSYM; s++)
            temp[s] = c->temp[s];
        pac_check_idols(g, seat, temp);
        break;
    }
    default: break;
    }
}

static void finish_activation(pacifica *g, int x)
{
    int seat = g->seat;
    for (int i = 0; i < g->n_chosen; i++)
        discard_card(g, seat, g->chosen[i]);
    g->n_chosen = 0;
    g->active[x] = true;
    card_event(g, "activate", seat, x, NULL, NULL);
    pac_check_idols(g, seat, NULL);
    const pac_card *c = &g->set.c[x];
    if (!g->over && c->cat == PC_FESTIVAL && c->effect) push_task(g, PT_EFFECT, x, 0);
}

/* A green card is active the moment it comes into play: its symbols count at
 * once and a Festival card's one-time effect happens now. */
static void green_arrived(pacifica *g, int c)
{
    pac_check_idols(g, g->seat, NULL);
    const pac_card *pc = &g->set.c[c];
    if (!g->over && pc->cat == PC_FESTIVAL && pc->effect) push_task(g, PT_EFFECT, c, 0);
}

/* With every stack empty, what a seat can still do: play a card from its
 * hand or activate one (a red activation even refills a stack). */
static bool can_act(const pacifica *g, int seat)
{
    return g->hand_n[seat] > 0 || any_activatable(g, seat);
}

static void start_turn(pacifica *g)
{
    if (!any_stack(g) && !can_act(g, 0) && !can_act(g, 1)) {
        /* Exhaustion rule, ours: the rulebook ends a game only by a win, and
         * here nothing can change any more. It waits while a seat can still
         * act, since that seat may yet win. More secured idols, then more
         * idols, wins. */
        int s0, s1, i0 = pac_idols_owned(g, 0, &s0), i1 = pac_idols_owned(g, 1, &s1);
        int w = s0 != s1 ? (s0 > s1 ? 0 : 1) : i0 != i1 ? (i0 > i1 ? 0 : 1) : -1;
        end_game(g, w, "exhausted");
        return;
    }
    if (g->turn >= PAC_TURN_CAP) {
        int s0, s1, i0 = pac_idols_owned(g, 0, &s0), i1 = pac_idols_owned(g, 1, &s1);
        int w = s0 != s1 ? (s0 > s1 ? 0 : 1) : i0 != i1 ? (i0 > i1 ? 0 : 1) : -1;
        end_game(g, w, "turn-cap");
        return;
    }
    g->turn++;
    g->seat = g->turn == 1 ? g->first : 1 - g->seat;
    g->actions_left = 3;
    events_turn_moved(&g->base.ev);
    if (!g->base.ev.disabled) {
        av *e = av_map();
        av_add_str(e, "type", "turn");
        av_add_int(e, "seat", g->seat);
        av_add_int(e, "turn", g->turn);
        push_event(g, EVENTS_ALL, e);
    }
    /* One optional draw per start-draw machine; pushed in reverse so the
     * first machine in the city resolves first. */
    for (int i = g->city_n[g->seat] - 1; i >= 0; i--) {
        int m = g->city[g->seat][i];
        if (g->active[m] && g->set.c[m].effect == PE_START_DRAW)
            push_task(g, PT_START_DRAW, g->set.c[m].arg, 0);
    }
}

void pac_advance(pacifica *g)
{
    int buf[PAC_NCARDS];
    while (!g->over) {
        if (g->n_task == 0) {
            if (g->actions_left > 0) return;
            start_turn(g);
            continue;
        }
        pac_task *t = &g->task[g->n_task - 1];
        int seat = g->seat;
        switch (t->kind) {
        case PT_SETUP_DRAW:
        case PT_DRAW:
            if (t->n == 0 || !can_draw(g, seat)) break;
            return;
        case PT_FILL:
        case PT_BONUS_DRAW:
            if (!can_draw(g, seat)) break;
            return;
        case PT_START_DRAW:
            if (!can_draw(g, seat) || !g->stack_n[t->arg]) break;
            return;
        case PT_ACT_PICK:
            if (!any_activatable(g, seat)) break;
            return;
        case PT_DISCARD: {
            if (pac_discard_left(g, seat, t->arg) == 0) break;
            int n = pac_discard_candidates(g, seat, t->arg, buf);
            if (n > 1) return;
            /* A single candidate is no choice; none cannot happen because
             * the card was activatable when picked. */
            if (n == 0) abort();
            g->chosen[g->n_chosen++] = (uint8_t)buf[0];
            continue;
        }
        case PT_FINISH_ACT: {
            int x = t->arg;
            g->n_task--;
            finish_activation(g, x);
            continue;
        }
        case PT_EFFECT: {
            int x = t->arg;
            g->n_task--;
            run_effect(g, x);
            continue;
        }
        case PT_SEARCH_STACK:
            if (!any_stack(g)) break;
            return;
        case PT_SEARCH_TAKE: return;
        case PT_COPY_PICK:
            if (copy_targets(g, t->arg, buf) == 0) break;
            return;
        }
        g->n_task--; /* the task is done */
    }
}

/* ---- options ---- */

#define OPT(t, a) (((t) << 8) | (a))

int pac_options(const pacifica *g, int *o)
{
    int n = 0, seat = g->seat, buf[PAC_NCARDS];
    if (g->over) return 0;
    if (g->n_task == 0) {
        if (can_draw(g, seat))
            for (int c = 0; c < PC_NCAT; c++)
                if (g->stack_n[c]) o[n++] = OPT(PO_DRAW, c);
        for (int i = 0; i < g->hand_n[seat]; i++)
            o[n++] = OPT(PO_PLAY, g->hand[seat][i]);
        if (any_activatable(g, seat)) o[n++] = OPT(PO_ACTIVATE, 0);
        if (n == 0) o[n++] = OPT(PO_END, 0);
        return n;
    }
    const pac_task *t = &g->task[g->n_task - 1];
    switch (t->kind) {
    case PT_SETUP_DRAW:
    case PT_DRAW:
    case PT_FILL:
    case PT_BONUS_DRAW:
        for (int c = 0; c < PC_NCAT; c++)
            if (g->stack_n[c]) o[n++] = OPT(PO_DRAW, c);
        break;
    case PT_START_DRAW:
        o[n++] = OPT(PO_DRAW, t->arg);
        o[n++] = OPT(PO_SKIP, 0);
        break;
    case PT_ACT_PICK: {
        int k = activatable_list(g, seat, buf);
        for (int i = 0; i < k; i++)
            o[n++] = OPT(PO_PICK, buf[i]);
    }
        if (t->arg == 1) o[n++] = OPT(PO_DONE, 0);
        break;
    case PT_DISCARD: {
        int k = pac_discard_candidates(g, seat, t->arg, buf);
        for (int i = 0; i < k; i++)
            o[n++] = OPT(PO_DISCARD, buf[i]);
        break;
    }
    case PT_SEARCH_STACK:
        for (int c = 0; c < PC_NCAT; c++)
            if (g->stack_n[c]) o[n++] = OPT(PO_SEARCH, c);
        break;
    case PT_SEARCH_TAKE:
        /* By card number, never by stack position: the order stays hidden. */
        for (int c = 0; c < PAC_NCARDS; c++)
            if (g->where[c] == PL_STACK && g->set.c[c].cat == t->arg) o[n++] = OPT(PO_TAKE, c);
        break;
    case PT_COPY_PICK: {
        int k = copy_targets(g, t->arg, buf);
        for (int i = 0; i < k; i++)
            o[n++] = OPT(PO_COPY, buf[i]);
        break;
    }
    default: break;
    }
    return n;
}

/* ---- applying one option ---- */

static const char *draw_source(int kind)
{
    switch (kind) {
    case PT_SETUP_DRAW: return "setup";
    case PT_START_DRAW: return "start";
    case PT_BONUS_DRAW: return "bonus";
    default: return "effect";
    }
}

void pac_apply_option(pacifica *g, int opt)
{
    int seat = g->seat, a = PO_ARG(opt);
    if (g->n_task == 0) {
        g->actions_left--;
        switch (PO_TYPE(opt)) {
        case PO_DRAW: draw_card(g, seat, a, "action", true); break;
        case PO_PLAY: {
            remove_from_hand(g, seat, a);
            put_in_city(g, seat, a);
            card_event(g, "play", seat, a, NULL, NULL);
            if (g->active[a]) green_arrived(g, a);
            break;
        }
        case PO_ACTIVATE:
            push_task(g, PT_ACT_PICK, 1, 0);
            push_task(g, PT_ACT_PICK, 0, 0);
            break;
        case PO_END: g->actions_left = 0; break;
        }
        pac_advance(g);
        return;
    }
    pac_task *t = &g->task[g->n_task - 1];
    int kind = t->kind; /* t's slot may be reused once popped */
    switch (kind) {
    case PT_SETUP_DRAW:
    case PT_DRAW:
    case PT_BONUS_DRAW:
        /* A bonus card drawn from Festival is a draw from Festival too: the
         * card says so of every one, and the hand limit ends the chain. */
        if (--t->n == 0) g->n_task--;
        draw_card(g, seat, a, draw_source(kind), true);
        break;
    case PT_FILL: draw_card(g, seat, a, "effect", true); break;
    case PT_START_DRAW:
        g->n_task--;
        if (PO_TYPE(opt) == PO_DRAW) draw_card(g, seat, a, draw_source(kind), true);
        break;
    case PT_ACT_PICK:
        g->n_task--;
        if (PO_TYPE(opt) == PO_PICK) {
            g->n_chosen = 0;
            push_task(g, PT_FINISH_ACT, a, 0);
            if (g->set.c[a].n_slots) push_task(g, PT_DISCARD, a, 0);
        }
        break;
    case PT_DISCARD: g->chosen[g->n_chosen++] = (uint8_t)a; break;
    case PT_SEARCH_STACK:
        g->n_task--;
        /* The searcher looks through the stack: from now on it knows where
         * each of its cards lies (there is no reshuffle afterwards). */
        for (int i = 0; i < g->stack_n[a]; i++)
            g->seen[g->stack[a][i]] |= (uint8_t)(1u << seat);
        push_task(g, PT_SEARCH_TAKE, a, 0);
        break;
    case PT_SEARCH_TAKE: {
        g->n_task--;
        int cat = t->arg;
        for (int i = 0; i < g->stack_n[cat]; i++)
            if (g->stack[cat][i] == a) {
                memmove(&g->stack[cat][i], &g->stack[cat][i + 1],
                        (size_t)(g->stack_n[cat] - i - 1));
                g->stack_n[cat]--;
                break;
            }
        put_in_city(g, seat, a);
        card_event(g, "to_city", seat, a, "from", "search");
        if (g->active[a])
            green_arrived(g, a);
        else
            pac_check_idols(g, seat, NULL);
        break;
    }
    case PT_COPY_PICK:
        g->n_task--;
        run_effect(g, a);
        break;
    }
    pac_advance(g);
}
