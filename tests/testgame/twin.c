/* "twin": a hidden, test-only wrapper game for the transcript twin test
 * (tests/visibility/twins.py). It plays a real game through the normal match
 * runner, but lets the test make two matches whose games differ only in what
 * one seat cannot see:
 *
 *   game=NAME   the real game (default nim, so that tests looping over every
 *               registered game can create it without settings)
 *   seed=N      the real game's seed; default: the match seed. With it fixed,
 *               the match seed feeds nothing the game shows, so two matches on
 *               different match seeds must look the same to every agent.
 *   seat=S      whose point of view is kept (default 0)
 *   salt=N      when not 0 and the game has determinize(): everything hidden
 *               from seat S is replaced and the game's rng reseeded from N
 *   village=H   Dominion only: one Estate hidden from the other seats in H's
 *               deck (or, when H has not moved yet, its hand) is a Village.
 *               A seat that never plays Actions plays the same game with it,
 *               but is asked whether to play one whenever it holds it: twins
 *               that differ only in whether a hidden card makes a decision
 *               (twins.py, the `event` framing). Village and Estate are one
 *               card each, the Supply untouched.
 *   hand=H      Pacifica only: when seat H first draws, the top card of
 *               the stack (if no seat knows it) first trades places with the
 *               deepest card of the stack that no seat knows either and shows
 *               other symbols. The deal differs only in the card H then
 *               holds, which the other seat sees as a card back of the same
 *               category (twins.py, Pacifica twins).
 *   deck=F:K    Xibalba only: the K-th card from the top of deck F (soldier,
 *               civilian, building, event), once the market is dealt, trades
 *               places with the deepest card of another type in that deck:
 *               the deal differs only in the order of a deck, hidden from
 *               every seat alike, until that card is revealed (twins.py,
 *               Xibalba twins).
 *
 * Any other key goes to the real game. `hello.options` shows only the real
 * game's settings, so the wrapper itself sends nothing a twin could tell
 * apart. Hidden from `arena games` like nim. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game.h"
#include "games/dominion/state.h"
#include "games/pacifica/pacifica.h"
#include "games/xibalba/xibalba.h"
#include "util.h"

typedef struct twin {
    arena_game base;
    arena_game *in;
    int hand; /* hand=H until H's swap is done, else -1 */
} twin;

extern const arena_game_vt twin_game;

static const arena_option_doc twin_options[] = {
    {"game", "a game name", "nim", "the real game"},
    {"seed", "integer", "the match seed", "seed of the real game"},
    {"seat", "integer", "0", "the seat whose view determinize keeps"},
    {"salt", "integer", "0", "0: the real game as dealt; else determinize(seat, salt)"},
    {"village", "seat", "none", "dominion: one hidden Estate of that seat is a Village"},
    {"hand", "seat", "none", "pacifica: the first unknown card that seat draws is another"},
    {"deck", "family:K", "none", "xibalba: the K-th card of that deck trades places deep down"},
    {0},
};

static bool parse_u64(const char *s, uint64_t *out)
{
    char *end;
    errno = 0;
    if (*s < '0' || *s > '9') return false;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || *end) return false;
    *out = v;
    return true;
}

static arena_game *wrap(arena_game *in, int hand)
{
    twin *t = xcalloc(1, sizeof *t);
    t->base.vt = &twin_game;
    t->base.size = sizeof *t;
    t->base.ev.disabled = true; /* events live in the real game */
    t->in = in;
    t->hand = hand;
    return &t->base;
}

/* village=H (see above): the last Estate in H's deck, else in its hand if
 * H's first turn has not begun. False when there is none. */
static bool swap_village(arena_game *in, int h)
{
    if (in->vt != &dominion_game) return false;
    dom_game *g = (dom_game *)in;
    if (h >= g->np) return false;
    dom_player *pl = &g->p[h];
    dom_zone *zs[2] = {&pl->z[Z_DECK], pl->turns == 0 && g->cur != h ? &pl->z[Z_HAND] : NULL};
    for (int k = 0; k < 2; k++)
        for (int i = zs[k] ? zs[k]->n - 1 : -1; i >= 0; i--)
            if (zs[k]->c[i] == C_ESTATE) {
                zs[k]->c[i] = C_VILLAGE;
                return true;
            }
    return false;
}

