/* builtin:greedy for Pacifica: scores each option with a static evaluation
 * of the seat's own city (idols it would hold, symbol progress, diversity)
 * and takes the best. It reads the state struct for speed but only what its
 * seat sees: own hand, both cities, stack sizes, idols, and the cards the
 * current options name. No lookahead through hidden cards. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "games/pacifica/pacifica.h"
#include "policy.h"
#include "util.h"

typedef struct greedy {
    int seat;
    bool favour[PC_NCAT]; /* greedy-favour:CAT[+CAT...]: categories to push */
} greedy;

/* Evaluation of symbol counts sym (PS_*) for seat: idols it would hold after
 * the ladder ran with these counts, plus progress towards the next steps. */
static double phi(const pacifica *g, int seat, const int sym[PS_NSYM])
{
    int cnt[PC_NCAT];
    pac_cat_counts(sym, cnt);
    int div = cnt[0], div2 = 0, div1 = 0;
    for (int c = 0; c < PC_NCAT; c++) {
        if (cnt[c] < div) div = cnt[c];
        div1 += cnt[c] >= 1;
        div2 += cnt[c] >= 2;
    }
    double v = 0;
    int owned = 0, secured = 0;
    for (int i = 0; i < PAC_NIDOLS; i++) {
        int have = i == PAC_DIVERSITY ? div : cnt[i];
        int lvl = g->idol_level[i], own = g->idol_owner[i];
        while (lvl < PAC_SECURED && have >= pac_idol_need(i, lvl)) {
            own = seat;
            lvl = pac_idol_next(i, lvl);
        }
        if (own == seat) {
            owned++;
            secured += lvl == PAC_SECURED;
            v += 100 + (lvl == PAC_SECURED ? 30 : 4 * lvl);
        } else if (own >= 0 && lvl == PAC_SECURED) {
            continue; /* lost for good: symbols here are worth little */
        }
        if (lvl < PAC_SECURED && i != PAC_DIVERSITY) {
            int need = pac_idol_need(i, lvl);
            int h = have < need ? have : need;
            /* closer to the number is worth more; less so for raising one's own */
            v += (own == seat ? 3.0 : 9.0) * h * h / need;
        }
    }
    if (g->idol_level[PAC_DIVERSITY] < PAC_SECURED) v += 5 * div1 + 4 * div2;
    if (secured >= 3 || owned >= 5) v += 100000;
    if (owned == 4) v += 60;
    if (secured == 2) v += 60;
    return v;
}

static double symbols_value(const pac_card *c)
{
    int n = 0;
    for (int s = 0; s < PS_NSYM; s++)
        n += c->sym[s];
    return n;
}

/* Value of a card's own effect when it becomes active. */
static double effect_value(const pacifica *g, int seat, const pac_card *c, const int sym[PS_NSYM])
{
    int room = pac_hand_limit(g, seat) - g->hand_n[seat];
    switch (c->effect) {
    case PE_SEARCH: return 22;
    case PE_MACHINE_TOP: return 16;
    case PE_FILL_HAND: return 7.0 * (room > 0 ? room : 0);
    case PE_COPY: return 10;
    case PE_DRAW: return 7.0 * (c->arg < room ? c->arg : room);
    case PE_TEMP: {
        int t[PS_NSYM];
        for (int s = 0; s < PS_NSYM; s++)
            t[s] = sym[s] + c->temp[s];
        double base = phi(g, seat, sym), with = phi(g, seat, t);
        /* Only idol changes last; the progress part of phi vanishes. */
        return with - base > 50 ? with - base : 0;
    }
    case PE_SWAP_RES: return 6;
    case PE_HAND_LIMIT: return c->arg > pac_hand_limit(g, seat) ? 12 : 0;
    case PE_START_DRAW: return 14;
    case PE_FESTIVAL_BONUS: return 4;
    default: return 0;
    }
}

/* Gain from activating card x now: symbols gained minus the cheapest
 * discards, evaluated by phi, plus its effect. */
static double activation_gain(const pacifica *g, int seat, int x)
{
    pacifica *t = (pacifica *)pacifica_game.clone(&g->base);
    t->n_chosen = 0;
    int cand[PAC_NCARDS];
    const pac_card *xc = &g->set.c[x];
    while (pac_discard_left(t, seat, x) > 0) {
        int n = pac_discard_candidates(t, seat, x, cand);
        if (n == 0) break; /* not activatable: callers check first */
        int best = cand[0];
        double bv = 1e9;
        for (int i = 0; i < n; i++) {
            const pac_card *cc = &g->set.c[cand[i]];
            double v = symbols_value(cc) + (cc->effect ? 8 : 0);
            if (v < bv) bv = v, best = cand[i];
        }
        t->chosen[t->n_chosen++] = (uint8_t)best;
    }
    int before[PS_NSYM], after[PS_NSYM];
    pac_symbols(g, seat, -1, before);
    memcpy(after, before, sizeof after);
    for (int i = 0; i < t->n_chosen; i++)
        for (int s = 0; s < PS_NSYM; s++)
            after[s] -= g->set.c[t->chosen[i]].sym[s];
    for (int s = 0; s < PS_NSYM; s++)
        after[s] += xc->sym[s];
    double gain = phi(g, seat, after) - phi(g, seat, before);
    gain += effect_value(g, seat, xc, after);
    for (int i = 0; i < t->n_chosen; i++)
        if (g->set.c[t->chosen[i]].effect) gain -= 8;
    pacifica_game.free(&t->base);
    return gain;
}

