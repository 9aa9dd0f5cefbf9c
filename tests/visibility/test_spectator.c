/* The spectator (referee/game.h public_view, referee/events.h
 * EVENTS_SPECTATOR) sees only what every seat sees. For every game in the
 * registry, the hidden test games included, over fuzzed games (random legal
 * choices, every allowed player count up to 4, events on):
 *
 *  - Twins. At random points of a game and for every seat s, twin B is the
 *    game A determinized for s (game.h: everything hidden from s dealt
 *    again, the game's rng reseeded). A and B then take the same choices
 *    for as long as s's knowledge is the same in both (its view, its
 *    events, its options when it decides) and the choice is legal in B.
 *    Up to there public_view(A) and public_view(B) must be byte-identical,
 *    and so must the spectator's events: what a spectator sees is a
 *    function of what seat s knows, for every s.
 *  - Events. An event the spectator gets, every seat gets, except the
 *    owner of a split event (the others' copy right after the owner's
 *    private copy, of the same type and seat), which got the private copy
 *    instead. And the spectator misses no event: not one every seat gets,
 *    nor the others' copy of a split.
 *  - Seeds. No public_view shows the game's seed (decimal or hex).
 *
 * Control tests wrap games with planted leaks that the checks must catch.
 * SPECT_GAMES sets the games per player count (default 6). */
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "policy.h"
#include "util.h"

#define DECISION_LIMIT 200000 /* every game ends long before */
#define BRANCHES 4            /* twin branch points per seat and game */

enum { CHECK_TWINS = 1, CHECK_EVENTS = 2, CHECK_SEED = 4 };

/* Extra settings that reach rules (or games) the defaults do not. */
typedef struct variant {
    const char *game;
    arena_setting set;
} variant;

static const variant variants[] = {
    {"xibalba", {"mode", "apocalypse"}},
    {"dominion", {"kingdom", "high-seas"}},
    {"twin", {"game", "xibalba"}},
};

typedef struct ctx {
    const arena_game_vt *vt; /* may wrap the game's own (control tests) */
    int check;               /* CHECK_* */
    const arena_setting *set;
    size_t nset;
    int players;
    uint64_t seed;
    char what[160];
    /* statistics over all games of a test */
    long games, points, branches, changed, steps, longest, spectator_events, splits;
    char err[3000];
} ctx;