/* hand=H (see above), before the choice is applied: on H's first draw,
 * if nobody knows the top card, it trades places with the deepest card
 * nobody knows that shows other symbols. Both lie face down in one stack,
 * so the game is another deal of the same cards, and the card stays first
 * in H's hand until H plays it. True once H has drawn (swapped or not). */
static bool swap_hand(arena_game *in, int h, int choice)
{
    if (in->vt != &pacifica_game) return true;
    pacifica *g = (pacifica *)in;
    int opts[PAC_MAX_OPTS];
    int n = pac_options(g, opts);
    if (g->over || g->seat != h || choice < 0 || choice >= n || PO_TYPE(opts[choice]) != PO_DRAW)
        return false;
    int cat = PO_ARG(opts[choice]), top = g->stack_n[cat] - 1;
    if (top < 1 || g->seen[g->stack[cat][top]]) return true;
    const pac_card *c = &g->set.c[g->stack[cat][top]];
    for (int i = 0; i < top; i++) {
        int x = g->stack[cat][i];
        if (g->seen[x] || !memcmp(g->set.c[x].sym, c->sym, sizeof c->sym)) continue;
        g->stack[cat][i] = g->stack[cat][top];
        g->stack[cat][top] = (uint8_t)x;
        break;
    }
    return true;
}

/* deck=F:K (see above). False when the deck has no such pair. */
static bool swap_deck(arena_game *in, const char *spec)
{
    if (in->vt != &xibalba_game) return false;
    xb_game *g = (xb_game *)in;
    const char *colon = strchr(spec, ':');
    uint64_t k;
    if (!colon || !parse_u64(colon + 1, &k) || k < 1) return false;
    size_t len = (size_t)(colon - spec);
    int f = 0;
    while (f < XB_FAMILIES &&
           (strlen(xb_family_names[f]) != len || strncmp(xb_family_names[f], spec, len)))
        f++;
    if (f == XB_FAMILIES) return false;
    xb_stack *d = &g->deck[f];
    if (k > (uint64_t)d->n) return false;
    int at = d->n - (int)k; /* c[] runs bottom to top */
    for (int i = 0; i < at; i++)
        if (g->cs.type_of[d->c[i]] != g->cs.type_of[d->c[at]]) {
            int16_t x = d->c[i];
            d->c[i] = d->c[at];
            d->c[at] = x;
            return true;
        }
    return false;
}

static arena_game *twin_create(const arena_setting *set, size_t nset, uint64_t seed, int players,
                               unsigned flags, char *err, size_t errlen)
{
    const arena_game_vt *vt = NULL;
    uint64_t inner_seed = seed, salt = 0, seat = 0, village = UINT64_MAX, hand = UINT64_MAX;
    const char *deck = NULL;
    arena_setting *rest = xcalloc(nset + 1, sizeof *rest);
    size_t nrest = 0;
    for (size_t i = 0; i < nset; i++) {
        const char *k = set[i].key, *v = set[i].value;
        bool ok = true;
        if (!strcmp(k, "game")) {
            vt = arena_find_game(v);
            ok = vt && vt != &twin_game;
        } else if (!strcmp(k, "seed")) {
            ok = parse_u64(v, &inner_seed);
        } else if (!strcmp(k, "salt")) {
            ok = parse_u64(v, &salt);
        } else if (!strcmp(k, "village")) {
            ok = parse_u64(v, &village) && village < (uint64_t)players;
        } else if (!strcmp(k, "hand")) {
            ok = parse_u64(v, &hand) && hand < (uint64_t)players;
        } else if (!strcmp(k, "deck")) {
            deck = v;
        } else if (!strcmp(k, "seat")) {
            ok = parse_u64(v, &seat) && seat < (uint64_t)players;
        } else {
            rest[nrest++] = set[i];
        }
        if (!ok) {
            snprintf(err, errlen, "twin: bad %s '%s'", k, v);
            free(rest);
            return NULL;
        }
    }
    if (!vt) vt = arena_find_game("nim");
    arena_game *in = vt->create(rest, nrest, inner_seed, players, flags, err, errlen);
    free(rest);
    if (!in) return NULL;
    if (salt && vt->determinize) vt->determinize(in, (int)seat, salt);
    if (village != UINT64_MAX && !swap_village(in, (int)village)) {
        snprintf(err, errlen, "twin: no hidden Estate of seat %d to make a Village", (int)village);
        vt->free(in);
        return NULL;
    }
    if ((hand != UINT64_MAX && vt != &pacifica_game) || (deck && !swap_deck(in, deck))) {
        if (hand != UINT64_MAX && vt != &pacifica_game)
            snprintf(err, errlen, "twin: hand is for pacifica, not %s", vt->name);
        else
            snprintf(err, errlen, "twin: no deck '%s' with two types to swap in %s", deck,
                     vt->name);
        vt->free(in);
        return NULL;
    }
    return wrap(in, hand == UINT64_MAX ? -1 : (int)hand);
}