/* What a card of category cat drawn now is worth on average: symbols, less
 * for cards that arrive inactive, plus something for an effect. Averaged over
 * the category's cards the seat cannot see placed (not in a city, not in its
 * hand), so it follows the card set instead of a fixed ranking. */
static double stack_worth(const pacifica *g, int seat, int cat)
{
    static const double act_factor[3] = {1.0, 0.75, 0.6}; /* green, grey, red */
    double sum = 0;
    int n = 0;
    for (int c = 0; c < PAC_NCARDS; c++) {
        const pac_card *pc = &g->set.c[c];
        if (pc->cat != cat || g->where[c] == PL_CITY ||
            (g->where[c] == PL_HAND && g->owner[c] == seat))
            continue;
        sum += symbols_value(pc) * act_factor[pc->act] + (pc->effect ? 1 : 0);
        n++;
    }
    return n ? 1.8 * sum / n : 0;
}

/* How much the seat wants a card of each category: what its cards are worth,
 * symbols its pending cards ask for, plus idols within reach. */
static void category_want(const pacifica *g, int seat, double want[PC_NCAT])
{
    static const int sym_cat[PR_NREQ] = {PC_TREASURE,  PC_POPULATION,   PC_RESOURCES,
                                         PC_RESOURCES, PC_ARCHITECTURE, PC_KNOWLEDGE,
                                         PC_MACHINES,  PC_FESTIVAL,     PC_RESOURCES};
    int sym[PS_NSYM], cnt[PC_NCAT];
    pac_symbols(g, seat, -1, sym);
    pac_cat_counts(sym, cnt);
    for (int c = 0; c < PC_NCAT; c++) {
        want[c] = stack_worth(g, seat, c);
        int lvl = g->idol_level[c];
        if (lvl < PAC_SECURED) {
            int gap = pac_idol_need(c, lvl) - cnt[c];
            if (gap <= 2) want[c] += 3 - gap;
        }
        if (cnt[c] == 0) want[c] += 1;
    }
    const uint8_t *lists[2] = {g->city[seat], g->hand[seat]};
    int lens[2] = {g->city_n[seat], g->hand_n[seat]};
    for (int l = 0; l < 2; l++)
        for (int i = 0; i < lens[l]; i++) {
            int x = lists[l][i];
            if (g->active[x]) continue;
            const pac_card *c = &g->set.c[x];
            for (int r = 0; r < PR_NREQ; r++)
                if (c->need[r]) want[sym_cat[r]] += 2.0 * c->need[r];
            for (int k = 0; k < c->n_slots; k++)
                want[sym_cat[c->slots[k]]] += 2.0;
        }
}

/* Bias of the favouring variant: a favoured category's stack and cards. */
#define FAVOUR_DRAW 1.5
#define FAVOUR_CARD 2.0

static int best_draw(const greedy *p, const pacifica *g, int seat, const int *opts, int n,
                     double *score)
{
    double want[PC_NCAT];
    category_want(g, seat, want);
    for (int c = 0; c < PC_NCAT; c++)
        if (p->favour[c]) want[c] += FAVOUR_DRAW;
    int best = -1;
    double bv = -1e18;
    for (int i = 0; i < n; i++) {
        if (PO_TYPE(opts[i]) != PO_DRAW && PO_TYPE(opts[i]) != PO_SEARCH) continue;
        double v = want[PO_ARG(opts[i])];
        if (v > bv) bv = v, best = i;
    }
    if (score) *score = bv;
    return best;
}

/* Value of playing hand card x into the city. */
static double play_value(const pacifica *g, int seat, int x)
{
    const pac_card *c = &g->set.c[x];
    int before[PS_NSYM], after[PS_NSYM];
    pac_symbols(g, seat, -1, before);
    if (c->act == PA_GREEN) {
        for (int s = 0; s < PS_NSYM; s++)
            after[s] = before[s] + c->sym[s];
        return phi(g, seat, after) - phi(g, seat, before) + effect_value(g, seat, c, after) + 2;
    }
    /* Inactive on arrival: worth part of what activating it would give. */
    pacifica *t = (pacifica *)pacifica_game.clone(&g->base);
    for (int i = 0; i < t->hand_n[seat]; i++)
        if (t->hand[seat][i] == x) {
            memmove(&t->hand[seat][i], &t->hand[seat][i + 1], (size_t)(t->hand_n[seat] - i - 1));
            t->hand_n[seat]--;
        }
    t->where[x] = PL_CITY;
    t->owner[x] = (uint8_t)seat;
    t->active[x] = false;
    t->city[seat][t->city_n[seat]++] = (uint8_t)x;
    double v = pac_activatable(t, seat, x) ? 0.6 * activation_gain(t, seat, x) + 4
                                           : 1.5 * symbols_value(c) + 1;
    pacifica_game.free(&t->base);
    return v;
}