static bool failf(ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool failf(ctx *c, const char *fmt, ...)
{
    int k = snprintf(c->err, sizeof c->err, "%s: ", c->what);
    va_list ap;
    va_start(ap, fmt);
    if (k > 0 && (size_t)k < sizeof c->err)
        vsnprintf(c->err + k, sizeof c->err - (size_t)k, fmt, ap);
    va_end(ap);
    return false;
}

static int games_per_count(void)
{
    const char *e = getenv("SPECT_GAMES");
    int n = e ? atoi(e) : 6;
    return n > 0 ? n : 6;
}

static char *json_take(av *v)
{
    char *s = v ? av_to_json(v) : NULL;
    av_free(v);
    return s;
}

/* public_view as JSON; NULL when the game has none. */
static char *public_json(const ctx *c, const arena_game *g)
{
    if (!c->vt->public_view) return NULL;
    vout o;
    vout_tree(&o);
    c->vt->public_view(g, &o);
    return json_take(vout_tree_take(&o));
}

static char *view_json(const ctx *c, const arena_game *g, int seat)
{
    return json_take(arena_view_tree(c->vt, g, seat));
}

static char *event_json(const ctx *c, const arena_game *g, size_t i, int seat)
{
    const av *e = c->vt->event(g, i, seat);
    return e ? av_to_json(e) : NULL;
}

static const char *ev_str(const ctx *c, const arena_game *g, size_t i, int seat, const char *key)
{
    const av *e = c->vt->event(g, i, seat);
    return e ? av_get_str(e, key) : NULL;
}

static bool ev_int(const ctx *c, const arena_game *g, size_t i, int seat, const char *key,
                   int64_t *out)
{
    const av *e = c->vt->event(g, i, seat);
    return e && av_get_int(e, key, out);
}

/* A big seed (> 10^12), so that no count in a view spells it by chance. */
static uint64_t big_seed(uint64_t i)
{
    uint64_t x = i * 0x9e3779b97f4a7c15ull + 12345;
    return arena_splitmix64(&x) | (1ull << 62);
}

static arena_game *create(ctx *c, unsigned flags)
{
    char err[256];
    arena_game *g = c->vt->create(c->set, c->nset, c->seed, c->players, flags, err, sizeof err);
    if (!g) failf(c, "create: %s", err);
    return g;
}

/* ---- the history: one random game, its choices kept for the twins */

typedef struct history {
    int *flat;    /* every choice's indices, one after the other */
    size_t *off;  /* decision i's indices start at flat[off[i]] */
    int *count;   /* and there are count[i] of them */
    long n;       /* decisions */
    size_t nflat; /* ints in flat */
} history;

static void history_free(history *h)
{
    free(h->flat);
    free(h->off);
    free(h->count);
}

static void history_add(history *h, const int *choice, int k)
{
    h->flat = xrealloc(h->flat, (h->nflat + (size_t)k + 1) * sizeof *h->flat);
    h->off = xrealloc(h->off, (size_t)(h->n + 1) * sizeof *h->off);
    h->count = xrealloc(h->count, (size_t)(h->n + 1) * sizeof *h->count);
    memcpy(h->flat + h->nflat, choice, (size_t)k * sizeof *choice);
    h->off[h->n] = h->nflat;
    h->count[h->n] = k;
    h->nflat += (size_t)k;
    h->n++;
}

/* The seed in every form a view might spell it. */
static bool no_seed_in(ctx *c, const char *text, uint64_t seed, const char *what)
{
    char forms[4][32];
    snprintf(forms[0], sizeof forms[0], "%" PRIu64, seed);
    snprintf(forms[1], sizeof forms[1], "%" PRId64, (int64_t)seed);
    snprintf(forms[2], sizeof forms[2], "%" PRIx64, seed);
    snprintf(forms[3], sizeof forms[3], "%" PRIX64, seed);
    for (int f = 0; f < 4; f++)
        if (strstr(text, forms[f]))
            return failf(c, "%s shows the seed %" PRIu64 " as '%s': %.600s", what, seed, forms[f],
                         text);
    return true;
}

/* Seats that get event i, as a bitmask. */
static unsigned receivers(const ctx *c, const arena_game *g, size_t i)
{
    unsigned m = 0;
    for (int s = 0; s < c->players; s++)
        if (c->vt->event(g, i, s)) m |= 1u << s;
    return m;
}

/* Is event i the others' copy of a split whose owner is seat o: the event
 * before it goes to o alone (among the seats), not to the spectator, and
 * has the same type and seat? */
static bool split_copy(const ctx *c, const arena_game *g, size_t i, int o)
{
    if (i == 0 || receivers(c, g, i - 1) != 1u << o) return false;
    if (c->vt->event(g, i - 1, EVENTS_SPECTATOR)) return false;
    const char *t1 = ev_str(c, g, i - 1, -1, "type"), *t2 = ev_str(c, g, i, -1, "type");
    int64_t s1, s2;
    return t1 && t2 && !strcmp(t1, t2) && ev_int(c, g, i - 1, -1, "seat", &s1) &&
           ev_int(c, g, i, -1, "seat", &s2) && s1 == s2 && s1 == o;
}

/* The events rules over a whole game's events (none released). */
static bool check_events(ctx *c, const arena_game *g)
{
    size_t n = c->vt->event_count(g);
    unsigned all = (1u << c->players) - 1;
    for (size_t i = 0; i < n; i++) {
        unsigned got = receivers(c, g, i);
        char *sj = event_json(c, g, i, EVENTS_SPECTATOR);
        bool ok = true;
        if (sj) {
            c->spectator_events++;
            for (int s = 0; s < c->players && ok; s++) {
                char *mine = event_json(c, g, i, s);
                if (mine ? strcmp(mine, sj) != 0 : !split_copy(c, g, i, s))
                    ok = failf(c,
                               "the spectator gets event %zu, which seat %d %s and gets no "
                               "private copy of: %.600s",
                               i, s, mine ? "gets with other bytes" : "does not get", sj);
                else if (!mine)
                    c->splits++;
                free(mine);
            }
        } else {
            int left_out = -1;
            for (int s = 0; s < c->players; s++)
                if (!(got >> s & 1)) left_out = left_out == -1 ? s : -2;
            char *oj = event_json(c, g, i, -1);
            if (got == all)
                ok = failf(c, "the spectator misses event %zu, which every seat gets: %.600s", i,
                           oj);
            else if (left_out >= 0 && split_copy(c, g, i, left_out))
                ok = failf(c,
                           "the spectator misses event %zu, the others' copy of seat %d's "
                           "private event: %.600s",
                           i, left_out, oj);
            free(oj);
        }
        free(sj);
        if (!ok) return false;
    }
    return true;
}

/* Plays one random game from c->seed, its choices into h, checking the
 * public view for the seed at every point and the events at the end. */
static bool play_history(ctx *c, arena_rng *r, history *h)
{
    arena_game *g = create(c, 0);
    if (!g) return false;
    bool ok = true;
    if (!c->vt->public_view) ok = failf(c, "no public_view: every game must have one (game.h)");
    arena_decision d;
    int *choice = NULL;
    size_t cap = 0;
    for (;;) {
        if (ok && (c->check & CHECK_SEED)) {
            char *pv = public_json(c, g);
            ok = no_seed_in(c, pv, c->seed, "public_view");
            free(pv);
            c->points++;
        }
        if (!ok || !c->vt->decision(g, &d)) break;
        if ((size_t)d.n_options > cap) {
            cap = (size_t)d.n_options;
            choice = xrealloc(choice, cap * sizeof *choice);
        }
        int k = arena_random_choice(r, &d, choice);
        if (!c->vt->apply(g, choice, k))
            ok = failf(c, "the game refused a random choice at %s", d.kind);
        else if (h->n >= DECISION_LIMIT)
            ok = failf(c, "no end");
        history_add(h, choice, k);
    }
    if (ok && (c->check & CHECK_EVENTS)) ok = check_events(c, g);
    free(choice);
    game_free(g);
    return ok;
}

/* ---- twins */

/* What seat s learnt since the branch, one world's side. */
typedef struct side {
    arena_game *g;
    size_t seen;      /* events looked at so far */
    char **mine;      /* seat s's events since the last step, JSON */
    char **spectator; /* the spectator's, the same way */
    size_t nmine, nspect;
} side;

static void side_collect(const ctx *c, side *w, int s)
{
    size_t n = c->vt->event_count(w->g);
    w->mine = xrealloc(w->mine, (w->nmine + n - w->seen + 1) * sizeof *w->mine);
    w->spectator = xrealloc(w->spectator, (w->nspect + n - w->seen + 1) * sizeof *w->spectator);
    for (; w->seen < n; w->seen++) {
        char *m = event_json(c, w->g, w->seen, s);
        char *p = event_json(c, w->g, w->seen, EVENTS_SPECTATOR);
        if (m) w->mine[w->nmine++] = m;
        if (p) w->spectator[w->nspect++] = p;
    }
}

static void side_clear(side *w)
{
    for (size_t i = 0; i < w->nmine; i++)
        free(w->mine[i]);
    for (size_t i = 0; i < w->nspect; i++)
        free(w->spectator[i]);
    w->nmine = w->nspect = 0;
}

static void side_free(side *w)
{
    side_clear(w);
    free(w->mine);
    free(w->spectator);
    game_free(w->g);
}

static bool same_lists(char **a, size_t na, char **b, size_t nb)
{
    if (na != nb) return false;
    for (size_t i = 0; i < na; i++)
        if (strcmp(a[i], b[i]) != 0) return false;
    return true;
}

typedef struct labels {
    char **l;
    int n;
} labels;

static void put_label(void *ctx_, int i, const char *label)
{
    labels *ls = ctx_;
    ls->l[i] = xstrdup(label);
}

/* Seat s's options in g (n = -1 when s does not decide). */
static labels options_of(const ctx *c, const arena_game *g, int s)
{
    labels ls = {NULL, -1};
    arena_decision d;
    if (!c->vt->decision(g, &d) || d.seat != s) return ls;
    ls.n = d.n_options;
    ls.l = xcalloc((size_t)d.n_options, sizeof *ls.l);
    char buf[512];
    arena_game_labels(c->vt, g, d.n_options, buf, sizeof buf, put_label, &ls);
    return ls;
}

static void labels_free(labels *ls)
{
    for (int i = 0; i < ls->n; i++)
        free(ls->l[i]);
    free(ls->l);
}

/* Does seat s know the same in both worlds now: its view, its events
 * since the last step, its options when it decides? */
static bool same_knowledge(const ctx *c, side *a, side *b, int s)
{
    char *va = view_json(c, a->g, s), *vb = view_json(c, b->g, s);
    bool same = strcmp(va, vb) == 0 && same_lists(a->mine, a->nmine, b->mine, b->nmine);
    free(va);
    free(vb);
    if (!same) return false;
    labels la = options_of(c, a->g, s), lb = options_of(c, b->g, s);
    same = la.n == lb.n;
    for (int i = 0; same && i < la.n; i++)
        same = strcmp(la.l[i], lb.l[i]) == 0;
    labels_free(&la);
    labels_free(&lb);
    return same;
}

/* The options of A's choice in B: the options of the same labels when B's
 * decision is the same seat's and kind and has them all (the same move,
 * which keeps the twins together longer), else the same indices. */
static void same_move(const ctx *c, const arena_game *a, const arena_decision *da,
                      const arena_game *b, const arena_decision *db, const int *choice, int n,
                      int *out)
{
    memcpy(out, choice, (size_t)n * sizeof *choice);
    if (da->seat != db->seat || strcmp(da->kind, db->kind) != 0) return;
    labels la = {xcalloc((size_t)da->n_options, sizeof(char *)), da->n_options};
    labels lb = {xcalloc((size_t)db->n_options, sizeof(char *)), db->n_options};
    char buf[512];
    arena_game_labels(c->vt, a, da->n_options, buf, sizeof buf, put_label, &la);
    arena_game_labels(c->vt, b, db->n_options, buf, sizeof buf, put_label, &lb);
    int *found = xmalloc(((size_t)n + 1) * sizeof *found);
    bool all = true;
    for (int i = 0; all && i < n; i++) {
        found[i] = -1;
        for (int j = 0; j < lb.n && found[i] < 0; j++)
            if (!strcmp(la.l[choice[i]], lb.l[j])) found[i] = j;
        all = found[i] >= 0;
    }
    if (all) memcpy(out, found, (size_t)n * sizeof *found);
    free(found);
    labels_free(&la);
    labels_free(&lb);
}

/* Branches at decision k of the history: A plays it as it was, B is A
 * determinized for seat s; both go on with the same random choices while
 * s's knowledge stays the same, and the spectator must see the same. */
static bool twin_branch(ctx *c, const history *h, long k, int s, uint64_t salt, arena_rng *r)
{
    side a = {.g = create(c, 0)}, b = {.g = create(c, 0)};
    bool ok = a.g && b.g;
    for (long i = 0; ok && i < k; i++)
        ok = c->vt->apply(a.g, h->flat + h->off[i], h->count[i]) &&
                     c->vt->apply(b.g, h->flat + h->off[i], h->count[i])
                 ? true
                 : failf(c, "a replay of the history refused choice %ld", i);
    if (!ok) {
        side_free(&a);
        side_free(&b);
        return false;
    }
    a.seen = b.seen = c->vt->event_count(a.g);
    char *omni = view_json(c, a.g, -1);
    c->vt->determinize(b.g, s, salt);
    char *omni_b = view_json(c, b.g, -1);
    c->changed += strcmp(omni, omni_b) != 0;
    free(omni);
    free(omni_b);
    c->branches++;
    int *choice = NULL;
    size_t cap = 0;
    long step = 0;
    for (; ok; step++) {
        side_collect(c, &a, s);
        side_collect(c, &b, s);
        if (!same_knowledge(c, &a, &b, s)) break;
        char *pa = public_json(c, a.g), *pb = public_json(c, b.g);
        if (strcmp(pa, pb) != 0) {
            size_t at = 0; /* show where they part, with some text before */
            while (pa[at] == pb[at])
                at++;
            at = at > 200 ? at - 200 : 0;
            ok = failf(c,
                       "branch at decision %ld for seat %d, %ld steps on: seat %d knows the same "
                       "in both worlds, but the public views differ (from byte %zu):\nA %.600s\n"
                       "B %.600s",
                       k, s, step, s, at, pa + at, pb + at);
        } else if (!same_lists(a.spectator, a.nspect, b.spectator, b.nspect)) {
            size_t i = 0;
            while (i < a.nspect && i < b.nspect && !strcmp(a.spectator[i], b.spectator[i]))
                i++;
            ok = failf(c,
                       "branch at decision %ld for seat %d, %ld steps on: seat %d knows the same "
                       "in both worlds, but the spectator's events differ:\nA %.1200s\nB %.1200s",
                       k, s, step, s, i < a.nspect ? a.spectator[i] : "(none)",
                       i < b.nspect ? b.spectator[i] : "(none)");
        }
        free(pa);
        free(pb);
        c->steps++;
        side_clear(&a);
        side_clear(&b);
        arena_decision da, db;
        if (!ok || !c->vt->decision(a.g, &da) || !c->vt->decision(b.g, &db)) break;
        if ((size_t)da.n_options > cap) {
            cap = (size_t)da.n_options;
            choice = xrealloc(choice, cap * sizeof *choice);
        }
        int n = arena_random_choice(r, &da, choice);
        int *in_b = xmalloc(((size_t)n + 1) * sizeof *in_b);
        same_move(c, a.g, &da, b.g, &db, choice, n, in_b);
        if (arena_check_choice(&db, in_b, n)) { /* out of range in B */
            free(in_b);
            break;
        }
        if (!c->vt->apply(a.g, choice, n) || !c->vt->apply(b.g, in_b, n))
            ok = failf(c, "a twin refused a legal choice");
        free(in_b);
        if (step > DECISION_LIMIT) ok = failf(c, "twins that do not end");
    }
    if (step > c->longest) c->longest = step;
    free(choice);
    side_free(&a);
    side_free(&b);
    return ok;
}

static bool fuzz_one(ctx *c, const arena_setting *set, size_t nset, int players, uint64_t seed)
{
    c->set = set;
    c->nset = nset;
    c->players = players;
    c->seed = seed;
    snprintf(c->what, sizeof c->what, "%s%s%s%s%s %dp seed %" PRIu64, c->vt->name, nset ? " " : "",
             nset ? set->key : "", nset ? "=" : "", nset ? set->value : "", players, seed);
    arena_rng r;
    arena_rng_seed(&r, seed ^ 0x5eed);
    history h = {0};
    bool ok = play_history(c, &r, &h);
    c->games++;
    if (ok && (c->check & CHECK_TWINS)) {
        if (!c->vt->determinize) ok = failf(c, "no determinize: the twins need it (game.h)");
        for (int s = 0; ok && s < players; s++)
            for (int i = 0; ok && i < BRANCHES; i++) {
                long k = i == 0 && s == 0 ? 0 : (long)arena_rng_below(&r, (uint32_t)h.n + 1);
                ok = twin_branch(c, &h, k, s, arena_rng_next(&r) | 1, &r);
            }
    }
    history_free(&h);
    return ok;
}

/* Every game of c->vt the test plays; false with c->err on a failure. */
static bool check_game(ctx *c)
{
    const arena_game_vt *vt = c->vt;
    snprintf(c->what, sizeof c->what, "%s", vt->name);
    int top = vt->max_players < 4 ? vt->max_players : 4;
    /* as many games for a game of one player count as for one of three */
    int n = games_per_count() * 3 / (top - vt->min_players + 1);
    for (int p = vt->min_players; p <= top; p++)
        for (int i = 0; i < n; i++) {
            uint64_t seed = big_seed((uint64_t)(i * 8 + p));
            if (!fuzz_one(c, NULL, 0, p, seed)) return false;
            for (size_t v = 0; v < sizeof variants / sizeof variants[0]; v++)
                if (strcmp(variants[v].game, vt->name) == 0 &&
                    !fuzz_one(c, &variants[v].set, 1, p, seed + 7))
                    return false;
        }
    printf("%s: %ld games, %ld points, %ld twin branches (%ld changed the hidden part), %ld twin "
           "steps (longest %ld), %ld spectator events (%ld split copies)\n",
           vt->name, c->games, c->points, c->branches, c->changed, c->steps, c->longest,
           c->spectator_events, c->splits);
    if (c->check & CHECK_TWINS) {
        if (c->steps == 0) return failf(c, "no twin step checked");
        /* nim hides a secret, the real games cards or deck orders: most
         * branches must deal something hidden again. */
        if (c->changed * 2 < c->branches)
            return failf(c, "determinize changed the hidden part in only %ld of %ld branches",
                         c->changed, c->branches);
    }
    if ((c->check & CHECK_EVENTS) && c->spectator_events == 0)
        return failf(c, "the spectator got no event at all");
    if ((c->check & CHECK_SEED) && c->points == 0) return failf(c, "no point checked");
    return true;
}

typedef struct test_arg {
    const char *game;
    int check;
} test_arg;

static void test_game(void **state)
{
    const test_arg *a = *state;
    ctx c = {.vt = arena_find_game(a->game), .check = a->check};
    assert_non_null(c.vt);
    if (!check_game(&c)) fail_msg("%s", c.err);
}

/* ---- controls: planted leaks that the checks must catch */

static arena_game_vt leaky;

/* The leak must be caught, and for its own reason (the message holds
 * `why`), not for another fault of the wrapped game. */
static void expect_caught(const char *game, int check, const char *reason, const char *why)
{
    ctx c = {.vt = &leaky, .check = check};
    if (check_game(&c)) fail_msg("%s: a game whose spectator %s passed", game, reason);
    printf("caught: %s\n", c.err);
    if (!strstr(c.err, why)) fail_msg("%s: caught, but not for '%s'", game, why);
}

static void seat0_view(const arena_game *g, vout *o)
{
    arena_find_game(g->vt->name)->view(g, 0, o);
}

static void omniscient_view(const arena_game *g, vout *o)
{
    arena_find_game(g->vt->name)->view(g, -1, o);
}

static void test_catches_a_public_view_that_shows_a_hand(void **state)
{
    (void)state;
    leaky = *arena_find_game("dominion");
    leaky.public_view = seat0_view; /* seat 0's view: its hand */
    expect_caught("dominion", CHECK_TWINS, "sees seat 0's hand", "the public views differ");
}

static void test_catches_a_public_view_that_shows_a_secret(void **state)
{
    (void)state;
    leaky = *arena_find_game("nim");
    leaky.public_view = seat0_view; /* seat 0's secret */
    expect_caught("nim", CHECK_TWINS, "sees seat 0's secret", "the public views differ");
}

static void test_catches_a_public_view_that_shows_the_deck_order(void **state)
{
    (void)state;
    leaky = *arena_find_game("xibalba");
    leaky.public_view = omniscient_view;
    expect_caught("xibalba", CHECK_TWINS, "sees the order of the decks", "the public views differ");
}

/* The spectator gets every event the omniscient observer gets. */
static const av *all_events(const arena_game *g, size_t i, int seat)
{
    return arena_find_game(g->vt->name)->event(g, i, seat == EVENTS_SPECTATOR ? -1 : seat);
}

static void test_catches_spectator_events_that_show_a_draw(void **state)
{
    (void)state;
    leaky = *arena_find_game("dominion");
    leaky.event = all_events; /* the owner's copies of draws too */
    expect_caught("dominion", CHECK_TWINS, "sees the cards drawn", "the spectator's events differ");
}

static void test_catches_a_spectator_event_a_seat_does_not_get(void **state)
{
    (void)state;
    leaky = *arena_find_game("nim");
    leaky.event = all_events; /* each seat's secret */
    expect_caught("nim", CHECK_EVENTS, "gets each seat's secret event", "gets no private copy");
}

/* The spectator gets no event at all. */
static const av *no_spectator_events(const arena_game *g, size_t i, int seat)
{
    return seat == EVENTS_SPECTATOR ? NULL : arena_find_game(g->vt->name)->event(g, i, seat);
}

static void test_catches_a_spectator_left_out_of_a_public_event(void **state)
{
    (void)state;
    leaky = *arena_find_game("nim");
    leaky.event = no_spectator_events;
    expect_caught("nim", CHECK_EVENTS, "misses the public takes", "which every seat gets");
}

/* A split whose others' copy goes to every seat but the spectator, as
 * EVENTS_SEAT(1 - seat) would give it in a 2-player game. */
static const av *split_without_spectator(const arena_game *g, size_t i, int seat)
{
    const arena_game_vt *vt = arena_find_game(g->vt->name);
    if (seat != EVENTS_SPECTATOR) return vt->event(g, i, seat);
    const av *e = vt->event(g, i, seat);
    const char *t = e ? av_get_str(e, "type") : NULL;
    return t && !strcmp(t, "draw") ? NULL : e;
}

static void test_catches_a_spectator_left_out_of_the_public_copy_of_a_split(void **state)
{
    (void)state;
    leaky = *arena_find_game("dominion");
    leaky.event = split_without_spectator;
    expect_caught("dominion", CHECK_EVENTS, "misses the others' copy of draws", "the others' copy");
}

static uint64_t created_seed;
static arena_game *remember_seed(const arena_setting *set, size_t nset, uint64_t seed, int players,
                                 unsigned flags, char *err, size_t errlen)
{
    created_seed = seed;
    return arena_find_game("nim")->create(set, nset, seed, players, flags, err, errlen);
}

static void seed_view(const arena_game *g, vout *o)
{
    (void)g;
    vo_map(o);
    vo_kint(o, "game", (int64_t)created_seed);
    vo_end(o);
}

static void test_catches_a_public_view_that_shows_the_seed(void **state)
{
    (void)state;
    leaky = *arena_find_game("nim");
    leaky.create = remember_seed;
    leaky.public_view = seed_view;
    expect_caught("nim", CHECK_SEED, "sees the seed", "shows the seed");
}

static void test_catches_a_game_without_public_view(void **state)
{
    (void)state;
    leaky = *arena_find_game("nim");
    leaky.public_view = NULL;
    expect_caught("nim", CHECK_SEED, "has no public view", "no public_view");
}

int main(void)
{
    static const struct {
        const char *rule;
        int check;
    } rules[] = {
        {"public_view_and_spectator_events_are_the_same_for_every_world_a_seat_cannot_tell_apart",
         CHECK_TWINS},
        {"spectator_events_are_events_every_seat_gets_and_none_is_missed", CHECK_EVENTS},
        {"public_view_shows_no_seed", CHECK_SEED},
    };
    const size_t nrules = sizeof rules / sizeof rules[0];
    const arena_game_vt *const *games = arena_games(true);
    size_t n = 0;
    while (games[n])
        n++;
    const struct CMUnitTest controls[] = {
        cmocka_unit_test(test_catches_a_public_view_that_shows_a_hand),
        cmocka_unit_test(test_catches_a_public_view_that_shows_a_secret),
        cmocka_unit_test(test_catches_a_public_view_that_shows_the_deck_order),
        cmocka_unit_test(test_catches_spectator_events_that_show_a_draw),
        cmocka_unit_test(test_catches_a_spectator_event_a_seat_does_not_get),
        cmocka_unit_test(test_catches_a_spectator_left_out_of_a_public_event),
        cmocka_unit_test(test_catches_a_spectator_left_out_of_the_public_copy_of_a_split),
        cmocka_unit_test(test_catches_a_public_view_that_shows_the_seed),
        cmocka_unit_test(test_catches_a_game_without_public_view),
    };
    size_t nc = sizeof controls / sizeof controls[0], nt = n * nrules;
    struct CMUnitTest *tests = xcalloc(nt + nc, sizeof *tests);
    memcpy(tests + nt, controls, sizeof controls);
    char **names = xcalloc(nt, sizeof *names);
    test_arg *args = xcalloc(nt, sizeof *args);
    for (size_t r = 0; r < nrules; r++)
        for (size_t i = 0; i < n; i++) {
            size_t t = r * n + i;
            names[t] = xasprintf("%s_%s", rules[r].rule, games[i]->name);
            args[t] = (test_arg){games[i]->name, rules[r].check};
            tests[t] = (struct CMUnitTest){
                .name = names[t], .test_func = test_game, .initial_state = &args[t]};
        }
    int rc = _cmocka_run_group_tests("spectator", tests, nt + nc, NULL, NULL);
    for (size_t i = 0; i < nt; i++)
        free(names[i]);
    free(names);
    free(args);
    free(tests);
    return rc;
}