#define IN(g) (((const twin *)(g))->in)

static arena_game *twin_clone(const arena_game *g)
{
    return wrap(IN(g)->vt->clone(IN(g)), ((const twin *)g)->hand);
}

static void twin_free(arena_game *g)
{
    game_free(IN(g));
    free(g);
}

static bool twin_decision(const arena_game *g, arena_decision *d)
{
    return IN(g)->vt->decision(IN(g), d);
}

static void twin_label(const arena_game *g, int i, char *buf, size_t len)
{
    IN(g)->vt->label(IN(g), i, buf, len);
}

/* The real game's labels in one call where it has that (else one by
 * one), as the referee would ask it directly. */
static void twin_labels(const arena_game *g, char *buf, size_t len, arena_label_fn put, void *ctx)
{
    arena_decision d;
    if (IN(g)->vt->decision(IN(g), &d))
        arena_game_labels(IN(g)->vt, IN(g), d.n_options, buf, len, put, ctx);
}

static void twin_prompt(const arena_game *g, char *buf, size_t len)
{
    IN(g)->vt->prompt(IN(g), buf, len);
}

static bool twin_apply(arena_game *g, const int *choice, int n)
{
    twin *t = (twin *)g;
    if (t->hand >= 0 && n == 1 && swap_hand(t->in, t->hand, choice[0])) t->hand = -1;
    return game_apply(t->in, choice, n);
}

static void twin_view(const arena_game *g, int seat, vout *o)
{
    IN(g)->vt->view(IN(g), seat, o);
}

/* The real game's; a game without a live board shows nil. */
static void twin_public_view(const arena_game *g, vout *o)
{
    const arena_game *in = IN(g);
    if (in->vt->public_view)
        in->vt->public_view(in, o);
    else
        vo_nil(o);
}

static size_t twin_event_count(const arena_game *g)
{
    return IN(g)->vt->event_count(IN(g));
}

static const av *twin_event(const arena_game *g, size_t i, int seat)
{
    return IN(g)->vt->event(IN(g), i, seat);
}

static size_t twin_turn_from(const arena_game *g)
{
    const arena_game *in = IN(g);
    return in->vt->turn_from ? in->vt->turn_from(in) : in->vt->event_count(in);
}

static void twin_on_turn(arena_game *g, void (*fn)(void *ctx), void *ctx)
{
    arena_game *in = IN(g);
    if (in->vt->on_turn) in->vt->on_turn(in, fn, ctx);
}

static av *twin_settings(const arena_game *g)
{
    return IN(g)->vt->settings(IN(g));
}

static void twin_result(const arena_game *g, arena_result *r)
{
    IN(g)->vt->result(IN(g), r);
}

static void twin_determinize(arena_game *g, int seat, uint64_t seed)
{
    arena_game *in = ((twin *)g)->in;
    if (in->vt->determinize) in->vt->determinize(in, seat, seed);
}

const arena_game_vt twin_game = {
    .name = "twin",
    .title = "Twin wrapper (test-only: a real game, determinized for one seat)",
    .min_players = 2, /* the real game checks its own range; these are nim's, the default */
    .max_players = 4,
    .options = twin_options,
    .create = twin_create,
    .clone = twin_clone,
    .free = twin_free,
    .decision = twin_decision,
    .label = twin_label,
    .labels = twin_labels,
    .prompt = twin_prompt,
    .apply = twin_apply,
    .view = twin_view,
    .public_view = twin_public_view,
    .event_count = twin_event_count,
    .event = twin_event,
    .turn_from = twin_turn_from,
    .on_turn = twin_on_turn,
    .settings = twin_settings,
    .result = twin_result,
    .determinize = twin_determinize,
};