static double favour_bonus(const greedy *p, const pacifica *g, int x)
{
    const pac_card *c = &g->set.c[x];
    return p->favour[c->cat] ? FAVOUR_CARD * symbols_value(c) : 0;
}

static double discard_cost(const pac_card *c)
{
    return symbols_value(c) + (c->effect ? 8 : 0);
}

static int greedy_decide(void *self, const arena_game *gg, const arena_decision *d, int *choice)
{
    const greedy *p = self;
    const pacifica *g = (const pacifica *)gg;
    int seat = d->seat;
    int opts[PAC_MAX_OPTS];
    int n = pac_options(g, opts);
    int best = 0;
    double bv = -1e18;
    if (strcmp(d->kind, "action") == 0 || strcmp(d->kind, "activate-pick") == 0) {
        double draw_score = -1e18;
        int draw_i = best_draw(p, g, seat, opts, n, &draw_score);
        for (int i = 0; i < n; i++) {
            int o = opts[i], a = PO_ARG(o);
            double v;
            switch (PO_TYPE(o)) {
            case PO_DRAW:
                if (i != draw_i) continue;
                v = 6 + draw_score - 3.0 * g->hand_n[seat];
                break;
            case PO_PLAY: v = play_value(g, seat, a) + favour_bonus(p, g, a); break;
            case PO_ACTIVATE: {
                double m = -1e18;
                for (int k = 0; k < g->city_n[seat]; k++) {
                    int x = g->city[seat][k];
                    if (!pac_activatable(g, seat, x)) continue;
                    double gx = activation_gain(g, seat, x) + favour_bonus(p, g, x);
                    if (gx > m) m = gx;
                }
                v = m + 3;
                break;
            }
            case PO_PICK: v = activation_gain(g, seat, a) + favour_bonus(p, g, a); break;
            case PO_DONE: v = 0; break;
            default: v = -100; /* "end": the only option anyway */
            }
            if (v > bv) bv = v, best = i;
        }
    } else if (strcmp(d->kind, "discard-pick") == 0) {
        for (int i = 0; i < n; i++) {
            double v = -discard_cost(&g->set.c[PO_ARG(opts[i])]);
            if (v > bv) bv = v, best = i;
        }
    } else if (strcmp(d->kind, "search-take") == 0) {
        for (int i = 0; i < n; i++) {
            const pac_card *c = &g->set.c[PO_ARG(opts[i])];
            double v = symbols_value(c) * (c->act == PA_GREEN ? 3 : 1) + (c->effect ? 4 : 0) +
                       favour_bonus(p, g, PO_ARG(opts[i]));
            if (v > bv) bv = v, best = i;
        }
    } else if (strcmp(d->kind, "copy-pick") == 0) {
        int sym[PS_NSYM];
        pac_symbols(g, seat, -1, sym);
        for (int i = 0; i < n; i++) {
            double v = effect_value(g, seat, &g->set.c[PO_ARG(opts[i])], sym);
            if (v > bv) bv = v, best = i;
        }
    } else {
        /* Every draw-like decision: never skip, take the most wanted stack. */
        int i = best_draw(p, g, seat, opts, n, NULL);
        best = i >= 0 ? i : 0;
    }
    choice[0] = best;
    return 1;
}

/* arg (greedy-favour only): category names joined by '+'. */
static void *greedy_create(const char *arg, int seat, uint64_t seed, char *err, size_t errlen)
{
    (void)seed;
    greedy *p = xcalloc(1, sizeof *p);
    p->seat = seat;
    for (const char *a = arg; a && *a;) {
        size_t n = strcspn(a, "+");
        int c = 0;
        while (c < PC_NCAT && (strlen(pac_cat_names[c]) != n || strncmp(a, pac_cat_names[c], n)))
            c++;
        if (c == PC_NCAT) {
            snprintf(err, errlen, "greedy-favour: unknown category '%.*s' (e.g. Machines+Festival)",
                     (int)n, a);
            free(p);
            return NULL;
        }
        p->favour[c] = true;
        a += n + (a[n] == '+');
    }
    return p;
}

const arena_policy_vt pacifica_policy_greedy = {
    .name = "greedy",
    .game = "pacifica",
    .summary = "one-step evaluation of idols and symbol progress (pacifica)",
    .create = greedy_create,
    .decide = greedy_decide,
    .free = free,
};

/* The same bot pushed towards some categories: for balance measurements. */
const arena_policy_vt pacifica_policy_greedy_favour = {
    .name = "greedy-favour",
    .game = "pacifica",
    .summary = "greedy that favours categories, e.g. greedy-favour:Machines+Festival (pacifica)",
    .takes_arg = true,
    .create = greedy_create,
    .decide = greedy_decide,
    .free = free,
};
